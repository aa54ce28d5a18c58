// Command output as the bash tool keeps it: counted in full, decoded as it
// streams, only a tail (about 4x the byte limit) kept in memory for the
// display, and everything written to a temp file once it outgrows the limits
// so the model can be pointed at it.
import { appendFile, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, truncateTail } from "../truncate.js";
import { Utf8Decoder, decodeUtf8, encodeUtf8, utf8Length } from "../utf8.js";

/** Output can carry private data: only the user may read the file. */
const OUTPUT_FILE_MODE = 0o600;

function concatBytes(chunks) {
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** `bytes` random bytes as hex: Web Crypto where the engine has it. */
export function randomHex(bytes) {
  const values = new Uint8Array(bytes);
  if (globalThis.crypto?.getRandomValues) globalThis.crypto.getRandomValues(values);
  else for (let i = 0; i < bytes; i++) values[i] = Math.floor(Math.random() * 256);
  return Array.from(values, (value) => value.toString(16).padStart(2, "0")).join("");
}

/** Decodes like a fresh TextDecoder: a leading BOM dropped, broken bytes replaced. */
const decodeOutput = (bytes, options) => new Utf8Decoder().decode(bytes, options);

export class OutputAccumulator {
  #decoder = new Utf8Decoder();
  #rawChunks = [];
  #tailText = "";
  #tailBytes = 0;
  #tailStartsAtLineBoundary = true;
  #totalRawBytes = 0;
  #totalDecodedBytes = 0;
  #completedLines = 0;
  #totalLines = 0;
  #currentLineBytes = 0;
  #finished = false;
  #tempFilePath;
  // Writes to the temp file, in order; undefined until it exists or once closed.
  #tempWrites;

  constructor(options = {}) {
    this.maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.maxRollingBytes = Math.max(this.maxBytes * 2, 1);
    this.tempFilePrefix = options.tempFilePrefix ?? "pi-output";
  }

  append(data) {
    if (this.#finished) throw new Error("Cannot append to a finished output accumulator");
    const bytes = typeof data === "string" ? encodeUtf8(data) : data;
    this.#totalRawBytes += bytes.length;
    this.#appendText(this.#decoder.decode(bytes, { stream: true }));
    if (this.#tempWrites || this.#shouldUseTempFile()) {
      this.#ensureTempFile();
      this.#writeTemp(bytes);
    } else if (bytes.length > 0) {
      this.#rawChunks.push(bytes);
    }
  }

  finish() {
    if (this.#finished) return;
    this.#finished = true;
    this.#appendText(this.#decoder.decode());
    if (this.#shouldUseTempFile()) this.#ensureTempFile();
  }

  snapshot(options = {}) {
    // Dropping the tail's partial first line leaves nothing when the tail is
    // all one over-long line; then that line's end is shown.
    const text = this.#snapshotText() || this.#tailText;
    const tail = truncateTail(text, { maxLines: this.maxLines, maxBytes: this.maxBytes });
    const truncated = this.#totalLines > this.maxLines || this.#totalDecodedBytes > this.maxBytes;
    const truncatedBy = truncated ? (tail.truncatedBy ?? (this.#totalDecodedBytes > this.maxBytes ? "bytes" : "lines")) : null;
    const truncation = {
      ...tail,
      truncated,
      truncatedBy,
      totalLines: this.#totalLines,
      totalBytes: this.#totalDecodedBytes,
      maxLines: this.maxLines,
      maxBytes: this.maxBytes,
    };
    if (options.persistIfTruncated && truncation.truncated) this.#ensureTempFile();
    return { content: truncation.content, truncation, fullOutputPath: this.#tempFilePath };
  }

  async closeTempFile() {
    const writes = this.#tempWrites;
    if (!writes) return;
    this.#tempWrites = undefined;
    await writes;
  }

  /**
   * All the output, after finish() and closeTempFile(). Over `maxBytes` raw
   * bytes, its first and last halves around an omission marker.
   */
  async readFullOutput(maxBytes) {
    if (!this.#tempFilePath) return { content: decodeOutput(concatBytes(this.#rawChunks)), truncated: false };
    const bytes = await readFile(this.#tempFilePath);
    if (bytes.length <= maxBytes) return { content: decodeOutput(bytes), truncated: false };
    const headBytes = Math.floor(maxBytes / 2);
    const tailBytes = maxBytes - headBytes;
    // Cut at characters: a streaming decode holds back a split last one, and the tail skips continuation bytes.
    const head = decodeOutput(bytes.subarray(0, headBytes), { stream: true });
    let tailStart = bytes.length - tailBytes;
    while (tailStart < bytes.length && (bytes[tailStart] & 0xc0) === 0x80) tailStart++;
    const tail = decodeOutput(bytes.subarray(tailStart));
    const omitted = bytes.length - headBytes - tailBytes;
    return { content: `${head}\n\n[... ${omitted} bytes omitted ...]\n\n${tail}`, truncated: true };
  }

  getLastLineBytes() {
    return this.#currentLineBytes;
  }

  #appendText(text) {
    if (text.length === 0) return;
    const bytes = utf8Length(text);
    this.#totalDecodedBytes += bytes;
    this.#tailText += text;
    this.#tailBytes += bytes;
    if (this.#tailBytes > this.maxRollingBytes * 2) this.#trimTail();
    const lastNewline = text.lastIndexOf("\n");
    if (lastNewline === -1) {
      this.#currentLineBytes += bytes;
      this.#totalLines = this.#completedLines + 1;
      return;
    }
    let newlines = 0;
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) newlines++;
    this.#completedLines += newlines;
    const openLine = text.slice(lastNewline + 1);
    this.#currentLineBytes = utf8Length(openLine);
    this.#totalLines = this.#completedLines + (openLine.length > 0 ? 1 : 0);
  }

  #trimTail() {
    const bytes = encodeUtf8(this.#tailText);
    if (bytes.length <= this.maxRollingBytes) {
      this.#tailBytes = bytes.length;
      return;
    }
    let start = bytes.length - this.maxRollingBytes;
    while (start < bytes.length && (bytes[start] & 0xc0) === 0x80) start++;
    if (start > 0) this.#tailStartsAtLineBoundary = bytes[start - 1] === 0x0a;
    this.#tailText = decodeUtf8(bytes.subarray(start));
    this.#tailBytes = utf8Length(this.#tailText);
  }

  #snapshotText() {
    if (this.#tailStartsAtLineBoundary) return this.#tailText;
    const firstNewline = this.#tailText.indexOf("\n");
    return firstNewline === -1 ? this.#tailText : this.#tailText.slice(firstNewline + 1);
  }

  #shouldUseTempFile() {
    return this.#totalRawBytes > this.maxBytes || this.#totalDecodedBytes > this.maxBytes || this.#totalLines > this.maxLines;
  }

  #ensureTempFile() {
    if (this.#tempFilePath) return;
    const path = join(tmpdir(), `${this.tempFilePrefix}-${randomHex(8)}.log`);
    this.#tempFilePath = path;
    const buffered = concatBytes(this.#rawChunks);
    this.#rawChunks = [];
    // "wx": never write through a link someone else placed at the path.
    this.#tempWrites = writeFile(path, buffered, { mode: OUTPUT_FILE_MODE, flag: "wx" });
    this.#tempWrites.catch(() => {});
  }

  #writeTemp(bytes) {
    const path = this.#tempFilePath;
    this.#tempWrites = this.#tempWrites.then(() => appendFile(path, bytes));
    this.#tempWrites.catch(() => {});
  }
}
