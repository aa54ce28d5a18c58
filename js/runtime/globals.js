// The Node globals extensions cannot live without, installed before any
// extension runs: process, Buffer, timers, structuredClone, TextEncoder and
// TextDecoder, `global`. The complete web and Node layer is a later step.
import { core, ops } from "pihost:runtime/ops.js";
import { Buffer } from "pihost:node/buffer.js";

function defineHidden(name, value) {
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
}

function defineGlobal(name, value) {
  if (name in globalThis) return;
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
}

let currentDirectory;
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
      core.print(text, isError);
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
  ppid: 0,
  version: "v22.0.0",
  versions: { node: "22.0.0", pihost: "0.1.0" },
  release: { name: "node" },
  exitCode: undefined,
  features: {},
  stdout: writer(false),
  stderr: writer(true),
  cwd: () => globalThis.__pihostCwd(),
  chdir(directory) {
    throw new Error(`pihost: process.chdir(${JSON.stringify(directory)}) is not supported yet`);
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
  memoryUsage: () => ({ rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }),
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
  const guarded = function (...callbackArgs) {
    try {
      return callback.apply(this, callbackArgs);
    } catch (error) {
      reportUncaught("uncaughtException", error);
    }
  };
  const handle = core.createTimer(guarded, delay, args, repeat, true);
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

class TextEncoder {
  get encoding() {
    return "utf-8";
  }
  encode(text = "") {
    return core.encode(String(text));
  }
}

class TextDecoder {
  constructor(encoding = "utf-8") {
    this.encoding = String(encoding).toLowerCase();
  }
  decode(bytes) {
    if (bytes === undefined) return "";
    const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(ArrayBuffer.isView(bytes) ? bytes.buffer : bytes);
    return core.decode(view);
  }
}

// Enough of AbortController for tool signals and pi.exec; the full
// EventTarget family comes with the Node platform layer.
class AbortSignal {
  #listeners = [];
  aborted = false;
  reason = undefined;
  onabort = null;
  addEventListener(type, listener, options) {
    if (type !== "abort" || typeof listener !== "function") return;
    this.#listeners.push({ listener, once: Boolean(options?.once) });
  }
  removeEventListener(type, listener) {
    if (type !== "abort") return;
    this.#listeners = this.#listeners.filter((entry) => entry.listener !== listener);
  }
  throwIfAborted() {
    if (this.aborted) throw this.reason;
  }
  static abort(reason) {
    const controller = new AbortController();
    controller.abort(reason);
    return controller.signal;
  }
  _abort(reason) {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason ?? Object.assign(new Error("This operation was aborted"), { name: "AbortError" });
    const event = { type: "abort", target: this };
    this.onabort?.(event);
    for (const { listener } of this.#listeners.splice(0)) listener.call(this, event);
  }
}

class AbortController {
  signal = new AbortSignal();
  abort(reason) {
    this.signal._abort(reason);
  }
}

defineGlobal("AbortController", AbortController);
defineGlobal("AbortSignal", AbortSignal);
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
