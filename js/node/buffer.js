// node:buffer, the part pihost needs so far: Buffer as a Uint8Array with
// utf8, hex, base64 and latin1 conversions. The full Buffer API is a later step.
import { core } from "pihost:runtime/ops.js";

const BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function normalizeEncoding(encoding) {
  const lower = String(encoding ?? "utf8").toLowerCase();
  if (lower === "utf-8") return "utf8";
  if (lower === "binary") return "latin1";
  if (lower === "base64url") return "base64url";
  return lower;
}

function base64Decode(text) {
  const clean = text.replace(/[^A-Za-z0-9+/\-_]/g, "").replace(/-/g, "+").replace(/_/g, "/");
  const bytes = [];
  let buffer = 0;
  let bits = 0;
  for (const char of clean) {
    buffer = (buffer << 6) | BASE64_ALPHABET.indexOf(char);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  return bytes;
}

function base64Encode(bytes, url) {
  let output = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const chunk = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const count = Math.min(3, bytes.length - i);
    for (let j = 0; j < 4; j++) {
      output += j <= count ? BASE64_ALPHABET[(chunk >> (18 - j * 6)) & 63] : url ? "" : "=";
    }
  }
  return url ? output.replace(/\+/g, "-").replace(/\//g, "_") : output;
}

export class Buffer extends Uint8Array {
  static from(value, encodingOrOffset, length) {
    if (typeof value === "string") {
      const encoding = normalizeEncoding(encodingOrOffset);
      let bytes;
      if (encoding === "utf8") bytes = core.encode(value);
      else if (encoding === "hex") bytes = (value.match(/../g) ?? []).map((pair) => parseInt(pair, 16));
      else if (encoding === "base64" || encoding === "base64url") bytes = base64Decode(value);
      else if (encoding === "latin1" || encoding === "ascii") bytes = [...value].map((c) => c.charCodeAt(0) & 0xff);
      else throw new TypeError(`Unknown encoding: ${encodingOrOffset}`);
      const buffer = new Buffer(bytes.length);
      buffer.set(bytes);
      return buffer;
    }
    if (value instanceof ArrayBuffer) return new Buffer(value, encodingOrOffset ?? 0, length);
    if (ArrayBuffer.isView(value) || Array.isArray(value)) {
      const buffer = new Buffer(value.length);
      buffer.set(value);
      return buffer;
    }
    throw new TypeError("The first argument must be of type string or an instance of Buffer, ArrayBuffer, or Array");
  }
  static alloc(size, fill = 0) {
    const buffer = new Buffer(size);
    buffer.fill(typeof fill === "number" ? fill : 0);
    return buffer;
  }
  static isBuffer(value) {
    return value instanceof Buffer;
  }
  static byteLength(value, encoding) {
    return typeof value === "string" ? Buffer.from(value, encoding).length : value.byteLength;
  }
  static concat(list, totalLength) {
    const length = totalLength ?? list.reduce((sum, item) => sum + item.length, 0);
    const result = new Buffer(length);
    let offset = 0;
    for (const item of list) {
      result.set(item.subarray(0, Math.max(0, length - offset)), offset);
      offset += item.length;
      if (offset >= length) break;
    }
    return result;
  }
  toString(encoding, start = 0, end = this.length) {
    const bytes = this.subarray(start, end);
    switch (normalizeEncoding(encoding)) {
      case "utf8":
        return core.decode(new Uint8Array(bytes));
      case "hex":
        return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
      case "base64":
        return base64Encode(bytes, false);
      case "base64url":
        return base64Encode(bytes, true);
      case "latin1":
      case "ascii":
        return Array.from(bytes, (byte) => String.fromCharCode(byte)).join("");
      default:
        throw new TypeError(`Unknown encoding: ${encoding}`);
    }
  }
  toJSON() {
    return { type: "Buffer", data: Array.from(this) };
  }
  equals(other) {
    return this.length === other.length && this.every((byte, index) => byte === other[index]);
  }
}

export const constants = { MAX_LENGTH: 2 ** 32, MAX_STRING_LENGTH: 2 ** 29 - 24 };
export default { Buffer, constants };
