// The Node globals extensions cannot live without, installed before any
// extension runs: process, Buffer, timers, structuredClone, TextEncoder and
// TextDecoder, `global`. The complete web and Node layer is a later step.
import { core, ops } from "pihost:runtime/ops.js";
import { adoptTimer, currentOwner, enterExtensionSync } from "pihost:runtime/entries.js";
// First: the web modules below create encoders when they load.
import { TextDecoder, TextEncoder } from "pihost:runtime/encoding.js";
import { Buffer } from "pihost:node/buffer.js";
import { Readable } from "pihost:node/stream.js";
import { SIGNALS, errnoOf } from "pihost:node/internal/constants.js";
import { useNativeUtf8 } from "pihost:node/internal/utf8-codec.js";
import { setNativeOps } from "pihost:runtime/web/native.js";
import { DOMException } from "pihost:runtime/web/dom-exception.js";
import { CustomEvent, Event, EventTarget } from "pihost:runtime/web/event-target.js";
import { AbortController, AbortSignal } from "pihost:runtime/web/abort.js";
import { URL, URLSearchParams } from "pihost:runtime/web/url.js";
import { atob, btoa } from "pihost:runtime/web/base64.js";
import { webcrypto } from "pihost:node/crypto.js";
import { console } from "pihost:runtime/console.js";
import { Headers, Request, Response, fetch } from "pihost:runtime/web/fetch.js";
import {
  ByteLengthQueuingStrategy,
  CountQueuingStrategy,
  ReadableStream,
  ReadableStreamDefaultReader,
  TextDecoderStream,
  TextEncoderStream,
  TransformStream,
  WritableStream,
} from "pihost:runtime/web/streams.js";

function defineHidden(name, value) {
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
}

function defineGlobal(name, value) {
  if (name in globalThis) return;
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
}

let currentDirectory;
// The grep and find tools' searches (js/pi/coding-agent/search-backend.js),
// done in Rust so that rg and fd need not be installed.
defineHidden("__pihostSearch", {
  grep: (searchPath, request) => ops.op_pihost_search_grep(searchPath, request),
  find: (searchPath, request) => ops.op_pihost_search_find(searchPath, request),
});

defineHidden("__pihostCwd", () => {
  currentDirectory ??= ops.op_pihost_cwd();
  return currentDirectory;
});

class ProcessExit extends Error {
  constructor(code) {
    super(`pihost: process.exit(${code ?? 0}) was called; extensions cannot end the host process`);
    this.name = "ProcessExit";
    this.exitCode = code ?? 0;
  }
}

const osInfo = ops.op_pihost_os_info();
const startedAt = performance.now();

function writer(isError) {
  return {
    isTTY: false,
    columns: 80,
    write(chunk) {
      const text = typeof chunk === "string" ? chunk : new Buffer(chunk).toString();
      ops.op_pihost_write(text, isError);
      return true;
    },
  };
}

const process = {
  env: ops.op_pihost_env_snapshot(),
  argv: ["/usr/bin/node", "pihost"],
  execArgv: [],
  execPath: "/usr/bin/node",
  platform: osInfo.platform,
  arch: osInfo.arch,
  pid: osInfo.pid,
  ppid: osInfo.ppid,
  version: "v22.0.0",
  versions: { node: "22.0.0", pihost: "0.1.0" },
  release: { name: "node" },
  exitCode: undefined,
  features: {},
  stdout: writer(false),
  stderr: writer(true),
  // Extensions have no terminal input of their own: a stdin that never
  // delivers, as a terminal nobody types into.
  get stdin() {
    const stdin = new Readable({ read() {} });
    stdin.isTTY = false;
    Object.defineProperty(this, "stdin", { value: stdin, writable: true, configurable: true, enumerable: true });
    return stdin;
  },
  cwd: () => globalThis.__pihostCwd(),
  // The working directory is this runtime's own (relative paths in fs,
  // child_process and path resolve against it); the host process's stays
  // where it is, so one extension cannot move another runtime or the host.
  chdir(directory) {
    if (typeof directory !== "string") {
      const error = new TypeError(`The "directory" argument must be of type string. Received ${typeof directory}`);
      error.code = "ERR_INVALID_ARG_TYPE";
      throw error;
    }
    const from = globalThis.__pihostCwd();
    const target = directory.startsWith("/") ? directory : `${from}/${directory}`;
    let real;
    try {
      real = ops.op_pihost_fs_realpath(target);
      if (!ops.op_pihost_fs_stat(real, true).isDirectory) throw new Error("ENOTDIR: not a directory");
    } catch (cause) {
      const code = /^(E[A-Z]+)/.exec(cause?.message ?? "")?.[1] ?? "ENOENT";
      const text = code === "ENOTDIR" ? "not a directory" : "no such file or directory";
      const error = new Error(`${code}: ${text}, chdir ${from} -> '${directory}'`);
      Object.assign(error, { errno: errnoOf(code), code, syscall: "chdir", path: from, dest: directory });
      throw error;
    }
    currentDirectory = real;
  },
  exit(code) {
    throw new ProcessExit(code);
  },
  nextTick(callback, ...args) {
    queueMicrotask(() => callback(...args));
  },
  hrtime: Object.assign(
    (previous) => {
      const nanoseconds = BigInt(Math.round((performance.now() - startedAt) * 1e6));
      const seconds = Number(nanoseconds / 1_000_000_000n);
      const rest = Number(nanoseconds % 1_000_000_000n);
      if (!previous) return [seconds, rest];
      let deltaSeconds = seconds - previous[0];
      let deltaNanoseconds = rest - previous[1];
      if (deltaNanoseconds < 0) {
        deltaSeconds -= 1;
        deltaNanoseconds += 1e9;
      }
      return [deltaSeconds, deltaNanoseconds];
    },
    { bigint: () => BigInt(Math.round((performance.now() - startedAt) * 1e6)) },
  ),
  uptime: () => (performance.now() - startedAt) / 1000,
  // The engine does not report its heap; rss is the host process's.
  memoryUsage: Object.assign(() => ({ rss: ops.op_pihost_system_load().rss, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }), {
    rss: () => ops.op_pihost_system_load().rss,
  }),
  kill(pid, signal = "SIGTERM") {
    const number = typeof signal === "number" ? signal : SIGNALS[signal];
    if (number === undefined) {
      const error = new TypeError(`Unknown signal: ${signal}`);
      error.code = "ERR_UNKNOWN_SIGNAL";
      throw error;
    }
    try {
      ops.op_pihost_process_kill(pid, number);
    } catch (cause) {
      const code = String(cause?.message ?? cause);
      const error = new Error(`kill ${code}`);
      Object.assign(error, { code, errno: errnoOf(code), syscall: "kill" });
      throw error;
    }
    return true;
  },
  emitWarning(warning) {
    console.warn(typeof warning === "string" ? `Warning: ${warning}` : warning);
  },
  on() {
    return process;
  },
  once() {
    return process;
  },
  off() {
    return process;
  },
  removeListener() {
    return process;
  },
  listeners: () => [],
  getBuiltinModule: () => undefined,
};

