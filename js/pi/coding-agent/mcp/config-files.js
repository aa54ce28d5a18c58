// mcp.json: the servers of the agent directory's file and, in trusted
// projects, of `<project>/.pi/mcp.json`, in the `mcpServers` shape other
// MCP clients share. A project entry replaces the global one of the same
// name. A project entry without `command`, `url` or `type` only overrides
// `enabled`, `exposure` and `toolExposure` of a global server, so a project
// can turn a server off without restating (or seeing) its credentials.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { validateMcpServerConfig } from "../mcp-servers.js";
import { stripBom } from "../package-resources.js";
import { mcpNamespace } from "./client/naming.js";

/** pi's per-project directory. */
export const CONFIG_DIR_NAME = ".pi";
const OVERRIDE_KEYS = ["enabled", "exposure", "toolExposure"];

const isRecord = (value) => typeof value === "object" && value !== null && !Array.isArray(value);

/** An entry that overrides a server defined elsewhere rather than defining one. */
export const isMcpServerOverride = (entry) => entry.command === undefined && entry.url === undefined && entry.type === undefined;

const shapeError = (path) => `${path}: expected an object with an "mcpServers" object`;

/** Adds the servers of one file to `found`, and what is wrong with it to its errors. */
function readConfigFile(path, scope, found) {
  if (!existsSync(path)) return;
  let parsed;
  try {
    parsed = JSON.parse(stripBom(readFileSync(path, "utf8")));
  } catch (error) {
    found.errors.push(`${path}: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  if (!isRecord(parsed) || (parsed.mcpServers !== undefined && !isRecord(parsed.mcpServers))) {
    found.errors.push(shapeError(path));
    return;
  }
  if (typeof parsed.autoEnableCodemode === "boolean") found.autoEnableCodemode = parsed.autoEnableCodemode;
  else if (parsed.autoEnableCodemode !== undefined) found.errors.push(`${path}: autoEnableCodemode must be a boolean`);
  for (const [name, value] of Object.entries(parsed.mcpServers ?? {})) {
    const error =
      scope === "project" && isRecord(value) && isMcpServerOverride(value)
        ? applyOverride(path, name, value, found.servers)
        : addServer(path, scope, name, value, found.servers);
    if (error) found.errors.push(`${path}: ${error}`);
  }
}

function applyOverride(path, name, override, servers) {
  const base = servers.get(name);
  if (!base) return `server "${name}" needs "command" or "url", or a global server to override`;
  if (Object.keys(override).some((key) => !OVERRIDE_KEYS.includes(key))) {
    return `server "${name}": an override can only set ${OVERRIDE_KEYS.join(", ")}`;
  }
  const config = validateMcpServerConfig(name, { ...base.config, ...override });
  if (typeof config === "string") return config;
  servers.set(name, { ...base, config, override: path });
  return undefined;
}

function addServer(path, scope, name, value, servers) {
  const config = validateMcpServerConfig(name, value);
  if (typeof config === "string") return config;
  const clash = [...servers.keys()].find((other) => other !== name && mcpNamespace(other) === mcpNamespace(name));
  if (clash) return `server "${name}" conflicts with "${clash}"`;
  // A repository must not choose where a provider's credential is sent.
  if (scope === "project" && "url" in config && config.auth) return `server "${name}": auth is only allowed in the global mcp.json`;
  servers.set(name, { name, config, source: path, scope });
  return undefined;
}

/**
 * The servers of the global and (when `projectTrusted`) the project
 * mcp.json, disabled ones included so they can be enabled again, with the
 * problems found; `autoEnableCodemode` when a file sets it (the project's
 * wins), and `projectConfig`, the project file's path, when trusted.
 */
export function loadMcpConfig({ agentDir, cwd, projectTrusted }) {
  const found = { servers: new Map(), errors: [], autoEnableCodemode: undefined };
  readConfigFile(join(agentDir, "mcp.json"), "global", found);
  const projectConfig = projectTrusted ? join(cwd, CONFIG_DIR_NAME, "mcp.json") : undefined;
  if (projectConfig) readConfigFile(projectConfig, "project", found);
  return {
    servers: [...found.servers.values()],
    ...(found.autoEnableCodemode === undefined ? {} : { autoEnableCodemode: found.autoEnableCodemode }),
    errors: found.errors,
    ...(projectConfig ? { projectConfig } : {}),
  };
}

/**
 * Reads an mcp.json (empty when missing), lets `edit(servers, parsed)`
 * change it, and when `edit` returns true writes it back with the file's
 * own indentation, keeping everything else in it.
 */
function editMcpServers(path, edit) {
  const text = existsSync(path) ? stripBom(readFileSync(path, "utf8")) : undefined;
  const parsed = text === undefined ? {} : JSON.parse(text);
  if (!isRecord(parsed) || (parsed.mcpServers !== undefined && !isRecord(parsed.mcpServers))) throw new Error(shapeError(path));
  if (!edit(isRecord(parsed.mcpServers) ? parsed.mcpServers : undefined, parsed)) return;
  const indent = (text && /^([ \t]+)\S/m.exec(text)?.[1]) || "  ";
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(parsed, null, indent)}\n`);
}

/**
 * Sets `enabled` and `exposure` of one server in the file that defines or
 * overrides it; with `override`, a missing entry is added as an override.
 * Defaults are dropped from definitions but kept in overrides, where they
 * replace the global server's values.
 */
export function updateMcpServerConfig(path, name, patch, options = {}) {
  editMcpServers(path, (servers, parsed) => {
    let server = servers?.[name];
    if (server === undefined && options.override) {
      server = {};
      parsed.mcpServers = { ...servers, [name]: server };
    }
    if (!isRecord(server)) throw new Error(`${path} does not define MCP server "${name}"`);
    const keepDefaults = isMcpServerOverride(server);
    if (patch.enabled !== undefined) {
      if (patch.enabled && !keepDefaults) delete server.enabled;
      else server.enabled = patch.enabled;
    }
    if (patch.exposure !== undefined) {
      if (patch.exposure === "codemode" && !keepDefaults) delete server.exposure;
      else server.exposure = patch.exposure;
    }
    return true;
  });
}

/** Adds or replaces a server in an mcp.json, creating the file; true when one was replaced. */
export function addMcpServerConfig(path, name, config) {
  let replaced = false;
  editMcpServers(path, (servers, parsed) => {
    const target = servers ?? {};
    replaced = target[name] !== undefined;
    target[name] = config;
    parsed.mcpServers = target;
    return true;
  });
  return replaced;
}

/** Removes a server from an mcp.json; false when the file does not define it. */
export function removeMcpServerConfig(path, name) {
  if (!existsSync(path)) return false;
  let removed = false;
  editMcpServers(path, (servers) => {
    if (servers?.[name] === undefined) return false;
    delete servers[name];
    removed = true;
    return true;
  });
  return removed;
}
