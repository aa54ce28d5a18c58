// node:zlib: gzip, deflate (zlib-wrapped and raw) and their inverses on
// whole buffers, sync and callback forms (util.promisify gives the promise
// forms, as in Node). Streaming classes (createGzip, …) and brotli are not
// provided and say so when called. The work is done in Rust (src/ops/zlib.rs).
import { ops } from "pihost:runtime/ops.js";
import { Buffer } from "pihost:node/buffer.js";
import { invalidArgType } from "pihost:node/internal/errors.js";

const ERRNO = { Z_DATA_ERROR: -3, Z_BUF_ERROR: -5 };

function input(data) {
  if (typeof data === "string") return Buffer.from(data);
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  throw invalidArgType("buffer", "of type string or an instance of Buffer, TypedArray, DataView, or ArrayBuffer", data);
}

function run(operation, data, options) {
  const level = options?.level ?? -1;
  let bytes;
  try {
    bytes = ops.op_pihost_zlib(operation, input(data), level);
  } catch (cause) {
    const message = String(cause?.message ?? cause);
    const separator = message.indexOf(": ");
    const code = separator > 0 ? message.slice(0, separator) : "Z_DATA_ERROR";
    const error = new Error(separator > 0 ? message.slice(separator + 2) : message);
    error.errno = ERRNO[code] ?? -3;
    error.code = code;
    throw error;
  }
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return options?.info ? { buffer, engine: undefined } : buffer;
}

function syncForm(operation) {
  return (data, options) => run(operation, data, options);
}

function callbackForm(operation) {
  return (data, options, callback) => {
    if (typeof options === "function") {
      callback = options;
      options = undefined;
    }
    if (typeof callback !== "function") throw invalidArgType("callback", "of type function", callback);
    let result;
    try {
      result = run(operation, data, options);
    } catch (error) {
      queueMicrotask(() => callback(error));
      return;
    }
    queueMicrotask(() => callback(null, result));
  };
}

export const gzipSync = syncForm("gzip");
export const gunzipSync = syncForm("gunzip");
export const deflateSync = syncForm("deflate");
export const inflateSync = syncForm("inflate");
export const deflateRawSync = syncForm("deflateRaw");
export const inflateRawSync = syncForm("inflateRaw");
export const unzipSync = syncForm("unzip");
export const gzip = callbackForm("gzip");
export const gunzip = callbackForm("gunzip");
export const deflate = callbackForm("deflate");
export const inflate = callbackForm("inflate");
export const deflateRaw = callbackForm("deflateRaw");
export const inflateRaw = callbackForm("inflateRaw");
export const unzip = callbackForm("unzip");

function notProvided(name) {
  return () => {
    throw new Error(`pihost: zlib.${name} is not available`);
  };
}

export const createGzip = notProvided("createGzip");
export const createGunzip = notProvided("createGunzip");
export const createDeflate = notProvided("createDeflate");
export const createInflate = notProvided("createInflate");
export const createDeflateRaw = notProvided("createDeflateRaw");
export const createInflateRaw = notProvided("createInflateRaw");
export const createUnzip = notProvided("createUnzip");
export const brotliCompressSync = notProvided("brotliCompressSync");
export const brotliDecompressSync = notProvided("brotliDecompressSync");
export const brotliCompress = notProvided("brotliCompress");
export const brotliDecompress = notProvided("brotliDecompress");

export const constants = {
  Z_NO_FLUSH: 0,
  Z_PARTIAL_FLUSH: 1,
  Z_SYNC_FLUSH: 2,
  Z_FULL_FLUSH: 3,
  Z_FINISH: 4,
  Z_BLOCK: 5,
  Z_OK: 0,
  Z_STREAM_END: 1,
  Z_NEED_DICT: 2,
  Z_ERRNO: -1,
  Z_STREAM_ERROR: -2,
  Z_DATA_ERROR: -3,
  Z_MEM_ERROR: -4,
  Z_BUF_ERROR: -5,
  Z_VERSION_ERROR: -6,
  Z_NO_COMPRESSION: 0,
  Z_BEST_SPEED: 1,
  Z_BEST_COMPRESSION: 9,
  Z_DEFAULT_COMPRESSION: -1,
};

export default {
  gzipSync,
  gunzipSync,
  deflateSync,
  inflateSync,
  deflateRawSync,
  inflateRawSync,
  unzipSync,
  gzip,
  gunzip,
  deflate,
  inflate,
  deflateRaw,
  inflateRaw,
  unzip,
  createGzip,
  createGunzip,
  createDeflate,
  createInflate,
  createDeflateRaw,
  createInflateRaw,
  createUnzip,
  brotliCompressSync,
  brotliDecompressSync,
  brotliCompress,
  brotliDecompress,
  constants,
};
