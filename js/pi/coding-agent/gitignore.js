// .gitignore matching as pi's skill discovery does it with the `ignore`
// package: patterns compile to case-insensitive regular expressions over
// slash-separated relative paths (directories end in "/"), the last matching
// pattern decides, and a path under an ignored directory stays ignored.
// Covered: `!` negation, `\` escapes, `*`, `?`, `**`, bracket classes
// (without POSIX `[:name:]` classes), leading and trailing slashes.

import { existsSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

const IGNORE_FILE_NAMES = [".gitignore", ".ignore", ".fdignore"];
const toPosix = (path) => path.split(sep).join("/");

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/g;
const escapeRegex = (text) => text.replace(REGEX_SPECIAL, "\\$&");
const NEVER = "(?!)";

/** A bracket expression starting at `pattern[start]`, as a class that never matches "/"; null when unterminated. */
function bracketClass(pattern, start) {
  let i = start + 1;
  let negated = false;
  if (pattern[i] === "!" || pattern[i] === "^") {
    negated = true;
    i++;
  }
  let body = "";
  let first = true;
  for (; i < pattern.length; i++) {
    let char = pattern[i];
    if (char === "]" && !first) return { end: i, source: negated ? `[^\\/${body}]` : `(?!\\/)[${body}]` };
    first = false;
    if (char === "\\") char = pattern[++i];
    if (char === undefined) return null;
    const escaped = char.replace(/[\\\]^\-[]/, "\\$&");
    if (pattern[i + 1] === "-" && pattern[i + 2] !== undefined && pattern[i + 2] !== "]") {
      const to = pattern[i + 2] === "\\" ? pattern[i + 3] : pattern[i + 2];
      if (to === undefined) return null;
      i += pattern[i + 2] === "\\" ? 3 : 2;
      // An inverted range matches only its first character, as in git.
      body += char <= to ? `${escaped}-${to.replace(/[\\\]^\-[]/, "\\$&")}` : escaped;
    } else body += escaped;
  }
  return null;
}

function trimTrailingSpaces(pattern) {
  // A space quoted with a backslash stays.
  const match = /((?:\\\\)*)(\\?)( +)$/.exec(pattern);
  if (!match) return pattern;
  return pattern.slice(0, match.index) + match[1] + (match[2] ? " " : "");
}

/** The regular expression for one pattern (without its `!`). */
function compile(pattern) {
  let body = trimTrailingSpaces(pattern);
  const directoryOnly = body.endsWith("/");
  if (directoryOnly) body = body.slice(0, -1);
  let anchored = body.startsWith("/") || body.includes("/");
  if (body.startsWith("/")) body = body.slice(1);
  let source = "";
  let i = 0;
  if (body.startsWith("**/")) {
    source = "(?:.*\\/)?";
    anchored = true;
    i = 3;
    while (body.startsWith("**/", i)) i += 3;
  }
  for (; i < body.length; i++) {
    const char = body[i];
    if (char === "\\") {
      i++;
      source += escapeRegex(body[i] ?? "");
    } else if (char === "/" && body.startsWith("/**", i) && (i + 3 === body.length || body[i + 3] === "/")) {
      if (i + 3 === body.length) {
        source += directoryOnly ? "(?:\\/[^\\/]+)+" : "\\/.+";
        i += 2;
      } else {
        source += "(?:\\/[^\\/]+)*";
        i += 2;
      }
    } else if (char === "*") {
      let end = i;
      while (body[end + 1] === "*") end++;
      const trailing = end === body.length - 1 && !directoryOnly;
      // A trailing `dir/*` needs at least one character; elsewhere a star may match none.
      source += trailing && i > 0 && body[i - 1] === "/" ? "[^\\/]+" : "[^\\/]*";
      i = end;
    } else if (char === "?") {
      source += "[^\\/]";
    } else if (char === "[") {
      const bracket = bracketClass(body, i);
      if (!bracket) return new RegExp(NEVER);
      source += bracket.source;
      i = bracket.end;
    } else {
      source += escapeRegex(char);
    }
  }
  const start = anchored ? "^" : "(?:^|\\/)";
  const end = directoryOnly ? "\\/$" : "(?=$|\\/$)";
  return new RegExp(start + source + end, "i");
}

export class GitignoreMatcher {
  #rules = [];
  #cache = new Map();

  /** Adds patterns (lines of a .gitignore); blank and comment lines are skipped. */
  add(patterns) {
    for (const line of patterns) {
      if (typeof line !== "string" || line === "" || /^ +$/.test(line) || line.startsWith("#")) continue;
      // A pattern ending in a lone backslash is invalid and ignored.
      if (/(?:[^\\]|^)\\$/.test(line)) continue;
      const negative = line.startsWith("!");
      const body = (negative ? line.slice(1) : line).replace(/^\\([!#])/, "$1");
      this.#rules.push({ negative, regex: compile(body) });
    }
    this.#cache.clear();
  }

  /** Whether a relative path (directories with a trailing "/") is ignored. */
  ignores(path) {
    if (typeof path !== "string" || path === "") throw new TypeError(path === "" ? "path must not be empty" : `path must be a string, but got \`${path}\``);
    return this.#test(path);
  }

  #test(path) {
    if (this.#cache.has(path)) return this.#cache.get(path);
    const cut = path.lastIndexOf("/", path.endsWith("/") ? path.length - 2 : path.length - 1);
    const parent = cut < 0 ? "" : path.slice(0, cut + 1);
    let ignored = parent !== "" && this.#test(parent);
    if (!ignored) {
      for (const rule of this.#rules) if (rule.regex.test(path)) ignored = !rule.negative;
    }
    this.#cache.set(path, ignored);
    return ignored;
  }
}

/** A .gitignore line with the directory it came from put in front, so it matches from the walk's root. */
function rootedIgnorePattern(line, prefix) {
  const trimmed = line.trim();
  if (!trimmed || (trimmed.startsWith("#") && !trimmed.startsWith("\\#"))) return null;
  let pattern = line;
  let negated = false;
  if (pattern.startsWith("!")) {
    negated = true;
    pattern = pattern.slice(1);
  } else if (pattern.startsWith("\\!")) {
    pattern = pattern.slice(1);
  }
  if (pattern.startsWith("/")) pattern = pattern.slice(1);
  return (negated ? "!" : "") + prefix + pattern;
}

/** Adds the ignore files of `dir` to `matcher`, their patterns made relative to `rootDir`. */
export function addIgnoreFiles(matcher, dir, rootDir) {
  const relativeDir = relative(rootDir, dir);
  const prefix = relativeDir ? `${toPosix(relativeDir)}/` : "";
  for (const name of IGNORE_FILE_NAMES) {
    const path = join(dir, name);
    if (!existsSync(path)) continue;
    try {
      const patterns = readFileSync(path, "utf-8")
        .split(/\r?\n/)
        .map((line) => rootedIgnorePattern(line, prefix))
        .filter(Boolean);
      if (patterns.length > 0) matcher.add(patterns);
    } catch {
      // An unreadable ignore file hides nothing.
    }
  }
}
