// Completions for the prompt editor: slash commands and their arguments,
// paths typed in prose (Tab, or after "./", "~/", "/"), and "@" file
// mentions, which search the whole tree with fd.
import { spawn } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fuzzyFilter } from "./fuzzy.js";
import { BREAK_ANYWHERE } from "./wrap.js";

// CJK text runs words and paths together; only its punctuation separates them.
const CJK_PUNCTUATION = new RegExp(`(?:(?=\\p{Punctuation})${BREAK_ANYWHERE.source}|[，．：；！？（）［］｛｝“”‘’…—])`, "u");
const SEPARATOR = new RegExp(`(?:\\s|${CJK_PUNCTUATION.source})`, "u");
const ENDS_AT_TOKEN_START = new RegExp(`(?:^|${SEPARATOR.source})$`, "u");
const PATH_DELIMITERS = new Set([" ", "\t", '"', "'", "="]);
// Brackets and backticks prose puts around a path, with what closes them.
const WRAPPER_CLOSERS = { "(": ")", "[": "]", "{": "}", "<": ">", "`": "`" };
const FD_MAX_RESULTS = 100;
const MAX_FUZZY_SUGGESTIONS = 20;

const slashed = (path) => path.replace(/\\/g, "/");
const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** fd's pattern for `query`; with a slash, each segment matches across either separator. */
function fdPattern(query) {
  const normalized = slashed(query);
  if (!normalized.includes("/")) return escapeRegex(normalized);
  const trimmed = normalized.replace(/^\/+|\/+$/g, "");
  if (!trimmed) return normalized;
  const separator = "[\\\\/]";
  const pattern = trimmed.split("/").filter(Boolean).map(escapeRegex).join(separator);
  return normalized.endsWith("/") ? pattern + separator : pattern;
}

/** Index of the last character that ends a token, or -1. */
function lastDelimiterIndex(text) {
  let last = -1;
  let index = 0;
  for (const char of text) {
    index += char.length;
    if (PATH_DELIMITERS.has(char) || SEPARATOR.test(char)) last = index - 1;
  }
  return last;
}

/** "(~/Dev" is "~/Dev"; a wrapper closed inside the token ("app/[slug]/pa") is part of the path. */
function stripOpeningWrappers(token) {
  let rest = token;
  while (rest.length > 0) {
    const closer = WRAPPER_CLOSERS[rest[0]];
    if (!closer || rest.includes(closer, 1)) break;
    rest = rest.slice(1);
  }
  return rest;
}

function unclosedQuoteStart(text) {
  let open = -1;
  let inQuotes = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '"') continue;
    inQuotes = !inQuotes;
    if (inQuotes) open = i;
  }
  return inQuotes ? open : null;
}

function startsToken(text, index) {
  let start = index;
  while (start > 0 && WRAPPER_CLOSERS[text[start - 1]]) start--;
  return PATH_DELIMITERS.has(text[start - 1] ?? "") || ENDS_AT_TOKEN_START.test(text.slice(0, start));
}

/** The still-open `"…` or `@"…` at the end of `text`, when it starts a token. */
function openQuotedToken(text) {
  const quote = unclosedQuoteStart(text);
  if (quote === null) return null;
  const start = quote > 0 && text[quote - 1] === "@" ? quote - 1 : quote;
  return startsToken(text, start) ? text.slice(start) : null;
}

function parsePrefix(prefix) {
  if (prefix.startsWith('@"')) return { rawPrefix: prefix.slice(2), isAtPrefix: true, isQuotedPrefix: true };
  if (prefix.startsWith('"')) return { rawPrefix: prefix.slice(1), isAtPrefix: false, isQuotedPrefix: true };
  if (prefix.startsWith("@")) return { rawPrefix: prefix.slice(1), isAtPrefix: true, isQuotedPrefix: false };
  return { rawPrefix: prefix, isAtPrefix: false, isQuotedPrefix: false };
}

/** What replaces the prefix: quoted when the prefix was or the path has a space in it. */
function completionValue(path, { isAtPrefix, isQuotedPrefix }) {
  const at = isAtPrefix ? "@" : "";
  return isQuotedPrefix || SEPARATOR.test(path) ? `${at}"${path}"` : `${at}${path}`;
}

const isGitPath = (path) => path === ".git" || path.startsWith(".git/") || path.includes("/.git/");

