// Session files on disk: where a cwd's sessions live, reading a whole file,
// and reading just its header (the first entry) to find sessions without
// loading their transcripts.
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { getAgentDir } from "./agent-dir.js";
import { expandPath, pathsEqual, resolvePath } from "./paths.js";

/** The directory for `cwd`'s sessions: the cwd with separators and ":" turned to "-", between "--". */
export function defaultSessionDirPath(cwd, agentDir = getAgentDir()) {
  const encodedCwd = resolvePath(cwd).replace(/^[/\\]/, "").replace(/[/\\:]/g, "-");
  return join(resolvePath(agentDir), "sessions", `--${encodedCwd}--`);
}

/** defaultSessionDirPath, created when missing. */
export function ensureDefaultSessionDir(cwd) {
  const dir = defaultSessionDirPath(cwd);
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
  return dir;
}

/** Whether listing a custom directory should keep only `cwd`'s sessions (the default one holds nothing else). */
export function filtersByCwd(sessionDir, dir, cwd) {
  return sessionDir !== undefined && !pathsEqual(dir, defaultSessionDirPath(cwd));
}

/** One line's entry; null for blank and unparsable lines (a torn write must not lose the rest). */
export function parseEntryLine(line) {
  if (!line.trim()) return null;
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}

const isSessionHeader = (entry) => entry.type === "session" && typeof entry.id === "string";

/**
 * A session file's entries; [] when it is missing, empty or does not start
 * with a session header. A file whose last line lacks its newline gets one,
 * so the next append starts a line of its own.
 */
export function loadEntriesFromFile(filePath) {
  const path = expandPath(filePath);
  if (!existsSync(path)) return [];
  const lines = readFileSync(path, "utf8").split("\n");
  const unterminated = lines[lines.length - 1];
  // Falsy values (`0`, `false`, `""`) are skipped like blank lines.
  const entries = lines.map(parseEntryLine).filter(Boolean);
  if (entries.length === 0) return entries;
  if (!isSessionHeader(entries[0])) return [];
  if (unterminated) appendFileSync(path, "\n");
  return entries;
}

/** How far header discovery reads before giving up on a file (large cwds and metadata still fit). */
const HEADER_SCAN_LIMIT = 1024 * 1024;
const HEADER_READ_CHUNK = 4096;

export class SessionHeaderScanLimitError extends Error {
  constructor(filePath) {
    super(`Session header exceeds ${HEADER_SCAN_LIMIT}-byte scan limit: ${filePath}`);
    this.name = "SessionHeaderScanLimitError";
  }
}

/** A line's verdict: undefined to read on (blank or unparsable), the header, or null when the first entry is not one. */
function headerVerdict(line) {
  const entry = parseEntryLine(line);
  if (!entry) return undefined;
  return isSessionHeader(entry) ? entry : null;
}

// Bytes are decoded per line ("\n" never sits inside a UTF-8 sequence) and a
// BOM is kept, as Node's decoder does: a file starting with one has no header.
const decodeLine = (bytes) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);

/**
 * The file's session header, or null when its first entry is something
 * else (or it has none). Reads at most HEADER_SCAN_LIMIT bytes, throwing
 * SessionHeaderScanLimitError when that is not enough to decide.
 */
export function readSessionHeader(filePath) {
  const fd = openSync(filePath, "r");
  try {
    let pending = new Uint8Array(0);
    let scanned = 0;
    while (scanned < HEADER_SCAN_LIMIT) {
      const chunk = new Uint8Array(Math.min(HEADER_READ_CHUNK, HEADER_SCAN_LIMIT - scanned));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) return headerVerdict(decodeLine(pending)) ?? null;
      scanned += read;
      const joined = new Uint8Array(pending.length + read);
      joined.set(pending);
      joined.set(chunk.subarray(0, read), pending.length);
      let lineStart = 0;
      for (let newline = joined.indexOf(10); newline !== -1; newline = joined.indexOf(10, lineStart)) {
        const verdict = headerVerdict(decodeLine(joined.subarray(lineStart, newline)));
        if (verdict !== undefined) return verdict;
        lineStart = newline + 1;
      }
      pending = joined.slice(lineStart);
    }
    // A last line without a newline may end exactly at the limit.
    if (readSync(fd, new Uint8Array(1), 0, 1, null) === 0) return headerVerdict(decodeLine(pending)) ?? null;
    throw new SessionHeaderScanLimitError(filePath);
  } finally {
    closeSync(fd);
  }
}

/** readSessionHeader for discovery: a file that cannot be read is simply not a session. */
export function discoverSessionHeader(filePath) {
  try {
    return readSessionHeader(filePath);
  } catch {
    return null;
  }
}

/** Whether a header's cwd (a string, not empty) is `resolvedCwd`. */
export function headerCwdMatches(header, resolvedCwd) {
  const cwd = typeof header.cwd === "string" ? header.cwd : undefined;
  return cwd !== undefined && cwd !== "" && pathsEqual(resolvePath(cwd), resolvedCwd);
}

/** The most recently modified session file in `sessionDir` (of `cwd`, when given); null when none. */
export function findMostRecentSession(sessionDir, cwd) {
  const dir = expandPath(sessionDir);
  const resolvedCwd = cwd ? resolvePath(cwd) : undefined;
  try {
    const files = readdirSync(dir)
      .filter((file) => file.endsWith(".jsonl"))
      .map((file) => join(dir, file))
      .map((path) => ({ path, modified: statSync(path).mtimeMs }))
      .sort((a, b) => b.modified - a.modified);
    for (const { path } of files) {
      const header = discoverSessionHeader(path);
      if (header && (!resolvedCwd || headerCwdMatches(header, resolvedCwd))) return path;
    }
    return null;
  } catch {
    // The directory may be unreadable or change under us: then there is no recent session.
    return null;
  }
}
