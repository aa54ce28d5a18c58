// How pi reads a path given in configuration or an API call: "~" is the home
// directory, a file:// URL is its file, and relative paths are taken from
// the process's working directory.
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** `input` with "~" and file:// URLs read; otherwise as given (not made absolute). */
export function expandPath(input) {
  if (input === "~") return homedir();
  if (input.startsWith("~/")) return join(homedir(), input.slice(2));
  if (/^file:\/\//.test(input)) return fileURLToPath(input);
  return input;
}

/** `input` expanded and made absolute against `baseDir` (the working directory by default). */
export function resolvePath(input, baseDir) {
  const path = expandPath(input);
  if (isAbsolute(path) || baseDir === undefined) return resolve(path);
  return resolve(expandPath(baseDir), path);
}

/** Whether two paths name the same place, without asking the filesystem (symlinks stay apart). */
export function pathsEqual(left, right) {
  return resolve(left) === resolve(right);
}

/** `path` with symlinks resolved; as given when it cannot be resolved (it may not exist yet). */
export function canonicalizePath(path) {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Whether `child` is `parent` or lies inside it, compared as `pathsEqual` compares. */
export function isPathWithin(parent, child) {
  const parentPath = resolve(parent);
  const childPath = resolve(child);
  if (childPath === parentPath) return true;
  // A root ("/") already ends with the separator.
  return childPath.startsWith(parentPath.endsWith(sep) ? parentPath : `${parentPath}${sep}`);
}
