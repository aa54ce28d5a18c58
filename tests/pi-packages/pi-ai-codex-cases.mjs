// Cases for pi-ai's openai-codex-responses api (streamOpenAICodexResponses,
// …) against a local server of their own: HTTP for the SSE transport (its
// zstd request bodies decompressed before they are recorded) and a small
// WebSocket endpoint (the handshake and framing written here) for the
// socket transport. A case's result is what the server received, the
// events and the final message, with times, the port and random request
// ids masked.
import http from "node:http";
import { responseObject, responsesHistory, responsesMessage, SIMPLE, TOOLS } from "./pi-ai-provider-cases.mjs";

const RECORDED_HEADERS = [
  "accept",
  "authorization",
  "chatgpt-account-id",
  "content-encoding",
  "content-type",
  "openai-beta",
  "originator",
  "session-id",
  "x-client-request-id",
  "x-custom",
];

const WEBSOCKET_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

let server;
let baseUrl;
let httpReplies = [];
let socketTurns = [];
let upgradeReplies = [];
let received = [];
const openSockets = new Set();

function recordedHeaders(headers) {
  const out = {};
  for (const name of RECORDED_HEADERS) if (headers[name] !== undefined) out[name] = headers[name];
  return out;
}

async function decodeBody(buffer, encoding) {
  if (encoding === "zstd") {
    const zlib = await import("node:zlib");
    return new TextDecoder().decode(zlib.zstdDecompressSync(buffer));
  }
  return new TextDecoder().decode(buffer);
}

function frame(opcode, payload) {
  const length = payload.length;
  let header;
  if (length < 126) header = Uint8Array.of(0x80 | opcode, length);
  else if (length < 65536) header = Uint8Array.of(0x80 | opcode, 126, length >> 8, length & 0xff);
  else {
    header = new Uint8Array(10);
    header[0] = 0x80 | opcode;
    header[1] = 127;
    new DataView(header.buffer).setBigUint64(2, BigInt(length));
  }
  const out = new Uint8Array(header.length + length);
  out.set(header, 0);
  out.set(payload, header.length);
  return out;
}

function textFrame(text) {
  return frame(0x1, new TextEncoder().encode(text));
}

function closeFrame(code, reason = "") {
  const reasonBytes = new TextEncoder().encode(reason);
  const payload = new Uint8Array(2 + reasonBytes.length);
  payload[0] = code >> 8;
  payload[1] = code & 0xff;
  payload.set(reasonBytes, 2);
  return frame(0x8, payload);
}

/** Reads the client's (masked) frames off `socket`, calling `onMessage(text)` per text message and `onClose()` on a close frame. */
function readFrames(socket, onMessage, onClose) {
  let buffer = new Uint8Array(0);
  socket.on("data", (chunk) => {
    const joined = new Uint8Array(buffer.length + chunk.length);
    joined.set(buffer, 0);
    joined.set(chunk, buffer.length);
    buffer = joined;
    for (;;) {
      if (buffer.length < 2) return;
      const opcode = buffer[0] & 0x0f;
      let length = buffer[1] & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (buffer.length < 4) return;
        length = (buffer[2] << 8) | buffer[3];
        offset = 4;
      } else if (length === 127) {
        if (buffer.length < 10) return;
        length = Number(new DataView(buffer.buffer, buffer.byteOffset + 2, 8).getBigUint64(0));
        offset = 10;
      }
      const masked = (buffer[1] & 0x80) !== 0;
      const total = offset + (masked ? 4 : 0) + length;
      if (buffer.length < total) return;
      const mask = masked ? buffer.slice(offset, offset + 4) : undefined;
      const payload = buffer.slice(offset + (masked ? 4 : 0), total);
      if (mask) for (let index = 0; index < payload.length; index++) payload[index] ^= mask[index % 4];
      buffer = buffer.slice(total);
      if (opcode === 0x1) onMessage(new TextDecoder().decode(payload));
      else if (opcode === 0x8) onClose();
      else if (opcode === 0x9) socket.write(frame(0xa, payload));
    }
  });
}

