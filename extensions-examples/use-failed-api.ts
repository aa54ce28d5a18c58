/**
 * use-failed-api.ts — what is left of a failed extension.
 *
 * Demonstrates, together with throwing-factory.ts and events.ts (both loaded
 * earlier in the examples folder):
 *  - the `pi` object of an extension whose factory threw is dead: calling it
 *    throws `Extension "<path>" failed to load and its API is no longer active.`
 *  - event-bus listeners added while that extension was loading were removed,
 *    while the listener of the successfully loaded events.ts still runs:
 *    emitting "examples:ping" reaches "events" only. Emit is synchronous, so
 *    the log can be read right after it.
 * Loaded on its own, it reports that nothing was stashed and nobody listened.
 *
 * Checklist: A6 (failed API inactive; loading-time event-bus listeners
 * discarded), R6 (event bus emit is synchronous across extensions).
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

const FAILED_API_KEY = Symbol.for("pihost-examples.failed-api");
const PING_LOG_KEY = Symbol.for("pihost-examples.ping-log");

export default function useFailedApi(pi: ExtensionAPI) {
  const store = globalThis as Record<symbol, unknown>;

  const failedApi = store[FAILED_API_KEY] as ExtensionAPI | undefined;
  let failedApiText = "no failed extension API was stashed";
  if (failedApi) {
    try {
      failedApi.registerCommand("registered-through-dead-api", { handler: async () => {} });
      failedApiText = "the failed extension's API still accepted a registration";
    } catch (error) {
      failedApiText = error instanceof Error ? error.message : String(error);
    }
  }
  pi.registerCommand("failed-api-call", {
    description: failedApiText,
    handler: async () => {},
  });

  const before = ((store[PING_LOG_KEY] as string[] | undefined) ?? []).length;
  pi.events.emit("examples:ping", { from: "use-failed-api" });
  const reached = ((store[PING_LOG_KEY] as string[] | undefined) ?? []).slice(before);
  pi.registerCommand("event-bus-ping", {
    description: `examples:ping reached: ${reached.length > 0 ? reached.join(", ") : "nobody"}`,
    handler: async () => {},
  });
}
