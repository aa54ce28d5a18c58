// node:zlib round trips in every format and form, cross-checked against
// fixed compressed bytes, and the errors corrupt input gives.
import zlib from "node:zlib";
import { promisify } from "node:util";

function attempt(fn) {
  try {
    return { value: fn() };
  } catch (error) {
    return { error: { code: error.code, errno: error.errno } };
  }
}

export async function run() {
  const text = "pi extensions ".repeat(200);
  const pairs = [
    ["gzipSync", "gunzipSync"],
    ["deflateSync", "inflateSync"],
    ["deflateRawSync", "inflateRawSync"],
    ["gzipSync", "unzipSync"],
    ["deflateSync", "unzipSync"],
  ];
  const roundTrips = pairs.map(([pack, unpack]) => zlib[unpack](zlib[pack](text)).toString() === text);
  const levels = [0, 1, 9].map((level) => zlib.inflateSync(zlib.deflateSync(text, { level })).toString() === text);
  const smaller = zlib.gzipSync(text).length < text.length / 10;
  // Bytes gzip made elsewhere must decode here (and the other way round).
  const fixed = Buffer.from("H4sIAAAAAAAAA8tIzcnJBwCGphA2BQAAAA==", "base64");
  const gunzipped = zlib.gunzipSync(fixed).toString();
  const gzipAsync = await promisify(zlib.gzip)(text);
  const callback = await new Promise((resolve) => zlib.inflate(zlib.deflateSync("cb"), (error, out) => resolve([error, out.toString()])));
  const rejected = await promisify(zlib.gunzip)(Buffer.from("not gzip")).then(
    () => "resolved",
    (error) => error.code,
  );
  return {
    roundTrips,
    levels,
    smaller,
    gunzipped,
    asyncRoundTrip: zlib.gunzipSync(gzipAsync).toString() === text,
    callback,
    rejected,
    badGunzip: attempt(() => zlib.gunzipSync(Buffer.from("definitely not gzip data"))),
    badInflate: attempt(() => zlib.inflateSync(Buffer.from("definitely not zlib data"))),
    truncated: attempt(() => zlib.gunzipSync(zlib.gzipSync(text).subarray(0, 20))),
    constants: [zlib.constants.Z_BEST_COMPRESSION, zlib.constants.Z_DATA_ERROR],
  };
}
