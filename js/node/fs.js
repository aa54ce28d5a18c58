// node:fs, the synchronous core and its promise forms, over pihost's Rust
// file ops. Errors carry Node's `code`, `syscall` and `path`.
import { ops } from "pihost:runtime/ops.js";
import { Buffer } from "pihost:node/buffer.js";

function nodeError(error) {
  const match = /^(E[A-Z]+): [^,]*, (\w+) '(.*)'$/.exec(error?.message ?? "");
  if (match) {
    error.code = match[1];
    error.syscall = match[2];
    error.path = match[3];
    error.errno = -1;
  }
  return error;
}

function call(fn) {
  try {
    return fn();
  } catch (error) {
    throw nodeError(error);
  }
}

function pathOf(path) {
  if (typeof path === "string") return path;
  if (path && typeof path === "object" && typeof path.href === "string" && path.href.startsWith("file:")) {
    return decodeURIComponent(path.href.slice(7));
  }
  if (path instanceof Uint8Array) return new TextDecoder().decode(path);
  throw new TypeError(`The "path" argument must be of type string or an instance of Buffer or URL. Received ${typeof path}`);
}

function encodingOf(options) {
  if (typeof options === "string") return options;
  return options?.encoding ?? null;
}

/** The `is*()` questions Stats and Dirent both answer, from a kind name. */
class FileKind {
  constructor(kind) {
    Object.defineProperty(this, "_kind", { value: kind });
  }
  isFile() {
    return this._kind === "file";
  }
  isDirectory() {
    return this._kind === "directory";
  }
  isSymbolicLink() {
    return this._kind === "symlink";
  }
  isFIFO() {
    return false;
  }
  isSocket() {
    return false;
  }
  isBlockDevice() {
    return false;
  }
  isCharacterDevice() {
    return false;
  }
}

class Stats extends FileKind {
  constructor(raw) {
    super(raw.isSymbolicLink ? "symlink" : raw.isDirectory ? "directory" : raw.isFile ? "file" : "other");
    Object.assign(this, {
      dev: raw.dev,
      ino: raw.ino,
      mode: raw.mode,
      nlink: raw.nlink,
      uid: raw.uid,
      gid: raw.gid,
      size: raw.size,
      atimeMs: raw.atimeMs,
      mtimeMs: raw.mtimeMs,
      ctimeMs: raw.ctimeMs,
      birthtimeMs: raw.birthtimeMs,
      atime: new Date(raw.atimeMs),
      mtime: new Date(raw.mtimeMs),
      ctime: new Date(raw.ctimeMs),
      birthtime: new Date(raw.birthtimeMs),
    });
  }
}

class Dirent extends FileKind {
  constructor(name, kind, parentPath) {
    super(kind);
    this.name = name;
    this.parentPath = parentPath;
    this.path = parentPath;
  }
}

export function existsSync(path) {
  try {
    return ops.op_pihost_fs_exists(pathOf(path));
  } catch {
    return false;
  }
}

export function readFileSync(path, options) {
  const file = pathOf(path);
  const encoding = encodingOf(options);
  if (encoding === "utf8" || encoding === "utf-8") return call(() => ops.op_pihost_fs_read_text(file));
  const bytes = Buffer.from(call(() => ops.op_pihost_fs_read_bytes(file)));
  return encoding ? bytes.toString(encoding) : bytes;
}

function dataBytes(data, options) {
  if (typeof data === "string") return Buffer.from(data, encodingOf(options) ?? "utf8");
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(String(data));
}

export function writeFileSync(path, data, options) {
  const bytes = dataBytes(data, options);
  const append = typeof options === "object" && options?.flag?.startsWith("a");
  call(() => ops.op_pihost_fs_write(pathOf(path), bytes, Boolean(append)));
}

export function appendFileSync(path, data, options) {
  call(() => ops.op_pihost_fs_write(pathOf(path), dataBytes(data, options), true));
}

export function statSync(path, options) {
  try {
    return new Stats(ops.op_pihost_fs_stat(pathOf(path), true));
  } catch (error) {
    if (options?.throwIfNoEntry === false && /^ENOENT/.test(error.message)) return undefined;
    throw nodeError(error);
  }
}

