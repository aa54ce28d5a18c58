// node:crypto as extensions use it: digests in every encoding, HMACs,
// random values of the right shape, timingSafeEqual and its errors.
import crypto, { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual, getHashes } from "node:crypto";

function attempt(fn) {
  try {
    return { value: fn() };
  } catch (error) {
    return { error: { name: error.name, code: error.code, message: error.message } };
  }
}

export async function run() {
  const inputs = ["", "abc", "héllo wörld ✓", "x".repeat(1000)];
  const digests = {};
  for (const algorithm of ["md5", "sha1", "sha224", "sha256", "sha384", "sha512", "SHA256", "sha-256"]) {
    digests[algorithm] = inputs.map((input) => [
      createHash(algorithm).update(input).digest("hex"),
      createHash(algorithm).update(input).digest("base64"),
      createHash(algorithm).update(input).digest("base64url"),
      createHash(algorithm).update(input.slice(0, 2)).update(input.slice(2)).digest().length,
    ]);
  }
  const hash = createHash("sha256").update("a");
  const copy = hash.copy().update("b").digest("hex");
  return {
    digests,
    copy,
    copied: hash.digest("hex"),
    bufferInput: createHash("sha1").update(Buffer.from([1, 2, 3])).digest("hex"),
    hexInput: createHash("sha1").update("010203", "hex").digest("hex"),
    hmac: ["md5", "sha1", "sha256", "sha512"].map((algorithm) =>
      createHmac(algorithm, "key").update("The quick brown fox").digest("hex"),
    ),
    longKeyHmac: createHmac("sha256", "k".repeat(200)).update("data").digest("base64"),
    twiceDigest: attempt(() => {
      const h = createHash("md5");
      h.digest();
      return h.digest("hex");
    }),
    unknown: attempt(() => createHash("whirlpool-9000")),
    randomBytes: [randomBytes(0).length, randomBytes(16).length, Buffer.isBuffer(randomBytes(4))],
    randomBytesDiffer: randomBytes(16).toString("hex") !== randomBytes(16).toString("hex"),
    uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(randomUUID()),
    globalUuid: /^[0-9a-f-]{36}$/.test(globalThis.crypto.randomUUID()),
    getRandomValues: globalThis.crypto.getRandomValues(new Uint32Array(4)).length,
    randomInt: Array.from({ length: 50 }, () => crypto.randomInt(3, 7)).every((n) => n >= 3 && n < 7),
    timingSafeEqual: [
      timingSafeEqual(Buffer.from("abc"), Buffer.from("abc")),
      timingSafeEqual(Buffer.from("abc"), Buffer.from("abd")),
    ],
    timingSafeLength: attempt(() => timingSafeEqual(Buffer.from("a"), Buffer.from("ab"))),
    hashesInclude: ["md5", "sha1", "sha256", "sha512"].every((name) => getHashes().includes(name)),
    oneShot: crypto.hash("sha1", "abc"),
  };
}
