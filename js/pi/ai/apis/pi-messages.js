// pi-ai's "pi-messages" api: pi's own message protocol (the Radius
// gateway's), over the isolate's fetch. One POST of { model, context,
// options } to <baseUrl>/messages; the answer is an SSE stream of pi's
// assistant message events, without partials, ending in done or error.
import { appendAssistantMessageDiagnostic, createAssistantMessageDiagnostic } from "../diagnostics.js";
import { AssistantMessageEventStream } from "../event-stream.js";
import { getIdentityHeaders } from "../identity.js";
import { ToolCallArgumentsStream } from "../json.js";
import { providerEnvValue } from "../provider-env.js";
import { emptyUsage } from "../usage.js";
import { headersToRecord, mergeRequestHeaders } from "./http.js";

const MAX_DIAGNOSTIC_CHARS = 8192;

export class PiMessagesResponseError extends Error {
  constructor(message, code, diagnosticDetails) {
    super(message);
    this.name = "PiMessagesResponseError";
    this.code = code;
    this.diagnosticDetails = diagnosticDetails;
  }
}

function parseErrorBody(body) {
  try {
    const parsed = JSON.parse(body);
    const error = parsed?.error;
    return parsed && typeof error === "object" && error !== null && !Array.isArray(error) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function responseError(model, url, response, body) {
  const errorBody = parseErrorBody(body);
  const message = typeof errorBody?.error?.message === "string" ? errorBody.error.message : undefined;
  const code = typeof errorBody?.error?.code === "string" ? errorBody.error.code : undefined;
  const text = `${response.status} ${response.statusText}: ${message ?? body}${code ? ` (${code})` : ""}`;
  return new PiMessagesResponseError(text, code, {
    version: 1,
    provider: model.provider,
    model: model.id,
    url: url.toString(),
    status: response.status,
    statusText: response.statusText,
    ...(errorBody?.error === undefined ? {} : { error: errorBody.error }),
    ...(errorBody ? {} : { body: body.length > MAX_DIAGNOSTIC_CHARS ? `${body.slice(0, MAX_DIAGNOSTIC_CHARS)}…` : body }),
    timestampMs: Date.now(),
  });
}

function appendRewrite(message, rewrite) {
  if (rewrite) appendAssistantMessageDiagnostic(message, { type: "pi_messages_rewrite", timestamp: Date.now(), details: { ...rewrite } });
}

/** Rebuilds the partial message from wire events, which carry none. */
function eventConverter(model) {
  const partial = {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason: "pending",
    timestamp: Date.now(),
  };
  const toolArguments = new Map();
  const finish = (event, fields) => {
    Object.assign(partial, fields);
    if (event.responseModel !== undefined) partial.responseModel = event.responseModel;
    if (event.providerThinkingLevel !== undefined) partial.providerThinkingLevel = event.providerThinkingLevel;
    appendRewrite(partial, event.rewrite);
  };
  return (event) => {
    if ("contentIndex" in event) {
      // The index keys the content array: no `__proto__`, no huge sparse arrays; a start adds the next block.
      const index = event.contentIndex;
      const limit = event.type.endsWith("_start") ? partial.content.length : partial.content.length - 1;
      if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index > limit) {
        throw new Error(`Invalid contentIndex ${JSON.stringify(index)} in pi-messages ${event.type} event`);
      }
    }
    const content = partial.content;
    switch (event.type) {
      case "done":
        finish(event, { stopReason: event.reason, usage: event.usage, responseId: event.responseId });
        return { type: "done", reason: event.reason, message: partial };
      case "error":
        finish(event, { stopReason: event.reason, usage: event.usage, errorMessage: event.errorMessage, responseId: event.responseId });
        return { type: "error", reason: event.reason, error: partial };
      case "text_start":
        content[event.contentIndex] = { type: "text", text: "" };
        break;
      case "text_delta":
        content[event.contentIndex].text += event.delta;
        break;
      case "text_end":
        Object.assign(content[event.contentIndex], { text: event.content, textSignature: event.contentSignature });
        break;
      case "thinking_start":
        content[event.contentIndex] = { type: "thinking", thinking: "" };
        break;
      case "thinking_delta":
        content[event.contentIndex].thinking += event.delta;
        break;
      case "thinking_end":
        Object.assign(content[event.contentIndex], { thinking: event.content, thinkingSignature: event.contentSignature, redacted: event.redacted });
        break;
      case "toolcall_start":
        content[event.contentIndex] = { type: "toolCall", id: event.id, name: event.toolName, arguments: {} };
        toolArguments.set(event.contentIndex, new ToolCallArgumentsStream());
        break;
      case "toolcall_delta": {
        const args = toolArguments.get(event.contentIndex);
        if (args !== undefined) content[event.contentIndex].arguments = args.append(event.delta);
        break;
      }
      case "toolcall_end":
        Object.assign(content[event.contentIndex], event.toolCall);
        toolArguments.delete(event.contentIndex);
        return { type: "toolcall_end", contentIndex: event.contentIndex, toolCall: content[event.contentIndex], partial };
      default:
        break;
    }
    return { ...event, partial };
  };
}

function parseEvent(raw) {
  const data = raw
    .split("\n")
    .find((line) => line.startsWith("data:"))
    ?.slice(5)
    .trim();
  return data && data !== "[DONE]" ? JSON.parse(data) : undefined;
}

async function* readEvents(body) {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      buffer = buffer.replace(/\r\n/g, "\n");
      for (let split = buffer.indexOf("\n\n"); split !== -1; split = buffer.indexOf("\n\n")) {
        const event = parseEvent(buffer.slice(0, split));
        if (event) yield event;
        buffer = buffer.slice(split + 2);
      }
      if (done) break;
    }
    if (buffer.trim()) {
      const event = parseEvent(buffer);
      if (event) yield event;
    }
  } finally {
    reader.releaseLock();
  }
}

