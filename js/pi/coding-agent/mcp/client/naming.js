// How MCP tools and servers are named for models and scripts: tool names
// `mcp__<server>__<tool>` limited to what provider APIs accept, the
// namespace `mcp__<server>` grouping a server's tools, and the one-line
// summary of a server for the system prompt.
import { nodeCrypto } from "../../../lazy-builtins.js";

/** Providers accept tool names of at most 64 characters of `[A-Za-z0-9_-]`. */
const MAX_TOOL_NAME_LENGTH = 64;
const HASH_LENGTH = 8;

/**
 * The tool's name with everything but `[A-Za-z0-9_]` replaced by `_` (so a
 * script can call it as an identifier). A name that is too long, or that
 * `isTaken` reports as used by another tool, is cut and given a hash of
 * server and tool, which keeps it unique and stable.
 */
export function createMcpToolName(server, tool, isTaken = () => false) {
  const name = `mcp__${server}__${tool}`.replace(/[^A-Za-z0-9_]/g, "_");
  if (name.length <= MAX_TOOL_NAME_LENGTH && !isTaken(name)) return name;
  const hash = nodeCrypto().createHash("sha256").update(`${server}\0${tool}`).digest("hex").slice(0, HASH_LENGTH);
  return `${name.slice(0, MAX_TOOL_NAME_LENGTH - HASH_LENGTH - 1)}_${hash}`;
}

/** `mcp__<server>` with `-` as `_`: servers differing only there share it, so configs may not have both. */
export function mcpNamespace(server) {
  return `mcp__${server.replace(/-/g, "_")}`;
}

/** The first line of the configured description, else of the server's instructions; "" without either. */
export function mcpServerSummary(description, instructions) {
  const text = description?.trim() || instructions?.trim() || "";
  return (text.split("\n", 1)[0] ?? "").trim();
}
