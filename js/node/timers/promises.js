// node:timers/promises over the global timers. Invalid arguments reject
// rather than throw, as in Node.
import { AbortError, invalidArgType, isAbortSignal } from "../internal/errors.js";

// Returns the validation error instead of throwing it so that callers can
// reject with it.
function checkOptions(options) {
  if (options === null || typeof options !== "object") return invalidArgType("options", "of type object", options);
  const { signal, ref } = options;
  if (signal !== undefined && !isAbortSignal(signal)) {
    return invalidArgType("options.signal", "an instance of AbortSignal", signal);
  }
  if (ref !== undefined && typeof ref !== "boolean") return invalidArgType("options.ref", "of type boolean", ref);
  return undefined;
}

function abortErrorFor(signal) {
  return new AbortError(undefined, { cause: signal.reason });
}

function schedule(start, cancel, value, options) {
  const invalid = checkOptions(options);
  if (invalid) return Promise.reject(invalid);
  const { signal, ref = true } = options;
  if (signal?.aborted) return Promise.reject(abortErrorFor(signal));
  return new Promise((resolve, reject) => {
    let onAbort;
    const handle = start(() => {
      if (signal) signal.removeEventListener("abort", onAbort);
      resolve(value);
    });
    if (!ref) handle?.unref?.();
    if (signal) {
      onAbort = () => {
        cancel(handle);
        reject(abortErrorFor(signal));
      };
      signal.addEventListener("abort", onAbort, { once: true });
    }
  });
}

function checkDelay(delay) {
  if (delay !== undefined && typeof delay !== "number") return invalidArgType("delay", "of type number", delay);
  return undefined;
}

export function setTimeout(delay, value, options = {}) {
  const invalid = checkDelay(delay);
  if (invalid) return Promise.reject(invalid);
  return schedule(
    (callback) => globalThis.setTimeout(callback, delay),
    (handle) => globalThis.clearTimeout(handle),
    value,
    options,
  );
}

export function setImmediate(value, options = {}) {
  return schedule(
    (callback) => globalThis.setImmediate(callback),
    (handle) => globalThis.clearImmediate(handle),
    value,
    options,
  );
}

/** Yields `value` every `delay` ms; ticks that pass unconsumed are queued. */
export async function* setInterval(delay, value, options = {}) {
  const invalid = checkDelay(delay) ?? checkOptions(options);
  if (invalid) throw invalid;
  const { signal, ref = true } = options;
  if (signal?.aborted) throw abortErrorFor(signal);
  let pendingTicks = 0;
  let wake;
  let aborted = false;
  const handle = globalThis.setInterval(() => {
    pendingTicks++;
    wake?.();
  }, delay);
  if (!ref) handle?.unref?.();
  const onAbort = () => {
    aborted = true;
    wake?.();
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    while (true) {
      if (pendingTicks === 0 && !aborted) await new Promise((resolve) => (wake = resolve));
      wake = undefined;
      if (aborted) throw abortErrorFor(signal);
      pendingTicks--;
      yield value;
    }
  } finally {
    globalThis.clearInterval(handle);
    signal?.removeEventListener("abort", onAbort);
  }
}

class Scheduler {
  /** Resolves after `delay` ms; the same as setTimeout(delay, undefined, options). */
  wait(delay, options) {
    return setTimeout(delay, undefined, options);
  }

  /** Gives other work a turn; the same as setImmediate(). */
  yield() {
    return setImmediate();
  }
}

export const scheduler = new Scheduler();

export default { setTimeout, setImmediate, setInterval, scheduler };
