// MCP protocol versions and the checks of what servers answer. Answers are
// validated before they are used, since a server is another program: a
// wrong shape is an McpError with the invalid-request code, not a crash
// further in.
import { isObject, JSON_RPC_ERROR_CODES, McpError } from "./jsonrpc.js";

export const LATEST_PROTOCOL_VERSION = "2025-11-25";

/**
 * Versions accepted from a server. A server without the requested version
 * answers with its own latest, so versions of older SDKs stay accepted.
 */
export const SUPPORTED_PROTOCOL_VERSIONS = [LATEST_PROTOCOL_VERSION, "2025-06-18", "2025-03-26", "2024-11-05"];

const invalid = (message) => new McpError(JSON_RPC_ERROR_CODES.invalidRequest, message);

export function checkInitializeResult(value) {
  const valid =
    isObject(value) &&
    typeof value.protocolVersion === "string" &&
    isObject(value.capabilities) &&
    isObject(value.serverInfo) &&
    typeof value.serverInfo.name === "string" &&
    typeof value.serverInfo.version === "string" &&
    (value.instructions === undefined || typeof value.instructions === "string");
  if (!valid) throw invalid("Invalid MCP initialize result");
  return value;
}

/** The kinds of paginated lists: the method, the result key holding the items, and what an item must be. */
export const LISTS = {
  tools: { method: "tools/list", key: "tools", accepts: (item) => typeof item.name === "string" && isObject(item.inputSchema) },
  // `name` is required by the spec, but some servers leave it out; the URI stands in.
  resources: {
    method: "resources/list",
    key: "resources",
    accepts: (item) => typeof item.uri === "string" && (item.name === undefined || typeof item.name === "string"),
    complete: (item) => ({ ...item, name: item.name ?? item.uri }),
  },
  resourceTemplates: {
    method: "resources/templates/list",
    key: "resourceTemplates",
    accepts: (item) => typeof item.uriTemplate === "string" && (item.name === undefined || typeof item.name === "string"),
    complete: (item) => ({ ...item, name: item.name ?? item.uriTemplate }),
  },
};

/** One page of a list: its checked items and the cursor of the next page, if any. */
export function checkListPage(list, value) {
  const items = isObject(value) ? value[list.key] : undefined;
  if (!Array.isArray(items)) throw invalid(`Invalid MCP ${list.method} result`);
  for (const item of items) {
    if (!isObject(item) || !list.accepts(item)) throw invalid(`Invalid entry in MCP ${list.method} result`);
  }
  // Some servers end the list with `null` or "" instead of leaving the cursor out.
  const cursor = value.nextCursor === null || value.nextCursor === "" ? undefined : value.nextCursor;
  if (cursor !== undefined && typeof cursor !== "string") throw invalid(`Invalid MCP ${list.method} cursor`);
  return { items, nextCursor: cursor };
}

export function checkReadResourceResult(value) {
  if (!isObject(value) || !Array.isArray(value.contents)) throw invalid("Invalid MCP resources/read result");
  for (const contents of value.contents) {
    const valid = isObject(contents) && typeof contents.uri === "string" && (typeof contents.text === "string" || typeof contents.blob === "string");
    if (!valid) throw invalid("Invalid contents in MCP resources/read result");
  }
  return value;
}

/**
 * `content` is required by the spec, but servers that answer with
 * `structuredContent` alone leave it out; it defaults to no blocks.
 */
export function checkCallToolResult(value) {
  if (!isObject(value) || (value.content !== undefined && !Array.isArray(value.content))) {
    throw invalid("Invalid MCP tools/call result");
  }
  return value.content === undefined ? { ...value, content: [] } : value;
}
