/**
 * throwing-factory.ts — a factory that registers things, then throws.
 *
 * Demonstrates: a failed factory leaves no trace. Everything it registered
 * before the throw (tool, command, flag default, event handler, provider,
 * event-bus listener) is discarded, and the only result is an error entry
 * `Failed to load extension: <message>`. It also stashes its `pi` object on
 * globalThis so use-failed-api.ts (loaded later) can show that the API of a
 * failed extension refuses further calls, and it subscribes an event-bus
 * listener that use-failed-api.ts proves was unsubscribed.
 *
 * Checklist: L4 (factory failure becomes a load error; others still load),
 * A6 (failed state: queued flag defaults/providers dropped, event-bus
 * listeners from loading unsubscribed, API inactive afterwards).
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

const FAILED_API_KEY = Symbol.for("pihost-examples.failed-api");
const PING_LOG_KEY = Symbol.for("pihost-examples.ping-log");

function pingLog(): string[] {
  const store = globalThis as Record<symbol, string[] | undefined>;
  store[PING_LOG_KEY] ??= [];
  return store[PING_LOG_KEY]!;
}

export default function throwingFactory(pi: ExtensionAPI) {
  pi.registerTool({
    name: "throwing_tool_should_not_appear",
    label: "Never registered",
    description: "Registered right before the factory throws",
    parameters: Type.Object({}),
    async execute() {
      return { content: [{ type: "text", text: "unreachable" }], details: {} };
    },
  });
  pi.registerCommand("throwing-should-not-appear", {
    description: "Registered right before the factory throws",
    handler: async () => {},
  });
  pi.registerFlag("throwing-flag", { type: "boolean", default: true, description: "Default must never reach flagValues" });
  pi.registerProvider("throwing-provider", {
    baseUrl: "https://throwing.example.invalid/v1",
    apiKey: "$THROWING_EXAMPLE_KEY",
    api: "openai-completions",
    models: [],
  });
  pi.on("session_start", async () => {});
  pi.events.on("examples:ping", () => {
    pingLog().push("throwing-factory");
  });

  (globalThis as Record<symbol, unknown>)[FAILED_API_KEY] = pi;

  throw new Error("throwing-factory gave up on purpose after registering");
}
