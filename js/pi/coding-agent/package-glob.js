// Globs in package filters and manifests, as pi reads them with minimatch
// (matching a path) and node:fs globSync (finding files under a package
// root). Case-sensitive. Covered: `*` and `?` within a segment, `[...]`
// classes (`!` or `^` negates), `**` as a whole segment for any number of
// segments, `{a,b}` and `{1..3}` alternatives, `\` escapes, repeated slashes
// counting as one, `dir/..` folded away, a "#" pattern matching nothing, and
// no wildcard matching a segment's leading dot. Extglobs (`+(a|b)` and the
// like) are read literally.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { expandBraces, segmentRegExp } from "./glob-syntax.js";

const hasMagic = (segment) => /[*?[\\]/.test(segment);

/** Whether a name matches one pattern segment; wildcards never match a leading dot, a literal dot does. */
function segmentMatches(patternSegment, name) {
  if (patternSegment === "**") return false;
  if (name.startsWith(".") && !patternSegment.startsWith(".")) return false;
  return segmentRegExp(patternSegment).test(name);
}

/** A pattern's segments, with repeated slashes as one and `name/..` folded away. */
function patternSegments(pattern) {
  const segments = [];
  for (const segment of pattern.split(/\/+/)) {
    const previous = segments.at(-1);
    if (segment === ".." && previous !== undefined && previous !== "" && previous !== ".." && previous !== "." && previous !== "**") {
      segments.pop();
      continue;
    }
    segments.push(segment);
  }
  return segments;
}

function matchFrom(patterns, texts, p, t) {
  if (p === patterns.length) return t === texts.length;
  if (patterns[p] === "**") {
    // A trailing `**` needs something to match.
    const least = p === patterns.length - 1 ? t + 1 : t;
    for (let next = t; next <= texts.length; next++) {
      if (next >= least && matchFrom(patterns, texts, p + 1, next)) return true;
      if (next < texts.length && texts[next].startsWith(".")) return false;
    }
    return false;
  }
  if (t === texts.length) return false;
  return segmentMatches(patterns[p], texts[t]) && matchFrom(patterns, texts, p + 1, t + 1);
}

/** Whether the slash-separated `path` matches the glob `pattern` (minimatch's default rules, as listed above). */
export function matchesGlob(path, pattern) {
  if (pattern.startsWith("#")) return false;
  if (pattern === "") return path === "";
  const texts = path.split(/\/+/);
  return expandBraces(pattern).some((expanded) => matchFrom(patternSegments(expanded), texts, 0, 0));
}

function entryNames(dir) {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function isDirectory(path) {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Relative paths (slash-separated) of everything under `root` that the segments match, files and directories alike. */
function walkMatches(root, segments, index, prefix, found) {
  const here = prefix === "" ? root : join(root, prefix);
  if (index === segments.length) {
    if (prefix !== "" && existsSync(here)) found.add(prefix);
    return;
  }
  const segment = segments[index];
  const childPrefix = (name) => (prefix === "" ? name : `${prefix}/${name}`);
  if (segment === "**") {
    // Zero segments, then one more directory level at a time.
    walkMatches(root, segments, index + 1, prefix, found);
    if (!isDirectory(here)) return;
    for (const name of entryNames(here)) {
      if (name.startsWith(".") || !isDirectory(join(here, name))) continue;
      walkMatches(root, segments, index, childPrefix(name), found);
    }
    return;
  }
  if (!hasMagic(segment)) {
    walkMatches(root, segments, index + 1, childPrefix(segment.replace(/\\(.)/g, "$1")), found);
    return;
  }
  for (const name of entryNames(here)) {
    if (segmentMatches(segment, name)) walkMatches(root, segments, index + 1, childPrefix(name), found);
  }
}

/** Paths relative to `root` (slash-separated, possibly starting with `..`) of the files and directories `pattern` matches. */
export function globFiles(pattern, root) {
  const found = new Set();
  for (const expanded of expandBraces(pattern)) {
    const segments = patternSegments(expanded).filter((segment) => segment !== ".");
    // An absolute pattern walks from the filesystem root and yields absolute paths.
    if (segments[0] === "") {
      const absolute = new Set();
      walkMatches("/", segments.slice(1), 0, "", absolute);
      for (const path of absolute) found.add(`/${path}`);
      continue;
    }
    walkMatches(root, segments, 0, "", found);
  }
  return [...found];
}
