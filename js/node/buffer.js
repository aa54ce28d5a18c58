// node:buffer. Buffer is a Uint8Array subclass with Node's encodings,
// numeric accessors and error wording. Everything is plain JavaScript so the
// module runs the same in the pihost isolate and under Node (for the
// differential tests); the text codecs live here rather than on host ops.
// Not provided: Blob, File, resolveObjectURL (they need streams and object
// URLs) and transcode (it needs ICU).
import { atob, btoa, decodeBase64Loose, encodeBase64 } from "../runtime/web/base64.js";
import { codedError, formatString, invalidArgType, invalidArgValue, outOfRange } from "./internal/errors.js";
import { nativeUtf8 } from "./internal/utf8-codec.js";

export const kMaxLength = Number.MAX_SAFE_INTEGER;
export const kStringMaxLength = 2 ** 29 - 24;
export const constants = Object.defineProperties({}, {
  MAX_LENGTH: { value: kMaxLength, enumerable: true },
  MAX_STRING_LENGTH: { value: kStringMaxLength, enumerable: true },
});
export const INSPECT_MAX_BYTES = 50;

const customInspect = Symbol.for("nodejs.util.inspect.custom");

// ---------------------------------------------------------------- errors

function unknownEncoding(encoding) {
  return codedError(TypeError, "ERR_UNKNOWN_ENCODING", `Unknown encoding: ${formatString(encoding)}`);
}

function outOfBounds(name) {
  return codedError(
    RangeError,
    "ERR_BUFFER_OUT_OF_BOUNDS",
    name ? `"${name}" is outside of buffer bounds` : "Attempt to access memory outside buffer bounds",
  );
}

const BUFFER_OR_UINT8ARRAY = "an instance of Buffer or Uint8Array";

function checkNumber(value, name) {
  if (typeof value !== "number") throw invalidArgType(name, "of type number", value);
}

/** A whole number in [min, max]; Node's validateOffset. */
function checkOffset(value, name, min = 0, max = kMaxLength) {
  checkNumber(value, name);
  if (!Number.isInteger(value)) throw outOfRange(name, "an integer", value);
  if (value < min || value > max) throw outOfRange(name, `>= ${min} && <= ${max}`, value);
  return value;
}

/** A size for alloc*: any number in [0, kMaxLength]; fractions truncate later. */
function checkSize(size) {
  checkNumber(size, "size");
  if (!(size >= 0 && size <= kMaxLength)) throw outOfRange("size", `>= 0 && <= ${kMaxLength}`, size);
}

function isUint8Array(value) {
  return value instanceof Uint8Array;
}

function isArrayBufferLike(value) {
  return (
    value instanceof ArrayBuffer ||
    (typeof SharedArrayBuffer === "function" && value instanceof SharedArrayBuffer)
  );
}

// ---------------------------------------------------------------- text codecs

// String.fromCharCode over big arrays overflows the argument stack, so code
// units are emitted in bounded chunks.
const CHUNK = 4096;

function unitsToString(units, start, end) {
  if (end - start <= CHUNK) return String.fromCharCode.apply(null, units.subarray(start, end));
  const parts = [];
  for (let i = start; i < end; i += CHUNK) {
    parts.push(String.fromCharCode.apply(null, units.subarray(i, Math.min(i + CHUNK, end))));
  }
  return parts.join("");
}

// Below this many characters the JS loops are as fast as a native call.
const NATIVE_THRESHOLD = 64;

// The engine's decoder drops a leading BOM, which Buffer keeps.
function nativeDecode(view) {
  if (view[0] === 0xef && view[1] === 0xbb && view[2] === 0xbf) return `\ufeff${nativeUtf8.decode(view.subarray(3))}`;
  return nativeUtf8.decode(view);
}

/** Number of UTF-8 bytes for `text`; lone surrogates count as U+FFFD (3 bytes). */
function utf8Length(text) {
  if (nativeUtf8 !== null && text.length > NATIVE_THRESHOLD) return nativeUtf8.encode(text).length;
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) {
      length += 1;
    } else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length += 2;
        i++;
        continue;
      }
      length += 2;
    } else {
      length += 2;
    }
  }
  return length;
}

/**
 * Writes `text` as UTF-8 into `target[offset, offset + max)`, never a
 * partial character. Returns the bytes written.
 */
function utf8Write(target, text, offset, max) {
  if (nativeUtf8 !== null && text.length > NATIVE_THRESHOLD) {
    const encoded = nativeUtf8.encode(text);
    if (encoded.length <= max) {
      target.set(encoded, offset);
      return encoded.length;
    }
  }
  const limit = offset + max;
  let at = offset;
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code < 0x80) {
      if (at >= limit) break;
      target[at++] = code;
      continue;
    }
    if (code < 0x800) {
      if (at + 2 > limit) break;
      target[at++] = 0xc0 | (code >> 6);
      target[at++] = 0x80 | (code & 0x3f);
      continue;
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        if (at + 4 > limit) break;
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        target[at++] = 0xf0 | (code >> 18);
        target[at++] = 0x80 | ((code >> 12) & 0x3f);
        target[at++] = 0x80 | ((code >> 6) & 0x3f);
        target[at++] = 0x80 | (code & 0x3f);
        i++;
        continue;
      }
      code = 0xfffd;
    }
    if (at + 3 > limit) break;
    target[at++] = 0xe0 | (code >> 12);
    target[at++] = 0x80 | ((code >> 6) & 0x3f);
    target[at++] = 0x80 | (code & 0x3f);
  }
  return at - offset;
}

/**
 * UTF-8 bytes to text the WHATWG way: each maximal invalid subsequence
 * becomes one U+FFFD, which is what V8 (and so Node) produces.
 */