/** Files and directories under `baseDir` matching `query`, found by fd; [] when fd fails or is aborted. */
function findWithFd(fdPath, baseDir, query, signal, maxDepth) {
  const args = ["--base-directory", baseDir, "--max-results", String(FD_MAX_RESULTS), "--type", "f", "--type", "d"];
  args.push("--follow", "--hidden", "--exclude", ".git", "--exclude", ".git/*", "--exclude", ".git/**");
  if (maxDepth !== undefined) args.push("--max-depth", String(maxDepth));
  if (slashed(query).includes("/")) args.push("--full-path");
  if (query) args.push(fdPattern(query));
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve([]);
      return;
    }
    const child = spawn(fdPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let settled = false;
    const onAbort = () => {
      if (child.exitCode === null) child.kill("SIGKILL");
    };
    const settle = (entries) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      resolve(entries);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    child.stdout.setEncoding("utf-8");
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", () => settle([]));
    child.on("close", (code) => {
      if (signal.aborted || code !== 0 || !output) {
        settle([]);
        return;
      }
      const entries = [];
      for (const line of output.trim().split("\n").filter(Boolean)) {
        const path = slashed(line);
        // fd marks directories with a trailing slash.
        const isDirectory = path.endsWith("/");
        if (!isGitPath(isDirectory ? path.slice(0, -1) : path)) entries.push({ path, isDirectory });
      }
      settle(entries);
    });
  });
}

const pathDepth = (path) => slashed(path).split("/").filter(Boolean).length;
const commandName = (command) => ("name" in command ? command.name : command.value);

/** Suggests slash commands and their arguments, and file paths, for the editor. */
export class CombinedAutocompleteProvider {
  constructor(commands = [], basePath, fdPath = null) {
    this.commands = commands;
    this.basePath = basePath;
    this.fdPath = fdPath;
  }

  async getSuggestions(lines, cursorLine, cursorCol, options) {
    const textBeforeCursor = (lines[cursorLine] || "").slice(0, cursorCol);
    const atPrefix = this.extractAtPrefix(textBeforeCursor);
    if (atPrefix) {
      const { rawPrefix, isQuotedPrefix } = parsePrefix(atPrefix);
      const items = await this.getFuzzyFileSuggestions(rawPrefix, { isQuotedPrefix, signal: options.signal });
      return items.length === 0 ? null : { items, prefix: atPrefix };
    }
    const commandText = textBeforeCursor.trimStart();
    if (!options.force && commandText.startsWith("/")) {
      const space = commandText.indexOf(" ");
      if (space === -1) return this.commandSuggestions(commandText);
      return this.argumentSuggestions(commandText.slice(1, space), commandText.slice(space + 1));
    }
    const pathPrefix = this.extractPathPrefix(textBeforeCursor, options.force ?? false);
    if (pathPrefix === null) return null;
    const items = this.getFileSuggestions(pathPrefix);
    return items.length === 0 ? null : { items, prefix: pathPrefix };
  }

  /** Commands matching what follows the "/"; skills match on their name without "skill:" first. */
  commandSuggestions(commandText) {
    const query = commandText.slice(1);
    const candidates = this.commands.map((command) => {
      const name = commandName(command);
      const hint = "argumentHint" in command && command.argumentHint ? command.argumentHint : undefined;
      const description = command.description ?? "";
      const shown = hint ? (description ? `${hint} — ${description}` : hint) : description;
      return { name, label: name, description: shown || undefined };
    });
    const isSkill = (candidate) => candidate.name.startsWith("skill:");
    const byShortName = fuzzyFilter(candidates, query, (candidate) =>
      isSkill(candidate) ? candidate.name.slice("skill:".length) : candidate.name,
    );
    const matched = new Set(byShortName);
    const byFullName = fuzzyFilter(
      candidates.filter((candidate) => isSkill(candidate) && !matched.has(candidate)),
      query,
      (candidate) => candidate.name,
    );
    const items = [...byShortName, ...byFullName].map((candidate) => ({
      value: candidate.name,
      label: candidate.label,
      ...(candidate.description && { description: candidate.description }),
    }));
    return items.length === 0 ? null : { items, prefix: commandText };
  }

  async argumentSuggestions(name, argumentText) {
    const command = this.commands.find((candidate) => commandName(candidate) === name);
    if (!command || !("getArgumentCompletions" in command) || !command.getArgumentCompletions) return null;
    const items = await command.getArgumentCompletions(argumentText);
    if (!Array.isArray(items) || items.length === 0) return null;
    return { items, prefix: argumentText };
  }

  applyCompletion(lines, cursorLine, cursorCol, item, prefix) {
    const line = lines[cursorLine] || "";
    const beforePrefix = line.slice(0, cursorCol - prefix.length);
    const afterCursor = line.slice(cursorCol);
    // A quoted completion brings its closing quote; one already after the cursor goes.
    const quoted = prefix.startsWith('"') || prefix.startsWith('@"');
    const rest = quoted && item.value.endsWith('"') && afterCursor.startsWith('"') ? afterCursor.slice(1) : afterCursor;
    const replaced = (text) => {
      const next = [...lines];
      next[cursorLine] = text;
      return next;
    };
    if (prefix.startsWith("/") && beforePrefix.trim() === "" && !prefix.slice(1).includes("/")) {
      return {
        lines: replaced(`${beforePrefix}/${item.value} ${rest}`),
        cursorLine,
        cursorCol: beforePrefix.length + item.value.length + 2,
      };
    }
    const isDirectory = item.label.endsWith("/");
    // In a quoted directory the cursor stays inside the quotes, ready for more.
    const cursorOffset = isDirectory && item.value.endsWith('"') ? item.value.length - 1 : item.value.length;
    // A file mention is followed by a space; a directory is left open to go on completing.
    const suffix = prefix.startsWith("@") && !isDirectory ? " " : "";
    return {
      lines: replaced(beforePrefix + item.value + suffix + rest),
      cursorLine,
      cursorCol: beforePrefix.length + cursorOffset + suffix.length,
    };
  }

  /** The "@" mention being typed at the end of `text`, or null. */
  extractAtPrefix(text) {
    const quoted = openQuotedToken(text);
    if (quoted?.startsWith('@"')) return quoted;
    const last = lastDelimiterIndex(text);
    const token = stripOpeningWrappers(last === -1 ? text : text.slice(last + 1));
    return token.startsWith("@") ? token : null;
  }

  /**
   * The path being typed at the end of `text`, or null when it does not
   * look like one. Tab (`force`) completes whatever the token is.
   */
  extractPathPrefix(text, force = false) {
    const quoted = openQuotedToken(text);
    if (quoted) return quoted;
    const last = lastDelimiterIndex(text);
    const token = stripOpeningWrappers(last === -1 ? text : text.slice(last + 1));
    if (force) return token;
    if (token.includes("/") || token.startsWith(".") || token.startsWith("~/")) return token;
    // Right after a space a new path may begin; an empty line is Tab's business.
    if (token === "" && text !== "" && ENDS_AT_TOKEN_START.test(text)) return token;
    return null;
  }

  expandHomePath(path) {
    if (path === "~") return homedir();
    if (!path.startsWith("~/")) return path;
    const expanded = join(homedir(), path.slice(2));
    return path.endsWith("/") && !expanded.endsWith("/") ? `${expanded}/` : expanded;
  }

  /** For a query with a slash: the existing directory before the last slash, and the rest to search for. */
  resolveScopedFuzzyQuery(rawQuery) {
    const normalized = slashed(rawQuery);
    const slash = normalized.lastIndexOf("/");
    if (slash === -1) return null;
    const displayBase = normalized.slice(0, slash + 1);
    const query = normalized.slice(slash + 1);
    let baseDir;
    if (displayBase.startsWith("~/")) baseDir = this.expandHomePath(displayBase);
    else if (displayBase.startsWith("/")) baseDir = displayBase;
    else baseDir = join(this.basePath, displayBase);
    try {
      if (!statSync(baseDir).isDirectory()) return null;
    } catch {
      return null;
    }
    return { baseDir, query, displayBase };
  }

  scopedPathForDisplay(displayBase, relativePath) {
    const relative = slashed(relativePath);
    return displayBase === "/" ? `/${relative}` : `${slashed(displayBase)}${relative}`;
  }

  /** The entries of the directory `prefix` points into whose names start like its last part. */
  getFileSuggestions(prefix) {
    try {
      const { rawPrefix, isAtPrefix, isQuotedPrefix } = parsePrefix(prefix);
      const expanded = rawPrefix.startsWith("~") ? this.expandHomePath(rawPrefix) : rawPrefix;
      const fromRoot = ["", "./", "../", "~", "~/", "/"].includes(rawPrefix);
      const absolute = rawPrefix.startsWith("~") || expanded.startsWith("/");
      let searchDir;
      let namePrefix = "";
      if (fromRoot || rawPrefix.endsWith("/")) {
        searchDir = absolute ? expanded : join(this.basePath, expanded);
      } else {
        searchDir = absolute ? dirname(expanded) : join(this.basePath, dirname(expanded));
        namePrefix = basename(expanded);
      }
      const suggestions = [];
      for (const entry of readdirSync(searchDir, { withFileTypes: true })) {
        if (!entry.name.toLowerCase().startsWith(namePrefix.toLowerCase())) continue;
        let isDirectory = entry.isDirectory();
        if (!isDirectory && entry.isSymbolicLink()) {
          try {
            isDirectory = statSync(join(searchDir, entry.name)).isDirectory();
          } catch {
            // A broken link is offered as a file.
          }
        }
        const path = slashed(this.pathAsTyped(rawPrefix, entry.name));
        suggestions.push({
          value: completionValue(isDirectory ? `${path}/` : path, { isAtPrefix, isQuotedPrefix }),
          label: entry.name + (isDirectory ? "/" : ""),
        });
      }
      const isDir = (suggestion) => suggestion.label.endsWith("/");
      suggestions.sort((a, b) => {
        if (isDir(a) !== isDir(b)) return isDir(a) ? -1 : 1;
        return a.label.localeCompare(b.label);
      });
      return suggestions;
    } catch {
      // A directory that does not exist or cannot be read offers nothing.
      return [];
    }
  }

