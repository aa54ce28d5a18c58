// A script's output as the model receives it. Providers join adjacent text
// blocks with a newline or with nothing, so the layout marks item borders
// itself; long text is cut to the token budget around an omission mark, with
// the full text in a temp file; each image is saved to a temp file too, since
// the model has no other way to reach its bytes (scripts cannot write files
// and `write` only takes text).
import { Buffer } from "node:buffer";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomHex } from "../tools/output-accumulator.js";
import { formatSize, sliceHead } from "../truncate.js";

export const DEFAULT_MAX_OUTPUT_TOKENS = 10_000;
const CHARS_PER_TOKEN = 4;
// Output can carry private data: only the user may read the files.
const OUTPUT_FILE_MODE = 0o600;
/** Must name every type the prelude's image() detects. */
const IMAGE_FILE_EXTENSIONS = { "image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp" };

const isHighSurrogate = (code) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code) => code >= 0xdc00 && code <= 0xdfff;

/** At most `maxUnits` UTF-16 units from the end, never half a surrogate pair. */
function sliceTail(text, maxUnits) {
  if (maxUnits <= 0) return "";
  const start = Math.max(0, text.length - maxUnits);
  const splitsPair = isLowSurrogate(text.charCodeAt(start)) && isHighSurrogate(text.charCodeAt(start - 1));
  return text.slice(splitsPair ? start + 1 : start);
}

/** A new file `<tmp>/<prefix>-<16 hex><extension>` holding `data`; its path. */
async function writeOutputFile(prefix, extension, data) {
  const path = join(tmpdir(), `${prefix}-${randomHex(8)}${extension}`);
  // "wx" never follows a link someone else placed at the path.
  await writeFile(path, data, { mode: OUTPUT_FILE_MODE, flag: "wx" });
  return path;
}

const failureText = (error) => (error instanceof Error ? error.message : String(error));

/** Like the script's text(): strings as they are, anything else as JSON. */
export function valueText(value) {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
}

/**
 * Items in output order. With several text items (text() and the returned
 * value) each gets a `==> text N/M <==` line; console lines follow
 * everything else in one `<console_output>` block.
 */
export function layOutOutput(output) {
  const texts = output.filter((item) => item.type === "text" && !item.console).length;
  const items = [];
  const consoleLines = [];
  let number = 0;
  for (const item of output) {
    if (item.type === "image") items.push(item);
    else if (item.console) consoleLines.push(item.text);
    else {
      number++;
      items.push({ type: "text", text: texts > 1 ? `==> text ${number}/${texts} <==\n${item.text}` : item.text });
    }
  }
  if (consoleLines.length > 0) items.push({ type: "text", text: `<console_output>\n${consoleLines.join("\n")}\n</console_output>` });
  return items;
}

/**
 * Runs of text items as one item, each part starting on a line of its own.
 * Whether a newline is needed is read from the last non-empty part, not the
 * joined text, which would make long outputs quadratic.
 */
export function mergeTextRuns(items) {
  const merged = [];
  let run = [];
  let lastPart = "";
  const closeRun = () => {
    if (run.length > 0) merged.push({ type: "text", text: run.join("") });
    run = [];
    lastPart = "";
  };
  for (const item of items) {
    if (item.type !== "text") {
      closeRun();
      merged.push(item);
      continue;
    }
    if (lastPart !== "" && !lastPart.endsWith("\n")) {
      run.push("\n");
      lastPart = "\n";
    }
    run.push(item.text);
    if (item.text !== "") lastPart = item.text;
  }
  closeRun();
  return merged;
}

/**
 * Within the budget, the items as they are. Past it, the text becomes one
 * item keeping its start and end (images follow), and the full text goes
 * to a temp file whose path the item names.
 */
export async function fitOutputToBudget(items, maxTokens) {
  const texts = items.filter((item) => item.type === "text").map((item) => item.text);
  const combined = texts.join("\n");
  const budget = maxTokens * CHARS_PER_TOKEN;
  if (texts.length === 0 || combined.length <= budget) return { items };
  const headChars = Math.floor(budget / 2);
  const tailChars = budget - headChars;
  const omitted = combined.length - headChars - tailChars;
  let text =
    `Warning: truncated output (original token count: ${Math.ceil(combined.length / CHARS_PER_TOKEN)})\n` +
    `Total output lines: ${combined.split("\n").length}\n\n` +
    `${sliceHead(combined, headChars)}…${Math.ceil(omitted / CHARS_PER_TOKEN)} tokens truncated…${sliceTail(combined, tailChars)}`;
  let fullOutputPath;
  try {
    fullOutputPath = await writeOutputFile("pi-codemode", ".txt", combined);
    text += `\n\n[Full output: ${fullOutputPath} (read with offset/limit)]`;
  } catch (error) {
    text += `\n\n[Could not save the full output: ${failureText(error)}]`;
  }
  const images = items.filter((item) => item.type === "image");
  return fullOutputPath === undefined ? { items: [{ type: "text", text }, ...images] } : { items: [{ type: "text", text }, ...images], fullOutputPath };
}

/**
 * A `[Image saved to <path> (<type>, <size>)]` item before each image. An
 * image shown twice is saved once; a failed save must not lose the result
 * of a script whose tool calls already ran, so it becomes the label.
 */
export async function labelImagesWithFiles(items) {
  const labels = new Map();
  const saveAndLabel = async ({ data, mimeType }) => {
    const bytes = Buffer.from(data, "base64");
    const about = `${mimeType}, ${formatSize(bytes.length)}`;
    const extension = IMAGE_FILE_EXTENSIONS[mimeType];
    if (!extension) throw new Error(`No file extension for image type ${mimeType}`);
    try {
      return `[Image saved to ${await writeOutputFile("pi-codemode", extension, bytes)} (${about})]`;
    } catch (error) {
      return `[Image (${about}) could not be saved: ${failureText(error)}]`;
    }
  };
  const labelled = await Promise.all(
    items.map(async (item) => {
      if (item.type !== "image") return [item];
      if (!labels.has(item.data)) labels.set(item.data, saveAndLabel(item));
      return [{ type: "text", text: await labels.get(item.data) }, item];
    }),
  );
  return labelled.flat();
}
