// What pi tells about image files outside the read tool: the type sniffed
// from a file's first bytes, and the note that maps a resized image's
// coordinates back to the original.
import { open } from "node:fs/promises";
import { detectImageMimeType } from "./tools/image.js";

// Enough for every signature pi checks, including an APNG's acTL chunk.
const SNIFF_BYTES = 4100;

/** The image type of the file at `filePath` that pi can send inline, or null. */
export async function detectSupportedImageMimeTypeFromFile(filePath) {
  const file = await open(filePath, "r");
  try {
    const head = new Uint8Array(SNIFF_BYTES);
    const { bytesRead } = await file.read(head, 0, SNIFF_BYTES, 0);
    return detectImageMimeType(head.subarray(0, bytesRead));
  } finally {
    await file.close();
  }
}

/** For a resized image, how to scale coordinates back to the original; undefined when it kept its size. */
export function formatDimensionNote(result) {
  if (!result.wasResized) return undefined;
  const scale = result.originalWidth / result.width;
  return (
    `[Image: original ${result.originalWidth}x${result.originalHeight}, displayed at ${result.width}x${result.height}. ` +
    `Multiply coordinates by ${scale.toFixed(2)} to map to original image.]`
  );
}
