// MCP's Streamable HTTP transport: every message is POSTed to the server's
// URL; a request is answered with JSON or with an SSE stream that carries
// the response (and whatever the server sends first). After initialization
// a GET stream carries what the server sends unprompted. The session id
// and protocol version the server assigns go back on every request, and an
// auth provider may supply a bearer token and recover from a 401 once.
import {
  asError,
  isJsonRpcRequest,
  isJsonRpcResponse,
  JSON_RPC_ERROR_CODES,
  McpAbortError,
  McpConnectionClosedError,
  toJsonRpcMessage,
} from "./jsonrpc.js";
import { consumeSseStream } from "./sse-stream.js";
import { DEFAULT_MAX_MESSAGE_BYTES, TransportListeners } from "./transport-events.js";

/** Of an error response's body, only this much is read... */
const MAX_ERROR_BODY_BYTES = 8 * 1024;
/** ...and this much quoted in the error message. */
const ERROR_BODY_CHARS = 500;
const RECONNECT_INITIAL_DELAY_MS = 1_000;
const RECONNECT_MAX_DELAY_MS = 30_000;
const RECONNECT_MAX_RETRIES = 5;

export class McpHttpError extends Error {
  constructor(status, message, body = "") {
    super(message);
    this.name = "McpHttpError";
    this.status = status;
    this.body = body;
  }
}

/** A 401: the server wants (other) credentials. */
export class McpAuthRequiredError extends McpHttpError {
  constructor(response, body = "") {
    super(401, "MCP server requires authentication", body);
    this.name = "McpAuthRequiredError";
    this.wwwAuthenticate = response.headers.get("www-authenticate");
  }
}

/** A 404 for a request in a session: the server forgot the session (it restarted), so it did not run the request. */
export class McpSessionExpiredError extends McpHttpError {
  constructor(body = "") {
    super(404, "MCP session expired", body);
    this.name = "McpSessionExpiredError";
  }
}

const mediaType = (response) => response.headers.get("content-type")?.split(";", 1)[0]?.trim().toLowerCase();

/** 401, or 403 with a bearer challenge asking for more scope. */
function asksForAuthorization(response) {
  if (response.status === 401) return true;
  if (response.status !== 403) return false;
  return /(?:^|[\s,])error="?insufficient_scope"?/i.test(response.headers.get("www-authenticate") ?? "");
}

const isTransientStatus = (status) => status === 408 || status === 429 || status >= 500;

const discardBody = (response) => response.body?.cancel().catch(() => {}) ?? Promise.resolve();

/** The body as text, read as it arrives and cut (the rest cancelled) after `maxBytes` bytes. */
async function readText(response, maxBytes) {
  if (!response.body) return { text: "", truncated: false };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let left = maxBytes;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text: text + decoder.decode(), truncated: false };
      if (value.byteLength > left) {
        await reader.cancel().catch(() => {});
        return { text: text + decoder.decode(value.subarray(0, left), { stream: true }), truncated: true };
      }
      left -= value.byteLength;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    reader.releaseLock();
  }
}

function failureMessage(status, body) {
  const text = body.trim();
  const excerpt = text.length > ERROR_BODY_CHARS ? `${text.slice(0, ERROR_BODY_CHARS - 3)}...` : text;
  return `MCP HTTP request failed with status ${status}${excerpt ? `: ${excerpt}` : ""}`;
}

export class StreamableHttpTransport extends TransportListeners {
  #options;
  #url;
  #fetch;
  /** Aborted by close(): ends every request and stream of the transport. */
  #lifetime = new AbortController();
  #started = false;
  #closed = false;
  #sessionId;
  #protocolVersion;
  #getStreamStarted = false;
  /** Token of the latest request; close() reuses it rather than asking the auth provider again. */
  #lastToken;

  /**
   * `url`, `headers`, `authProvider` ({ token(), onUnauthorized?(context) }),
   * `fetch`, `maxMessageBytes`, `openGetStream` (false: no GET stream) and
   * `reconnect` ({ initialDelayMs, maxDelayMs, maxRetries }).
   */
  constructor(options) {
    super();
    this.#options = Object.freeze({ ...options, headers: options.headers ? { ...options.headers } : undefined });
    this.#url = new URL(options.url);
    const fetchImplementation = options.fetch ?? globalThis.fetch;
    // Called without a receiver: some platform fetches reject any other `this`.
    this.#fetch = (input, init) => fetchImplementation(input, init);
  }

  get url() {
    return this.#url;
  }

  get sessionId() {
    return this.#sessionId;
  }