function errorEvent(model, error, aborted) {
  const reason = aborted ? "aborted" : "error";
  const message = {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason: reason,
    errorMessage: error instanceof Error ? error.message : String(error),
    timestamp: Date.now(),
  };
  if (!aborted && error instanceof PiMessagesResponseError) {
    appendAssistantMessageDiagnostic(message, createAssistantMessageDiagnostic("pi_messages_response_failure", error, error.diagnosticDetails));
  }
  return { type: "error", reason, error: message };
}

/** Unset leaves the backend's default; only the legacy PI_CACHE_RETENTION=long maps. */
function resolveCacheRetention(cacheRetention, env) {
  if (cacheRetention) return cacheRetention;
  return providerEnvValue("PI_CACHE_RETENTION", env) === "long" ? "long" : undefined;
}

async function run(model, context, options, events, convert) {
  const apiKey = options?.apiKey;
  if (!apiKey) throw new Error(`No API key provided for provider "${model.provider}"`);
  const url = new URL(`${model.baseUrl.replace(/\/+$/u, "")}/messages`);
  if (options?.debug) url.searchParams.set("debug", "1");
  let payload = {
    model: model.id,
    context,
    options: {
      temperature: options?.temperature,
      maxTokens: options?.maxTokens,
      reasoning: options?.reasoning,
      cacheRetention: resolveCacheRetention(options?.cacheRetention, options?.env),
      sessionId: options?.sessionId,
      toolChoice: options?.toolChoice,
    },
  };
  const replaced = await options?.onPayload?.(payload, model);
  if (replaced !== undefined) payload = replaced;
  const response = await (options?.fetch ?? globalThis.fetch)(url, {
    method: "POST",
    headers: mergeRequestHeaders(
      getIdentityHeaders(model, options?.identity),
      { authorization: `Bearer ${apiKey}`, accept: "text/event-stream", "content-type": "application/json" },
      options?.headers,
    ),
    body: JSON.stringify(payload),
    signal: options?.signal,
  });
  await options?.onResponse?.({ status: response.status, headers: headersToRecord(response.headers) }, model);
  if (!response.ok) throw responseError(model, url, response, await response.text());
  if (!response.body) throw new Error(`${model.provider} response has no body`);
  for await (const wireEvent of readEvents(response.body)) {
    await options?.onProviderStreamEvent?.(wireEvent, model);
    const event = convert(wireEvent);
    events.push(event);
    if (event.type === "done" || event.type === "error") return;
  }
  throw new Error(`${model.provider} stream ended without a terminal event`);
}

export function stream(model, context, options) {
  const events = new AssistantMessageEventStream();
  const convert = eventConverter(model);
  run(model, context, options, events, convert).catch((error) => {
    events.push(errorEvent(model, error, options?.signal?.aborted ?? false));
  });
  return events;
}

export function streamSimple(model, context, options) {
  return stream(model, context, { ...options, reasoning: options?.reasoning, toolChoice: options?.toolChoice, debug: options?.debug });
}
