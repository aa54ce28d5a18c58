// The grep tool: matching lines as "path:line: text" (context lines as
// "path-line- text"), within 100 matches and 50KB, long lines cut to 500
// characters. The search itself is search-backend.js's.
import { stat } from "node:fs/promises";
import { basename, relative, resolve } from "node:path";
import { Type } from "../../typebox.js";
import { grepFiles } from "../search-backend.js";
import { DEFAULT_MAX_BYTES, GREP_MAX_LINE_LENGTH, formatSize, truncateHead, truncateLine } from "../truncate.js";
import { utf8Length } from "../utf8.js";
import { resolveToCwd } from "./path-utils.js";
import { abortError, wrapToolDefinition } from "./wrap.js";

const DEFAULT_LIMIT = 100;

const grepSchema = Type.Object({
  pattern: Type.String({ description: "Search pattern (regex or literal string)" }),
  path: Type.Optional(Type.String({ description: "Directory or file to search (default: current directory)" })),
  glob: Type.Optional(
    Type.String({
      description:
        "Filter files by glob pattern relative to path, e.g. 'src/**/*.ts'. Without '/', e.g. '*.ts', it matches file names at any depth",
    }),
  ),
  ignoreCase: Type.Optional(Type.Boolean({ description: "Case-insensitive search (default: false)" })),
  literal: Type.Optional(Type.Boolean({ description: "Treat pattern as literal string instead of regex (default: false)" })),
  context: Type.Optional(Type.Number({ description: "Number of lines to show before and after each match (default: 0)" })),
  limit: Type.Optional(Type.Number({ description: "Maximum number of matches to return (default: 100)" })),
});

const defaultOperations = {
  isDirectory: async (path) => (await stat(path)).isDirectory(),
};

/**
 * The output lines for the backend's events. After the last allowed match,
 * its trailing context is still shown (a match there shown as context), and
 * only a further match proves the limit cut results off.
 */
function collect(events, { limit, context, formatPath }) {
  const lines = [];
  // Lines past the byte cap are counted but not kept: truncation drops them anyway.
  let bytes = 0;
  let lineCount = 0;
  let matchCount = 0;
  let limitHit = false;
  let limitReached = false;
  let linesTruncated = false;
  let trailingEnd = 0;
  let lastFile;
  const push = (event, isMatch) => {
    lastFile = event.path;
    // Only the terminator goes: a lone CR inside a line is content.
    const { text, wasTruncated } = truncateLine(event.text.replace(/\r?\n?$/, ""));
    if (wasTruncated) linesTruncated = true;
    const shown = formatPath(event.path);
    const line = isMatch ? `${shown}:${event.lineNumber}: ${text}` : `${shown}-${event.lineNumber}- ${text}`;
    if (bytes - 1 <= DEFAULT_MAX_BYTES) lines.push(line);
    bytes += utf8Length(line) + 1;
    lineCount++;
  };
  for (const event of events) {
    const isMatch = event.type === "match";
    if (!limitHit) {
      push(event, isMatch);
      if (isMatch && ++matchCount >= limit) {
        limitHit = true;
        trailingEnd = event.lineNumber + context;
      }
      continue;
    }
    const inWindow = event.path === lastFile && event.lineNumber <= trailingEnd;
    if (inWindow) push(event, false);
    if (isMatch) limitReached = true;
    if (limitReached && !(inWindow && event.lineNumber < trailingEnd)) break;
  }
  return { lines, bytes, lineCount, matchCount, limitReached, linesTruncated };
}

export function createGrepToolDefinition(cwd, options) {
  const customOps = options?.operations;
  return {
    name: "grep",
    label: "grep",
    description: `Search file contents for a pattern. Returns matching lines with file paths and line numbers. Respects .gitignore. Output is truncated to ${DEFAULT_LIMIT} matches or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first). Long lines are truncated to ${GREP_MAX_LINE_LENGTH} chars.`,
    promptSnippet: "Search file contents for patterns (respects .gitignore)",
    parameters: grepSchema,
    async execute(_toolCallId, { pattern, path: searchDir, glob, ignoreCase, literal, context, limit }, signal, _onUpdate, ctx) {
      if (signal?.aborted) throw abortError();
      const searchPath = resolveToCwd(searchDir || ".", ctx?.cwd || cwd);
      const ops = customOps ?? defaultOperations;
      let isDirectory;
      try {
        isDirectory = await ops.isDirectory(searchPath);
      } catch {
        throw new Error(`Path not found: ${searchPath}`);
      }
      // Whole numbers only, and never so large that they print in exponent form.
      const contextLines = context && context > 0 ? Math.min(Math.floor(context), Number.MAX_SAFE_INTEGER) : 0;
      const effectiveLimit = Math.max(1, Math.floor(limit ?? DEFAULT_LIMIT));
      const formatPath = (filePath) => {
        if (isDirectory) {
          const inside = relative(searchPath, resolve(searchPath, filePath));
          if (inside && !inside.startsWith("..")) return inside.replace(/\\/g, "/");
        }
        return basename(filePath);
      };
      const { events } = await grepFiles(searchPath, {
        pattern,
        ignoreCase: Boolean(ignoreCase),
        literal: Boolean(literal),
        // A glob never matches a leading "./", so it goes ("!" negation kept).
        glob: glob ? glob.replace(/^(!?)(?:\.\/)+/, "$1") : undefined,
        context: contextLines,
        maxMatches: effectiveLimit + 1,
        signal,
      });
      if (signal?.aborted) throw abortError();
      const found = collect(events, { limit: effectiveLimit, context: contextLines, formatPath });
      if (found.matchCount === 0) return { content: [{ type: "text", text: "No matches found" }], details: undefined };
      const truncation = truncateHead(found.lines.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
      truncation.totalLines = found.lineCount;
      truncation.totalBytes = found.bytes - 1;
      const details = {};
      const notices = [];
      if (found.limitReached) {
        notices.push(`${effectiveLimit} matches limit reached. Use limit=${effectiveLimit * 2} for more, or refine pattern`);
        details.matchLimitReached = effectiveLimit;
      }
      if (truncation.truncated) {
        notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
        details.truncation = truncation;
      }
      if (found.linesTruncated) {
        notices.push(`Some lines truncated to ${GREP_MAX_LINE_LENGTH} chars. Use read tool to see full lines`);
        details.linesTruncated = true;
      }
      const text = notices.length > 0 ? `${truncation.content}\n\n[${notices.join(". ")}]` : truncation.content;
      return { content: [{ type: "text", text }], details: Object.keys(details).length > 0 ? details : undefined };
    },
  };
}

export function createGrepTool(cwd, options) {
  return wrapToolDefinition(createGrepToolDefinition(cwd, options));
}
