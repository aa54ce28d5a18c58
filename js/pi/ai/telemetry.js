// pi-ai's telemetry vocabulary (AI_TELEMETRY_SCHEMA) and the observer a
// Models collection puts on each request: a span per request, with the first
// chunk and each finished block as events, and duration, token and cost
// metrics. It records only through the adapters the caller passes as
// `options.telemetry` (a span context, and its `metrics`); without them
// nothing is recorded.

const PROVIDER = { type: "string", description: "Provider identifier.", required: true };
const MODEL = { type: "string", description: "Requested model identifier.", required: true };
const STOP = {
  type: "string",
  description: "Normalized stop reason.",
  values: ["pending", "stop", "length", "toolUse", "error", "aborted", "deferred"],
};

const REQUEST_SPAN = {
  description: "One logical model request, including authentication and provider setup.",
  parents: { kind: "any" },
  startAttributes: {
    provider: PROVIDER,
    api: { type: "string", description: "API identifier.", required: true },
    model: MODEL,
    reasoning: { type: "string", description: "Scalar requested reasoning level.", required: false },
  },
  endAttributes: {
    stop: STOP,
    "usage.input": { type: "number", description: "Uncached input tokens." },
    "usage.output": { type: "number", description: "Output tokens." },
    "usage.cache_read": { type: "number", description: "Cache-read tokens." },
    "usage.cache_write": { type: "number", description: "Cache-write tokens." },
    "cost.total": { type: "number", description: "Total request cost in USD." },
    "response.id": { type: "string", description: "Provider response identifier.", cardinality: "high" },
  },
  events: {
    "pi.ai.first_chunk": { description: "First normalized stream event delivered.", attributes: {} },
    "pi.ai.block": {
      description: "A completed content block; content is never recorded.",
      attributes: {
        type: { type: "string", description: "Block kind.", values: ["text", "thinking", "tool_call"], required: true },
        index: { type: "number", description: "Content block index.", required: true },
        chars: { type: "number", description: "UTF-16 character count.", required: true },
        tool: { type: "string", description: "Tool name, for tool-call blocks only.", required: false },
      },
    },
  },
  status: {
    default: "ok",
    errorWhen: "Stop reason is error: provider_error with at most 500 error-message characters. Aborted stays ok.",
  },
};

export const AI_TELEMETRY_SCHEMA = {
  version: 1,
  spans: {
    "pi.ai.request": REQUEST_SPAN,
    "pi.ai.poll": { ...REQUEST_SPAN, description: "One deferred-response poll, not the deferred request's lifetime." },
  },
  metrics: {
    "pi.ai.request.duration": {
      kind: "histogram",
      description: "Logical request or poll duration.",
      unit: "ms",
      attributes: { provider: PROVIDER, model: MODEL, stop: { ...STOP, required: true } },
    },
    "pi.ai.first_chunk.duration": {
      kind: "histogram",
      description: "Time to the first normalized stream event.",
      unit: "ms",
      attributes: { provider: PROVIDER, model: MODEL },
    },
    "pi.ai.tokens": {
      kind: "counter",
      description: "Reported model token usage; pending and deferred polls are excluded.",
      unit: "token",
      attributes: {
        provider: PROVIDER,
        model: MODEL,
        kind: {
          type: "string",
          description: "Token usage category.",
          values: ["input", "output", "cache_read", "cache_write"],
          required: true,
        },
      },
    },
    "pi.ai.cost": {
      kind: "counter",
      description: "Reported model cost; pending and deferred polls are excluded.",
      unit: "USD",
      attributes: { provider: PROVIDER, model: MODEL },
    },
  },
};

const SILENT_SPAN = { addEvent() {}, setAttributes() {}, setStatus() {} };
const SILENT_INSTRUMENT = { add() {}, record() {} };

// One set of instruments per metrics adapter, as adapters may count creations.
const instrumentsByAdapter = new WeakMap();

