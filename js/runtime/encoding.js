// TextEncoder and TextDecoder as Node 22 has them, installed as globals the
// moment this module runs: pihost's web modules create encoders at their
// top level, so globals.js imports this before anything else. UTF-8 goes
// through the engine's own codec; UTF-16LE and latin1 (windows-1252, as the
// Encoding Standard maps it) are decoded here.
import { core } from "pihost:runtime/ops.js";

const LABELS = new Map([
  ["utf-8", "utf-8"], ["utf8", "utf-8"], ["unicode-1-1-utf-8", "utf-8"],
  ["utf-16le", "utf-16le"], ["utf-16", "utf-16le"], ["ucs-2", "utf-16le"],
  ["latin1", "windows-1252"], ["iso-8859-1", "windows-1252"], ["ascii", "windows-1252"],
  ["us-ascii", "windows-1252"], ["windows-1252", "windows-1252"],
]);

// windows-1252's bytes 0x80–0x9f that differ from latin1.
const WINDOWS_1252 = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

function bytesOf(input) {
  if (input === undefined) return new Uint8Array();
  if (input instanceof Uint8Array) return input;
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (input instanceof ArrayBuffer || input instanceof SharedArrayBuffer) return new Uint8Array(input);
  const error = new TypeError(
    'The "input" argument must be an instance of ArrayBuffer, SharedArrayBuffer, or ArrayBufferView.',
  );
  error.code = "ERR_INVALID_ARG_TYPE";
  throw error;
}

/** How many bytes at the end of `bytes` start a UTF-8 sequence that is not complete yet. */
function incompleteTail(bytes) {
  for (let back = 1; back <= Math.min(3, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back];
    if ((byte & 0xc0) !== 0x80) {
      const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
      return needed > back ? back : 0;
    }
  }
  return 0;
}

/** Whether `bytes` is well-formed UTF-8 (for `fatal` decoders). */
function isWellFormedUtf8(bytes) {
  let index = 0;
  while (index < bytes.length) {
    const byte = bytes[index];
    if (byte < 0x80) {
      index += 1;
      continue;
    }
    let needed;
    let min;
    if (byte >= 0xc2 && byte <= 0xdf) [needed, min] = [1, 0x80];
    else if (byte >= 0xe0 && byte <= 0xef) [needed, min] = [2, 0x800];
    else if (byte >= 0xf0 && byte <= 0xf4) [needed, min] = [3, 0x10000];
    else return false;
    if (index + needed >= bytes.length) return false;
    let code = byte & (0x3f >> needed);
    for (let k = 1; k <= needed; k += 1) {
      const next = bytes[index + k];
      if (next === undefined || (next & 0xc0) !== 0x80) return false;
      code = (code << 6) | (next & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return false;
    index += needed + 1;
  }
  return true;
}

export class TextEncoder {
  get encoding() {
    return "utf-8";
  }

  encode(text = "") {
    return core.encode(String(text));
  }

  encodeInto(text, target) {
    const bytes = core.encode(String(text));
    // Only whole characters are written; back off to a character boundary.
    let written = Math.min(bytes.length, target.length);
    while (written > 0 && written < bytes.length && (bytes[written] & 0xc0) === 0x80) written -= 1;
    target.set(bytes.subarray(0, written));
    const read = core.decode(bytes.subarray(0, written)).length;
    return { read, written };
  }
}

export class TextDecoder {
  #encoding;
  #fatal;
  #ignoreBOM;
  #pending = new Uint8Array();
  #started = false;

  constructor(label = "utf-8", options = {}) {
    const encoding = LABELS.get(String(label).trim().toLowerCase());
    if (encoding === undefined) {
      const error = new RangeError(`The "${label}" encoding is not supported`);
      error.code = "ERR_ENCODING_NOT_SUPPORTED";
      throw error;
    }
    this.#encoding = encoding;
    this.#fatal = Boolean(options?.fatal);
    this.#ignoreBOM = Boolean(options?.ignoreBOM);
  }

  get encoding() {
    return this.#encoding;
  }

  get fatal() {
    return this.#fatal;
  }

  get ignoreBOM() {
    return this.#ignoreBOM;
  }

  decode(input, options = {}) {
    let bytes = bytesOf(input);
    if (this.#pending.length > 0) {
      const joined = new Uint8Array(this.#pending.length + bytes.length);
      joined.set(this.#pending);
      joined.set(bytes, this.#pending.length);
      bytes = joined;
      this.#pending = new Uint8Array();
    }
    const streaming = Boolean(options?.stream);
    let text;
    if (this.#encoding === "utf-8") {
      const keep = streaming ? incompleteTail(bytes) : 0;
      if (keep > 0) {
        this.#pending = bytes.slice(bytes.length - keep);
        bytes = bytes.subarray(0, bytes.length - keep);
      }
      if (this.#fatal && !isWellFormedUtf8(bytes)) {
        this.#started = false;
        const error = new TypeError("The encoded data was not valid for encoding utf-8");
        error.code = "ERR_ENCODING_INVALID_ENCODED_DATA";
        throw error;
      }
      // The engine's decoder drops a leading BOM on its own; whether it stays
      // is this decoder's call (ignoreBOM), so it is taken off first.
      const bom = !this.#started && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
      text = core.decode(bom ? bytes.subarray(3) : bytes);
      if (bom) text = `\ufeff${text}`;
    } else if (this.#encoding === "utf-16le") {
      const usable = bytes.length - (bytes.length % 2);
      if (streaming && usable < bytes.length) this.#pending = bytes.slice(usable);
      let out = "";
      for (let index = 0; index < usable; index += 2) out += String.fromCharCode(bytes[index] | (bytes[index + 1] << 8));
      if (!streaming && usable < bytes.length) out += "\ufffd";
      text = out;
    } else {
      let out = "";
      for (const byte of bytes) out += String.fromCharCode(byte >= 0x80 && byte <= 0x9f ? WINDOWS_1252[byte - 0x80] : byte);
      text = out;
    }
    if (!this.#started && text.length > 0) {
      this.#started = true;
      if (!this.#ignoreBOM && this.#encoding !== "windows-1252" && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (!streaming) this.#started = false;
    return text;
  }
}

for (const [name, value] of Object.entries({ TextEncoder, TextDecoder })) {
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
}
