// pi's built-in MCP extension. When a session starts it connects the
// servers of mcp.json and those extensions register with
// `pi.registerMcpServer()` (mcp.json wins on a name), and servers registered
// later right away. Connections run in the background: the first prompt
// waits only for servers with `direct` tools; codemode scripts, tool_search
// and the resource tools wait for the servers they reach when they run.
//
// Tools are registered as `mcp__<server>__<tool>`. By default (exposure
// `codemode`) they are only callable from codemode scripts, which keeps
// them out of the model's declarations; `deferred` declares them once
// tool_search loads them; `direct` declares them at once; `hidden` makes
// them unreachable. Every call goes through pi's tool pipeline, so
// tool_call/tool_result hooks and permission extensions apply as to any
// tool. Problems found at startup are reported once; `/mcp` manages the
// servers.
import { openBrowser } from "../open-browser.js";
import { mcpNamespace } from "./client/naming.js";
import { createMcpManager } from "./manager.js";
import { registerMcpCommand } from "./mcp-command.js";
import { MCP_RESOURCE_TOOL_NAMES } from "./resource-tools.js";
import { McpServerManager } from "./server-manager.js";
import { isEnabled, MCP_SERVERS_SECTION, renderServersSection } from "./servers-section.js";
import { createMcpToolRenderers } from "./tool-renderers.js";

const MCP_TOOL_NAME = /^mcp__(.+?)__(.+)$/;

/**
 * Whether a call reaching `reach` (a tool's `reachesTools(input)`) needs
 * the server of `namespace`: it reaches every tool, or one of its words contains the
 * server's namespace.
 */
function reachesServer(reach, namespace) {
  return reach === "all" || reach.some((word) => word.includes(namespace));
}

/**
 * The extension factory. Options (mostly for tests and embedders):
 * `startupWaitMs`, `credentials`, `openUrl`, `updateConfig(entry, patch)`,
 * `loadConfig(ctx)`, `createTransport(entry, cwd, authProvider)`, `logPath`.
 */
export function createMcpExtension(options = {}) {
  return (pi) => {
    const openUrl = options.openUrl ?? openBrowser;
    const manager = new McpServerManager(pi, { ...options, openUrl });
    const ui = { ...createMcpManager(manager, { openUrl }), openUrl };

    // Calls to MCP tools in a resumed session render before their server connected, if it ever does.
    pi.registerToolRenderer((toolName, next) => {
      const match = MCP_TOOL_NAME.exec(toolName);
      return next() ?? (match ? createMcpToolRenderers(`${match[1]}/${match[2]}`) : undefined);
    });

    pi.on("session_start", (_event, ctx) => {
      manager.startSession(ctx);
    });

    // Every prompt gets the servers as they are when it starts; pi appends the section again when it changed.
    pi.on("before_agent_start", async (event, ctx) => {
      await manager.waitForDirectServers(ctx);
      const { sections } = event.systemPromptOptions;
      const section = renderServersSection(manager.servers);
      if (section) sections[MCP_SERVERS_SECTION] = section;
      else delete sections[MCP_SERVERS_SECTION];
    });

    // A tool that reaches other tools waits for the servers it may reach, so their tools are registered
    // before it runs; the resource tools wait for every server; a server's own tool for its server
    // (a reconnect may still be closing the old transport while the state says connected).
    pi.on("tool_call", async (event, ctx) => {
      const tool = pi.getAllTools().find((candidate) => candidate.name === event.toolName);
      if (!tool) return;
      const waitable = manager.servers.filter((server) => isEnabled(server) && server.ready);
      if (waitable.length === 0) return;
      const reach = tool.reachesTools?.(event.input);
      let waiting;
      if (reach !== undefined) {
        waiting = waitable.filter((server) => reachesServer(reach, mcpNamespace(server.entry.name)));
      } else if (MCP_RESOURCE_TOOL_NAMES.has(tool.name)) {
        waiting = waitable;
      } else {
        const owner = manager.tools.ownerOf(event.toolName);
        waiting = waitable.filter((server) => server.entry.name === owner);
      }
      await manager.waitForServers(waiting, ctx.signal);
    });

    // Sign-ins done outside the session, such as `pi mcp login` run by the agent.
    pi.on("turn_start", async (_event, ctx) => {
      await manager.reconnectSignedIn(ctx);
    });

    pi.on("mcp_servers_change", async (_event, ctx) => {
      await manager.registrationsChanged(ctx);
    });

    pi.on("session_shutdown", async () => {
      await manager.shutdown();
    });

    registerMcpCommand(pi, manager, ui);
  };
}