function instrumentsOf(adapter) {
  let instruments = instrumentsByAdapter.get(adapter);
  if (!instruments) {
    const metrics = AI_TELEMETRY_SCHEMA.metrics;
    instruments = {
      requestDuration: adapter.histogram("pi.ai.request.duration", metrics["pi.ai.request.duration"]),
      firstChunkDuration: adapter.histogram("pi.ai.first_chunk.duration", metrics["pi.ai.first_chunk.duration"]),
      tokens: adapter.counter("pi.ai.tokens", metrics["pi.ai.tokens"]),
      cost: adapter.counter("pi.ai.cost", metrics["pi.ai.cost"]),
    };
    instrumentsByAdapter.set(adapter, instruments);
  }
  return instruments;
}

function silentInstruments() {
  return { requestDuration: SILENT_INSTRUMENT, firstChunkDuration: SILENT_INSTRUMENT, tokens: SILENT_INSTRUMENT, cost: SILENT_INSTRUMENT };
}

/** Copies the text, so a short slice does not keep a long error message alive. */
function detachedSlice(text, start, end) {
  return `${text.slice(start, end)} `.slice(0, -1);
}

/**
 * The observer of one request (`poll` for a deferred-response fetch): its
 * span stays open until the result is seen.
 */
export function observeModelRequest(model, options, poll) {
  const started = performance.now();
  const attributes = { provider: model.provider, model: model.id };
  const adapter = options?.telemetry?.metrics;
  const { requestDuration, firstChunkDuration, tokens, cost } = adapter ? instrumentsOf(adapter) : silentInstruments();
  let span = SILENT_SPAN;
  let finish;
  const finished = new Promise((resolve) => {
    finish = resolve;
  });
  const startAttributes = {
    ...attributes,
    api: model.api,
    ...(typeof options?.reasoning === "string" ? { reasoning: options.reasoning } : {}),
  };
  const context = options?.telemetry;
  if (context?.startSpan) {
    context.startSpan({ name: poll ? "pi.ai.poll" : "pi.ai.request", attributes: startAttributes }, (activeSpan) => {
      span = activeSpan;
      return finished;
    });
  }
  let first = true;
  const toolCallChars = new Map();
  return {
    onEvent(event) {
      if (first) {
        first = false;
        span.addEvent("pi.ai.first_chunk");
        firstChunkDuration.record(performance.now() - started, attributes, span);
      }
      if (event.type === "toolcall_delta") {
        toolCallChars.set(event.contentIndex, (toolCallChars.get(event.contentIndex) ?? 0) + event.delta.length);
      } else if (event.type === "text_end" || event.type === "thinking_end") {
        span.addEvent("pi.ai.block", {
          type: event.type === "text_end" ? "text" : "thinking",
          index: event.contentIndex,
          chars: event.content.length,
        });
      } else if (event.type === "toolcall_end") {
        const chars = toolCallChars.get(event.contentIndex) ?? 0;
        toolCallChars.delete(event.contentIndex);
        span.addEvent("pi.ai.block", { type: "tool_call", index: event.contentIndex, chars, tool: event.toolCall.name });
      }
    },
    onResult(message) {
      if (message) {
        const { usage } = message;
        span.setAttributes({
          stop: message.stopReason,
          "usage.input": usage.input,
          "usage.output": usage.output,
          "usage.cache_read": usage.cacheRead,
          "usage.cache_write": usage.cacheWrite,
          "cost.total": usage.cost.total,
          "response.id": message.responseId,
        });
        if (message.stopReason === "error") {
          span.setStatus({
            status: "error",
            error: { name: "provider_error", message: detachedSlice(message.errorMessage ?? "", 0, 500) },
          });
        }
        requestDuration.record(performance.now() - started, { ...attributes, stop: message.stopReason }, span);
        // A poll that is still waiting has used nothing yet.
        if (!poll || (message.stopReason !== "pending" && message.stopReason !== "deferred")) {
          tokens.add(usage.input, { ...attributes, kind: "input" });
          tokens.add(usage.output, { ...attributes, kind: "output" });
          tokens.add(usage.cacheRead, { ...attributes, kind: "cache_read" });
          tokens.add(usage.cacheWrite, { ...attributes, kind: "cache_write" });
          cost.add(usage.cost.total, attributes);
        }
      }
      finish();
    },
  };
}
