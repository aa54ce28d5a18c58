// What a package or a resource directory holds for pi's package manager,
// and how settings patterns choose among it: a package's `pi` manifest
// (package.json) and conventional folders (extensions/, skills/, prompts/,
// themes/), extension entry points, the `+`/`-`/`!` and glob patterns of
// filters, manifests and settings entries (matched as pi matches them with
// minimatch), and the accumulated resources put in pi's precedence order.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { hostEnv } from "../host-env.js";
import { GitignoreMatcher, addIgnoreFiles } from "./gitignore.js";
import { globFiles, matchesGlob } from "./package-glob.js";
import { canonicalizePath } from "./paths.js";
import { collectFilesRecursive, collectSkillEntries } from "./resource-discovery.js";

export const RESOURCE_TYPES = ["extensions", "skills", "prompts", "themes"];
const RESOURCE_FILE_PATTERNS = { extensions: /\.(ts|js)$/, skills: /\.md$/, prompts: /\.md$/, themes: /\.json$/ };
const BUILTIN_PATH_PREFIX = "builtin:";

export const stripBom = (text) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
const toPosix = (path) => path.split(sep).join("/");
/** The user's home directory as pi finds it: HOME first. */
export const userHomeDir = () => hostEnv().HOME || homedir();

/** "~" and file:// URLs read, as pi reads paths in settings. */
export function expandUserPath(input) {
  const home = userHomeDir();
  if (input === "~") return home;
  if (input.startsWith("~/")) return join(home, input.slice(2));
  if (/^file:\/\//.test(input)) return fileURLToPath(input);
  return input;
}

const isSyntheticPath = (path) => path.startsWith(BUILTIN_PATH_PREFIX) || path.startsWith("<");
const resourcePathKey = (path) => (isSyntheticPath(path) ? path : resolve(canonicalizePath(path)));

// ---------------------------------------------------------------------------
// Package manifests and conventional folders

export function isPlainObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The `pi` field of a package.json: its string-array resource lists and changelogPath; null when there is none. */
export function readPiManifest(packageJsonPath) {
  let pkg;
  try {
    pkg = JSON.parse(stripBom(readFileSync(packageJsonPath, "utf-8")));
  } catch {
    return null;
  }
  if (!isPlainObject(pkg) || !isPlainObject(pkg.pi)) return null;
  const manifest = {};
  for (const type of RESOURCE_TYPES) {
    const entries = pkg.pi[type];
    if (Array.isArray(entries) && entries.every((entry) => typeof entry === "string")) manifest[type] = entries;
  }
  if (typeof pkg.pi.changelogPath === "string") manifest.changelogPath = pkg.pi.changelogPath;
  return manifest;
}

/** A `pi` object lists resources only when it has a resource field; metadata alone leaves folder discovery on. */
export const listsResources = (manifest) => RESOURCE_TYPES.some((type) => manifest[type] !== undefined);

/** Whether `child` lies strictly inside `parent`. */
function isStrictlyInside(parent, child) {
  const path = relative(parent, child);
  return path !== "" && path !== ".." && !path.startsWith(`..${sep}`) && !isAbsolute(path);
}

/** The package's changelog (manifest's changelogPath, else CHANGELOG.md), only when it is a file inside the package. */
export function packageChangelogPath(packageRoot, manifest) {
  const declared = manifest?.changelogPath ?? "CHANGELOG.md";
  if (!declared) return undefined;
  const path = resolve(packageRoot, declared);
  if (!existsSync(path)) return undefined;
  if (!isStrictlyInside(canonicalizePath(packageRoot), canonicalizePath(path))) return undefined;
  try {
    return statSync(path).isFile() ? path : undefined;
  } catch {
    return undefined;
  }
}

/** An extension directory's entry points: its manifest's extensions that exist, else index.ts, else index.js; null for none. */
function extensionEntryPoints(dir) {
  const packageJsonPath = join(dir, "package.json");
  if (existsSync(packageJsonPath)) {
    const declared = readPiManifest(packageJsonPath)?.extensions ?? [];
    const existing = declared.map((entry) => resolve(dir, entry)).filter((path) => existsSync(path));
    if (existing.length > 0) return existing;
  }
  for (const name of ["index.ts", "index.js"]) {
    if (existsSync(join(dir, name))) return [join(dir, name)];
  }
  return null;
}

/** { isDir, isFile } of a directory entry, following symlinks; undefined for a broken link. */
function entryKind(dir, entry) {
  if (!entry.isSymbolicLink()) return { isDir: entry.isDirectory(), isFile: entry.isFile() };
  try {
    const stats = statSync(join(dir, entry.name));
    return { isDir: stats.isDirectory(), isFile: stats.isFile() };
  } catch {
    return undefined;
  }
}

/**
 * The extensions of an extensions directory: the directory's own entry
 * points if it has any, else its top-level .ts/.js files and the entry points
 * of its subdirectories (one level, ignore files respected).
 */
export function collectDiscoveredExtensions(dir) {
  if (!existsSync(dir)) return [];
  const own = extensionEntryPoints(dir);
  if (own) return own;
  const matcher = new GitignoreMatcher();
  addIgnoreFiles(matcher, dir, dir);
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const found = [];
  for (const entry of entries) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const kind = entryKind(dir, entry);
    if (!kind) continue;
    const path = join(dir, entry.name);
    const relativePath = toPosix(relative(dir, path));
    if (matcher.ignores(kind.isDir ? `${relativePath}/` : relativePath)) continue;
    if (kind.isFile && (entry.name.endsWith(".ts") || entry.name.endsWith(".js"))) found.push(path);
    else if (kind.isDir) found.push(...(extensionEntryPoints(path) ?? []));
  }
  return found;
}

