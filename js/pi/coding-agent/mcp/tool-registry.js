// The pi tools of the connected servers. Each server tool is registered as
// `mcp__<server>__<tool>`; a name, once given to a tool, stays its own for
// the session, so names are stable across reconnects and unique even when
// two tools sanitize to the same name (then all of them get a hash, so
// which one keeps the plain name does not depend on list order). pi cannot
// unregister tools, so tools that go away are registered again as hidden.
// The resource tools are registered once a server has resources, with the
// widest exposure among such servers.
import { createMcpToolName, mcpNamespace } from "./client/naming.js";
import { createMcpResourceToolDefinitions } from "./resource-tools.js";
import { isEnabled } from "./servers-section.js";
import { createMcpToolDefinition } from "./tool-adapter.js";
import { getMcpToolExposure, serverExposure } from "./tool-exposure.js";

/** Widest first: the resource tools take the first of these a server with resources has. */
const RESOURCE_EXPOSURE_ORDER = ["direct", "codemode", "deferred"];

export class McpToolRegistry {
  #pi;
  #servers;
  /** pi tool name → `<server>\0<tool>` it belongs to. */
  #owners = new Map();
  /** Server name → names of the tools it offers now. */
  #serverTools = new Map();
  /** pi tool name → its last definition, to register it again as hidden. */
  #definitions = new Map();
  /** Exposure the resource tools were last registered with; undefined before any server had resources. */
  #resourceExposure;

  /** `servers()` gives the session's servers (`{ entry, connection? }`) when asked. */
  constructor(pi, servers) {
    this.#pi = pi;
    this.#servers = servers;
  }

  /** The server owning a pi tool name, if it is an MCP tool. */
  ownerOf(toolName) {
    return this.#owners.get(toolName)?.split("\0", 1)[0];
  }

  /** The pi names of the tools a server offers now. */
  toolsOf(serverName) {
    return this.#serverTools.get(serverName) ?? new Set();
  }

  /** Registers the tools `connection` offers, and hides the ones it stopped offering. */
  register(connection) {
    const server = connection.entry.name;
    const entry = this.#find(server)?.entry ?? connection.entry;
    const description = entry.config.description?.trim();
    const namespace = {
      name: mcpNamespace(server),
      // So `describeNamespace("docs")` finds `mcp__docs`.
      aliases: [server],
      ...(description ? { description } : {}),
      ...(connection.instructions ? { instructions: connection.instructions } : {}),
    };
    const previous = this.toolsOf(server);
    const current = new Set();
    const plainNames = [...new Set(connection.tools.map((tool) => tool.name))].map((tool) => createMcpToolName(server, tool));
    const sharedPlainName = (name) => plainNames.indexOf(name) !== plainNames.lastIndexOf(name);
    const nameFor = (toolName) => {
      const owner = `${server}\0${toolName}`;
      const name = createMcpToolName(server, toolName, (candidate) => {
        const holder = this.#owners.get(candidate);
        return (holder !== undefined && holder !== owner) || current.has(candidate) || sharedPlainName(candidate);
      });
      this.#owners.set(name, owner);
      current.add(name);
      return name;
    };
    for (const tool of connection.tools) {
      const definition = createMcpToolDefinition({
        server,
        tool,
        name: nameFor(tool.name),
        exposure: getMcpToolExposure(entry.config, tool.name),
        namespace,
        timeoutMs: connection.timeoutMs,
        getClient: async () => this.#connectionFor(server, tool.name),
        readableResources: () => this.resourceConnections().some((candidate) => candidate.name === server),
      });
      this.#definitions.set(definition.name, definition);
      this.#pi.registerTool(definition);
    }
    this.#serverTools.set(server, current);
    for (const name of previous) {
      const definition = this.#definitions.get(name);
      if (!current.has(name) && definition) this.#pi.registerTool({ ...definition, exposure: "hidden" });
    }
    this.syncResourceTools();
  }

  /** Makes a server's tools unreachable (it was disabled or removed). */
  hide(serverName) {
    for (const name of this.toolsOf(serverName)) {
      const definition = this.#definitions.get(name);
      if (definition) this.#pi.registerTool({ ...definition, exposure: "hidden" });
    }
    this.#serverTools.set(serverName, new Set());
    this.syncResourceTools();
  }

  /** Enabled, not hidden servers with resources: the ones the resource tools reach. */
  serversWithResources() {
    return this.#servers().filter((server) => server.connection?.hasResources && isEnabled(server) && serverExposure(server.entry) !== "hidden");
  }

  resourceConnections() {
    return this.serversWithResources().flatMap((server) => (server.connection ? [server.connection] : []));
  }

  /** Registers the resource tools again when the exposure they should have changed. */
  syncResourceTools() {
    const exposures = new Set(this.serversWithResources().map((server) => serverExposure(server.entry)));
    const next = RESOURCE_EXPOSURE_ORDER.find((exposure) => exposures.has(exposure)) ?? "hidden";
    if (next === this.#resourceExposure || (this.#resourceExposure === undefined && next === "hidden")) return;
    const wasDirect = this.#resourceExposure === "direct";
    this.#resourceExposure = next;
    const definitions = createMcpResourceToolDefinitions({ exposure: next, servers: () => this.resourceConnections() });
    for (const definition of definitions) this.#pi.registerTool(definition);
    if (wasDirect) {
      // No longer declared, so no longer active.
      const names = new Set(definitions.map((definition) => definition.name));
      this.#pi.setActiveTools(this.#pi.getActiveTools().filter((name) => !names.has(name)));
    }
  }

  #find(name) {
    return this.#servers().find((server) => server.entry.name === name);
  }

  /**
   * The connection a call of `toolName` goes to, looked up when the call
   * runs: a call prepared earlier may outlive the connection it was made
   * for (a disable and enable while it waited).
   */
  #connectionFor(serverName, toolName) {
    const server = this.#find(serverName);
    if (!server || !isEnabled(server)) throw new Error(`MCP server "${serverName}" is disabled.`);
    const { connection } = server;
    if (!connection) throw new Error(`MCP server "${serverName}" is still starting.`);
    const withdrawn =
      getMcpToolExposure(server.entry.config, toolName) === "hidden" ||
      (connection.state === "connected" && !connection.tools.some((offered) => offered.name === toolName));
    if (withdrawn) throw new Error(`MCP tool "${serverName}/${toolName}" is no longer available.`);
    return connection;
  }
}
