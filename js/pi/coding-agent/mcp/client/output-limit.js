// The limit on the text of an MCP result a model is shown. Longer text
// keeps its beginning and end, with the middle replaced by a count of what
// was cut (Codex's format), and the whole text can be saved for the model
// to read in parts.
import { Buffer } from "node:buffer";

export const MCP_OUTPUT_MAX_BYTES = 20 * 1024;

/** UTF-8 continuation bytes (10xxxxxx) never start a character. */
const startsCharacter = (bytes, index) => index >= bytes.length || (bytes[index] & 0xc0) !== 0x80;

/**
 * `text` with its middle cut so that it keeps about `maxBytes` bytes, half
 * from each end and cut at character boundaries; undefined when it fits.
 */
function cutMiddle(text, maxBytes) {
  const bytes = Buffer.from(text, "utf-8");
  if (bytes.length <= maxBytes) return undefined;
  const headBytes = Math.floor(maxBytes / 2);
  let headEnd = headBytes;
  while (headEnd > 0 && !startsCharacter(bytes, headEnd)) headEnd--;
  let tailStart = bytes.length - (maxBytes - headBytes);
  while (tailStart < bytes.length && !startsCharacter(bytes, tailStart)) tailStart++;
  const removed = [...bytes.subarray(headEnd, tailStart).toString("utf-8")].length;
  // A final newline ends the last line rather than starting one.
  const lineCount = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  return {
    text: `${bytes.subarray(0, headEnd).toString("utf-8")}…${removed} chars truncated…${bytes.subarray(tailStart).toString("utf-8")}`,
    totalBytes: bytes.length,
    lineCount,
  };
}

/**
 * Content within the limit is returned unchanged. Otherwise all its text
 * becomes one block in the truncation format, naming the file `save` wrote
 * the full text to (when given), followed by the images.
 */
export async function limitMcpContent(content, save) {
  const text = content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
  const cut = cutMiddle(text, MCP_OUTPUT_MAX_BYTES);
  if (!cut) return { content };
  let fullOutputPath;
  let note = "";
  if (save) {
    try {
      fullOutputPath = await save(text, ".txt");
      note = `\n\n[Full output: ${fullOutputPath} (read it with offset/limit)]`;
    } catch (error) {
      note = `\n\n[Could not save the full output: ${error instanceof Error ? error.message : String(error)}]`;
    }
  }
  const header = `Warning: truncated output (original token count: ${Math.ceil(cut.totalBytes / 4)})\nTotal output lines: ${cut.lineCount}\n\n`;
  return {
    content: [{ type: "text", text: `${header}${cut.text}${note}` }, ...content.filter((block) => block.type === "image")],
    ...(fullOutputPath ? { fullOutputPath } : {}),
  };
}
