// The entry module of a worker's runtime (src/platform/workers.rs): the same
// platform and globals as the main runtime, then what a Node worker has on
// top — `parentPort`, `workerData`, `isMainThread === false`, its messages —
// and then the worker's own code: its file, loaded by pihost's module loader
// as an extension's is, or its `eval` source, run as Node runs it.
//
// The thread calls three exports: `start()` once, `keepsAlive()` whenever the
// event loop runs dry (a worker stays while something listens for messages),
// and `finish()` when it ends by itself (its exit code).
import { internals, start as facts } from "pihost:platform/worker-bootstrap.js";
import "pihost:runtime/globals.js";
import { core, ops } from "pihost:runtime/ops.js";
import { nodeModule } from "pihost:platform/bootstrap.js";
import { createRequire } from "pihost:runtime/module-globals.js";

const messagePort = core.loadExtScript("ext:deno_web/13_message_port.js");
const { MessageEvent } = core.loadExtScript("ext:deno_web/02_event.js");

let closing = false;

// --- The worker's end of its parent's channel -------------------------------
// deno_node's parentPort adds its listeners here (through the global
// addEventListener it captures while it initializes). Messages that arrive
// while nobody listens wait, as on a Node MessagePort that has not started.

const listeners = { __proto__: null };
const waiting = [];

function listenerCount(type) {
  return listeners[type]?.length ?? 0;
}

function addEventListener(type, callback, options) {
  if (callback === null || callback === undefined) return;
  const once = typeof options === "object" && options !== null && Boolean(options.once);
  const list = (listeners[type] ??= []);
  if (list.some((entry) => entry.callback === callback)) return;
  list.push({ callback, once });
  if (type === "message" && waiting.length > 0) queueMicrotask(deliverWaiting);
}

function removeEventListener(type, callback) {
  const list = listeners[type];
  if (!list) return;
  const index = list.findIndex((entry) => entry.callback === callback);
  if (index !== -1) list.splice(index, 1);
}

/** Calls the listeners of `event.type`; one that throws is an uncaught error. */
function dispatch(event) {
  const list = listeners[event.type];
  if (!list) return;
  let stopped = false;
  // deno_node's stdin forwarding stops the other listeners for its messages.
  Object.defineProperty(event, "stopImmediatePropagation", {
    __proto__: null,
    value: () => {
      stopped = true;
    },
  });
  for (const entry of [...list]) {
    if (stopped || closing) return;
    if (!list.includes(entry)) continue;
    if (entry.once) removeEventListener(event.type, entry.callback);
    try {
      if (typeof entry.callback === "function") entry.callback(event);
      else entry.callback.handleEvent(event);
    } catch (error) {
      uncaught(error);
    }
  }
}

function deliverWaiting() {
  while (waiting.length > 0 && listenerCount("message") > 0 && !closing) dispatch(waiting.shift());
}

function arrived(data) {
  let message;
  let transferables;
  try {
    [message, transferables] = messagePort.deserializeJsMessageData(data);
  } catch (error) {
    dispatch(new MessageEvent("messageerror", { data: error }));
    return;
  }
  const ports = transferables.filter((value) =>
    Object.prototype.isPrototypeOf.call(messagePort.MessagePortPrototype, value),
  );
  waiting.push(new MessageEvent("message", { data: message, ports }));
  deliverWaiting();
}

/** Receives the parent's messages for as long as the worker runs. */
async function receiveMessages() {
  while (!closing) {
    const next = ops.op_pihost_worker_recv_message();
    // Waiting for messages does not keep the worker alive by itself:
    // keepsAlive() decides when the event loop runs dry.
    core.unrefOpPromise(next);
    const data = await next;
    if (data === null) return;
    arrived(data);
    // A burst already queued is taken without a round trip per message,
    // each still delivered on its own turn.
    for (let taken = 0; taken < 1000 && !closing; taken += 1) {
      const more = ops.op_pihost_worker_recv_message_sync();
      if (more === null) break;
      await new Promise((resolve) => queueMicrotask(resolve));
      arrived(more);
    }
  }
}

function dataCloneError(message) {
  throw new DOMException(message, "DataCloneError");
}

function postMessage(message, transferOrOptions) {
  if (transferOrOptions === undefined || transferOrOptions === null) {
    if (messagePort.isUncloneable(message)) dataCloneError("Cannot clone object of unsupported type.");
    ops.op_pihost_worker_post_message_raw(messagePort.serializeMessageData(message, dataCloneError));
    return;
  }
  const transfer =
    typeof transferOrOptions[Symbol.iterator] === "function"
      ? [...transferOrOptions]
      : [...(transferOrOptions.transfer ?? [])];
  ops.op_pihost_worker_post_message(messagePort.serializeJsMessageData(message, transfer));
}

// --- Ending ------------------------------------------------------------------

function processObject() {
  return nodeModule("process").default;
}

function describe(error) {
  if (error !== null && typeof error === "object") {
    return { name: String(error.name ?? "Error"), message: String(error.message ?? error) };
  }
  return { name: "Error", message: String(error) };
}

/** An error nobody caught ends the worker, as in Node: `'exit'` (code 1), then the parent's `'error'`. */
function fail(error) {
  if (closing) return;
  try {
    const process = processObject();
    process.exitCode = 1;
    if (!process._exiting) {
      process._exiting = true;
      process.emit("exit", 1);
    }
  } catch {
    // An 'exit' listener that throws changes nothing: the worker is ending.
  }
  closing = true;
  ops.op_pihost_worker_exit(1, describe(error));
}

