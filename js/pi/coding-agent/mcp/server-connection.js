// One configured MCP server and its connection: opened on first use and
// again after it dropped, retried for transient HTTP failures, and
// described by a state the status and manager show ("connecting",
// "connected", "needs-auth", "failed", "disconnected", "closed"). Requests
// go through `#withClient`, which reconnects when needed and turns a
// refused sign-in into the "needs-auth" state.
import { homedir } from "node:os";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { McpHttpError, McpAuthRequiredError, McpSessionExpiredError, StreamableHttpTransport } from "./client/http-transport.js";
import { JSON_RPC_ERROR_CODES, McpError } from "./client/jsonrpc.js";
import { McpClient } from "./client/mcp-client.js";
import { StdioTransport } from "./client/stdio-transport.js";
import { resolveConfigValueOrThrow, resolveHeadersOrThrow } from "./config-values.js";
import { createMcpAuthProvider, McpOAuthAuthorizationRequiredError } from "./oauth/index.js";
import { PI_VERSION } from "./pi-identity.js";
import { sliceTail } from "./text-tail.js";

const DEFAULT_TIMEOUT_SECONDS = 60;
const STDERR_TAIL_CHARS = 2_000;
/** Waits before the second and third attempt to reach an HTTP server that failed transiently. */
const CONNECT_RETRY_DELAYS_MS = [250, 1_000];

const errorMessage = (error) => (error instanceof Error ? error.message : String(error));

/** Network failures, and servers that are overloaded or restarting. */
function isTransient(error) {
  if (error instanceof McpHttpError) return error.status === 408 || error.status === 429 || (error.status >= 500 && error.status !== 501);
  return error instanceof TypeError;
}

const authProviderName = (entry) => ("url" in entry.config ? entry.config.auth?.provider : undefined);

function signInRequiredMessage(entry) {
  const provider = authProviderName(entry);
  return `MCP server "${entry.name}" requires sign-in. Run ${provider ? `/login ${provider}` : "/mcp"} to sign in.`;
}

/** HTTP servers use OAuth unless the config sends an Authorization header or a provider's credential. */
function usesOAuth(entry) {
  const { config } = entry;
  if (!("url" in config) || config.auth) return false;
  return !Object.keys(config.headers ?? {}).some((header) => header.toLowerCase() === "authorization");
}

/** `~` and `~/…` (`~\…` on Windows) name the home directory, as in a shell. */
function expandHome(value) {
  if (value === "~") return homedir();
  if (value.startsWith("~/") || (globalThis.process?.platform === "win32" && value.startsWith("~\\"))) return join(homedir(), value.slice(2));
  return value;
}

/** The transport a config asks for: HTTP for `url`, else a child process started in `cwd`. */
export function createDefaultTransport(entry, cwd, authProvider) {
  const { config, name } = entry;
  if ("url" in config) {
    return new StreamableHttpTransport({ url: config.url, headers: resolveHeadersOrThrow(config.headers, `MCP server "${name}"`), authProvider });
  }
  const env = {};
  for (const [key, value] of Object.entries(config.env ?? {})) {
    env[key] = resolveConfigValueOrThrow(value, `MCP server "${name}" env "${key}"`);
  }
  return new StdioTransport({
    command: expandHome(config.command),
    args: config.args?.map(expandHome),
    cwd: resolve(cwd, expandHome(config.cwd ?? ".")),
    env,
    stderr: "pipe",
  });
}

/** A server without `resources/templates/list` has no templates. */
async function orWhenUnsupported(list, empty) {
  try {
    return await list();
  } catch (error) {
    if (error instanceof McpError && error.code === JSON_RPC_ERROR_CODES.methodNotFound) return empty;
    throw error;
  }
}

const sleep = (ms, signal) =>
  new Promise((done) => {
    if (signal.aborted) return done();
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      done();
    }, { once: true });
  });

export class McpServerConnection {
  entry;
  state = "connecting";
  /** Why the server failed or dropped, with the end of its stderr. */
  error;
  tools = [];
  /** Whether the server offers resources; they are listed on demand, since a full listing can be slow. */
  hasResources = false;
  /** The server's instructions from initialize, describing its tools as a group. */
  instructions;
  /** The last OAuth challenge; a sign-in uses its resource metadata URL and scope. */
  challenge;
  #client;
  #opening;
  /** Aborted by close(): also cancels a connect in progress and the waits between its attempts. */
  #shutdown = new AbortController();
  /** Stderr of a stdio server that failed to connect. */
  #stderrTail;
  #cwd;
  #createTransport;
  #authProvider;
  #onTools;
  #onChange;
  #log;

