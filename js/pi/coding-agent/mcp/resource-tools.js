// MCP resources through the tools Codex and opencode give models:
// `list_mcp_resources`, `list_mcp_resource_templates` and
// `read_mcp_resource`, each with a `server` argument and covering every
// connected server with resources, so models trained on them use them as
// they are. Listings are JSON (`{ server?, resources: [{ server, ... }],
// nextCursor?, errors? }`): with a server one page, without every page of
// every server. MCP App resources (`ui://` and `profile=mcp-app` HTML) are
// interfaces for hosts that render them and are left out, as are icons.
import { limitMcpContent } from "./client/output-limit.js";
import { saveToTempFile } from "./output-files.js";
import { READ_MCP_RESOURCE_TOOL, toModelContent } from "./result-content.js";
import { toToolExposure } from "./tool-exposure.js";

export const LIST_MCP_RESOURCES_TOOL = "list_mcp_resources";
export const LIST_MCP_RESOURCE_TEMPLATES_TOOL = "list_mcp_resource_templates";
export { READ_MCP_RESOURCE_TOOL };
export const MCP_RESOURCE_TOOL_NAMES = new Set([LIST_MCP_RESOURCES_TOOL, LIST_MCP_RESOURCE_TEMPLATES_TOOL, READ_MCP_RESOURCE_TOOL]);

function isMcpApp(item) {
  const uri = item.uri ?? item.uriTemplate ?? "";
  return uri.startsWith("ui://") || /;\s*profile\s*=\s*"?mcp-app"?/i.test(item.mimeType ?? "");
}

/** A listed item tagged with its server, without `_meta` and icons. */
function tagged(server, item) {
  const { _meta, icons, ...rest } = item;
  return { server, ...rest };
}

const described = (description) => ({ type: "string", description });
const optionalString = { type: "string" };

const LIST_PARAMETERS = {
  type: "object",
  properties: {
    server: described("MCP server name. Omit to list every server with resources."),
    cursor: described("Opaque cursor from a previous call with the same server; omit for the first page."),
  },
  additionalProperties: false,
};

const READ_PARAMETERS = {
  type: "object",
  properties: {
    server: described("MCP server name exactly as configured. Must match the 'server' field returned by list_mcp_resources."),
    uri: described("Resource URI to read. Must be one of the URIs returned by list_mcp_resources."),
  },
  required: ["server", "uri"],
  additionalProperties: false,
};

const LISTING_ERRORS = {
  type: "array",
  description: "Servers that could not be listed",
  items: { type: "object", properties: { server: { type: "string" }, error: { type: "string" } }, required: ["server", "error"] },
};

const listSchema = (key, itemProperties, required) => ({
  type: "object",
  properties: {
    server: optionalString,
    [key]: { type: "array", items: { type: "object", properties: itemProperties, required } },
    nextCursor: optionalString,
    errors: LISTING_ERRORS,
  },
  required: [key],
});

const LIST_OUTPUT_SCHEMA = listSchema(
  "resources",
  {
    server: { type: "string" },
    uri: { type: "string" },
    name: { type: "string" },
    title: optionalString,
    description: optionalString,
    mimeType: optionalString,
    size: { type: "number" },
  },
  ["server", "uri", "name"],
);

const LIST_TEMPLATES_OUTPUT_SCHEMA = listSchema(
  "resourceTemplates",
  {
    server: { type: "string" },
    uriTemplate: { type: "string", description: "RFC 6570 URI template" },
    name: { type: "string" },
    title: optionalString,
    description: optionalString,
    mimeType: optionalString,
  },
  ["server", "uriTemplate", "name"],
);

const READ_OUTPUT_SCHEMA = {
  type: "object",
  properties: {
    server: { type: "string" },
    uri: { type: "string" },
    contents: {
      type: "array",
      items: {
        anyOf: [
          { type: "object", properties: { uri: { type: "string" }, mimeType: optionalString, text: { type: "string" } }, required: ["uri", "text"] },
          {
            type: "object",
            properties: { uri: { type: "string" }, mimeType: optionalString, blob: { type: "string", description: "base64" } },
            required: ["uri", "blob"],
          },
        ],
      },
    },
  },
  required: ["server", "uri", "contents"],
};