function utf8Slice(bytes, start, end) {
  if (nativeUtf8 !== null && end - start > NATIVE_THRESHOLD) return nativeDecode(bytes.subarray(start, end));
  const units = new Uint16Array(Math.min(end - start, CHUNK * 4) + 1);
  const parts = [];
  let count = 0;
  let i = start;
  while (i < end) {
    if (count >= units.length - 2) {
      parts.push(unitsToString(units, 0, count));
      count = 0;
    }
    const lead = bytes[i];
    if (lead < 0x80) {
      units[count++] = lead;
      i++;
      continue;
    }
    let need;
    let point;
    let lower = 0x80;
    let upper = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) {
      need = 1;
      point = lead & 0x1f;
    } else if (lead >= 0xe0 && lead <= 0xef) {
      need = 2;
      point = lead & 0x0f;
      if (lead === 0xe0) lower = 0xa0;
      else if (lead === 0xed) upper = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      need = 3;
      point = lead & 0x07;
      if (lead === 0xf0) lower = 0x90;
      else if (lead === 0xf4) upper = 0x8f;
    } else {
      units[count++] = 0xfffd;
      i++;
      continue;
    }
    let j = i + 1;
    let complete = true;
    for (let k = 0; k < need; k++, j++) {
      const byte = j < end ? bytes[j] : -1;
      if (byte < lower || byte > upper) {
        complete = false;
        break;
      }
      lower = 0x80;
      upper = 0xbf;
      point = (point << 6) | (byte & 0x3f);
    }
    i = j;
    if (!complete) {
      units[count++] = 0xfffd;
    } else if (point > 0xffff) {
      point -= 0x10000;
      units[count++] = 0xd800 | (point >> 10);
      units[count++] = 0xdc00 | (point & 0x3ff);
    } else {
      units[count++] = point;
    }
  }
  parts.push(unitsToString(units, 0, count));
  return parts.length === 1 ? parts[0] : parts.join("");
}

/** Whether `bytes` is well-formed UTF-8 (no overlongs, surrogates or truncation). */
function isWellFormedUtf8(bytes) {
  for (let i = 0; i < bytes.length; ) {
    const lead = bytes[i++];
    if (lead < 0x80) continue;
    let need;
    let lower = 0x80;
    let upper = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) need = 1;
    else if (lead >= 0xe0 && lead <= 0xef) {
      need = 2;
      if (lead === 0xe0) lower = 0xa0;
      else if (lead === 0xed) upper = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      need = 3;
      if (lead === 0xf0) lower = 0x90;
      else if (lead === 0xf4) upper = 0x8f;
    } else return false;
    for (let k = 0; k < need; k++) {
      const byte = i < bytes.length ? bytes[i++] : -1;
      if (byte < lower || byte > upper) return false;
      lower = 0x80;
      upper = 0xbf;
    }
  }
  return true;
}

function latin1Slice(bytes, start, end) {
  return unitsToString(bytes, start, end);
}

function asciiSlice(bytes, start, end) {
  const units = new Uint8Array(end - start);
  for (let i = start; i < end; i++) units[i - start] = bytes[i] & 0x7f;
  return unitsToString(units, 0, units.length);
}

function latin1Write(target, text, offset, max) {
  const count = Math.min(text.length, max);
  for (let i = 0; i < count; i++) target[offset + i] = text.charCodeAt(i);
  return count;
}

function ucs2Slice(bytes, start, end) {
  const count = (end - start) >> 1;
  const units = new Uint16Array(count);
  for (let i = 0; i < count; i++) units[i] = bytes[start + 2 * i] | (bytes[start + 2 * i + 1] << 8);
  return unitsToString(units, 0, count);
}

function ucs2Write(target, text, offset, max) {
  const count = Math.min(text.length, max >> 1);
  for (let i = 0; i < count; i++) {
    const code = text.charCodeAt(i);
    target[offset + 2 * i] = code & 0xff;
    target[offset + 2 * i + 1] = code >> 8;
  }
  return count * 2;
}

const HEX_DIGITS = "0123456789abcdef";
const HEX_PAIRS = Array.from({ length: 256 }, (_, byte) => HEX_DIGITS[byte >> 4] + HEX_DIGITS[byte & 15]);
const HEX_CODES = Uint8Array.from(HEX_DIGITS, (c) => c.charCodeAt(0));

function hexSlice(bytes, start, end) {
  const codes = new Uint8Array((end - start) * 2);
  for (let i = start, at = 0; i < end; i++) {
    codes[at++] = HEX_CODES[bytes[i] >> 4];
    codes[at++] = HEX_CODES[bytes[i] & 15];
  }
  return unitsToString(codes, 0, codes.length);
}

// Like base64, hex text is read by the low byte of each UTF-16 unit.
function hexValue(unit) {
  const code = unit & 0xff;
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x61 && code <= 0x66) return code - 0x57;
  if (code >= 0x41 && code <= 0x46) return code - 0x37;
  return -1;
}

/** Hex pairs up to the first invalid one, as Node decodes them. */
function hexWrite(target, text, offset, max) {
  const pairs = Math.min(text.length >> 1, max);
  let i = 0;
  for (; i < pairs; i++) {
    const high = hexValue(text.charCodeAt(2 * i));
    const low = hexValue(text.charCodeAt(2 * i + 1));
    if (high < 0 || low < 0) break;
    target[offset + i] = (high << 4) | low;
  }
  return i;
}

function base64Write(target, text, offset, max) {
  const bytes = decodeBase64Loose(text);
  const count = Math.min(bytes.length, max);
  target.set(bytes.subarray(0, count), offset);
  return count;
}

// Node's estimate, used to size Buffer.from(text, "base64"): it only looks
// at trailing "=" and never scans the text.
function base64ByteLength(text) {
  let length = text.length;
  if (text.charCodeAt(length - 1) === 0x3d) length--;
  if (length > 1 && text.charCodeAt(length - 1) === 0x3d) length--;
  return (length * 3) >>> 2;
}

/**
 * Each encoding: its canonical name, how to size, write and read text.
 * `write(target, text, offset, max)` returns the bytes written.
 */
