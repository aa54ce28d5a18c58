// pi-ai's JSON helpers for model output: repairing the string literals models
// get wrong, parsing finished tool-call arguments, and showing the arguments
// of a tool call while its JSON text is still arriving.
import { parsePartialJson } from "./partial-json.js";

const JSON_ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);
const CONTROL_ESCAPES = { "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
const FOUR_HEX = /^[0-9a-fA-F]{4}$/;

/**
 * Makes string literals valid: raw control characters are escaped and a
 * backslash that starts no valid escape becomes a literal backslash. Text
 * outside strings is left alone.
 */
export function repairJson(json) {
  const out = [];
  let inString = false;
  for (let index = 0; index < json.length; index++) {
    const char = json[index];
    if (!inString || char === '"') {
      out.push(char);
      if (char === '"') inString = !inString;
      continue;
    }
    if (char === "\\") {
      const next = json[index + 1];
      if (next === "u" && FOUR_HEX.test(json.slice(index + 2, index + 6))) {
        out.push(json.slice(index, index + 6));
        index += 5;
      } else if (next !== undefined && JSON_ESCAPES.has(next)) {
        out.push(char, next);
        index += 1;
      } else {
        out.push("\\\\");
      }
      continue;
    }
    const code = char.charCodeAt(0);
    if (code < 0x20) out.push(CONTROL_ESCAPES[char] ?? `\\u${code.toString(16).padStart(4, "0")}`);
    else out.push(char);
  }
  return out.join("");
}

/** JSON.parse, retried once on the repaired text; the original error when repair changes nothing. */
export function parseJsonWithRepair(json) {
  try {
    return JSON.parse(json);
  } catch (error) {
    const repaired = repairJson(json);
    if (repaired === json) throw error;
    return JSON.parse(repaired);
  }
}

/**
 * The arguments of a finished tool call. Malformed text gives no arguments
 * and an `argumentsError` that quotes it, so validation can tell the model.
 */
export function parseToolCallArguments(json) {
  if (!json?.trim()) return { arguments: {} };
  try {
    const parsed = parseJsonWithRepair(json);
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw new Error("Tool arguments must be a JSON object");
    }
    return { arguments: parsed };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { arguments: {}, argumentsError: `${reason}\n\nReceived arguments:\n${json}` };
  }
}

/**
 * Whatever can be read from JSON text that may be cut off: the whole parse,
 * the repaired parse, then partial-json's reading of the text as it is and
 * of the repaired text. `{}` when nothing can be read or the reading is null
 * (a complete "null" is still null). Never throws on strings.
 */
export function parseStreamingJson(partialJson) {
  if (!partialJson) return {};
  // V8's words for what pi hits here, so extensions read the same text on either engine.
  if (typeof partialJson.trim !== "function") throw new TypeError("partialJson.trim is not a function");
  if (partialJson.trim() === "") return {};
  try {
    return parseJsonWithRepair(partialJson);
  } catch {
    // Unfinished text: read as much of it as can be.
  }
  const readings = [() => partialJson, () => repairJson(partialJson)];
  for (const reading of readings) {
    try {
      return parsePartialJson(reading()) ?? {};
    } catch {
      // The next reading, or none.
    }
  }
  return {};
}

// --- StreamingJsonParser: the tolerant incremental reader ------------------

const SIMPLE_ESCAPES = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const NUMBER_MISSING_EXPONENT = /^(-?(?:0|[1-9]\d*)(?:\.\d+)?)[eE][+-]?$/;
const LITERALS = new Map([
  ["true", true],
  ["false", false],
  ["null", null],
]);
// A longer unfinished number is not shown until it ends.
const LONGEST_SHOWN_TOKEN = 64;
// Changes inside containers deeper than this are reported as one `set` of
// the whole container when it closes, so a path never grows long.
const DEEPEST_REPORTED_PATH = 32;
// What a snapshot may spend copying the open containers: earned by every
// piece (a floor, so small documents are always current) and per character.
const CREDIT_PER_PIECE = 256;
const CREDIT_PER_CHARACTER = 8;
const ROOT = { kind: "root" };

