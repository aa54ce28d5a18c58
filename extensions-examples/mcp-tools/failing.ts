/**
 * failing.ts — a tool that always throws.
 *
 * `fail_always { reason, bare? }` throws new Error(reason), or with bare: true
 * the string `reason` itself (pi reports String(thrown) for a non-Error). Over
 * MCP the call's result is isError: true with one text block holding the
 * message: `reason` either way.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

export default function failing(pi: ExtensionAPI): void {
  pi.registerTool({
    name: "fail_always",
    label: "Fail always",
    description: "Throws an Error whose message is `reason` (or, with `bare`, the string itself).",
    parameters: Type.Object({ reason: Type.String(), bare: Type.Optional(Type.Boolean()) }),
    async execute(_toolCallId, params) {
      if (params.bare === true) throw params.reason;
      throw new Error(params.reason);
    },
  });
}
