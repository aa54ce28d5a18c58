// The `mcp_servers` section of the system prompt: the enabled servers whose
// tools are not declared to the model (exposure codemode or deferred), how
// their tools are reached, and a one-line summary of each. Neither codemode
// nor tool_search lists servers, so this is how the model learns of them.
import { sliceHead } from "../truncate.js";
import { mcpNamespace, mcpServerSummary } from "./client/naming.js";
import { configuredExposures } from "./tool-exposure.js";

export const MCP_SERVERS_SECTION = "mcp_servers";
/** Characters of one server's summary, as Codex allows for deferred namespaces. */
const MAX_SUMMARY_CHARS = 250;
/**
 * Characters of the whole section. Summaries shrink to fit; when the server
 * lines alone do not fit, the last servers are left out and counted.
 */
export const MAX_SERVERS_SECTION_CHARS = 4096;

export const isEnabled = (server) => server.entry.config.enabled !== false;

/** Whether some of the server's tools are reached through codemode or tool_search. */
export function hasIndirectTools(entry) {
  const exposures = configuredExposures(entry);
  return exposures.has("codemode") || exposures.has("deferred");
}

/** The first line explains only the ways of reaching tools the listed servers use. */
function introduction(reaches) {
  let text = "MCP servers whose tools are not declared to you.";
  if (reaches.has("codemode")) text += " Call the tools of `codemode` servers from codemode scripts.";
  if (reaches.has("tool_search")) text += " Load the tools of `tool_search` servers with `tool_search`.";
  return text;
}

function shorten(text, max) {
  if (text.length <= max) return text;
  return max <= 1 ? "" : `${sliceHead(text, max - 1).trimEnd()}…`;
}

const omissionLines = (count) => (count > 0 ? [`- … ${count} more server${count === 1 ? "" : "s"}; find their tools with searchTools()`] : []);

/** The section for `servers` (`{ entry, connection? }`), or undefined when none belongs in it. */
export function renderServersSection(servers) {
  const listed = servers.filter((server) => isEnabled(server) && hasIndirectTools(server.entry)).sort((a, b) => a.entry.name.localeCompare(b.entry.name));
  if (listed.length === 0) return undefined;
  // A server with any codemode tool is reached through codemode, else through tool_search.
  const reaches = listed.map((server) => (configuredExposures(server.entry).has("codemode") ? "codemode" : "tool_search"));
  const intro = introduction(new Set(reaches));
  const heads = listed.map((server, index) => `- ${mcpNamespace(server.entry.name)} (${reaches[index]})`);
  /** Length of the section with the first `kept` servers, without summaries. */
  const bareLength = (kept) => [intro, ...heads.slice(0, kept), ...omissionLines(listed.length - kept)].join("\n").length;
  let kept = listed.length;
  while (kept > 0 && bareLength(kept) > MAX_SERVERS_SECTION_CHARS) kept--;
  // What is left is shared evenly; each summary also takes ": ".
  const perServer = kept === 0 ? 0 : Math.min(MAX_SUMMARY_CHARS, Math.floor((MAX_SERVERS_SECTION_CHARS - bareLength(kept)) / kept) - 2);
  const lines = listed.slice(0, kept).map((server, index) => {
    const summary = perServer > 0 ? shorten(mcpServerSummary(server.entry.config.description, server.connection?.instructions), perServer) : "";
    return summary ? `${heads[index]}: ${summary}` : heads[index];
  });
  return [intro, ...lines, ...omissionLines(listed.length - kept)].join("\n");
}