/** As Node: the worker's own `process` listeners first, else the worker ends. */
function uncaught(error, origin = "uncaughtException", promise = undefined) {
  if (closing) return;
  let process;
  try {
    process = processObject();
  } catch {
    // node:process did not load: nobody can be listening.
  }
  try {
    if (origin === "unhandledRejection" && process?.listenerCount("unhandledRejection") > 0) {
      process.emit("unhandledRejection", error, promise);
      return;
    }
    if (process?.listenerCount("uncaughtException") > 0) {
      process.emit("uncaughtException", error, origin);
      return;
    }
  } catch (listenerError) {
    fail(listenerError);
    return;
  }
  fail(error);
}

/** Whether the worker must keep running once its event loop is idle. */
export function keepsAlive() {
  if (closing) return false;
  const listening = listenerCount("message") > 0 && !globalThis[messagePort.unrefParentPort];
  return listening || messagePort.refedMessagePortsCount > 0;
}

/** The worker ran out of work: its `'exit'` listeners run; answers its exit code. */
export function finish() {
  closing = true;
  try {
    const process = processObject();
    if (!process._exiting) {
      process._exiting = true;
      process.emit("exit", Number(process.exitCode ?? 0) | 0);
    }
    return Number(process.exitCode ?? 0) | 0;
  } catch {
    return 1;
  }
}

// --- Starting ----------------------------------------------------------------

/**
 * Node's worker bootstrap: node:process as a worker's, then deno_node's
 * worker_threads initialized with what the parent sent, over this
 * runtime's channel.
 */
function initializeWorkerThreads() {
  const process = processObject();
  const scripts = ops.op_pihost_node_modules();
  // The script itself, not nodeModule("worker_threads"): the namespace
  // nodeModule() keeps is a copy, which must be taken after the
  // initialization has set parentPort, workerData and threadId.
  core.loadExtScript(scripts.worker_threads);
  const borrowed = { postMessage, addEventListener, removeEventListener };
  for (const [name, value] of Object.entries(borrowed)) {
    Object.defineProperty(globalThis, name, { __proto__: null, value, configurable: true, writable: true, enumerable: false });
  }
  const metadata = facts.metadata ? messagePort.deserializeJsMessageData(facts.metadata) : undefined;
  internals.__initWorkerThreads(false, facts.threadId, metadata, null);
  // A Node worker's global has no postMessage (libraries take one for a web
  // worker's); parentPort keeps what it captured. The listener functions
  // stay, out of enumeration: deno_node's process adds and removes its
  // uncaught-error listener on the global scope whenever 'exit' or
  // 'uncaughtException' listeners change.
  delete globalThis.postMessage;
  const onmessage = Object.getOwnPropertyDescriptor(globalThis, "onmessage");
  if (onmessage) {
    delete globalThis.onmessage;
    const { parentPort } = nodeModule("worker_threads");
    Object.defineProperty(parentPort, "onmessage", {
      __proto__: null,
      get: onmessage.get,
      set: onmessage.set,
      configurable: true,
      enumerable: true,
    });
  }
  process.argv[1] = scriptPath();
}

function scriptPath() {
  if (facts.sourceCode !== null) return "[worker eval]";
  if (facts.specifier.startsWith("file:")) return nodeModule("url").fileURLToPath(facts.specifier);
  return facts.specifier;
}

/**
 * What deno_node's Worker puts before `eval` source: Deno's own CommonJS
 * variables (an absolute `__filename`, a bare `module`), which would hide
 * Node's below.
 */
const DENO_EVAL_PROLOGUE =
  /^var __filename = .*;\nvar __dirname = .*;\nvar module = \{ exports: \{\} \};\nvar exports = module\.exports;\n/;

/** `eval: true` source runs as Node runs it: a sloppy script with CommonJS globals. */
function runSource(source) {
  source = source.replace(DENO_EVAL_PROLOGUE, "");
  const process = processObject();
  const require = createRequire(`${process.cwd()}/[worker eval]`);
  const module = { id: "[worker eval]", filename: "[worker eval]", exports: {}, loaded: false, children: [], paths: [] };
  module.require = require;
  Object.assign(globalThis, { module, exports: module.exports, require, __filename: "[worker eval]", __dirname: "." });
  (0, eval)(`${source}\n//# sourceURL=[worker eval]`);
}

/** The worker's file, as an extension's is loaded. */
async function importMain(specifier) {
  try {
    await import(specifier);
  } catch (error) {
    // deno_core rejects a dynamic import the loader cannot resolve with a
    // TypeError; Node's worker fails with an Error coded MODULE_NOT_FOUND.
    if (error?.name === "TypeError" && String(error.message).startsWith("Cannot find module ")) {
      const notFound = new Error(error.message);
      notFound.code = "MODULE_NOT_FOUND";
      throw notFound;
    }
    throw error;
  }
}

export async function start() {
  core.setReportExceptionCallback((error) => uncaught(error));
  core.setUnhandledPromiseRejectionHandler((promise, reason) => {
    uncaught(reason, "unhandledRejection", promise);
    return true;
  });
  try {
    initializeWorkerThreads();
    receiveMessages().catch(uncaught);
    if (facts.sourceCode !== null) runSource(facts.sourceCode);
    else await importMain(facts.specifier);
  } catch (error) {
    fail(error);
  }
}
