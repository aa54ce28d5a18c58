// An image drawn inline where the terminal can, a one-line text stand-in
// where it cannot.
import { getCapabilities, getCellDimensions } from "../capabilities.js";
import { getImageDimensions, getPngDimensions } from "../image-dimensions.js";
import { allocateImageId, imageFallback, renderImage } from "../terminal-image.js";
import { truncateToWidth } from "../truncate.js";

// Unknown sizes are laid out as a common screenshot shape.
const ASSUMED_DIMENSIONS = { widthPx: 800, heightPx: 600 };
const DEFAULT_MAX_COLUMNS = 60;
const CONVERTED_KEPT = 32;

let transcoder;
// Conversions by source data, oldest use first, so that recreating an Image
// for the same picture does not convert it again. Failed conversions are
// remembered too.
const converted = new Map();

/**
 * Kitty-protocol terminals take PNG only; `convert(base64Data, mimeType)`
 * returns other images as base64 PNG (or null). Without a converter those
 * images show as text.
 */
export function setImageTranscoder(convert) {
  transcoder = convert;
  converted.clear();
}

function asPng(base64Data, mimeType) {
  if (!transcoder) return null;
  const known = converted.get(base64Data);
  const png = known === undefined ? transcoder(base64Data, mimeType) : known;
  converted.delete(base64Data);
  converted.set(base64Data, png);
  if (converted.size > CONVERTED_KEPT) converted.delete(converted.keys().next().value);
  return png;
}

export class Image {
  constructor(base64Data, mimeType, theme, options = {}, dimensions) {
    this.base64Data = base64Data;
    this.mimeType = mimeType;
    this.theme = theme;
    this.options = options;
    this.dimensions = dimensions || getImageDimensions(base64Data, mimeType) || ASSUMED_DIMENSIONS;
    this.imageId = options.imageId;
  }

  /** The Kitty image id, once there is one, for deleting the image later. */
  getImageId() {
    return this.imageId;
  }

  invalidate() {
    this.cachedLines = undefined;
    this.cachedWidth = undefined;
  }

  render(width) {
    if (this.cachedLines && this.cachedWidth === width) return this.cachedLines;
    this.cachedLines = draw(this, width);
    this.cachedWidth = width;
    return this.cachedLines;
  }
}

// The drawing steps are plain functions, not methods, so that a subclass's
// own method names cannot change how the image draws.

function draw(image, width) {
  // A square-ish default box: as many rows as the columns are wide in pixels.
  const maxColumns = Math.max(1, Math.min(width - 2, image.options.maxWidthCells ?? DEFAULT_MAX_COLUMNS));
  const cell = getCellDimensions();
  const maxRows = image.options.maxHeightCells ?? Math.max(1, Math.ceil((maxColumns * cell.widthPx) / cell.heightPx));
  const protocol = getCapabilities().images;
  const { data, dimensions } = drawableData(image, protocol);
  if (!protocol || !data) return fallback(image, width);
  if (protocol === "kitty" && image.imageId === undefined) image.imageId = allocateImageId();
  const drawn = renderImage(data, dimensions, {
    maxWidthCells: maxColumns,
    maxHeightCells: maxRows,
    imageId: image.imageId,
    moveCursor: false,
  });
  if (!drawn) return fallback(image, width);
  if (drawn.imageId) image.imageId = drawn.imageId;
  // One line per row the image covers, so the TUI reserves its height.
  const blanks = Array.from({ length: Math.max(0, drawn.rows - 1) }, () => "");
  // Kitty draws downwards from the first line without moving the cursor;
  // iTerm2 draws from the last line after moving up over the blanks, and
  // leaves the cursor below the image.
  if (protocol === "kitty") return [drawn.sequence, ...blanks];
  const up = drawn.rows > 1 ? `\x1b[${drawn.rows - 1}A` : "";
  return [...blanks, up + drawn.sequence];
}

/** What the protocol gets to draw: Kitty needs PNG, converted, with the converted image's size. */
function drawableData(image, protocol) {
  if (protocol !== "kitty" || image.mimeType === "image/png") {
    return { data: image.base64Data, dimensions: image.dimensions };
  }
  // A failed conversion is not kept here, so a converter set later can succeed.
  image.pngData ??= asPng(image.base64Data, image.mimeType) ?? undefined;
  if (!image.pngData) return { data: null, dimensions: image.dimensions };
  // The converter may have turned the image upright (EXIF), changing its size.
  return { data: image.pngData, dimensions: getPngDimensions(image.pngData) ?? image.dimensions };
}

function fallback(image, width) {
  const text = imageFallback(image.mimeType, image.dimensions, image.options.filename);
  return [truncateToWidth(image.theme.fallbackColor(text), width)];
}
