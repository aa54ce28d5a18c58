// node:string_decoder. Decodes a byte stream chunk by chunk without
// splitting characters: an incomplete UTF-8 sequence, a half UTF-16 unit or
// surrogate pair, or a base64 group that is not yet whole waits in a small
// buffer for the next chunk. The decisions of what to hold back follow
// Node's decoder so chunked output matches it byte for byte.
import { Buffer } from "./buffer.js";
import { codedError, formatString, invalidArgType, invalidThis } from "./internal/errors.js";

const kState = Symbol("StringDecoder.state");

const ENCODINGS = new Map([
  ["utf8", "utf8"],
  ["utf-8", "utf8"],
  ["ucs2", "utf16le"],
  ["ucs-2", "utf16le"],
  ["utf16le", "utf16le"],
  ["utf-16le", "utf16le"],
  ["latin1", "latin1"],
  ["binary", "latin1"],
  ["base64", "base64"],
  ["base64url", "base64url"],
  ["hex", "hex"],
  ["ascii", "ascii"],
]);

// Unlike Buffer, only real strings name an encoding here.
function normalize(encoding) {
  if (encoding == null || encoding === "") return "utf8";
  const name = typeof encoding === "string" ? ENCODINGS.get(encoding.toLowerCase()) : undefined;
  if (name === undefined) {
    throw codedError(TypeError, "ERR_UNKNOWN_ENCODING", `Unknown encoding: ${formatString(encoding)}`);
  }
  return name;
}

function decode(bytes, start, end, encoding) {
  if (end <= start) return "";
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString(encoding);
}

/** How many bytes a UTF-8 lead byte announces, or 0 if it is no lead. */
function utf8SequenceLength(lead) {
  if ((lead & 0xe0) === 0xc0) return 2;
  if ((lead & 0xf0) === 0xe0) return 3;
  if ((lead & 0xf8) === 0xf0) return 4;
  return 0;
}

const isContinuation = (byte) => (byte & 0xc0) === 0x80;

/**
 * How many bytes at the end of `bytes[start, end)` begin a UTF-8 character
 * that the chunk does not finish, and how many more it needs.
 */
function utf8Tail(bytes, start, end) {
  if (!(bytes[end - 1] & 0x80)) return [0, 0];
  for (let i = end - 1, count = 1; ; i--, count++) {
    if (isContinuation(bytes[i])) {
      if (count >= 4 || i === start) return [0, 0];
      continue;
    }
    const length = utf8SequenceLength(bytes[i]);
    if (length === 0 || count >= length) return [0, 0];
    return [count, length - count];
  }
}

/**
 * Decodes successive chunks of `encoding` text; see Node's
 * `string_decoder` documentation. A function, not a class, so that
 * pre-ES2015 subclassing with `StringDecoder.call(this)` works.
 */
export function StringDecoder(encoding) {
  this.encoding = normalize(encoding);
  // `partial` keeps its stale bytes between characters, which `lastChar` shows, as Node's does.
  this[kState] = { partial: Buffer.alloc(4), buffered: 0, missing: 0 };
}

function stateOf(decoder) {
  const state = decoder?.[kState];
  if (!state) throw invalidThis("StringDecoder");
  return state;
}

function bytesOf(chunk) {
  if (!ArrayBuffer.isView(chunk)) throw invalidArgType("buf", "an instance of Buffer, TypedArray, or DataView", chunk);
  return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

// Bytes that finish the held-back character, then the chunk's own text,
// then what to hold back from this chunk.
function decodeChunk(decoder, state, bytes) {
  const { encoding } = decoder;
  if (encoding !== "utf8" && encoding !== "utf16le" && encoding !== "base64" && encoding !== "base64url") {
    return decode(bytes, 0, bytes.length, encoding);
  }
  let start = 0;
  let prefix = "";
  if (state.missing > 0) {
    let take = Math.min(bytes.length, state.missing);
    let interrupted = false;
    if (encoding === "utf8") {
      // A byte that cannot continue the character ends it early; the
      // character is decoded as it stands and the byte starts anew.
      for (let i = 0; i < take; i++) {
        if (!isContinuation(bytes[i])) {
          take = i;
          interrupted = true;
          break;
        }
      }
    }
    state.partial.set(bytes.subarray(0, take), state.buffered);
    state.buffered += take;
    state.missing = interrupted ? 0 : state.missing - take;
    start = take;
    if (state.missing === 0) {
      prefix = decode(state.partial, 0, state.buffered, encoding);
      state.buffered = 0;
    }
  }
  if (start === bytes.length) return prefix;

  let end = bytes.length;
  let hold = 0;
  if (encoding === "utf8") {
    [hold, state.missing] = utf8Tail(bytes, start, end);
  } else if (encoding === "utf16le") {
    const count = end - start;
    if (count % 2 === 1) {
      hold = 1;
      state.missing = 1;
    } else if ((bytes[end - 1] & 0xfc) === 0xd8) {
      // The last unit is a high surrogate; its partner is in the next chunk.
      hold = 2;
      state.missing = 2;
    }
  } else {
    hold = (end - start) % 3;
    state.missing = hold > 0 ? 3 - hold : 0;
  }
  if (hold > 0) {
    end -= hold;
    state.partial.set(bytes.subarray(end, end + hold), 0);
    state.buffered = hold;
  }
  return prefix + decode(bytes, start, end, encoding);
}

function flush(decoder, state) {
  // A lone trailing byte of UTF-16 is dropped; a held high surrogate is kept.
  if (decoder.encoding === "utf16le" && state.buffered % 2 === 1) {
    state.buffered--;
    state.missing--;
  }
  const text = decode(state.partial, 0, state.buffered, decoder.encoding);
  state.buffered = 0;
  state.missing = 0;
  return text;
}

// Node's members are enumerable, unlike class members.
const method = (value) => ({ value, writable: true, enumerable: true, configurable: true });
const getter = (get) => ({ get, enumerable: true, configurable: true });

Object.defineProperties(StringDecoder.prototype, {
  write: method(function write(buf) {
    if (typeof buf === "string") return buf;
    const bytes = bytesOf(buf);
    return decodeChunk(this, stateOf(this), bytes);
  }),
  end: method(function end(buf) {
    const state = stateOf(this);
    let text = buf === undefined ? "" : this.write(buf);
    if (state.buffered > 0) text += flush(this, state);
    return text;
  }),
  /** Decodes `buf` from `offset`, forgetting any held-back bytes first. */
  text: method(function text(buf, offset) {
    const state = stateOf(this);
    state.buffered = 0;
    state.missing = 0;
    return this.write(buf.slice(offset));
  }),
  lastChar: getter(function () {
    return stateOf(this).partial;
  }),
  lastNeed: getter(function () {
    return stateOf(this).missing;
  }),
  lastTotal: getter(function () {
    const state = stateOf(this);
    return state.buffered + state.missing;
  }),
});

export default { StringDecoder };
