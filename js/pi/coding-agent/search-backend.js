// The searches behind the grep and find tools. pi runs ripgrep and fd; pihost
// must not need them installed, so inside the isolate the searches are Rust
// ops (globalThis.__pihostSearch, built on ripgrep's `ignore` and `regex`
// crates), and only elsewhere (under Node, for the differential tests) does
// this module run rg and fd itself. The tools' limits, formatting and notices
// live in the tool modules; this module only finds.
//
// What the Rust side must reproduce, as observed with rg 13.0 and fd 8.6
// (pi runs them as `rg --no-config --json --line-number --color=never
// --hidden [--ignore-case] [--fixed-strings] [--glob G] [--context N] --
// PATTERN <.|file>` and `fd --color=never --hidden [--no-require-git] --glob
// --max-results N [--full-path] [--ignore-case] -- PATTERN DIR`):
//
// grep(searchPath, { pattern, ignoreCase, literal, glob, context, maxMatches })
//   -> { events: [{ type: "match" | "context", path, lineNumber, text }] }
//   - searchPath is absolute. A directory is walked (rg runs in it and
//     searches "."); a file is searched alone.
//   - path: for a directory search, the file's path relative to searchPath
//     with "/" separators and no "./" prefix ("src/a.ts"); for a file search,
//     searchPath itself. text: the line with its terminator exactly as in
//     the file ("x\r\n", "x\n", or "x" for an unterminated last line); the
//     tool strips it. lineNumber: 1-based. Non-UTF-8 bytes in paths
//     and lines are decoded lossily (one U+FFFD per maximal invalid
//     subsequence, as String::from_utf8_lossy does).
//   - Walk: `ignore::WalkBuilder` as rg configures it with --hidden: hidden
//     files and directories are searched, `.git/` included; symlinks are not
//     followed; .gitignore files apply only inside a git repository (a
//     directory with a `.git` entry, file or dir, at or above the file; rg's
//     require_git), .ignore and .rgignore apply everywhere, .git/info/exclude
//     and the global git excludes apply inside repositories, and ignore files
//     of searchPath's parent directories apply too ("parents"), up to the
//     repository root: a nested repository (a directory with its own .git)
//     is not subject to the outer repository's .gitignore, whether the walk
//     starts outside or inside it.
//   - Order: deterministic, as `rg --sort path` gives it: depth-first, each
//     directory's entries sorted by file name bytes, files and directories
//     mixed ("src/a.ts" before "src.ts", "Readme.MD" before "broken"). (Plain rg interleaves files in
//     whatever order its threads finish; pi's output order is therefore not
//     fixed, and tests compare grep output grouped by file.) Within a file,
//     events follow line order; context lines are never repeated.
//   - glob: one rg --glob override, rooted at searchPath (gitignore syntax;
//     "!" negates; without "/" it matches the basename at any depth; a
//     whitelist glob hides non-matching files but still descends into
//     directories). The tool has already dropped a leading "./".
//   - pattern: Rust regex syntax as rg compiles it (grep-regex defaults:
//     Unicode, no multi-line, "^"/"$" at line starts/ends; a line's "\r" is
//     content); literal escapes it (--fixed-strings); ignoreCase is
//     --ignore-case. An invalid pattern throws an Error whose message is rg's
//     stderr, e.g. "regex parse error:\n    (\n    ^\nerror: unclosed group".
//   - Binary files: a walked file whose first buffer (rg reads 64KiB at a
//     time) contains a NUL byte yields no events at all (rg's "quit" binary
//     detection; for larger files matches before the first NUL-bearing
//     buffer are kept). A file given as searchPath is searched anyway (rg's
//     "convert" detection): its lines are reported, NULs included.
//     UTF-16 files with a BOM are transcoded to UTF-8 first (rg's default
//     encoding sniffing).
//   - context N: up to N lines before and after each match as "context"
//     events (rg -C N).
//   - maxMatches M: the events stop after the M-th "match" event and the
//     lines that follow it in the same file up to its line number + N, typed
//     as rg types them (a matching line stays "match"). No more events after.
//     The grep tool asks for its limit + 1, so it can tell "exactly the
//     limit" from "more".
//
// find(searchPath, { pattern, fullPath, ignoreCase, maxResults, requireGit })
//   -> { paths: string[] }
//   - searchPath is an absolute directory. paths are absolute (searchPath
//     joined with the entry's relative path); directories end with "/"
//     (fd 8.6 prints "…/lib/"); searchPath itself is never a result.
//   - pattern is a glob (globset syntax as fd's --glob: "*" and "?" do not
//     cross "/", "**" does, braces and classes work). Without fullPath it is
//     matched against the entry's file name; with fullPath against its
//     absolute path (the tool has prefixed relative path patterns with the
//     glob-escaped searchPath). ignoreCase makes matching case-insensitive;
//     otherwise fd's smart case applies: an all-lowercase pattern matches
//     case-insensitively.
//   - Walk: as for grep (hidden entries and .git/ listed, symlinks listed
//     but not followed, ignore files as above). requireGit false is fd's
//     --no-require-git: .gitignore files apply outside repositories too.
//     (fd 8.6 here rejects that flag, so pi's find fails outside git
//     repositories on this machine; pihost gives what fd 9 gives.)
//   - Order: all matches sorted by path, component by component (so a
//     directory comes right before its contents: "lib/", "lib/util.ts",
//     "lib.ts"), then the first maxResults kept. fd itself sorts only when
//     it finishes within 100ms and with at most 1000 results; otherwise its
//     order, and which results a limit keeps, vary between runs.
//   - A searchPath that is not a directory throws an Error with fd's
//     message: "[fd error]: Search path '<searchPath>' is not a directory.\n
//     [fd error]: No valid search paths given." (one line break, no indent).
//
// Both ops get plain options (grep's `glob` is absent when not given; the
// AbortSignal stays here: an abort rejects the call and the op's eventual
// result is dropped). They may return the result or a promise of it, and
// report failure by throwing (or rejecting with) an Error carrying the
// message above.
import { spawn } from "node:child_process";
import { stat } from "node:fs/promises";
import { decodeUtf8 } from "./utf8.js";

