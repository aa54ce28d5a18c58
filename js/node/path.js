// POSIX flavour of Node's `path` module, for extensions running in the
// pihost isolate. Behaviour (including a few odd corners of basename/parse)
// is kept identical to Node so that code ported from Node sees the same
// strings; tests/node-shims/differential.mjs checks this against Node.

import { cwd } from "./process-cwd.js";
import { describeReceived } from "./internal/errors.js";

const SLASH = "/";

function invalidArgType(name, expected, value) {
  const err = new TypeError(`The "${name}" argument must be of type ${expected}.${describeReceived(value)}`);
  err.code = "ERR_INVALID_ARG_TYPE";
  return err;
}

function checkString(value, name) {
  if (typeof value !== "string") throw invalidArgType(name, "string", value);
}

// Collapses "", "." and ".." segments. Relative paths keep leading ".."
// segments because there is nothing above them to cancel against; absolute
// paths drop them since "/.." is "/".
function collapseSegments(p, allowAboveRoot) {
  const out = [];
  for (const seg of p.split(SLASH)) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (allowAboveRoot) out.push("..");
    } else {
      out.push(seg);
    }
  }
  return out.join(SLASH);
}

// Bounds of the last path component, ignoring trailing slashes. `end` is 0
// when the path consists only of slashes (or is empty).
function lastComponent(p) {
  let end = p.length;
  while (end > 0 && p[end - 1] === SLASH) end--;
  const start = end === 0 ? 0 : p.lastIndexOf(SLASH, end - 1) + 1;
  return { start, end };
}

// Extension of a single component, following Node: a leading dot marks a
// hidden file rather than an extension, and ".." has none.
function extOf(base) {
  const dot = base.lastIndexOf(".");
  if (dot <= 0 || base === "..") return "";
  return base.slice(dot);
}

/**
 * Joins path segments with "/" and normalizes the result.
 * @param {...string} parts
 * @returns {string}
 */
export function join(...parts) {
  for (const part of parts) checkString(part, "path");
  const joined = parts.filter((part) => part.length > 0).join(SLASH);
  return joined.length === 0 ? "." : normalize(joined);
}

/**
 * Resolves segments right-to-left into an absolute path, using the host's cwd
 * when no segment is absolute. The result has no trailing slash.
 * @param {...string} parts
 * @returns {string}
 */
export function resolve(...parts) {
  let resolved = "";
  let absolute = false;
  for (let i = parts.length - 1; i >= -1 && !absolute; i--) {
    const part = i >= 0 ? parts[i] : cwd();
    if (i >= 0) checkString(part, `paths[${i}]`);
    if (part.length === 0) continue;
    resolved = resolved.length > 0 ? `${part}/${resolved}` : part;
    absolute = part[0] === SLASH;
  }
  const collapsed = collapseSegments(resolved, !absolute);
  if (absolute) return `/${collapsed}`;
  return collapsed.length > 0 ? collapsed : ".";
}

/**
 * Normalizes "." / ".." segments and repeated slashes, keeping a trailing slash.
 * @param {string} p
 * @returns {string}
 */
export function normalize(p) {
  checkString(p, "path");
  if (p.length === 0) return ".";
  const absolute = p[0] === SLASH;
  const trailing = p[p.length - 1] === SLASH;
  let out = collapseSegments(p, !absolute);
  if (out.length === 0 && !absolute) out = ".";
  if (out.length > 0 && trailing) out += SLASH;
  return absolute ? `/${out}` : out;
}

/**
 * @param {string} p
 * @returns {boolean} whether `p` starts with "/"
 */
export function isAbsolute(p) {
  checkString(p, "path");
  return p.length > 0 && p[0] === SLASH;
}

/**
 * Directory part of `p`. Like Node it does not collapse repeated slashes
 * before the last component ("/a//b" -> "/a/").
 * @param {string} p
 * @returns {string}
 */
export function dirname(p) {
  checkString(p, "path");
  if (p.length === 0) return ".";
  const hasRoot = p[0] === SLASH;
  let end = p.length;
  while (end > 1 && p[end - 1] === SLASH) end--;
  const idx = p.lastIndexOf(SLASH, end - 1);
  if (idx < 1) return hasRoot ? SLASH : ".";
  // Node preserves a leading "//" (POSIX leaves its meaning to the platform).
  if (hasRoot && idx === 1) return "//";
  return p.slice(0, idx);
}

/**
 * Last component of `p`, optionally with `suffix` removed.
 * @param {string} p
 * @param {string} [suffix]
 * @returns {string}
 */
