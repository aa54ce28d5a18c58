// Terminal input arrives in reads that can cut an escape sequence in two
// (a mouse report `ESC [ < 35 ; 20 ; 5 m` may come as `ESC`, `[<35`,
// `;20;5m`). StdinBuffer joins the pieces and emits one "data" event per
// key or sequence, and one "paste" event per bracketed paste.
import { Listeners } from "./listeners.js";

const ESC = "\x1b";
const DEFAULT_SEQUENCE_TIMEOUT_MS = 50;
// A lone ESC is most likely the Escape key: wait only briefly for more.
const DEFAULT_ESCAPE_TIMEOUT_MS = 10;
const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
const CANCEL = "\x18";
const SUBSTITUTE = "\x1a";

// The start of a terminal's reply to a query (colours, program status,
// XTVERSION, Kitty graphics). Until it is this far, the bytes might also be
// Alt+key presses typed quickly.
const TERMINAL_REPLY_START = /^\x1b(?:\](?:1[01];|4;\d{1,3};|7501;\?)|P>\||_G(?:[a-z]=\d+,)*[a-z]=\d+;)/;
const SGR_MOUSE = /^<\d+;\d+;\d+[Mm]$/;
const UNMODIFIED_KITTY_KEY = /^\x1b\[(\d+)(?::\d*)?(?::\d+)?u$/;

/** OSC, DCS or APC: strings that run until a terminator. */
const isControlString = (data) => data.startsWith(`${ESC}]`) || data.startsWith(`${ESC}P`) || data.startsWith(`${ESC}_`);

/** Whether `data`, which starts with ESC, is a whole sequence yet. */
function isWholeSequence(data) {
  if (data.length === 1) return false;
  const kind = data[1];
  if (kind === "[") {
    // X10 mouse: ESC [ M and three raw bytes.
    if (data.startsWith(`${ESC}[M`)) return data.length >= 6;
    if (data.length < 3) return false;
    const finalCode = data.charCodeAt(data.length - 1);
    if (finalCode < 0x40 || finalCode > 0x7e) return false;
    const payload = data.slice(2);
    // An SGR mouse report's parameters can contain bytes that look final.
    return payload.startsWith("<") ? SGR_MOUSE.test(payload) : true;
  }
  if (kind === "]") return data.endsWith(`${ESC}\\`) || data.endsWith("\x07");
  if (kind === "P" || kind === "_") return data.endsWith(`${ESC}\\`);
  if (kind === "O") return data.length >= 3;
  // ESC and one character is Alt+key; anything else unknown is taken as it is.
  return true;
}

/** `buffer` cut into whole keys and sequences, and the unfinished rest. */
function splitSequences(buffer) {
  const sequences = [];
  let pos = 0;
  while (pos < buffer.length) {
    const rest = buffer.slice(pos);
    if (!rest.startsWith(ESC)) {
      // One UTF-16 unit at a time, as pi-tui does.
      sequences.push(rest[0]);
      pos++;
      continue;
    }
    const isReply = isControlString(rest) && TERMINAL_REPLY_START.test(rest);
    let end = 1;
    for (; end <= rest.length; end++) {
      if (isReply && end > 2) {
        const char = rest[end - 1];
        // CAN and SUB abort the reply; what follows is input again.
        if (char === CANCEL || char === SUBSTITUTE) {
          pos += end;
          break;
        }
        // So does a new escape sequence, once it is clear the ESC does not start ST.
        if (char === ESC && end < rest.length && rest[end] !== "\\") {
          pos += end - 1;
          break;
        }
      }
      const candidate = rest.slice(0, end);
      if (!isWholeSequence(candidate)) continue;
      // WezTerm sends a Kitty-mode Escape press as a raw ESC right before
      // the release's CSI sequence: "ESC ESC [27;...u" is Escape, then that.
      if (candidate === `${ESC}${ESC}` && "[]OP_".includes(rest[end] ?? "\0")) {
        sequences.push(ESC);
        pos += 1;
        break;
      }
      sequences.push(candidate);
      pos += end;
      break;
    }
    if (end > rest.length) return { sequences, remainder: rest };
  }
  return { sequences, remainder: "" };
}

/** Where a paste ends in `text`: what was pasted and what came after, or undefined. */
function splitPasteEnd(text) {
  const end = text.indexOf(PASTE_END);
  if (end === -1) return undefined;
  return { pasted: text.slice(0, end), after: text.slice(end + PASTE_END.length) };
}

export class StdinBuffer extends Listeners {
  constructor(options = {}) {
    super();
    this.buffer = "";
    this.timeout = null;
    this.timeoutMs = options.timeout ?? DEFAULT_SEQUENCE_TIMEOUT_MS;
    this.escapeTimeoutMs = options.escapeTimeout ?? DEFAULT_ESCAPE_TIMEOUT_MS;
    this.pasteMode = false;
    this.pasteBuffer = "";
    // A Kitty terminal may send a printable key both as CSI u and as the raw
    // character; the raw duplicate right after is dropped.
    this.pendingKittyPrintableCodepoint = undefined;
  }

  /** Takes one read of input, a string or a Buffer. */
  process(data) {
    this.cancelTimeout();
    let text = data;
    if (Buffer.isBuffer(data)) {
      // A lone high byte is the old 8-bit way of sending Alt+key.
      text = data.length === 1 && data[0] > 127 ? `${ESC}${String.fromCharCode(data[0] - 128)}` : data.toString();
    }
    if (text.length === 0 && this.buffer.length === 0) {
      this.emitSequence("");
      return;
    }
    this.buffer += text;
    if (this.pasteMode) {
      this.pasteBuffer += this.buffer;
      this.buffer = "";
      this.finishPasteIfEnded();
      return;
    }
    const pasteStart = this.buffer.indexOf(PASTE_START);
    if (pasteStart !== -1) {
      // Only whole sequences before the paste count; an unfinished one is dropped.
      if (pasteStart > 0) for (const sequence of splitSequences(this.buffer.slice(0, pasteStart)).sequences) this.emitSequence(sequence);
      this.pendingKittyPrintableCodepoint = undefined;
      this.pasteMode = true;
      this.pasteBuffer = this.buffer.slice(pasteStart + PASTE_START.length);
      this.buffer = "";
      this.finishPasteIfEnded();
      return;
    }
    const { sequences, remainder } = splitSequences(this.buffer);
    this.buffer = remainder;
    for (const sequence of sequences) this.emitSequence(sequence);
    // A terminal reply is waited for however long it takes: flushing it
    // early would type its tail as text and its BEL as Ctrl+G.
    if (this.buffer.length === 0 || TERMINAL_REPLY_START.test(this.buffer)) return;
    const delay = this.buffer === ESC ? this.escapeTimeoutMs : this.timeoutMs;
    this.timeout = setTimeout(() => this.flushAfterTimeout(), delay);
  }

  /** What never completed is sent as it is; a string start is Alt+key and its tail is read again. */
  flushAfterTimeout() {
    for (const sequence of this.flush()) {
      if (sequence.length > 2 && isControlString(sequence)) {
        this.emitSequence(sequence.slice(0, 2));
        this.process(sequence.slice(2));
      } else {
        this.emitSequence(sequence);
      }
    }
  }

  finishPasteIfEnded() {
    const paste = splitPasteEnd(this.pasteBuffer);
    if (!paste) return;
    this.pasteMode = false;
    this.pasteBuffer = "";
    this.pendingKittyPrintableCodepoint = undefined;
    this.emit("paste", paste.pasted);
    if (paste.after.length > 0) this.process(paste.after);
  }

  emitSequence(sequence) {
    const codepoint = sequence.length === 1 ? sequence.codePointAt(0) : undefined;
    if (codepoint !== undefined && codepoint === this.pendingKittyPrintableCodepoint) {
      this.pendingKittyPrintableCodepoint = undefined;
      return;
    }
    const kittyKey = UNMODIFIED_KITTY_KEY.exec(sequence);
    const kittyCodepoint = kittyKey ? parseInt(kittyKey[1], 10) : undefined;
    this.pendingKittyPrintableCodepoint = kittyCodepoint >= 32 ? kittyCodepoint : undefined;
    this.emit("data", sequence);
  }

  cancelTimeout() {
    if (!this.timeout) return;
    clearTimeout(this.timeout);
    this.timeout = null;
  }

  /** Whatever is buffered, as one sequence, now. */
  flush() {
    this.cancelTimeout();
    if (this.buffer.length === 0) return [];
    const sequences = [this.buffer];
    this.buffer = "";
    this.pendingKittyPrintableCodepoint = undefined;
    return sequences;
  }

  clear() {
    this.cancelTimeout();
    this.buffer = "";
    this.pasteMode = false;
    this.pasteBuffer = "";
    this.pendingKittyPrintableCodepoint = undefined;
  }

  getBuffer() {
    return this.buffer;
  }

  destroy() {
    this.clear();
  }
}
