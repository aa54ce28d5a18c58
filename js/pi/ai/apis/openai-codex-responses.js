// pi-ai's "openai-codex-responses" api: the ChatGPT backend's Codex
// Responses endpoint, signed in with a ChatGPT token. As in pi, a request
// goes over the session's WebSocket first (continuing the previous response
// when only new input follows it) and falls back to SSE, whose body is
// zstd-compressed, for the rest of the session once a socket fails.
import { createAssistantMessageDiagnostic, appendAssistantMessageDiagnostic, formatThrownValue } from "../diagnostics.js";
import { AssistantMessageEventStream } from "../event-stream.js";
import { getIdentityHeaders } from "../identity.js";
import { clampThinkingLevel } from "../model-kinds.js";
import { getDeclaredTools } from "../tool-declarations.js";
import { resolveTranscript, resolveTranscriptTools } from "../transcript-tools.js";
import { normalizeContext } from "../transcript.js";
import { emptyUsage } from "../usage.js";
import { uuidv7 } from "../uuid.js";
import {
  acquireSocket,
  CodexApiError,
  CodexProtocolError,
  continuationBody,
  isSseFallbackActive,
  recordSseFallback,
  recordWebSocketFailure,
  sessionStats,
  socketEvents,
  WEBSOCKET_BETA,
} from "./codex-websocket.js";
import { createGrammarToolInputProperties } from "./grammar-tools.js";
import { formatProviderFailure, headersToRecord } from "./http.js";
import { clampOpenAIPromptCacheKey } from "./openai-http.js";
import { convertResponsesMessages, convertResponsesTools, getResponsesToolSupport, processResponsesStream } from "./responses-shared.js";
import { buildBaseOptions } from "./token-budget.js";

const DEFAULT_BASE_URL = "https://chatgpt.com/backend-api";
const ACCOUNT_CLAIM = "https://api.openai.com/auth";
const BASE_RETRY_DELAY_MS = 1000;
const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;
const ZSTD_LEVEL = 3;
const TOOL_CALL_ID_PROVIDERS = new Set(["openai", "openai-codex", "opencode"]);
const CONNECTION_LIMIT_REACHED = "websocket_connection_limit_reached";
const PREVIOUS_RESPONSE_NOT_FOUND = "previous_response_not_found";
// Responses rejects max_output_tokens below 16.
const MIN_OUTPUT_TOKENS = 16;
// reasoning.effort stays fixed while configuration_update items carry the level.
const CONFIGURATION_UPDATE_REQUEST_EFFORT = "medium";
const RESPONSE_STATUSES = new Set(["completed", "incomplete", "failed", "cancelled", "queued", "in_progress"]);

/** A hook of the caller's that threw while reading events: not the transport's fault, so no fallback. */
class StreamEventCallbackError extends Error {
  constructor(cause) {
    super(formatThrownValue(cause));
    this.name = "ProviderStreamEventCallbackError";
    this.cause = cause;
  }
}

class RetryDelayExceededError extends Error {}

function isNonTransportError(error) {
  return error instanceof CodexApiError || error instanceof CodexProtocolError || error instanceof StreamEventCallbackError;
}

function ensureSucceeded(output) {
  if (output.stopReason === "pending") throw new Error("Codex stream ended without a stop reason");
  if (output.stopReason === "error" || output.stopReason === "aborted") throw new Error(output.errorMessage || "An unknown error occurred");
}

// --- retries ------------------------------------------------------------------------

function isRetryable(status, text) {
  const terminalLimit = /GoUsageLimitError|FreeUsageLimitError|Monthly usage limit reached|available balance|insufficient_quota|out of budget|quota exceeded|billing/i;
  if (status === 429 && terminalLimit.test(text)) return false;
  if ([429, 500, 502, 503, 504].includes(status)) return true;
  return /rate.?limit|overloaded|service.?unavailable|upstream.?connect|connection.?refused/i.test(text);
}

