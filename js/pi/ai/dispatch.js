// pi-ai's api dispatch (`stream`, `complete` and their Simple forms) and its
// api-provider registry. pihost registers no providers by itself: a provider
// registered in this isolate (an extension's, or pi's built-in ones after
// registerBuiltInApiProviders()) is used as pi would use it, and every other
// call goes to the embedding host through
// `globalThis.__pihostModelRequest(kind, model, transcript, options)`, which
// answers with the final AssistantMessage (see js/runtime/host-bridge.js).
// Without the hook, or when it rejects, the call fails the way pi's does for
// an api no provider is registered for.
import { getEnvApiKey } from "./env-api-keys.js";
import { AssistantMessageEventStream } from "./event-stream.js";
import { normalizeContext } from "./transcript.js";
import { emptyUsage } from "./usage.js";

const providers = new Map();

function checkedApi(api, run) {
  return (model, context, options) => {
    if (model.api !== api) throw new Error(`Mismatched api: ${model.api} expected ${api}`);
    return run(model, context, options);
  };
}

/** Registers (or replaces) the provider of `provider.api`; `sourceId` groups registrations for removal. */
export function registerApiProvider(provider, sourceId) {
  providers.set(provider.api, {
    provider: {
      api: provider.api,
      stream: checkedApi(provider.api, provider.stream),
      streamSimple: checkedApi(provider.api, provider.streamSimple),
    },
    sourceId,
  });
}

export function getApiProvider(api) {
  return providers.get(api)?.provider;
}

export function getApiProviders() {
  return Array.from(providers.values(), (entry) => entry.provider);
}

export function unregisterApiProviders(sourceId) {
  for (const [api, entry] of providers) {
    if (entry.sourceId === sourceId) providers.delete(api);
  }
}

/** Forgets every registered provider. pi then re-registers its built-in ones; pihost leaves calls to the host. */
export function resetApiProviders() {
  providers.clear();
}

function noProviderError(api) {
  return new Error(`No API provider registered for api: ${api}`);
}

/**
 * Asks the host for the model's answer. Throws at once when there is no
 * hook (pi throws from stream() when the api has no provider); the promise
 * rejects when the host does not answer with a message.
 */
function askHost(kind, model, transcript, options) {
  const hook = globalThis.__pihostModelRequest;
  if (typeof hook !== "function") throw noProviderError(model.api);
  let answer;
  try {
    answer = Promise.resolve(hook(kind, model, transcript, options));
  } catch (error) {
    answer = Promise.reject(error);
  }
  return answer.then((message) => {
    if (message === null || typeof message !== "object" || !Array.isArray(message.content)) {
      throw new Error("pihost: the host's answer is not an AssistantMessage");
    }
    return message;
  });
}

function partialArguments(toolArguments) {
  // What pi's streaming argument parser shows once the whole JSON text has
  // arrived: a fresh copy of the object, or no arguments for a non-object.
  const text = JSON.stringify(toolArguments);
  const parsed = text === undefined ? undefined : JSON.parse(text);
  return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : {};
}

/**
 * Emits the events of a response that is already complete: start, then per
 * content block its start, one delta carrying the whole block and its end,
 * then done, or error for an "error" or "aborted" stop. This is not true
 * streaming: the host answers with the final message, so every delta arrives
 * at once. The order and the partial messages are those pi's own
 * message-replaying provider (faux) produces with one chunk per block,
 * including partials that share their content blocks with later events.
 */
