// MCP tools as pi tools. A server's tool becomes a definition named
// `mcp__<server>__<tool>` whose result the model sees as text and images,
// cut to the MCP output limit, while scripts (codemode) get the whole
// CallToolResult as structured content, never cut. An `isError` result is
// an error for the model; scripts still get the result.
import { limitMcpContent } from "./client/output-limit.js";
import { toLlmContent } from "./client/content.js";
import { saveToTempFile } from "./output-files.js";
import { toModelContent } from "./result-content.js";
import { toToolExposure } from "./tool-exposure.js";
import { createMcpToolRenderers } from "./tool-renderers.js";

/**
 * Content blocks in one compact shape with the fields of text and image
 * blocks, which scripts use most. Part of every MCP tool's output schema.
 */
const CONTENT_BLOCK_SCHEMA = {
  type: "object",
  properties: {
    type: { enum: ["text", "image", "audio", "resource_link", "resource"] },
    text: { type: "string" },
    data: { type: "string" },
    mimeType: { type: "string" },
  },
  required: ["type"],
  additionalProperties: true,
};

/** Keywords whose values are data: a `$ref` inside is not a reference. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);
/** Keywords whose values map names to schemas: their keys are names. */
const SCHEMA_MAP_KEYWORDS = new Set(["properties", "patternProperties", "dependentSchemas", "dependencies", "$defs", "definitions"]);

/**
 * `schema` moved below the JSON pointer `base` of another schema: its local
 * references (`#`, `#/$defs/X`) are rewritten to start at `base`, so they
 * still name the same subschemas.
 */
function moveSchemaUnder(schema, base) {
  if (Array.isArray(schema)) return schema.map((item) => moveSchemaUnder(item, base));
  if (typeof schema !== "object" || schema === null) return schema;
  const moved = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$ref" && typeof value === "string" && (value === "#" || value.startsWith("#/"))) moved[key] = `${base}${value.slice(1)}`;
    else if (DATA_KEYWORDS.has(key)) moved[key] = value;
    else if (SCHEMA_MAP_KEYWORDS.has(key) && typeof value === "object" && value !== null && !Array.isArray(value)) {
      moved[key] = Object.fromEntries(Object.entries(value).map(([name, subschema]) => [name, moveSchemaUnder(subschema, base)]));
    } else moved[key] = moveSchemaUnder(value, base);
  }
  return moved;
}

/**
 * The output schema of every MCP tool: the CallToolResult scripts get
 * (without `_meta`), with the tool's own output schema as its
 * `structuredContent`.
 */
export function createMcpResultSchema(structuredContentSchema) {
  return {
    type: "object",
    properties: {
      content: { type: "array", items: CONTENT_BLOCK_SCHEMA },
      // Servers may send structured content without declaring it, and it may be any JSON value.
      structuredContent: structuredContentSchema ? moveSchemaUnder(structuredContentSchema, "#/properties/structuredContent") : {},
      isError: { type: "boolean" },
    },
    required: ["content"],
    // Newer protocol versions add fields.
    additionalProperties: true,
  };
}

/**
 * A tool's input schema as tool APIs accept it: an object schema (servers
 * may leave out `type`) with `properties` (some providers require it).
 */
export function normalizeMcpInputSchema(schema) {
  return { ...schema, type: schema.type ?? "object", ...(schema.properties === undefined ? { properties: {} } : {}) };
}

const textOf = (content) =>
  content
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("\n");

/** A CallToolResult of `server`'s `tool` as a pi tool result. */
export async function convertMcpResult(server, tool, result, options = {}) {
  // Without blocks, the client's conversion falls back to the structured content as JSON.
  const converted = result.content.length > 0 ? await toModelContent(server, result.content, options) : toLlmContent(result);
  if (result.isError && textOf(converted) === "") converted.push({ type: "text", text: `MCP tool ${server}/${tool} returned an error` });
  const { content, fullOutputPath } = await limitMcpContent(converted, options.saveOutput ?? saveToTempFile);
  const { _meta: _dropped, ...forScripts } = result;
  return {
    content,
    details: { server, tool, ...(fullOutputPath ? { fullOutputPath } : {}) },
    structuredContent: forScripts,
    ...(result.isError ? { isError: true } : {}),
  };
}

const ANNOTATION_HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"];

/** The tool's boolean hints; undefined when it has none. */
function annotationsOf(tool) {
  const annotations = {};
  for (const hint of ANNOTATION_HINTS) {
    if (typeof tool.annotations?.[hint] === "boolean") annotations[hint] = tool.annotations[hint];
  }
  return Object.keys(annotations).length > 0 ? annotations : undefined;
}

/**
 * The pi tool for `tool` of `server`: `name` (the assigned pi name),
 * `exposure` (MCP's), `namespace`, `timeoutMs`, `getClient()` resolving the
 * connection at call time, and `readableResources()`.
 */
export function createMcpToolDefinition({ server, tool, name, exposure, namespace, timeoutMs, getClient, readableResources }) {
  const title = tool.title ?? tool.annotations?.title;
  const annotations = annotationsOf(tool);
  const label = `${server}/${tool.name}`;
  return {
    name,
    label,
    description: tool.description?.trim() || title || `MCP tool ${tool.name} from server ${server}`,
    parameters: normalizeMcpInputSchema(tool.inputSchema),
    outputSchema: createMcpResultSchema(tool.outputSchema),
    exposure: toToolExposure(exposure),
    namespace,
    ...(annotations ? { annotations } : {}),
    ...createMcpToolRenderers(label),
    async execute(_toolCallId, params, signal, onUpdate) {
      const client = await getClient();
      const onProgress = (progress) => {
        const total = progress.total === undefined ? "" : `/${progress.total}`;
        const text = progress.message ?? `Progress ${progress.progress}${total}`;
        onUpdate?.({ content: [{ type: "text", text }], details: { server, tool: tool.name } });
      };
      const result = await client.callTool(tool.name, params ?? {}, { signal, timeoutMs, onProgress });
      return convertMcpResult(server, tool.name, result, { readableResources: readableResources?.() });
    },
  };
}
