// The WebSocket side of pi's Codex api: one socket per session and account
// kept open between turns (closed after five idle minutes, and not reused
// once 45 minutes old, since the server drops sockets at an hour), the
// socket's events as an async sequence, and the per-session counters pi
// keeps about them.
import { formatThrownValue } from "../diagnostics.js";
import { registerSessionResourceCleanup } from "../session-resources.js";

export const WEBSOCKET_BETA = "responses_websockets=2026-02-06";
const IDLE_CLOSE_MS = 5 * 60 * 1000;
const MAX_REUSE_AGE_MS = 45 * 60 * 1000;
const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;
const MESSAGE_TOO_BIG = 1009;
const OPEN = 1;

// sessionId → (accountId → { socket, busy, createdAt, idleTimer, continuation })
const sessions = new Map();
const stats = new Map();
const sseFallbackSessions = new Set();

/** A Codex error the server reported (as opposed to a transport failure). */
export class CodexApiError extends Error {
  constructor(message, options) {
    super(message);
    this.name = "CodexApiError";
    this.code = options?.code;
    this.payload = options?.payload;
    this.cause = options?.cause;
  }
}

/** Codex sent something that is not its protocol. */
export class CodexProtocolError extends Error {
  constructor(message, options) {
    super(message);
    this.name = "CodexProtocolError";
    this.payload = options?.payload;
    this.cause = options?.cause;
  }
}

export class WebSocketCloseError extends Error {
  constructor(message, options) {
    super(message);
    this.name = "WebSocketCloseError";
    this.code = options?.code;
    this.reason = options?.reason;
    this.wasClean = options?.wasClean;
  }
}

export function sessionStats(sessionId) {
  let entry = stats.get(sessionId);
  if (!entry) {
    entry = {
      requests: 0,
      connectionsCreated: 0,
      connectionsReused: 0,
      cachedContextRequests: 0,
      storeTrueRequests: 0,
      fullContextRequests: 0,
      deltaRequests: 0,
      lastInputItems: 0,
      websocketFailures: 0,
      sseFallbacks: 0,
    };
    stats.set(sessionId, entry);
  }
  return entry;
}

export function isSseFallbackActive(sessionId) {
  return sessionId ? sseFallbackSessions.has(sessionId) : false;
}

export function recordSseFallback(sessionId) {
  if (!sessionId) return;
  const entry = sessionStats(sessionId);
  entry.sseFallbacks++;
  entry.websocketFallbackActive = isSseFallbackActive(sessionId);
}

/** After a socket fails, the session talks SSE from then on. */
export function recordWebSocketFailure(sessionId, error) {
  if (!sessionId) return;
  sseFallbackSessions.add(sessionId);
  const entry = sessionStats(sessionId);
  entry.websocketFailures++;
  entry.lastWebSocketError = formatThrownValue(error);
  entry.websocketFallbackActive = true;
}

export function closeQuietly(socket, code = 1000, reason = "done") {
  try {
    socket.close(code, reason);
  } catch {
    // Already closed or closing.
  }
}

/** Closes the session's sockets (every session's without an id). */
export function closeCodexSessions(sessionId) {
  const close = (entry) => {
    if (entry.idleTimer) clearTimeout(entry.idleTimer);
    closeQuietly(entry.socket, 1000, "debug_close");
  };
  if (sessionId) {
    for (const entry of sessions.get(sessionId)?.values() ?? []) close(entry);
    sessions.delete(sessionId);
    return;
  }
  for (const accounts of sessions.values()) for (const entry of accounts.values()) close(entry);
  sessions.clear();
}

registerSessionResourceCleanup(closeCodexSessions);

function reusable(socket) {
  const state = socket.readyState;
  return typeof state !== "number" || state === OPEN;
}

function forget(sessionId, accountId, entry) {
  const accounts = sessions.get(sessionId);
  if (accounts?.get(accountId) === entry) accounts.delete(accountId);
  if (accounts?.size === 0) sessions.delete(sessionId);
}

function scheduleIdleClose(sessionId, accountId, entry) {
  if (entry.idleTimer) clearTimeout(entry.idleTimer);
  entry.idleTimer = setTimeout(() => {
    if (entry.busy) return;
    closeQuietly(entry.socket, 1000, "idle_timeout");
    forget(sessionId, accountId, entry);
  }, IDLE_CLOSE_MS);
}

export function webSocketError(event) {
  if (event && typeof event === "object") {
    if (typeof event.message === "string" && event.message.length > 0) return new Error(event.message);
    const nested = event.error;
    if (nested instanceof Error && nested.message.length > 0) return nested;
    if (nested && typeof nested === "object" && typeof nested.message === "string" && nested.message.length > 0) return new Error(nested.message);
  }
  return new Error("WebSocket error");
}

