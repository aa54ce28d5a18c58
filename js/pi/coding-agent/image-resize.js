// pi's image resizing and conversion: `resizeImage` fits an image within a
// size in pixels and in base64 bytes (what a model accepts inline),
// `convertToPng` turns an image into PNG for terminals that show only PNG,
// and `processImage` is what the read tool does with an image file. pi
// decodes and encodes with Photon; pihost with the same Rust image library,
// through ops (src/ops/images.rs). Which sizes and qualities are tried, and
// in which order, is pi's strategy, written here.
import { core, ops } from "../../runtime/ops.js";
import { formatDimensionNote } from "./images.js";

// Below Anthropic's 5 MB limit on an inline image, with headroom.
const DEFAULT_MAX_BYTES = 4.5 * 1024 * 1024;
const DEFAULTS = { maxWidth: 2000, maxHeight: 2000, maxBytes: DEFAULT_MAX_BYTES, jpegQuality: 80 };
const LOWER_JPEG_QUALITIES = [85, 70, 55, 40];
// Each step past the size limits keeps three quarters of each side.
const SHRINK = 0.75;

function toBase64(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function fromBase64(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Length of the base64 text of `byteLength` bytes. */
const base64Length = (byteLength) => Math.ceil(byteLength / 3) * 4;

/** Runs `use` on the decoded image, or answers null when it cannot be decoded. */
async function withDecoded(bytes, use) {
  let decoded;
  try {
    decoded = await ops.op_pihost_image_decode(bytes);
  } catch {
    return null;
  }
  try {
    return await use(decoded);
  } catch {
    return null;
  } finally {
    core.tryClose(decoded.rid);
  }
}

function fitWithin(width, height, maxWidth, maxHeight) {
  if (width > maxWidth) {
    height = Math.round((height * maxWidth) / width);
    width = maxWidth;
  }
  if (height > maxHeight) {
    width = Math.round((width * maxHeight) / height);
    height = maxHeight;
  }
  return { width, height };
}

/**
 * The image within `maxWidth`×`maxHeight` pixels and under `maxBytes` of
 * base64 (`{ data, mimeType, originalWidth, originalHeight, width, height,
 * wasResized }`), or null when it cannot be decoded or made small enough.
 */
export async function resizeImage(inputBytes, mimeType, options) {
  const limits = { ...DEFAULTS, ...options };
  const inputBase64Size = base64Length(inputBytes.byteLength);
  return withDecoded(inputBytes, async ({ rid, width: originalWidth, height: originalHeight }) => {
    const original = { originalWidth, originalHeight };
    if (originalWidth <= limits.maxWidth && originalHeight <= limits.maxHeight && inputBase64Size < limits.maxBytes) {
      const format = mimeType.split("/")[1] ?? "png";
      return {
        data: toBase64(inputBytes),
        mimeType: mimeType || `image/${format}`,
        ...original,
        width: originalWidth,
        height: originalHeight,
        wasResized: false,
      };
    }
    // Photon refuses a JPEG quality that is not a number, and pi answers null.
    if (typeof limits.jpegQuality !== "number") return null;
    const [jpegQuality, ...lowerQualities] = [...new Set([limits.jpegQuality, ...LOWER_JPEG_QUALITIES])];
    let { width, height } = fitWithin(originalWidth, originalHeight, limits.maxWidth, limits.maxHeight);
    for (;;) {
      const encode = async (jpegQuality) => {
        const bytes = await ops.op_pihost_image_encode(rid, width, height, { jpegQuality });
        const mimeType = jpegQuality === undefined ? "image/png" : "image/jpeg";
        return { bytes, encodedSize: base64Length(bytes.byteLength), mimeType };
      };
      // The smaller of PNG and JPEG at the asked quality first; lower JPEG
      // qualities only when neither fits. pi encodes them all; encoding the
      // lower ones only when needed picks the same one.
      const png = await encode(undefined);
      const jpeg = await encode(jpegQuality);
      let fitting = (jpeg.encodedSize < png.encodedSize ? [jpeg, png] : [png, jpeg]).find(
        (option) => option.encodedSize < limits.maxBytes,
      );
      for (const quality of lowerQualities) {
        if (fitting) break;
        const lower = await encode(quality);
        if (lower.encodedSize < limits.maxBytes) fitting = lower;
      }
      if (fitting) {
        const data = toBase64(fitting.bytes);
        return { data, mimeType: fitting.mimeType, ...original, width, height, wasResized: true };
      }
      if (width === 1 && height === 1) return null;
      const nextWidth = width === 1 ? 1 : Math.max(1, Math.floor(width * SHRINK));
      const nextHeight = height === 1 ? 1 : Math.max(1, Math.floor(height * SHRINK));
      if (nextWidth === width && nextHeight === height) return null;
      width = nextWidth;
      height = nextHeight;
    }
  });
}

/** The image as PNG bytes, upright; null when it cannot be decoded. */
export async function convertImageBytesToPng(bytes) {
  return withDecoded(bytes, async ({ rid, width, height }) => {
    return new Uint8Array(await ops.op_pihost_image_encode(rid, width, height, {}));
  });
}

/** `{ data, mimeType: "image/png" }` for a base64 image; a PNG is returned as it is; null when it cannot be converted. */
export async function convertToPng(base64Data, mimeType) {
  if (mimeType === "image/png") return { data: base64Data, mimeType };
  const png = await convertImageBytesToPng(fromBase64(base64Data));
  return png ? { data: toBase64(png), mimeType: "image/png" } : null;
}

const INLINE_TYPES = {
  "image/png": "image/png",
  "image/jpeg": "image/jpeg",
  "image/jpg": "image/jpeg",
  "image/gif": "image/gif",
  "image/webp": "image/webp",
};

function baseMimeType(mimeType) {
  return mimeType.split(";")[0]?.trim().toLowerCase() ?? mimeType.toLowerCase();
}

/** A type a model takes inline stays; anything else becomes PNG, noting what it was. */
async function inlineImage(bytes, mimeType) {
  const inline = INLINE_TYPES[baseMimeType(mimeType)];
  if (inline) return { bytes, mimeType: inline };
  const png = await convertImageBytesToPng(bytes);
  return png && { bytes: png, mimeType: "image/png", convertedFrom: baseMimeType(mimeType) };
}

function conversionHint(from, to) {
  return from && from !== to ? `[Image converted from ${from} to ${to}.]` : undefined;
}

/**
 * What the read tool sends for an image file: `{ ok: true, data, mimeType,
 * hints }` (hints: the conversion and the resize, as pi notes them), or
 * `{ ok: false, message }` with pi's notice.
 */
export async function processImage(bytes, mimeType, options) {
  const image = await inlineImage(bytes, mimeType);
  if (!image) return { ok: false, message: "[Image omitted: could not be converted to a supported inline image format.]" };
  if (!(options?.autoResizeImages ?? true)) {
    const hint = conversionHint(image.convertedFrom, image.mimeType);
    return { ok: true, data: toBase64(image.bytes), mimeType: image.mimeType, hints: hint ? [hint] : [] };
  }
  const resized = await resizeImage(image.bytes, image.mimeType, options?.resizeOptions);
  if (!resized) return { ok: false, message: "[Image omitted: could not be resized below the inline image size limit.]" };
  const hints = [conversionHint(image.convertedFrom, resized.mimeType), formatDimensionNote(resized)].filter(Boolean);
  return { ok: true, data: resized.data, mimeType: resized.mimeType, hints };
}
