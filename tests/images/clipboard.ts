// Copies its `text` argument with pi-coding-agent's copyToClipboard and
// says what happened, as an extension that offers "copy to clipboard" does.
import { copyToClipboard } from "@earendil-works/pi-coding-agent";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  pi.registerTool({
    name: "copy",
    label: "Copy",
    description: "Copy text to the user's clipboard",
    parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    async execute(_id, params: { text: string }) {
      try {
        await copyToClipboard(params.text);
        return { content: [{ type: "text", text: "copied" }], details: {} };
      } catch (error) {
        return { content: [{ type: "text", text: `not copied: ${(error as Error).message}` }], details: {} };
      }
    },
  });
}