const searchOps = () => globalThis.__pihostSearch;

function abortable(promise, signal) {
  if (!signal) return promise;
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new Error("Operation aborted"));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** Matching lines (and their context) under `searchPath`; see the notes above. */
export async function grepFiles(searchPath, options) {
  const { signal, ...request } = options;
  const ops = searchOps();
  if (ops) return abortable(Promise.resolve(ops.grep(searchPath, request)), signal);
  return ripgrep(searchPath, request, signal);
}

/** Entries under `searchPath` whose name or path matches the glob; see the notes above. */
export async function findFiles(searchPath, options) {
  const { signal, ...request } = options;
  const ops = searchOps();
  if (ops) return abortable(Promise.resolve(ops.find(searchPath, request)), signal);
  return fd(searchPath, request, signal);
}

// --- Fallback: rg and fd on PATH ---------------------------------------------

/**
 * Runs a command, handing each stdout line to `onLine`, which returns true
 * to stop it early. Resolves { code, stderr, stopped }.
 */
function runLines(command, args, spawnOptions, onLine, signal) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...spawnOptions, stdio: ["ignore", "pipe", "pipe"] });
    let partial = Buffer.alloc(0);
    const stderr = [];
    let stopped = false;
    let aborted = false;
    const stop = () => {
      if (!child.killed) child.kill();
    };
    const onAbort = () => {
      aborted = true;
      stop();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", (chunk) => {
      if (stopped) return;
      const text = Buffer.concat([partial, chunk]);
      let start = 0;
      for (let newline = text.indexOf(10); newline !== -1; newline = text.indexOf(10, start)) {
        const line = text.subarray(start, newline).toString("utf-8");
        start = newline + 1;
        if (onLine(line)) {
          stopped = true;
          stop();
          return;
        }
      }
      partial = text.subarray(start);
    });
    child.stderr.on("data", (chunk) => stderr.push(chunk));
    child.on("error", (error) => {
      signal?.removeEventListener("abort", onAbort);
      reject(error);
    });
    child.on("close", (code) => {
      signal?.removeEventListener("abort", onAbort);
      if (aborted) return reject(new Error("Operation aborted"));
      if (!stopped && partial.length > 0) onLine(partial.toString("utf-8"));
      resolve({ code, stopped, stderr: Buffer.concat(stderr).toString("utf-8") });
    });
  });
}