function retryAfterMs(headers) {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const after = headers.get("retry-after");
  if (!after) return undefined;
  if (Number.isFinite(Number(after))) return Math.max(0, Number(after) * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function checkedRetryDelay(delayMs, options) {
  const max = options?.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
  if (max > 0 && delayMs > max) {
    throw new RetryDelayExceededError(`Server requested ${Math.ceil(delayMs / 1000)}s retry delay (max: ${Math.ceil(max / 1000)}s)`);
  }
  return delayMs;
}

function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error("Request was aborted"));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error("Request was aborted"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function checkedTimeout(value) {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value < 0) throw new Error(`Invalid timeoutMs: ${String(value)}`);
  return Math.floor(value);
}

/** The body as zstd bytes, or null when the platform's zlib has no zstd (then it goes uncompressed). */
async function zstdBody(json) {
  let zlib;
  try {
    zlib = await import("node:zlib");
  } catch {
    return null;
  }
  if (typeof zlib.zstdCompressSync !== "function") return null;
  try {
    return new Uint8Array(zlib.zstdCompressSync(json, { params: { [zlib.constants.ZSTD_c_compressionLevel]: ZSTD_LEVEL } }));
  } catch {
    return null;
  }
}

// --- the request --------------------------------------------------------------------

function configurationUpdateEffort(model, options) {
  if (!model.compat?.supportsMidConvoEffort || options?.reasoningEffort === undefined) return undefined;
  return providerEffort(model, options.reasoningEffort) ?? undefined;
}

/** The model's own effort for a level; null when it takes no reasoning field for it. */
function providerEffort(model, effort) {
  if (effort === "none") return model.thinkingLevelMap?.off === undefined ? "none" : model.thinkingLevelMap.off;
  return model.thinkingLevelMap?.[effort] ?? effort;
}

function buildRequestBody(model, context, options, promptCacheKey, grammarToolInputProperties, updateEffort) {
  const compat = model.compat ?? {};
  const supportsStrictMode = compat.supportsStrictMode ?? true;
  const supportsOpenAIGrammarTools = compat.supportsOpenAIGrammarTools ?? false;
  const supportsAdditionalTools = compat.supportsAdditionalTools ?? false;
  const supportsToolSearch = compat.supportsToolSearch ?? false;
  const supportsMidConvoSystemMessages = compat.supportsMidConvoSystemMessages ?? false;
  const transcriptTools = resolveTranscriptTools(context.messages, getResponsesToolSupport({ supportsMidConvoSystemMessages, supportsAdditionalTools, supportsToolSearch }));
  const toolOptions = { strict: null, supportsStrictMode, supportsOpenAIGrammarTools };
  // The system prompt is a leading developer item, as in Codex, so that it stays a cacheable prefix.
  const input = convertResponsesMessages(model, context, TOOL_CALL_ID_PROVIDERS, {
    grammarToolInputProperties,
    supportsMidConvoSystemMessages,
    supportsAdditionalTools,
    supportsToolSearch,
    toolOptions,
    configurationUpdateEffort: updateEffort,
  });
  const body = {
    model: model.id,
    store: false,
    stream: true,
    input,
    text: { verbosity: options?.textVerbosity || "low" },
    include: ["reasoning.encrypted_content"],
    prompt_cache_key: promptCacheKey,
    tool_choice: options?.toolChoice ?? "auto",
    parallel_tool_calls: true,
  };
  if (options?.maxTokens && (compat.supportsMaxOutputTokens ?? true)) body.max_output_tokens = Math.max(options.maxTokens, MIN_OUTPUT_TOKENS);
  if (options?.temperature !== undefined) body.temperature = options.temperature;
  if (options?.serviceTier !== undefined) body.service_tier = options.serviceTier;
  if (transcriptTools.requestTools.length > 0) body.tools = convertResponsesTools(transcriptTools.requestTools, toolOptions);
  if (options?.reasoningEffort !== undefined) {
    const effort = updateEffort === undefined ? providerEffort(model, options.reasoningEffort) : CONFIGURATION_UPDATE_REQUEST_EFFORT;
    if (effort !== null) body.reasoning = { effort, summary: options.reasoningSummary ?? "auto" };
  } else if (model.reasoning && model.thinkingLevelMap?.off !== null) {
    body.reasoning = { effort: model.thinkingLevelMap?.off ?? "none" };
  }
  return body;
}

function serviceTierMultiplier(model, tier) {
  if (tier === "flex") return 0.5;
  if (tier === "priority") return model.id === "gpt-5.5" ? 2.5 : 2;
  return 1;
}

function streamOptions(model, options, grammarToolInputProperties) {
  return {
    serviceTier: options?.serviceTier,
    grammarToolInputProperties,
    // A "default" answer to a flex or priority request is billed as requested.
    resolveServiceTier: (answered, requested) => (answered === "default" && (requested === "flex" || requested === "priority") ? requested : (answered ?? requested)),
    applyServiceTierPricing: (usage, tier) => {
      const multiplier = serviceTierMultiplier(model, tier);
      if (multiplier === 1) return;
      usage.cost.input *= multiplier;
      usage.cost.output *= multiplier;
      usage.cost.cacheRead *= multiplier;
      usage.cost.cacheWrite *= multiplier;
      usage.cost.total = usage.cost.input + usage.cost.output + usage.cost.cacheRead + usage.cost.cacheWrite;
    },
  };
}

function codexUrl(baseUrl) {
  const raw = baseUrl && baseUrl.trim().length > 0 ? baseUrl : DEFAULT_BASE_URL;
  const trimmed = raw.replace(/\/+$/, "");
  if (trimmed.endsWith("/codex/responses")) return trimmed;
  if (trimmed.endsWith("/codex")) return `${trimmed}/responses`;
  return `${trimmed}/codex/responses`;
}

function codexWebSocketUrl(baseUrl) {
  const url = new URL(codexUrl(baseUrl));
  if (url.protocol === "https:") url.protocol = "wss:";
  if (url.protocol === "http:") url.protocol = "ws:";
  return url.toString();
}

/** The ChatGPT account the token was issued for, from its JWT claims. */
function accountIdOf(token) {
  try {
    const parts = token.split(".");
    if (parts.length !== 3) throw new Error("Invalid token");
    const accountId = JSON.parse(atob(parts[1]))?.[ACCOUNT_CLAIM]?.chatgpt_account_id;
    if (!accountId) throw new Error("No account ID in token");
    return accountId;
  } catch {
    throw new Error("Failed to extract accountId from token");
  }
}

function baseHeaders(defaults, modelHeaders, callerHeaders, accountId, token) {
  const headers = new Headers(defaults);
  for (const [name, value] of Object.entries(modelHeaders || {})) headers.set(name, value);
  for (const [name, value] of Object.entries(callerHeaders || {})) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  headers.set("Authorization", `Bearer ${token}`);
  headers.set("chatgpt-account-id", accountId);
  return headers;
}

function sseHeaders(defaults, modelHeaders, callerHeaders, accountId, token, sessionId) {
  const headers = baseHeaders(defaults, modelHeaders, callerHeaders, accountId, token);
  headers.set("OpenAI-Beta", "responses=experimental");
  headers.set("accept", "text/event-stream");
  headers.set("content-type", "application/json");
  if (sessionId) {
    headers.set("session-id", sessionId);
    headers.set("x-client-request-id", sessionId);
  }
  return headers;
}

function webSocketHeaders(defaults, modelHeaders, callerHeaders, accountId, token, requestId) {
  const headers = baseHeaders(defaults, modelHeaders, callerHeaders, accountId, token);
  headers.delete("accept");
  headers.delete("content-type");
  headers.delete("OpenAI-Beta");
  headers.set("OpenAI-Beta", WEBSOCKET_BETA);
  headers.set("x-client-request-id", requestId);
  headers.set("session-id", requestId);
  return headers;
}

/** A failed response's text: the error's message, or a usage-limit line for limits. */
function errorResponseText(raw, status, statusText) {
  let message = raw || statusText || "Request failed";
  let friendly;
  try {
    const error = JSON.parse(raw)?.error;
    if (error) {
      const code = error.code || error.type || "";
      if (/usage_limit_reached|usage_not_included|rate_limit_exceeded/i.test(code) || status === 429) {
        const plan = error.plan_type ? ` (${error.plan_type.toLowerCase()} plan)` : "";
        const minutes = error.resets_at ? Math.max(0, Math.round((error.resets_at * 1000 - Date.now()) / 60000)) : undefined;
        const when = minutes !== undefined ? ` Try again in ~${minutes} min.` : "";
        friendly = `You have hit your ChatGPT usage limit${plan}.${when}`.trim();
      }
      message = error.message || friendly || message;
    }
  } catch {
    // Not JSON: the raw text is the message.
  }
  return friendly || message;
}

// --- events ---------------------------------------------------------------------------

function eventError(event) {
  const nested = event.error && typeof event.error === "object" ? event.error : undefined;
  return {
    code: typeof event.code === "string" ? event.code : typeof nested?.code === "string" ? nested.code : undefined,
    message: typeof event.message === "string" ? event.message : typeof nested?.message === "string" ? nested.message : undefined,
  };
}

/** Codex's events as Responses events: its errors thrown, its end events read as response.completed. */
async function* codexEvents(events, output, model, onProviderStreamEvent) {
  for await (const event of events) {
    try {
      await onProviderStreamEvent?.(event, model);
    } catch (error) {
      throw new StreamEventCallbackError(error);
    }
    const type = typeof event.type === "string" ? event.type : undefined;
    if (!type) continue;
    if (type === "error") {
      const { code, message } = eventError(event);
      throw new CodexApiError(`Codex error: ${message || code || JSON.stringify(event)}`, { code, payload: event });
    }
    if (type === "response.failed") {
      const error = event.response?.error;
      throw new CodexApiError(error?.message || "Codex response failed", { code: error?.code, payload: event });
    }
    if (type === "response.done" || type === "response.completed" || type === "response.incomplete") {
      const response = event.response;
      if (typeof response?.end_turn === "boolean") output.endTurn = response.end_turn;
      const status = typeof response?.status === "string" && RESPONSE_STATUSES.has(response.status) ? response.status : undefined;
      yield { ...event, type: "response.completed", response: response ? { ...response, status } : response };
      return;
    }
    yield event;
  }
}

/** The SSE body's JSON events; the end of the body ends its last event. */
async function* sseEvents(response, signal) {
  if (!response.body) return;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const onAbort = () => {
    void reader.cancel().catch(() => {});
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      if (signal?.aborted) throw new Error("Request was aborted");
      const { done, value } = await reader.read();
      if (signal?.aborted) throw new Error("Request was aborted");
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      if (done && buffer.trim()) buffer += "\n\n";
      let end = buffer.indexOf("\n\n");
      while (end !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const dataLines = block
          .split("\n")
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).trim());
        if (dataLines.length > 0) {
          const data = dataLines.join("\n").trim();
          if (data && data !== "[DONE]") {
            try {
              yield JSON.parse(data);
            } catch (cause) {
              throw new CodexProtocolError(`Invalid Codex SSE JSON: ${formatThrownValue(cause)}`, { cause, payload: data });
            }
          }
        }
        end = buffer.indexOf("\n\n");
      }
      if (done) break;
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    try {
      await reader.cancel();
    } catch {
      // Already done.
    }
    try {
      reader.releaseLock();
    } catch {
      // Already released.
    }
  }
}

