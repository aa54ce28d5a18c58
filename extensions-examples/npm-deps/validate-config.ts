// A CommonJS package with a dependency tree (ajv: its own modules plus
// fast-deep-equal, fast-uri, json-schema-traverse, require-from-string) and
// code generated at run time with `new Function`. Checks a JSON config
// against a schema before a `config_write` tool runs.
import Ajv from "ajv";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

const ajv = new Ajv({ allErrors: true });
const validateConfig = ajv.compile({
  type: "object",
  properties: { name: { type: "string", minLength: 1 }, retries: { type: "integer", minimum: 0 } },
  required: ["name"],
  additionalProperties: false,
});

export default function (pi: ExtensionAPI) {
  pi.on("tool_call", async (event) => {
    if (event.toolName !== "config_write") return undefined;
    if (validateConfig(event.input)) return undefined;
    return { block: true, reason: ajv.errorsText(validateConfig.errors) };
  });
}
