// File-system watching. `watchFs` is the `Deno.watchFs` that deno_node's
// fs.watch and fs.promises.watch are built on, over pihost's watcher ops
// (src/platform/fs_events.rs); `withNodeWatch` corrects the two ways
// deno_node's watch functions part from Node 22 (below).

// Collects the watchers made while it is an array (fs.promises.watch's
// `persistent: false` unrefs the one deno_node makes).
let made = null;

/**
 * An async iterable of `{ kind, paths, flag }` events, as Deno's: `close()`
 * ends it (a pending `next()` answers done); while it is unref'd, waiting
 * for its next event does not keep the event loop alive.
 */
class FsWatcher {
  #core;
  #rid;
  #closed = false;
  #refed = true;
  #pending = null;

  constructor(core, paths, recursive) {
    this.#core = core;
    this.#rid = core.ops.op_pihost_fs_watch_open(paths, recursive);
    made?.push(this);
  }

  async next() {
    if (this.#closed) {
      return { value: undefined, done: true };
    }
    const promise = this.#core.ops.op_pihost_fs_watch_poll(this.#rid);
    if (!this.#refed) {
      this.#core.unrefOpPromise(promise);
    }
    this.#pending = promise;
    let event;
    try {
      event = await promise;
    } catch (error) {
      if (error instanceof this.#core.BadResource) {
        this.#closed = true;
        return { value: undefined, done: true };
      }
      throw error;
    } finally {
      if (this.#pending === promise) {
        this.#pending = null;
      }
    }
    if (event === null) {
      this.#closed = true;
      return { value: undefined, done: true };
    }
    return { value: event, done: false };
  }

  return(value) {
    this.close();
    return Promise.resolve({ value, done: true });
  }

  close() {
    if (!this.#closed) {
      this.#closed = true;
      this.#core.tryClose(this.#rid);
    }
  }

