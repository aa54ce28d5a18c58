// MCP tools that are not declared to the model are reached through another
// tool: the codemode tool (scripts call them) for exposure `codemode`, the
// tool_search tool (it declares the ones it finds) for `deferred`. This
// activates the one the configured exposures ask for, before any server
// connected, and warns once per session when neither can be reached.
import { TOOL_SEARCH_TOOL_NAME } from "../tool-search.js";
import { isEnabled } from "./servers-section.js";
import { configuredExposures } from "./tool-exposure.js";

/** The codemode extension's tool. */
export const CODEMODE_TOOL_NAME = "codemode";
export { TOOL_SEARCH_TOOL_NAME };

/**
 * Activates codemode and/or tool_search as `servers` need (codemode only
 * with `autoEnableCodemode`). Only a tool of that name that declares
 * `reachesTools` counts: another extension's tool of the same name cannot
 * reach MCP tools. Returns true when it warned.
 */
export function activateDiscoveryTools(pi, { servers, autoEnableCodemode, warned, notify }) {
  const exposures = new Set();
  for (const server of servers) {
    if (isEnabled(server)) for (const exposure of configuredExposures(server.entry)) exposures.add(exposure);
  }
  const needsCodemode = exposures.has("codemode");
  const needsToolSearch = exposures.has("deferred");
  if (!needsCodemode && !needsToolSearch) return false;
  const tools = pi.getAllTools();
  const reaches = (name) => tools.some((tool) => tool.name === name && tool.reachesTools);
  const hasCodemode = reaches(CODEMODE_TOOL_NAME);
  const hasToolSearch = reaches(TOOL_SEARCH_TOOL_NAME);
  const active = pi.getActiveTools();
  const activate = [];
  if (needsCodemode && hasCodemode && autoEnableCodemode && !active.includes(CODEMODE_TOOL_NAME)) activate.push(CODEMODE_TOOL_NAME);
  if (needsToolSearch && hasToolSearch && !active.includes(TOOL_SEARCH_TOOL_NAME)) activate.push(TOOL_SEARCH_TOOL_NAME);
  if (activate.length > 0) pi.setActiveTools([...active, ...activate]);
  const reachable = [...active, ...activate];
  if (hasCodemode && reachable.includes(CODEMODE_TOOL_NAME)) return false;
  if (hasToolSearch && reachable.includes(TOOL_SEARCH_TOOL_NAME)) return false;
  if (warned) return false;
  const reason = needsCodemode && hasCodemode && !autoEnableCodemode ? " (autoEnableCodemode is false)" : "";
  notify(`MCP tools are only reachable from the codemode or tool_search tool, but neither is active${reason}; they cannot be called.`, "warning");
  return true;
}
