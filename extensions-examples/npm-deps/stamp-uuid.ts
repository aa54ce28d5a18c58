// A package whose `exports` pick a file by condition (uuid: "node" →
// dist-node, otherwise dist). Offers a tool that checks and versions UUIDs,
// and stamps that tool's results with a fresh UUID v4.
import { v4 as uuidv4, validate, version } from "uuid";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  pi.on("tool_result", async (event) =>
    event.toolName === "uuid_info" ? { details: { ...(event.details as object), stamp: uuidv4() } } : undefined,
  );
  pi.registerTool({
    name: "uuid_info",
    label: "UUID info",
    description: "Say whether a string is a UUID and which version",
    parameters: { type: "object", properties: { value: { type: "string" } }, required: ["value"] },
    async execute(_id, params: { value: string }) {
      const valid = validate(params.value);
      const text = valid ? `UUID version ${version(params.value)}` : "not a UUID";
      return { content: [{ type: "text", text }], details: { valid } };
    },
  });
}