const ENCODINGS = {
  utf8: { name: "utf8", byteLength: utf8Length, write: utf8Write, slice: utf8Slice },
  ucs2: { name: "utf16le", byteLength: (text) => text.length * 2, write: ucs2Write, slice: ucs2Slice },
  latin1: { name: "latin1", byteLength: (text) => text.length, write: latin1Write, slice: latin1Slice },
  ascii: { name: "ascii", byteLength: (text) => text.length, write: latin1Write, slice: asciiSlice },
  base64: {
    name: "base64",
    byteLength: base64ByteLength,
    write: base64Write,
    slice: (bytes, start, end) => encodeBase64(bytes, start, end, false),
  },
  base64url: {
    name: "base64url",
    byteLength: base64ByteLength,
    write: base64Write,
    slice: (bytes, start, end) => encodeBase64(bytes, start, end, true),
  },
  hex: { name: "hex", byteLength: (text) => text.length >>> 1, write: hexWrite, slice: hexSlice },
};

const ALIASES = new Map([
  ["utf8", ENCODINGS.utf8],
  ["utf-8", ENCODINGS.utf8],
  ["ucs2", ENCODINGS.ucs2],
  ["ucs-2", ENCODINGS.ucs2],
  ["utf16le", ENCODINGS.ucs2],
  ["utf-16le", ENCODINGS.ucs2],
  ["latin1", ENCODINGS.latin1],
  ["binary", ENCODINGS.latin1],
  ["ascii", ENCODINGS.ascii],
  ["base64", ENCODINGS.base64],
  ["base64url", ENCODINGS.base64url],
  ["hex", ENCODINGS.hex],
]);

/** The codec for an encoding name (any case), or undefined. */
function codecFor(encoding) {
  const name = `${encoding}`;
  return ALIASES.get(name) ?? ALIASES.get(name.toLowerCase());
}

// ---------------------------------------------------------------- Buffer

// The real class; `Buffer` below is a function sharing its prototype so that
// the legacy `Buffer(x)` call without `new` keeps working.
class FastBuffer extends Uint8Array {}

/**
 * Deprecated constructor form: `Buffer(size)` allocates, anything else is
 * `Buffer.from`.
 */
export function Buffer(arg, encodingOrOffset, length) {
  if (typeof arg === "number") {
    if (typeof encodingOrOffset === "string") throw invalidArgType("string", "of type string", arg);
    return Buffer.alloc(arg);
  }
  return Buffer.from(arg, encodingOrOffset, length);
}

Object.setPrototypeOf(Buffer, Uint8Array);
Buffer.prototype = FastBuffer.prototype;
Object.defineProperty(FastBuffer.prototype, "constructor", { value: Buffer, writable: true, configurable: true });
// Typed-array methods (map, filter, subarray…) build their results through
// the species; the plain class skips the legacy argument juggling.
Object.defineProperty(Buffer, Symbol.species, { get: () => FastBuffer, configurable: true });

export function SlowBuffer(size) {
  checkSize(size);
  return new FastBuffer(size);
}
SlowBuffer.prototype = FastBuffer.prototype;
Object.setPrototypeOf(SlowBuffer, Uint8Array);

Buffer.poolSize = 8192;

function fromString(text, encoding) {
  let codec = ENCODINGS.utf8;
  if (typeof encoding === "string" && encoding.length > 0) {
    codec = codecFor(encoding);
    if (!codec) throw unknownEncoding(encoding);
  }
  if (text.length === 0) return new FastBuffer(0);
  if (codec === ENCODINGS.utf8 && nativeUtf8 !== null && text.length > NATIVE_THRESHOLD) {
    const encoded = nativeUtf8.encode(text);
    return new FastBuffer(encoded.buffer, encoded.byteOffset, encoded.byteLength);
  }
  const buffer = new FastBuffer(codec.byteLength(text));
  const written = codec.write(buffer, text, 0, buffer.length);
  return written === buffer.length ? buffer : new FastBuffer(buffer.buffer, 0, written);
}

function fromArrayBuffer(arrayBuffer, byteOffset, length) {
  let offset = byteOffset === undefined ? 0 : +byteOffset;
  if (Number.isNaN(offset)) offset = 0;
  const maxLength = arrayBuffer.byteLength - offset;
  if (maxLength < 0) throw outOfBounds("offset");
  if (length === undefined) return new FastBuffer(arrayBuffer, offset);
  let size = +length;
  if (size > 0) {
    if (size > maxLength) throw outOfBounds("length");
  } else {
    size = 0;
  }
  return new FastBuffer(arrayBuffer, offset, size);
}

function fromArrayLike(source) {
  const length = source.length;
  const buffer = new FastBuffer(length > 0 ? length : 0);
  for (let i = 0; i < buffer.length; i++) buffer[i] = source[i];
  return buffer;
}

function fromObject(object) {
  if (object.length !== undefined || isArrayBufferLike(object.buffer)) {
    if (typeof object.length !== "number") return new FastBuffer(0);
    if (isUint8Array(object)) return new FastBuffer(object);
    return fromArrayLike(object);
  }
  if (object.type === "Buffer" && Array.isArray(object.data)) return fromArrayLike(object.data);
  return undefined;
}

const FROM_EXPECTED = "of type string or an instance of Buffer, ArrayBuffer, or Array or an Array-like Object";

Buffer.from = function from(value, encodingOrOffset, length) {
  if (typeof value === "string") return fromString(value, encodingOrOffset);
  if (value !== null && typeof value === "object") {
    if (isArrayBufferLike(value)) return fromArrayBuffer(value, encodingOrOffset, length);
    const primitive = typeof value.valueOf === "function" ? value.valueOf() : undefined;
    if (primitive != null && primitive !== value && (typeof primitive === "string" || typeof primitive === "object")) {
      return Buffer.from(primitive, encodingOrOffset, length);
    }
    const buffer = fromObject(value);
    if (buffer) return buffer;
    if (typeof value[Symbol.toPrimitive] === "function") {
      const text = value[Symbol.toPrimitive]("string");
      if (typeof text === "string") return fromString(text, encodingOrOffset);
    }
  }
  throw invalidArgType("first argument", FROM_EXPECTED, value);
};

