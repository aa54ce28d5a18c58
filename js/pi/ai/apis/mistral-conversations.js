// pi-ai's "mistral-conversations" api: Mistral's native chat completions
// endpoint over the isolate's fetch (pi talks to it with fetch too), its
// SSE chunks turned into pi's assistant message events.
import { calculateCost } from "../cost.js";
import { AssistantMessageEventStream } from "../event-stream.js";
import { getIdentityHeaders } from "../identity.js";
import { ToolCallArgumentsStream } from "../json.js";
import { clampThinkingLevel } from "../model-kinds.js";
import { getSystemMessageText, renderSystemMessageUpdate } from "../system-text.js";
import { getCurrentTools } from "../system-messages.js";
import { resolveTranscript } from "../transcript-tools.js";
import { emptyUsage } from "../usage.js";
import { headersToRecord, MAX_PROVIDER_ERROR_BODY_CHARS } from "./http.js";
import { transformMessages } from "./replay-messages.js";
import { getJsonSchemaToolParameters, resolveJsonSchemaStrictSampling } from "./strict-schemas.js";
import { sanitizeSurrogates, shortHash } from "./text-safety.js";
import { buildBaseOptions } from "./token-budget.js";

// Mistral's tool call ids are exactly nine letters and digits.
const TOOL_CALL_ID_LENGTH = 9;
const DEFAULT_HEADER_TIMEOUT_MS = 60_000;
const DONE = Symbol("mistral-stream-done");

function deriveToolCallId(id, attempt) {
  const normalized = id.replace(/[^a-zA-Z0-9]/g, "");
  if (attempt === 0 && normalized.length === TOOL_CALL_ID_LENGTH) return normalized;
  const seed = attempt === 0 ? normalized || id : `${normalized || id}:${attempt}`;
  return shortHash(seed).replace(/[^a-zA-Z0-9]/g, "").slice(0, TOOL_CALL_ID_LENGTH);
}

/** Ids normalized per request, a collision resolved by hashing again. */
function toolCallIdNormalizer() {
  const byId = new Map();
  const owners = new Map();
  return (id) => {
    const known = byId.get(id);
    if (known) return known;
    for (let attempt = 0; ; attempt++) {
      const candidate = deriveToolCallId(id, attempt);
      const owner = owners.get(candidate);
      if (!owner || owner === id) {
        byId.set(id, candidate);
        owners.set(candidate, id);
        return candidate;
      }
    }
  };
}

class MistralHttpError extends Error {
  constructor(statusCode, body, statusText) {
    super(statusText || `Request failed with status ${statusCode}`);
    this.name = "MistralHttpError";
    this.statusCode = statusCode;
    this.body = body;
  }
}

function jsonText(value) {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text;
  } catch {
    return String(value);
  }
}

function formatMistralError(error) {
  if (!(error instanceof Error)) return jsonText(error);
  const status = typeof error.statusCode === "number" ? error.statusCode : undefined;
  const body = typeof error.body === "string" ? error.body.trim() : undefined;
  if (status !== undefined && body) {
    const shown = body.length <= MAX_PROVIDER_ERROR_BODY_CHARS ? body : `${body.slice(0, MAX_PROVIDER_ERROR_BODY_CHARS)}... [truncated ${body.length - MAX_PROVIDER_ERROR_BODY_CHARS} chars]`;
    return `Mistral API error (${status}): ${shown}`;
  }
  if (status !== undefined) return `Mistral API error (${status}): ${error.message}`;
  return error.message;
}

const usesPromptCaching = (options) => options?.cacheRetention !== "none" && !!options?.sessionId;

function applyHeaderOverrides(headers, overrides) {
  for (const [name, value] of Object.entries(overrides ?? {})) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
}

function hasHeaderOverride(overrides, name) {
  return !!overrides && Object.keys(overrides).some((key) => key.toLowerCase() === name);
}

function mistralHeaders(model, apiKey, options) {
  const headers = new Headers({
    ...getIdentityHeaders(model, options?.identity),
    accept: "text/event-stream",
    authorization: `Bearer ${apiKey}`,
    "content-type": "application/json",
  });
  applyHeaderOverrides(headers, model.headers);
  applyHeaderOverrides(headers, options?.headers);
  const explicitAffinity = hasHeaderOverride(model.headers, "x-affinity") || hasHeaderOverride(options?.headers, "x-affinity");
  if (usesPromptCaching(options) && !explicitAffinity) headers.set("x-affinity", options.sessionId);
  return headers;
}