async function* startOnFirstEvent(events, onStart) {
  let started = false;
  for await (const event of events) {
    if (!started) {
      started = true;
      onStart();
    }
    yield event;
  }
}

// --- the WebSocket turn -----------------------------------------------------------------

async function webSocketTurn(request) {
  const { url, body, headers, output, stream, model, onStart, idleTimeoutMs, connectTimeoutMs, sessionId, accountId, grammarToolInputProperties, options } = request;
  const { socket, entry, reused, release } = await acquireSocket(url, headers, sessionId, accountId, options?.signal, connectTimeoutMs);
  let keep = true;
  const cachedContext = options?.transport === "websocket-cached" || options?.transport === "auto";
  const sent = cachedContext && entry ? continuationBody(entry, body) : body;
  if (sessionId) {
    const stats = sessionStats(sessionId);
    stats.requests++;
    if (reused) stats.connectionsReused++;
    else stats.connectionsCreated++;
    if (cachedContext) stats.cachedContextRequests++;
    if (sent.store === true) stats.storeTrueRequests++;
    stats.lastInputItems = sent.input?.length ?? 0;
    if (sent.previous_response_id) {
      stats.deltaRequests++;
      stats.lastDeltaInputItems = sent.input?.length ?? 0;
      stats.lastPreviousResponseId = sent.previous_response_id;
    } else {
      stats.fullContextRequests++;
      stats.lastDeltaInputItems = undefined;
      stats.lastPreviousResponseId = undefined;
    }
  }
  try {
    socket.send(JSON.stringify({ type: "response.create", ...sent }));
    const events = codexEvents(socketEvents(socket, options?.signal, idleTimeoutMs), output, model, options?.onProviderStreamEvent);
    await processResponsesStream(startOnFirstEvent(events, onStart), output, stream, model, streamOptions(model, options, grammarToolInputProperties));
    if (options?.signal?.aborted) {
      keep = false;
    } else if (cachedContext && entry && output.responseId) {
      // What the answer adds to the input, so the next turn can send only what follows it.
      const answerItems = convertResponsesMessages(model, normalizeContext({ messages: [output] }), TOOL_CALL_ID_PROVIDERS, { grammarToolInputProperties }).filter(
        (item) => item.type !== "function_call_output" && item.type !== "custom_tool_call_output",
      );
      entry.continuation = { lastRequestBody: body, lastResponseId: output.responseId, lastResponseItems: answerItems };
    }
  } catch (error) {
    if (entry) entry.continuation = undefined;
    keep = false;
    throw error;
  } finally {
    release({ keep });
  }
}

