// The host side of one script run: the tool and global table, the calls in
// flight, the output so far, the deadline and the caller's abort signal, and
// the one outcome that ends the run.
//
// pi runs each script's VM in a worker thread and terminates the worker at
// the deadline. Inside pihost the script runs in a sandbox runtime on a
// thread of its own (engine-vm.js), ended the same way: an ordinary timer
// and the signal's listener end the run whatever the script does. Under
// Node, where pihost's codemode is checked against pi, the script runs in
// pi's QuickJS VM on the calling thread (as pi-codemode's inline sandbox
// does), where a timer cannot fire while the script computes: the VM's
// interrupt poll checks the deadline and the abort signal itself, and the
// run then ends with the same timeout or abort failure pi reports.
import { EngineScriptVm } from "./engine-vm.js";
import { toCodemodeIdentifier } from "./identifiers.js";

/**
 * The VM's heap limit. A runaway script would otherwise grow to wasm32's
 * 4 GiB inside the host's process; past it the script gets
 * `InternalError: out of memory`.
 */
export const CODEMODE_MEMORY_LIMIT_BYTES = 256 * 1024 * 1024;

const messageOf = (error) => (error instanceof Error ? error.message : String(error));

/**
 * What makes a script's VM: pihost's sandbox runtime inside pihost, pi's
 * QuickJS WebAssembly VM elsewhere (under Node, where pihost's codemode is
 * checked against pi). The latter's modules load only then.
 */
async function vmMaker() {
  if (EngineScriptVm.isAvailable()) return (options) => EngineScriptVm.create(options);
  const [{ ScriptVm }, { loadQuickJsModule }] = await Promise.all([import("./script-vm.js"), import("./quickjs-wasm.js")]);
  const module = await loadQuickJsModule();
  return (options) => ScriptVm.create({ ...options, module });
}

/**
 * The prelude encodes what it reports in the same VM as the script, so a
 * script that broke a built-in could make it send undecodable data. Such
 * data ends the run as a sandbox failure rather than a script error.
 */
class BridgeDataError extends Error {}

function decodeJson(json, what) {
  try {
    return JSON.parse(json);
  } catch {
    throw new BridgeDataError(`${what} is not valid JSON`);
  }
}

function decodeStoreWrites(json) {
  const entries = decodeJson(json, "store writes");
  if (!Array.isArray(entries)) throw new BridgeDataError("store writes are not an array");
  const writes = { set: {}, delete: [] };
  for (const entry of entries) {
    const wellFormed =
      Array.isArray(entry) &&
      typeof entry[0] === "string" &&
      (entry.length === 2 ? typeof entry[1] === "string" : entry.length === 1);
    if (!wellFormed) throw new BridgeDataError("store writes contain a malformed entry");
    if (entry.length === 1) writes.delete.push(entry[0]);
    else writes.set[entry[0]] = decodeJson(entry[1], `store value for ${JSON.stringify(entry[0])}`);
  }
  return writes;
}

function decodeScriptError(json) {
  const error = decodeJson(json, "script error");
  if (typeof error !== "object" || error === null) throw new BridgeDataError("script error is not an object");
  const { name, message, stack } = error;
  const optionalText = (value) => value === undefined || typeof value === "string";
  if (typeof message !== "string" || !optionalText(name) || !optionalText(stack)) {
    throw new BridgeDataError("script error is malformed");
  }
  return { kind: "script", name, message, stack };
}

/** The JSON text of each stored value, the form the prelude keeps them in. */
function encodeStore(store) {
  const encoded = {};
  for (const [key, value] of Object.entries(store ?? {})) {
    const json = JSON.stringify(value);
    if (json !== undefined) encoded[key] = json;
  }
  return encoded;
}

class SandboxRun {
  #tools;
  #globals;
  #signal;
  #deadline;
  #timeoutMs;
  #output = [];
  // Host calls in flight, by the prelude's call id.
  #inFlight = new Map();
  #vm;
  #stepping = false;
  #queued = [];
  // Why the interrupt poll stopped the script; it outranks what the VM then reports.
  #interruptedBy;
  #finished = false;
  #timer;
  #settle;
  #outcome;

