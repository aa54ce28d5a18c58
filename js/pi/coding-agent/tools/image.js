// Which files the read tool reads as images: pi sniffs the type from the
// first bytes (what it then does with them: ../image-resize.js).

const SNIFF_BYTES = 4100;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const u16le = (b, at) => (b[at] ?? 0) + ((b[at + 1] ?? 0) << 8);
const u16be = (b, at) => ((b[at] ?? 0) << 8) + (b[at + 1] ?? 0);
const u32le = (b, at) => u16le(b, at) + u16le(b, at + 2) * 0x10000;
const u32be = (b, at) => u16be(b, at) * 0x10000 + u16be(b, at + 2);

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