/** The resources of one type a directory holds: extensions by entry points, skills by SKILL.md, the rest by extension at any depth. */
export function resourceFilesIn(dir, type) {
  if (type === "skills") return collectSkillEntries(dir, "pi");
  if (type === "extensions") return collectDiscoveredExtensions(dir);
  return collectFilesRecursive(dir, RESOURCE_FILE_PATTERNS[type]);
}

/** Files named by `paths`: a file as it is, a directory's resources of `type`; missing paths bring nothing. */
export function resourceFilesAt(paths, type) {
  const files = [];
  for (const path of paths) {
    if (!existsSync(path)) continue;
    try {
      const stats = statSync(path);
      if (stats.isFile()) files.push(path);
      else if (stats.isDirectory()) files.push(...resourceFilesIn(path, type));
    } catch {
      // An unreadable path brings nothing.
    }
  }
  return files;
}

// ---------------------------------------------------------------------------
// Selection patterns: plain entries include, `!` excludes (globs), `+` forces
// in and `-` forces out (exact paths).

export const isOverride = (entry) => entry.startsWith("!") || entry.startsWith("+") || entry.startsWith("-");
export const isSelectionPattern = (entry) => isOverride(entry) || entry.includes("*") || entry.includes("?");
const hasGlob = (entry) => entry.includes("*") || entry.includes("?");

/** A pattern as pi compares it: "~" and file:// read, slash-separated. */
const normalizedPattern = (pattern) => toPosix(expandUserPath(pattern));

/**
 * The forms of a resource a pattern may name: its path relative to the
 * base, its name and its absolute path; a SKILL.md also stands for its
 * directory.
 */
function patternTargets(filePath, baseDir) {
  const targets = { relative: toPosix(relative(baseDir, filePath)), name: basename(filePath), absolute: toPosix(filePath) };
  if (targets.name !== "SKILL.md") return { file: targets };
  const dir = dirname(filePath);
  return { file: targets, skillDir: { relative: toPosix(relative(baseDir, dir)), name: basename(dir), absolute: toPosix(dir) } };
}

function matchesAnyGlob(filePath, patterns, baseDir) {
  const { file, skillDir } = patternTargets(filePath, baseDir);
  return patterns.some((raw) => {
    const pattern = normalizedPattern(raw);
    const hits = (target) => matchesGlob(target.relative, pattern) || matchesGlob(target.name, pattern) || matchesGlob(target.absolute, pattern);
    return hits(file) || (skillDir !== undefined && hits(skillDir));
  });
}

/** Exact patterns name a path relative to the base (a leading "./" allowed) or an absolute one; never by name alone. */
function matchesAnyExact(filePath, patterns, baseDir) {
  if (patterns.length === 0) return false;
  const { file, skillDir } = patternTargets(filePath, baseDir);
  return patterns.some((raw) => {
    const pattern = normalizedPattern(raw.startsWith("./") || raw.startsWith(".\\") ? raw.slice(2) : raw);
    const hits = (target) => pattern === target.relative || pattern === target.absolute;
    return hits(file) || (skillDir !== undefined && hits(skillDir));
  });
}

/** Patterns split by their prefix character (which is removed). */
function splitByPrefix(patterns) {
  const groups = { include: [], exclude: [], forceIn: [], forceOut: [] };
  for (const pattern of patterns) {
    if (pattern.startsWith("+")) groups.forceIn.push(pattern.slice(1));
    else if (pattern.startsWith("-")) groups.forceOut.push(pattern.slice(1));
    else if (pattern.startsWith("!")) groups.exclude.push(pattern.slice(1));
    else groups.include.push(pattern);
  }
  return groups;
}

