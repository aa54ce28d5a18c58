// The MCP servers of the current session: the ones from mcp.json and the
// ones extensions register (mcp.json wins on a name), their connections,
// and what changes them (startup, registrations, reconnects, sign-ins,
// enabling and disabling, exposure). Connections run in the background;
// whoever needs a server waits for its `ready` promise.
import { join } from "node:path";
import { setImmediate } from "node:timers";
import { getAgentDir } from "../agent-dir.js";
import { mcpNamespace } from "./client/naming.js";
import { loadMcpConfig, updateMcpServerConfig } from "./config-files.js";
import { activateDiscoveryTools } from "./discovery-tools.js";
import { McpServerLog } from "./server-log.js";
import { describeState } from "./server-status.js";
import { isEnabled } from "./servers-section.js";
import { configuredExposures } from "./tool-exposure.js";
import { McpToolRegistry } from "./tool-registry.js";

// The MCP client, its transports and OAuth load with the first connection,
// as pi loads its MCP runtime on first use: not with every extension that
// imports pi-coding-agent (about thirty modules). Once loaded, they are
// here for what can only happen after a connection exists (sign-in).
let connectionModules;
let loadingConnectionModules;
function loadConnectionModules() {
  loadingConnectionModules ??= Promise.all([import("./server-connection.js"), import("./oauth/index.js")]).then(
    ([connection, oauth]) => (connectionModules = { ...connection, ...oauth }),
  );
  return loadingConnectionModules;
}

const DEFAULT_STARTUP_WAIT_MS = 10_000;

export const errorMessage = (error) => (error instanceof Error ? error.message : String(error));

/** Whether some of the server's tools are declared to the model, so the first prompt waits for it. */
const hasDirectTools = (entry) => configuredExposures(entry).has("direct");

function defaultLoadConfig(ctx) {
  return loadMcpConfig({ agentDir: getAgentDir(), cwd: ctx.cwd, projectTrusted: ctx.isProjectTrusted() });
}

export class McpServerManager {
  /** `{ entry, registeredConfig?, connection?, ready?, attempt?, closing?, message? }` per server. */
  servers = [];
  configErrors = [];
  /** Lines about registered servers that mcp.json overrides. */
  overridden = [];
  /** The trusted project's mcp.json, where project overrides of global servers are saved. */
  projectConfig;
  /** Resolves once the startup connections settled (and their problems were reported). */
  pending;
  tools;
  openUrl;
  #pi;
  #options;
  #configuredEntries = [];
  #autoEnableCodemode = true;
  #warnedUnreachable = false;
  #waitedForStartup = false;
  #sessionCwd = globalThis.process?.cwd?.() ?? "/";
  #credentials;
  #modelRegistry;
  #serverLog;
  #updateConfig;
  /**
   * The current session's lifetime: aborted at shutdown, and before the
   * first session_start. Work remembers the signal it started under and
   * drops its results once that aborted.
   */
  #session = abortedController();
  /** Work that outlives the command that started it; shutdown waits for it. */
  #background = new Set();
  #listeners = new Set();
  /** Stored tokens of servers waiting for a sign-in, as they were then; a change means someone signed in. */
  #tokensAtSignIn = new Map();

  constructor(pi, options = {}) {
    this.#pi = pi;
    this.#options = options;
    this.openUrl = options.openUrl;
    this.#credentials = options.credentials;
    this.#updateConfig =
      options.updateConfig ??
      ((entry, patch) => updateMcpServerConfig(entry.override ?? entry.source, entry.name, patch, { override: entry.override !== undefined }));
    this.tools = new McpToolRegistry(pi, () => this.servers);
  }

  get sessionSignal() {
    return this.#session.signal;
  }

  findServer(name) {
    return this.servers.find((server) => server.entry.name === name);
  }

