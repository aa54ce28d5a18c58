/**
 * notify.ts — a tool that sends one notification of each level.
 *
 * `notify_levels { text }` calls ctx.ui.notify(`<text> (info)`, "info"), then
 * the same for "warning" and "error", and returns `sent 3 notifications`. Over
 * MCP each becomes notifications/message { level, logger: "pihost", data }.
 * It also console.logs `notify_levels ran with <text>`, which `pihost mcp`
 * must put on stderr: its stdout carries only the protocol.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

export default function notify(pi: ExtensionAPI): void {
  pi.registerTool({
    name: "notify_levels",
    label: "Notify levels",
    description: "Sends an info, a warning and an error notification.",
    parameters: Type.Object({ text: Type.String() }),
    async execute(_toolCallId, params, _signal, _onUpdate, ctx) {
      console.log(`notify_levels ran with ${params.text}`);
      const levels = ["info", "warning", "error"] as const;
      for (const level of levels) ctx.ui.notify(`${params.text} (${level})`, level);
      return { content: [{ type: "text", text: `sent ${levels.length} notifications` }], details: { levels } };
    },
  });
}
