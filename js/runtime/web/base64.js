// Base64 for the web globals atob/btoa (WHATWG "forgiving-base64", strict
// about what it rejects) and the byte-level codec node:buffer shares.
import { DOMException } from "./dom-exception.js";

const STANDARD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_SAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// Sextet value per char code; -1 for anything else. `strict` knows only the
// standard alphabet; `loose` also takes the URL-safe one, as Buffer does.
const strictValues = new Int8Array(128).fill(-1);
const looseValues = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) {
  strictValues[STANDARD.charCodeAt(i)] = i;
  looseValues[STANDARD.charCodeAt(i)] = i;
  looseValues[URL_SAFE.charCodeAt(i)] = i;
}

const EQUALS = 0x3d;

function isAsciiWhitespace(code) {
  return code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d || code === 0x20;
}

function missingInput() {
  const err = new TypeError('The "input" argument must be specified');
  err.code = "ERR_MISSING_ARGS";
  return err;
}

function invalidCharacter(message = "Invalid character") {
  return new DOMException(message, "InvalidCharacterError");
}

// Code units to a string in bounded chunks: String.fromCharCode over a
// huge array would overflow the argument stack.
function charCodesToString(codes) {
  const parts = [];
  for (let i = 0; i < codes.length; i += 8192) {
    parts.push(String.fromCharCode.apply(null, codes.subarray(i, Math.min(i + 8192, codes.length))));
  }
  return parts.join("");
}

const standardCodes = Uint8Array.from(STANDARD, (c) => c.charCodeAt(0));
const urlSafeCodes = Uint8Array.from(URL_SAFE, (c) => c.charCodeAt(0));

/**
 * Base64 text of `bytes[start, end)`; `url` selects the URL-safe alphabet
 * without padding.
 */
export function encodeBase64(bytes, start = 0, end = bytes.length, url = false) {
  const alphabet = url ? urlSafeCodes : standardCodes;
  const length = end - start;
  const rest = length % 3;
  const full = end - rest;
  const out = new Uint8Array(url ? Math.ceil((length * 4) / 3) : Math.ceil(length / 3) * 4);
  let at = 0;
  for (let i = start; i < full; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out[at++] = alphabet[n >> 18];
    out[at++] = alphabet[(n >> 12) & 63];
    out[at++] = alphabet[(n >> 6) & 63];
    out[at++] = alphabet[n & 63];
  }
  if (rest > 0) {
    const n = (bytes[full] << 16) | (rest === 2 ? bytes[full + 1] << 8 : 0);
    out[at++] = alphabet[n >> 18];
    out[at++] = alphabet[(n >> 12) & 63];
    if (rest === 2) out[at++] = alphabet[(n >> 6) & 63];
    else if (!url) out[at++] = EQUALS;
    if (!url) out[at++] = EQUALS;
  }
  return charCodesToString(out);
}

/**
 * Buffer's lenient decoding: both alphabets, characters outside them are
 * skipped, and the first "=" ends the data. Leftover bits are dropped.
 */
export function decodeBase64Loose(text) {
  const out = new Uint8Array((text.length * 3) >>> 2);
  let length = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < text.length; i++) {
    // Node reads each UTF-16 unit by its low byte only, so U+0141 counts as
    // "A" and U+D83D as "=".
    const code = text.charCodeAt(i) & 0xff;
    if (code === EQUALS) break;
    const value = code < 128 ? looseValues[code] : -1;
    if (value < 0) continue;
    acc = ((acc << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[length++] = (acc >> bits) & 0xff;
    }
  }
  return out.subarray(0, length);
}

/** The web's atob: base64 text to a binary string, rejecting malformed input. */
export function atob(input) {
  if (arguments.length === 0) throw missingInput();
  const text = `${input}`;
  const sextets = [];
  let padding = 0;
  let significant = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isAsciiWhitespace(code)) continue;
    significant++;
    if (code === EQUALS) {
      // At most two "=" and only at the end.
      if (++padding > 2) throw invalidCharacter();
      continue;
    }
    const value = code < 128 ? strictValues[code] : -1;
    if (value < 0 || padding > 0) throw invalidCharacter();
    sextets.push(value);
  }
  if (sextets.length % 4 === 1) throw invalidCharacter("The string to be decoded is not correctly encoded.");
  if (padding > 0 && significant % 4 !== 0) throw invalidCharacter();

  let output = "";
  let acc = 0;
  let bits = 0;
  for (const value of sextets) {
    acc = ((acc << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      output += String.fromCharCode((acc >> bits) & 0xff);
    }
  }
  return output;
}

/** The web's btoa: a binary string (code units up to 0xFF) to base64. */
export function btoa(input) {
  if (arguments.length === 0) throw missingInput();
  const text = `${input}`;
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0xff) throw invalidCharacter();
    bytes[i] = code;
  }
  return encodeBase64(bytes);
}