Buffer.copyBytesFrom = function copyBytesFrom(view, offset, length) {
  if (!ArrayBuffer.isView(view) || view instanceof DataView) throw invalidArgType("view", "an instance of TypedArray", view);
  const elementSize = view.BYTES_PER_ELEMENT;
  let start = 0;
  let end = view.length;
  if (offset !== undefined) {
    checkOffset(offset, "offset");
    if (offset >= view.length) return new FastBuffer(0);
    start = offset;
  }
  if (length !== undefined) {
    checkOffset(length, "length");
    end = Math.min(start + length, view.length);
  }
  if (end <= start) return new FastBuffer(0);
  const bytes = new Uint8Array(view.buffer, view.byteOffset + start * elementSize, (end - start) * elementSize);
  return new FastBuffer(bytes);
};

Buffer.of = function of(...items) {
  const buffer = new FastBuffer(items.length);
  for (let i = 0; i < items.length; i++) buffer[i] = items[i];
  return buffer;
};

Buffer.alloc = function alloc(size, fill, encoding) {
  checkSize(size);
  const buffer = new FastBuffer(size);
  if (fill !== undefined && fill !== 0 && buffer.length > 0) fillBuffer(buffer, fill, 0, buffer.length, encoding);
  return buffer;
};

// Memory is always zeroed: there is no pool of recycled memory to leak.
Buffer.allocUnsafe = function allocUnsafe(size) {
  checkSize(size);
  return new FastBuffer(size);
};

Buffer.allocUnsafeSlow = function allocUnsafeSlow(size) {
  checkSize(size);
  return new FastBuffer(size);
};

Buffer.isBuffer = function isBuffer(value) {
  return value instanceof Buffer;
};

function compareBytes(a, aStart, aEnd, b, bStart, bEnd) {
  const length = Math.min(aEnd - aStart, bEnd - bStart);
  for (let i = 0; i < length; i++) {
    const x = a[aStart + i];
    const y = b[bStart + i];
    if (x !== y) return x < y ? -1 : 1;
  }
  const aLength = aEnd - aStart;
  const bLength = bEnd - bStart;
  return aLength < bLength ? -1 : aLength > bLength ? 1 : 0;
}

Buffer.compare = function compare(buf1, buf2) {
  if (!isUint8Array(buf1)) throw invalidArgType("buf1", BUFFER_OR_UINT8ARRAY, buf1);
  if (!isUint8Array(buf2)) throw invalidArgType("buf2", BUFFER_OR_UINT8ARRAY, buf2);
  if (buf1 === buf2) return 0;
  return compareBytes(buf1, 0, buf1.length, buf2, 0, buf2.length);
};

Buffer.isEncoding = function isEncoding(encoding) {
  return typeof encoding === "string" && encoding.length !== 0 && codecFor(encoding) !== undefined;
};

Buffer.concat = function concat(list, length) {
  if (!Array.isArray(list)) throw invalidArgType("list", "an instance of Array", list);
  if (list.length === 0) return new FastBuffer(0);
  let total = length;
  if (total === undefined) {
    total = 0;
    list.forEach((item, index) => {
      if (!isUint8Array(item)) throw invalidArgType(`list[${index}]`, BUFFER_OR_UINT8ARRAY, item);
      total += item.length;
    });
  } else {
    checkOffset(total, "length");
  }
  const result = new FastBuffer(total);
  let position = 0;
  for (let index = 0; index < list.length; index++) {
    const item = list[index];
    if (!isUint8Array(item)) throw invalidArgType(`list[${index}]`, BUFFER_OR_UINT8ARRAY, item);
    const count = Math.min(item.length, total - position);
    if (count > 0) result.set(count === item.length ? item : item.subarray(0, count), position);
    position += count;
  }
  return result;
};

Buffer.byteLength = function byteLength(string, encoding) {
  if (typeof string !== "string") {
    if (ArrayBuffer.isView(string) || isArrayBufferLike(string)) return string.byteLength;
    throw invalidArgType("string", "of type string or an instance of Buffer or ArrayBuffer", string);
  }
  if (string.length === 0) return 0;
  const codec = encoding ? codecFor(encoding) : undefined;
  return (codec ?? ENCODINGS.utf8).byteLength(string);
};

// ---------------------------------------------------------------- instance: text

const proto = FastBuffer.prototype;

proto.toString = function toString(encoding, start, end) {
  if (arguments.length === 0) return utf8Slice(this, 0, this.length);
  const length = this.length;
  let from;
  if (start <= 0) from = 0;
  else if (start >= length) return "";
  else from = Math.trunc(start) || 0;
  let to;
  if (end === undefined || end > length) to = length;
  else to = Math.trunc(end) || 0;
  if (to <= from) return "";
  if (encoding === undefined) return utf8Slice(this, from, to);
  const codec = codecFor(encoding);
  if (!codec) throw unknownEncoding(encoding);
  return codec.slice(this, from, to);
};
proto.toLocaleString = proto.toString;

proto.write = function write(string, offset, length, encoding) {
  if (typeof string !== "string") throw codedError(TypeError, "ERR_INVALID_ARG_TYPE", "argument must be a string");
  let at = 0;
  let max = this.length;
  if (offset === undefined) {
    encoding = "utf8";
  } else if (length === undefined && typeof offset === "string") {
    encoding = offset;
  } else {
    at = checkOffset(offset, "offset", 0, this.length);
    const remaining = this.length - at;
    if (length === undefined) {
      max = remaining;
    } else if (typeof length === "string") {
      encoding = length;
      max = remaining;
    } else {
      max = Math.min(checkOffset(length, "length", 0, this.length), remaining);
    }
  }
  if (!encoding) return utf8Write(this, string, at, max);
  const codec = codecFor(encoding);
  if (!codec) throw unknownEncoding(encoding);
  return codec.write(this, string, at, max);
};

// Node's per-encoding fast paths, which some libraries call directly.
for (const [method, codec] of [
  ["ascii", ENCODINGS.ascii],
  ["base64", ENCODINGS.base64],
  ["base64url", ENCODINGS.base64url],
  ["latin1", ENCODINGS.latin1],
  ["hex", ENCODINGS.hex],
  ["ucs2", ENCODINGS.ucs2],
  ["utf8", ENCODINGS.utf8],
]) {
  proto[`${method}Slice`] = function (start = 0, end = this.length) {
    const from = Math.max(0, Math.min(start, this.length));
    return codec.slice(this, from, Math.max(from, Math.min(end, this.length)));
  };
  proto[`${method}Write`] = function (string, offset = 0, length = this.length - offset) {
    if (offset > this.length) throw outOfBounds("offset");
    return codec.write(this, `${string}`, offset, Math.max(0, Math.min(length, this.length - offset)));
  };
}

