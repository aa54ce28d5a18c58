// The `/mcp` command. In the TUI it opens the manager; elsewhere it prints
// the servers' status. `login`, `logout` and `reconnect` take a server name,
// or ask for one when several fit.
import { showMcpManager } from "./manager-view.js";
import { describeState, formatStatus } from "./server-status.js";

const USAGE = "Usage: /mcp, /mcp login [server], /mcp logout [server], /mcp reconnect [server]";
const ACTIONS = ["login", "logout", "reconnect"];

export function registerMcpCommand(pi, manager, ui) {
  const usesOAuth = (server) => server.connection?.oauthUrl !== undefined;
  const oauthChoice = {
    eligible: usesOAuth,
    preferred: (server) => server.connection?.state === "needs-auth",
    none: "No enabled MCP server uses OAuth. Only HTTP servers without an Authorization header do.",
  };
  const reconnectChoice = {
    eligible: (server) => server.connection !== undefined,
    preferred: (server) => server.connection?.state === "failed" || server.connection?.state === "disconnected",
    none: "No enabled MCP server to reconnect.",
  };

  /** The server a subcommand acts on: the named one, the only (or only preferred) eligible one, or the user's choice. */
  const pickServer = async (name, ctx, choice) => {
    if (name) {
      const server = manager.findServer(name);
      if (!server) ctx.ui.notify(`No MCP server named "${name}".`, "error");
      else if (!choice.eligible(server)) ctx.ui.notify(choice.none, "error");
      return server && choice.eligible(server) ? server : undefined;
    }
    const candidates = manager.servers.filter(choice.eligible);
    if (candidates.length === 0) {
      ctx.ui.notify(choice.none, "info");
      return undefined;
    }
    const preferred = candidates.filter(choice.preferred);
    if (candidates.length === 1) return candidates[0];
    if (preferred.length === 1) return preferred[0];
    const picked = await ctx.ui.select(
      "MCP server",
      candidates.map((server) => server.entry.name),
    );
    return candidates.find((server) => server.entry.name === picked);
  };

  const login = async (server, ctx) => {
    const { name } = server.entry;
    if (!ctx.hasUI) {
      ctx.ui.notify(`Signing in to MCP server "${name}" requires interactive mode.`, "error");
      return;
    }
    const signal = manager.sessionSignal;
    let failure;
    if (ctx.mode === "tui") {
      await showMcpManager(ctx, async (view) => {
        failure = await ui.signInWithUi(view, server);
      });
    } else {
      failure = await manager.signIn(server, {
        showAuthorizationUrl: (url) => {
          ctx.ui.notify(`Sign in to MCP server "${name}" in your browser:\n${url.href}`, "info");
          ui.openUrl(url.href);
        },
        promptForRedirectUrl: (promptSignal) =>
          ctx.ui.input(
            `Waiting for sign-in to "${name}". If the browser cannot reach this machine, paste the URL it was redirected to.`,
            "http://127.0.0.1:.../callback?code=...",
            { signal: promptSignal },
          ),
      });
    }
    // The session ended meanwhile, which cancelled the sign-in and made ctx stale.
    if (signal.aborted) return;
    if (failure) {
      ctx.ui.notify(failure, failure === "Sign-in cancelled." ? "info" : "error");
      return;
    }
    manager.ensureDiscoveryActive(ctx);
    ctx.ui.notify(`Signed in to MCP server "${name}" (${server.connection?.tools.length ?? 0} tools).`, "info");
  };

  const completions = (prefix) => {
    const [action, server, ...rest] = prefix.trimStart().split(/\s+/);
    if (rest.length > 0) return null;
    if (server === undefined) {
      return ACTIONS.filter((item) => item.startsWith(action ?? "")).map((item) => ({ value: `${item} `, label: item }));
    }
    if (!ACTIONS.includes(action)) return null;
    const items = manager.servers
      .filter((candidate) => (action === "reconnect" ? candidate.connection !== undefined : usesOAuth(candidate)))
      .filter((candidate) => candidate.entry.name.startsWith(server))
      .map((candidate) => ({ value: `${action} ${candidate.entry.name}`, label: candidate.entry.name, description: describeState(candidate) }));
    return items.length > 0 ? items : null;
  };

  pi.registerCommand("mcp", {
    description: "Manage MCP servers: sign in, reconnect, enable or disable, and change exposure",
    getArgumentCompletions: completions,
    handler: async (args, ctx) => {
      const [action, name, ...extra] = args.trim().split(/\s+/).filter(Boolean);
      if (action === undefined) {
        if (ctx.mode === "tui") await showMcpManager(ctx, (view) => ui.manage(view, ctx));
        else {
          await manager.pending;
          ctx.ui.notify(formatStatus(manager), "info");
        }
        return;
      }
      if (extra.length > 0) {
        ctx.ui.notify(USAGE, "warning");
        return;
      }
      await manager.pending;
      switch (action) {
        case "login": {
          const server = await pickServer(name, ctx, oauthChoice);
          if (server) await login(server, ctx);
          return;
        }
        case "logout": {
          const server = await pickServer(name, ctx, oauthChoice);
          if (!server) return;
          const removed = await manager.signOut(server);
          const { name: serverName } = server.entry;
          ctx.ui.notify(removed ? `Signed out of MCP server "${serverName}".` : `No stored credentials for MCP server "${serverName}".`, "info");
          return;
        }
        case "reconnect": {
          const server = await pickServer(name, ctx, reconnectChoice);
          if (!server) return;
          const failure = await manager.reconnect(server);
          if (failure) ctx.ui.notify(failure, "error");
          else {
            manager.ensureDiscoveryActive(ctx);
            ctx.ui.notify(`Reconnected to MCP server "${server.entry.name}" (${describeState(server)}).`, "info");
          }
          return;
        }
        default:
          ctx.ui.notify(USAGE, "warning");
      }
    },
  });
}