// --- the stream ---------------------------------------------------------------------------

async function run(model, context, options, output, stream) {
  const updateEffort = configurationUpdateEffort(model, options);
  const apiKey = options?.apiKey;
  if (!apiKey) throw new Error(`No API key for provider: ${model.provider}`);
  const accountId = accountIdOf(apiKey);
  const grammarToolInputProperties = createGrammarToolInputProperties(getDeclaredTools(context.messages), model.compat?.supportsOpenAIGrammarTools ?? false);
  const sessionId = options?.cacheRetention === "none" ? undefined : options?.sessionId;
  const promptCacheKey = clampOpenAIPromptCacheKey(sessionId);
  let body = buildRequestBody(model, context, options, promptCacheKey, grammarToolInputProperties, updateEffort);
  const replaced = await options?.onPayload?.(body, model);
  if (replaced !== undefined) body = replaced;
  const requestId = promptCacheKey || uuidv7();
  // Codex expects an originator on every request; it is not attribution.
  const defaults = { originator: "pi", ...getIdentityHeaders(model, options?.identity) };
  const httpHeaders = sseHeaders(defaults, model.headers, options?.headers, accountId, apiKey, promptCacheKey);
  const socketHeaders = webSocketHeaders(defaults, model.headers, options?.headers, accountId, apiKey, requestId);
  const json = JSON.stringify(body);
  const timeoutMs = checkedTimeout(options?.timeoutMs);
  const connectTimeoutMs = checkedTimeout(options?.websocketConnectTimeoutMs);
  const transport = options?.transport || "auto";
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    stream.push({ type: "start", partial: output });
  };
  const socketsOff = transport !== "sse" && isSseFallbackActive(sessionId);
  if (socketsOff) recordSseFallback(sessionId);
  if (transport !== "sse" && !socketsOff) {
    let retriedConnectionLimit = false;
    let retriedMissingContinuation = false;
    for (;;) {
      let socketStarted = false;
      try {
        await webSocketTurn({
          url: codexWebSocketUrl(model.baseUrl),
          body,
          headers: socketHeaders,
          output,
          stream,
          model,
          onStart: () => {
            socketStarted = true;
            start();
          },
          idleTimeoutMs: timeoutMs,
          connectTimeoutMs,
          sessionId,
          accountId,
          grammarToolInputProperties,
          options,
        });
        if (options?.signal?.aborted) throw new Error("Request was aborted");
        ensureSucceeded(output);
        stream.push({ type: "done", reason: output.stopReason, message: output });
        stream.end();
        return;
      } catch (error) {
        const aborted = options?.signal?.aborted;
        const limitBeforeStart = !socketStarted && error instanceof CodexApiError && error.code === CONNECTION_LIMIT_REACHED;
        const missingContinuation = error instanceof CodexApiError && error.code === PREVIOUS_RESPONSE_NOT_FOUND;
        if (!aborted && missingContinuation && !retriedMissingContinuation) {
          retriedMissingContinuation = true;
          continue;
        }
        if (!aborted && limitBeforeStart && !retriedConnectionLimit) {
          retriedConnectionLimit = true;
          continue;
        }
        if (aborted || (isNonTransportError(error) && !limitBeforeStart)) throw error;
        appendAssistantMessageDiagnostic(
          output,
          createAssistantMessageDiagnostic("provider_transport_failure", error, {
            configuredTransport: transport,
            ...(socketStarted ? {} : { fallbackTransport: "sse" }),
            eventsEmitted: socketStarted,
            phase: socketStarted ? "after_message_stream_start" : "before_message_stream_start",
            requestBytes: new TextEncoder().encode(json).byteLength,
          }),
        );
        recordWebSocketFailure(sessionId, error);
        if (socketStarted) throw error;
        recordSseFallback(sessionId);
        break;
      }
    }
  }
  // The SSE body goes zstd-compressed, as the Codex client sends it; the socket sends plain JSON frames.
  const compressed = await zstdBody(json);
  if (compressed) httpHeaders.set("content-encoding", "zstd");
  const response = await sseResponse(model, httpHeaders, compressed ?? json, timeoutMs, options);
  if (!response.body) throw new Error("No response body");
  start();
  const events = codexEvents(sseEvents(response, options?.signal), output, model, options?.onProviderStreamEvent);
  await processResponsesStream(events, output, stream, model, streamOptions(model, options, grammarToolInputProperties));
  if (options?.signal?.aborted) throw new Error("Request was aborted");
  ensureSucceeded(output);
  stream.push({ type: "done", reason: output.stopReason, message: output });
  stream.end();
}