const isHex = (char) => /^[0-9a-fA-F]$/.test(char);
const endsToken = (char) => " \t\n\r,:{}[]\"".includes(char);

function setMember(target, key, value) {
  // An own "__proto__" member, as JSON.parse makes, never the prototype.
  if (key === "__proto__") Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

function putAt(container, slot, value) {
  if (slot.kind === "element") container[slot.index] = value;
  else setMember(container, slot.key, value);
}

function finishedToken(token) {
  if (LITERALS.has(token)) return LITERALS.get(token);
  return NUMBER.test(token) ? Number(token) : undefined;
}

function unfinishedToken(token) {
  for (const [word, value] of LITERALS) if (word.startsWith(token)) return value;
  if (NUMBER.test(token)) return Number(token);
  const mantissa = NUMBER_MISSING_EXPONENT.exec(token);
  return mantissa ? Number(mantissa[1]) : undefined;
}

/**
 * Reads JSON text piece by piece, each piece once, leniently: an unfinished
 * string shows what has arrived (an unfinished escape waits), unfinished
 * containers show their members so far, members without a value are left
 * out, unfinished literals and numbers show once they can be read, missing
 * commas and colons are tolerated, values in wrong places and unknown words
 * are dropped, and text after the root value is ignored. Never throws.
 *
 * `append(piece)` returns what the piece changed, for writers that keep
 * their own copy: `{ kind: "set", path, value }` when a member, element or
 * finished value appears (a string first with its first text, a container
 * empty) and `{ kind: "append", path, text }` when an open string grew.
 * `snapshot()` returns the value so far as a new object that never changes
 * afterwards; copying the open containers is paid from credit the pieces
 * earn, so while a very large container is open the snapshot may be the
 * previous one, and no input makes the work outgrow the text.
 */
export class StreamingJsonParser {
  #root = undefined;
  #finished = false;
  #frames = [];
  #string = undefined;
  #token = "";
  #tokenSlot = undefined;
  #changed = false;
  #snapshot = undefined;
  /** Members and elements of the open containers, plus one each: what a copy costs. */
  #openSize = 0;
  #credit = 0;
  #changes = [];

  append(text) {
    this.#credit += CREDIT_PER_PIECE + CREDIT_PER_CHARACTER * text.length;
    this.#changes = [];
    // A string that goes on in this piece is reported by a change of its own.
    if (this.#string) this.#string.change = undefined;
    let index = 0;
    while (index < text.length && !this.#finished) {
      if (this.#string) index = this.#readString(text, index);
      else if (this.#token !== "") index = this.#readToken(text, index);
      else this.#readStructure(text[index++]);
    }
    return this.#changes;
  }

  /** The value so far (`undefined` before one starts); the previous object while nothing changed or a copy is not yet paid for. */
  snapshot() {
    if (!this.#changed) return this.#snapshot;
    const pending = this.#pendingToken();
    const cost = this.#openSize + (pending ? 1 : 0);
    if (cost > this.#credit) return this.#snapshot;
    this.#credit -= cost;
    this.#changed = false;
    this.#snapshot = this.#copyOpenValue(pending);
    return this.#snapshot;
  }

  #top() {
    return this.#frames[this.#frames.length - 1];
  }

  #slotForValue() {
    const frame = this.#top();
    if (!frame) return this.#root === undefined ? ROOT : undefined;
    if (Array.isArray(frame.container)) return { kind: "element", index: frame.container.length };
    if ((frame.phase === "value" || frame.phase === "colon") && frame.key !== undefined) return { kind: "member", key: frame.key };
    return undefined;
  }

  /** Where changes of the value at `slot` are reported, if they are. */
  #pathOf(slot) {
    if (!slot) return undefined;
    if (slot.kind === "root") return [];
    const frame = this.#top();
    if (!frame.reportsInside) return undefined;
    return [...frame.path, slot.kind === "member" ? slot.key : slot.index];
  }

  #report(change) {
    this.#changes.push(change);
    return change;
  }

  #place(slot, value) {
    if (!slot) return;
    this.#changed = true;
    if (slot.kind === "root") {
      this.#root = value;
      return;
    }
    const frame = this.#top();
    const isNew =
      slot.kind === "element" ? slot.index === frame.container.length : !Object.hasOwn(frame.container, slot.key);
    if (isNew) {
      frame.size += 1;
      this.#openSize += 1;
    }
    putAt(frame.container, slot, value);
  }

  #valueEnded() {
    const frame = this.#top();
    if (frame) frame.phase = "comma";
    else if (this.#root !== undefined) this.#finished = true;
  }

  #readStructure(char) {
    const frame = this.#top();
    switch (char) {
      case " ":
      case "\t":
      case "\n":
      case "\r":
        return;
      case '"': {
        const isKey = frame !== undefined && !Array.isArray(frame.container) && (frame.phase === "key" || frame.phase === "comma");
        const slot = isKey ? undefined : this.#slotForValue();
        const path = isKey ? undefined : this.#pathOf(slot);
        this.#string = { isKey, slot, path, text: "", escape: "", change: undefined };
        if (isKey) return;
        this.#place(slot, "");
        if (path) this.#string.change = this.#report({ kind: "set", path, value: "" });
        return;
      }
      case "{":
      case "[": {
        const container = char === "{" ? {} : [];
        const slot = this.#slotForValue();
        const path = this.#pathOf(slot);
        this.#place(slot, container);
        const reportsInside = path !== undefined && path.length < DEEPEST_REPORTED_PATH;
        this.#frames.push({ container, slot, path, reportsInside, size: 0, key: undefined, phase: char === "{" ? "key" : "value" });
        this.#openSize += 1;
        this.#changed = true;
        if (path) this.#report({ kind: "set", path, value: char === "{" ? {} : [] });
        return;
      }
      case "}":
      case "]": {
        const closed = this.#frames.pop();
        if (!closed) return;
        this.#openSize -= closed.size + 1;
        this.#changed = true;
        if (closed.path && !closed.reportsInside) this.#report({ kind: "set", path: closed.path, value: closed.container });
        this.#valueEnded();
        return;
      }
      case ":":
        if (frame && !Array.isArray(frame.container) && frame.phase === "colon") frame.phase = "value";
        return;
      case ",":
        if (frame) frame.phase = Array.isArray(frame.container) ? "value" : "key";
        return;
      default:
        this.#token = char;
        this.#tokenSlot = this.#slotForValue();
        if (this.#tokenSlot) this.#changed = true;
    }
  }

  #readToken(text, start) {
    let end = start;
    while (end < text.length && !endsToken(text[end])) end++;
    if (end > start) {
      this.#token += text.slice(start, end);
      if (this.#tokenSlot) this.#changed = true;
    }
    if (end < text.length) {
      const value = finishedToken(this.#token);
      const slot = this.#tokenSlot;
      this.#token = "";
      this.#tokenSlot = undefined;
      if (value !== undefined) {
        this.#place(slot, value);
        const path = this.#pathOf(slot);
        if (path) this.#report({ kind: "set", path, value });
      }
      this.#valueEnded();
    }
    return end;
  }

  #readString(text, start) {
    const open = this.#string;
    let run = start;
    const flush = (end) => {
      if (end > run) this.#addText(text.slice(run, end));
    };
    for (let index = start; index < text.length; index++) {
      const char = text[index];
      if (open.escape !== "") {
        if (this.#continueEscape(char)) {
          run = index + 1;
          continue;
        }
        run = index;
      }
      if (char === '"') {
        flush(index);
        this.#endString();
        return index + 1;
      }
      if (char === "\\") {
        flush(index);
        open.escape = "\\";
        run = index + 1;
      }
    }
    flush(text.length);
    return text.length;
  }

  /** Feeds `char` to the escape in progress; false when it is not part of it and must be read as text. */
  #continueEscape(char) {
    const open = this.#string;
    if (open.escape === "\\") {
      if (Object.hasOwn(SIMPLE_ESCAPES, char)) {
        open.escape = "";
        this.#addText(SIMPLE_ESCAPES[char]);
        return true;
      }
      if (char === "u") {
        open.escape = "\\u";
        return true;
      }
      // Not an escape: the backslash is text, as repairJson() reads it.
      open.escape = "";
      this.#addText("\\");
      return false;
    }
    if (isHex(char)) {
      open.escape += char;
      if (open.escape.length === 6) {
        const code = Number.parseInt(open.escape.slice(2), 16);
        open.escape = "";
        this.#addText(String.fromCharCode(code));
      }
      return true;
    }
    const kept = open.escape;
    open.escape = "";
    this.#addText(kept);
    return false;
  }

  #addText(text) {
    const open = this.#string;
    open.text += text;
    if (open.isKey) return;
    this.#place(open.slot, open.text);
    if (!open.path) return;
    // While nothing was reported after it, this string's latest change grows.
    const latest = open.change;
    if (latest && this.#changes[this.#changes.length - 1] === latest) {
      if (latest.kind === "set") latest.value += text;
      else latest.text += text;
      return;
    }
    open.change = this.#report({ kind: "append", path: open.path, text });
  }

  #endString() {
    const open = this.#string;
    this.#string = undefined;
    const frame = this.#top();
    if (open.isKey) {
      if (!frame) return;
      frame.key = open.text;
      frame.phase = "colon";
    } else {
      this.#valueEnded();
    }
  }

  /** Fresh copies of the open containers, so earlier snapshots never change. */
  #copyOpenValue(pending) {
    if (this.#frames.length === 0) return pending?.slot.kind === "root" ? pending.value : this.#root;
    let child;
    let childSlot;
    for (let depth = this.#frames.length - 1; depth >= 0; depth--) {
      const frame = this.#frames[depth];
      // Spreading defines an own "__proto__" member as a member, as wanted.
      const copy = Array.isArray(frame.container) ? frame.container.slice() : { ...frame.container };
      if (depth === this.#frames.length - 1 && pending) putAt(copy, pending.slot, pending.value);
      if (child !== undefined && childSlot) putAt(copy, childSlot, child);
      child = copy;
      childSlot = frame.slot;
    }
    return childSlot?.kind === "root" ? child : this.#root;
  }

  #pendingToken() {
    const slot = this.#tokenSlot;
    if (!slot || this.#token === "" || this.#token.length > LONGEST_SHOWN_TOKEN) return undefined;
    const value = unfinishedToken(this.#token);
    return value === undefined ? undefined : { slot, value };
  }
}

/**
 * The arguments of one tool call while they stream: the raw text, parsed
 * once in full by finish(), and the partial arguments after every piece.
 * Providers keep it beside the content block, so the raw text never reaches
 * partial messages.
 */
export class ToolCallArgumentsStream {
  #text = "";
  #reader = new StreamingJsonParser();
  #lastSnapshot = undefined;
  #arguments = {};

  get text() {
    return this.#text;
  }

  /** Adds a piece of argument text; the partial arguments, a new object only when they changed. */
  append(delta) {
    this.#text += delta;
    this.#reader.append(delta);
    return this.#partial();
  }

  /**
   * Takes the provider's whole argument text: the missing piece as `delta`
   * when it continues the text so far, else a fresh start (`delta` undefined).
   */
  replace(text) {
    if (text.startsWith(this.#text)) {
      const delta = text.slice(this.#text.length);
      return { delta, arguments: delta === "" ? this.#partial() : this.append(delta) };
    }
    this.#text = "";
    this.#reader = new StreamingJsonParser();
    return { delta: undefined, arguments: this.append(text) };
  }

  /** The final arguments, from one full parse that reports malformed text. */
  finish() {
    return parseToolCallArguments(this.#text);
  }

  #partial() {
    const snapshot = this.#reader.snapshot();
    if (snapshot === this.#lastSnapshot) return this.#arguments;
    this.#lastSnapshot = snapshot;
    // Arguments are an object; any other value shows as none yet.
    this.#arguments = snapshot !== null && typeof snapshot === "object" && !Array.isArray(snapshot) ? snapshot : {};
    return this.#arguments;
  }
}
