// Streams whose source is found asynchronously (auth resolved, an
// implementation loaded): the stream is handed out at once and forwards the
// source's events once it exists; a setup that fails ends it in one error
// event, the way a provider ends a request that failed before any output.
import { AssistantMessageEventStream } from "./event-stream.js";
import { emptyUsage } from "./usage.js";

function setupFailure(model, error, timestamp, stopReason) {
  return {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason,
    errorMessage: error instanceof Error ? error.message : String(error),
    timestamp,
  };
}

async function forward(outer, source, observer, onResult) {
  let result;
  for await (const event of source) {
    outer.push(event);
    observer?.onEvent?.(event);
    if (event.type === "done") result = event.message;
    else if (event.type === "error") result = event.error;
  }
  // A real event stream knows its result better than its last event does.
  if (typeof source.result === "function") result = await source.result();
  outer.end(result);
  onResult(result);
}

/** A stream at once; `setup()` resolves to the stream it forwards. `observer` sees each event and the result. */
export function lazyStream(model, setup, observer, signal) {
  // The stream first: a setup failure's message is stamped with a duration
  // only if its timestamp is not older than the stream. pi takes the time
  // first, and omits the duration when a millisecond ends between the two
  // lines, which it almost never does and this engine did (a flaky test).
  const outer = new AssistantMessageEventStream();
  const startedAt = Date.now();
  let observed = false;
  const onResult = (result) => {
    if (observed) return;
    observed = true;
    observer?.onResult?.(result);
  };
  setup()
    .then((source) => forward(outer, source, observer, onResult))
    .catch((error) => {
      const reason = signal?.aborted ? "aborted" : "error";
      const message = setupFailure(model, error, startedAt, reason);
      const event = { type: "error", reason, error: message };
      outer.push(event);
      observer?.onEvent?.(event);
      outer.end(message);
      onResult(message);
    });
  return outer;
}

/**
 * An api's streams over an implementation `load()` resolves to on first use;
 * deferred-response operations only where `capabilities` names them.
 */
export function lazyApi(load, capabilities) {
  const api = {
    stream: (model, context, options) =>
      lazyStream(model, async () => (await load()).stream(model, context, options), undefined, options?.signal),
    streamSimple: (model, context, options) =>
      lazyStream(model, async () => (await load()).streamSimple(model, context, options), undefined, options?.signal),
  };
  if (capabilities?.fetchDeferred) {
    api.fetchDeferred = (model, handle, options) =>
      lazyStream(
        model,
        async () => {
          const implementation = await load();
          if (!implementation.fetchDeferred) throw new Error("API does not support deferred responses");
          return implementation.fetchDeferred(model, handle, options);
        },
        undefined,
        options?.signal,
      );
  }
  if (capabilities?.cancelDeferred) {
    api.cancelDeferred = async (model, handle, options) => {
      const implementation = await load();
      if (!implementation.cancelDeferred) throw new Error("API cannot cancel deferred responses");
      await implementation.cancelDeferred(model, handle, options);
    };
  }
  return api;
}