export function basename(p, suffix) {
  checkString(p, "path");
  if (suffix !== undefined) checkString(suffix, "suffix");
  const { start, end } = lastComponent(p);
  if (suffix === undefined || suffix.length === 0 || suffix.length > p.length) {
    return p.slice(start, end);
  }
  // The remaining branches mirror Node's quirks exactly, because callers
  // compare results against strings produced by real Node.
  if (suffix === p) return "";
  if (end === 0) return p;
  const base = p.slice(start, end);
  if (base.endsWith(suffix)) {
    return base.length === suffix.length ? base : base.slice(0, base.length - suffix.length);
  }
  // A suffix longer than the component that matches all of it is treated as
  // "no match found yet" by Node, which then keeps the trailing slashes.
  const tail = suffix.slice(suffix.length - base.length);
  return tail === base ? p.slice(start) : base;
}

/**
 * Extension of the last component, including the dot ("" if none).
 * @param {string} p
 * @returns {string}
 */
export function extname(p) {
  checkString(p, "path");
  const { start, end } = lastComponent(p);
  return extOf(p.slice(start, end));
}

/**
 * Path from `from` to `to`, both resolved against cwd first.
 * @param {string} from
 * @param {string} to
 * @returns {string}
 */
export function relative(from, to) {
  checkString(from, "from");
  checkString(to, "to");
  if (from === to) return "";
  const fromParts = resolve(from).split(SLASH).filter(Boolean);
  const toParts = resolve(to).split(SLASH).filter(Boolean);
  let common = 0;
  while (common < fromParts.length && common < toParts.length && fromParts[common] === toParts[common]) common++;
  const up = new Array(fromParts.length - common).fill("..");
  return [...up, ...toParts.slice(common)].join(SLASH);
}

/**
 * Splits `p` into `{ root, dir, base, ext, name }`.
 * @param {string} p
 * @returns {{root: string, dir: string, base: string, ext: string, name: string}}
 */
export function parse(p) {
  checkString(p, "path");
  const ret = { root: "", dir: "", base: "", ext: "", name: "" };
  if (p.length === 0) return ret;
  const absolute = p[0] === SLASH;
  if (absolute) ret.root = SLASH;
  const { start, end } = lastComponent(p);
  if (end > 0) {
    const base = p.slice(start, end);
    // Node's parse, unlike extname, does not special-case ".." directly
    // under the root, so "/.." parses as name "." + ext ".".
    const ext = absolute && start === 1 && base === ".." ? "." : extOf(base);
    ret.base = base;
    ret.ext = ext;
    ret.name = base.slice(0, base.length - ext.length);
  }
  if (start > 1) ret.dir = p.slice(0, start - 1);
  else if (absolute) ret.dir = SLASH;
  return ret;
}

/**
 * Inverse of `parse`: `dir`/`root` plus `base` (or `name` + `ext`).
 * @param {{root?: string, dir?: string, base?: string, name?: string, ext?: string}} obj
 * @returns {string}
 */
export function format(obj) {
  if (obj === null || typeof obj !== "object" || Array.isArray(obj)) {
    throw invalidArgType("pathObject", "object", obj);
  }
  const dir = obj.dir || obj.root;
  const ext = obj.ext ? `${obj.ext[0] === "." ? "" : "."}${obj.ext}` : "";
  const base = obj.base || `${obj.name || ""}${ext}`;
  if (!dir) return base;
  return dir === obj.root ? `${dir}${base}` : `${dir}/${base}`;
}

/**
 * Identity on POSIX; exists for code that calls it unconditionally.
 * @param {string} p
 * @returns {string}
 */
export function toNamespacedPath(p) {
  return p;
}

export const sep = SLASH;
export const delimiter = ":";

function win32Unavailable() {
  throw new Error("pihost: path.win32 is not available");
}

// Extensions sometimes probe `path.win32` to pick a flavour; give them an
// object whose members fail loudly instead of a silent undefined.
export const win32 = {
  sep: "\\",
  delimiter: ";",
  join: win32Unavailable,
  resolve: win32Unavailable,
  normalize: win32Unavailable,
  isAbsolute: win32Unavailable,
  dirname: win32Unavailable,
  basename: win32Unavailable,
  extname: win32Unavailable,
  relative: win32Unavailable,
  parse: win32Unavailable,
  format: win32Unavailable,
  toNamespacedPath: win32Unavailable,
};

const path = {
  sep,
  delimiter,
  join,
  resolve,
  normalize,
  isAbsolute,
  dirname,
  basename,
  extname,
  relative,
  parse,
  format,
  toNamespacedPath,
  win32,
};
path.posix = path;
win32.posix = path;
win32.win32 = win32;

export { path as posix };
export default path;
