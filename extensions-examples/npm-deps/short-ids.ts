// An ESM-only npm package (nanoid: "type": "module", exports with a
// "browser" condition pihost must not pick) that leans on the web crypto
// global and Buffer. Registers a tool that hands out short unique ids.
import { customAlphabet, nanoid } from "nanoid";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

const digits = customAlphabet("0123456789", 6);

export default function (pi: ExtensionAPI) {
  pi.registerTool({
    name: "short_id",
    label: "Short id",
    description: "Make a short unique id (nanoid), or a numeric one",
    parameters: { type: "object", properties: { numeric: { type: "boolean" } } },
    async execute(_id, params: { numeric?: boolean }) {
      const id = params.numeric ? digits() : nanoid();
      return { content: [{ type: "text", text: id }], details: { length: id.length } };
    },
  });
}