  constructor({ tools, globals, signal, timeoutMs }) {
    this.#tools = new Map(tools.map((tool) => [tool.name, tool]));
    this.#globals = new Map(globals.map((global) => [global.name, global]));
    this.#signal = signal;
    this.#timeoutMs = timeoutMs;
    this.#deadline = Number.isFinite(timeoutMs) ? performance.now() + timeoutMs : Number.POSITIVE_INFINITY;
    this.#outcome = new Promise((resolve) => {
      this.#settle = resolve;
    });
  }

  async run({ code, store, memoryLimitBytes }) {
    if (Number.isFinite(this.#timeoutMs)) this.#timer = setTimeout(() => this.#finish(this.#timeoutError()), this.#timeoutMs);
    if (this.#signal?.aborted) this.#onAbort();
    else this.#signal?.addEventListener("abort", this.#onAbort, { once: true });
    if (this.#finished) return this.#outcome;

    let createVm;
    try {
      createVm = await vmMaker();
    } catch (error) {
      this.#finish({ kind: "sandbox", message: `Failed to load QuickJS: ${messageOf(error)}` });
      return this.#outcome;
    }
    if (this.#finished) return this.#outcome;

    const scope = {
      tools: [...this.#tools.values()].map((tool) => ({
        name: tool.name,
        jsName: toCodemodeIdentifier(tool.name),
        description: tool.description ?? "",
      })),
      globals: [...this.#globals.values()].map((global) => ({ name: global.name, spread: global.spread === true })),
      store: encodeStore(store),
    };
    let vm;
    try {
      vm = await createVm({
        memoryLimitBytes,
        scope,
        shouldInterrupt: () => this.#shouldInterrupt(),
        // An end reported after the interrupt is the interrupt's doing.
        // pi's VM reports inside a step; the engine's sandbox whenever it likes.
        onMessage: (message) => {
          const ending = message.type === "done" || message.type === "crash";
          const received = ending && this.#interruptedBy ? { type: "interrupted" } : message;
          if (this.#stepping) this.#queued.push(received);
          else if (!this.#finished) this.#receive(received);
        },
      });
    } catch (error) {
      // The deadline can pass while the prelude is evaluated; that is still a timeout.
      this.#finish(this.#interruptedBy ?? { kind: "sandbox", message: messageOf(error) });
      return this.#outcome;
    }
    if (this.#finished) {
      vm.dispose();
      return this.#outcome;
    }
    this.#vm = vm;
    this.#step(() => vm.start(code));
    return this.#outcome;
  }

  #timeoutError() {
    return { kind: "timeout", message: `Execution timed out after ${this.#timeoutMs} ms` };
  }

  #abortError() {
    const reason = this.#signal?.reason;
    return { kind: "aborted", message: reason instanceof Error ? reason.message : "Execution aborted" };
  }

  #onAbort = () => this.#finish(this.#abortError());

  // Polled by QuickJS while the script computes: the only moment a timer or
  // an abort could not otherwise reach it.
  #shouldInterrupt() {
    if (this.#interruptedBy || this.#finished) return true;
    if (this.#signal?.aborted) this.#interruptedBy = this.#abortError();
    else if (performance.now() >= this.#deadline) this.#interruptedBy = this.#timeoutError();
    return this.#interruptedBy !== undefined;
  }

  // Runs one VM step, then acts on what the VM reported during it. Host
  // calls only settle after an await, so a step never starts inside another.
  #step(drive) {
    if (this.#finished) return;
    this.#stepping = true;
    try {
      drive();
    } finally {
      this.#stepping = false;
    }
    const messages = this.#queued.splice(0);
    for (const message of messages) {
      if (this.#finished) break;
      this.#receive(message);
    }
    if (this.#interruptedBy) this.#finish(this.#interruptedBy);
    if (this.#finished) this.#vm?.dispose();
  }

  #receive(message) {
    try {
      switch (message.type) {
        case "output":
          this.#output.push(message.item);
          return;
        case "call":
          if (this.#inFlight.has(message.id)) throw new BridgeDataError(`duplicate call id ${message.id}`);
          void this.#call(message);
          return;
        case "interrupted":
          return this.#finish(this.#interruptedBy);
        case "done":
          if (!message.ok) return this.#finish(decodeScriptError(message.error));
          return this.#finish(undefined, {
            value: message.value === undefined ? undefined : decodeJson(message.value, "return value"),
            storeWrites: decodeStoreWrites(message.writes),
          });
        case "crash":
          return this.#finish({ kind: "sandbox", message: message.message });
      }
    } catch (error) {
      this.#finish({
        kind: "sandbox",
        message:
          error instanceof BridgeDataError
            ? `Sandbox bridge broken: ${error.message}. The script may have modified built-ins such as a prototype's toJSON.`
            : `Sandbox host failed: ${messageOf(error)}`,
      });
    }
  }

  async #call({ id, target, name, args }) {
    const controller = new AbortController();
    this.#inFlight.set(id, controller);
    let ok;
    let payload;
    try {
      const entry = (target === "tool" ? this.#tools : this.#globals).get(name);
      if (!entry) throw new Error(`Unknown ${target} "${name}"`);
      const value = await entry.execute(args === undefined ? undefined : JSON.parse(args), { signal: controller.signal });
      ok = true;
      payload = value === undefined ? undefined : JSON.stringify(value);
    } catch (error) {
      ok = false;
      payload = messageOf(error);
    }
    // Gone when the run ended meanwhile: the VM is disposed or going.
    if (!this.#inFlight.delete(id)) return;
    this.#step(() => this.#vm.resolveCall(id, ok, payload));
  }

  /** Settles once the script's VM has ended (at once if none was made). */
  ended() {
    return this.#vm ? this.#vm.whenEnded() : Promise.resolve();
  }

  #finish(error, success) {
    if (this.#finished) return;
    this.#finished = true;
    clearTimeout(this.#timer);
    this.#signal?.removeEventListener("abort", this.#onAbort);
    for (const controller of this.#inFlight.values()) controller.abort();
    this.#inFlight.clear();
    // Inside a step the VM is still on the stack; #step disposes it afterwards.
    if (!this.#stepping) this.#vm?.dispose();
    this.#settle(
      error
        ? { ok: false, error, output: this.#output }
        : { ok: true, value: success.value, output: this.#output, storeWrites: success.storeWrites },
    );
  }
}

/**
 * Runs `code` as the body of an async function in a fresh VM. Never rejects
 * for a failing script: the outcome is `{ ok: true, value, output,
 * storeWrites }` or `{ ok: false, error: { kind, message, name?, stack? },
 * output }`, `kind` one of "script", "timeout", "aborted", "sandbox".
 *
 * `tools` are `{ name, description, execute(args, { signal }) }`, `globals`
 * `{ name, spread, execute(args, { signal }) }` (`a.b` names group under `a`).
 * `onEnded` is called once the script's VM is gone, which may be after the
 * outcome (a terminated sandbox takes a moment to end).
 */
export function runSandboxedScript({ code, tools = [], globals = [], store, timeoutMs, signal, memoryLimitBytes, onEnded }) {
  const run = new SandboxRun({ tools, globals, signal, timeoutMs });
  const outcome = run.run({ code, store, memoryLimitBytes });
  if (onEnded) void outcome.then(() => run.ended()).then(onEnded, onEnded);
  return outcome;
}
