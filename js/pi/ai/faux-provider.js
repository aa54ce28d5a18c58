// pi-ai's faux provider: a scripted model for tests and examples. Each
// request takes the next queued response (a message, or a function of the
// transcript that returns one) and streams it in chunks of a few "tokens"
// (four characters each), with a usage estimated from the text and, per
// session id, a simulated prompt cache. createFauxCore is the engine;
// fauxProvider wraps it as a provider for a Models collection and
// registerFauxProvider puts it in the global api registry, where stream()
// and complete() find it before asking the host.
import { registerApiProvider, unregisterApiProviders } from "./dispatch.js";
import { createAssistantMessageEventStream } from "./event-stream.js";
import { FAUX_USAGE } from "./faux-messages.js";
import { ToolCallArgumentsStream } from "./json.js";
import { createProvider } from "./models-collection.js";
import { getSystemMessageText } from "./system-text.js";

const DEFAULT_PROVIDER = "faux";
const DEFAULT_MODEL = {
  id: "faux-1",
  name: "Faux Model",
  reasoning: false,
  input: ["text", "image"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 128000,
  maxTokens: 16384,
};
const BASE_URL = "http://localhost:0";
const CHARS_PER_TOKEN = 4;

function tokensIn(text) {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

function randomId(prefix) {
  return `${prefix}:${Date.now()}:${Math.random().toString(36).slice(2)}`;
}

// --- the prompt as text, for the usage estimate -------------------------------

function userContentText(content) {
  if (typeof content === "string") return content;
  return content.map((block) => (block.type === "text" ? block.text : `[image:${block.mimeType}:${block.data.length}]`)).join("\n");
}

function assistantContentText(content) {
  return content
    .map((block) => {
      if (block.type === "text") return block.text;
      if (block.type === "thinking") return block.thinking;
      return `${block.name}:${JSON.stringify(block.arguments)}`;
    })
    .join("\n");
}

function messageText(message) {
  switch (message.role) {
    case "system":
      return [
        getSystemMessageText(message),
        ...(message.toolsRemoved ?? []).map((tool) => `tool-:${JSON.stringify(tool)}`),
        ...(message.toolsAdded ?? []).map((tool) => `tool+:${JSON.stringify(tool)}`),
      ]
        .filter((part) => part.length > 0)
        .join("\n");
    case "user":
      return userContentText(message.content);
    case "assistant":
      return assistantContentText(message.content);
    default:
      return [message.toolName, ...message.content.map((block) => userContentText([block]))].join("\n");
  }
}

const PROMPT_SEPARATOR = "\n\n";

/** The length of the prompt that joins the first `count` message texts with blank lines. */
function promptLength(texts, count = texts.length) {
  let length = count > 0 ? (count - 1) * PROMPT_SEPARATOR.length : 0;
  for (let index = 0; index < count; index++) length += texts[index].length;
  return length;
}

function sharedPrefixLength(a, b) {
  const limit = Math.min(a.length, b.length);
  let index = 0;
  while (index < limit && a[index] === b[index]) index++;
  return index;
}

/** How much of two prompts is the same; whole equal messages first, then characters from the first that differs. */
function sharedPromptLength(previous, current) {
  let same = 0;
  while (same < previous.length && same < current.length && previous[same] === current[same]) same++;
  const rest = (texts) => (same === texts.length ? "" : (same > 0 ? PROMPT_SEPARATOR : "") + texts.slice(same).join(PROMPT_SEPARATOR));
  return promptLength(previous, same) + sharedPrefixLength(rest(previous), rest(current));
}

/**
 * `message` with a usage estimated from the prompt and its own text. With a
 * session id (and caching not turned off) the prompt is all cache: what it
 * shares with the session's previous prompt is read, the rest written.
 */
function withEstimatedUsage(message, context, options, promptCache) {
  const prompt = context.messages.map((entry) => `${entry.role}:${messageText(entry)}`);
  const promptTokens = Math.ceil(promptLength(prompt) / CHARS_PER_TOKEN);
  const output = tokensIn(assistantContentText(message.content));
  let input = promptTokens;
  let cacheRead = 0;
  let cacheWrite = 0;
  const sessionId = options?.sessionId;
  if (sessionId && options?.cacheRetention !== "none") {
    const previous = promptCache.get(sessionId);
    if (previous) {
      cacheRead = Math.ceil(sharedPromptLength(previous, prompt) / CHARS_PER_TOKEN);
      cacheWrite = Math.max(0, promptTokens - cacheRead);
    } else {
      cacheWrite = promptTokens;
    }
    input = 0;
    promptCache.set(sessionId, prompt);
  }
  return {
    ...message,
    usage: {
      input,
      output,
      cacheRead,
      cacheWrite,
      totalTokens: input + output + cacheRead + cacheWrite,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
  };
}

// --- messages the provider makes ----------------------------------------------

function failure(error, api, provider, modelId) {
  return {
    role: "assistant",
    content: [],
    api,
    provider,
    model: modelId,
    usage: FAUX_USAGE,
    stopReason: "error",
    errorMessage: error instanceof Error ? error.message : String(error),
    timestamp: Date.now(),
  };
}

function deferredAnswer(model, handle) {
  return {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: FAUX_USAGE,
    stopReason: "deferred",
    deferred: handle,
    timestamp: Date.now(),
  };
}

/** A copy of a scripted message, stamped as this provider's answer for `modelId`. */
function stamped(message, api, provider, modelId) {
  const copy = structuredClone(message);
  return { ...copy, api, provider, model: modelId, timestamp: copy.timestamp ?? Date.now(), usage: copy.usage ?? FAUX_USAGE };
}

// --- streaming ----------------------------------------------------------------

/** `text` in pieces of a random number of tokens between the bounds; at least one piece. */
function chunks(text, minTokens, maxTokens) {
  const pieces = [];
  for (let index = 0; index < text.length; ) {
    const tokens = minTokens + Math.floor(Math.random() * (maxTokens - minTokens + 1));
    const size = Math.max(1, tokens * CHARS_PER_TOKEN);
    pieces.push(text.slice(index, index + size));
    index += size;
  }
  return pieces.length > 0 ? pieces : [""];
}

/** Waits a microtask, or as long as the piece takes at `tokensPerSecond`. */
function pace(piece, tokensPerSecond) {
  if (!tokensPerSecond || tokensPerSecond <= 0) return new Promise((resolve) => queueMicrotask(resolve));
  return new Promise((resolve) => setTimeout(resolve, (tokensIn(piece) / tokensPerSecond) * 1000));
}

/**
 * Streams `message` block by block, each block's text (a tool call's JSON
 * arguments) in chunks, checking the signal before each block and chunk.
 * Each event carries a shallow copy of the partial message; its content
 * array is replaced at each block start, while the open block itself grows
 * in place, so earlier events see later text of the same block.
 */
async function streamMessage(stream, message, pacing, signal) {
  const partial = { ...message, content: [], stopReason: "pending" };
  const snapshot = () => ({ ...partial });
  const abortedHere = () => {
    if (!signal?.aborted) return false;
    const aborted = { ...partial, stopReason: "aborted", errorMessage: "Request was aborted", timestamp: Date.now() };
    stream.push({ type: "error", reason: "aborted", error: aborted });
    stream.end(aborted);
    return true;
  };
  if (abortedHere()) return;
  stream.push({ type: "start", partial: snapshot() });
  for (const [contentIndex, block] of message.content.entries()) {
    if (abortedHere()) return;
    if (block.type === "thinking" || block.type === "text") {
      // The block's text lives under its type's name.
      const kind = block.type;
      const open = { type: kind, [kind]: "" };
      partial.content = [...partial.content, open];
      stream.push({ type: `${kind}_start`, contentIndex, partial: snapshot() });
      for (const piece of chunks(block[kind], pacing.minTokens, pacing.maxTokens)) {
        await pace(piece, pacing.tokensPerSecond);
        if (abortedHere()) return;
        open[kind] += piece;
        stream.push({ type: `${kind}_delta`, contentIndex, delta: piece, partial: snapshot() });
      }
      stream.push({ type: `${kind}_end`, contentIndex, content: block[kind], partial: snapshot() });
      continue;
    }
    const open = { type: "toolCall", id: block.id, name: block.name, arguments: {} };
    partial.content = [...partial.content, open];
    stream.push({ type: "toolcall_start", contentIndex, partial: snapshot() });
    // The same argument parser real providers use, so the arguments grow as they would.
    const argumentsSoFar = new ToolCallArgumentsStream();
    for (const piece of chunks(JSON.stringify(block.arguments), pacing.minTokens, pacing.maxTokens)) {
      await pace(piece, pacing.tokensPerSecond);
      if (abortedHere()) return;
      open.arguments = argumentsSoFar.append(piece);
      stream.push({ type: "toolcall_delta", contentIndex, delta: piece, partial: snapshot() });
    }
    open.arguments = block.arguments;
    stream.push({ type: "toolcall_end", contentIndex, toolCall: block, partial: snapshot() });
  }
  if (message.stopReason === "pending") throw new Error("Faux response ended without a stop reason");
  if (message.stopReason === "error" || message.stopReason === "aborted") {
    stream.push({ type: "error", reason: message.stopReason, error: message });
  } else {
    stream.push({ type: "done", reason: message.stopReason, message });
  }
  stream.end(message);
}

/** Ends `stream` in one error event carrying `message`. */
function failStream(stream, message) {
  stream.push({ type: "error", reason: "error", error: message });
  stream.end(message);
}

const HTTP_OK = { status: 200, headers: {} };

/**
 * The faux engine: its models (`options.models`, or one default model) on
 * `options.api` (a random "faux:…" id unless given), the queue of scripted
 * responses, and stream functions that answer from it. `state` counts calls
 * and deferred fetches and lists cancelled deferred handles.
 */
export function createFauxCore(options) {
  const api = options.api ?? randomId("faux");
  const provider = options.provider ?? DEFAULT_PROVIDER;
  const minTokens = Math.max(1, Math.min(options.tokenSize?.min ?? 3, options.tokenSize?.max ?? 5));
  const pacing = {
    minTokens,
    maxTokens: Math.max(minTokens, options.tokenSize?.max ?? 5),
    tokensPerSecond: options.tokensPerSecond,
  };
  let queued = [];
  const state = { callCount: 0, deferredFetchCount: 0, cancelledDeferred: [] };
  const promptCache = new Map();
  const deferredById = new Map();
  const definitions = options.models?.length ? options.models : [DEFAULT_MODEL];
  const models = definitions.map((definition) => ({
    id: definition.id,
    name: definition.name ?? definition.id,
    api,
    provider,
    baseUrl: BASE_URL,
    reasoning: definition.reasoning ?? false,
    input: definition.input ?? ["text", "image"],
    inputLimits: definition.inputLimits,
    cost: definition.cost ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: definition.contextWindow ?? 128000,
    maxTokens: definition.maxTokens ?? 16384,
  }));

  const answer = async (step, context, requestOptions, model) => {
    const scripted = typeof step === "function" ? await step(context, requestOptions, state, model) : step;
    return withEstimatedUsage(stamped(scripted, api, provider, model.id), context, requestOptions, promptCache);
  };

  /** A stream at once; `produce(stream)` fills it a microtask later, a throw ending it in an error. */
  const streamLater = (model, produce) => {
    const stream = createAssistantMessageEventStream();
    queueMicrotask(async () => {
      try {
        await produce(stream);
      } catch (error) {
        failStream(stream, failure(error, api, provider, model.id));
      }
    });
    return stream;
  };

  const stream = (model, context, requestOptions) => {
    const step = queued.shift();
    state.callCount++;
    return streamLater(model, async (outer) => {
      await requestOptions?.onResponse?.(HTTP_OK, model);
      if (!step) {
        const exhausted = failure(new Error("No more faux responses queued"), api, provider, model.id);
        failStream(outer, withEstimatedUsage(exhausted, context, requestOptions, promptCache));
        return;
      }
      if (requestOptions?.deferred) {
        // The answer is held back; a fetch of the handle gets it (after `pendingFetches` still-pending polls).
        const handle = {
          provider: model.provider,
          modelId: model.id,
          api: model.api,
          id: randomId("deferred"),
          ...(options.deferred?.pollAfterMs !== undefined ? { pollAfterMs: options.deferred.pollAfterMs } : {}),
        };
        deferredById.set(handle.id, {
          handle,
          step,
          context,
          options: requestOptions,
          model,
          pendingFetches: Math.max(0, Math.floor(options.deferred?.pendingFetches ?? 0)),
          cancelled: false,
        });
        await streamMessage(outer, deferredAnswer(model, handle), pacing, requestOptions.signal);
        return;
      }
      await streamMessage(outer, await answer(step, context, requestOptions, model), pacing, requestOptions?.signal);
    });
  };

  const fetchDeferred = (model, handle, fetchOptions) => {
    state.deferredFetchCount++;
    return streamLater(model, async (outer) => {
      await fetchOptions?.onResponse?.(HTTP_OK, model);
      const entry = deferredById.get(handle.id);
      const matches = entry && ["provider", "modelId", "api"].every((field) => entry.handle[field] === handle[field]);
      if (!matches) throw new Error(`Unknown faux deferred response: ${handle.id}`);
      if (entry.cancelled) throw new Error(`Faux deferred response was cancelled: ${handle.id}`);
      if (entry.pendingFetches > 0) {
        entry.pendingFetches--;
        await streamMessage(outer, deferredAnswer(model, entry.handle), pacing, fetchOptions?.signal);
        return;
      }
      if (!entry.final) {
        // The submission's own signal, callback and deferral do not carry over to the answer.
        const { deferred: _deferred, signal: _signal, onResponse: _onResponse, ...submitted } = entry.options ?? {};
        try {
          entry.final = await answer(entry.step, entry.context, submitted, entry.model);
        } catch (error) {
          entry.final = failure(error, api, provider, entry.model.id);
        }
      }
      await streamMessage(outer, entry.final, pacing, fetchOptions?.signal);
    });
  };

  const cancelDeferred = async (model, handle, cancelOptions) => {
    state.cancelledDeferred.push(structuredClone(handle));
    const entry = deferredById.get(handle.id);
    if (entry) entry.cancelled = true;
    await cancelOptions?.onResponse?.(HTTP_OK, model);
  };

  return {
    api,
    provider,
    models,
    stream,
    streamSimple: (model, context, requestOptions) => stream(model, context, requestOptions),
    fetchDeferred,
    cancelDeferred,
    /** The model of that id; the first model without one. */
    getModel: (modelId) => (modelId ? models.find((model) => model.id === modelId) : models[0]),
    state,
    setResponses(responses) {
      queued = [...responses];
    },
    appendResponses(responses) {
      queued.push(...responses);
    },
    getPendingResponseCount() {
      return queued.length;
    },
  };
}

function scriptControls(core) {
  return {
    api: core.api,
    models: core.models,
    getModel: core.getModel,
    state: core.state,
    setResponses: core.setResponses,
    appendResponses: core.appendResponses,
    getPendingResponseCount: core.getPendingResponseCount,
  };
}

/** The faux engine as a provider for a Models collection (`provider`), with its script controls. */
export function fauxProvider(options = {}) {
  const core = createFauxCore(options);
  const provider = createProvider({
    id: core.provider,
    // Always configured: the faux model needs no key.
    auth: { apiKey: { name: "Faux", resolve: async () => ({ auth: {} }) } },
    models: core.models,
    api: {
      stream: core.stream,
      streamSimple: core.streamSimple,
      fetchDeferred: core.fetchDeferred,
      cancelDeferred: core.cancelDeferred,
    },
  });
  return { provider, ...scriptControls(core) };
}

/** The faux engine registered as the api provider of its api, until `unregister()`. */
export function registerFauxProvider(options = {}) {
  const core = createFauxCore(options);
  const sourceId = `faux-provider-${Math.random().toString(36).slice(2, 10)}`;
  registerApiProvider({ api: core.api, stream: core.stream, streamSimple: core.streamSimple }, sourceId);
  return {
    ...scriptControls(core),
    unregister() {
      unregisterApiProviders(sourceId);
    },
  };
}
