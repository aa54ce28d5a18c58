// Inline images as terminal escape sequences (the Kitty graphics protocol
// and iTerm2's inline files), how many cells an image takes, OSC 8 links,
// and the text shown where no image can be.
import { hostEnv } from "../host-env.js";
import { getCapabilities, getCellDimensions } from "./capabilities.js";

// Kitty takes a transmission in pieces of at most 4096 base64 characters.
const KITTY_CHUNK = 4096;
const DEFAULT_CELL = { widthPx: 9, heightPx: 18 };

/**
 * A Kitty image id in 1..0xffffffff. Random rather than counted, so that
 * separately loaded copies of pi-tui (pi's and an extension's) do not hand
 * out the same ids.
 */
export function allocateImageId() {
  return Math.floor(Math.random() * 0xfffffffe) + 1;
}

const kittyCommand = (controls, payload) => `\x1b_G${controls};${payload}\x1b\\`;

/** Transmit and place a PNG; q=2 keeps the terminal from answering on stdin. */
export function encodeKitty(base64Data, options = {}) {
  const controls = ["a=T", "f=100", "q=2"];
  if (options.moveCursor === false) controls.push("C=1");
  if (options.columns) controls.push(`c=${options.columns}`);
  if (options.rows) controls.push(`r=${options.rows}`);
  if (options.imageId) controls.push(`i=${options.imageId}`);
  if (base64Data.length <= KITTY_CHUNK) return kittyCommand(controls.join(","), base64Data);
  // Every piece but the last says more follows (m=1); only the first carries the controls.
  let sequence = "";
  for (let start = 0; start < base64Data.length; start += KITTY_CHUNK) {
    const piece = base64Data.slice(start, start + KITTY_CHUNK);
    const more = start + KITTY_CHUNK < base64Data.length ? "m=1" : "m=0";
    sequence += start === 0 ? kittyCommand(`${controls.join(",")},m=1`, piece) : kittyCommand(more, piece);
  }
  return sequence;
}

/** Delete an image and free its data (upper-case I). */
export function deleteKittyImage(imageId) {
  return `\x1b_Ga=d,d=I,i=${imageId},q=2\x1b\\`;
}

/** Delete every visible image and free their data (upper-case A). */
export function deleteAllKittyImages() {
  return "\x1b_Ga=d,d=A,q=2\x1b\\";
}

/** Node's Buffer.byteLength(text, "base64"): from the length alone, less up to two trailing "=". */
function decodedLength(base64Data) {
  let length = base64Data.length;
  if (base64Data.charCodeAt(length - 1) === 0x3d) length--;
  if (length > 1 && base64Data.charCodeAt(length - 1) === 0x3d) length--;
  return (length * 3) >>> 2;
}

