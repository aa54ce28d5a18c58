/**
 * events.ts — event subscriptions and unsubscribing during load.
 *
 * Demonstrates: several `pi.on` subscriptions, two on the same event; `on`
 * returns an unsubscribe function: unsubscribing the only handler of an event
 * removes that event's key, unsubscribing one of two leaves one, and calling
 * an unsubscribe function a second time changes nothing. Expected handler
 * counts: context 1, input 1, session_start 2, tool_call 1, tool_result 1,
 * turn_end 1 (no agent_end key). It also listens on the cross-extension event
 * bus channel "examples:ping" (see use-failed-api.ts).
 *
 * Checklist: A1, A5 (unsubscribe; last handler removes the key), R6 (event bus
 * listener registered during load survives a successful load).
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

const PING_LOG_KEY = Symbol.for("pihost-examples.ping-log");

function pingLog(): string[] {
  const store = globalThis as Record<symbol, string[] | undefined>;
  store[PING_LOG_KEY] ??= [];
  return store[PING_LOG_KEY]!;
}

export default function events(pi: ExtensionAPI) {
  let sessionStarts = 0;

  pi.on("session_start", async () => {
    sessionStarts++;
  });
  pi.on("session_start", async (_event, ctx) => {
    if (sessionStarts > 1) ctx.ui.notify(`session started ${sessionStarts} times`, "info");
  });

  pi.on("tool_call", async (event) => {
    const target = (event.input as { path?: unknown }).path;
    if (event.toolName === "write" && typeof target === "string" && target.endsWith(".lock")) {
      return { block: true, reason: "events.ts keeps lock files read-only" };
    }
    return undefined;
  });

  pi.on("tool_result", async (event) => {
    if (event.toolName !== "greet") return undefined;
    return { details: { seenByEventsExample: true } };
  });

  pi.on("context", async (event) => {
    // Keep at most the 40 most recent messages.
    return event.messages.length > 40 ? { messages: event.messages.slice(-40) } : undefined;
  });

  pi.on("input", async (event) => {
    if (event.text.startsWith("!loud ")) return { action: "transform", text: event.text.slice(6).toUpperCase() };
    return { action: "continue" };
  });

  // Only handler of agent_end: unsubscribing removes the key entirely.
  const offAgentEnd = pi.on("agent_end", async () => {});
  offAgentEnd();
  offAgentEnd(); // second call is a no-op

  // One of two turn_end handlers: one stays.
  pi.on("turn_end", async () => {});
  const offSecondTurnEnd = pi.on("turn_end", async () => {});
  offSecondTurnEnd();

  pi.events.on("examples:ping", () => {
    pingLog().push("events");
  });
}
