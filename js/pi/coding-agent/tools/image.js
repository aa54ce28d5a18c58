// Images for the read tool. pi sniffs the type from the first bytes, then
// sends the file as it is when it is within 2000x2000 pixels and 4.5MB of
// base64; larger images it resizes, and BMPs it converts to PNG, with Photon
// (WASM). pihost has no image codec, so it behaves as pi does when Photon is
// unavailable: those images are omitted with pi's own notice.

const SNIFF_BYTES = 4100;
const MAX_DIMENSION = 2000;
const MAX_BASE64_BYTES = 4.5 * 1024 * 1024;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const u16le = (b, at) => (b[at] ?? 0) + ((b[at + 1] ?? 0) << 8);
const u16be = (b, at) => ((b[at] ?? 0) << 8) + (b[at + 1] ?? 0);
const u32le = (b, at) => u16le(b, at) + u16le(b, at + 2) * 0x10000;
const u32be = (b, at) => u16be(b, at) * 0x10000 + u16be(b, at + 2);
const u24le = (b, at) => u16le(b, at) + ((b[at + 2] ?? 0) << 16);

function startsWith(bytes, expected, at = 0) {
  if (bytes.length < at + expected.length) return false;
  return expected.every((byte, i) => bytes[at + i] === byte);
}

const ascii = (text) => Array.from(text, (char) => char.charCodeAt(0));
const hasAscii = (bytes, at, text) => startsWith(bytes, ascii(text), at);

function isPng(bytes) {
  return bytes.length >= 16 && u32be(bytes, 8) === 13 && hasAscii(bytes, 12, "IHDR");
}

/** An APNG declares acTL before its first IDAT. */
function isAnimatedPng(bytes) {
  let offset = PNG_SIGNATURE.length;
  while (offset + 8 <= bytes.length) {
    if (hasAscii(bytes, offset + 4, "acTL")) return true;
    if (hasAscii(bytes, offset + 4, "IDAT")) return false;
    const next = offset + 8 + u32be(bytes, offset) + 4;
    if (next <= offset || next > bytes.length) return false;
    offset = next;
  }
  return false;
}

function isBmp(bytes) {
  if (bytes.length < 26) return false;
  const fileSize = u32le(bytes, 2);
  const pixelOffset = u32le(bytes, 10);
  const headerSize = u32le(bytes, 14);
  if (fileSize !== 0 && fileSize < 26) return false;
  if (pixelOffset < 14 + headerSize) return false;
  if (fileSize !== 0 && pixelOffset >= fileSize) return false;
  let planes;
  let bits;
  if (headerSize === 12) {
    planes = u16le(bytes, 22);
    bits = u16le(bytes, 24);
  } else if (headerSize >= 40 && headerSize <= 124) {
    if (bytes.length < 30) return false;
    planes = u16le(bytes, 26);
    bits = u16le(bytes, 28);
  } else return false;
  return planes === 1 && [1, 4, 8, 16, 24, 32].includes(bits);
}

/** The image type pi reads as an image, from the file's first bytes; null for anything else. */
export function detectImageMimeType(bytes) {
  const head = bytes.subarray(0, SNIFF_BYTES);
  if (startsWith(head, [0xff, 0xd8, 0xff])) return head[3] === 0xf7 ? null : "image/jpeg";
  if (startsWith(head, PNG_SIGNATURE)) return isPng(head) && !isAnimatedPng(head) ? "image/png" : null;
  if (hasAscii(head, 0, "GIF87a") || hasAscii(head, 0, "GIF89a")) return "image/gif";
  if (hasAscii(head, 0, "RIFF") && hasAscii(head, 8, "WEBP")) return "image/webp";
  if (hasAscii(head, 0, "BM") && isBmp(head)) return "image/bmp";
  return null;
}

function jpegSize(bytes) {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at++;
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { width: u16be(bytes, at + 7), height: u16be(bytes, at + 5) };
    at += 2 + u16be(bytes, at + 2);
  }
  return undefined;
}

function webpSize(bytes) {
  if (hasAscii(bytes, 12, "VP8 ") && bytes.length >= 30) return { width: u16le(bytes, 26) & 0x3fff, height: u16le(bytes, 28) & 0x3fff };
  if (hasAscii(bytes, 12, "VP8L") && bytes.length >= 25) {
    const bits = u32le(bytes, 21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (hasAscii(bytes, 12, "VP8X") && bytes.length >= 30) return { width: u24le(bytes, 24) + 1, height: u24le(bytes, 27) + 1 };
  return undefined;
}

/** Pixel size from the header, as a decoder would report it; undefined when unreadable. */
function imageSize(bytes, mimeType) {
  switch (mimeType) {
    case "image/png":
      return { width: u32be(bytes, 16), height: u32be(bytes, 20) };
    case "image/gif":
      return bytes.length >= 10 ? { width: u16le(bytes, 6), height: u16le(bytes, 8) } : undefined;
    case "image/jpeg":
      return jpegSize(bytes);
    case "image/webp":
      return webpSize(bytes);
    default:
      return undefined;
  }
}

function toBase64(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** pi's processImage result: { ok, data, mimeType, hints } or { ok: false, message }. */
export function processImage(bytes, mimeType, { autoResizeImages = true } = {}) {
  if (mimeType === "image/bmp") {
    return { ok: false, message: "[Image omitted: could not be converted to a supported inline image format.]" };
  }
  if (!autoResizeImages) return { ok: true, data: toBase64(bytes), mimeType, hints: [] };
  const size = imageSize(bytes, mimeType);
  const base64Size = Math.ceil(bytes.byteLength / 3) * 4;
  if (!size || size.width > MAX_DIMENSION || size.height > MAX_DIMENSION || base64Size >= MAX_BASE64_BYTES) {
    return { ok: false, message: "[Image omitted: could not be resized below the inline image size limit.]" };
  }
  return { ok: true, data: toBase64(bytes), mimeType, hints: [] };
}