proto.toJSON = function toJSON() {
  return { type: "Buffer", data: Array.from(this) };
};

proto.equals = function equals(otherBuffer) {
  if (!isUint8Array(otherBuffer)) throw invalidArgType("otherBuffer", BUFFER_OR_UINT8ARRAY, otherBuffer);
  if (this === otherBuffer) return true;
  if (this.byteLength !== otherBuffer.byteLength) return false;
  return compareBytes(this, 0, this.length, otherBuffer, 0, otherBuffer.length) === 0;
};

proto.compare = function compare(target, targetStart, targetEnd, sourceStart, sourceEnd) {
  if (!isUint8Array(target)) throw invalidArgType("target", BUFFER_OR_UINT8ARRAY, target);
  if (arguments.length === 1) return compareBytes(this, 0, this.length, target, 0, target.length);
  const tStart = targetStart === undefined ? 0 : checkOffset(targetStart, "targetStart");
  const tEnd = targetEnd === undefined ? target.length : checkOffset(targetEnd, "targetEnd", 0, target.length);
  const sStart = sourceStart === undefined ? 0 : checkOffset(sourceStart, "sourceStart");
  const sEnd = sourceEnd === undefined ? this.length : checkOffset(sourceEnd, "sourceEnd", 0, this.length);
  if (sStart >= sEnd) return tStart >= tEnd ? 0 : -1;
  if (tStart >= tEnd) return 1;
  if (tStart > target.length) {
    throw codedError(RangeError, "ERR_OUT_OF_RANGE", 'The value of "targetStart" is out of range.');
  }
  if (sStart > this.length) {
    throw codedError(RangeError, "ERR_OUT_OF_RANGE", 'The value of "sourceStart" is out of range.');
  }
  return compareBytes(this, sStart, sEnd, target, tStart, tEnd);
};

// Copy positions are coerced like Node's: fractions floor, and anything
// that is not a finite number counts as 0.
function toPosition(value) {
  const number = +value;
  return Number.isFinite(number) ? Math.floor(number) : 0;
}