/** A string argument, trimmed; empty counts as absent. */
function stringArgument(params, key) {
  const value = params?.[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new Error(`${key} must be a string`);
  return value.trim() || undefined;
}

const errorMessage = (error) => (error instanceof Error ? error.message : String(error));

async function jsonResult(tool, server, payload) {
  const { content, fullOutputPath } = await limitMcpContent([{ type: "text", text: JSON.stringify(payload) }], saveToTempFile);
  return { content, details: { server: server ?? "", tool, ...(fullOutputPath ? { fullOutputPath } : {}) }, structuredContent: payload };
}

/** The kinds of listing: the result key, and how to get one page or everything from a connection. */
const LISTINGS = {
  resources: {
    key: "resources",
    page: async (connection, cursor, options) => {
      const page = await connection.resourcesPage(cursor, options);
      return { items: page.resources, nextCursor: page.nextCursor };
    },
    all: (connection, options) => connection.allResources(options),
  },
  templates: {
    key: "resourceTemplates",
    page: async (connection, cursor, options) => {
      const page = await connection.resourceTemplatesPage(cursor, options);
      return { items: page.resourceTemplates, nextCursor: page.nextCursor };
    },
    all: (connection, options) => connection.allResourceTemplates(options),
  },
};

/**
 * The three resource tools with `exposure` (MCP's). `servers()` gives the
 * connections they reach when they run.
 */
export function createMcpResourceToolDefinitions({ exposure, servers }) {
  const readOnly = { readOnlyHint: true };
  const findServer = (name) => {
    const candidates = servers();
    const found = candidates.find((candidate) => candidate.name === name);
    if (found) return found;
    const available = candidates.map((candidate) => candidate.name).join(", ");
    throw new Error(`MCP server "${name}" has no resources${available ? `. Servers with resources: ${available}` : ""}`);
  };

  const list = async (listing, params, signal) => {
    const serverName = stringArgument(params, "server");
    const cursor = stringArgument(params, "cursor");
    const visible = (item) => !isMcpApp(item);
    if (serverName) {
      const server = findServer(serverName);
      const page = await listing.page(server, cursor, { signal, timeoutMs: server.timeoutMs });
      return {
        server: server.name,
        [listing.key]: page.items.filter(visible).map((item) => tagged(server.name, item)),
        ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
      };
    }
    if (cursor) throw new Error("cursor can only be used when a server is specified");
    const sorted = [...servers()].sort((a, b) => a.name.localeCompare(b.name));
    const settled = await Promise.allSettled(sorted.map((server) => listing.all(server, { signal, timeoutMs: server.timeoutMs })));
    const items = [];
    const errors = [];
    settled.forEach((outcome, index) => {
      const server = sorted[index].name;
      if (outcome.status === "fulfilled") items.push(...outcome.value.filter(visible).map((item) => tagged(server, item)));
      else errors.push({ server, error: errorMessage(outcome.reason) });
    });
    return { [listing.key]: items, ...(errors.length > 0 ? { errors } : {}) };
  };

  const listTool = (name, description, outputSchema, listing) => ({
    name,
    label: name,
    description,
    parameters: LIST_PARAMETERS,
    outputSchema,
    exposure: toToolExposure(exposure),
    annotations: readOnly,
    async execute(_toolCallId, params, signal) {
      return jsonResult(name, stringArgument(params, "server"), await list(listing, params, signal));
    },
  });

  const readTool = {
    name: READ_MCP_RESOURCE_TOOL,
    label: READ_MCP_RESOURCE_TOOL,
    description: "Read a specific resource from an MCP server given the server name and resource URI.",
    parameters: READ_PARAMETERS,
    outputSchema: READ_OUTPUT_SCHEMA,
    exposure: toToolExposure(exposure),
    annotations: readOnly,
    async execute(_toolCallId, params, signal) {
      const serverName = stringArgument(params, "server");
      const uri = stringArgument(params, "uri");
      if (!serverName) throw new Error("server must be provided");
      if (!uri) throw new Error("uri must be provided");
      const server = findServer(serverName);
      const { contents } = await server.readResource(uri, { signal, timeoutMs: server.timeoutMs });
      // Several contents (a directory, say) are each labeled with their URI.
      const blocks = contents.flatMap((item) => [...(contents.length > 1 ? [{ type: "text", text: `${item.uri}:` }] : []), { type: "resource", resource: item }]);
      const converted = await toModelContent(server.name, blocks);
      const shown = converted.length > 0 ? converted : [{ type: "text", text: `Resource ${uri} is empty.` }];
      const { content, fullOutputPath } = await limitMcpContent(shown, saveToTempFile);
      return {
        content,
        details: { server: server.name, tool: READ_MCP_RESOURCE_TOOL, ...(fullOutputPath ? { fullOutputPath } : {}) },
        structuredContent: { server: server.name, uri, contents: contents.map(({ _meta, ...rest }) => rest) },
      };
    },
  };

  return [
    listTool(
      LIST_MCP_RESOURCES_TOOL,
      "Lists resources provided by MCP servers. Resources allow servers to share data that provides context to language models, such as files, database schemas, or application-specific information. Prefer resources over web search when possible.",
      LIST_OUTPUT_SCHEMA,
      LISTINGS.resources,
    ),
    listTool(
      LIST_MCP_RESOURCE_TEMPLATES_TOOL,
      "Lists resource templates provided by MCP servers. Parameterized resource templates allow servers to share data that takes parameters and provides context to language models, such as files, database schemas, or application-specific information. Prefer resource templates over web search when possible.",
      LIST_TEMPLATES_OUTPUT_SCHEMA,
      LISTINGS.templates,
    ),
    readTool,
  ];
}
