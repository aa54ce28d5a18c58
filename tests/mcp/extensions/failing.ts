/**
 * failing.ts — a tool that always throws.
 *
 * `fail_always { reason }` throws new Error(reason). Over MCP the call's
 * result is isError: true with one text block holding the message.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

export default function failing(pi: ExtensionAPI): void {
  pi.registerTool({
    name: "fail_always",
    label: "Fail always",
    description: "Throws an Error whose message is `reason`.",
    parameters: Type.Object({ reason: Type.String() }),
    async execute(_toolCallId, params) {
      throw new Error(params.reason);
    },
  });
}