function replayMessage(stream, message, options) {
  const partial = { ...message, content: [], stopReason: "pending" };
  if (options?.signal?.aborted) {
    const aborted = { ...partial, stopReason: "aborted", errorMessage: "Request was aborted", timestamp: Date.now() };
    stream.push({ type: "error", reason: "aborted", error: aborted });
    stream.end(aborted);
    return;
  }
  const emit = (event) => stream.push({ ...event, partial: { ...partial } });
  emit({ type: "start" });
  message.content.forEach((block, contentIndex) => {
    if (block.type === "thinking" || block.type === "text") {
      // The block's text lives under its type's name: `text` or `thinking`.
      const kind = block.type;
      const open = { type: kind, [kind]: "" };
      partial.content = [...partial.content, open];
      emit({ type: `${kind}_start`, contentIndex });
      open[kind] += block[kind];
      emit({ type: `${kind}_delta`, contentIndex, delta: block[kind] });
      emit({ type: `${kind}_end`, contentIndex, content: block[kind] });
      return;
    }
    const open = { type: "toolCall", id: block.id, name: block.name, arguments: {} };
    partial.content = [...partial.content, open];
    emit({ type: "toolcall_start", contentIndex });
    open.arguments = partialArguments(block.arguments);
    emit({ type: "toolcall_delta", contentIndex, delta: JSON.stringify(block.arguments) });
    open.arguments = block.arguments;
    emit({ type: "toolcall_end", contentIndex, toolCall: block });
  });
  if (message.stopReason === "error" || message.stopReason === "aborted") {
    stream.push({ type: "error", reason: message.stopReason, error: message });
  } else {
    stream.push({ type: "done", reason: message.stopReason, message });
  }
  stream.end(message);
}

/**
 * Marks the failure a stream ends with when the host has no model for the
 * request: pi's stream() throws at once for an api without a provider, and
 * an agent loop that meets this failure throws as pi's would.
 */
export const NO_PROVIDER = Symbol("pihost.noProvider");

/** Ends `stream` the way a pi provider ends a request that failed before any output. */
function failStream(stream, model, options) {
  const stopReason = options?.signal?.aborted ? "aborted" : "error";
  const message = {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason,
    errorMessage: noProviderError(model.api).message,
    timestamp: Date.now(),
  };
  if (stopReason === "error") Object.defineProperty(message, NO_PROVIDER, { value: true });
  stream.push({ type: "error", reason: stopReason, error: message });
  stream.end();
}

// What env-api-keys reports for credentials that are not a key (Vertex ADC, AWS).
const AMBIENT_AUTH = "<authenticated>";

/** Options with the provider's key from the environment, as pi passes them to a registered provider. */
function withEnvApiKey(model, options) {
  if (typeof options?.apiKey === "string" && options.apiKey.trim().length > 0) return options;
  const apiKey = getEnvApiKey(model.provider, options?.env);
  if (!apiKey || apiKey === AMBIENT_AUTH) return options;
  return { ...options, apiKey };
}

function dispatchStream(kind, model, context, options) {
  const transcript = normalizeContext(context);
  const registered = getApiProvider(model.api);
  if (registered) return registered[kind](model, transcript, withEnvApiKey(model, options));
  const stream = new AssistantMessageEventStream();
  askHost(kind, model, transcript, options).then(
    (message) => replayMessage(stream, message, options),
    () => failStream(stream, model, options),
  );
  return stream;
}

async function dispatchComplete(kind, streamKind, model, context, options) {
  const transcript = normalizeContext(context);
  const registered = getApiProvider(model.api);
  if (registered) return registered[streamKind](model, transcript, withEnvApiKey(model, options)).result();
  // Created before asking, so the answer's durationMs counts from the request.
  const stream = new AssistantMessageEventStream();
  const answer = askHost(kind, model, transcript, options);
  let message;
  try {
    message = await answer;
  } catch (error) {
    // pi's complete() rejects when the api has no provider; a host that
    // cannot answer is the same case, and the cause keeps the host's reason.
    throw new Error(noProviderError(model.api).message, { cause: error });
  }
  replayMessage(stream, message, options);
  return stream.result();
}

export function stream(model, context, options) {
  return dispatchStream("stream", model, context, options);
}

export function streamSimple(model, context, options) {
  return dispatchStream("streamSimple", model, context, options);
}

export function complete(model, context, options) {
  return dispatchComplete("complete", "stream", model, context, options);
}

export function completeSimple(model, context, options) {
  return dispatchComplete("completeSimple", "streamSimple", model, context, options);
}
