// Terminal escape sequences as pi-tui sees them: which ones take no cells,
// and the SGR/hyperlink state that must be re-opened when text is split.

const ESC = 0x1b;
const BEL = 0x07;

/**
 * Length of the escape sequence at `pos`, or 0. pi-tui knows CSI sequences
 * ending in m, G, K, H or J, and OSC/APC strings ended by BEL or ST; any
 * other ESC is ordinary (visible) text.
 */
export function escapeLength(str, pos) {
  if (str.charCodeAt(pos) !== ESC) return 0;
  const kind = str[pos + 1];
  if (kind === "[") {
    for (let j = pos + 2; j < str.length; j++) {
      const c = str[j];
      if (c === "m" || c === "G" || c === "K" || c === "H" || c === "J") return j + 1 - pos;
    }
    return 0;
  }
  if (kind === "]" || kind === "_") {
    for (let j = pos + 2; j < str.length; j++) {
      const c = str.charCodeAt(j);
      if (c === BEL) return j + 1 - pos;
      if (c === ESC && str[j + 1] === "\\") return j + 2 - pos;
    }
  }
  return 0;
}

/** Index of the next recognised escape sequence at or after `from`, or -1. */
export function nextEscape(str, from) {
  let i = str.indexOf("\x1b", from);
  while (i !== -1 && escapeLength(str, i) === 0) i = str.indexOf("\x1b", i + 1);
  return i;
}

/** `str` cut into text runs and escape sequences: [{ text } | { code }]. */
export function splitEscapes(str) {
  const parts = [];
  let i = 0;
  while (i < str.length) {
    const len = escapeLength(str, i);
    if (len > 0) {
      parts.push({ code: str.slice(i, i + len) });
      i += len;
      continue;
    }
    let end = nextEscape(str, i + 1);
    if (end === -1) end = str.length;
    parts.push({ text: str.slice(i, end) });
    i = end;
  }
  return parts;
}

/** Every recognised escape sequence of `str`, concatenated. */
export function escapesOf(str) {
  let out = "";
  for (const part of splitEscapes(str)) if (part.code) out += part.code;
  return out;
}

/** `str` without its recognised escape sequences. */
export function stripTerminalSequences(str) {
  if (!str.includes("\x1b")) return str;
  let out = "";
  for (const part of splitEscapes(str)) if (part.text) out += part.text;
  return out;
}

/** Each run of C0/C1 control characters (ESC, BEL, newlines, ...) as one space. */
export function replaceControlCharacters(str) {
  return str.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ");
}

/**
 * An OSC 8 sequence as { params, url, terminator }; url "" is a close.
 * Returns undefined for anything that is not OSC 8.
 */
export function parseHyperlink(code) {
  if (!code.startsWith("\x1b]8;")) return undefined;
  const terminator = code.endsWith("\x07") ? "\x07" : "\x1b\\";
  const body = code.slice(4, code.length - terminator.length);
  const semi = body.indexOf(";");
  if (semi === -1) return undefined;
  return { params: body.slice(0, semi), url: body.slice(semi + 1), terminator };
}

export function hyperlinkOpen(link) {
  return `\x1b]8;${link.params};${link.url}${link.terminator}`;
}

export function hyperlinkClose(terminator) {
  return `\x1b]8;;${terminator}`;
}

/** The close for the hyperlink still open at the end of `str`, or "". */
export function openHyperlinkClose(str) {
  if (!str.includes("\x1b]8;")) return "";
  let open = null;
  for (const part of splitEscapes(str)) {
    if (!part.code) continue;
    const link = parseHyperlink(part.code);
    if (link) open = link.url ? link : null;
  }
  return open ? hyperlinkClose(open.terminator) : "";
}

// SGR attributes pi-tui carries across lines, in the order it re-emits them.
const FLAGS = [
  ["bold", 1],
  ["dim", 2],
  ["italic", 3],
  ["underline", 4],
  ["blink", 5],
  ["inverse", 7],
  ["hidden", 8],
  ["strikethrough", 9],
];
const SET_FLAG = new Map(FLAGS.map(([name, code]) => [code, name]));
const CLEAR_FLAGS = new Map([
  [21, ["bold"]],
  [22, ["bold", "dim"]],
  [23, ["italic"]],
  [24, ["underline"]],
  [25, ["blink"]],
  [27, ["inverse"]],
  [28, ["hidden"]],
  [29, ["strikethrough"]],
]);

/** The style in force after a run of escape sequences. */
export class StyleState {
  constructor() {
    this.resetStyle();
    this.link = null;
  }

  resetStyle() {
    for (const [name] of FLAGS) this[name] = false;
    this.fg = null;
    this.bg = null;
  }

  /** Apply one escape sequence. */
  apply(code) {
    const link = parseHyperlink(code);
    if (link) {
      this.link = link.url ? link : null;
      return;
    }
    if (!code.endsWith("m")) return;
    const m = /\x1b\[([\d;]*)m/.exec(code);
    if (!m) return;
    if (m[1] === "" || m[1] === "0") {
      this.resetStyle();
      return;
    }
    const p = m[1].split(";");
    for (let i = 0; i < p.length; ) {
      const n = Number.parseInt(p[i], 10);
      if (n === 38 || n === 48) {
        const width = p[i + 1] === "5" && p[i + 2] !== undefined ? 3 : p[i + 1] === "2" && p[i + 4] !== undefined ? 5 : 0;
        if (width > 0) {
          const color = p.slice(i, i + width).join(";");
          if (n === 38) this.fg = color;
          else this.bg = color;
          i += width;
          continue;
        }
      }
      if (n === 0) this.resetStyle();
      else if (SET_FLAG.has(n)) this[SET_FLAG.get(n)] = true;
      else if (CLEAR_FLAGS.has(n)) for (const name of CLEAR_FLAGS.get(n)) this[name] = false;
      else if (n === 39) this.fg = null;
      else if (n === 49) this.bg = null;
      else if ((n >= 30 && n <= 37) || (n >= 90 && n <= 97)) this.fg = String(n);
      else if ((n >= 40 && n <= 47) || (n >= 100 && n <= 107)) this.bg = String(n);
      i++;
    }
  }

  /** Apply every escape sequence found in `text`. */
  applyAll(text) {
    if (!text.includes("\x1b")) return;
    for (const part of splitEscapes(text)) if (part.code) this.apply(part.code);
  }

  /** The sequences that re-open this style (and hyperlink) on a new line. */
  reopen() {
    const codes = [];
    for (const [name, code] of FLAGS) if (this[name]) codes.push(String(code));
    if (this.fg) codes.push(this.fg);
    if (this.bg) codes.push(this.bg);
    let out = codes.length > 0 ? `\x1b[${codes.join(";")}m` : "";
    if (this.link) out += hyperlinkOpen(this.link);
    return out;
  }

  /** What must be closed before a line ends so it does not bleed into padding. */
  lineEnd() {
    let out = "";
    if (this.underline) out += "\x1b[24m";
    if (this.strikethrough) out += "\x1b[29m";
    if (this.link) out += hyperlinkClose(this.link.terminator);
    return out;
  }

  background() {
    return this.bg ? `\x1b[${this.bg}m` : "";
  }
}
