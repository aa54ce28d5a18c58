// UTF-8 as Node's decoders read it: each maximal invalid subpart becomes one
// U+FFFD (the WHATWG rule), and a sequence split across chunks is held until
// the next one. pihost's TextDecoder neither streams nor keeps a BOM, and the
// tools need both, so they decode here.

const REPLACEMENT = 0xfffd;
const FLUSH_AT = 8192;

export class Utf8Decoder {
  #ignoreBOM;
  #started = false;
  #codePoint = 0;
  #needed = 0;
  #seen = 0;
  #lower = 0x80;
  #upper = 0xbf;

  /** `ignoreBOM`: keep a leading byte order mark (TextDecoder's option of that name). */
  constructor({ ignoreBOM = false } = {}) {
    this.#ignoreBOM = ignoreBOM;
  }

  /** Text of `bytes`; with `stream`, an unfinished last character waits for the next call. */
  decode(bytes = new Uint8Array(0), { stream = false } = {}) {
    const parts = [];
    let units = [];
    const push = (codePoint) => {
      if (codePoint > 0xffff) {
        const offset = codePoint - 0x10000;
        units.push(0xd800 + (offset >> 10), 0xdc00 + (offset & 0x3ff));
      } else units.push(codePoint);
      if (units.length >= FLUSH_AT) {
        parts.push(String.fromCharCode.apply(null, units));
        units = [];
      }
    };
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i];
      if (this.#needed === 0) {
        if (byte < 0x80) push(byte);
        else if (byte >= 0xc2 && byte <= 0xdf) this.#begin(1, byte & 0x1f);
        else if (byte >= 0xe0 && byte <= 0xef) {
          if (byte === 0xe0) this.#lower = 0xa0;
          if (byte === 0xed) this.#upper = 0x9f;
          this.#begin(2, byte & 0x0f);
        } else if (byte >= 0xf0 && byte <= 0xf4) {
          if (byte === 0xf0) this.#lower = 0x90;
          if (byte === 0xf4) this.#upper = 0x8f;
          this.#begin(3, byte & 0x07);
        } else push(REPLACEMENT);
        continue;
      }
      if (byte < this.#lower || byte > this.#upper) {
        // The byte ends the broken sequence and is read again on its own.
        this.#reset();
        push(REPLACEMENT);
        i--;
        continue;
      }
      this.#lower = 0x80;
      this.#upper = 0xbf;
      this.#codePoint = (this.#codePoint << 6) | (byte & 0x3f);
      if (++this.#seen === this.#needed) {
        const codePoint = this.#codePoint;
        this.#reset();
        push(codePoint);
      }
    }
    if (!stream && this.#needed !== 0) {
      this.#reset();
      push(REPLACEMENT);
    }
    parts.push(String.fromCharCode.apply(null, units));
    let text = parts.join("");
    if (!this.#started && text.length > 0) {
      this.#started = true;
      if (!this.#ignoreBOM && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (!stream) this.#started = false;
    return text;
  }

  #begin(needed, bits) {
    this.#needed = needed;
    this.#codePoint = bits;
    this.#seen = 0;
  }

  #reset() {
    this.#needed = 0;
    this.#seen = 0;
    this.#codePoint = 0;
    this.#lower = 0x80;
    this.#upper = 0xbf;
  }
}

/** Whole-buffer decoding like Buffer#toString("utf-8"): a BOM is kept. */
export function decodeUtf8(bytes) {
  return new Utf8Decoder({ ignoreBOM: true }).decode(bytes);
}

/** UTF-8 length as Node's Buffer.byteLength counts it (a lone surrogate is 3 bytes). */
export function utf8Length(text) {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

export function encodeUtf8(text) {
  return new TextEncoder().encode(text);
}
