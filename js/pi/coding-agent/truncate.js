// Tool output truncation as pi does it: two independent limits, lines and
// UTF-8 bytes, whichever is hit first wins. Whole lines are kept, except when
// tail truncation meets one huge last line.
import { decodeUtf8, encodeUtf8, utf8Length } from "./utf8.js";

export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_BYTES = 50 * 1024;
export const GREP_MAX_LINE_LENGTH = 500;

/** The end of `text` that fits in `maxBytes`, starting at a whole character. */
function lastBytes(text, maxBytes) {
  const bytes = encodeUtf8(text);
  if (bytes.length <= maxBytes) return text;
  let start = bytes.length - maxBytes;
  while (start < bytes.length && (bytes[start] & 0xc0) === 0x80) start++;
  return decodeUtf8(bytes.subarray(start));
}

function countedLines(content) {
  if (content.length === 0) return [];
  const lines = content.split("\n");
  if (content.endsWith("\n")) lines.pop();
  return lines;
}

function truncationResult(fields) {
  return {
    content: fields.content,
    truncated: fields.truncated,
    truncatedBy: fields.truncatedBy,
    totalLines: fields.totalLines,
    totalBytes: fields.totalBytes,
    outputLines: fields.outputLines,
    outputBytes: fields.outputBytes,
    lastLinePartial: fields.lastLinePartial ?? false,
    firstLineExceedsLimit: fields.firstLineExceedsLimit ?? false,
    maxLines: fields.maxLines,
    maxBytes: fields.maxBytes,
  };
}

function untruncated(content, lines, totalBytes, maxLines, maxBytes) {
  return truncationResult({
    content,
    truncated: false,
    truncatedBy: null,
    totalLines: lines.length,
    totalBytes,
    outputLines: lines.length,
    outputBytes: totalBytes,
    maxLines,
    maxBytes,
  });
}

/** The first lines of `content` within the limits (for file reads). */
export function truncateHead(content, options = {}) {
  const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const totalBytes = utf8Length(content);
  const lines = countedLines(content);
  if (lines.length <= maxLines && totalBytes <= maxBytes) return untruncated(content, lines, totalBytes, maxLines, maxBytes);
  const common = { truncated: true, totalLines: lines.length, totalBytes, maxLines, maxBytes };
  if (utf8Length(lines[0]) > maxBytes) {
    return truncationResult({ ...common, content: "", truncatedBy: "bytes", outputLines: 0, outputBytes: 0, firstLineExceedsLimit: true });
  }
  const kept = [];
  let bytes = 0;
  let truncatedBy = "lines";
  for (let i = 0; i < lines.length && i < maxLines; i++) {
    const lineBytes = utf8Length(lines[i]) + (i > 0 ? 1 : 0);
    if (bytes + lineBytes > maxBytes) {
      truncatedBy = "bytes";
      break;
    }
    kept.push(lines[i]);
    bytes += lineBytes;
  }
  if (kept.length >= maxLines && bytes <= maxBytes) truncatedBy = "lines";
  const output = kept.join("\n");
  return truncationResult({ ...common, content: output, truncatedBy, outputLines: kept.length, outputBytes: utf8Length(output) });
}

/** The last lines of `content` within the limits (for command output). */
export function truncateTail(content, options = {}) {
  const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const totalBytes = utf8Length(content);
  const lines = countedLines(content);
  if (lines.length <= maxLines && totalBytes <= maxBytes) return untruncated(content, lines, totalBytes, maxLines, maxBytes);
  const kept = [];
  let bytes = 0;
  let truncatedBy = "lines";
  let lastLinePartial = false;
  for (let i = lines.length - 1; i >= 0 && kept.length < maxLines; i--) {
    const lineBytes = utf8Length(lines[i]) + (kept.length > 0 ? 1 : 0);
    if (bytes + lineBytes > maxBytes) {
      truncatedBy = "bytes";
      if (kept.length === 0) {
        const partial = lastBytes(lines[i], maxBytes);
        kept.unshift(partial);
        bytes = utf8Length(partial);
        lastLinePartial = true;
      }
      break;
    }
    kept.unshift(lines[i]);
    bytes += lineBytes;
  }
  if (kept.length >= maxLines && bytes <= maxBytes) truncatedBy = "lines";
  const output = kept.join("\n");
  return truncationResult({
    content: output,
    truncated: true,
    truncatedBy,
    totalLines: lines.length,
    totalBytes,
    outputLines: kept.length,
    outputBytes: utf8Length(output),
    lastLinePartial,
    maxLines,
    maxBytes,
  });
}

const isHighSurrogate = (code) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code) => code >= 0xdc00 && code <= 0xdfff;

/** At most `maxUnits` UTF-16 units from the start, never half a surrogate pair. */
export function sliceHead(text, maxUnits) {
  const end = Math.max(0, maxUnits);
  const splitsPair = isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end));
  return text.slice(0, splitsPair ? end - 1 : end);
}

/** One line cut to `maxChars` with a "... [truncated]" mark (grep matches). */
export function truncateLine(line, maxChars = GREP_MAX_LINE_LENGTH) {
  if (line.length <= maxChars) return { text: line, wasTruncated: false };
  return { text: `${sliceHead(line, maxChars)}... [truncated]`, wasTruncated: true };
}

export function formatSize(bytes) {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}
