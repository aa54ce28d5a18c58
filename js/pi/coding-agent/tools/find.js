// The find tool: paths matching a glob, relative to the search directory,
// within 1000 results and 50KB. The search itself is search-backend.js's,
// unless the caller's operations bring their own glob().
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { Type } from "../../typebox.js";
import { findFiles } from "../search-backend.js";
import { DEFAULT_MAX_BYTES, formatSize, truncateHead } from "../truncate.js";
import { utf8Length } from "../utf8.js";
import { pathExists, resolveToCwd } from "./path-utils.js";
import { abortError, untilAborted, wrapToolDefinition } from "./wrap.js";

const DEFAULT_LIMIT = 1000;

const findSchema = Type.Object({
  pattern: Type.String({
    description:
      "Glob pattern relative to the search directory, e.g. 'src/**/*.ts'. Without '/', e.g. '*.ts', it matches file names at any depth",
  }),
  path: Type.Optional(Type.String({ description: "Directory to search in (default: current directory)" })),
  limit: Type.Optional(Type.Number({ description: "Maximum number of results (default: 1000)" })),
});

/** A result relative to the search root with "/" separators, a directory's trailing "/" kept. */
function relativize(resultPath, searchPath) {
  const isDirectory = resultPath.endsWith(sep);
  const relativePath = isAbsolute(resultPath) ? relative(searchPath, resultPath) : resultPath;
  const posix = relativePath.split(sep).join("/");
  return isDirectory && !posix.endsWith("/") ? `${posix}/` : posix;
}

function formatResults(results, { limitReached, effectiveLimit, limitNotice }) {
  let bytes = 0;
  const stored = [];
  for (const result of results) {
    if (bytes - 1 <= DEFAULT_MAX_BYTES) stored.push(result);
    bytes += utf8Length(result) + 1;
  }
  // Stored results reach past the byte cap when more exist, so truncation is decided as for all of them.
  const truncation = { ...truncateHead(stored.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER }), totalLines: results.length, totalBytes: bytes - 1 };
  const details = {};
  const notices = [];
  if (limitReached) {
    notices.push(limitNotice);
    details.resultLimitReached = effectiveLimit;
  }
  if (truncation.truncated) {
    notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
    details.truncation = truncation;
  }
  const text = notices.length > 0 ? `${truncation.content}\n\n[${notices.join(". ")}]` : truncation.content;
  return { content: [{ type: "text", text }], details: Object.keys(details).length > 0 ? details : undefined };
}

const NOTHING_FOUND = { content: [{ type: "text", text: "No files found matching pattern" }], details: undefined };

/** The caller's own glob() (remote filesystems): asked for one result past the limit. */
async function findWithCustomGlob(ops, pattern, searchPath, effectiveLimit, signal) {
  if (!(await ops.exists(searchPath))) throw new Error(`Path not found: ${searchPath}`);
  if (signal?.aborted) throw abortError();
  const results = await ops.glob(pattern, searchPath, { ignore: ["**/node_modules/**", "**/.git/**"], limit: effectiveLimit + 1 });
  if (signal?.aborted) throw abortError();
  if (results.length === 0) return NOTHING_FOUND;
  // This path's truncation totals are truncateHead's own, unlike the search's.
  const shown = results.slice(0, effectiveLimit).map((result) => relativize(result, searchPath));
  const truncation = truncateHead(shown.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
  const details = {};
  const notices = [];
  if (results.length > effectiveLimit) {
    notices.push(`${effectiveLimit} results limit reached`);
    details.resultLimitReached = effectiveLimit;
  }
  if (truncation.truncated) {
    notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
    details.truncation = truncation;
  }
  const text = notices.length > 0 ? `${truncation.content}\n\n[${notices.join(". ")}]` : truncation.content;
  return { content: [{ type: "text", text }], details: Object.keys(details).length > 0 ? details : undefined };
}

async function insideGitRepository(path) {
  for (let current = path; ; current = dirname(current)) {
    if (await pathExists(join(current, ".git"))) return true;
    if (dirname(current) === current) return false;
  }
}

async function findWithSearch(pattern, searchPath, effectiveLimit, signal) {
  // Outside a repository .gitignore still applies; inside, a nested
  // repository stops its parents' rules (fd's own git awareness).
  const requireGit = await insideGitRepository(searchPath);
  if (signal?.aborted) throw abortError();
  // Full paths never contain "/./", so a leading "./" would match nothing.
  let glob = pattern.replace(/^(?:\.\/)+/, "");
  const isPathPattern = glob.includes("/");
  // fd's smart case: an all-lowercase pattern matches either case.
  const ignoreCase = glob === glob.toLowerCase();
  // A relative path pattern is anchored at the search path: it is matched
  // against the full path, so the (glob-escaped) search path goes in front.
  const anchored = isPathPattern && !isAbsolute(glob);
  if (anchored) glob = `${searchPath.replace(/\/+$/, "").replace(/[\\*?[\]{}]/g, "\\$&")}/${glob}`;
  const { paths } = await findFiles(searchPath, {
    pattern: glob,
    fullPath: isPathPattern,
    ignoreCase: anchored && ignoreCase,
    maxResults: effectiveLimit + 1,
    requireGit,
    signal,
  });
  if (signal?.aborted) throw abortError();
  // As pi reads fd's lines: a stray CR or surrounding blanks go, empty lines are skipped.
  const results = paths.map((path) => path.replace(/\r$/, "").trim()).filter(Boolean).map((path) => relativize(path, searchPath));
  if (results.length === 0) return NOTHING_FOUND;
  const limitReached = results.length > effectiveLimit;
  return formatResults(results.slice(0, effectiveLimit), {
    limitReached,
    effectiveLimit,
    limitNotice: `${effectiveLimit} results limit reached. Use limit=${effectiveLimit * 2} for more, or refine pattern`,
  });
}

export function createFindToolDefinition(cwd, options) {
  const customOps = options?.operations;
  return {
    name: "find",
    label: "find",
    description: `Search for files by glob pattern. Returns matching file paths relative to the search directory. Respects .gitignore. Output is truncated to ${DEFAULT_LIMIT} results or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first).`,
    promptSnippet: "Find files by glob pattern (respects .gitignore)",
    parameters: findSchema,
    async execute(_toolCallId, { pattern, path: searchDir, limit }, signal, _onUpdate, ctx) {
      if (signal?.aborted) throw abortError();
      const searchPath = resolveToCwd(searchDir || ".", ctx?.cwd || cwd);
      // fd reads a limit of 0 as no limit, so below 1 means 1.
      const effectiveLimit = Math.max(1, Math.floor(limit ?? DEFAULT_LIMIT));
      try {
        return await untilAborted(signal, () =>
          customOps?.glob
            ? findWithCustomGlob(customOps, pattern, searchPath, effectiveLimit, signal)
            : findWithSearch(pattern, searchPath, effectiveLimit, signal),
        );
      } catch (error) {
        if (signal?.aborted) throw abortError();
        throw error;
      }
    },
  };
}

export function createFindTool(cwd, options) {
  return wrapToolDefinition(createFindToolDefinition(cwd, options));
}