/** Whether a discovered resource stays enabled under the overrides among `patterns` (plain entries do not restrict discovery). */
export function enabledByOverrides(filePath, patterns, baseDir) {
  const { exclude, forceIn, forceOut } = splitByPrefix(patterns.filter(isOverride));
  let enabled = true;
  if (exclude.length > 0 && matchesAnyGlob(filePath, exclude, baseDir)) enabled = false;
  if (forceIn.length > 0 && matchesAnyExact(filePath, forceIn, baseDir)) enabled = true;
  if (forceOut.length > 0 && matchesAnyExact(filePath, forceOut, baseDir)) enabled = false;
  return enabled;
}

/** The paths `patterns` select from `allPaths`: includes (all when none), minus excludes, plus forced-in, minus forced-out. */
export function selectByPatterns(allPaths, patterns, baseDir) {
  const { include, exclude, forceIn, forceOut } = splitByPrefix(patterns);
  let selected = include.length === 0 ? [...allPaths] : allPaths.filter((path) => matchesAnyGlob(path, include, baseDir));
  if (exclude.length > 0) selected = selected.filter((path) => !matchesAnyGlob(path, exclude, baseDir));
  for (const path of allPaths) {
    if (forceIn.length > 0 && !selected.includes(path) && matchesAnyExact(path, forceIn, baseDir)) selected.push(path);
  }
  if (forceOut.length > 0) selected = selected.filter((path) => !matchesAnyExact(path, forceOut, baseDir));
  return new Set(selected);
}

/**
 * A project's `autoload: false` entry changes only what its patterns name,
 * in order (the last matching pattern decides): the enabled state of each
 * named path. Paths no pattern names are left to the user's entry.
 */
export function deltaSelection(allPaths, patterns, baseDir) {
  const decided = new Map();
  for (const pattern of patterns) {
    const prefixed = isOverride(pattern);
    const target = prefixed ? pattern.slice(1) : pattern;
    const enabled = !pattern.startsWith("-") && !pattern.startsWith("!");
    const exact = pattern.startsWith("+") || pattern.startsWith("-");
    for (const path of allPaths) {
      if (exact ? matchesAnyExact(path, [target], baseDir) : matchesAnyGlob(path, [target], baseDir)) decided.set(path, enabled);
    }
  }
  return decided;
}

/** Files a package-root glob finds: visible paths only (no dot segments), in code-unit order. */
function packageGlobMatches(pattern, root) {
  return globFiles(pattern, root)
    .map((match) => resolve(root, match))
    .filter((path) =>
      relative(root, path)
        .split(sep)
        .every((segment) => segment === ".." || !segment.startsWith(".")),
    )
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

// ---------------------------------------------------------------------------
// Resolved resources

/** Lower ranks load first, so they win name collisions: project entries, project discoveries, user entries, user discoveries, packages, built-ins. */
function precedenceRank(metadata) {
  if (metadata.source === "builtin") return 5;
  if (metadata.origin === "package") return 4;
  return (metadata.scope === "project" ? 0 : 2) + (metadata.source === "local" ? 0 : 1);
}

export const newAccumulator = () => ({ extensions: new Map(), skills: new Map(), prompts: new Map(), themes: new Map() });

/** The first source to bring a path keeps it. */
export function addResource(target, path, metadata, enabled) {
  if (path && !target.has(path)) target.set(path, { metadata, enabled });
}

/** The accumulated resources in precedence order, each real file once. */
export function toResolvedPaths(accumulator) {
  const ordered = (target) => {
    const resources = [...target].map(([path, { metadata, enabled }]) => ({ path, enabled, metadata }));
    resources.sort((a, b) => precedenceRank(a.metadata) - precedenceRank(b.metadata));
    const seen = new Set();
    return resources.filter((resource) => {
      const key = resourcePathKey(resource.path);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  };
  return Object.fromEntries(RESOURCE_TYPES.map((type) => [type, ordered(accumulator[type])]));
}

/** Files a manifest's entries name: paths, or globs under the package root (override entries name nothing). */
export function manifestEntryFiles(entries, root, type) {
  const paths = entries.filter((entry) => !isOverride(entry)).flatMap((entry) => (hasGlob(entry) ? packageGlobMatches(entry, root) : [resolve(root, entry)]));
  return resourceFilesAt(paths, type);
}