export function lstatSync(path, options) {
  try {
    return new Stats(ops.op_pihost_fs_stat(pathOf(path), false));
  } catch (error) {
    if (options?.throwIfNoEntry === false && /^ENOENT/.test(error.message)) return undefined;
    throw nodeError(error);
  }
}

export function readdirSync(path, options) {
  const directory = pathOf(path);
  const entries = call(() => ops.op_pihost_fs_readdir(directory));
  if (options?.withFileTypes) return entries.map((entry) => new Dirent(entry.name, entry.kind, directory));
  return entries.map((entry) => entry.name);
}

export function mkdirSync(path, options) {
  const recursive = typeof options === "object" && Boolean(options?.recursive);
  const directory = pathOf(path);
  const existed = recursive && existsSync(directory);
  call(() => ops.op_pihost_fs_mkdir(directory, recursive));
  return recursive && !existed ? directory : undefined;
}

export function realpathSync(path) {
  return call(() => ops.op_pihost_fs_realpath(pathOf(path)));
}
realpathSync.native = realpathSync;

export function rmSync(path, options) {
  call(() => ops.op_pihost_fs_rm(pathOf(path), Boolean(options?.recursive), Boolean(options?.force)));
}

export function unlinkSync(path) {
  call(() => ops.op_pihost_fs_rm(pathOf(path), false, false));
}

export function rmdirSync(path, options) {
  call(() => ops.op_pihost_fs_rm(pathOf(path), Boolean(options?.recursive), false));
}

export function renameSync(from, to) {
  call(() => ops.op_pihost_fs_rename(pathOf(from), pathOf(to)));
}

export function copyFileSync(from, to) {
  writeFileSync(to, readFileSync(from));
}

export function accessSync(path) {
  if (!existsSync(path)) {
    throw nodeError(new Error(`ENOENT: no such file or directory, access '${pathOf(path)}'`));
  }
}

export const constants = { F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1 };

function promised(fn) {
  return (...args) => {
    try {
      return Promise.resolve(fn(...args));
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

export const promises = {
  readFile: promised(readFileSync),
  writeFile: promised(writeFileSync),
  appendFile: promised(appendFileSync),
  stat: promised(statSync),
  lstat: promised(lstatSync),
  readdir: promised(readdirSync),
  mkdir: promised(mkdirSync),
  realpath: promised(realpathSync),
  rm: promised(rmSync),
  unlink: promised(unlinkSync),
  rmdir: promised(rmdirSync),
  rename: promised(renameSync),
  copyFile: promised(copyFileSync),
  access: promised(accessSync),
  constants,
};

function callbackForm(fn) {
  return (...args) => {
    const callback = typeof args[args.length - 1] === "function" ? args.pop() : undefined;
    let result;
    let failure = null;
    try {
      result = fn(...args);
    } catch (error) {
      failure = error;
    }
    if (callback) queueMicrotask(() => callback(failure, result));
  };
}

export const readFile = callbackForm(readFileSync);
export const writeFile = callbackForm(writeFileSync);
export const appendFile = callbackForm(appendFileSync);
export const stat = callbackForm(statSync);
export const lstat = callbackForm(lstatSync);
export const readdir = callbackForm(readdirSync);
export const mkdir = callbackForm(mkdirSync);
export const realpath = callbackForm(realpathSync);
export const rm = callbackForm(rmSync);
export const unlink = callbackForm(unlinkSync);
export const rename = callbackForm(renameSync);
export function exists(path, callback) {
  const result = existsSync(path);
  queueMicrotask(() => callback?.(result));
}

export { Stats, Dirent };

export default {
  existsSync,
  readFileSync,
  writeFileSync,
  appendFileSync,
  statSync,
  lstatSync,
  readdirSync,
  mkdirSync,
  realpathSync,
  rmSync,
  unlinkSync,
  rmdirSync,
  renameSync,
  copyFileSync,
  accessSync,
  constants,
  promises,
  readFile,
  writeFile,
  appendFile,
  stat,
  lstat,
  readdir,
  mkdir,
  realpath,
  rm,
  unlink,
  rename,
  exists,
  Stats,
  Dirent,
};