/** POSTs the SSE request, retrying rate limits and transient failures up to maxRetries times (none by default). */
async function sseResponse(model, headers, body, timeoutMs, options) {
  const maxRetries = options?.maxRetries ?? 0;
  let lastError;
  for (let attempt = 0; attempt <= maxRetries; attempt++) {
    if (options?.signal?.aborted) throw new Error("Request was aborted");
    try {
      const headerTimeout = timeoutMs !== undefined && timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined;
      const signals = [options?.signal, headerTimeout].filter(Boolean);
      const signal = signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
      let response;
      try {
        response = await (options?.fetch ?? globalThis.fetch)(codexUrl(model.baseUrl), { method: "POST", headers, body, signal });
      } catch (error) {
        if (headerTimeout?.aborted && !options?.signal?.aborted) throw new Error(`Codex SSE response headers timed out after ${timeoutMs}ms`);
        throw error;
      }
      await options?.onResponse?.({ status: response.status, headers: headersToRecord(response.headers) }, model);
      if (response.ok) return response;
      const text = await response.text();
      if (attempt < maxRetries && isRetryable(response.status, text)) {
        const serverDelay = retryAfterMs(response.headers);
        await sleep(serverDelay === undefined ? BASE_RETRY_DELAY_MS * 2 ** attempt : checkedRetryDelay(serverDelay, options), options?.signal);
        continue;
      }
      throw new Error(errorResponseText(text, response.status, response.statusText));
    } catch (error) {
      if (error instanceof Error && (error.name === "AbortError" || error.message === "Request was aborted")) throw new Error("Request was aborted");
      lastError = error instanceof Error ? error : new Error(String(error));
      // Network failures are retried too, but not a refused delay or a usage limit.
      if (attempt < maxRetries && !(lastError instanceof RetryDelayExceededError) && !lastError.message.includes("usage limit")) {
        await sleep(BASE_RETRY_DELAY_MS * 2 ** attempt, options?.signal);
        continue;
      }
      throw lastError;
    }
  }
  throw lastError ?? new Error("Failed after retries");
}