function rename(record, from, to) {
  if (!(from in record)) return;
  record[to] = record[from];
  delete record[from];
}

const isRecord = (value) => typeof value === "object" && value !== null && !Array.isArray(value);

const PAYLOAD_FIELDS = [
  ["topP", "top_p"],
  ["maxTokens", "max_tokens"],
  ["randomSeed", "random_seed"],
  ["responseFormat", "response_format"],
  ["toolChoice", "tool_choice"],
  ["presencePenalty", "presence_penalty"],
  ["frequencyPenalty", "frequency_penalty"],
  ["parallelToolCalls", "parallel_tool_calls"],
  ["reasoningEffort", "reasoning_effort"],
  ["promptMode", "prompt_mode"],
  ["promptCacheKey", "prompt_cache_key"],
  ["safePrompt", "safe_prompt"],
];
const CHUNK_FIELDS = [
  ["imageUrl", "image_url"],
  ["documentUrl", "document_url"],
  ["documentName", "document_name"],
  ["fileId", "file_id"],
  ["referenceIds", "reference_ids"],
  ["inputAudio", "input_audio"],
];

/** The payload (in the SDK's camelCase, which onPayload sees) in the wire's snake_case. */
function toWirePayload(payload) {
  const wire = { ...payload };
  for (const [from, to] of PAYLOAD_FIELDS) rename(wire, from, to);
  wire.messages = payload.messages.map((message) => {
    const out = { ...message };
    rename(out, "toolCalls", "tool_calls");
    rename(out, "toolCallId", "tool_call_id");
    if (Array.isArray(message.content)) {
      out.content = message.content.map((chunk) => {
        const wireChunk = { ...chunk };
        for (const [from, to] of CHUNK_FIELDS) rename(wireChunk, from, to);
        return wireChunk;
      });
    }
    return out;
  });
  if (isRecord(wire.response_format)) {
    const format = { ...wire.response_format };
    rename(format, "jsonSchema", "json_schema");
    if (isRecord(format.json_schema)) {
      const schema = { ...format.json_schema };
      rename(schema, "schemaDefinition", "schema");
      format.json_schema = schema;
    }
    wire.response_format = format;
  }
  return wire;
}

async function requestStream(model, payload, apiKey, options) {
  const base = new URL(model.baseUrl);
  base.pathname = `${base.pathname.replace(/\/+$/u, "")}/`;
  const url = new URL("v1/chat/completions", base);
  // Only the wait for headers is bounded: long thinking must not hit a fixed deadline.
  const timeoutMs = options?.timeoutMs ?? DEFAULT_HEADER_TIMEOUT_MS;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const forward = () => controller.abort(options.signal.reason);
  if (options?.signal?.aborted) controller.abort(options.signal.reason);
  else options?.signal?.addEventListener("abort", forward, { once: true });
  let response;
  try {
    response = await (options?.fetch ?? globalThis.fetch)(url, {
      method: "POST",
      headers: mistralHeaders(model, apiKey, options),
      body: JSON.stringify(toWirePayload(payload)),
      signal: controller.signal,
    });
  } catch (error) {
    if (timedOut && !options?.signal?.aborted) throw new Error(`Mistral response headers timed out after ${timeoutMs}ms`);
    throw error;
  } finally {
    clearTimeout(timer);
    options?.signal?.removeEventListener("abort", forward);
  }
  await options?.onResponse?.({ status: response.status, headers: headersToRecord(response.headers) }, model);
  if (!response.ok) throw new MistralHttpError(response.status, await response.text(), response.statusText);
  if (!response.body) throw new Error("Mistral response has no body");
  return readEvents(response.body, options?.signal);
}

function eventBoundary(buffer) {
  const match = /\r\n\r\n|\r\n\r|\r\n\n|\r\r\n|\n\r\n|\r\r|\n\r|\n\n/u.exec(buffer);
  return match ? { index: match.index, length: match[0].length } : undefined;
}

function parseEvent(raw) {
  const data = raw
    .split(/\r\n|\r|\n/u)
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(5).trimStart())
    .join("\n")
    .trim();
  if (!data) return undefined;
  if (data === "[DONE]") return DONE;
  const parsed = JSON.parse(data);
  if (!isRecord(parsed) || !Array.isArray(parsed.choices)) throw new Error("Invalid Mistral streaming event");
  return parsed;
}