async function acceptKey(key) {
  const { createHash } = await import("node:crypto");
  return createHash("sha1").update(key + WEBSOCKET_GUID).digest("base64");
}

async function onUpgrade(request, socket) {
  received.push({ kind: "upgrade", path: request.url, headers: recordedHeaders(request.headers) });
  const reply = upgradeReplies.shift();
  if (reply?.status) {
    socket.end(`HTTP/1.1 ${reply.status} Refused\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    return;
  }
  openSockets.add(socket);
  socket.on("close", () => openSockets.delete(socket));
  socket.on("error", () => {});
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${await acceptKey(request.headers["sec-websocket-key"])}\r\n\r\n`,
  );
  readFrames(
    socket,
    async (text) => {
      let body;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      received.push({ kind: "message", body });
      const turn = socketTurns.shift() ?? { close: { code: 1011, reason: "no canned turn left" } };
      for (const event of turn.events ?? []) {
        socket.write(textFrame(typeof event === "string" ? event : JSON.stringify(event)));
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      if (turn.close) socket.end(closeFrame(turn.close.code, turn.close.reason));
    },
    () => {
      socket.end(closeFrame(1000));
    },
  );
}

async function startServer() {
  if (server) return;
  server = http.createServer((request, response) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", async () => {
      const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
      const bytes = new Uint8Array(total);
      let offset = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, offset);
        offset += chunk.length;
      }
      const text = await decodeBody(bytes, request.headers["content-encoding"]);
      let body;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      received.push({ kind: "http", method: request.method, path: request.url, headers: recordedHeaders(request.headers), body });
      const reply = httpReplies.shift() ?? { status: 599, body: "no canned response left" };
      response.writeHead(reply.status ?? 200, { connection: "close", ...reply.headers });
      for (const chunk of reply.chunks ?? [reply.body ?? ""]) {
        response.write(chunk);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      response.end();
    });
  });
  server.on("upgrade", (request, socket) => {
    onUpgrade(request, socket);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.unref?.();
  baseUrl = `http://127.0.0.1:${server.address().port}`;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}/g;

function mask(value) {
  const port = String(server.address().port);
  return JSON.parse(
    JSON.stringify(value, (key, item) => {
      if ((key === "timestamp" || key === "durationMs") && typeof item === "number") return "<time>";
      if (key === "stack" && typeof item === "string") return "<stack>";
      if (typeof item === "string") {
        let text = item.includes(port) ? item.split(port).join("<port>") : item;
        text = text.replace(UUID, "<uuid>");
        return text;
      }
      return item;
    }),
  );
}

/** A diagnostic's error as data without the engine's own words for a socket failure. */
function reduceDiagnostics(message) {
  if (!message.diagnostics) return message;
  return {
    ...message,
    diagnostics: message.diagnostics.map(({ error, ...rest }) => ({ ...rest, error: { name: error.name, hasMessage: typeof error.message === "string" } })),
  };
}

function reduceEvent(event) {
  const { partial: _partial, ...rest } = event;
  if (rest.message) rest.message = reduceDiagnostics(rest.message);
  if (rest.error) rest.error = reduceDiagnostics(rest.error);
  return rest;
}

/** Runs one request against the scripted server; what it received, the events and the final message. */
async function exchange({ http: replies = [], turns = [], upgrades = [] }, start) {
  await startServer();
  httpReplies = [...replies];
  socketTurns = [...turns];
  upgradeReplies = [...upgrades];
  received = [];
  const stream = await start(baseUrl);
  const events = [];
  for await (const event of stream) events.push(reduceEvent(event));
  const message = reduceDiagnostics(await stream.result());
  const result = mask({ received, events, message });
  httpReplies = [];
  socketTurns = [];
  upgradeReplies = [];
  received = [];
  return result;
}

function base64Url(text) {
  return btoa(text).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
}

/** A ChatGPT sign-in token for account `account` (unsigned: pi only reads its claims). */
function chatGPTToken(account = "acct-1") {
  const claims = { "https://api.openai.com/auth": { chatgpt_account_id: account }, exp: 4102444800 };
  return `${base64Url(JSON.stringify({ alg: "none" }))}.${base64Url(JSON.stringify(claims))}.sig`;
}

const SSE_HEADERS = { "content-type": "text/event-stream" };

function sseBody(events) {
  return events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join("");
}

function completed(id = "resp_c1", extra = {}) {
  return { type: "response.completed", response: responseObject("completed", { id, ...extra }) };
}

function answer(id, text) {
  return [{ type: "response.created", response: responseObject("in_progress", { id }) }, ...responsesMessage(0, `msg_${id}`, [text]), completed(id)];
}

/** Adds the Codex cases; `ai` is the pi-ai module under test. */
export function addCodexCases(add, ai) {
  const model = (url, id = "gpt-5.6-luna", extra = {}) => ({ ...ai.getModel("openai-codex", id), baseUrl: url, ...extra });
  const token = chatGPTToken();

  add("providers.codex.webSocketSessionTurns", async () => {
    const sessionId = "codex-session-1";
    try {
      const first = await exchange({ turns: [{ events: answer("resp_a", "First.") }] }, (url) =>
        ai.streamSimpleOpenAICodexResponses(model(url), ai.normalizeContext({ ...SIMPLE, tools: TOOLS }), { apiKey: token, sessionId, transport: "auto", reasoning: "minimal", headers: { "X-Custom": "c" } }),
      );
      const firstMessage = first.message;
      const context = ai.normalizeContext({ ...SIMPLE, tools: TOOLS });
      context.messages.push({ ...firstMessage, timestamp: 5 }, { role: "user", content: "more", timestamp: 6 });
      const second = await exchange({ turns: [{ events: answer("resp_b", "Second.") }] }, (url) =>
        ai.streamSimpleOpenAICodexResponses(model(url), context, { apiKey: token, sessionId, transport: "auto", reasoning: "minimal", headers: { "X-Custom": "c" } }),
      );
      // A changed request (another effort) starts from the full context again, on the same socket.
      const third = await exchange({ turns: [{ events: answer("resp_c", "Third.") }] }, (url) =>
        ai.streamSimpleOpenAICodexResponses(model(url), context, { apiKey: token, sessionId, transport: "auto", reasoning: "high", headers: { "X-Custom": "c" } }),
      );
      return { first, second: second.received, third: third.received, thirdMessage: third.message };
    } finally {
      ai.cleanupSessionResources(sessionId);
    }
  });

  add("providers.codex.webSocketWithoutSession", async () =>
    exchange({ turns: [{ events: [...answer("resp_n", "Hi."), { type: "response.output_text.delta", delta: "ignored" }] }] }, (url) =>
      ai.streamOpenAICodexResponses(model(url, "gpt-6-luna"), ai.normalizeContext(SIMPLE), { apiKey: token, reasoningEffort: "high", serviceTier: "priority", maxTokens: 4 }),
    ),
  );

  add("providers.codex.fallbackToSse", async () => {
    const sessionId = "codex-session-2";
    try {
      const reply = { status: 200, headers: SSE_HEADERS, body: sseBody(answer("resp_s", "Over SSE.")) };
      const first = await exchange({ upgrades: [{ status: 400 }], http: [reply] }, (url) =>
        ai.streamOpenAICodexResponses(model(url), ai.normalizeContext(SIMPLE), { apiKey: token, sessionId }),
      );
      // The session stays on SSE after its socket failed.
      const second = await exchange({ http: [reply] }, (url) => ai.streamOpenAICodexResponses(model(url), ai.normalizeContext(SIMPLE), { apiKey: token, sessionId }));
      return { first, second: { received: second.received, diagnostics: second.message.diagnostics, stop: second.message.stopReason } };
    } finally {
      ai.cleanupSessionResources(sessionId);
    }
  });

  add("providers.codex.sseRequestsAndErrors", async () => {
    const sse = (replies, options = {}, id) => exchange({ http: replies }, (url) => ai.streamOpenAICodexResponses(model(url, id), ai.normalizeContext(SIMPLE), { apiKey: token, transport: "sse", ...options }));
    const json = (status, body, headers = {}) => ({ status, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
    return [
      await sse([{ status: 200, headers: SSE_HEADERS, body: sseBody(answer("resp_1", "Plain.")) }], { sessionId: "s-sse", cacheRetention: "none", temperature: 0.2, textVerbosity: "high" }),
      await sse([json(429, { error: { code: "usage_limit_reached", plan_type: "PLUS", message: "limit" } })]),
      await sse([json(400, { error: { message: "Bad input." } })]),
      await sse([{ status: 500, body: "upstream connect error" }, { status: 200, headers: SSE_HEADERS, body: sseBody(answer("resp_2", "Retried.")) }], { maxRetries: 1, maxRetryDelayMs: 0 }),
      await sse([json(503, { error: { message: "busy" } }, { "retry-after": "120" })], { maxRetries: 2 }),
      await sse([{ status: 200, headers: SSE_HEADERS, body: `data: ${JSON.stringify({ type: "error", code: "server_error", message: "Boom" })}\n\n` }]),
      await sse([{ status: 200, headers: SSE_HEADERS, body: `data: ${JSON.stringify({ type: "response.failed", response: { error: { code: "x", message: "It failed." } } })}\n\n` }]),
      await sse([{ status: 200, headers: SSE_HEADERS, body: "data: {not json\n\n" }]),
      await sse([{ status: 200, headers: SSE_HEADERS, body: sseBody(answer("resp_3", "Cut").slice(0, 3)) }]),
      await sse([], { apiKey: "not-a-jwt" }),
      await sse([], { apiKey: undefined }),
    ];
  });

  add("providers.codex.webSocketFailures", async () => {
    try {
      return await webSocketFailures();
    } finally {
      ai.cleanupSessionResources("s-ws");
    }
  });
  const webSocketFailures = async () => {
    const ws = (script, options = {}) => exchange(script, (url) => ai.streamOpenAICodexResponses(model(url), ai.normalizeContext(SIMPLE), { apiKey: token, ...options }));
    const sseReply = { status: 200, headers: SSE_HEADERS, body: sseBody(answer("resp_f", "Fallback.")) };
    return [
      // A Codex error on the socket is the answer: no fallback.
      await ws({ turns: [{ events: [{ type: "error", error: { code: "invalid_request", message: "Nope." } }] }] }),
      // Too many sockets before any event: one more try on a new socket.
      await ws({ turns: [{ events: [{ type: "error", code: "websocket_connection_limit_reached", message: "Too many." }] }, { events: answer("resp_l", "Second socket.") }] }),
      // A lost continuation: asked again once.
      await ws({ turns: [{ events: [{ type: "error", code: "previous_response_not_found", message: "Gone." }] }, { events: answer("resp_p", "Again.") }] }),
      // The socket closes before anything arrives: SSE takes over.
      await ws({ turns: [{ close: { code: 1011, reason: "server going away" } }], http: [sseReply] }),
      // It closes mid answer: the turn fails.
      await ws({ turns: [{ events: answer("resp_m", "Partial").slice(0, 3), close: { code: 1009 } }] }),
      // Bad JSON on the socket.
      await ws({ turns: [{ events: ["{oops"] }] }),
      // transport "websocket" does not continue previous responses, and a bad timeout is refused.
      await ws({ turns: [{ events: answer("resp_w", "Plain socket.") }] }, { transport: "websocket", sessionId: "s-ws" }),
      await ws({}, { timeoutMs: -1 }),
    ];
  };

  add("providers.codex.historyAndTools", async () => {
    const codex = model("", "gpt-6-sol");
    return exchange({ turns: [{ events: answer("resp_h", "Done.") }] }, (url) => {
      const target = { ...codex, baseUrl: `${url}/codex` };
      return ai.streamSimpleOpenAICodexResponses(target, ai.normalizeContext(responsesHistory(target)), { apiKey: token, reasoning: "off", toolChoice: "required" });
    });
  });
}
