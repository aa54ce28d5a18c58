// One QuickJS VM running one script, driven step by step from the calling
// thread. A step is synchronous: start the script, or hand it one host
// result, then run its promise jobs until it waits on the host again.
//
// Everything the VM reports (tool calls, output, its end) arrives through
// `onMessage` while a step runs. The receiver must not drive the VM from
// there; it acts on the messages once the step has returned.
//
// QuickJS polls `shouldInterrupt` while script code runs; a true answer throws
// an error the script cannot catch. QuickJS counts operations between polls,
// so a script such as `while (true) await null`, whose every turn is a
// separate promise job of a few operations, would run for long between them:
// the job loop polls on its own every few jobs.
import { JSException, QuickJS } from "../../../vendor/quickjs-wasi/index.js";
import { PRELUDE_FILE, PRELUDE_SOURCE } from "./prelude.js";
import { SCRIPT_FILE, wrapScript } from "./script-function.js";

const JOBS_PER_INTERRUPT_POLL = 50;
/**
 * QuickJS's own stack limit. The VM runs on the calling thread here, so the
 * limit must trip well before deep recursion exhausts the host's native stack.
 */
const STACK_LIMIT_BYTES = 256 * 1024;

/**
 * QuickJS writes engine diagnostics to stdout and stderr, which belong to
 * the host application (a TUI, say). Swallowed; reporting every byte as
 * written keeps libc from retrying.
 */
const silentStdio = (memory) => ({
  fd_write(_fd, iovecs, iovecCount, writtenOut) {
    const view = new DataView(memory.buffer);
    let total = 0;
    for (let index = 0; index < iovecCount; index++) total += view.getUint32(iovecs + index * 8 + 4, true);
    view.setUint32(writtenOut, total, true);
    return 0;
  },
});

/** "Name: message" of an engine error, as the host reports crashes. */
const describeCrash = (error) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/** A compile error as the prelude would describe a thrown one: `{ name, message, stack }` JSON. */
function compileErrorJson(error) {
  const head = error.message ? `${error.name}: ${error.message}` : error.name;
  const frames = error.stack?.trimEnd();
  return JSON.stringify({ name: error.name, message: error.message, stack: frames ? `${head}\n${frames}` : head });
}

/** Turns one bridge call from the prelude into a message for the host. */
function bridgeMessage(kind, a, b, c) {
  const text = (handle) => (handle === undefined || handle.isUndefined ? undefined : handle.toString());
  switch (kind) {
    case "call":
    case "global":
      return { type: "call", target: kind === "call" ? "tool" : "global", id: a.toNumber(), name: b.toString(), args: text(c) };
    case "output": {
      const outputKind = a.toString();
      if (outputKind === "image") return { type: "output", item: { type: "image", data: b.toString(), mimeType: c.toString() } };
      return { type: "output", item: outputKind === "console" ? { type: "text", text: b.toString(), console: true } : { type: "text", text: b.toString() } };
    }
    case "done":
      return a.toBoolean()
        ? { type: "done", ok: true, value: text(b), writes: c.toString() }
        : { type: "done", ok: false, error: b.toString() };
    default:
      return undefined;
  }
}

export class ScriptVm {
  #vm;
  #shouldInterrupt;
  #onMessage;
  #driver;
  #disposed = false;

  /**
   * A fresh VM with the prelude evaluated. `scope` is what the prelude
   * builds its globals from: `{ tools: [{ name, jsName, description }],
   * globals: [{ name, spread }], store: { key: json } }`.
   */
  static async create({ module, memoryLimitBytes, scope, shouldInterrupt, onMessage }) {
    const vm = await QuickJS.create({
      wasm: module,
      memoryLimit: memoryLimitBytes,
      // Unlimited, deep recursion would overflow the wasm stack and trap instead of throwing a RangeError.
      maxStackSize: STACK_LIMIT_BYTES,
      interruptHandler: shouldInterrupt,
      wasi: silentStdio,
    });
    return new ScriptVm(vm, scope, shouldInterrupt, onMessage);
  }

  constructor(vm, scope, shouldInterrupt, onMessage) {
    this.#vm = vm;
    this.#shouldInterrupt = shouldInterrupt;
    this.#onMessage = onMessage;
    try {
      const bridge = vm.newFunction("bridge", (kind, a, b, c) => {
        const message = bridgeMessage(kind.toString(), a, b, c);
        if (message) onMessage(message);
        return vm.undefined;
      });
      // Lives as long as the VM, which is disposed as a whole.
      this.#driver = vm.withScope((handles) =>
        handles.escape(
          vm.callFunction(
            vm.evalCode(PRELUDE_SOURCE, PRELUDE_FILE),
            vm.undefined,
            bridge,
            vm.newString(JSON.stringify(scope.tools)),
            vm.newString(JSON.stringify(scope.globals)),
            vm.newString(JSON.stringify(scope.store)),
          ),
        ),
      );
    } catch (error) {
      vm.dispose();
      throw error;
    }
  }

  /** Compiles and starts the script; a syntax error ends it as a failed script. */
  start(code) {
    this.#step(() => {
      let scriptFunction;
      try {
        scriptFunction = this.#vm.evalCode(wrapScript(code), SCRIPT_FILE);
      } catch (error) {
        if (!(error instanceof JSException)) throw error;
        this.#onMessage({ type: "done", ok: false, error: compileErrorJson(error) });
        return false;
      }
      this.#vm.withScope(() => this.#vm.callFunction(this.#driver.getProp("start"), this.#driver, scriptFunction));
      scriptFunction.dispose();
      return true;
    });
  }

  /** Settles the script's host call `id` with a JSON payload (or an error message). */
  resolveCall(id, ok, payload) {
    this.#step(() => {
      const vm = this.#vm;
      vm.withScope(() =>
        vm.callFunction(
          this.#driver.getProp("resolveCall"),
          this.#driver,
          vm.newNumber(id),
          ok ? vm.true : vm.false,
          payload === undefined ? vm.undefined : vm.newString(payload),
        ),
      );
      return true;
    });
  }

  dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#vm.dispose();
  }

  /** The VM runs on the calling thread: it has ended once disposed. */
  whenEnded() {
    return Promise.resolve();
  }

  // A failure inside a step is reported as a crash, never thrown to the host.
  #step(run) {
    if (this.#disposed) return;
    try {
      if (run()) this.#drain();
    } catch (error) {
      this.#onMessage({ type: "crash", message: describeCrash(error) });
    }
  }

  // Runs promise jobs one by one (executePendingJobs cannot be interrupted
  // between jobs), then fails a script left waiting on nothing.
  #drain() {
    const engine = this.#vm._getExports();
    let jobs = 0;
    while (engine.qjs_is_job_pending()) {
      // Only errors the script cannot catch, such as an interrupt, fail a job.
      if (engine.qjs_execute_pending_job() < 0) throw new Error("Promise job failed");
      jobs += 1;
      if (jobs % JOBS_PER_INTERRUPT_POLL === 0 && this.#shouldInterrupt()) throw new Error("Execution interrupted");
    }
    this.#vm.withScope(() => this.#vm.callFunction(this.#driver.getProp("checkStalled"), this.#driver));
  }
}