async function* readEvents(body, signal) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const onAbort = () => {
    reader.cancel().catch(() => {});
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      if (signal?.aborted) throw signal.reason;
      const { done, value } = await reader.read();
      if (signal?.aborted) throw signal.reason;
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      for (let boundary = eventBoundary(buffer); boundary; boundary = eventBoundary(buffer)) {
        const event = parseEvent(buffer.slice(0, boundary.index));
        buffer = buffer.slice(boundary.index + boundary.length);
        if (event === DONE) return;
        if (event) yield event;
      }
      if (done) break;
    }
    if (buffer.trim()) {
      const event = parseEvent(buffer);
      if (event !== DONE && event) yield event;
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    try {
      await reader.cancel();
    } catch {
      // Already closed.
    }
    try {
      reader.releaseLock();
    } catch {
      // Already released.
    }
  }
}

function toolResultText(text, hasImages, supportsImages, isError) {
  const trimmed = text.trim();
  const prefix = isError ? "[tool error] " : "";
  if (trimmed.length > 0) return `${prefix}${trimmed}${hasImages && !supportsImages ? "\n[tool image omitted: model does not support images]" : ""}`;
  if (hasImages) return `${prefix}${supportsImages ? "(see attached image)" : "(image omitted: model does not support images)"}`;
  return `${prefix}(no tool output)`;
}

function toChatMessages(messages, supportsImages) {
  const result = [];
  messages.forEach((message, index) => {
    if (message.role === "system") {
      const text = index === 0 ? getSystemMessageText(message) : renderSystemMessageUpdate(message);
      if (text.length > 0) result.push({ role: "system", content: sanitizeSurrogates(text) });
    } else if (message.role === "user") {
      if (typeof message.content === "string") {
        result.push({ role: "user", content: sanitizeSurrogates(message.content) });
        return;
      }
      const hadImages = message.content.some((block) => block.type === "image");
      const content = message.content
        .filter((block) => block.type === "text" || supportsImages)
        .map((block) =>
          block.type === "text" ? { type: "text", text: sanitizeSurrogates(block.text) } : { type: "image_url", imageUrl: `data:${block.mimeType};base64,${block.data}` },
        );
      if (content.length > 0) result.push({ role: "user", content });
      else if (hadImages && !supportsImages) result.push({ role: "user", content: "(image omitted: model does not support images)" });
    } else if (message.role === "assistant") {
      const content = [];
      const toolCalls = [];
      for (const block of message.content) {
        if (block.type === "text") {
          if (block.text.trim().length > 0) content.push({ type: "text", text: sanitizeSurrogates(block.text) });
        } else if (block.type === "thinking") {
          if (block.thinking.trim().length > 0) content.push({ type: "thinking", thinking: [{ type: "text", text: sanitizeSurrogates(block.thinking) }] });
        } else {
          toolCalls.push({ id: block.id, type: "function", function: { name: block.name, arguments: JSON.stringify(block.arguments || {}) }, index: 0 });
        }
      }
      const converted = { role: "assistant", prefix: false };
      if (content.length > 0) converted.content = content;
      if (toolCalls.length > 0) converted.toolCalls = toolCalls;
      if (content.length > 0 || toolCalls.length > 0) result.push(converted);
    } else {
      const text = message.content.filter((part) => part.type === "text").map((part) => sanitizeSurrogates(part.text)).join("\n");
      const hasImages = message.content.some((part) => part.type === "image");
      const content = [{ type: "text", text: toolResultText(text, hasImages, supportsImages, message.isError) }];
      if (supportsImages) {
        for (const part of message.content) if (part.type === "image") content.push({ type: "image_url", imageUrl: `data:${part.mimeType};base64,${part.data}` });
      }
      result.push({ role: "tool", toolCallId: message.toolCallId, name: message.toolName, content });
    }
  });
  return result;
}

/** A copy with plain keys only (schemas built by TypeBox carry symbol keys). */
function withoutSymbolKeys(value) {
  if (Array.isArray(value)) return value.map(withoutSymbolKeys);
  if (value && typeof value === "object") {
    const result = {};
    for (const [key, entry] of Object.entries(value)) result[key] = withoutSymbolKeys(entry);
    return result;
  }
  return value;
}

