// The factories return a tool definition as the plain agent tool, wrapped
// the same way pihost wraps any registered tool (js/runtime/tool-wrapper.js).
export { wrapToolDefinition } from "../../../runtime/tool-wrapper.js";

export const abortError = () => new Error("Operation aborted");

/** `start()`'s result, unless `signal` aborts first: then pi's "Operation aborted". */
export async function untilAborted(signal, start) {
  let onAbort;
  const aborted = new Promise((_, reject) => {
    onAbort = () => reject(abortError());
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  aborted.catch(() => {});
  try {
    return await Promise.race([start(), aborted]);
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}
