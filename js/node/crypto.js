// node:crypto: hashes, HMACs and randomness, the part of Node's crypto a
// coding-agent extension reaches for (ids, checksums, signatures of
// webhooks). The bytes are worked on in Rust (src/ops/crypto.rs). Ciphers,
// key pairs and `subtle` are not provided and say so when called.
import { ops } from "pihost:runtime/ops.js";
import { Buffer } from "pihost:node/buffer.js";
import { codedError, invalidArgType, outOfRange } from "pihost:node/internal/errors.js";

const HASHES = ["md5", "sha1", "sha224", "sha256", "sha384", "sha512"];
// Node accepts OpenSSL's spellings too.
const ALIASES = { "sha-1": "sha1", "sha-224": "sha224", "sha-256": "sha256", "sha-384": "sha384", "sha-512": "sha512", "rsa-sha256": "sha256" };

function algorithmName(algorithm) {
  if (typeof algorithm !== "string") throw invalidArgType("algorithm", "of type string", algorithm);
  const lower = algorithm.toLowerCase();
  return ALIASES[lower] ?? lower;
}

function toBytes(data, encoding, name = "data") {
  if (typeof data === "string") return Buffer.from(data, encoding ?? "utf8");
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  throw invalidArgType(name, "of type string or an instance of Buffer, TypedArray, or DataView", data);
}

function concat(chunks) {
  if (chunks.length === 1) return chunks[0];
  return Buffer.concat(chunks);
}

function encodeDigest(bytes, encoding) {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return encoding === undefined || encoding === "buffer" ? buffer : buffer.toString(encoding);
}

// Chunks are kept until digest: extensions hash small inputs, and keeping
// them lets copy() be exact without an incremental state crossing to Rust.
class Digestible {
  #chunks = [];
  #finalized = false;