  /** Calls `listener` after every change of servers or states; returns the unsubscribe function. */
  subscribe(listener) {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  emitChange() {
    for (const listener of this.#listeners) listener();
  }

  /** Keeps `work` running past the command that started it; shutdown waits for it. */
  track(work) {
    const task = work.then(
      () => undefined,
      () => undefined,
    );
    this.#background.add(task);
    void task.finally(() => this.#background.delete(task));
    return work;
  }

  /** Activates codemode or tool_search for the configured exposures; warns once per session otherwise. */
  ensureDiscoveryActive(ctx) {
    const warned = activateDiscoveryTools(this.#pi, {
      servers: this.servers,
      autoEnableCodemode: this.#autoEnableCodemode,
      warned: this.#warnedUnreachable,
      notify: (message, type) => ctx.ui.notify(message, type),
    });
    if (warned) this.#warnedUnreachable = true;
  }

  // --- Session lifecycle ------------------------------------------------------

  startSession(ctx) {
    const loaded = (this.#options.loadConfig ?? defaultLoadConfig)(ctx);
    this.configErrors = loaded.errors;
    this.projectConfig = loaded.projectConfig;
    this.#autoEnableCodemode = loaded.autoEnableCodemode ?? true;
    this.#warnedUnreachable = false;
    this.#waitedForStartup = false;
    this.#sessionCwd = ctx.cwd;
    this.#modelRegistry = ctx.modelRegistry;
    this.#session = new AbortController();
    const { signal } = this.#session;
    this.#configuredEntries = loaded.servers;
    const registered = this.#registeredServers();
    this.overridden = registered.overridden;
    this.servers = [...loaded.servers.map((entry) => ({ entry })), ...registered.servers];
    this.emitChange();
    // Activated from the config: the first prompt does not wait for these servers.
    this.ensureDiscoveryActive(ctx);
    const enabled = this.servers.filter(isEnabled);
    if (enabled.length === 0) {
      this.reportProblems(ctx);
      return;
    }
    // One event loop turn first, so the first render is not held up by connecting.
    const firstTurn = new Promise((resolve) => setImmediate(resolve));
    this.pending = Promise.all(enabled.map((server) => this.startConnection(server, firstTurn)))
      .then(() => {
        if (!signal.aborted) this.reportProblems(ctx);
      })
      .catch((error) => {
        // The session may be gone, and ctx with it.
        try {
          ctx.ui.notify(`MCP failed to load: ${errorMessage(error)}`, "error");
        } catch {}
      });
  }

  async shutdown() {
    this.#session.abort();
    const closing = this.servers.flatMap((server) => (server.connection ? [server.connection] : []));
    this.servers = [];
    this.emitChange();
    await Promise.all([...this.#background, ...closing.map((connection) => connection.close())]);
  }

  /** Registrations changed during the session: connect the new servers, drop the removed ones. */
  async registrationsChanged(ctx) {
    const { signal } = this.#session;
    if (signal.aborted) return;
    const registered = this.#registeredServers();
    this.overridden = registered.overridden;
    const next = new Map(registered.servers.map((server) => [server.entry.name, server]));
    // A server registered again with another config is dropped here and comes back below.
    const removed = this.servers.filter(
      (server) => server.entry.scope === "extension" && next.get(server.entry.name)?.registeredConfig !== server.registeredConfig,
    );
    this.servers = this.servers.filter((server) => !removed.includes(server));
    for (const server of removed) this.tools.hide(server.entry.name);
    const added = registered.servers.filter((server) => !this.findServer(server.entry.name));
    this.servers.push(...added);
    this.emitChange();
    this.ensureDiscoveryActive(ctx);
    await Promise.all(removed.map((server) => server.connection?.close()));
    const connecting = added.filter(isEnabled);
    if (signal.aborted || connecting.length === 0) return;
    try {
      await Promise.all(connecting.map((server) => this.startConnection(server)));
      if (signal.aborted) {
        await Promise.all(connecting.map((server) => server.connection?.close()));
        return;
      }
    } catch (error) {
      ctx.ui.notify(`MCP failed to load: ${errorMessage(error)}`, "error");
      return;
    }
    if (signal.aborted) return;
    this.reportProblems(ctx, connecting);
  }

  /**
   * The first prompt waits for servers whose tools are declared to the
   * model, so its first request declares them, but not past the startup
   * wait: a hanging server must not hold up the prompt.
   */
  async waitForDirectServers(ctx) {
    if (this.#waitedForStartup) return;
    this.#waitedForStartup = true;
    const ready = this.servers.flatMap((server) => (isEnabled(server) && hasDirectTools(server.entry) && server.ready ? [server.ready] : []));
    if (ready.length === 0) return;
    let timer;
    const finished = await Promise.race([
      Promise.all(ready).then(() => true),
      new Promise((resolve) => {
        timer = setTimeout(() => resolve(false), this.#options.startupWaitMs ?? DEFAULT_STARTUP_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
    if (!finished) ctx.ui.notify("MCP servers are still connecting; their tools become available once connected.", "info");
  }

  /** Waits for the latest connection attempts of `waiting`, attempts started meanwhile included, or an abort. */
  async waitForServers(waiting, signal) {
    for (;;) {
      const attempts = waiting.flatMap((server) =>
        isEnabled(server) && this.servers.includes(server) && server.ready ? [{ server, ready: server.ready }] : [],
      );
      if (attempts.length === 0 || signal?.aborted) return;
      let onAbort;
      await Promise.race([
        Promise.all(attempts.map((attempt) => attempt.ready)),
        new Promise((resolve) => {
          onAbort = () => resolve();
          signal?.addEventListener("abort", onAbort, { once: true });
        }),
      ]);
      if (onAbort) signal?.removeEventListener("abort", onAbort);
      const settled = attempts.every(
        (attempt) => !isEnabled(attempt.server) || !this.servers.includes(attempt.server) || attempt.ready === attempt.server.ready,
      );
      if (signal?.aborted || settled) return;
    }
  }

  /** One message for what needs the user: everything at startup, or only the servers `only`. */
  reportProblems(ctx, only) {
    const lines = only ? [] : this.configErrors.map((error) => `config: ${error}`);
    for (const server of only ?? this.servers) {
      const state = server.connection?.state;
      if (state === "needs-auth" || state === "failed") lines.push(`${server.entry.name}: ${describeState(server)}`);
    }
    if (lines.length === 0) return;
    ctx.ui.notify(`MCP servers need attention:\n${lines.map((line) => `  ${line}`).join("\n")}\nRun /mcp to fix.`, "warning");
  }

  /** Reconnects servers waiting for a sign-in whose credentials were stored since (`pi mcp login`). */
  async reconnectSignedIn(ctx) {
    if (this.#tokensAtSignIn.size === 0) return;
    const signedIn = [...this.#tokensAtSignIn].filter(([connection, tokens]) => this.#storedTokens(connection) !== tokens);
    if (signedIn.length === 0) return;
    for (const [connection] of signedIn) this.#tokensAtSignIn.delete(connection);
    await Promise.allSettled(signedIn.map(([connection]) => connection.reconnect()));
    this.ensureDiscoveryActive(ctx);
  }

  // --- Connections ------------------------------------------------------------

  /**
   * Connects `server` in the background once `after` settled, unless it was
   * disabled, replaced or shut down meanwhile. `server.ready` settles when
   * it connected or failed (failures show in its state); the returned
   * promise rejects only when the connection cannot be created at all.
   */
  startConnection(server, after) {
    const { signal } = this.#session;
    const attempt = Symbol("attempt");
    server.attempt = attempt;
    const isCurrent = () => !signal.aborted && server.attempt === attempt && isEnabled(server) && this.servers.includes(server);
    const ready = (async () => {
      await after;
      if (!isCurrent()) return;
      const connection = await this.#createConnection(server, isCurrent);
      if (!connection || !isCurrent()) return;
      await connection.getClient().catch(() => undefined);
    })();
    server.ready = ready.catch(() => undefined);
    return ready;
  }

  /** Returns an error message, or undefined when the server reconnected. */
  async reconnect(server) {
    const { connection } = server;
    if (!connection) return `MCP server "${server.entry.name}" is disabled.`;
    const previous = server.ready;
    const ready = (async () => {
      await previous;
      await connection.reconnect();
    })();
    server.ready = ready.catch(() => undefined);
    try {
      await ready;
      return undefined;
    } catch (error) {
      return errorMessage(error);
    }
  }

  /** Returns an error message when the config could not be saved; connection failures show in the state. */
  async setEnabled(server, enabled, inProject = false) {
    const failed = this.#saveConfig(server, { enabled }, inProject);
    if (failed) return failed;
    if (enabled) {
      await this.startConnection(server, server.closing);
      return undefined;
    }
    const { connection } = server;
    server.attempt = undefined;
    server.connection = undefined;
    // A reconnect may have detached its old client and still be closing it: wait for both.
    if (connection) server.closing = Promise.all([connection.close(), server.ready]).then(() => undefined);
    const { closing } = server;
    this.tools.hide(server.entry.name);
    this.emitChange();
    try {
      await closing;
    } finally {
      if (server.closing === closing) server.closing = undefined;
    }
    return undefined;
  }

  /** Returns an error message when the config could not be saved. */
  setExposure(server, exposure) {
    const failed = this.#saveConfig(server, { exposure });
    if (failed) return failed;
    if (server.connection?.state === "connected") this.tools.register(server.connection);
    this.tools.syncResourceTools();
    // Tools no longer direct leave the declared set; direct ones are activated when registered.
    const indirect = new Set(
      this.#pi
        .getAllTools()
        .filter((tool) => tool.exposure !== "direct")
        .map((tool) => tool.name),
    );
    const serverTools = this.tools.toolsOf(server.entry.name);
    this.#pi.setActiveTools(this.#pi.getActiveTools().filter((name) => !serverTools.has(name) || !indirect.has(name)));
    this.emitChange();
    return undefined;
  }

  // --- Sign-in ------------------------------------------------------------------

  /** Signs in, then reconnects; returns an error message. `cancel` or the session's end stop it. */
  async signIn(server, prompt, cancel) {
    const { connection } = server;
    const url = connection?.oauthUrl;
    if (!connection || !url) return `MCP server "${server.entry.name}" does not use OAuth.`;
    const signal = cancel ? AbortSignal.any([this.#session.signal, cancel]) : this.#session.signal;
    try {
      await this.track(
        connectionModules.signInMcpServer({
          serverUrl: url,
          store: this.#credentialStore().forServer(server.entry.name, url),
          settings: connection.oauthSettings(),
          challenge: connection.challenge,
          prompt,
          signal,
        }),
      );
    } catch (error) {
      if (error instanceof connectionModules.McpSignInCancelledError) return "Sign-in cancelled.";
      return `Sign-in failed: ${errorMessage(error)}`;
    }
    // The challenge that asked for this sign-in is answered.
    connection.challenge = undefined;
    try {
      await connection.reconnect();
    } catch (error) {
      return `Signed in, but ${errorMessage(error)}`;
    }
    return undefined;
  }

  /** Whether credentials were stored; the server then needs a sign-in. */
  async signOut(server) {
    const { connection } = server;
    const url = connection?.oauthUrl;
    if (!connection || !url) return false;
    const removed = this.#credentialStore().remove(server.entry.name, url);
    await connection.signOut();
    return removed;
  }

  // --- Internals ------------------------------------------------------------------

  /** Registered servers, except names mcp.json defines (those are reported as overridden). */
  #registeredServers() {
    const servers = [];
    const overridden = [];
    for (const { name, config, extensionPath } of this.#pi.getMcpServers()) {
      const configured = this.#configuredEntries.find((entry) => mcpNamespace(entry.name) === mcpNamespace(name));
      if (configured) {
        overridden.push(`"${name}" registered by ${extensionPath} is overridden by "${configured.name}" in ${configured.source}`);
        continue;
      }
      servers.push({ entry: { name, config, source: extensionPath, scope: "extension" }, registeredConfig: JSON.stringify(config) });
    }
    return { servers, overridden };
  }

  /** The OAuth credentials; only after the connection modules loaded (a connection exists). */
  #credentialStore() {
    this.#credentials ??= new connectionModules.McpOAuthCredentialStore();
    return this.#credentials;
  }

  #log() {
    this.#serverLog ??= new McpServerLog(this.#options.logPath ?? join(getAgentDir(), "mcp.log"));
    return this.#serverLog;
  }

  #storedTokens(connection) {
    const url = connection.oauthUrl;
    return url && this.#credentials ? JSON.stringify(this.#credentials.tokens(connection.name, url) ?? null) : "null";
  }

  #connectionChanged(connection) {
    if (connection.state !== "needs-auth") this.#tokensAtSignIn.delete(connection);
    else if (!this.#tokensAtSignIn.has(connection)) this.#tokensAtSignIn.set(connection, this.#storedTokens(connection));
    this.emitChange();
  }

  async #createConnection(server, isCurrent) {
    // pi loads its MCP client here on first use, as this does.
    const { createDefaultTransport, McpServerConnection } = await loadConnectionModules();
    if (!isCurrent()) return undefined;
    const connection = new McpServerConnection({
      entry: server.entry,
      cwd: this.#sessionCwd,
      createTransport: this.#options.createTransport ?? createDefaultTransport,
      credentials: this.#credentialStore(),
      providerToken: async (provider) => this.#modelRegistry?.getApiKeyForProvider(provider),
      log: this.#log(),
      onTools: (changed) => {
        if (isCurrent()) this.tools.register(changed);
      },
      onChange: (changed) => {
        if (isCurrent()) this.#connectionChanged(changed);
        else this.#tokensAtSignIn.delete(changed);
      },
    });
    server.connection = connection;
    this.emitChange();
    return connection;
  }

  /**
   * Saves a change to the mcp.json defining (or, `inProject`, overriding in
   * the project) the server; registered servers change for this session
   * only. Returns an error message when the file could not be written.
   */
  #saveConfig(server, patch, inProject = false) {
    const override = inProject ? this.projectConfig : server.entry.override;
    const entry = override ? { ...server.entry, override } : server.entry;
    if (entry.scope !== "extension") {
      try {
        this.#updateConfig(entry, patch);
      } catch (error) {
        return `Could not update ${entry.override ?? entry.source}: ${errorMessage(error)}`;
      }
    }
    server.entry = { ...entry, config: { ...entry.config, ...patch } };
    return undefined;
  }
}

function abortedController() {
  const controller = new AbortController();
  controller.abort();
  return controller;
}
