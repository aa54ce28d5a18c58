// node:zlib's brotli and its streams as extensions use them: brotli sync,
// callback and stream round trips with parameters, gzip and deflate
// streams piped through pipeline, a stream fed in small pieces, and the
// errors corrupt input gives.
import zlib from "node:zlib";
import { pipeline } from "node:stream/promises";
import { Readable, Writable } from "node:stream";
import { promisify } from "node:util";

const text = "pi extensions compress ".repeat(500);

function sink() {
  const chunks = [];
  const writable = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  writable.result = () => Buffer.concat(chunks);
  return writable;
}

async function through(transform, input, pieceSize = 1000) {
  const pieces = [];
  for (let at = 0; at < input.length; at += pieceSize) pieces.push(input.subarray(at, at + pieceSize));
  const out = sink();
  await pipeline(Readable.from(pieces), transform, out);
  return out.result();
}

function failure(error) {
  return { name: error.name, code: error.code, errno: error.errno, message: error.message };
}

export async function run() {
  const input = Buffer.from(text);
  const brotli = zlib.brotliCompressSync(input);
  const tuned = zlib.brotliCompressSync(input, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT },
  });
  const fixed = Buffer.from("iwWAaGVsbG8gYnJvdGxpAw==", "base64");
  const callbackRoundTrip = await promisify(zlib.brotliDecompress)(await promisify(zlib.brotliCompress)(input));

  const brotliStream = await through(zlib.createBrotliCompress(), input);
  const brotliBack = await through(zlib.createBrotliDecompress(), brotliStream, 7);
  const gzipped = await through(zlib.createGzip({ level: 9 }), input);
  const gunzipped = await through(zlib.createGunzip(), gzipped, 13);
  const deflated = await through(zlib.createDeflate(), input);
  const inflated = await through(zlib.createInflate(), deflated);
  const unzipped = await through(zlib.createUnzip(), gzipped);
  const raw = await through(zlib.createInflateRaw(), await through(zlib.createDeflateRaw(), input));

  // Events of a gzip stream written and ended by hand.
  const events = [];
  const manual = zlib.createGzip();
  const parts = [];
  manual.on("data", (chunk) => parts.push(chunk));
  await new Promise((resolve) => {
    manual.on("end", () => {
      events.push("end");
      resolve();
    });
    manual.on("finish", () => events.push("finish"));
    manual.on("close", () => events.push("close"));
    manual.write("first ");
    manual.write(Buffer.from("second"));
    manual.end();
  });
  await new Promise((resolve) => setImmediate(resolve));

  const corruptGzip = await through(zlib.createGunzip(), Buffer.from("not gzip at all")).catch(failure);
  // Brotli input that is not brotli, through a stream and the callback form.
  // (deno_node's brotli decoder reports neither truncated input nor any
  // failure of brotliDecompressSync, so those are not compared; README.)
  const notBrotli = Buffer.from("not brotli at all, just text");
  const corruptBrotli = await through(zlib.createBrotliDecompress(), notBrotli).catch(failure);
  const corruptBrotliCallback = await new Promise((resolve) =>
    zlib.brotliDecompress(notBrotli, (error, result) => resolve(error ? failure(error) : [...result])),
  );
  const truncated = await through(zlib.createGunzip(), gzipped.subarray(0, 20)).catch(failure);
  let corruptSync;
  try {
    zlib.gunzipSync(Buffer.from("garbage"));
  } catch (error) {
    corruptSync = failure(error);
  }
  return {
    brotli: [zlib.brotliDecompressSync(brotli).toString() === text, brotli.length < input.length],
    tuned: zlib.brotliDecompressSync(tuned).toString() === text,
    fixed: zlib.brotliDecompressSync(fixed).toString(),
    callbackRoundTrip: callbackRoundTrip.toString() === text,
    streams: {
      brotli: brotliBack.toString() === text,
      brotliSync: zlib.brotliDecompressSync(brotliStream).toString() === text,
      gzip: [gunzipped.toString() === text, gzipped[0], gzipped[1], zlib.gunzipSync(gzipped).toString() === text],
      deflate: inflated.toString() === text,
      unzip: unzipped.toString() === text,
      raw: raw.toString() === text,
    },
    manual: [zlib.gunzipSync(Buffer.concat(parts)).toString(), events],
    bytesWritten: manual.bytesWritten,
    corruptGzip,
    corruptBrotli,
    corruptBrotliCallback,
    truncated,
    corruptSync,
    constants: [zlib.constants.BROTLI_PARAM_QUALITY, zlib.constants.BROTLI_MAX_QUALITY, zlib.constants.Z_BEST_COMPRESSION],
  };
}