  async start() {
    if (this.#started) throw new Error("MCP Streamable HTTP transport already started");
    if (this.#closed) throw new McpConnectionClosedError();
    this.#started = true;
  }

  setProtocolVersion(version) {
    this.#protocolVersion = version;
  }

  async send(message, { signal } = {}) {
    if (!this.#started || this.#closed) throw new McpConnectionClosedError();
    const response = await this.#authorizedFetch(
      "POST",
      { headers: { accept: "application/json, text/event-stream", "content-type": "application/json" }, body: JSON.stringify(message) },
      signal,
    );
    await this.#throwUnlessOk(response);
    this.#keepSessionId(response);
    if (!isJsonRpcRequest(message)) {
      // Notifications and responses are acknowledged (202) without a reply.
      await discardBody(response);
      // The server may only open its stream once the session is initialized.
      if (message.method === "notifications/initialized") this.#startGetStream();
      return;
    }
    if (response.status === 202 || response.status === 204) {
      throw new McpHttpError(response.status, `MCP server accepted request ${message.method} without a response`);
    }
    const type = mediaType(response);
    if (type === "application/json") {
      const maxBytes = this.#options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
      const { text, truncated } = await readText(response, maxBytes);
      if (truncated) throw new Error(`MCP JSON response exceeds ${maxBytes} bytes`);
      const body = JSON.parse(text);
      for (const item of Array.isArray(body) ? body : [body]) this.emitMessage(toJsonRpcMessage(item));
      return;
    }
    if (type === "text/event-stream" && response.body) {
      void this.#readResponseStream(response.body, message.id);
      return;
    }
    await discardBody(response);
    throw new McpHttpError(response.status, `Unsupported MCP response content type: ${type ?? "missing"}`);
  }

  async close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#lifetime.abort();
    if (this.#started && this.#sessionId) {
      // Best effort, and never waiting on a token refresh: the session expires on the server anyway.
      try {
        const response = await this.#fetch(this.#url, {
          method: "DELETE",
          headers: this.#headers({}, this.#lastToken),
          signal: AbortSignal.timeout(1_000),
        });
        await discardBody(response);
      } catch {}
    }
    this.emitClose();
  }

  /**
   * A fetch with the auth headers. A 401 (or a 403 asking for scope) goes to
   * the auth provider once, then the request is retried. `signal` only stops
   * the request from going out: recovering authorization is shared with
   * other requests and is not aborted.
   */
  async #authorizedFetch(method, init, signal) {
    const provider = this.#options.authProvider;
    const onUnauthorized = provider?.onUnauthorized?.bind(provider);
    for (let attempt = 0; ; attempt++) {
      const token = await provider?.token();
      this.#lastToken = token;
      const headers = this.#headers(init.headers ?? {}, token);
      if (signal?.aborted) throw new McpAbortError();
      const response = await this.#fetch(this.#url, { method, headers, body: init.body, signal: this.#lifetime.signal });
      if (attempt > 0 || !onUnauthorized || !asksForAuthorization(response)) return response;
      try {
        await onUnauthorized({ response, serverUrl: this.#url, fetch: this.#fetch, token });
      } finally {
        await discardBody(response);
      }
    }
  }

  #headers(extra, token) {
    const headers = new Headers(this.#options.headers);
    for (const [name, value] of Object.entries(extra)) headers.set(name, value);
    if (this.#sessionId) headers.set("Mcp-Session-Id", this.#sessionId);
    if (this.#protocolVersion) headers.set("MCP-Protocol-Version", this.#protocolVersion);
    if (token) headers.set("Authorization", `Bearer ${token}`);
    return headers;
  }

  #keepSessionId(response) {
    const sessionId = response.headers.get("mcp-session-id");
    if (sessionId) this.#sessionId = sessionId;
  }

  async #throwUnlessOk(response) {
    if (response.ok) return;
    // Only the part the error quotes is read; a huge body is never buffered.
    const body = (await readText(response, MAX_ERROR_BODY_BYTES).catch(() => ({ text: "" }))).text;
    if (response.status === 401) throw new McpAuthRequiredError(response, body);
    if (response.status === 404 && this.#sessionId) throw new McpSessionExpiredError(body);
    throw new McpHttpError(response.status, failureMessage(response.status, body), body);
  }

  async #readSse(stream, cursor, onMessage) {
    await consumeSseStream(stream, {
      maxEventBytes: this.#options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      onId: (id) => {
        cursor.lastEventId = id;
      },
      onRetry: (delayMs) => {
        cursor.retryMs = delayMs;
      },
      onEvent: (event) => {
        cursor.received = true;
        // Events without data only prime resumption; other event types are not JSON-RPC.
        if (!event.data.trim() || (event.event !== undefined && event.event !== "message")) return;
        let message;
        try {
          message = toJsonRpcMessage(JSON.parse(event.data));
        } catch (error) {
          this.emitError(error);
          return;
        }
        onMessage?.(message);
        this.emitMessage(message);
      },
    });
  }

  /**
   * Reads the stream answering request `requestId`. Servers may end such
   * streams early; when the stream had event ids it is resumed with GET and
   * Last-Event-ID. If the answer never comes, the request fails alone.
   */
  async #readResponseStream(body, requestId) {
    const cursor = { lastEventId: undefined, retryMs: undefined, received: false };
    let answered = false;
    const watch = (message) => {
      if (isJsonRpcResponse(message) && message.id === requestId) answered = true;
    };
    let stream = body;
    let failure;
    for (let attempt = 0; ; ) {
      if (stream) {
        try {
          await this.#readSse(stream, cursor, watch);
          failure = undefined;
        } catch (error) {
          failure = error;
        }
      }
      if (answered || this.#closed) return;
      if (failure !== undefined && !this.#isRetryable(failure)) break;
      if (cursor.lastEventId === undefined || attempt >= this.#maxRetries()) break;
      if (cursor.received) attempt = 0;
      cursor.received = false;
      if (!(await this.#wait(this.#reconnectDelay(attempt++, cursor.retryMs)))) return;
      try {
        stream = await this.#openGetStream(cursor.lastEventId);
      } catch (error) {
        failure = error;
        if (!this.#isRetryable(error)) break;
        stream = undefined;
      }
    }
    if (this.#closed) return;
    const reason = failure === undefined ? "stream ended without a response" : asError(failure).message;
    this.emitMessage({
      jsonrpc: "2.0",
      id: requestId,
      error: { code: JSON_RPC_ERROR_CODES.internalError, message: `MCP response stream failed: ${reason}` },
    });
  }

  #startGetStream() {
    if (this.#options.openGetStream === false || this.#getStreamStarted || this.#closed) return;
    this.#getStreamStarted = true;
    void this.#keepGetStreamOpen();
  }

  /** The server-to-client stream, reopened with backoff when it drops. */
  async #keepGetStreamOpen() {
    const cursor = { lastEventId: undefined, retryMs: undefined, received: false };
    for (let attempt = 0; !this.#closed; ) {
      try {
        const stream = await this.#openGetStream(cursor.lastEventId);
        if (!stream) return; // The server offers no GET stream.
        const openedAt = Date.now();
        await this.#readSse(stream, cursor);
        // A stream that stayed up a while was healthy, even when idle.
        if (cursor.received || Date.now() - openedAt > this.#maxDelay()) attempt = 0;
      } catch (error) {
        if (this.#closed) return;
        if (!this.#isRetryable(error)) {
          this.emitError(error);
          return;
        }
      }
      cursor.received = false;
      if (attempt >= this.#maxRetries()) {
        this.emitError(new Error("MCP server-to-client stream dropped and could not be reopened"));
        return;
      }
      if (!(await this.#wait(this.#reconnectDelay(attempt++, cursor.retryMs)))) return;
    }
  }

  /** A GET event stream, or undefined when the server answers 405 (it has none). */
  async #openGetStream(lastEventId) {
    const headers = { accept: "text/event-stream", ...(lastEventId === undefined ? {} : { "last-event-id": lastEventId }) };
    const response = await this.#authorizedFetch("GET", { headers });
    if (response.status === 405) {
      await discardBody(response);
      return undefined;
    }
    await this.#throwUnlessOk(response);
    this.#keepSessionId(response);
    const type = mediaType(response);
    if (type !== "text/event-stream" || !response.body) {
      await discardBody(response);
      throw new McpHttpError(response.status, `Unsupported MCP GET response content type: ${type ?? "missing"}`);
    }
    return response.body;
  }

  /** Network failures (fetch's TypeError, socket error codes) and transient statuses are worth retrying. */
  #isRetryable(error) {
    if (error instanceof McpHttpError) return isTransientStatus(error.status);
    if (error instanceof TypeError) return true;
    const code = error?.code;
    return typeof code === "string" && (code.startsWith("E") || code.startsWith("UND_ERR"));
  }

  #reconnectDelay(attempt, serverDelayMs) {
    if (serverDelayMs !== undefined) return serverDelayMs;
    const initial = this.#options.reconnect?.initialDelayMs ?? RECONNECT_INITIAL_DELAY_MS;
    return Math.min(initial * 2 ** attempt, this.#maxDelay());
  }

  #maxDelay() {
    return this.#options.reconnect?.maxDelayMs ?? RECONNECT_MAX_DELAY_MS;
  }

  #maxRetries() {
    return this.#options.reconnect?.maxRetries ?? RECONNECT_MAX_RETRIES;
  }

  /** Sleeps; false when the transport closed meanwhile. The timer alone does not keep the process alive. */
  #wait(ms) {
    const signal = this.#lifetime.signal;
    if (signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const onAbort = () => {
        clearTimeout(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        signal.removeEventListener("abort", onAbort);
        resolve(true);
      }, ms);
      timer.unref?.();
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }
}