  /** `name` in the directory of `typed`, written the way the user wrote that directory. */
  pathAsTyped(typed, name) {
    if (typed.endsWith("/")) return typed + name;
    if (!typed.includes("/") && !typed.includes("\\")) return typed.startsWith("~") ? `~/${name}` : name;
    if (typed.startsWith("~/")) {
      const dir = dirname(typed.slice(2));
      return `~/${dir === "." ? name : join(dir, name)}`;
    }
    if (typed.startsWith("/")) {
      const dir = dirname(typed);
      return dir === "/" ? `/${name}` : `${dir}/${name}`;
    }
    const joined = join(dirname(typed), name);
    // join drops a leading "./" the user typed; keep it.
    return typed.startsWith("./") && !joined.startsWith("./") ? `./${joined}` : joined;
  }

  /** How well `filePath` matches `query`: exact name, name prefix, in the name, in the path; directories first. */
  scoreEntry(filePath, query, isDirectory) {
    const name = basename(filePath).toLowerCase();
    const wanted = query.toLowerCase();
    let score = 0;
    if (name === wanted) score = 100;
    else if (name.startsWith(wanted)) score = 80;
    else if (name.includes(wanted)) score = 50;
    else if (filePath.toLowerCase().includes(wanted)) score = 30;
    return isDirectory && score > 0 ? score + 10 : score;
  }

  async getBaseDirSuggestions(baseDir, query, signal) {
    if (!this.fdPath || signal.aborted) return [];
    return await findWithFd(this.fdPath, baseDir, query, signal, 1);
  }

  /** Files anywhere below the base (or the directory the query names) for an "@" mention. */
  async getFuzzyFileSuggestions(query, options) {
    if (!this.fdPath || options.signal.aborted) return [];
    try {
      const scoped = this.resolveScopedFuzzyQuery(query);
      const baseDir = scoped?.baseDir ?? this.basePath;
      const fdQuery = scoped?.query ?? query;
      // The directory's own entries first, then deeper ones not already listed.
      const shallow = await this.getBaseDirSuggestions(baseDir, fdQuery, options.signal);
      const deep = await findWithFd(this.fdPath, baseDir, fdQuery, options.signal);
      const seen = new Set(shallow.map((entry) => entry.path));
      const entries = [...shallow];
      for (const entry of deep) {
        if (seen.has(entry.path)) continue;
        seen.add(entry.path);
        entries.push(entry);
      }
      if (options.signal.aborted) return [];
      const ranked = entries
        .map((entry) => ({ ...entry, score: fdQuery ? this.scoreEntry(entry.path, fdQuery, entry.isDirectory) : 1 }))
        .filter((entry) => entry.score > 0)
        .sort(
          (a, b) =>
            b.score - a.score ||
            pathDepth(a.path) - pathDepth(b.path) ||
            a.path.length - b.path.length ||
            a.path.localeCompare(b.path),
        );
      return ranked.slice(0, MAX_FUZZY_SUGGESTIONS).map(({ path, isDirectory }) => {
        const bare = isDirectory ? path.slice(0, -1) : path;
        const shown = scoped ? this.scopedPathForDisplay(scoped.displayBase, bare) : bare;
        return {
          value: completionValue(isDirectory ? `${shown}/` : shown, { isAtPrefix: true, isQuotedPrefix: options.isQuotedPrefix }),
          label: basename(bare) + (isDirectory ? "/" : ""),
          description: shown,
        };
      });
    } catch {
      return [];
    }
  }

  /** Tab completes paths anywhere except in a slash command's name. */
  shouldTriggerFileCompletion(lines, cursorLine, cursorCol) {
    const text = (lines[cursorLine] || "").slice(0, cursorCol).trim();
    return !(text.startsWith("/") && !text.includes(" "));
  }
}