function bytesView(view) {
  return view instanceof Uint8Array ? view : new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

function copyBytes(source, target, targetStart, sourceStart, sourceEnd) {
  let end = sourceEnd;
  if (end - sourceStart > target.byteLength - targetStart) end = sourceStart + target.byteLength - targetStart;
  const count = Math.min(end - sourceStart, source.byteLength - sourceStart);
  if (count <= 0) return 0;
  const bytes = new Uint8Array(source.buffer, source.byteOffset + sourceStart, count);
  bytesView(target).set(bytes, targetStart);
  return count;
}

// Any typed array or DataView works on either side; only bytes are counted.
proto.copy = function copy(target, targetStart, sourceStart, sourceEnd) {
  if (!ArrayBuffer.isView(target)) throw invalidArgType("target", BUFFER_OR_UINT8ARRAY, target);
  let tStart = 0;
  if (targetStart !== undefined) {
    tStart = toPosition(targetStart);
    if (tStart < 0) throw outOfRange("targetStart", ">= 0", tStart);
  }
  let sStart = 0;
  if (sourceStart !== undefined) {
    sStart = toPosition(sourceStart);
    if (sStart < 0 || sStart > this.byteLength) throw outOfRange("sourceStart", `>= 0 && <= ${this.byteLength}`, sStart);
  }
  let sEnd = this.byteLength;
  if (sourceEnd !== undefined) {
    sEnd = toPosition(sourceEnd);
    if (sEnd < 0) throw outOfRange("sourceEnd", ">= 0", sEnd);
  }
  if (tStart >= target.byteLength || sStart >= sEnd) return 0;
  return copyBytes(this, target, tStart, sStart, sEnd);
};

// slice and subarray both share memory (Node's slice predates subarray).
function clampIndex(value, length) {
  const index = Math.trunc(value);
  if (index === 0 || Number.isNaN(index)) return 0;
  if (index < 0) return Math.max(index + length, 0);
  return Math.min(index, length);
}

proto.subarray = function subarray(start, end) {
  const length = this.length;
  const from = clampIndex(start, length);
  const to = end === undefined ? length : clampIndex(end, length);
  return new FastBuffer(this.buffer, this.byteOffset + from, to > from ? to - from : 0);
};

proto.slice = function slice(start, end) {
  return this.subarray(start, end);
};

// ---------------------------------------------------------------- instance: search

/**
 * Where a search of a needle of `needleLength` bytes starts, or -1 when it
 * cannot match. Negative offsets count from the end.
 */
function searchStart(length, offset, needleLength, forward) {
  if (offset < 0) {
    if (offset + length >= 0) return length + offset;
    if (forward || needleLength === 0) return 0;
    return -1;
  }
  if (offset + needleLength <= length) return offset;
  if (needleLength === 0) return length;
  return forward ? -1 : length - 1;
}

/**
 * First (or last) position of `needle` in `haystack` counting in units of
 * `unit` bytes, searching from unit `start`; -1 when absent.
 */
function findUnits(haystack, needle, start, forward, unit) {
  const hayUnits = Math.floor(haystack.length / unit);
  const needleUnits = Math.floor(needle.length / unit);
  if (hayUnits < needleUnits) return -1;
  const last = hayUnits - needleUnits;
  const bytes = needleUnits * unit;
  const matches = (at) => {
    for (let k = 0; k < bytes; k++) if (haystack[at * unit + k] !== needle[k]) return false;
    return true;
  };
  if (forward) {
    for (let at = start; at <= last; at++) if (matches(at)) return at;
  } else {
    for (let at = Math.min(start, last); at >= 0; at--) if (matches(at)) return at;
  }
  return -1;
}

/**
 * Node's search. `wide` (UTF-16) searches whole code units only, and keeps
 * a quirk of Node's: on an odd-length haystack a miss reports the length
 * rounded down to even instead of -1.
 */
function searchBytes(haystack, needle, offset, forward, wide = false) {
  const length = haystack.length;
  const start = searchStart(length, offset, needle.length, forward);
  if (needle.length === 0) return start;
  if (length === 0 || start <= -1) return -1;
  if ((forward && needle.length + start > length) || needle.length > length) return -1;
  if (!wide) return findUnits(haystack, needle, start, forward, 1);
  if (length < 2 || needle.length < 2) return -1;
  const found = findUnits(haystack, needle, start >> 1, forward, 2);
  const result = found === -1 ? (length >> 1) * 2 : found * 2;
  return result === length ? -1 : result;
}

function indexOf(buffer, value, byteOffset, encoding, forward) {
  let offset = byteOffset;
  if (typeof offset === "string") {
    encoding = offset;
    offset = undefined;
  } else if (offset > 0x7fffffff) {
    offset = 0x7fffffff;
  } else if (offset < -0x80000000) {
    offset = -0x80000000;
  }
  offset = +offset;
  if (Number.isNaN(offset)) offset = forward ? 0 : buffer.length;
  offset = Math.trunc(offset);

  if (typeof value === "number") {
    return searchBytes(buffer, [(value >>> 0) & 0xff], offset, forward);
  }
  const codec = encoding === undefined ? ENCODINGS.utf8 : codecFor(encoding);
  if (typeof value === "string") {
    if (!codec) throw unknownEncoding(encoding);
    const needle = new Uint8Array(codec.byteLength(value));
    const written = codec.write(needle, value, 0, needle.length);
    return searchBytes(buffer, needle.subarray(0, written), offset, forward, codec === ENCODINGS.ucs2);
  }
  if (isUint8Array(value)) {
    return searchBytes(buffer, value, offset, forward, codec === ENCODINGS.ucs2);
  }
  throw invalidArgType("value", "one of type number or string or an instance of Buffer or Uint8Array", value);
}

proto.indexOf = function indexOfMethod(value, byteOffset, encoding) {
  return indexOf(this, value, byteOffset, encoding, true);
};

proto.lastIndexOf = function lastIndexOf(value, byteOffset, encoding) {
  return indexOf(this, value, byteOffset, encoding, false);
};

proto.includes = function includes(value, byteOffset, encoding) {
  return this.indexOf(value, byteOffset, encoding) !== -1;
};

// ---------------------------------------------------------------- instance: fill

function fillBuffer(buffer, value, offset, end, encoding) {
  let fillValue = value;
  let codec;
  if (typeof value === "string") {
    if (offset === undefined || typeof offset === "string") {
      encoding = offset;
      offset = 0;
      end = buffer.length;
    } else if (typeof end === "string") {
      encoding = end;
      end = buffer.length;
    }
    codec = encoding == null ? ENCODINGS.utf8 : codecFor(encoding);
    if (!codec) {
      if (typeof encoding !== "string") throw invalidArgType("encoding", "of type string", encoding);
      throw unknownEncoding(encoding);
    }
    if (value.length === 0) {
      fillValue = 0;
    } else if (value.length === 1) {
      const code = value.charCodeAt(0);
      if (codec === ENCODINGS.utf8 && code < 128) fillValue = code;
      else if (codec === ENCODINGS.latin1) fillValue = code;
    }
  }
  if (offset === undefined) {
    offset = 0;
    end = buffer.length;
  } else {
    checkOffset(offset, "offset");
    if (end === undefined) end = buffer.length;
    else checkOffset(end, "end", 0, buffer.length);
    if (offset >= end) return buffer;
  }

  if (typeof fillValue === "number") {
    if (end - offset + offset > buffer.byteLength) throw outOfBounds();
    Uint8Array.prototype.fill.call(buffer, fillValue, offset, end);
    return buffer;
  }
  let pattern;
  if (typeof fillValue === "string") {
    pattern = new Uint8Array(codec.byteLength(fillValue));
    pattern = pattern.subarray(0, codec.write(pattern, fillValue, 0, pattern.length));
  } else if (isUint8Array(fillValue)) {
    pattern = fillValue;
  } else if (ArrayBuffer.isView(fillValue)) {
    pattern = new Uint8Array(fillValue.buffer, fillValue.byteOffset, fillValue.byteLength);
  } else {
    // Unary plus, so a BigInt fails the way it does in Node.
    Uint8Array.prototype.fill.call(buffer, (+fillValue >>> 0) & 0xff, offset, end);
    return buffer;
  }
  if (offset > buffer.length) throw outOfBounds();
  if (pattern.length === 0) throw invalidArgValue("value", value);
  // The pattern goes in once, then the filled part is doubled; a pattern
  // that overlaps the target therefore repeats what was written, as in Node.
  const total = end - offset;
  let filled = Math.min(pattern.length, total);
  buffer.set(pattern.subarray(0, filled), offset);
  while (filled < total) {
    const count = Math.min(filled, total - filled);
    buffer.copyWithin(offset + filled, offset, offset + count);
    filled += count;
  }
  return buffer;
}

proto.fill = function fill(value, offset, end, encoding) {
  return fillBuffer(this, value, offset, end, encoding);
};

// ---------------------------------------------------------------- instance: numbers

/** Node's error for a read/write that does not fit at `offset`. */
function boundsError(value, last, name) {
  if (Math.floor(value) !== value) {
    checkNumber(value, name || "offset");
    throw outOfRange(name || "offset", "an integer", value);
  }
  if (last < 0) throw outOfBounds();
  throw outOfRange(name || "offset", `>= ${name ? 1 : 0} and <= ${last}`, value);
}

/** Validates that `size` bytes fit at `offset` and returns the offset. */
function checkRead(buffer, offset, size) {
  checkNumber(offset, "offset");
  if (buffer[offset] === undefined || buffer[offset + size - 1] === undefined) boundsError(offset, buffer.length - size);
  return offset;
}

function rangeText(min, max, size) {
  // Past four bytes the exact bounds get unwieldy, so Node states them as powers of two.
  if (size > 4) {
    const n = typeof min === "bigint" ? "n" : "";
    const bits = size * 8;
    if (min === 0 || min === 0n) return `>= 0${n} and < 2${n} ** ${bits}${n}`;
    return `>= -(2${n} ** ${bits - 1}${n}) and < 2${n} ** ${bits - 1}${n}`;
  }
  return `>= ${min} and <= ${max}`;
}

function checkWrite(buffer, value, offset, size, min, max) {
  if (value > max || value < min) throw outOfRange("value", rangeText(min, max, size), value);
  return checkRead(buffer, offset, size);
}

function readUnsigned(buffer, offset, size, littleEndian) {
  let result = 0;
  for (let i = 0; i < size; i++) {
    const byte = buffer[offset + (littleEndian ? i : size - 1 - i)];
    result += byte * 2 ** (8 * i);
  }
  return result;
}

function readSigned(buffer, offset, size, littleEndian) {
  const unsigned = readUnsigned(buffer, offset, size, littleEndian);
  const limit = 2 ** (8 * size - 1);
  return unsigned >= limit ? unsigned - 2 * limit : unsigned;
}

// Stores `value` (already range-checked) in `size` bytes. The low 32 bits
// use ToUint32 and the rest a floor division, which matches how Node
// truncates fractional and negative values.
function writeInteger(buffer, value, offset, size, littleEndian) {
  let low = value >>> 0;
  let high = size > 4 ? Math.floor(value / 2 ** 32) : 0;
  for (let i = 0; i < size; i++) {
    let byte;
    if (i < 4) {
      byte = low & 0xff;
      low >>>= 8;
    } else {
      byte = high & 0xff;
      high >>= 8;
    }
    buffer[offset + (littleEndian ? i : size - 1 - i)] = byte;
  }
  return offset + size;
}

const INTEGER_LIMITS = [null, [0xff, 0x7f], [0xffff, 0x7fff], [0xffffff, 0x7fffff], [0xffffffff, 0x7fffffff],
  [2 ** 40 - 1, 2 ** 39 - 1], [2 ** 48 - 1, 2 ** 47 - 1]];

// size+endianness ("2LE", "1") -> the four accessors for that width.
const integerAccessors = new Map();

for (const size of [1, 2, 3, 4, 5, 6]) {
  const [unsignedMax, signedMax] = INTEGER_LIMITS[size];
  for (const littleEndian of size === 1 ? [true] : [true, false]) {
    // One-byte writes check the offset's type before the value, wider ones after.
    const checkValue = (buffer, value, offset, min, max) => {
      if (size === 1) {
        checkNumber(offset, "offset");
        if (value > max || value < min) throw outOfRange("value", rangeText(min, max, 1), value);
        return checkRead(buffer, offset, 1);
      }
      return checkWrite(buffer, value, offset, size, min, max);
    };
    integerAccessors.set(`${size}${size === 1 ? "" : littleEndian ? "LE" : "BE"}`, {
      readU(offset = 0) {
        return readUnsigned(this, checkRead(this, offset, size), size, littleEndian);
      },
      readI(offset = 0) {
        return readSigned(this, checkRead(this, offset, size), size, littleEndian);
      },
      writeU(value, offset = 0) {
        const number = +value;
        checkValue(this, number, offset, 0, unsignedMax);
        return writeInteger(this, number, offset, size, littleEndian);
      },
      writeI(value, offset = 0) {
        const number = +value;
        checkValue(this, number, offset, -signedMax - 1, signedMax);
        return writeInteger(this, number, offset, size, littleEndian);
      },
    });
  }
}

for (const [bits, size] of [["8", 1], ["16", 2], ["32", 4]]) {
  for (const suffix of size === 1 ? [""] : ["LE", "BE"]) {
    const { readU, readI, writeU, writeI } = integerAccessors.get(`${size}${suffix}`);
    proto[`readUInt${bits}${suffix}`] = readU;
    proto[`readUint${bits}${suffix}`] = readU;
    proto[`readInt${bits}${suffix}`] = readI;
    proto[`writeUInt${bits}${suffix}`] = writeU;
    proto[`writeUint${bits}${suffix}`] = writeU;
    proto[`writeInt${bits}${suffix}`] = writeI;
  }
}

function checkByteLength(byteLength) {
  if (byteLength >= 1 && byteLength <= 6 && Number.isInteger(byteLength)) return byteLength;
  return boundsError(byteLength, 6, "byteLength");
}

for (const suffix of ["LE", "BE"]) {
  const pick = (byteLength) => integerAccessors.get(`${byteLength}${byteLength === 1 ? "" : suffix}`);
  const readUIntX = function (offset, byteLength) {
    if (offset === undefined) throw invalidArgType("offset", "of type number", offset);
    return pick(checkByteLength(byteLength)).readU.call(this, offset);
  };
  const readIntX = function (offset, byteLength) {
    if (offset === undefined) throw invalidArgType("offset", "of type number", offset);
    return pick(checkByteLength(byteLength)).readI.call(this, offset);
  };
  const writeUIntX = function (value, offset, byteLength) {
    return pick(checkByteLength(byteLength)).writeU.call(this, value, offset);
  };
  const writeIntX = function (value, offset, byteLength) {
    return pick(checkByteLength(byteLength)).writeI.call(this, value, offset);
  };
  proto[`readUInt${suffix}`] = readUIntX;
  proto[`readUint${suffix}`] = readUIntX;
  proto[`readInt${suffix}`] = readIntX;
  proto[`writeUInt${suffix}`] = writeUIntX;
  proto[`writeUint${suffix}`] = writeUIntX;
  proto[`writeInt${suffix}`] = writeIntX;
}

// Floats go through a scratch array in the platform's byte order.
const scratch = new ArrayBuffer(8);
const scratchBytes = new Uint8Array(scratch);
const scratchFloat = new Float32Array(scratch);
const scratchDouble = new Float64Array(scratch);
const platformLittleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function readFloating(buffer, offset, size, littleEndian) {
  checkRead(buffer, offset, size);
  const reverse = littleEndian !== platformLittleEndian;
  for (let i = 0; i < size; i++) scratchBytes[reverse ? size - 1 - i : i] = buffer[offset + i];
  return size === 4 ? scratchFloat[0] : scratchDouble[0];
}

function writeFloating(buffer, value, offset, size, littleEndian) {
  const number = +value;
  checkRead(buffer, offset, size);
  if (size === 4) scratchFloat[0] = number;
  else scratchDouble[0] = number;
  const reverse = littleEndian !== platformLittleEndian;
  for (let i = 0; i < size; i++) buffer[offset + i] = scratchBytes[reverse ? size - 1 - i : i];
  return offset + size;
}

for (const [suffix, littleEndian] of [["LE", true], ["BE", false]]) {
  proto[`readFloat${suffix}`] = function (offset = 0) {
    return readFloating(this, offset, 4, littleEndian);
  };
  proto[`readDouble${suffix}`] = function (offset = 0) {
    return readFloating(this, offset, 8, littleEndian);
  };
  proto[`writeFloat${suffix}`] = function (value, offset = 0) {
    return writeFloating(this, value, offset, 4, littleEndian);
  };
  proto[`writeDouble${suffix}`] = function (value, offset = 0) {
    return writeFloating(this, value, offset, 8, littleEndian);
  };
}

function readBig(buffer, offset, littleEndian, signed) {
  checkRead(buffer, offset, 8);
  let result = 0n;
  for (let i = 0; i < 8; i++) {
    result = (result << 8n) | BigInt(buffer[offset + (littleEndian ? 7 - i : i)]);
  }
  return signed ? BigInt.asIntN(64, result) : result;
}

function writeBig(buffer, value, offset, littleEndian, signed) {
  const min = signed ? -(2n ** 63n) : 0n;
  const max = signed ? 2n ** 63n - 1n : 2n ** 64n - 1n;
  if (value > max || value < min) throw outOfRange("value", rangeText(min, max, 8), value);
  checkRead(buffer, offset, 8);
  // Mixing a non-bigint in here fails with the engine's TypeError, as in Node.
  let bits = value & 0xffffffffffffffffn;
  for (let i = 0; i < 8; i++) {
    buffer[offset + (littleEndian ? i : 7 - i)] = Number(bits & 0xffn);
    bits >>= 8n;
  }
  return offset + 8;
}

for (const [suffix, littleEndian] of [["LE", true], ["BE", false]]) {
  const readU = function (offset = 0) {
    return readBig(this, offset, littleEndian, false);
  };
  const writeU = function (value, offset = 0) {
    return writeBig(this, value, offset, littleEndian, false);
  };
  proto[`readBigUInt64${suffix}`] = readU;
  proto[`readBigUint64${suffix}`] = readU;
  proto[`readBigInt64${suffix}`] = function (offset = 0) {
    return readBig(this, offset, littleEndian, true);
  };
  proto[`writeBigUInt64${suffix}`] = writeU;
  proto[`writeBigUint64${suffix}`] = writeU;
  proto[`writeBigInt64${suffix}`] = function (value, offset = 0) {
    return writeBig(this, value, offset, littleEndian, true);
  };
}

// ---------------------------------------------------------------- instance: misc

function swapper(size) {
  return function () {
    if (this.length % size !== 0) {
      throw codedError(RangeError, "ERR_INVALID_BUFFER_SIZE", `Buffer size must be a multiple of ${size * 8}-bits`);
    }
    for (let i = 0; i < this.length; i += size) {
      for (let a = i, b = i + size - 1; a < b; a++, b--) {
        const byte = this[a];
        this[a] = this[b];
        this[b] = byte;
      }
    }
    return this;
  };
}
proto.swap16 = swapper(2);
proto.swap32 = swapper(4);
proto.swap64 = swapper(8);

Object.defineProperty(proto, "parent", {
  get() {
    return this instanceof Buffer ? this.buffer : undefined;
  },
  enumerable: true,
  configurable: true,
});
Object.defineProperty(proto, "offset", {
  get() {
    return this instanceof Buffer ? this.byteOffset : undefined;
  },
  enumerable: true,
  configurable: true,
});

/**
 * `<Buffer 68 69>`, cut after INSPECT_MAX_BYTES. Own non-index properties
 * are appended when util.inspect (the third argument) is there to render them.
 */
proto[customInspect] = function inspect(_depth, options, inspectValue) {
  const shown = Math.min(INSPECT_MAX_BYTES, this.length);
  let text = Array.from(this.subarray(0, shown), (byte) => HEX_PAIRS[byte]).join(" ");
  const remaining = this.length - INSPECT_MAX_BYTES;
  if (remaining > 0) text += ` ... ${remaining} more byte${remaining > 1 ? "s" : ""}`;
  if (typeof inspectValue === "function") {
    const extras = Object.keys(this)
      .filter((key) => !/^(0|[1-9][0-9]*)$/.test(key))
      .map((key) => `${key}: ${inspectValue(this[key], { ...options, breakLength: Infinity, compact: true })}`);
    if (extras.length > 0) text += `${this.length !== 0 ? ", " : ""}${extras.join(", ")}`;
  }
  return `<${this.constructor.name} ${text}>`;
};
proto.inspect = proto[customInspect];

// ---------------------------------------------------------------- module functions

function checkBinaryInput(input) {
  if (ArrayBuffer.isView(input) && !(input instanceof DataView)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (isArrayBufferLike(input)) return new Uint8Array(input);
  throw invalidArgType("input", "an instance of ArrayBuffer, Buffer, or TypedArray", input);
}

/** Whether the bytes are valid UTF-8. */
export function isUtf8(input) {
  return isWellFormedUtf8(checkBinaryInput(input));
}

/** Whether every byte is 7-bit ASCII. */
export function isAscii(input) {
  const bytes = checkBinaryInput(input);
  for (let i = 0; i < bytes.length; i++) if (bytes[i] > 0x7f) return false;
  return true;
}

export { atob, btoa };

export default {
  Buffer,
  SlowBuffer,
  constants,
  kMaxLength,
  kStringMaxLength,
  INSPECT_MAX_BYTES,
  atob,
  btoa,
  isUtf8,
  isAscii,
};