  /**
   * `entry` ({ name, config, source, scope }), `cwd` for stdio servers,
   * `createTransport(entry, cwd, authProvider)`, `credentials` (an OAuth
   * credential store), `providerToken(provider)`, `log`, and the callbacks
   * `onTools(connection)` (tools listed) and `onChange(connection)`.
   */
  constructor(options) {
    this.entry = options.entry;
    this.#cwd = options.cwd;
    this.#createTransport = options.createTransport;
    this.#onTools = options.onTools;
    this.#onChange = options.onChange;
    this.#log = options.log;
    const url = this.oauthUrl;
    const provider = authProviderName(this.entry);
    if (url) {
      this.#authProvider = createMcpAuthProvider({
        serverUrl: url,
        store: options.credentials.forServer(this.entry.name, url),
        settings: () => this.oauthSettings(),
        onChallenge: (challenge) => {
          this.challenge = challenge;
        },
      });
    } else if (provider) {
      // Asked on every request, so the provider's own refreshes apply; nothing is kept here.
      this.#authProvider = { token: async () => options.providerToken?.(provider), settled: async () => {} };
    }
  }

  get name() {
    return this.entry.name;
  }

  get closed() {
    return this.#shutdown.signal.aborted;
  }

  get timeoutMs() {
    return (this.entry.config.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000;
  }

  /** The server's URL when it signs in with OAuth. */
  get oauthUrl() {
    return usesOAuth(this.entry) ? this.entry.config.url : undefined;
  }

  /** The config's `oauth` settings, the client secret resolved. */
  oauthSettings() {
    const oauth = "url" in this.entry.config ? this.entry.config.oauth : undefined;
    if (!oauth) return {};
    return {
      clientId: oauth.clientId,
      clientSecret:
        oauth.clientSecret === undefined ? undefined : resolveConfigValueOrThrow(oauth.clientSecret, `MCP server "${this.entry.name}" oauth.clientSecret`),
      callbackPort: oauth.callbackPort,
      callbackUrl: oauth.callbackUrl,
      scope: oauth.scope,
      clientName: oauth.clientName,
      clientRegistration: oauth.clientRegistration,
      authServerMetadataUrl: oauth.authServerMetadataUrl ? new URL(oauth.authServerMetadataUrl) : undefined,
    };
  }

  /** The connected client, connecting first when needed; concurrent callers share one attempt. */
  getClient() {
    if (this.closed) return Promise.reject(new Error(`MCP server "${this.entry.name}" is shut down`));
    if (this.#client?.connectionState === "connected") return Promise.resolve(this.#client);
    this.#opening ??= this.#open().finally(() => {
      this.#opening = undefined;
    });
    return this.#opening;
  }

  callTool(name, args, options) {
    return this.#withClient((client) => client.callTool(name, args, options));
  }

  readResource(uri, options) {
    return this.#withClient((client) => client.readResource(uri, options), true);
  }

  resourcesPage(cursor, options) {
    return this.#withClient((client) => client.listResourcesPage(cursor, options), true);
  }

  resourceTemplatesPage(cursor, options) {
    return this.#withClient((client) => orWhenUnsupported(() => client.listResourceTemplatesPage(cursor, options), { resourceTemplates: [] }), true);
  }

  allResources(options) {
    return this.#withClient((client) => client.listResources(options), true);
  }

  allResourceTemplates(options) {
    return this.#withClient((client) => orWhenUnsupported(() => client.listResourceTemplates(options), []), true);
  }

  /** Connects again, with fresh credentials for example after a sign-in. */
  async reconnect() {
    await this.#opening?.catch(() => undefined);
    if (this.#client) await this.#drop(this.#client);
    await this.getClient();
  }

  /** Disconnects after the stored credentials were removed. */
  async signOut() {
    await this.#opening?.catch(() => undefined);
    if (this.#client) await this.#drop(this.#client);
    if (!this.closed) this.#needsAuth();
  }

  /** Resolves once no transport of this server is open, a connecting one included. */
  async close() {
    this.#shutdown.abort();
    this.state = "closed";
    this.#changed();
    const client = this.#client;
    this.#client = undefined;
    await Promise.all([client?.close().catch(() => undefined), this.#opening?.catch(() => undefined)]);
    // A refresh the server answered may have rotated the refresh token: its tokens must be saved before exit.
    await this.#authProvider?.settled();
  }

  /**
   * Runs a request, reconnecting when needed. Read-only requests are tried
   * once more after a transient HTTP error; tool calls are not, since they
   * may have run. A request the server refused because it forgot the
   * session did not run, so it is retried on a new one.
   */
  async #withClient(run, readOnly = false) {
    for (let attempt = 1; ; attempt++) {
      const client = await this.getClient();
      try {
        return await run(client);
      } catch (error) {
        if (readOnly && attempt === 1 && error instanceof McpHttpError && isTransient(error)) {
          await new Promise((done) => setTimeout(done, CONNECT_RETRY_DELAYS_MS[0]));
          continue;
        }
        if (error instanceof McpSessionExpiredError && attempt === 1) {
          // Detached, not closed: closing would fail the client's other calls, which retry the same way.
          if (this.#client === client) this.#client = undefined;
          continue;
        }
        if (!this.#refusedSignIn(error)) throw error;
        await this.#drop(client);
        this.#needsAuth();
        throw new Error(signInRequiredMessage(this.entry));
      }
    }
  }

  /** OAuth servers that still refuse after a refresh need the user to sign in. */
  #refusedSignIn(error) {
    return error instanceof McpOAuthAuthorizationRequiredError || (this.#authProvider !== undefined && error instanceof McpAuthRequiredError);
  }

  #needsAuth() {
    this.state = "needs-auth";
    this.error = undefined;
    this.#changed();
  }

  #changed() {
    this.#onChange?.(this);
  }

  async #drop(client) {
    if (this.#client === client) this.#client = undefined;
    await client.close().catch(() => undefined);
  }

  async #open() {
    this.state = "connecting";
    this.#changed();
    const delays = "url" in this.entry.config ? CONNECT_RETRY_DELAYS_MS : [];
    for (let attempt = 0; ; attempt++) {
      this.#stderrTail = undefined;
      try {
        return await this.#connectOnce();
      } catch (error) {
        const delay = delays[attempt];
        if (this.closed || delay === undefined || !isTransient(error)) throw this.#failed(error);
        await sleep(delay, this.#shutdown.signal);
        if (this.closed) throw this.#failed(error);
      }
    }
  }

  async #connectOnce() {
    const client = new McpClient({
      name: "pi",
      version: PI_VERSION,
      requestTimeoutMs: this.timeoutMs,
      roots: [{ uri: pathToFileURL(this.#cwd).href, name: basename(this.#cwd) }],
    });
    const log = this.#log;
    if (log) client.onNotification("notifications/message", (params) => log.write(this.entry.name, params));
    // Closing the client fails its pending handshake and closes the transport. Memoized: a second
    // close() would return before the first finished closing the transport.
    let closing;
    const closeClient = () => {
      closing ??= client.close().catch(() => undefined);
      return closing;
    };
    this.#shutdown.signal.addEventListener("abort", closeClient, { once: true });
    let transport;
    try {
      transport = this.#createTransport(this.entry, this.#cwd, this.#authProvider);
      await client.connect(transport);
      client.onNotification("notifications/tools/list_changed", () => {
        void this.#refreshTools(client);
      });
      const stdio = transport instanceof StdioTransport ? transport : undefined;
      client.onClose(() => this.#dropped(client, stdio));
      // Servers without the tools capability (prompts or resources only) do not answer tools/list.
      const tools = client.serverCapabilities?.tools ? await client.listTools() : [];
      if (this.closed) throw new Error("shut down while connecting");
      if (client.connectionState !== "connected") throw new Error("connection closed during setup");
      this.#client = client;
      this.tools = tools;
      this.hasResources = client.serverCapabilities?.resources !== undefined;
      this.instructions = client.instructions?.trim() || undefined;
      this.state = "connected";
      this.error = undefined;
      this.#onTools(this);
      this.#changed();
      return client;
    } catch (error) {
      await closeClient();
      if (transport instanceof StdioTransport) this.#stderrTail = sliceTail(transport.stderr.trim(), STDERR_TAIL_CHARS) || undefined;
      throw error;
    } finally {
      this.#shutdown.signal.removeEventListener("abort", closeClient);
    }
  }

  #failed(error) {
    if (this.#refusedSignIn(error) && !this.closed) {
      this.#needsAuth();
      return new Error(signInRequiredMessage(this.entry));
    }
    this.state = this.closed ? "closed" : "failed";
    this.error = this.#stderrTail ? `${errorMessage(error)}\n${this.#stderrTail}` : errorMessage(error);
    this.#changed();
    return new Error(`MCP server "${this.entry.name}" failed to connect: ${this.error}`);
  }

  /** The transport dropped: the next call reconnects, and until then the state says why. */
  #dropped(client, stdio) {
    if (this.#client !== client || this.closed) return;
    this.#client = undefined;
    this.state = "disconnected";
    const stderr = stdio ? sliceTail(stdio.stderr.trim(), STDERR_TAIL_CHARS) : undefined;
    this.error = stderr ? `Connection closed\n${stderr}` : "Connection closed";
    this.#changed();
  }

  async #refreshTools(client) {
    try {
      const tools = await client.listTools();
      if (this.#client !== client || this.closed) return;
      this.tools = tools;
      this.#onTools(this);
    } catch (error) {
      this.error = `Failed to refresh tools: ${errorMessage(error)}`;
    }
    this.#changed();
  }
}
