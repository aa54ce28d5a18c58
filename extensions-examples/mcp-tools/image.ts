/**
 * image.ts — a tool whose result holds a text and an image block.
 *
 * `show_pixel` returns the text `one red pixel` and a 1×1 red PNG
 * (base64, image/png). Over MCP both become content blocks, in order.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

const RED_PIXEL_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

export default function image(pi: ExtensionAPI): void {
  pi.registerTool({
    name: "show_pixel",
    label: "Show pixel",
    description: "Returns a text block and a 1x1 PNG image block.",
    parameters: Type.Object({}),
    async execute() {
      return {
        content: [
          { type: "text", text: "one red pixel" },
          { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" },
        ],
        details: { width: 1, height: 1 },
        structuredContent: { width: 1, height: 1 },
      };
    },
  });
}