// An error nobody catches (a rejected promise nobody awaits, a throwing timer
// callback) is reported as an extension error instead of ending the host;
// which extension caused it is not known here.
function reportUncaught(event, error) {
  ops.op_pihost_report_error({
    extensionPath: "<unknown>",
    event,
    error: error instanceof Error ? error.message : String(error),
    stack: error instanceof Error ? error.stack : undefined,
  });
}

core.setUnhandledPromiseRejectionHandler((_promise, reason) => {
  reportUncaught("unhandledRejection", reason);
  return true;
});

function timer(callback, delay, args, repeat) {
  if (typeof callback !== "function") {
    throw new TypeError(`The "callback" argument must be of type function. Received ${typeof callback}`);
  }
  // The callback is the code of whichever extension set the timer, which
  // names it when the host has to stop the callback.
  const creator = currentOwner();
  const owner = { path: creator?.path ?? "<unknown>", where: "in a timer callback", event: "timer" };
  const guarded = function (...callbackArgs) {
    try {
      return enterExtensionSync(owner, () => callback.apply(this, callbackArgs));
    } catch (error) {
      reportUncaught("uncaughtException", error);
    }
  };
  const handle = core.createTimer(guarded, delay, args, repeat, true);
  adoptTimer(handle);
  handle.ref = () => {
    core.refTimer(handle);
    return handle;
  };
  handle.unref = () => {
    core.unrefTimer(handle);
    return handle;
  };
  handle.hasRef = () => true;
  handle.refresh = () => {
    core.refreshTimer(handle);
    return handle;
  };
  handle[Symbol.toPrimitive] = () => handle._timerId;
  return handle;
}

function clearTimer(handle) {
  if (handle && typeof handle === "object") core.cancelTimer(handle);
}

// The web platform as Node 22 has it. The engine brings its own DOMException,
// atob and btoa; pihost's replace them so that texts and codes are Node's.
setNativeOps(ops);
useNativeUtf8({ encode: (text) => core.encode(text), decode: (bytes) => core.decode(bytes) });
for (const [name, value] of Object.entries({
  DOMException,
  Event,
  EventTarget,
  CustomEvent,
  AbortController,
  AbortSignal,
  URL,
  URLSearchParams,
  atob,
  btoa,
  crypto: webcrypto,
  console,
  fetch,
  Headers,
  Request,
  Response,
  ReadableStream,
  ReadableStreamDefaultReader,
  WritableStream,
  TransformStream,
  TextEncoderStream,
  TextDecoderStream,
  ByteLengthQueuingStrategy,
  CountQueuingStrategy,
})) {
  defineHidden(name, value);
}
defineGlobal("global", globalThis);
defineGlobal("process", process);
defineGlobal("Buffer", Buffer);
defineGlobal("setTimeout", (callback, delay, ...args) => timer(callback, delay, args, false));
defineGlobal("setInterval", (callback, delay, ...args) => timer(callback, delay, args, true));
defineGlobal("setImmediate", (callback, ...args) => timer(callback, 0, args, false));
defineGlobal("clearTimeout", clearTimer);
defineGlobal("clearInterval", clearTimer);
defineGlobal("clearImmediate", clearTimer);
defineGlobal("structuredClone", (value) => core.structuredClone(value));
defineGlobal("TextEncoder", TextEncoder);
defineGlobal("TextDecoder", TextDecoder);

// Libraries sniff the runtime (`typeof Deno`, `globalThis.__bootstrap`) and
// must see Node. pihost reached the engine through ops.js above; the engine's
// own JS captured what it needs at start-up. The QuickJS backend's `__v8x*`
// helpers are looked up by name at run time, so they stay, but out of sight
// of enumeration.
for (const name of ["Deno", "__bootstrap"]) delete globalThis[name];
for (const name of Object.getOwnPropertyNames(globalThis)) {
  if (name.startsWith("__v8x")) {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, name);
    if (descriptor.configurable && descriptor.enumerable) {
      Object.defineProperty(globalThis, name, { ...descriptor, enumerable: false });
    }
  }
}
