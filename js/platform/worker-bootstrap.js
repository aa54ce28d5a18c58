// The first module of a worker's runtime (js/platform/worker.js imports it
// before anything else): it runs after pihost's platform bootstrap and
// before pihost's runtime globals, while deno_core's internals are still
// reachable, and turns the platform into a worker's before any of it loads.
import { ops } from "pihost:runtime/ops.js";
import "pihost:platform/bootstrap.js";

export const internals = globalThis.__bootstrap.internals;

/**
 * What the parent asked for (src/platform/workers.rs): `{ threadId, name,
 * specifier, sourceCode, metadata }`, `metadata` being the serialized
 * workerData, environment and options with their transferred ports.
 */
export const start = ops.op_pihost_worker_start();
if (start === null) throw new Error("pihost: js/platform/worker.js runs only in a worker's runtime");

// Read by deno_node's process.ts when node:process first loads: a worker's
// process (no chdir, no umask changes, …).
Object.assign(internals.__nodeBootstrapArgs, { runningOnMainThread: false, workerId: start.threadId });

// process.exit() in a worker ends the worker, never the host: the worker
// says its exit code and its JavaScript stops right there (deno_node's
// process.exit spins after this returns until the interruption lands).
internals.pihostDeno.exit = (code) => {
  ops.op_pihost_worker_exit(Number(code ?? 0) | 0, null);
};
