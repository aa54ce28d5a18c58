// `/mcp` in the TUI: a list of servers (what needs attention first), and
// per server what can be done: sign in or out, reconnect, list its tools,
// change its exposure, enable or disable it (in mcp.json, or only in this
// project for a global server). Opening and closing connections runs in the
// background so the menu stays usable; the menus rebuild as states change.
import { resolve } from "node:path";
import { getAgentDir } from "../agent-dir.js";
import { errorMessage } from "./server-manager.js";
import { attentionRank, describeState, describeTransport, EXPOSURE_DESCRIPTIONS, firstLine } from "./server-status.js";
import { isEnabled } from "./servers-section.js";
import { getMcpToolExposure, serverExposure } from "./tool-exposure.js";

const PROJECT_SAVED = "saved to the project mcp.json";

/** Where a change of the server is saved, as the menu says it. */
function savedWhere(entry) {
  if (entry.scope === "extension") return "for this session";
  if (entry.override) return PROJECT_SAVED;
  return entry.scope ? `saved to the ${entry.scope} mcp.json` : "saved to mcp.json";
}

export function createMcpManager(manager, { openUrl }) {
  const notices = () => [...manager.configErrors.map((error) => `config: ${error}`), ...manager.overridden.map((line) => `overridden: ${line}`)];

  const serversMenu = () => ({
    title: "MCP servers",
    error: notices().join("\n") || undefined,
    items: [...manager.servers]
      .sort((a, b) => attentionRank(a) - attentionRank(b) || a.entry.name.localeCompare(b.entry.name))
      .map((server) => ({
        value: server.entry.name,
        label: server.entry.name,
        description: `${describeState(server)} · ${serverExposure(server.entry)} · ${server.entry.override ? "global, project override" : (server.entry.scope ?? server.entry.source)}`,
      })),
    empty: `No MCP servers configured. Add them to ${resolve(getAgentDir(), "mcp.json")} or .pi/mcp.json.`,
    confirmLabel: "manage",
    cancelLabel: "close",
  });

  const serverMenu = (name) => {
    const server = manager.findServer(name);
    if (!server) return { title: name, items: [], empty: "This server is no longer configured.", confirmLabel: "", cancelLabel: "back" };
    const { entry, connection } = server;
    const saved = savedWhere(entry);
    // A global server without an override can be switched for the trusted project alone.
    const inProject = entry.scope === "global" && !entry.override && manager.projectConfig !== undefined;
    const items = [];
    if (!isEnabled(server)) {
      items.push({ value: "enable", label: "Enable", description: saved });
      if (inProject) items.push({ value: "enable-project", label: "Enable in this project", description: PROJECT_SAVED });
    } else {
      const state = connection?.state;
      if (state === "needs-auth") items.push({ value: "signin", label: "Sign in", description: "opens the browser" });
      if (state === "connected" && connection) items.push({ value: "tools", label: "Tools", description: `${connection.tools.length} offered` });
      if (state === "failed" || state === "disconnected" || state === "connected" || state === "needs-auth") items.push({ value: "reconnect", label: "Reconnect" });
      if (state === "connected" && connection?.oauthUrl) items.push({ value: "signout", label: "Sign out", description: "deletes the stored credentials" });
      items.push({ value: "exposure", label: "Exposure", description: serverExposure(entry) });
      items.push({ value: "disable", label: "Disable", description: saved });
      if (inProject) items.push({ value: "disable-project", label: "Disable in this project", description: PROJECT_SAVED });
    }
    const details = [
      describeTransport(entry),
      `${entry.scope ?? "config"}: ${entry.source}`,
      ...(entry.override ? [`project override: ${entry.override}`] : []),
      `State: ${describeState(server, false)}`,
    ];
    const error = [server.message, connection?.state === "connected" ? undefined : connection?.error].filter((line) => line !== undefined).join("\n");
    return {
      title: `MCP server ${name}`,
      details: details.join("\n"),
      error: error || undefined,
      items,
      selected: items[0]?.value,
      confirmLabel: "select",
      cancelLabel: "back",
    };
  };

  const showTools = async (ui, server) => {
    const exposure = serverExposure(server.entry);
    const someOverride = Object.keys(server.entry.config.toolExposure ?? {}).length > 0;
    await ui.menu(() => ({
      title: `Tools of ${server.entry.name}`,
      details: `Exposure ${exposure}: ${exposure === "hidden" ? "unreachable" : EXPOSURE_DESCRIPTIONS[exposure]}${someOverride ? "\nSome tools override it with toolExposure." : ""}`,
      items: (server.connection?.tools ?? []).map((tool) => {
        const toolExposure = getMcpToolExposure(server.entry.config, tool.name);
        const description = firstLine(tool.description ?? "");
        return { value: tool.name, label: tool.name, description: toolExposure === exposure ? description : `[${toolExposure}] ${description}` };
      }),
      empty: "The server offers no tools.",
      confirmLabel: "back",
      cancelLabel: "back",
    }));
  };

  const chooseExposure = async (ui, server) => {
    const current = serverExposure(server.entry);
    const choice = await ui.menu(() => ({
      title: `Exposure of ${server.entry.name}`,
      details:
        server.entry.scope === "extension"
          ? `Applies to this session; the server is registered by ${server.entry.source}.`
          : `Saved to ${server.entry.override ?? server.entry.source}.`,
      items: Object.keys(EXPOSURE_DESCRIPTIONS).map((exposure) => ({
        value: exposure,
        label: `${exposure === current ? "✓ " : "  "}${exposure}`,
        description: EXPOSURE_DESCRIPTIONS[exposure],
      })),
      selected: current,
      confirmLabel: "save",
      cancelLabel: "back",
    }));
    if (!choice || choice === current) return undefined;
    return manager.setExposure(server, choice);
  };

  /** Signs in on the manager's sign-in screen: the URL with a copy key, Esc cancels. */
  const signInWithUi = (ui, server) => {
    const title = `Sign in to ${server.entry.name}`;
    const cancel = new AbortController();
    const status = (message) => ui.status(title, message, () => cancel.abort());
    let authorizationUrl = "";
    status("Contacting the authorization server…");
    return manager.signIn(
      server,
      {
        showAuthorizationUrl: (url) => {
          authorizationUrl = url.href;
          openUrl(url.href);
        },
        promptForRedirectUrl: async (signal) => {
          const value = await ui.redirectUrl(title, authorizationUrl, signal);
          status("Connecting…");
          return value;
        },
      },
      cancel.signal,
    );
  };

  /** Runs `operation` without blocking the menu; its result message shows on the server once done. */
  const inBackground = (ctx, server, operation) => {
    const ready = operation();
    const { attempt } = server;
    const signal = manager.sessionSignal;
    const finish = (message) => {
      if (signal.aborted || server.attempt !== attempt || !manager.servers.includes(server)) return;
      server.message = message;
      manager.ensureDiscoveryActive(ctx);
      manager.emitChange();
    };
    void manager.track(ready.then(finish, (error) => finish(errorMessage(error))));
  };

  const runAction = async (ui, ctx, server, action) => {
    const signal = manager.sessionSignal;
    let message;
    switch (action) {
      case "signin":
        message = await signInWithUi(ui, server);
        break;
      case "reconnect":
        // The state and its error report failures, required sign-ins included.
        inBackground(ctx, server, async () => {
          await manager.reconnect(server);
          return undefined;
        });
        break;
      case "signout":
        await manager.signOut(server);
        break;
      case "tools":
        await showTools(ui, server);
        break;
      case "exposure":
        message = await chooseExposure(ui, server);
        break;
      case "enable":
      case "disable":
      case "enable-project":
      case "disable-project":
        inBackground(ctx, server, () => manager.setEnabled(server, action.startsWith("enable"), action.endsWith("-project")));
        break;
    }
    // The session ended meanwhile (during a sign-in, say), and ctx with it.
    if (signal.aborted) return;
    server.message = message;
    manager.ensureDiscoveryActive(ctx);
    manager.emitChange();
  };

  const subscribe = (listener) => manager.subscribe(listener);

  return {
    signInWithUi,
    /** Server list, then a server's menu, until the user closes the list. */
    async manage(ui, ctx) {
      for (;;) {
        const name = await ui.menu(serversMenu, subscribe);
        if (!name) return;
        for (;;) {
          const action = await ui.menu(() => serverMenu(name), subscribe);
          const server = manager.findServer(name);
          if (!action || !server) break;
          await runAction(ui, ctx, server, action);
        }
      }
    },
  };
}
