// node:fs: the synchronous core over pihost's Rust file ops (src/ops/fs.rs,
// the one place files are touched), its callback and promise forms, and read
// and write streams. Errors carry Node's `code`, `errno`, `syscall`, `path`
// (and `dest`). Not provided: file descriptors (open/read/write by fd,
// FileHandle) and watching, which say so when called.
import { ops } from "pihost:runtime/ops.js";
import { Buffer } from "pihost:node/buffer.js";
import { Readable, Writable } from "pihost:node/stream.js";
import { errnoOf } from "pihost:node/internal/constants.js";

function nodeError(error) {
  const match = /^(E[A-Z]+): [^,]*, (\w+)(?: '(.*?)')?(?: -> '(.*)')?$/.exec(error?.message ?? "");
  if (match) {
    error.errno = errnoOf(match[1]);
    error.code = match[1];
    error.syscall = match[2];
    if (match[3] !== undefined) error.path = match[3];
    if (match[4] !== undefined) error.dest = match[4];
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

// Relative paths resolve against the runtime's process.cwd(), which
// process.chdir moves, not against the host process's directory.
function absolute(path) {
  if (path.startsWith("/")) return path;
  const base = globalThis.__pihostCwd?.() ?? "/";
  return path === "" ? path : `${base.endsWith("/") ? base : `${base}/`}${path}`;
}

function pathOf(path) {
  if (typeof path === "string") return absolute(path);
  if (path && typeof path === "object" && typeof path.href === "string" && path.href.startsWith("file:")) {
    return decodeURIComponent(path.href.slice(7));
  }
  if (path instanceof Uint8Array) return absolute(new TextDecoder().decode(path));
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
  call(() => ops.op_pihost_fs_remove(pathOf(path), false));
}

export function rmdirSync(path, options) {
  if (options?.recursive) return rmSync(path, { recursive: true });
  call(() => ops.op_pihost_fs_remove(pathOf(path), true));
}

export function renameSync(from, to) {
  call(() => ops.op_pihost_fs_rename(pathOf(from), pathOf(to)));
}

export const constants = {
  F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1,
  COPYFILE_EXCL: 1, COPYFILE_FICLONE: 2, COPYFILE_FICLONE_FORCE: 4,
  O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_TRUNC: 512, O_APPEND: 1024,
  S_IFMT: 61440, S_IFREG: 32768, S_IFDIR: 16384, S_IFLNK: 40960,
};

export function copyFileSync(from, to, mode = 0) {
  call(() => ops.op_pihost_fs_copy(pathOf(from), pathOf(to), (mode & constants.COPYFILE_EXCL) !== 0));
}

export function cpSync(from, to, options) {
  const source = pathOf(from);
  const target = pathOf(to);
  if (statSync(source).isDirectory()) {
    if (!options?.recursive) {
      const error = new Error(`Recursive option is required to copy a directory: ${source}`);
      error.code = "ERR_FS_EISDIR";
      throw error;
    }
    mkdirSync(target, { recursive: true });
    for (const name of readdirSync(source)) cpSync(`${source}/${name}`, `${target}/${name}`, options);
  } else {
    copyFileSync(source, target);
  }
}

export function accessSync(path, mode = constants.F_OK) {
  call(() => ops.op_pihost_fs_access(pathOf(path), mode));
}

export function symlinkSync(target, path) {
  // The target is stored as written: a relative one is relative to the link.
  const stored = typeof target === "string" ? target : pathOf(target);
  call(() => ops.op_pihost_fs_symlink(stored, pathOf(path)));
}

export function readlinkSync(path) {
  return call(() => ops.op_pihost_fs_readlink(pathOf(path)));
}

export function chmodSync(path, mode) {
  call(() => ops.op_pihost_fs_chmod(pathOf(path), typeof mode === "string" ? parseInt(mode, 8) : mode));
}

export function truncateSync(path, length = 0) {
  call(() => ops.op_pihost_fs_truncate(pathOf(path), length));
}

const TEMP_CHARACTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

export function mkdtempSync(prefix) {
  const base = pathOf(prefix);
  for (;;) {
    const bytes = new Uint8Array(6);
    globalThis.crypto.getRandomValues(bytes);
    const candidate = base + Array.from(bytes, (byte) => TEMP_CHARACTERS[byte % TEMP_CHARACTERS.length]).join("");
    try {
      ops.op_pihost_fs_mkdir(candidate, false);
      return candidate;
    } catch (error) {
      if (!/^EEXIST/.test(error?.message ?? "")) throw nodeError(error);
    }
  }
}

function notProvidedError(name) {
  const error = new Error(`pihost: fs.${name} is not supported (pihost has no file descriptors or file watching)`);
  error.code = "ERR_FEATURE_UNAVAILABLE_ON_PLATFORM";
  return error;
}

function notProvided(name) {
  return () => {
    throw notProvidedError(name);
  };
}

export const watch = notProvided("watch");
export const watchFile = notProvided("watchFile");
export const unwatchFile = notProvided("unwatchFile");
export const openSync = notProvided("openSync");
export const closeSync = notProvided("closeSync");
export const readSync = notProvided("readSync");
export const writeSync = notProvided("writeSync");
export const fstatSync = notProvided("fstatSync");
export const open = notProvided("open");
export const close = notProvided("close");

const STREAM_CHUNK = 64 * 1024;

/** A readable stream over a whole file (read at the first pull). */
export function createReadStream(path, options) {
  const file = pathOf(path);
  const settings = typeof options === "string" ? { encoding: options } : (options ?? {});
  const highWaterMark = settings.highWaterMark ?? STREAM_CHUNK;
  let bytes;
  let offset = 0;
  const stream = new Readable({
    highWaterMark,
    encoding: settings.encoding,
    read() {
      try {
        if (bytes === undefined) {
          const whole = readFileSync(file);
          const end = settings.end === undefined ? whole.length : Math.min(whole.length, settings.end + 1);
          bytes = whole.subarray(settings.start ?? 0, end);
        }
      } catch (error) {
        this.destroy(error);
        return;
      }
      if (offset >= bytes.length) {
        this.push(null);
        return;
      }
      this.push(bytes.subarray(offset, offset + highWaterMark));
      offset += highWaterMark;
    },
  });
  stream.path = file;
  queueMicrotask(() => {
    stream.emit("open", 0);
    stream.emit("ready");
  });
  return stream;
}

/** A writable stream that writes each chunk through to the file. */
export function createWriteStream(path, options) {
  const file = pathOf(path);
  const settings = typeof options === "string" ? { encoding: options } : (options ?? {});
  let started = false;
  const stream = new Writable({
    decodeStrings: true,
    defaultEncoding: settings.encoding ?? "utf8",
    write(chunk, _encoding, callback) {
      try {
        const append = started || (settings.flags ?? "w").startsWith("a");
        ops.op_pihost_fs_write(file, chunk, append);
        started = true;
        stream.bytesWritten += chunk.length;
        callback();
      } catch (error) {
        callback(nodeError(error));
      }
    },
    final(callback) {
      try {
        if (!started && !(settings.flags ?? "w").startsWith("a")) ops.op_pihost_fs_write(file, new Uint8Array(), false);
        callback();
      } catch (error) {
        callback(nodeError(error));
      }
    },
  });
  stream.path = file;
  stream.bytesWritten = 0;
  queueMicrotask(() => {
    stream.emit("open", 0);
    stream.emit("ready");
  });
  return stream;
}

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
  cp: promised(cpSync),
  symlink: promised(symlinkSync),
  readlink: promised(readlinkSync),
  chmod: promised(chmodSync),
  truncate: promised(truncateSync),
  mkdtemp: promised(mkdtempSync),
  open: () => Promise.reject(notProvidedError("promises.open")),
  watch: () => {
    throw notProvidedError("promises.watch");
  },
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
export const rmdir = callbackForm(rmdirSync);
export const copyFile = callbackForm(copyFileSync);
export const cp = callbackForm(cpSync);
export const access = callbackForm(accessSync);
export const symlink = callbackForm(symlinkSync);
export const readlink = callbackForm(readlinkSync);
export const chmod = callbackForm(chmodSync);
export const truncate = callbackForm(truncateSync);
export const mkdtemp = callbackForm(mkdtempSync);
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
  cpSync,
  accessSync,
  symlinkSync,
  readlinkSync,
  chmodSync,
  truncateSync,
  mkdtempSync,
  createReadStream,
  createWriteStream,
  watch,
  watchFile,
  unwatchFile,
  openSync,
  closeSync,
  readSync,
  writeSync,
  fstatSync,
  open,
  close,
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
  rmdir,
  copyFile,
  cp,
  access,
  symlink,
  readlink,
  chmod,
  truncate,
  mkdtemp,
  exists,
  Stats,
  Dirent,
};
