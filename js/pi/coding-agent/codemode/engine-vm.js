// One script in a sandbox runtime of pihost's own (src/ops/codemode_sandbox.rs):
// a runtime on a thread of its own holding nothing but the language, the
// prelude and the script (sandbox-driver.js). It is what scripts run in
// inside pihost, where the engine cannot host pi's QuickJS WebAssembly VM
// (docs/engine-notes.md, note 46); script-vm.js is that VM, which the
// checks against pi use under Node.
//
// Unlike script-vm.js the VM runs beside the caller: start() and
// resolveCall() hand it work and return, and its messages arrive later
// through `onMessage`. Ending it (dispose) terminates it wherever it is, so
// the caller's timers and abort signal reach a script that computes.
import { ops } from "../../../runtime/ops.js";
import { PRELUDE_FILE, PRELUDE_SOURCE } from "./prelude.js";
import { SCRIPT_FILE, wrapScript } from "./script-function.js";

export class EngineScriptVm {
  #id;
  #memoryLimitBytes;
  #scope;
  #onMessage;
  #disposed = false;
  #ended;
  #markEnded;

  /** Whether this engine has the sandbox (pihost does; Node does not). */
  static isAvailable() {
    return typeof ops.op_pihost_codemode_open === "function";
  }

  /** `scope` as script-vm.js takes it; the prelude runs when the script starts. */
  static async create({ memoryLimitBytes, scope, onMessage }) {
    return new EngineScriptVm(memoryLimitBytes, scope, onMessage);
  }

  constructor(memoryLimitBytes, scope, onMessage) {
    this.#memoryLimitBytes = memoryLimitBytes;
    this.#scope = scope;
    this.#onMessage = onMessage;
    this.#ended = new Promise((resolve) => {
      this.#markEnded = resolve;
    });
  }

  /** Settles once the sandbox's thread has ended (at once if it never started). */
  whenEnded() {
    return this.#ended;
  }

  /** Starts the sandbox with the prelude and the script; a syntax error ends it as a failed script. */
  start(code) {
    if (this.#disposed) return;
    const job = {
      prelude: PRELUDE_SOURCE,
      preludeFile: PRELUDE_FILE,
      script: wrapScript(code),
      scriptFile: SCRIPT_FILE,
      scope: JSON.stringify(this.#scope),
    };
    try {
      this.#id = ops.op_pihost_codemode_open(JSON.stringify(job), this.#memoryLimitBytes);
    } catch (error) {
      this.#markEnded();
      this.#onMessage({ type: "crash", message: error instanceof Error ? error.message : String(error) });
      return;
    }
    void this.#readMessages();
  }

  /** Settles the script's host call `id` with a JSON payload (or an error message). */
  resolveCall(id, ok, payload) {
    if (this.#disposed || this.#id === undefined) return;
    ops.op_pihost_codemode_answer(this.#id, JSON.stringify({ id, ok, payload }));
  }

  dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    if (this.#id === undefined) this.#markEnded();
    else ops.op_pihost_codemode_close(this.#id);
  }

  // Reads until the sandbox's thread ends, which a disposed one does soon.
  async #readMessages() {
    for (;;) {
      const text = await ops.op_pihost_codemode_next(this.#id);
      if (text === null) this.#markEnded();
      if (this.#disposed) {
        if (text === null) return;
        continue;
      }
      if (text === null) {
        this.#onMessage({ type: "crash", message: "The sandbox ended before the script did" });
        return;
      }
      let message;
      try {
        message = JSON.parse(text);
      } catch {
        message = { type: "crash", message: "The sandbox sent a message that is not JSON" };
      }
      this.#onMessage(message);
    }
  }
}
