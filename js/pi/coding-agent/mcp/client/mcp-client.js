// The client side of one MCP session over a transport: the initialize
// handshake, requests matched to their responses (with timeouts, aborts and
// progress), the requests a server may send us (ping, roots/list), and
// notifications. The transport carries messages; everything about their
// meaning is here.
import {
  asError,
  isJsonRpcId,
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  isObject,
  JSON_RPC_ERROR_CODES,
  McpAbortError,
  McpConnectionClosedError,
  McpError,
  McpTimeoutError,
} from "./jsonrpc.js";
import {
  checkCallToolResult,
  checkInitializeResult,
  checkListPage,
  checkReadResourceResult,
  LATEST_PROTOCOL_VERSION,
  LISTS,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "./protocol.js";

const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** A server whose cursors never end the list is stopped after this many pages. */
const MAX_LIST_PAGES = 1_000;

export class McpClient {
  #options;
  /** "idle", "connecting", "connected" or "closed". */
  #state = "idle";
  #transport;
  #detachTransport = [];
  #nextId = 1;
  #initialized;
  /** Our requests awaiting answers, by id. */
  #pending = new Map();
  /** Request ids by progress token. */
  #progressTokens = new Map();
  /** Abort controllers of the server's requests we are answering, by id. */
  #serving = new Map();
  #requestHandlers = new Map();
  #notificationListeners = new Map();
  #errorListeners = new Set();
  #closeListeners = new Set();

  /**
   * `name`, `version` and `title` identify the client; `requestTimeoutMs`,
   * `protocolVersion`, `capabilities`, and `roots` (a list, or a function
   * returning one) which the server may ask for.
   */
  constructor(options) {
    this.#options = Object.freeze({ ...options });
    this.#requestHandlers.set("ping", () => ({}));
    const { roots } = options;
    if (roots) {
      this.#requestHandlers.set("roots/list", async () => ({ roots: [...(typeof roots === "function" ? await roots() : roots)] }));
    }
  }

  get connectionState() {
    return this.#state;
  }

  get serverInfo() {
    return this.#initialized?.serverInfo;
  }

  get serverCapabilities() {
    return this.#initialized?.capabilities;
  }

  get instructions() {
    return this.#initialized?.instructions;
  }

  get protocolVersion() {
    return this.#initialized?.protocolVersion;
  }

  /** Starts the transport and runs the initialize handshake; the client is closed when it fails. */
  async connect(transport) {
    if (this.#state !== "idle") throw new Error(`Cannot connect MCP client in ${this.#state} state`);
    this.#state = "connecting";
    this.#transport = transport;
    this.#detachTransport = [
      transport.onMessage((message) => this.#receive(message)),
      // Errors are only reported: pending requests fail when the transport closes.
      transport.onError((error) => this.#reportError(error)),
      transport.onClose(() => this.#markClosed(new McpConnectionClosedError())),
    ];
    try {
      await transport.start();
      const options = this.#options;
      const capabilities = { ...options.capabilities };
      if (options.roots && capabilities.roots === undefined) capabilities.roots = {};
      const clientInfo = { name: options.name, version: options.version, ...(options.title === undefined ? {} : { title: options.title }) };
      const answer = await this.#request(
        "initialize",
        { protocolVersion: options.protocolVersion ?? LATEST_PROTOCOL_VERSION, capabilities, clientInfo },
        {},
        true,
      );
      const result = checkInitializeResult(answer);
      if (!SUPPORTED_PROTOCOL_VERSIONS.includes(result.protocolVersion)) {
        throw new Error(`MCP server selected unsupported protocol version ${result.protocolVersion}`);
      }
      this.#initialized = result;
      transport.setProtocolVersion?.(result.protocolVersion);
      await this.#notify("notifications/initialized", undefined, true);
      this.#state = "connected";
      return result;
    } catch (error) {
      await this.close().catch(() => {});
      throw error;
    }
  }

  request(method, params, options = {}) {
    return this.#request(method, params, options, false);
  }

  notify(method, params) {
    return this.#notify(method, params, false);
  }

  /** Answers the server's `method` requests with `handler(params, { signal })`. */
  setRequestHandler(method, handler) {
    this.#requestHandlers.set(method, handler);
    return () => {
      if (this.#requestHandlers.get(method) === handler) this.#requestHandlers.delete(method);
    };
  }

  onNotification(method, listener) {
    let listeners = this.#notificationListeners.get(method);
    if (!listeners) {
      listeners = new Set();
      this.#notificationListeners.set(method, listeners);
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.#notificationListeners.delete(method);
    };
  }

  onError(listener) {
    this.#errorListeners.add(listener);
    return () => this.#errorListeners.delete(listener);
  }

  /** Called once when the session ends, whether the transport dropped or `close()` ended it. */
  onClose(listener) {
    this.#closeListeners.add(listener);
    return () => this.#closeListeners.delete(listener);
  }

  async ping(options = {}) {
    await this.request("ping", undefined, options);
  }

  listTools(options = {}) {
    return this.#listAll(LISTS.tools, options);
  }

  /** Every resource, following the cursors through all pages. */
  async listResources(options = {}) {
    return (await this.#listAll(LISTS.resources, options)).map(LISTS.resources.complete);
  }

  async listResourcesPage(cursor, options = {}) {
    const page = await this.#listPage(LISTS.resources, cursor, options);
    return { resources: page.items.map(LISTS.resources.complete), ...cursorOf(page) };
  }

  async listResourceTemplates(options = {}) {
    return (await this.#listAll(LISTS.resourceTemplates, options)).map(LISTS.resourceTemplates.complete);
  }

  async listResourceTemplatesPage(cursor, options = {}) {
    const page = await this.#listPage(LISTS.resourceTemplates, cursor, options);
    return { resourceTemplates: page.items.map(LISTS.resourceTemplates.complete), ...cursorOf(page) };
  }

  async readResource(uri, options = {}) {
    return checkReadResourceResult(await this.request("resources/read", { uri }, options));
  }

  async callTool(name, args, options = {}) {
    const params = { name, ...(args === undefined ? {} : { arguments: args }) };
    return checkCallToolResult(await this.request("tools/call", params, options));
  }

  async close() {
    const transport = this.#transport;
    this.#transport = undefined;
    for (const detach of this.#detachTransport.splice(0)) detach();
    this.#markClosed(new McpConnectionClosedError());
    await transport?.close();
  }

  async #listPage(list, cursor, options) {
    const answer = await this.request(list.method, cursor === undefined ? undefined : { cursor }, options);
    return checkListPage(list, answer);
  }

  async #listAll(list, options) {
    const items = [];
    const seen = new Set();
    let cursor;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const { items: pageItems, nextCursor } = await this.#listPage(list, cursor, options);
      items.push(...pageItems);
      if (nextCursor === undefined) return items;
      if (seen.has(nextCursor)) throw new Error(`MCP ${list.method} returned duplicate cursor: ${nextCursor}`);
      seen.add(nextCursor);
      cursor = nextCursor;
    }
    throw new Error(`MCP ${list.method} exceeded ${MAX_LIST_PAGES} pages`);
  }

  #usableTransport(duringHandshake) {
    const usable = this.#state === "connected" || (duringHandshake && this.#state === "connecting");
    if (this.#transport && usable) return this.#transport;
    throw new McpConnectionClosedError(`MCP client is ${this.#state}`);
  }

  async #notify(method, params, duringHandshake) {
    await this.#usableTransport(duringHandshake).send({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) });
  }

  async #request(method, params, options, duringHandshake) {
    const transport = this.#usableTransport(duringHandshake);
    if (options.signal?.aborted) throw new McpAbortError();
    const id = this.#nextId++;
    // The request's own id doubles as its progress token.
    const progressToken = options.onProgress ? id : undefined;
    const sentParams =
      progressToken === undefined ? params : { ...params, _meta: { ...(isObject(params?._meta) ? params._meta : {}), progressToken } };
    const message = { jsonrpc: "2.0", id, method, ...(sentParams === undefined ? {} : { params: sentParams }) };
    return new Promise((resolve, reject) => {
      // The spec forbids cancelling `initialize`.
      const cancellable = method !== "initialize";
      const pending = {
        resolve,
        reject,
        timeoutMs: options.timeoutMs ?? this.#options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
        timer: undefined,
        signal: options.signal,
        onAbort: () => this.#cancel(id, new McpAbortError(), cancellable, String(options.signal?.reason ?? "Aborted")),
        sending: new AbortController(),
        cancellable,
        onProgress: options.onProgress,
        progressToken,
      };
      this.#pending.set(id, pending);
      if (progressToken !== undefined) this.#progressTokens.set(progressToken, id);
      options.signal?.addEventListener("abort", pending.onAbort, { once: true });
      this.#startTimer(id, pending);
      transport.send(message, { signal: pending.sending.signal }).catch((error) => this.#cancel(id, error, false));
    });
  }

  /** (Re)starts a request's timeout; progress from the server restarts it. */
  #startTimer(id, pending) {
    if (pending.timer) clearTimeout(pending.timer);
    if (!Number.isFinite(pending.timeoutMs) || pending.timeoutMs <= 0) return;
    pending.timer = setTimeout(() => {
      this.#cancel(id, new McpTimeoutError(pending.timeoutMs), pending.cancellable, "Request timed out");
    }, pending.timeoutMs);
  }

  /** Fails a pending request; tells the server when it may still be working on it. */
  #cancel(id, error, tellServer, reason) {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#forget(id, pending);
    pending.reject(error);
    if (tellServer && this.#transport) {
      const params = { requestId: id, ...(reason ? { reason } : {}) };
      void this.#transport.send({ jsonrpc: "2.0", method: "notifications/cancelled", params }).catch((sendError) => this.#reportError(sendError));
    }
  }

  #forget(id, pending) {
    this.#pending.delete(id);
    if (pending.timer) clearTimeout(pending.timer);
    if (pending.progressToken !== undefined) this.#progressTokens.delete(pending.progressToken);
    pending.signal?.removeEventListener("abort", pending.onAbort);
    pending.sending.abort();
  }

  #receive(message) {
    if (isJsonRpcResponse(message)) this.#settle(message);
    else if (isJsonRpcRequest(message)) void this.#serve(message);
    else if (isJsonRpcNotification(message)) this.#dispatchNotification(message.method, message.params);
    else this.#reportError(new McpError(JSON_RPC_ERROR_CODES.invalidRequest, "Received invalid JSON-RPC message"));
  }

  #settle(response) {
    const pending = this.#pending.get(response.id);
    if (!pending) {
      this.#reportError(new Error(`Received response for unknown MCP request ${String(response.id)}`));
      return;
    }
    this.#forget(response.id, pending);
    if ("error" in response) pending.reject(new McpError(response.error.code, response.error.message, response.error.data));
    else pending.resolve(response.result);
  }

  /** Answers a request the server sent. */
  async #serve(request) {
    const transport = this.#transport;
    if (!transport) return;
    const reply = (body) => transport.send({ jsonrpc: "2.0", id: request.id, ...body }).catch((error) => this.#reportError(error));
    const handler = this.#requestHandlers.get(request.method);
    if (!handler) {
      await reply({ error: { code: JSON_RPC_ERROR_CODES.methodNotFound, message: `Method not found: ${request.method}` } });
      return;
    }
    const controller = new AbortController();
    this.#serving.set(request.id, controller);
    try {
      const result = await handler(request.params, { signal: controller.signal });
      await transport.send({ jsonrpc: "2.0", id: request.id, result: result ?? {} });
    } catch (error) {
      const answer =
        error instanceof McpError
          ? { code: error.code, message: error.message, data: error.data }
          : { code: JSON_RPC_ERROR_CODES.internalError, message: asError(error).message };
      await reply({ error: answer });
    } finally {
      this.#serving.delete(request.id);
    }
  }

  #dispatchNotification(method, params) {
    if (method === "notifications/progress") this.#progress(params);
    else if (method === "notifications/cancelled" && isObject(params) && isJsonRpcId(params.requestId)) {
      this.#serving.get(params.requestId)?.abort(params.reason);
    }
    for (const listener of this.#notificationListeners.get(method) ?? []) {
      try {
        listener(params);
      } catch (error) {
        this.#reportError(error);
      }
    }
  }

  #progress(params) {
    if (!isObject(params) || !isJsonRpcId(params.progressToken) || typeof params.progress !== "number") return;
    const id = this.#progressTokens.get(params.progressToken);
    const pending = id === undefined ? undefined : this.#pending.get(id);
    if (!pending) return;
    this.#startTimer(id, pending);
    try {
      pending.onProgress?.(params);
    } catch (error) {
      this.#reportError(error);
    }
  }

  /** Ends the session once: fails our pending requests, aborts the ones we serve, tells close listeners. */
  #markClosed(error) {
    const wasClosed = this.#state === "closed";
    this.#state = "closed";
    for (const [id, pending] of this.#pending) {
      this.#forget(id, pending);
      pending.reject(error);
    }
    for (const controller of this.#serving.values()) controller.abort(error);
    this.#serving.clear();
    if (wasClosed) return;
    for (const listener of [...this.#closeListeners]) {
      try {
        listener();
      } catch (listenerError) {
        this.#reportError(listenerError);
      }
    }
  }

  #reportError(error) {
    const normalized = asError(error);
    for (const listener of this.#errorListeners) listener(normalized);
  }
}

const cursorOf = (page) => (page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor });
