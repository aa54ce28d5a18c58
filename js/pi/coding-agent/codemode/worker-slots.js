// How many codemode scripts run at once, as pi bounds them: pi gives each
// script a worker thread from a pool of PI_CODEMODE_MAX_WORKERS (default 2),
// and a script that finds every worker taken waits its turn, in arrival
// order, for at most a minute. pihost's scripts run in sandbox runtimes of
// their own (engine-vm.js), each a thread with a heap of up to 256 MiB, so
// the same bound also keeps a burst of scripts from taking the host's
// memory. A slot is freed when the script's sandbox has actually ended, not
// when its result is known. The count is per runtime: pi's is per process,
// shared by its sessions.

const DEFAULT_WORKERS = 2;

/** How long a script waits for a slot before failing. */
export const WORKER_WAIT_MS = 60_000;

/** PI_CODEMODE_MAX_WORKERS when it is a positive integer, read per call as pi does. */
export function maxWorkers() {
  const value = Number(globalThis.process?.env?.PI_CODEMODE_MAX_WORKERS);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_WORKERS;
}

let running = 0;
const queue = [];

function admit() {
  while (queue.length > 0 && running < maxWorkers()) {
    running += 1;
    queue.shift()();
  }
}

/**
 * Waits for a slot: "reserved" (the caller must hand back the release it
 * gets with it), "aborted" (the signal fired) or "timeout".
 */
export function reserveWorker(signal, timeoutMs) {
  if (signal?.aborted) return Promise.resolve({ outcome: "aborted" });
  return new Promise((resolve) => {
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      running -= 1;
      admit();
    };
    const finish = (outcome) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      const index = queue.indexOf(grant);
      if (index >= 0) queue.splice(index, 1);
      resolve(outcome === "reserved" ? { outcome, release } : { outcome });
    };
    const grant = () => finish("reserved");
    const onAbort = () => finish("aborted");
    const timer = setTimeout(() => finish("timeout"), timeoutMs);
    queue.push(grant);
    signal?.addEventListener("abort", onAbort, { once: true });
    admit();
  });
}