  update(data, inputEncoding) {
    if (this.#finalized) throw codedError(Error, "ERR_CRYPTO_HASH_FINALIZED", "Digest already called");
    this.#chunks.push(Buffer.from(toBytes(data, inputEncoding)));
    return this;
  }

  digest(outputEncoding) {
    if (this.#finalized) throw codedError(Error, "ERR_CRYPTO_HASH_FINALIZED", "Digest already called");
    this.#finalized = true;
    return encodeDigest(this.compute(concat(this.#chunks)), outputEncoding);
  }

  get chunks() {
    return this.#chunks;
  }
}

export class Hash extends Digestible {
  #algorithm;

  constructor(algorithm) {
    super();
    this.#algorithm = algorithmName(algorithm);
    if (!ops.op_pihost_crypto_supports(this.#algorithm)) throw new Error("Digest method not supported");
  }

  compute(bytes) {
    return new Uint8Array(ops.op_pihost_crypto_digest(this.#algorithm, bytes));
  }

  copy() {
    const copy = new Hash(this.#algorithm);
    for (const chunk of this.chunks) copy.update(chunk);
    return copy;
  }
}

export class Hmac extends Digestible {
  #algorithm;
  #key;

  constructor(algorithm, key) {
    super();
    this.#algorithm = algorithmName(algorithm);
    if (!ops.op_pihost_crypto_supports(this.#algorithm)) throw new Error(`Invalid digest: ${algorithm}`);
    this.#key = Buffer.from(toBytes(key, undefined, "key"));
  }

  compute(bytes) {
    return new Uint8Array(ops.op_pihost_crypto_hmac(this.#algorithm, this.#key, bytes));
  }
}

export function createHash(algorithm) {
  return new Hash(algorithm);
}

export function createHmac(algorithm, key) {
  return new Hmac(algorithm, key);
}

/** One-shot `crypto.hash(algorithm, data, outputEncoding = "hex")` (Node 21.7+). */
export function hash(algorithm, data, outputEncoding = "hex") {
  return createHash(algorithm).update(data).digest(outputEncoding);
}

export function getHashes() {
  return [...HASHES];
}

const MAX_RANDOM_BYTES = 2 ** 31 - 1;

export function randomFillSync(target, offset = 0, size) {
  const view = toBytes(target, undefined, "buf");
  const length = size ?? view.byteLength - offset;
  ops.op_pihost_crypto_random_fill(new Uint8Array(view.buffer, view.byteOffset + offset, length));
  return target;
}

export function randomBytes(size, callback) {
  if (typeof size !== "number") throw invalidArgType("size", "of type number", size);
  if (!(size >= 0 && size <= MAX_RANDOM_BYTES)) throw outOfRange("size", `>= 0 && <= ${MAX_RANDOM_BYTES}`, size);
  const bytes = Buffer.alloc(size);
  randomFillSync(bytes);
  if (typeof callback === "function") {
    queueMicrotask(() => callback(null, bytes));
    return undefined;
  }
  return bytes;
}

export function randomFill(target, offset, size, callback) {
  const done = [offset, size, callback].find((value) => typeof value === "function");
  randomFillSync(target, typeof offset === "number" ? offset : 0, typeof size === "number" ? size : undefined);
  queueMicrotask(() => done?.(null, target));
}

export function getRandomValues(array) {
  if (!ArrayBuffer.isView(array) || array instanceof Float32Array || array instanceof Float64Array || array instanceof DataView) {
    throw codedError(TypeError, "ERR_INVALID_ARG_TYPE", 'The data argument must be an integer-type TypedArray');
  }
  if (array.byteLength > 65536) {
    throw new (globalThis.DOMException ?? Error)(
      `The ArrayBufferView's byte length (${array.byteLength}) exceeds the number of bytes of entropy available via this API (65536)`,
      "QuotaExceededError",
    );
  }
  ops.op_pihost_crypto_random_fill(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
  return array;
}

export function randomUUID() {
  const bytes = getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC 4122 variant
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function randomInt(min, max, callback) {
  if (max === undefined || typeof max === "function") {
    callback = max;
    max = min;
    min = 0;
  }
  if (!Number.isSafeInteger(min)) throw invalidArgType("min", "a safe integer", min);
  if (!Number.isSafeInteger(max)) throw invalidArgType("max", "a safe integer", max);
  if (max <= min) {
    throw outOfRange("max", `greater than the value of "min" (${min})`, max);
  }
  const range = max - min;
  // Rejection sampling over 48 bits keeps the result unbiased.
  const limit = 2 ** 48 - (2 ** 48 % range);
  let value;
  do {
    const bytes = getRandomValues(new Uint8Array(6));
    value = bytes.reduce((sum, byte) => sum * 256 + byte, 0);
  } while (value >= limit);
  const result = min + (value % range);
  if (typeof callback === "function") {
    queueMicrotask(() => callback(null, result));
    return undefined;
  }
  return result;
}

export function timingSafeEqual(a, b) {
  const left = toBytes(a, undefined, "buf1");
  const right = toBytes(b, undefined, "buf2");
  if (left.byteLength !== right.byteLength) {
    throw codedError(RangeError, "ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH", "Input buffers must have the same byte length");
  }
  let difference = 0;
  for (let index = 0; index < left.byteLength; index += 1) difference |= left[index] ^ right[index];
  return difference === 0;
}

function notProvided(name) {
  return () => {
    throw new Error(`pihost: crypto.${name} is not available`);
  };
}

const subtle = new Proxy(
  {},
  {
    get(_target, name) {
      return typeof name === "string" ? notProvided(`subtle.${name}`) : undefined;
    },
  },
);

export const webcrypto = { getRandomValues, randomUUID, subtle };

export const createCipheriv = notProvided("createCipheriv");
export const createDecipheriv = notProvided("createDecipheriv");
export const createSign = notProvided("createSign");
export const createVerify = notProvided("createVerify");
export const generateKeyPairSync = notProvided("generateKeyPairSync");
export const generateKeyPair = notProvided("generateKeyPair");
export const pbkdf2Sync = notProvided("pbkdf2Sync");
export const pbkdf2 = notProvided("pbkdf2");
export const scryptSync = notProvided("scryptSync");
export const scrypt = notProvided("scrypt");
export const publicEncrypt = notProvided("publicEncrypt");
export const privateDecrypt = notProvided("privateDecrypt");
export const createPublicKey = notProvided("createPublicKey");
export const createPrivateKey = notProvided("createPrivateKey");
export const createSecretKey = notProvided("createSecretKey");
export const constants = {};

export default {
  Hash,
  Hmac,
  createHash,
  createHmac,
  hash,
  getHashes,
  randomBytes,
  randomFill,
  randomFillSync,
  randomInt,
  randomUUID,
  getRandomValues,
  timingSafeEqual,
  webcrypto,
  subtle,
  createCipheriv,
  createDecipheriv,
  createSign,
  createVerify,
  generateKeyPairSync,
  generateKeyPair,
  pbkdf2Sync,
  pbkdf2,
  scryptSync,
  scrypt,
  publicEncrypt,
  privateDecrypt,
  createPublicKey,
  createPrivateKey,
  createSecretKey,
  constants,
};
