/**
 * progress.ts — a tool that reports each step through onUpdate.
 *
 * `count_up { to }` calls onUpdate once per step with the text `step <i> of
 * <to>` and details { count: i }, then returns `counted to <to>` with details
 * { count: to }, and declares an output schema for its structuredContent
 * { count: to }. Over MCP each update becomes notifications/progress
 * (progress 1, 2, 3…, message = the update's text) when the request carries a
 * progressToken; the schema is the tool's outputSchema and structuredContent
 * the call's.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

export default function progress(pi: ExtensionAPI): void {
  pi.registerTool({
    name: "count_up",
    label: "Count up",
    description: "Counts from 1 to `to`, reporting each step as a progress update.",
    parameters: Type.Object({
      to: Type.Integer({ minimum: 1, maximum: 10, description: "Last number" }),
    }),
    outputSchema: Type.Object({ count: Type.Integer() }),
    async execute(_toolCallId, params, _signal, onUpdate) {
      for (let count = 1; count <= params.to; count++) {
        onUpdate?.({ content: [{ type: "text", text: `step ${count} of ${params.to}` }], details: { count } });
        // A macrotask between steps, so updates really go out one by one.
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return {
        content: [{ type: "text", text: `counted to ${params.to}` }],
        details: { count: params.to },
        structuredContent: { count: params.to },
      };
    },
  });
}