export function webSocketCloseError(event) {
  if (!event || typeof event !== "object") return new Error("WebSocket closed");
  const code = typeof event.code === "number" ? event.code : undefined;
  const reason = typeof event.reason === "string" && event.reason.length > 0 ? event.reason : undefined;
  let reasonText = reason ? ` ${reason}` : "";
  if (!reasonText && code === MESSAGE_TOO_BIG) reasonText = " message too big";
  return new WebSocketCloseError(`WebSocket closed${code === undefined ? "" : ` ${code}`}${reasonText}`.trim(), {
    code,
    reason,
    wasClean: typeof event.wasClean === "boolean" ? event.wasClean : undefined,
  });
}

/** Opens a socket whose upgrade request carries `headers` (a Headers, so its names are lower case, the beta's too). */
function connect(url, headers, signal, connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS) {
  const WebSocketClass = globalThis.WebSocket;
  if (typeof WebSocketClass !== "function") return Promise.reject(new Error("WebSocket transport is not available in this runtime"));
  // Node's WebSocket (undici) makes its upgrade request as a fetch, with
  // fetch's default accept; Deno's sends none.
  const upgradeHeaders = { accept: "*/*" };
  for (const [name, value] of headers.entries()) upgradeHeaders[name] = value;
  return new Promise((resolve, reject) => {
    let settled = false;
    let timer;
    let socket;
    try {
      socket = new WebSocketClass(url, { headers: upgradeHeaders });
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    const cleanup = () => {
      if (timer) clearTimeout(timer);
      socket.removeEventListener("open", onOpen);
      socket.removeEventListener("error", onError);
      socket.removeEventListener("close", onClose);
      signal?.removeEventListener("abort", onAbort);
    };
    const fail = (error, closeReason) => {
      if (settled) return;
      settled = true;
      cleanup();
      if (closeReason) closeQuietly(socket, 1000, closeReason);
      reject(error);
    };
    const onOpen = () => {
      if (settled) return;
      settled = true;
      cleanup();
      resolve(socket);
    };
    const onError = (event) => fail(webSocketError(event));
    const onClose = (event) => fail(webSocketCloseError(event));
    const onAbort = () => fail(new Error("Request was aborted"), "aborted");
    socket.addEventListener("open", onOpen);
    socket.addEventListener("error", onError);
    socket.addEventListener("close", onClose);
    signal?.addEventListener("abort", onAbort);
    if (connectTimeoutMs > 0) {
      timer = setTimeout(() => fail(new Error(`WebSocket connect timeout after ${connectTimeoutMs}ms`), "connect_timeout"), connectTimeoutMs);
    }
    if (signal?.aborted) onAbort();
  });
}

/**
 * A socket for one request: the session's idle one when it is open and
 * young enough, else a new one (kept for the session when it has none in
 * use). `release({ keep })` hands it back or closes it.
 */
export async function acquireSocket(url, headers, sessionId, accountId, signal, connectTimeoutMs) {
  if (!sessionId) {
    const socket = await connect(url, headers, signal, connectTimeoutMs);
    return { socket, reused: false, release: () => closeQuietly(socket) };
  }
  const cached = sessions.get(sessionId)?.get(accountId);
  if (cached) {
    if (cached.idleTimer) {
      clearTimeout(cached.idleTimer);
      cached.idleTimer = undefined;
    }
    if (!cached.busy && Date.now() - cached.createdAt >= MAX_REUSE_AGE_MS) {
      closeQuietly(cached.socket, 1000, "connection_age_limit");
      forget(sessionId, accountId, cached);
    } else if (!cached.busy && reusable(cached.socket)) {
      cached.busy = true;
      return { socket: cached.socket, entry: cached, reused: true, release: releaserOf(sessionId, accountId, cached) };
    } else if (cached.busy) {
      // Another request holds the session's socket; this one gets its own, closed after.
      const socket = await connect(url, headers, signal, connectTimeoutMs);
      return { socket, reused: false, release: () => closeQuietly(socket) };
    } else {
      closeQuietly(cached.socket);
      forget(sessionId, accountId, cached);
    }
  }
  const socket = await connect(url, headers, signal, connectTimeoutMs);
  const entry = { socket, busy: true, createdAt: Date.now() };
  let accounts = sessions.get(sessionId);
  if (!accounts) {
    accounts = new Map();
    sessions.set(sessionId, accounts);
  }
  accounts.set(accountId, entry);
  return { socket, entry, reused: false, release: releaserOf(sessionId, accountId, entry) };
}

function releaserOf(sessionId, accountId, entry) {
  return ({ keep } = {}) => {
    if (!keep || !reusable(entry.socket)) {
      closeQuietly(entry.socket);
      if (entry.idleTimer) clearTimeout(entry.idleTimer);
      forget(sessionId, accountId, entry);
      return;
    }
    entry.busy = false;
    scheduleIdleClose(sessionId, accountId, entry);
  };
}

async function messageText(data) {
  if (typeof data === "string") return data;
  if (data instanceof ArrayBuffer) return new TextDecoder().decode(new Uint8Array(data));
  if (ArrayBuffer.isView(data)) return new TextDecoder().decode(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  if (data && typeof data === "object" && "arrayBuffer" in data) return new TextDecoder().decode(new Uint8Array(await data.arrayBuffer()));
  return null;
}

const COMPLETIONS = new Set(["response.completed", "response.done", "response.incomplete"]);

/** The socket's JSON messages until the response completes; a close before that, an error or an idle spell fails it. */
export async function* socketEvents(socket, signal, idleTimeoutMs) {
  const queue = [];
  let wakeUp = null;
  let done = false;
  let failure = null;
  let completed = false;
  const wake = () => {
    const resolve = wakeUp;
    wakeUp = null;
    resolve?.();
  };
  const onMessage = (event) => {
    void (async () => {
      let text = null;
      try {
        if (!event || typeof event !== "object" || !("data" in event)) return;
        text = await messageText(event.data);
        if (!text) return;
        const parsed = JSON.parse(text);
        if (COMPLETIONS.has(typeof parsed.type === "string" ? parsed.type : "")) {
          completed = true;
          done = true;
        }
        queue.push(parsed);
        wake();
      } catch (cause) {
        failure = new CodexProtocolError(`Invalid Codex WebSocket JSON: ${formatThrownValue(cause)}`, { cause, payload: text });
        done = true;
        wake();
      }
    })();
  };
  const onError = (event) => {
    failure = webSocketError(event);
    done = true;
    wake();
  };
  const onClose = (event) => {
    if (!completed && !failure) failure = webSocketCloseError(event);
    done = true;
    wake();
  };
  const onAbort = () => {
    failure = new Error("Request was aborted");
    done = true;
    wake();
  };
  socket.addEventListener("message", onMessage);
  socket.addEventListener("error", onError);
  socket.addEventListener("close", onClose);
  signal?.addEventListener("abort", onAbort);
  try {
    for (;;) {
      if (signal?.aborted) throw new Error("Request was aborted");
      if (queue.length > 0) {
        yield queue.shift();
        continue;
      }
      if (done) break;
      let timer;
      await new Promise((resolve, reject) => {
        wakeUp = resolve;
        if (idleTimeoutMs !== undefined && idleTimeoutMs > 0) {
          timer = setTimeout(() => {
            const error = new Error(`WebSocket idle timeout after ${idleTimeoutMs}ms`);
            failure = error;
            done = true;
            wakeUp = null;
            closeQuietly(socket, 1000, "idle_timeout");
            reject(error);
          }, idleTimeoutMs);
        }
      }).finally(() => {
        if (timer) clearTimeout(timer);
      });
    }
    if (failure) throw failure;
    if (!completed) throw new Error("WebSocket stream closed before response.completed");
  } finally {
    socket.removeEventListener("message", onMessage);
    socket.removeEventListener("error", onError);
    socket.removeEventListener("close", onClose);
    signal?.removeEventListener("abort", onAbort);
  }
}

function withoutInput(body) {
  const { input: _input, previous_response_id: _previous, ...rest } = body;
  return rest;
}

/**
 * The request for a socket that served the session's last turn: when this
 * request repeats that one with only new input appended after the answer,
 * just the new input, continuing the previous response.
 */
export function continuationBody(entry, body) {
  const continuation = entry.continuation;
  if (!continuation) return body;
  let delta;
  if (JSON.stringify(withoutInput(body)) === JSON.stringify(withoutInput(continuation.lastRequestBody))) {
    const input = body.input ?? [];
    const baseline = [...(continuation.lastRequestBody.input ?? []), ...continuation.lastResponseItems];
    if (input.length >= baseline.length && JSON.stringify(input.slice(0, baseline.length)) === JSON.stringify(baseline)) {
      delta = input.slice(baseline.length);
    }
  }
  if (!delta || !continuation.lastResponseId) {
    entry.continuation = undefined;
    return body;
  }
  return { ...body, previous_response_id: continuation.lastResponseId, input: delta };
}
