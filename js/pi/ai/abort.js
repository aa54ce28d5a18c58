// Waiting on an operation under an optional abort signal, as pi-ai's public
// async operations do: the wait ends when the signal aborts, while the
// operation itself runs on and its late failure is swallowed.

/** The caller's signal, or a fresh one that never aborts. */
export function operationSignal(signal) {
  return signal ?? new AbortController().signal;
}

function abortReason(signal) {
  if (signal.reason !== undefined) return signal.reason;
  const error = new Error("The operation was aborted");
  error.name = "AbortError";
  return error;
}

/** Settles as `operation` does, or rejects with the signal's reason once it aborts first. */
export function raceWithAbortSignal(operation, signal) {
  if (signal.aborted) {
    operation.catch(() => {});
    return Promise.reject(abortReason(signal));
  }
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (finish, value) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      finish(value);
    };
    const onAbort = () => settle(reject, abortReason(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    operation.then(
      (value) => settle(resolve, value),
      (error) => settle(reject, error),
    );
    if (signal.aborted) onAbort();
  });
}
