// What the `partial-json` package's parse() makes of a JSON text cut off
// anywhere (every kind of value allowed to be partial), which
// parseStreamingJson falls back to. Its leniency is part of what pi shows
// while arguments stream, so the odd corners are kept as they are: an object
// reads any character where the colon belongs, a number runs up to the next
// `,`, `]` or `}`, an unfinished value ends its container with what was read
// so far, and words it knows (null, true, false, NaN, Infinity, -Infinity)
// count when the text ends inside them.

const BLANKS = " \n\r\t";
const NUMBER_ENDS = ",]}";
const WORDS = [
  ["null", null],
  ["true", true],
  ["false", false],
  ["Infinity", Number.POSITIVE_INFINITY],
  ["-Infinity", Number.NEGATIVE_INFINITY],
  ["NaN", Number.NaN],
];

/**
 * The value a possibly unfinished JSON text starts with. Throws when the
 * text is empty or its first value cannot be read even in part; a container
 * never throws, it ends early instead.
 */
export function parsePartialJson(text) {
  if (typeof text !== "string") throw new TypeError(`expecting str, got ${typeof text}`);
  const trimmed = text.trim();
  if (!trimmed) throw new Error(`${text} is empty`);
  return new PartialJsonReader(trimmed).readValue();
}

class PartialJsonReader {
  constructor(text) {
    this.text = text;
    this.position = 0;
  }

  readValue() {
    this.skipBlanks();
    if (this.position >= this.text.length) throw new SyntaxError(`Unexpected end of input at position ${this.position}`);
    switch (this.text[this.position]) {
      case '"':
        return this.readString();
      case "{":
        return this.readObject();
      case "[":
        return this.readArray();
    }
    const word = this.wordHere();
    if (word) {
      // The whole word is stepped over even when the text ends inside it.
      this.position += word[0].length;
      return word[1];
    }
    return this.readNumber();
  }

  wordHere() {
    const remaining = this.text.length - this.position;
    for (const word of WORDS) {
      const [spelling] = word;
      if (this.text.startsWith(spelling, this.position)) return word;
      const cutShort = remaining < spelling.length && spelling.startsWith(this.text.slice(this.position));
      // A lone "-" is left to the number reader, which gives up on it.
      if (cutShort && (spelling !== "-Infinity" || remaining > 1)) return word;
    }
    return undefined;
  }

  /** A string, or an object key: the first character is taken as the opening quote whatever it is. */
  readString() {
    const start = this.position;
    let escaping = false;
    for (this.position = start + 1; this.position < this.text.length; this.position++) {
      const char = this.text[this.position];
      if (char === '"' && !escaping) {
        this.position++;
        return JSON.parse(this.text.slice(start, this.position));
      }
      escaping = char === "\\" && !escaping;
    }
    // Cut short: the text so far, without a backslash that escapes nothing yet.
    const body = this.text.slice(start, escaping ? -1 : undefined);
    try {
      return JSON.parse(`${body}"`);
    } catch {
      // An escape cut inside (`\u00`): everything before the text's last
      // backslash, which substring() takes from wherever that is.
      return JSON.parse(`${this.text.substring(start, this.text.lastIndexOf("\\"))}"`);
    }
  }

  readObject() {
    this.position++;
    this.skipBlanks();
    const object = {};
    try {
      while (this.text[this.position] !== "}") {
        this.skipBlanks();
        if (this.position >= this.text.length) return object;
        const key = this.readString();
        this.skipBlanks();
        this.position++;
        // Plain assignment: a "__proto__" member sets the prototype, as in the package.
        object[key] = this.readValue();
        this.skipBlanks();
        if (this.text[this.position] === ",") this.position++;
      }
    } catch {
      return object;
    }
    this.position++;
    return object;
  }

  readArray() {
    this.position++;
    const array = [];
    try {
      while (this.text[this.position] !== "]") {
        array.push(this.readValue());
        this.skipBlanks();
        if (this.text[this.position] === ",") this.position++;
      }
    } catch {
      return array;
    }
    this.position++;
    return array;
  }

  readNumber() {
    // Only a number that is the whole text starts at 0; it is read whole.
    if (this.position === 0) return this.readWholeTextNumber();
    const start = this.position;
    while (this.position < this.text.length && !NUMBER_ENDS.includes(this.text[this.position])) this.position++;
    const token = this.text.slice(start, this.position);
    try {
      return JSON.parse(token);
    } catch (error) {
      if (token === "-") throw error;
      return JSON.parse(this.beforeLastE(start));
    }
  }

  readWholeTextNumber() {
    if (this.text === "-") throw new SyntaxError("Not sure what '-' is at position 0");
    try {
      return JSON.parse(this.text);
    } catch (error) {
      try {
        return JSON.parse(this.beforeLastE(0));
      } catch {
        throw error;
      }
    }
  }

  /** From `start` to the text's last "e" (an exponent cut short), with substring()'s clamping and swapping. */
  beforeLastE(start) {
    return this.text.substring(start, this.text.lastIndexOf("e"));
  }

  skipBlanks() {
    while (this.position < this.text.length && BLANKS.includes(this.text[this.position])) this.position++;
  }
}
