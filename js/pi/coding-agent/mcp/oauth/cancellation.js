// A sign-in the user (or the session's end) cancels: whatever step it is
// in fails with McpSignInCancelledError, so callers report it as such
// rather than as the aborted request's error.
import { McpSignInCancelledError } from "./errors.js";

/** Runs `fn`; an abort of `signal` (before or during) is reported as McpSignInCancelledError. */
export async function cancellable(signal, fn) {
  if (signal?.aborted) throw new McpSignInCancelledError();
  try {
    return await fn();
  } catch (error) {
    // Aborted requests fail with the signal's reason: they are the cancellation.
    if (signal?.aborted) throw new McpSignInCancelledError();
    throw error;
  }
}

/** `promise`, or McpSignInCancelledError once `signal` aborts; `promise` keeps running (its tokens must be saved). */
export function untilAborted(signal, promise) {
  if (!signal) return promise;
  return new Promise((resolve, reject) => {
    const abort = () => reject(new McpSignInCancelledError());
    signal.addEventListener("abort", abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

