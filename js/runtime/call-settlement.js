// How a call from Rust that answers with a promise tells Rust its outcome:
// through one op, with a call number, instead of deno_core watching the
// promise. deno_core's watch makes two native functions per call, and the
// engine keeps every native function it was ever given in a table that its
// 16-bit index outgrows after some tens of thousands of calls; then a
// settled call runs the wrong function or none (docs/engine-notes.md, note
// 45). The closures here are plain JavaScript, which the table never sees.
import { ops } from "pihost:runtime/ops.js";
import { ObjectFreeze, ObjectGetPrototypeOf, PromisePrototypeThen, PromiseResolve } from "pihost:runtime/primordials.js";

/** What a call answers while its promise is pending; Rust then waits for the op. */
export const CALL_PENDING = ObjectFreeze({ __proto__: null });

const NativePromisePrototype = ObjectGetPrototypeOf(PromiseResolve());

/**
 * `fn` as Rust calls it: `(argument, callId, sessionId)`, `fn` getting the
 * argument and the session (undefined for the runtime's first session), a
 * promise's outcome reported by `op_pihost_call_settled`.
 */
export function reportingCall(fn) {
  return (argument, callId, sessionId) => {
    const result = fn(argument, sessionId);
    if (typeof result !== "object" || result === null || typeof result.then !== "function") return result;
    const promise = ObjectGetPrototypeOf(result) === NativePromisePrototype ? result : PromiseResolve(result);
    PromisePrototypeThen(
      promise,
      (value) => ops.op_pihost_call_settled(callId, true, value),
      (error) => ops.op_pihost_call_settled(callId, false, error),
    );
    return CALL_PENDING;
  };
}