function toFunctionTools(tools, supportsStrictMode) {
  return tools.map((tool) => {
    const strict = resolveJsonSchemaStrictSampling(tool, supportsStrictMode);
    return {
      type: "function",
      function: {
        name: tool.name,
        description: tool.description,
        parameters: withoutSymbolKeys(getJsonSchemaToolParameters(tool, strict)),
        strict: strict ?? false,
      },
    };
  });
}

function mapToolChoice(choice) {
  if (!choice) return undefined;
  if (choice === "auto" || choice === "none" || choice === "any" || choice === "required") return choice;
  return { type: "function", function: { name: choice.function.name } };
}

function buildPayload(model, context, messages, options) {
  const payload = { model: model.id, stream: true, messages: toChatMessages(messages, model.input.includes("image")) };
  const tools = getCurrentTools(context.messages);
  // Strict tools are opt-in: Mistral Large 4 can go silent for minutes before a strict call.
  if (tools.length > 0) payload.tools = toFunctionTools(tools, model.compat?.supportsStrictMode ?? false);
  if (options?.temperature !== undefined) payload.temperature = options.temperature;
  if (options?.maxTokens !== undefined) payload.maxTokens = options.maxTokens;
  if (options?.toolChoice) payload.toolChoice = mapToolChoice(options.toolChoice);
  if (options?.promptMode) payload.promptMode = options.promptMode;
  if (options?.reasoningEffort) payload.reasoningEffort = options.reasoningEffort;
  if (usesPromptCaching(options)) payload.promptCacheKey = options.sessionId;
  return payload;
}

function cachedPromptTokens(usage, promptTokens) {
  const raw =
    usage.promptTokensDetails?.cachedTokens ??
    usage.prompt_tokens_details?.cached_tokens ??
    usage.promptTokenDetails?.cachedTokens ??
    usage.prompt_token_details?.cached_tokens ??
    usage.numCachedTokens ??
    usage.num_cached_tokens ??
    0;
  const cached = typeof raw === "number" && Number.isFinite(raw) ? raw : 0;
  return Math.min(promptTokens, Math.max(0, cached));
}

function mapStopReason(reason) {
  if (reason === null) return { stopReason: "stop" };
  switch (reason) {
    case "stop":
      return { stopReason: "stop" };
    case "length":
    case "model_length":
      return { stopReason: "length" };
    case "tool_calls":
      return { stopReason: "toolUse" };
    case "error":
      // "server error" makes the failure retryable.
      return { stopReason: "error", errorMessage: "Provider stopped with: error (server error)" };
    default:
      return { stopReason: "error", errorMessage: `Provider stopped with: ${reason}` };
  }
}

