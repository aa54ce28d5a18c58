// The ls tool: a directory's entries, dotfiles included, sorted
// case-insensitively, directories marked with "/", within 500 entries and
// 50KB.
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { Type } from "../../typebox.js";
import { DEFAULT_MAX_BYTES, formatSize, truncateHead } from "../truncate.js";
import { pathExists, resolveToCwd } from "./path-utils.js";
import { abortError, untilAborted, wrapToolDefinition } from "./wrap.js";

const DEFAULT_LIMIT = 500;

const lsSchema = Type.Object({
  path: Type.Optional(Type.String({ description: "Directory to list (default: current directory)" })),
  limit: Type.Optional(Type.Number({ description: "Maximum number of entries to return (default: 500)" })),
});

const defaultOperations = { exists: pathExists, stat, readdir };

async function list(ops, dirPath, limit) {
  if (!(await ops.exists(dirPath))) throw new Error(`Path not found: ${dirPath}`);
  if (!(await ops.stat(dirPath)).isDirectory()) throw new Error(`Not a directory: ${dirPath}`);
  let entries;
  try {
    entries = await ops.readdir(dirPath);
  } catch (error) {
    throw new Error(`Cannot read directory: ${error.message}`);
  }
  entries.sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
  const shown = [];
  let limitReached = false;
  for (const entry of entries) {
    if (shown.length >= limit) {
      limitReached = true;
      break;
    }
    let entryStat;
    try {
      entryStat = await ops.stat(join(dirPath, entry));
    } catch {
      // Entries that cannot be stat'ed (broken links) are left out.
      continue;
    }
    shown.push(entry + (entryStat.isDirectory() ? "/" : ""));
  }
  if (shown.length === 0) return { content: [{ type: "text", text: "(empty directory)" }], details: undefined };
  // The entry limit already caps the lines; only bytes can still overflow.
  const truncation = truncateHead(shown.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
  const details = {};
  const notices = [];
  if (limitReached) {
    notices.push(`${limit} entries limit reached. Use limit=${limit * 2} for more`);
    details.entryLimitReached = limit;
  }
  if (truncation.truncated) {
    notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
    details.truncation = truncation;
  }
  const text = notices.length > 0 ? `${truncation.content}\n\n[${notices.join(". ")}]` : truncation.content;
  return { content: [{ type: "text", text }], details: Object.keys(details).length > 0 ? details : undefined };
}

export function createLsToolDefinition(cwd, options) {
  const ops = options?.operations ?? defaultOperations;
  return {
    name: "ls",
    label: "ls",
    description: `List directory contents. Returns entries sorted alphabetically, with '/' suffix for directories. Includes dotfiles. Output is truncated to ${DEFAULT_LIMIT} entries or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first).`,
    promptSnippet: "List directory contents",
    parameters: lsSchema,
    async execute(_toolCallId, { path, limit }, signal, _onUpdate, ctx) {
      if (signal?.aborted) throw abortError();
      const dirPath = resolveToCwd(path || ".", ctx?.cwd || cwd);
      // A limit of 0 would list nothing and claim "(empty directory)", so it means 1.
      const effectiveLimit = Math.max(1, Math.floor(limit ?? DEFAULT_LIMIT));
      return untilAborted(signal, () => list(ops, dirPath, effectiveLimit));
    },
  };
}

export function createLsTool(cwd, options) {
  return wrapToolDefinition(createLsToolDefinition(cwd, options));
}
