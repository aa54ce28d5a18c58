// A stream function for apps whose model calls go through their own server:
// it POSTs the request to `${proxyUrl}/api/stream` and reads back
// server-sent events. The server leaves the partial message out of its
// events to save bandwidth; it is rebuilt here, so consumers get ordinary
// assistant-message events.
import { createAssistantMessageEventStream } from "../ai/event-stream.js";
import { ToolCallArgumentsStream } from "../ai/json.js";
import { emptyUsage } from "../ai/usage.js";

/** The stream options the server gets; everything else (the signal, callbacks, keys) stays here. */
function forwardedOptions(options) {
  return {
    temperature: options.temperature,
    samplingParams: options.samplingParams,
    maxTokens: options.maxTokens,
    reasoning: options.reasoning,
    cacheRetention: options.cacheRetention,
    sessionId: options.sessionId,
    disableContinuation: options.disableContinuation,
    headers: options.headers,
    metadata: options.metadata,
    transport: options.transport,
    thinkingBudgets: options.thinkingBudgets,
    maxRetryDelayMs: options.maxRetryDelayMs,
  };
}

function emptyPartial(model) {
  return {
    role: "assistant",
    stopReason: "pending",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    timestamp: Date.now(),
  };
}

async function proxyErrorMessage(response) {
  try {
    const body = await response.json();
    if (body.error) return `Proxy error: ${body.error}`;
  } catch {
    // A body that is not JSON says nothing more than the status.
  }
  return `Proxy error: ${response.status} ${response.statusText}`;
}

/** The text-like blocks: where their text lives and how their signature is named on the block. */
const TEXT_KINDS = {
  text: { field: "text", signature: "textSignature" },
  thinking: { field: "thinking", signature: "thinkingSignature" },
};

/**
 * Applies one server event to `partial` and returns the event for consumers,
 * or undefined for events that have none. `toolArguments` holds the argument
 * parsers of open tool calls by content index, off the content blocks.
 */
function applyProxyEvent(event, partial, toolArguments) {
  const index = event.contentIndex;
  const block = partial.content[index];
  const kind = String(event.type).startsWith("thinking") ? "thinking" : "text";
  switch (event.type) {
    case "start":
      return { type: "start", partial };
    case "text_start":
    case "thinking_start":
      partial.content[index] = { type: kind, [TEXT_KINDS[kind].field]: "" };
      return { type: event.type, contentIndex: index, partial };
    case "text_delta":
    case "thinking_delta":
      if (block?.type !== kind) throw new Error(`Received ${event.type} for non-${kind} content`);
      block[TEXT_KINDS[kind].field] += event.delta;
      return { type: event.type, contentIndex: index, delta: event.delta, partial };
    case "text_end":
    case "thinking_end":
      if (block?.type !== kind) throw new Error(`Received ${event.type} for non-${kind} content`);
      block[TEXT_KINDS[kind].signature] = event.contentSignature;
      return { type: event.type, contentIndex: index, content: block[TEXT_KINDS[kind].field], partial };
    case "toolcall_start":
      partial.content[index] = { type: "toolCall", id: event.id, name: event.toolName, arguments: {} };
      toolArguments.set(index, new ToolCallArgumentsStream());
      return { type: "toolcall_start", contentIndex: index, partial };
    case "toolcall_delta": {
      const parser = toolArguments.get(index);
      if (block?.type !== "toolCall" || parser === undefined) {
        throw new Error("Received toolcall_delta for non-toolCall content");
      }
      // A fresh block object, so consumers that compare by identity notice the change.
      partial.content[index] = { ...block, arguments: parser.append(event.delta) };
      return { type: "toolcall_delta", contentIndex: index, delta: event.delta, partial };
    }
    case "toolcall_end":
      if (block?.type !== "toolCall") return undefined;
      Object.assign(block, event.toolCall);
      toolArguments.delete(index);
      return { type: "toolcall_end", contentIndex: index, toolCall: block, partial };
    case "done":
      partial.stopReason = event.reason;
      partial.usage = event.usage;
      if (event.providerThinkingLevel !== undefined) partial.providerThinkingLevel = event.providerThinkingLevel;
      return { type: "done", reason: event.reason, message: partial };
    case "error":
      partial.stopReason = event.reason;
      partial.errorMessage = event.errorMessage;
      partial.usage = event.usage;
      if (event.providerThinkingLevel !== undefined) partial.providerThinkingLevel = event.providerThinkingLevel;
      return { type: "error", reason: event.reason, error: partial };
    default:
      console.warn(`Unhandled proxy event type: ${event.type}`);
      return undefined;
  }
}

/** Ends `stream` with `partial` as a failed message. */
function fail(stream, partial, reason, errorMessage) {
  partial.stopReason = reason;
  partial.errorMessage = errorMessage;
  stream.push({ type: "error", reason, error: partial });
  stream.end();
}

async function relay(stream, model, context, options) {
  const partial = emptyPartial(model);
  let reader;
  const cancelReading = () => {
    reader?.cancel("Request aborted by user").catch(() => {});
  };
  options.signal?.addEventListener("abort", cancelReading);
  try {
    const response = await fetch(`${options.proxyUrl}/api/stream`, {
      method: "POST",
      headers: { Authorization: `Bearer ${options.authToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({ model, context, options: forwardedOptions(options) }),
      signal: options.signal,
    });
    if (!response.ok) throw new Error(await proxyErrorMessage(response));

    reader = response.body.getReader();
    const decoder = new TextDecoder();
    const toolArguments = new Map();
    let pending = "";
    let ended = false;
    const handleLine = (line) => {
      if (!line.startsWith("data: ")) return;
      const data = line.slice("data: ".length).trim();
      if (!data) return;
      const event = applyProxyEvent(JSON.parse(data), partial, toolArguments);
      if (!event) return;
      if (event.type === "done" || event.type === "error") ended = true;
      stream.push(event);
    };
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (options.signal?.aborted) throw new Error("Request aborted by user");
      pending += decoder.decode(value, { stream: true });
      const lines = pending.split("\n");
      pending = lines.pop() || "";
      for (const line of lines) handleLine(line);
    }
    if (options.signal?.aborted) throw new Error("Request aborted by user");
    // The last event need not end in a newline.
    pending += decoder.decode();
    if (pending) handleLine(pending);
    if (!ended) {
      // A clean end of the body without done or error means the server dropped the response.
      fail(stream, partial, "error", "Connection closed by proxy server before the response completed");
      return;
    }
    stream.end();
  } catch (error) {
    const reason = options.signal?.aborted ? "aborted" : "error";
    fail(stream, partial, reason, error instanceof Error ? error.message : String(error));
  } finally {
    options.signal?.removeEventListener("abort", cancelReading);
  }
}

/**
 * Streams the model's answer through the proxy server at `options.proxyUrl`,
 * authenticated with `options.authToken`. Use it as an Agent's `streamFn`.
 */
export function streamProxy(model, context, options) {
  const stream = createAssistantMessageEventStream();
  relay(stream, model, context, options);
  return stream;
}