async function consumeStream(model, output, events, chunks, onProviderStreamEvent) {
  const push = (fields) => events.push({ ...fields, partial: output });
  const lastIndex = () => output.content.length - 1;
  let current = null;
  // Per tool call, kept off the content blocks so it never reaches partials.
  const calls = new Map();
  const finishCurrent = () => {
    if (current?.type === "text") push({ type: "text_end", contentIndex: lastIndex(), content: current.text });
    else if (current?.type === "thinking") push({ type: "thinking_end", contentIndex: lastIndex(), content: current.thinking });
  };
  const appendTo = (type, delta) => {
    if (!current || current.type !== type) {
      finishCurrent();
      current = type === "text" ? { type: "text", text: "" } : { type: "thinking", thinking: "" };
      output.content.push(current);
      push({ type: `${type}_start`, contentIndex: lastIndex() });
    }
    current[type] += delta;
    push({ type: `${type}_delta`, contentIndex: lastIndex(), delta });
  };
  for await (const chunk of chunks) {
    await onProviderStreamEvent?.(chunk, model);
    output.responseId ||= chunk.id;
    if (chunk.usage) {
      const prompt = chunk.usage.prompt_tokens || 0;
      const cached = cachedPromptTokens(chunk.usage, prompt);
      output.usage.input = Math.max(0, prompt - cached);
      output.usage.output = chunk.usage.completion_tokens || 0;
      output.usage.cacheRead = cached;
      output.usage.cacheWrite = 0;
      output.usage.totalTokens = chunk.usage.total_tokens || output.usage.input + output.usage.output + output.usage.cacheRead + output.usage.cacheWrite;
      calculateCost(model, output.usage);
    }
    const choice = chunk.choices[0];
    if (!choice) continue;
    if (choice.finish_reason) {
      output.rawStopReason = choice.finish_reason;
      const mapped = mapStopReason(choice.finish_reason);
      output.stopReason = mapped.stopReason;
      if (mapped.errorMessage) output.errorMessage = mapped.errorMessage;
    }
    const delta = choice.delta;
    if (delta.content !== null && delta.content !== undefined) {
      for (const item of typeof delta.content === "string" ? [delta.content] : delta.content) {
        if (typeof item === "string" || item.type === "text") {
          // GLM models send empty deltas around thinking and calls; a block for them would split thinking.
          const text = sanitizeSurrogates(typeof item === "string" ? item : (item.text ?? ""));
          if (text) appendTo("text", text);
        } else if (item.type === "thinking") {
          const text = sanitizeSurrogates((item.thinking ?? []).map((part) => part.text ?? "").filter((part) => part.length > 0).join(""));
          if (text) appendTo("thinking", text);
        }
      }
    }
    for (const call of delta.tool_calls || []) {
      if (current) {
        finishCurrent();
        current = null;
      }
      const callId = call.id && call.id !== "null" ? call.id : deriveToolCallId(`toolcall:${call.index ?? 0}`, 0);
      const key = call.index ?? callId;
      let open = calls.get(key);
      if (!open) {
        output.content.push({ type: "toolCall", id: callId, name: call.function.name, arguments: {} });
        open = { contentIndex: lastIndex(), arguments: new ToolCallArgumentsStream() };
        calls.set(key, open);
        push({ type: "toolcall_start", contentIndex: open.contentIndex });
      }
      const text = typeof call.function.arguments === "string" ? call.function.arguments : JSON.stringify(call.function.arguments || {});
      output.content[open.contentIndex].arguments = open.arguments.append(text);
      push({ type: "toolcall_delta", contentIndex: open.contentIndex, delta: text });
    }
  }
  finishCurrent();
  for (const open of calls.values()) {
    const block = output.content[open.contentIndex];
    Object.assign(block, open.arguments.finish());
    push({ type: "toolcall_end", contentIndex: open.contentIndex, toolCall: block });
  }
}

export function stream(model, context, options) {
  const events = new AssistantMessageEventStream();
  const transcript = resolveTranscript(context, model.compat?.supportsMidConvoSystemMessages);
  const output = {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason: "pending",
    timestamp: Date.now(),
  };
  run(model, transcript, options, output, events).catch((error) => {
    output.stopReason = options?.signal?.aborted ? "aborted" : "error";
    output.errorMessage = formatMistralError(error);
    events.push({ type: "error", reason: output.stopReason, error: output });
    events.end();
  });
  return events;
}

async function run(model, context, options, output, events) {
  const apiKey = options?.apiKey;
  if (!apiKey) throw new Error(`No API key for provider: ${model.provider}`);
  const normalize = toolCallIdNormalizer();
  const messages = transformMessages(context.messages, model, (id) => normalize(id));
  let payload = buildPayload(model, context, messages, options);
  const replaced = await options?.onPayload?.(payload, model);
  if (replaced !== undefined) payload = replaced;
  const chunks = await requestStream(model, payload, apiKey, options);
  events.push({ type: "start", partial: output });
  await consumeStream(model, output, events, chunks, options?.onProviderStreamEvent);
  if (options?.signal?.aborted) throw new Error("Request was aborted");
  if (output.stopReason === "pending") throw new Error("Mistral stream ended without a finish reason");
  if (output.stopReason === "aborted" || output.stopReason === "error") throw new Error(output.errorMessage || "An unknown error occurred");
  events.push({ type: "done", reason: output.stopReason, message: output });
  events.end();
}

export function streamSimple(model, context, options) {
  const apiKey = options?.apiKey;
  if (!apiKey) throw new Error(`No API key for provider: ${model.provider}`);
  const base = { ...buildBaseOptions(model, context, options, apiKey), toolChoice: options?.toolChoice };
  const level = options?.reasoning ? clampThinkingLevel(model, options.reasoning) : undefined;
  const reasoning = level === "off" ? undefined : level;
  // Models with a level map take reasoning_effort; other reasoning models take prompt_mode.
  const effortMap = model.reasoning ? model.thinkingLevelMap : undefined;
  const reasoningEffort = effortMap ? (reasoning ? (effortMap[reasoning] ?? "high") : (effortMap.off ?? undefined)) : undefined;
  return stream(model, context, {
    ...base,
    promptMode: model.reasoning && !effortMap && reasoning ? "reasoning" : undefined,
    reasoningEffort,
  });
}