function utf8Base64(text) {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function encodeITerm2(base64Data, options = {}) {
  const fields = [`inline=${options.inline === false ? 0 : 1}`, `size=${decodedLength(base64Data)}`];
  if (options.width !== undefined) fields.push(`width=${options.width}`);
  if (options.height !== undefined) fields.push(`height=${options.height}`);
  if (options.name) fields.push(`name=${utf8Base64(String(options.name))}`);
  if (options.preserveAspectRatio === false) fields.push("preserveAspectRatio=0");
  return `\x1b]1337;File=${fields.join(";")}:${base64Data}\x07`;
}

/** Of `upper` cells and one fewer, the count whose ratio to `ideal` is nearer 1. */
function lessDistorted(upper, ideal) {
  if (upper <= 1) return upper;
  const distortion = (count) => Math.max(count / ideal, ideal / count);
  return distortion(upper - 1) < distortion(upper) ? upper - 1 : upper;
}

/**
 * The cells an image fills when scaled to fit the width (and the height,
 * when given). Rounding up to whole cells stretches the image; with
 * `optimizeAspectRatio` the side that was not the limit may lose a cell
 * when that stretches it less.
 */
function cellSize(imageDimensions, maxWidthCells, maxHeightCells, cell = DEFAULT_CELL, optimizeAspectRatio = false) {
  const maxColumns = Math.max(1, Math.floor(maxWidthCells));
  const maxRows = maxHeightCells === undefined ? undefined : Math.max(1, Math.floor(maxHeightCells));
  const imageWidth = Math.max(1, imageDimensions.widthPx);
  const imageHeight = Math.max(1, imageDimensions.heightPx);
  const widthScale = (maxColumns * cell.widthPx) / imageWidth;
  const heightScale = maxRows === undefined ? widthScale : (maxRows * cell.heightPx) / imageHeight;
  const scale = Math.min(widthScale, heightScale);
  let columns = Math.max(1, Math.min(maxColumns, Math.ceil((imageWidth * scale) / cell.widthPx)));
  let rows = Math.max(1, Math.ceil((imageHeight * scale) / cell.heightPx));
  if (maxRows !== undefined) rows = Math.min(maxRows, rows);
  if (!optimizeAspectRatio) return { columns, rows };
  if (widthScale <= heightScale) {
    rows = lessDistorted(rows, (columns * cell.widthPx * imageHeight) / (imageWidth * cell.heightPx));
  } else {
    columns = lessDistorted(columns, (rows * cell.heightPx * imageWidth) / (imageHeight * cell.widthPx));
  }
  return { columns, rows };
}

export function calculateImageRows(imageDimensions, targetWidthCells, cellDimensions = DEFAULT_CELL) {
  return cellSize(imageDimensions, targetWidthCells, undefined, cellDimensions).rows;
}

/** The image as the terminal's protocol draws it, or null where it cannot. */
export function renderImage(base64Data, imageDimensions, options = {}) {
  const protocol = getCapabilities().images;
  if (!protocol) return null;
  // Kitty scales to the exact cells it is given, so it gets the less stretched
  // fit; iTerm2 keeps the aspect ratio itself and needs the full reservation.
  const kitty = protocol === "kitty";
  const { columns, rows } = cellSize(
    imageDimensions,
    options.maxWidthCells ?? 80,
    options.maxHeightCells,
    getCellDimensions(),
    kitty,
  );
  if (kitty) {
    const { imageId, moveCursor } = options;
    const sequence = encodeKitty(base64Data, { columns, rows, imageId, moveCursor });
    return { sequence, columns, rows, imageId };
  }
  if (protocol === "iterm2") {
    const preserveAspectRatio = options.preserveAspectRatio ?? true;
    const sequence = encodeITerm2(base64Data, { width: columns, height: "auto", preserveAspectRatio });
    return { sequence, columns, rows };
  }
  return null;
}

/** `text` as an OSC 8 link to `url`; terminals without OSC 8 show the text alone. */
export function hyperlink(text, url) {
  return `\x1b]8;;${url}\x1b\\${text}\x1b]8;;\x1b\\`;
}

// Characters Node's pathToFileURL escapes in a path: the URL path set and a few
// more ("[", "\", "]", "^", "|", "~"), so the path never reads as URL syntax.
const LITERAL_IN_FILE_URL = /[A-Za-z0-9!$&'()*+,\-./:;=@_]/;

/** Node's pathToFileURL(path).href for an absolute POSIX path. */
function fileUrl(absolutePath) {
  const segments = [];
  for (const segment of absolutePath.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  let resolved = `/${segments.join("/")}`;
  if (absolutePath.endsWith("/") && !resolved.endsWith("/")) resolved += "/";
  let encoded = "";
  for (const char of resolved) {
    if (LITERAL_IN_FILE_URL.test(char)) {
      encoded += char;
      continue;
    }
    for (const byte of new TextEncoder().encode(char)) encoded += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return `file://${encoded}`;
}

/**
 * `~/...` for paths in the home directory. Node's homedir() is $HOME when it
 * is set, which is what pihost reads; without it pi asks the password
 * database, which pihost leaves alone and shows the path in full.
 */
function shortenHome(filename) {
  const home = hostEnv().HOME;
  if (!home) return filename;
  const inHome = filename === home || filename.startsWith(`${home}/`) || filename.startsWith(`${home}\\`);
  return inHome ? `~${filename.slice(home.length)}` : filename;
}

/**
 * "[Image: name [mime] WxH]" for terminals without inline images. The name is
 * shortened to ~/..., and an absolute one links to its file:// URL where the
 * terminal shows links, so the full path stays one click away.
 */
export function imageFallback(mimeType, dimensions, filename) {
  const parts = [];
  if (filename) {
    const shown = shortenHome(filename);
    const linkable = getCapabilities().hyperlinks && filename.startsWith("/");
    parts.push(linkable ? hyperlink(shown, fileUrl(filename)) : shown);
  }
  parts.push(`[${mimeType}]`);
  if (dimensions) parts.push(`${dimensions.widthPx}x${dimensions.heightPx}`);
  return `[Image: ${parts.join(" ")}]`;
}