/** Path order component by component, so a directory's contents follow it directly. */
function comparePaths(a, b) {
  const left = a.replace(/\/$/, "").split("/");
  const right = b.replace(/\/$/, "").split("/");
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    if (left[i] !== right[i]) return left[i] < right[i] ? -1 : 1;
  }
  return left.length - right.length;
}

function rgText(data) {
  if (typeof data?.text === "string") return data.text;
  if (typeof data?.bytes === "string") return decodeUtf8(Uint8Array.from(atob(data.bytes), (char) => char.charCodeAt(0)));
  return "";
}

async function ripgrep(searchPath, { pattern, ignoreCase, literal, glob, context = 0, maxMatches }, signal) {
  const isDirectory = (await stat(searchPath)).isDirectory();
  const args = ["--no-config", "--json", "--line-number", "--color=never", "--hidden", "--sort", "path"];
  if (ignoreCase) args.push("--ignore-case");
  if (literal) args.push("--fixed-strings");
  if (glob) args.push("--glob", glob);
  if (context > 0) args.push("--context", String(context));
  args.push("--", pattern, isDirectory ? "." : searchPath);
  const events = [];
  let matches = 0;
  let lastMatch;
  const onLine = (line) => {
    if (!line.trim()) return false;
    let event;
    try {
      event = JSON.parse(line);
    } catch {
      return false;
    }
    if (event.type !== "match" && event.type !== "context") return false;
    const path = rgText(event.data?.path).replace(/^\.\//, "");
    const lineNumber = event.data?.line_number;
    if (!path || typeof lineNumber !== "number") return false;
    if (lastMatch && (path !== lastMatch.path || lineNumber > lastMatch.lineNumber + context)) return true;
    events.push({ type: event.type, path, lineNumber, text: rgText(event.data?.lines) });
    if (event.type === "match" && ++matches === maxMatches) {
      lastMatch = { path, lineNumber };
      if (context === 0) return true;
    }
    return false;
  };
  let result;
  try {
    result = await runLines("rg", args, { cwd: isDirectory ? searchPath : undefined }, onLine, signal);
  } catch (error) {
    if (error.message === "Operation aborted") throw error;
    throw new Error(`Failed to run ripgrep: ${error.message}`);
  }
  if (!result.stopped && result.code !== 0 && result.code !== 1) {
    throw new Error(result.stderr.trim() || `ripgrep exited with code ${result.code}`);
  }
  return { events };
}

async function fd(searchPath, { pattern, fullPath, ignoreCase, maxResults, requireGit = true }, signal) {
  const args = ["--color=never", "--hidden"];
  if (!requireGit) args.push("--no-require-git");
  args.push("--glob", "--max-results", String(maxResults));
  if (fullPath) args.push("--full-path");
  if (ignoreCase) args.push("--ignore-case");
  args.push("--", pattern, searchPath);
  const paths = [];
  const onLine = (line) => {
    const path = line.replace(/\r$/, "").trim();
    if (path) paths.push(path);
    return false;
  };
  let result;
  for (const command of ["fd", "fdfind"]) {
    try {
      result = await runLines(command, args, {}, onLine, signal);
      break;
    } catch (error) {
      if (error?.code !== "ENOENT") {
        if (error.message === "Operation aborted") throw error;
        throw new Error(`Failed to run fd: ${error.message}`);
      }
    }
  }
  if (!result) throw new Error("fd is not available");
  if (result.code !== 0 && paths.length === 0) throw new Error(result.stderr.trim() || `fd exited with code ${result.code}`);
  // fd sorts only when it finishes quickly; sorting here gives that order every time.
  return { paths: paths.sort(comparePaths) };
}