export function stream(model, context, options) {
  const events = new AssistantMessageEventStream();
  const transcript = resolveTranscript(context, model.compat?.supportsMidConvoSystemMessages);
  const updateEffort = configurationUpdateEffort(model, options);
  const output = {
    role: "assistant",
    content: [],
    api: "openai-codex-responses",
    provider: model.provider,
    model: model.id,
    ...(updateEffort === undefined ? {} : { providerThinkingLevel: updateEffort }),
    usage: emptyUsage(),
    stopReason: "pending",
    timestamp: Date.now(),
  };
  run(model, transcript, options, output, events).catch((error) => {
    output.stopReason = options?.signal?.aborted ? "aborted" : "error";
    output.errorMessage = formatProviderFailure(error);
    events.push({ type: "error", reason: output.stopReason, error: output });
    events.end();
  });
  return events;
}

export function streamSimple(model, context, options) {
  const apiKey = options?.apiKey;
  if (!apiKey) throw new Error(`No API key for provider: ${model.provider}`);
  const base = { ...buildBaseOptions(model, context, options, apiKey), toolChoice: options?.toolChoice };
  const level = options?.reasoning ? clampThinkingLevel(model, options.reasoning) : "off";
  // Off goes as effort "none", so switching to it keeps the configuration_update cache.
  const reasoningEffort = level !== "off" ? level : model.reasoning ? "none" : undefined;
  return stream(model, context, { ...base, reasoningEffort });
}
