// node:crypto beyond hashes, as extensions use it to encrypt, sign and
// derive: AES-GCM and AES-CBC ciphers (fixed vectors, auth tags, a wrong
// tag's error), key generation and PEM/JWK/DER import and export, RSA,
// EC and Ed25519 signatures, pbkdf2 and scrypt, and webcrypto.subtle.
import crypto from "node:crypto";
import fs from "node:fs";

const fixture = (name) => fs.readFileSync(new URL(`./fixtures/keys/${name}`, import.meta.url), "utf8");

function failure(error) {
  return { name: error.name, code: error.code, message: error.message };
}

function attempt(fn) {
  try {
    return { value: fn() };
  } catch (error) {
    return { error: failure(error) };
  }
}

function ciphers() {
  const key = Buffer.alloc(32, 7);
  const iv = Buffer.alloc(12, 1);
  const cipher = crypto.createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from("header"));
  const encrypted = Buffer.concat([cipher.update("secret message", "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  const decipher = crypto.createDecipheriv("aes-256-gcm", key, iv);
  decipher.setAAD(Buffer.from("header"));
  decipher.setAuthTag(tag);
  const decrypted = decipher.update(encrypted, undefined, "utf8") + decipher.final("utf8");
  const wrongTag = attempt(() => {
    const bad = crypto.createDecipheriv("aes-256-gcm", key, iv);
    bad.setAAD(Buffer.from("header"));
    bad.setAuthTag(Buffer.alloc(16));
    bad.update(encrypted);
    return bad.final();
  });

  const cbcKey = Buffer.from("000102030405060708090a0b0c0d0e0f", "hex");
  const cbcIv = Buffer.from("0f0e0d0c0b0a09080706050403020100", "hex");
  const cbc = crypto.createCipheriv("aes-128-cbc", cbcKey, cbcIv);
  const cbcText = cbc.update("sixteen byte msg and more", "utf8", "hex") + cbc.final("hex");
  const cbcBack = crypto.createDecipheriv("aes-128-cbc", cbcKey, cbcIv);
  const cbcPlain = cbcBack.update(cbcText, "hex", "utf8") + cbcBack.final("utf8");
  const noPadding = crypto.createCipheriv("aes-128-cbc", cbcKey, cbcIv).setAutoPadding(false);
  const unpadded = Buffer.concat([noPadding.update(Buffer.alloc(32, 3)), noPadding.final()]).toString("hex");
  const badPadding = attempt(() => {
    const broken = crypto.createDecipheriv("aes-128-cbc", cbcKey, cbcIv);
    broken.update(Buffer.alloc(16, 9));
    return broken.final();
  });
  const ctr = crypto.createCipheriv("aes-256-ctr", key, Buffer.alloc(16, 2));
  return {
    gcm: [encrypted.toString("hex"), tag.toString("hex"), decrypted],
    wrongTag,
    cbc: [cbcText, cbcPlain],
    unpadded,
    badPadding,
    ctr: Buffer.concat([ctr.update("counter mode"), ctr.final()]).toString("base64"),
    badKey: attempt(() => crypto.createCipheriv("aes-256-gcm", Buffer.alloc(5), iv)),
    unknown: attempt(() => crypto.createCipheriv("aes-999-xyz", key, iv)),
    listed: ["aes-256-gcm", "aes-128-cbc", "aes-256-ctr"].map((name) => crypto.getCiphers().includes(name)),
  };
}

function keys() {
  const rsaPem = fixture("rsa.pem");
  const rsaPrivate = crypto.createPrivateKey(rsaPem);
  const rsaPublic = crypto.createPublicKey(rsaPem);
  const fromPublicPem = crypto.createPublicKey(fixture("rsa.pub.pem"));
  const edPrivate = crypto.createPrivateKey(fixture("ed25519.pem"));
  const edPublic = crypto.createPublicKey(edPrivate);
  const describe = (key) => [key.type, key.asymmetricKeyType, key.asymmetricKeyDetails?.modulusLength ?? key.asymmetricKeyDetails?.namedCurve ?? null];

  const generatedRsa = crypto.generateKeyPairSync("rsa", {
    modulusLength: 1024,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  const generatedEc = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
  const generatedEd = crypto.generateKeyPairSync("ed25519");
  const jwk = generatedEc.publicKey.export({ format: "jwk" });
  const fromJwk = crypto.createPublicKey({ key: jwk, format: "jwk" });
  const secret = crypto.createSecretKey(Buffer.from("0123456789abcdef"));
  return {
    described: [rsaPrivate, rsaPublic, fromPublicPem, edPrivate, edPublic].map(describe),
    publicPemSame: rsaPublic.export({ type: "spki", format: "pem" }) === fixture("rsa.pub.pem"),
    privatePemSame: rsaPrivate.export({ type: "pkcs8", format: "pem" }) === rsaPem,
    edPublicDer: edPublic.export({ type: "spki", format: "der" }).toString("base64"),
    rsaJwk: Object.keys(rsaPublic.export({ format: "jwk" })).sort(),
    rsaPkcs1: rsaPublic.export({ type: "pkcs1", format: "pem" }).split("\n")[0],
    equals: [rsaPublic.equals(fromPublicPem), rsaPublic.equals(edPublic)],
    generated: {
      rsa: [generatedRsa.publicKey.split("\n")[0], generatedRsa.privateKey.split("\n")[0]],
      ec: [describe(generatedEc.privateKey), describe(generatedEc.publicKey), jwk.kty, jwk.crv, typeof jwk.x, fromJwk.equals(generatedEc.publicKey)],
      ed: [describe(generatedEd.privateKey), generatedEd.publicKey.export({ type: "spki", format: "der" }).length],
    },
    secret: [secret.type, secret.symmetricKeySize, secret.export().toString()],
    badPem: attempt(() => crypto.createPrivateKey("-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----")).error?.name,
  };
}

function signatures() {
  const rsaPem = fixture("rsa.pem");
  const publicPem = fixture("rsa.pub.pem");
  const data = Buffer.from("signed data");
  const signer = crypto.createSign("SHA256");
  signer.update("signed ");
  signer.update("data");
  const rsaSignature = signer.sign(rsaPem, "base64");
  const oneShot = crypto.sign("sha256", data, rsaPem).toString("base64");
  const verifier = crypto.createVerify("RSA-SHA256");
  verifier.update(data);
  const pss = crypto.sign("sha256", data, { key: rsaPem, padding: crypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 });

  const ed = crypto.createPrivateKey(fixture("ed25519.pem"));
  const edSignature = crypto.sign(null, data, ed);
  const ec = crypto.generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const ecSignature = crypto.sign("sha256", data, ec.privateKey);
  const p1363 = crypto.sign("sha256", data, { key: ec.privateKey, dsaEncoding: "ieee-p1363" });
  const encrypted = crypto.publicEncrypt({ key: publicPem, oaepHash: "sha256" }, Buffer.from("for your eyes"));
  return {
    rsa: [rsaSignature === oneShot, rsaSignature.length, verifier.verify(publicPem, rsaSignature, "base64")],
    rsaFixed: oneShot.slice(0, 40),
    tampered: crypto.verify("sha256", Buffer.from("signed datA"), publicPem, Buffer.from(oneShot, "base64")),
    pss: crypto.verify("sha256", data, { key: publicPem, padding: crypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, pss),
    ed: [edSignature.toString("hex"), crypto.verify(null, data, crypto.createPublicKey(ed), edSignature)],
    ec: [crypto.verify("sha256", data, ec.publicKey, ecSignature), ecSignature[0], p1363.length, crypto.verify("sha256", data, { key: ec.publicKey, dsaEncoding: "ieee-p1363" }, p1363)],
    oaep: crypto.privateDecrypt({ key: rsaPem, oaepHash: "sha256" }, encrypted).toString(),
  };
}

async function derive() {
  const pbkdf2 = crypto.pbkdf2Sync("password", "salt", 1000, 32, "sha256").toString("hex");
  const pbkdf2Async = await new Promise((resolve, reject) =>
    crypto.pbkdf2("password", "salt", 1000, 32, "sha512", (error, key) => (error ? reject(error) : resolve(key.toString("hex")))),
  );
  const scrypt = crypto.scryptSync("password", "salt", 32).toString("hex");
  const scryptTuned = crypto.scryptSync("password", "NaCl", 16, { N: 1024, r: 8, p: 2 }).toString("hex");
  const scryptAsync = await new Promise((resolve, reject) =>
    crypto.scrypt("pw", "salt", 16, (error, key) => (error ? reject(error) : resolve(key.toString("hex")))),
  );
  const hkdf = Buffer.from(crypto.hkdfSync("sha256", "key", "salt", "info", 16)).toString("hex");
  const random = crypto.randomBytes(24);
  return {
    pbkdf2,
    pbkdf2Async,
    scrypt,
    scryptTuned,
    scryptAsync,
    hkdf,
    random: [random.length, Buffer.isBuffer(random), crypto.randomBytes(0).length],
    badDigest: attempt(() => crypto.pbkdf2Sync("p", "s", 1, 8, "nope")).error,
  };
}

async function subtle() {
  const { subtle } = crypto.webcrypto;
  const bytes = new TextEncoder().encode("subtle data");
  const hex = (buffer) => Buffer.from(buffer).toString("hex");
  const digests = {};
  for (const name of ["SHA-1", "SHA-256", "SHA-384", "SHA-512"]) digests[name] = hex(await subtle.digest(name, bytes));

  const hmacKey = await subtle.importKey("raw", new TextEncoder().encode("hmac key"), { name: "HMAC", hash: "SHA-256" }, true, ["sign", "verify"]);
  const mac = await subtle.sign("HMAC", hmacKey, bytes);
  const macOk = await subtle.verify("HMAC", hmacKey, mac, bytes);
  const macBad = await subtle.verify("HMAC", hmacKey, mac, new TextEncoder().encode("other"));

  const aesKey = await subtle.importKey("raw", new Uint8Array(32).fill(5), "AES-GCM", true, ["encrypt", "decrypt"]);
  const iv = new Uint8Array(12).fill(9);
  const sealed = await subtle.encrypt({ name: "AES-GCM", iv, additionalData: new Uint8Array([1]) }, aesKey, bytes);
  const opened = new TextDecoder().decode(await subtle.decrypt({ name: "AES-GCM", iv, additionalData: new Uint8Array([1]) }, aesKey, sealed));
  const tamperedBytes = new Uint8Array(sealed);
  tamperedBytes[0] ^= 1;
  const tampered = await subtle
    .decrypt({ name: "AES-GCM", iv, additionalData: new Uint8Array([1]) }, aesKey, tamperedBytes)
    .then(() => "opened")
    .catch((error) => [error.name, error instanceof DOMException]);

  const generatedAes = await subtle.generateKey({ name: "AES-GCM", length: 256 }, true, ["encrypt", "decrypt"]);
  const exportedAes = await subtle.exportKey("raw", generatedAes);
  const ecdsa = await subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
  const ecdsaSignature = await subtle.sign({ name: "ECDSA", hash: "SHA-256" }, ecdsa.privateKey, bytes);
  const ecdsaOk = await subtle.verify({ name: "ECDSA", hash: "SHA-256" }, ecdsa.publicKey, ecdsaSignature, bytes);
  const jwk = await subtle.exportKey("jwk", ecdsa.publicKey);
  const hmacGenerated = await subtle.generateKey({ name: "HMAC", hash: "SHA-512" }, false, ["sign"]);
  const derivedBits = await subtle.deriveBits(
    { name: "PBKDF2", salt: new TextEncoder().encode("salt"), iterations: 1000, hash: "SHA-256" },
    await subtle.importKey("raw", new TextEncoder().encode("password"), "PBKDF2", false, ["deriveBits"]),
    256,
  );
  const unusable = await subtle
    .sign("HMAC", aesKey, bytes)
    .then(() => "signed")
    .catch((error) => error.name);
  return {
    digests,
    hmac: [hex(mac), macOk, macBad, hmacKey.type, hmacKey.algorithm.name, hmacKey.algorithm.hash.name, hmacKey.usages],
    aes: [hex(sealed), opened, tampered],
    generated: [
      exportedAes.byteLength,
      generatedAes.algorithm,
      ecdsa.privateKey.type,
      ecdsa.publicKey.algorithm.namedCurve,
      ecdsaSignature.byteLength,
      ecdsaOk,
      [jwk.kty, jwk.crv, jwk.ext, jwk.key_ops],
      [hmacGenerated.extractable, hmacGenerated.algorithm.length],
    ],
    derivedBits: hex(derivedBits),
    unusable,
    sameAsGlobal: crypto.webcrypto === globalThis.crypto && crypto.subtle === globalThis.crypto.subtle,
  };
}

export async function run() {
  return { ciphers: ciphers(), keys: keys(), signatures: signatures(), derive: await derive(), subtle: await subtle() };
}
