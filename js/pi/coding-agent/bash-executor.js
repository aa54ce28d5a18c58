// A user's bash command run for the session (pi's `!` commands): output
// decoded as it streams, escape sequences and control characters removed,
// only a rolling tail kept in memory, everything written to a temp file
// once it grows past the limit, and the tail truncated as the model sees
// it. An aborted command still returns what it printed.
import { createWriteStream } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sanitizeBinaryOutput, splitIncompleteAnsiSuffix, stripAnsi } from "./ansi-text.js";
import { randomHex } from "./tools/output-accumulator.js";
import { DEFAULT_MAX_BYTES, truncateTail } from "./truncate.js";
import { Utf8Decoder } from "./utf8.js";

/** Output can carry private data: only the user may read the file. */
const OUTPUT_FILE_MODE = 0o600;

function createOutputFileStream(prefix, extension) {
  const path = join(tmpdir(), `${prefix}-${randomHex(8)}${extension}`);
  // "wx" never follows a link someone else placed at the path.
  return { path, stream: createWriteStream(path, { mode: OUTPUT_FILE_MODE, flags: "wx" }) };
}

export async function executeBashWithOperations(command, cwd, operations, options) {
  const chunks = [];
  let keptLength = 0;
  let droppedOutput = false;
  const maxKept = DEFAULT_MAX_BYTES * 2;
  let totalBytes = 0;
  let file;
  const ensureFile = () => {
    if (file) return;
    file = createOutputFileStream("pi-bash", ".log");
    for (const chunk of chunks) file.stream.write(chunk);
  };
  const decoder = new Utf8Decoder();
  let heldAnsi = "";
  const append = (raw) => {
    const text = sanitizeBinaryOutput(stripAnsi(raw)).replace(/\r/g, "");
    if (!text) return;
    if (totalBytes > DEFAULT_MAX_BYTES) ensureFile();
    file?.stream.write(text);
    chunks.push(text);
    keptLength += text.length;
    while (keptLength > maxKept && chunks.length > 1) {
      keptLength -= chunks.shift().length;
      droppedOutput = true;
    }
    options?.onChunk?.(text);
  };
  const onData = (data) => {
    totalBytes += data.length;
    const { complete, pending } = splitIncompleteAnsiSuffix(heldAnsi + decoder.decode(data, { stream: true }));
    heldAnsi = pending;
    append(complete);
  };
  let exitCode = null;
  try {
    ({ exitCode } = await operations.exec(command, cwd, { onData, signal: options?.signal }));
  } catch (error) {
    if (!options?.signal?.aborted) {
      file?.stream.end();
      throw error;
    }
  }
  const rest = heldAnsi + decoder.decode();
  heldAnsi = "";
  append(rest);
  const full = chunks.join("");
  const truncation = truncateTail(full);
  if (truncation.truncated) ensureFile();
  file?.stream.end();
  const cancelled = options?.signal?.aborted ?? false;
  return {
    output: truncation.truncated ? truncation.content : full,
    exitCode: cancelled ? undefined : (exitCode ?? undefined),
    cancelled,
    truncated: droppedOutput || truncation.truncated,
    fullOutputPath: file?.path,
  };
}