  ref() {
    this.#refed = true;
    if (this.#pending) this.#core.refOpPromise(this.#pending);
  }

  unref() {
    this.#refed = false;
    if (this.#pending) this.#core.unrefOpPromise(this.#pending);
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  [Symbol.dispose]() {
    this.close();
  }
}

/** `Deno.watchFs(paths, { recursive = true })`. */
export function watchFs(core, paths, options = {}) {
  const list = Array.isArray(paths) ? paths.map(String) : [String(paths)];
  return new FsWatcher(core, list, options?.recursive ?? true);
}

// deno_node's fs.watch and fs.promises.watch part from Node 22 where a watch
// cannot start: Node's fs.watch throws (deno_node emits an 'error' event on
// the next tick, which crashes a caller that wrapped the call in try/catch),
// and Node's fs.promises.watch is an async generator that fails on its first
// next() (deno_node throws at the call). Both also ignore `persistent:
// false`, with which Node's watcher does not keep the process alive.
// `withNodeWatch` puts Node's behaviour over theirs, in deno_node's fs
// exports (which require, `fs.promises` and deno_node itself read) and in the
// namespaces pihost hands to imports. Under a sandbox, a watch of what no
// grant lets the extension read is refused at the call (Node has no such
// error; Deno's watchFs refuses it), like every other read.

const ADJUSTED = Symbol("pihost.nodeWatch");

/**
 * A sandbox's refusal, which a watch throws at the call as stat does:
 * Deno's `NotCapable`, or the `EACCES` pihost's file system gives when a
 * link leads where no grant reaches (its text is the refusal's).
 */
const isRefusal = (error) =>
  error?.name === "NotCapable" || (error?.code === "EACCES" && /^Requires read access to /.test(error.message));

/** `namespace` (of `node:<name>`, as bootstrap.js loads it) with Node's watch. */
export function withNodeWatch(core, name, namespace) {
  if (name !== "fs" && name !== "fs/promises") {
    return namespace;
  }
  const fs = core.loadExtScript("ext:deno_node/fs.ts");
  adjust(core, fs);
  const watching = name === "fs" ? { watch: fs.watch, watchFile: fs.watchFile } : { watch: fs.promises.watch };
  const exports = namespace.default;
  if (exports && typeof exports === "object" && exports !== fs && Object.isExtensible(exports)) {
    Object.assign(exports, watching);
  }
  // A module namespace cannot change: hand out a copy.
  return Object.assign(Object.create(null), namespace, watching);
}

function adjust(core, fs) {
  if (fs[ADJUSTED]) return;
  fs[ADJUSTED] = true;
  const { getValidatedPath } = core.createLazyLoader("ext:deno_node/internal/fs/utils.mjs")();
  const { uvException } = core.loadExtScript("ext:deno_node/internal/errors.ts");
  const { codeMap } = core.loadExtScript("ext:deno_node/internal_binding/uv.ts");
  const { resolve } = core.createLazyLoader("node:path")();

  // Node's error when a watch of `path` cannot start, or null. A native
  // watch reports the system's error for `watch`; the recursive watch of
  // Node 22 on Linux is built on stat and reports stat's ENOENT only.
  const startFailure = (path, recursive) => {
    const target = recursive ? resolve(path) : path;
    try {
      fs.statSync(target);
      return null;
    } catch (error) {
      if (isRefusal(error)) return error;
      if (typeof error?.code !== "string" || (recursive && error.code !== "ENOENT")) {
        return null;
      }
      const failure = recursive ? error : uvException({ errno: codeMap.get(error.code), syscall: "watch", path });
      failure.filename = target;
      return failure;
    }
  };

  // Node's fs.watchFile polls with stat and never throws, even for a missing
  // file; a sandbox's refusal is not a missing file, so it is thrown at the
  // call, as fs.statSync throws it, instead of polling in silence.
  const denoWatchFile = fs.watchFile;
  fs.watchFile = function watchFile(filename, ...rest) {
    try {
      fs.statSync(getValidatedPath(filename).toString());
    } catch (error) {
      if (isRefusal(error)) throw error;
    }
    return denoWatchFile.call(this, filename, ...rest);
  };

  const denoWatch = fs.watch;
  fs.watch = function watch(filename, ...rest) {
    const options = rest.find((argument) => argument !== null && typeof argument === "object");
    const failure = startFailure(getValidatedPath(filename).toString(), options?.recursive === true);
    // deno_node validates the options as Node does, before starting.
    const watcher = denoWatch.call(this, filename, ...rest);
    if (failure) {
      // It reports the failure as an event on the next tick: swallow that.
      watcher.on("error", () => {});
      watcher.close();
      throw failure;
    }
    if (options?.persistent === false) {
      watcher.unref();
    }
    return watcher;
  };

  const promises = fs.promises;
  const denoWatchPromise = promises.watch;
  promises.watch = function watch(filename, options) {
    let inner = null;
    let failure = null;
    let started = false;
    let finished = false;
    const start = () => {
      started = true;
      try {
        const path = getValidatedPath(filename).toString();
        failure = startFailure(path, options?.recursive === true);
        if (failure) return;
        made = [];
        try {
          inner = denoWatchPromise(filename, options);
        } finally {
          const watchers = made;
          made = null;
          if (options?.persistent === false) {
            for (const watcher of watchers) watcher.unref();
          }
        }
      } catch (error) {
        failure = error;
      }
    };
    return {
      next() {
        if (!started) start();
        if (failure) {
          const error = failure;
          failure = null;
          finished = true;
          return Promise.reject(error);
        }
        if (finished || inner === null) {
          return Promise.resolve({ value: undefined, done: true });
        }
        return inner.next();
      },
      return(value) {
        finished = true;
        started = true;
        return inner ? inner.return(value) : Promise.resolve({ value, done: true });
      },
      throw(error) {
        finished = true;
        started = true;
        inner?.return();
        return Promise.reject(error);
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  };
}
