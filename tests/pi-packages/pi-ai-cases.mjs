// The shared case table for the pi-ai goldens: uuidv7's shape, calculateCost,
// the event streams, the api-provider registry and stream/complete.
// tests/reference/record-pi-ai.mjs runs it against pi 1.6.0's pi-ai (the
// module extensions import); pi-ai-differential.mjs against js/pi/pi-ai.js;
// the "pi-ai-goldens" tool of in-pihost.ts against the facade in the isolate.
//
// A model call needs something that answers. `env.withAnswer(model, message,
// run)` makes `message` the final answer for calls on `model` while `run`
// runs: on the reference side pi's own faux provider, registered through
// pi-ai's registry, streams it with one chunk per content block; on pihost's
// side the host hook (`__pihostModelRequest`) returns it. The faux provider
// replaces `usage` with its own token estimate, so usage is left out of the
// comparison here (pi-ai-differential.mjs checks pihost passes it through).
// `env.withAnswers(model, steps, run)` answers successive calls with `steps`
// in turn: final messages, or functions of the transcript and the options
// that return one. `env.withoutProvider(run)` runs `run` with nothing to
// answer.
import { fingerprint, runCase, serialize } from "./pi-packages-cases.mjs";
import { addStreamingJsonCases } from "./pi-ai-streaming-json-cases.mjs";
import { addHelperCases } from "./pi-ai-helper-cases.mjs";
import { addModelsCases } from "./pi-ai-models-cases.mjs";
import { addAgentCoreCases } from "./pi-agent-core-cases.mjs";
import { addProviderCases } from "./pi-ai-provider-cases.mjs";
import { addVertexCases } from "./pi-ai-vertex-cases.mjs";
import { addCodexCases } from "./pi-ai-codex-cases.mjs";
import { addBuiltinProviderCases } from "./pi-ai-builtin-provider-cases.mjs";
import { addPiAiExportCoverageCases } from "./export-coverage-cases.mjs";

export { runCase, serialize };

/** The environment pihost's side uses: the host hook, installed and removed around each run. */
export function hookEnv() {
  const HOOK = "__pihostModelRequest";
  async function withHook(hook, run) {
    const saved = Object.getOwnPropertyDescriptor(globalThis, HOOK);
    if (hook) Object.defineProperty(globalThis, HOOK, { value: hook, configurable: true, writable: false, enumerable: false });
    else delete globalThis[HOOK];
    try {
      return await run();
    } finally {
      if (saved) Object.defineProperty(globalThis, HOOK, saved);
      else delete globalThis[HOOK];
    }
  }
  function withAnswers(_model, steps, run) {
    const queue = [...steps];
    return withHook(async (_kind, _requested, transcript, options) => {
      if (queue.length === 0) throw new Error("no more answers queued");
      const step = queue.shift();
      return structuredClone(typeof step === "function" ? await step(transcript, options) : step);
    }, run);
  }
  return {
    withAnswer: (_model, message, run) => withHook(async () => structuredClone(message), run),
    withAnswers,
    withoutProvider: (run) => withHook(undefined, run),
    withHook,
  };
}

const USAGE = {
  input: 10,
  output: 20,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 30,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

let apiCounter = 0;

/** A model on an api of its own, so reference-side registrations never collide. */
export function goldenModel() {
  apiCounter += 1;
  return {
    id: "golden-model",
    name: "Golden Model",
    api: `pihost-golden-api-${apiCounter}`,
    provider: "pihost-golden",
    baseUrl: "http://localhost:0",
    reasoning: false,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 1000,
    maxTokens: 100,
  };
}

/** The final answer for `model`: fields in pi's order, a timestamp older than any stream. */
export function answer(model, content, stopReason = "stop", extra = {}) {
  return {
    role: "assistant",
    content,
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: structuredClone(USAGE),
    stopReason,
    ...extra,
    timestamp: 1000,
  };
}

const CONTEXT = {
  systemPrompt: "You are terse.",
  messages: [{ role: "user", content: "hi", timestamp: 1 }],
};

function withoutUsage(value) {
  return JSON.parse(serialize(value), (key, item) => (key === "usage" ? "<usage>" : item));
}

/** The events as pushed (their partials change later), the iterated types and the result. */
async function drain(stream) {
  const pushed = [];
  const raw = [];
  const push = stream.push;
  stream.push = function (event) {
    raw.push(event);
    pushed.push(withoutUsage(event));
    return push.call(this, event);
  };
  const iterated = [];
  for await (const event of stream) iterated.push(event.type);
  const result = await stream.result();
  const last = raw.at(-1);
  return {
    pushed,
    iterated,
    result: withoutUsage(result),
    resultIsFinalEventMessage: result === (last?.message ?? last?.error),
    hasDuration: result.durationMs !== undefined,
  };
}

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The 41-bit counter pi packs into rand_a and the top of rand_b. */
function uuidCounter(id) {
  const hex = id.replaceAll("-", "");
  const bits = BigInt(`0x${hex.slice(12, 24)}`);
  const randA = (bits >> 32n) & 0xfffn;
  const randB = bits & 0x3fffffffn;
  const top = randA & 0x0fffn;
  return (top << 29n) | (randB >> 1n);
}

const settleTurns = async (turns = 20) => {
  for (let index = 0; index < turns; index++) await Promise.resolve();
};

/** Whether `promise` settled within a few turns, and how. */
async function peek(promise) {
  let state = { pending: true };
  promise.then(
    (value) => (state = { value }),
    (error) => (state = { rejected: String(error?.message ?? error) }),
  );
  await settleTurns();
  return state;
}

/**
 * The cases, built from the pi-ai namespaces (`ai` the root, `aiModels`
 * pi-ai/models, `aiProviders` pi-ai/providers/all), pi-agent-core's (`core`)
 * and an environment that answers model calls (`env`, see the module
 * comment).
 */
export function buildCases({ ai, aiModels, aiProviders, core, env }) {
  // Api names number the models in run order, the same on every side.
  apiCounter = 0;
  const cases = [];
  const add = (name, run) => cases.push({ name, run });

  // --- uuidv7 --------------------------------------------------------------
  add("uuidv7.shape", () => {
    const ids = Array.from({ length: 50 }, () => ai.uuidv7());
    return { allMatch: ids.every((id) => UUID_V7.test(id)), length: ids[0].length };
  });
  add("uuidv7.explicitTimestamps", () =>
    [0, 1, 255, 256, 65535, 1700000000123, 0xffffffffffff].map((stamp) => {
      const id = ai.uuidv7(stamp);
      return { prefix: id.slice(0, 13), shape: UUID_V7.test(id) };
    }),
  );
  add("uuidv7.clockPrefixIsNow", () => {
    const before = Date.now();
    const id = ai.uuidv7();
    const after = Date.now();
    const stamp = Number.parseInt(id.replaceAll("-", "").slice(0, 12), 16);
    return stamp >= before && stamp <= after + 1;
  });
  add("uuidv7.counterSteps", () => {
    const ids = Array.from({ length: 100 }, () => ai.uuidv7());
    const steps = new Set();
    for (let index = 1; index < ids.length; index++) steps.add(String(uuidCounter(ids[index]) - uuidCounter(ids[index - 1])));
    return [...steps];
  });
  add("uuidv7.sortsInCreationOrder", () => {
    const ids = Array.from({ length: 500 }, () => ai.uuidv7());
    const sameStamp = Array.from({ length: 50 }, () => ai.uuidv7(1700000000000));
    return {
      clock: JSON.stringify([...ids].sort()) === JSON.stringify(ids),
      explicit: JSON.stringify([...sameStamp].sort()) === JSON.stringify(sameStamp),
      distinct: new Set(ids).size,
    };
  });
  add("uuidv7.explicitDoesNotMoveTheClock", () => {
    ai.uuidv7(0xffffffffffff);
    return ai.uuidv7().startsWith("ffffffff");
  });
  for (const [label, stamp] of [
    ["negative", -1],
    ["fraction", 1.5],
    ["tooLarge", 2 ** 48],
    ["nan", Number.NaN],
    ["string", "5"],
    ["infinity", Number.POSITIVE_INFINITY],
  ]) {
    add(`uuidv7.rejects.${label}`, () => ai.uuidv7(stamp));
  }

  // --- calculateCost ---------------------------------------------------------
  const models = {
    sonnet: { id: "claude-sonnet-4-5", cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } },
    haiku: { id: "claude-haiku-4-5", cost: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 } },
    twoTiers: {
      id: "alibaba/qwen3-max-thinking",
      cost: {
        input: 1.2,
        output: 6,
        cacheRead: 0.24,
        cacheWrite: 0,
        tiers: [
          { inputTokensAbove: 32000, input: 2.4, output: 12, cacheRead: 0.48, cacheWrite: 0 },
          { inputTokensAbove: 128000, input: 3, output: 15, cacheRead: 0.6, cacheWrite: 0 },
        ],
      },
    },
    unorderedTiers: {
      id: "synthetic-unordered",
      cost: {
        input: 0.03,
        output: 0.13,
        cacheRead: 0.006,
        cacheWrite: 0.038,
        tiers: [
          { inputTokensAbove: 255999, input: 0.2, output: 0.8, cacheRead: 0.04, cacheWrite: 0.25 },
          { inputTokensAbove: 31999, input: 0.1, output: 0.4, cacheRead: 0.02, cacheWrite: 0.125 },
        ],
      },
    },
    free: { id: "free", cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } },
  };
  const usage = (input, output, cacheRead, cacheWrite, extra = {}) => ({
    input,
    output,
    cacheRead,
    cacheWrite,
    ...extra,
    totalTokens: input + output + cacheRead + cacheWrite,
    cost: { input: 9, output: 9, cacheRead: 9, cacheWrite: 9, total: 9, totalFromProvider: true },
  });
  const usages = {
    zero: () => usage(0, 0, 0, 0),
    plain: () => usage(1234, 567, 0, 0),
    cached: () => usage(100, 200, 50000, 3000),
    hourWrites: () => usage(100, 200, 1000, 3000, { cacheWrite1h: 1000 }),
    allHourWrites: () => usage(7, 11, 0, 500, { cacheWrite1h: 500 }),
    atThreshold: () => usage(32000, 10, 0, 0),
    aboveFirst: () => usage(32001, 10, 0, 0),
    aboveBothViaCache: () => usage(1000, 10, 127000, 1),
    huge: () => usage(300000, 40000, 123456, 7890),
    fractional: () => usage(1, 1, 1, 1),
  };
  for (const [modelName, model] of Object.entries(models)) {
    for (const [usageName, makeUsage] of Object.entries(usages)) {
      add(`calculateCost.${modelName}.${usageName}`, () => {
        const counted = makeUsage();
        const returned = ai.calculateCost(model, counted);
        return { returnsUsageCost: returned === counted.cost, usage: counted };
      });
    }
  }
  add("calculateCost.costWithoutTotalFromProvider", () => {
    const counted = { input: 5, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 10, cost: {} };
    ai.calculateCost(models.sonnet, counted);
    return Object.keys(counted.cost);
  });
  add("calculateCost.missingCost", () => ai.calculateCost(models.sonnet, { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }));

  // --- JSON of tool-call arguments --------------------------------------------
  const jsonTexts = {
    simple: '{"path":"a.txt","limit":10}',
    nested: '{"command":"ls -la","nested":{"list":[1,"two",null,true,false,-0.5e+3],"empty":{}}}',
    escapes: '{"text":"line\\nnext \\"q\\" \\u00e9\\ud83d\\ude00 tab\\t\\/"}',
    invalidEscape: '{"re":"\\d+\\s","tail":"\\"}',
    rawControl: '{"a":"x\ny\tz\u0001"}',
    missingPunctuation: '{"a" 1 "b": 2 "c" "three"}',
    unknownWords: '{"a": nope, "b": tru, "c": nul, "d": NaN, "e": true}',
    trailingText: '{"a":1} trailing {"b":2}',
    arrayRoot: "[1,2,3]",
    stringRoot: '"just text"',
    numberRoot: "42",
    exponentUnfinished: '{"n": 1e',
    exponentBare: '{"n": 1e, "m": 2.5E+}',
    protoKey: '{"__proto__": {"x": 1}, "y": 2}',
    deep: '{"a":{"b":{"c":[[[{"d":"e"}]]]}}}',
    badUnicode: '{"u":"\\u12G4","v":"\\u00"}',
    arraySpacing: '{"a":[1 2,,3]}',
    misplacedContainer: '{{"a":1}, "b": 2}',
    strayCloser: ']{"a":1}',
    empty: "",
    blank: "  \n ",
    unterminated: '{"a":"unterminated',
    oddNumbers: '{"n":-0, "m": 01, "k": 1., "j": -}',
    longNumber: `{"big": ${"9".repeat(70)}, "after": 1}`,
    duplicateKeys: '{"a":1,"a":{"b":2}}',
    keyWithoutValue: '{"a":1,"b"',
    unicodeText: '{"t":"héllo 👋 wörld"}',
  };
  const show = (value) => (value === undefined ? "<undefined>" : JSON.stringify(value));
  // JSON.parse's own error texts differ between V8 builds (pihost's isolate
  // words them differently from Node 22), so only pi-ai's part is compared.
  const OWN_ERROR = "Tool arguments must be a JSON object";
  const argumentsError = (text) =>
    text === undefined || text.startsWith(OWN_ERROR) ? text : text.replace(/^[^]*?(?=\n\nReceived arguments:\n)/, "<JSON.parse error>");
  const parseOutcome = (run) => {
    try {
      return { value: show(run()) };
    } catch (error) {
      return { thrown: error.name };
    }
  };
  for (const [label, text] of Object.entries(jsonTexts)) {
    add(`json.repair.${label}`, () => ai.repairJson(text));
    add(`json.parseWithRepair.${label}`, () => parseOutcome(() => ai.parseJsonWithRepair(text)));
    add(`json.parseToolCallArguments.${label}`, () => {
      const parsed = ai.parseToolCallArguments(text);
      return { arguments: show(parsed.arguments), argumentsError: argumentsError(parsed.argumentsError) };
    });
    for (const size of [1, 3, 7]) {
      add(`json.argumentsStream.${label}.chunk${size}`, () => {
        const stream = new ai.ToolCallArgumentsStream();
        const steps = [];
        let previous;
        for (let index = 0; index < text.length; index += size) {
          const partial = stream.append(text.slice(index, index + size));
          steps.push(partial === previous ? "same" : show(partial));
          previous = partial;
        }
        const finished = stream.finish();
        return {
          steps,
          text: stream.text === text,
          finish: { arguments: show(finished.arguments), argumentsError: argumentsError(finished.argumentsError) },
        };
      });
    }
  }
  add("json.argumentsStream.replace", () => {
    const stream = new ai.ToolCallArgumentsStream();
    const out = [];
    const record = (result) => out.push({ delta: result.delta === undefined ? "<undefined>" : result.delta, arguments: show(result.arguments) });
    out.push(show(stream.append('{"a":')));
    record(stream.replace('{"a":"xy'));
    record(stream.replace('{"a":"xy'));
    record(stream.replace('{"a":"xyz"}'));
    record(stream.replace('{"b":[1'));
    record(stream.replace(""));
    out.push(stream.text);
    return out;
  });
  add("json.argumentsStream.partialsNeverChange", () => {
    const stream = new ai.ToolCallArgumentsStream();
    const kept = [];
    const text = '{"a":[1,{"b":"cd"}],"e":"fg"}';
    for (const char of text) kept.push([stream.append(char), show(stream.append(""))]);
    return kept.every(([partial, shown]) => show(partial) === shown);
  });

  // --- EventStream -----------------------------------------------------------
  const plainStream = () =>
    new ai.EventStream(
      (event) => event.kind === "end",
      (event) => event.value,
    );
  add("eventStream.bufferedThenIterated", async () => {
    const stream = plainStream();
    stream.push({ kind: "a" });
    stream.push({ kind: "b" });
    stream.push({ kind: "end", value: 42 });
    const seen = [];
    for await (const event of stream) seen.push(event.kind);
    return { seen, result: await stream.result(), done: stream.done };
  });
  add("eventStream.pushAfterCompleteIsIgnored", async () => {
    const stream = plainStream();
    stream.push({ kind: "end", value: 1 });
    stream.push({ kind: "late" });
    stream.push({ kind: "end", value: 2 });
    const seen = [];
    for await (const event of stream) seen.push(event.kind);
    return { seen, result: await stream.result() };
  });
  add("eventStream.endWithoutResultLeavesResultPending", async () => {
    const stream = plainStream();
    stream.push({ kind: "a" });
    stream.end();
    const seen = [];
    for await (const event of stream) seen.push(event.kind);
    return { seen, result: await peek(stream.result()) };
  });
  add("eventStream.endWithResult", async () => {
    const stream = plainStream();
    stream.end("final");
    stream.push({ kind: "ignored" });
    const seen = [];
    for await (const event of stream) seen.push(event.kind);
    return { seen, result: await stream.result() };
  });
  add("eventStream.firstResultWins", async () => {
    const stream = plainStream();
    stream.push({ kind: "end", value: "event" });
    stream.end("end");
    return stream.result();
  });
  add("eventStream.resultBeforeIteration", async () => {
    const stream = plainStream();
    const log = [];
    stream.result().then((value) => log.push(`result:${value}`));
    const consumer = (async () => {
      for await (const event of stream) log.push(`event:${event.kind}`);
      log.push("loop-exit");
    })();
    log.push("consumer-started");
    stream.push({ kind: "a" });
    log.push("pushed-a");
    await Promise.resolve();
    stream.push({ kind: "b" });
    stream.push({ kind: "end", value: "v" });
    log.push("pushed-end");
    await Promise.resolve();
    log.push("tick");
    stream.end();
    log.push("ended");
    await consumer;
    await settleTurns();
    return log;
  });
  add("eventStream.waitingConsumerWokenByEnd", async () => {
    const stream = plainStream();
    const log = [];
    const consumer = (async () => {
      for await (const event of stream) log.push(`event:${event.kind}`);
      log.push("loop-exit");
    })();
    await settleTurns(3);
    log.push("ending");
    stream.end();
    await consumer;
    return { log, result: await peek(stream.result()) };
  });
  add("eventStream.twoConsumersShareEvents", async () => {
    const stream = plainStream();
    const first = [];
    const second = [];
    const consume = async (into) => {
      for await (const event of stream) into.push(event.kind);
    };
    const running = [consume(first), consume(second)];
    await settleTurns(3);
    for (const kind of ["a", "b", "c", "d"]) stream.push({ kind });
    stream.push({ kind: "end", value: 0 });
    stream.end();
    await Promise.all(running);
    return { first, second };
  });
  add("eventStream.breakLeavesTheRest", async () => {
    const stream = plainStream();
    for (const kind of ["a", "b", "c"]) stream.push({ kind });
    stream.end();
    const first = [];
    for await (const event of stream) {
      first.push(event.kind);
      break;
    }
    const rest = [];
    for await (const event of stream) rest.push(event.kind);
    return { first, rest };
  });
  add("eventStream.subclass", async () => {
    class Numbers extends ai.EventStream {
      constructor() {
        super(
          (value) => value < 0,
          (value) => value * 2,
        );
      }
      isDone() {
        return this.done;
      }
    }
    const stream = new Numbers();
    const before = stream.isDone();
    stream.push(1);
    stream.push(-3);
    const seen = [];
    for await (const value of stream) seen.push(value);
    return { before, after: stream.isDone(), seen, result: await stream.result(), isEventStream: stream instanceof ai.EventStream };
  });

  // --- AssistantMessageEventStream -----------------------------------------
  const message = (stopReason, timestamp, extra = {}) => ({
    role: "assistant",
    content: [{ type: "text", text: "x" }],
    api: "a",
    provider: "p",
    model: "m",
    usage: structuredClone(USAGE),
    stopReason,
    ...extra,
    timestamp,
  });
  add("assistantStream.factory", () => {
    const stream = ai.createAssistantMessageEventStream();
    return {
      isAssistantStream: stream instanceof ai.AssistantMessageEventStream,
      isEventStream: stream instanceof ai.EventStream,
      done: stream.done,
      asyncIterable: typeof stream[Symbol.asyncIterator],
    };
  });
  add("assistantStream.doneEvent", async () => {
    const stream = ai.createAssistantMessageEventStream();
    const final = message("stop", 5);
    stream.push({ type: "start", partial: message("pending", 5) });
    stream.push({ type: "done", reason: "stop", message: final });
    stream.push({ type: "text_start", contentIndex: 0, partial: final });
    stream.end();
    const seen = [];
    for await (const event of stream) seen.push(event.type);
    const result = await stream.result();
    return { seen, same: result === final, result };
  });
  add("assistantStream.errorEvent", async () => {
    const stream = ai.createAssistantMessageEventStream();
    const failed = message("error", 5, { errorMessage: "boom" });
    stream.push({ type: "error", reason: "error", error: failed });
    stream.end();
    const result = await stream.result();
    return { same: result === failed, result };
  });
  add("assistantStream.otherEventsDoNotComplete", async () => {
    const stream = ai.createAssistantMessageEventStream();
    stream.push({ type: "start", partial: message("pending", 5) });
    stream.push({ type: "text_end", contentIndex: 0, content: "x", partial: message("pending", 5) });
    return { done: stream.done, result: await peek(stream.result()) };
  });
  add("assistantStream.durationOfFreshMessages", async () => {
    const results = {};
    const fresh = () => message("stop", Date.now() + 60000);
    for (const [label, finish] of [
      ["done", (stream, final) => stream.push({ type: "done", reason: "stop", message: final })],
      ["error", (stream, final) => stream.push({ type: "error", reason: "error", error: final })],
      ["end", (stream, final) => stream.end(final)],
    ]) {
      const stream = ai.createAssistantMessageEventStream();
      const final = fresh();
      finish(stream, final);
      const result = await stream.result();
      results[label] = { type: typeof result.durationMs, nonNegativeInteger: Number.isInteger(result.durationMs) && result.durationMs >= 0 };
    }
    return results;
  });
  add("assistantStream.durationKeptOrSkipped", async () => {
    const old = ai.createAssistantMessageEventStream();
    const oldMessage = message("stop", 1000);
    old.push({ type: "done", reason: "stop", message: oldMessage });
    const timed = ai.createAssistantMessageEventStream();
    const timedMessage = message("stop", Date.now() + 60000, { durationMs: 12345 });
    timed.end(timedMessage);
    const late = ai.createAssistantMessageEventStream();
    late.end();
    const lateMessage = message("stop", Date.now() + 60000);
    late.end(lateMessage);
    const lateResult = await peek(late.result());
    return {
      old: "durationMs" in oldMessage,
      kept: timedMessage.durationMs,
      afterDone: "durationMs" in lateMessage,
      lateResultIsLateMessage: lateResult.value === lateMessage,
    };
  });

  // --- the api-provider registry --------------------------------------------
  add("registry.registerGetUnregister", async () => {
    const api = "pihost-golden-registry";
    const received = [];
    const provider = {
      api,
      stream: (model, context, options) => {
        received.push({ kind: "stream", model: model.id, context, options });
        const stream = ai.createAssistantMessageEventStream();
        const final = answer(model, [{ type: "text", text: "from provider" }]);
        queueMicrotask(() => {
          stream.push({ type: "done", reason: "stop", message: final });
          stream.end(final);
        });
        return stream;
      },
      streamSimple: (model, context, options) => {
        received.push({ kind: "streamSimple", model: model.id, context, options });
        const stream = ai.createAssistantMessageEventStream();
        stream.end(answer(model, [], "length"));
        return stream;
      },
      extra: "dropped",
    };
    ai.registerApiProvider(provider, "pihost-golden-source");
    const registered = ai.getApiProvider(api);
    const listed = ai.getApiProviders().filter((entry) => entry.api === api).length;
    const model = { ...goldenModel(), api };
    const context = { systemPrompt: "S", tools: [{ name: "t", description: "d", parameters: { type: "object" } }], messages: [] };
    const streamed = await ai.stream(model, context, { maxTokens: 5 }).result();
    const simple = await ai.completeSimple(model, { messages: [{ role: "user", content: "u", timestamp: 2 }] });
    const completed = await ai.complete(model, { messages: [] });
    let mismatch;
    try {
      registered.stream({ ...model, api: "other-api" }, { messages: [] });
    } catch (error) {
      mismatch = error.message;
    }
    ai.unregisterApiProviders("some-other-source");
    const stillThere = ai.getApiProvider(api) === registered;
    ai.unregisterApiProviders("pihost-golden-source");
    return {
      keys: Object.keys(registered),
      sameFunctions: registered.stream === provider.stream,
      listed,
      received,
      streamed: withoutUsage(streamed),
      simple: withoutUsage(simple),
      completed: withoutUsage(completed),
      mismatch,
      stillThere,
      afterUnregister: ai.getApiProvider(api),
    };
  });
  add("registry.reRegisterReplaces", () => {
    const api = "pihost-golden-replace";
    const make = (tag) => ({ api, stream: () => tag, streamSimple: () => tag });
    ai.registerApiProvider(make("first"), "a");
    ai.registerApiProvider(make("second"), "b");
    const value = ai.getApiProvider(api).stream({ api });
    ai.unregisterApiProviders("a");
    const afterA = ai.getApiProvider(api) !== undefined;
    ai.unregisterApiProviders("b");
    return { value, afterA, afterB: ai.getApiProvider(api) };
  });
  add("registry.unknownApi", () => ai.getApiProvider("pihost-golden-nothing"));

  // --- no provider -------------------------------------------------------------
  const nobody = () => ({ ...goldenModel(), api: "pihost-golden-unregistered" });
  for (const name of ["stream", "streamSimple"]) {
    add(`noProvider.${name}.throwsAtOnce`, () => env.withoutProvider(() => ai[name](nobody(), CONTEXT)));
  }
  for (const name of ["complete", "completeSimple"]) {
    add(`noProvider.${name}.rejects`, () =>
      env.withoutProvider(async () => {
        const pending = ai[name](nobody(), CONTEXT);
        return { isPromise: pending instanceof Promise, settled: await peek(pending) };
      }),
    );
  }

  // --- answered calls: the events of a final message -------------------------
  const answers = {
    text: (model) => answer(model, [{ type: "text", text: "Hello there." }]),
    emptyContent: (model) => answer(model, []),
    emptyText: (model) => answer(model, [{ type: "text", text: "" }]),
    thinkingTextTool: (model) =>
      answer(
        model,
        [
          { type: "thinking", thinking: "Let me look.", thinkingSignature: "sig-1" },
          { type: "text", text: "Reading the file.", textSignature: "t-1" },
          { type: "toolCall", id: "call_1", name: "read", arguments: { path: "a.txt", limit: 10 } },
        ],
        "toolUse",
        { responseId: "resp_1" },
      ),
    twoToolCalls: (model) =>
      answer(
        model,
        [
          { type: "toolCall", id: "c1", name: "bash", arguments: { command: "ls -la", nested: { list: [1, "two", null, true], empty: {} } } },
          { type: "toolCall", id: "c2", name: "noargs", arguments: {} },
        ],
        "toolUse",
      ),
    length: (model) => answer(model, [{ type: "text", text: "cut o" }], "length"),
    error: (model) => answer(model, [{ type: "text", text: "partial" }], "error", { errorMessage: "upstream 500" }),
    aborted: (model) => answer(model, [], "aborted", { errorMessage: "Request was aborted" }),
    unicode: (model) => answer(model, [{ type: "text", text: "héllo 👋\nline\ttab \"quoted\"" }]),
  };
  for (const [label, build] of Object.entries(answers)) {
    for (const name of ["stream", "streamSimple"]) {
      add(`answered.${name}.${label}`, () => {
        const model = goldenModel();
        return env.withAnswer(model, build(model), () => drain(ai[name](model, CONTEXT)));
      });
    }
  }
  for (const label of ["text", "thinkingTextTool", "error"]) {
    for (const name of ["complete", "completeSimple"]) {
      add(`answered.${name}.${label}`, () => {
        const model = goldenModel();
        return env.withAnswer(model, answers[label](model), async () => {
          const result = await ai[name](model, CONTEXT);
          return { result: withoutUsage(result), hasDuration: result.durationMs !== undefined };
        });
      });
    }
  }
  add("answered.freshTimestampIsTimed", () => {
    const model = goldenModel();
    const final = { ...answers.text(model), timestamp: Date.now() + 60000 };
    return env.withAnswer(model, final, async () => {
      const result = await ai.stream(model, CONTEXT).result();
      return { type: typeof result.durationMs, nonNegative: result.durationMs >= 0 };
    });
  });
  add("answered.returnsAStreamAtOnce", () => {
    const model = goldenModel();
    return env.withAnswer(model, answers.text(model), async () => {
      const stream = ai.stream(model, CONTEXT);
      const isStream = stream instanceof ai.AssistantMessageEventStream;
      const doneAtOnce = stream.done;
      await stream.result();
      return { isStream, doneAtOnce };
    });
  });

  // --- the built-in model catalog -----------------------------------------
  // Every model of every provider goes into a digest (so a stale recorded
  // catalog fails), a few whole models into the goldens as they are.
  const providers = ai.getProviders();
  add("catalog.providers", () => providers);
  add("catalog.generatedAt", () => aiProviders.getBuiltinModelDataGeneratedAt());
  add("catalog.digestByProvider", () =>
    Object.fromEntries(
      providers.map((provider) => {
        const chat = ai.getModels(provider);
        const image = aiProviders.getBuiltinImageModels(provider);
        const classifier = aiProviders.getBuiltinClassifierModels(provider);
        return [provider, [chat.length, image.length, classifier.length, fingerprint(JSON.stringify([chat, image, classifier]))]];
      }),
    ),
  );
  add("catalog.wholeModels", () =>
    ["anthropic", "openai", "google", "openrouter"].map((provider) => ai.getModels(provider)[0]),
  );
  add("catalog.readersAgree", () =>
    providers.map((provider) => {
      const chat = ai.getModels(provider);
      const first = chat[0];
      return {
        provider,
        sameAsBuiltin: first === undefined || ai.getModel(provider, first.id) === aiProviders.getBuiltinModel(provider, first.id),
        sameEachTime: first === undefined || ai.getModel(provider, first.id) === ai.getModel(provider, first.id),
        keyedById: chat.every((model) => ai.getModel(provider, model.id) === model),
        all: aiProviders.getAllBuiltinModels(provider).length,
      };
    }),
  );
  add("catalog.unknownNames", () => ({
    model: ai.getModel("no-such-provider", "x"),
    models: ai.getModels("no-such-provider"),
    modelOfKnownProvider: ai.getModel("anthropic", "no-such-model"),
    builtin: aiProviders.getBuiltinModel("no-such-provider", "x"),
    image: aiProviders.getBuiltinImageModel("anthropic", "no-such-model"),
    classifier: aiProviders.getBuiltinClassifierModel("no-such-provider", "x"),
    all: aiProviders.getAllBuiltinModels("no-such-provider"),
    imageModels: ai.getImageModels("no-such-provider"),
    imageModel: ai.getImageModel("no-such-provider", "x"),
  }));
  add("catalog.imageModels", () =>
    ai.getImageProviders().map((provider) => {
      const models = ai.getImageModels(provider);
      return [provider, models.map((model) => model.id), ai.getImageModel(provider, models[0]?.id)?.id];
    }),
  );
  add("catalog.classifierModels", () =>
    providers.flatMap((provider) =>
      aiProviders.getBuiltinClassifierModels(provider).map((model) => [
        provider,
        model.id,
        aiProviders.getBuiltinClassifierModel(provider, model.id) === model,
      ]),
    ),
  );

  // --- model kinds and thinking levels -------------------------------------
  const LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "max", "bogus"];
  add("thinking.catalogDigest", () =>
    Object.fromEntries(
      providers.map((provider) => [
        provider,
        fingerprint(
          ai
            .getModels(provider)
            .map(
              (model) =>
                `${model.id}:${ai.getSupportedThinkingLevels(model).join(",")}|${LEVELS.map((level) => ai.clampThinkingLevel(model, level)).join(",")}`,
            )
            .join("\n"),
        ),
      ]),
    ),
  );
  const handMade = [
    { reasoning: false },
    { reasoning: true },
    { reasoning: true, thinkingLevelMap: { xhigh: "x" } },
    { reasoning: true, thinkingLevelMap: { max: "m", minimal: null } },
    { reasoning: true, thinkingLevelMap: { off: null, minimal: null, low: null } },
    { reasoning: true, thinkingLevelMap: { off: null, minimal: null, low: null, medium: null, high: null } },
  ];
  add("thinking.handMadeModels", () =>
    handMade.map((model) => ({
      supported: aiModels.getSupportedThinkingLevels(model),
      clamped: LEVELS.map((level) => aiModels.clampThinkingLevel(model, level)),
      rootAgrees: LEVELS.every((level) => ai.clampThinkingLevel(model, level) === aiModels.clampThinkingLevel(model, level)),
    })),
  );
  add("modelKinds.typesAndApis", () => {
    const models = [
      { id: "a", provider: "p", api: "openai-responses" },
      { id: "a", provider: "p", api: "openai-responses", type: "chat" },
      { id: "a", provider: "p", api: "openai-responses", type: "image" },
      { id: "b", provider: "p", type: "classifier" },
    ];
    return models.map((model) => [
      aiModels.getModelType(model),
      ai.getModelType(model),
      aiModels.isModelType(model, "chat"),
      ai.isModelType(model, "image"),
      aiModels.hasApi(model, "openai-responses"),
      aiModels.hasApi(model, "anthropic-messages"),
    ]);
  });
  add("modelKinds.modelsAreEqual", () => {
    const a = { id: "x", provider: "p" };
    return [
      ai.modelsAreEqual(a, { id: "x", provider: "p", name: "other" }),
      ai.modelsAreEqual(a, { id: "x", provider: "q" }),
      ai.modelsAreEqual(a, { id: "y", provider: "p" }),
      ai.modelsAreEqual(a, { id: "x", provider: "p", type: "image" }),
      ai.modelsAreEqual(a, { id: "x", provider: "p", type: "chat" }),
      ai.modelsAreEqual(a, undefined),
      ai.modelsAreEqual(null, a),
      aiModels.modelsAreEqual(a, a),
    ];
  });

  // --- context overflow and retry classification ---------------------------
  add("overflow.patterns", () => {
    const first = ai.getOverflowPatterns();
    const again = ai.getOverflowPatterns();
    first.length = 0;
    return {
      patterns: again.map((pattern) => [pattern.source, pattern.flags, pattern instanceof RegExp]),
      freshArray: first !== again && ai.getOverflowPatterns().length === again.length,
      sameRegExps: again.every((pattern, index) => ai.getOverflowPatterns()[index] === pattern),
    };
  });
  const failure = (errorMessage, provider = "some-provider") => ({
    role: "assistant",
    stopReason: "error",
    errorMessage,
    provider,
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  });
  add("overflow.errorTexts", () =>
    OVERFLOW_TEXTS.map((text) => [
      text,
      ai.isContextOverflow(failure(text)),
      ai.isContextOverflow(failure(text, "cerebras")),
      ai.isContextOverflow({ ...failure(text), stopReason: "stop", usage: { input: 1, output: 1, cacheRead: 0 } }),
    ]),
  );
  add("overflow.retryTextsToo", () => RETRY_TEXTS.map((text) => ai.isContextOverflow(failure(text))));
  add("overflow.usage", () => {
    const answerWith = (stopReason, input, cacheRead, output) => ({ role: "assistant", stopReason, usage: { input, output, cacheRead, cacheWrite: 0 } });
    const rows = [
      ["stop", 900, 0, 10, 1000],
      ["stop", 1000, 0, 10, 1000],
      ["stop", 600, 401, 10, 1000],
      ["stop", 5000, 0, 10, undefined],
      ["stop", 5000, 0, 10, 0],
      ["length", 990, 0, 0, 1000],
      ["length", 989, 0, 0, 1000],
      ["length", 500, 490, 0, 1000],
      ["length", 1000, 0, 1, 1000],
      ["length", 5000, 0, 0, undefined],
      ["toolUse", 5000, 0, 10, 1000],
      ["aborted", 5000, 0, 0, 1000],
      ["error", 5000, 0, 0, 1000],
    ];
    return rows.map(([stopReason, input, cacheRead, output, window]) =>
      ai.isContextOverflow(answerWith(stopReason, input, cacheRead, output), window),
    );
  });
  add("overflow.emptyOrMissingErrorText", () => [
    ai.isContextOverflow({ stopReason: "error", errorMessage: "" }),
    ai.isContextOverflow({ stopReason: "error" }),
    ai.isContextOverflow({ stopReason: "error", errorMessage: "prompt is too long" }),
    ai.isContextOverflow({ stopReason: "aborted", errorMessage: "prompt is too long" }),
  ]);
  add("overflow.recoverableLength", () =>
    [
      ["length", 10, 100],
      ["length", 100, 100],
      ["length", 0, 0],
      ["length", 5, -1],
      ["length", 5, undefined],
      ["stop", 10, 100],
      ["error", 0, 100],
    ].map(([stopReason, output, wanted]) => ai.isRecoverableLength({ stopReason, usage: { output } }, wanted)),
  );
  add("retry.errorTexts", () =>
    [...RETRY_TEXTS, ...OVERFLOW_TEXTS].map((text) => [
      text,
      ai.isRetryableAssistantError(failure(text)),
      ai.isRetryableAssistantError({ ...failure(text), stopReason: "stop" }),
    ]),
  );
  add("retry.withoutErrorText", () => [
    ai.isRetryableAssistantError({ stopReason: "error" }),
    ai.isRetryableAssistantError({ stopReason: "error", errorMessage: "" }),
    ai.isRetryableAssistantError({ stopReason: "aborted", errorMessage: "overloaded" }),
  ]);
  add("retry.delays", () => ({
    constant: ai.DEFAULT_MAX_AGENT_RETRY_DELAY_MS,
    delays: [
      [{ baseDelayMs: 1000 }, [0, 1, 2, 3, 6, 7, 20]],
      [{ baseDelayMs: 250, maxAgentDelayMs: 5000 }, [1, 2, 5, 6, 100]],
      [{ baseDelayMs: 3, maxAgentDelayMs: Number.MAX_SAFE_INTEGER }, [1, 50, 60, 2000]],
      [{ baseDelayMs: 0.5, maxAgentDelayMs: 10 }, [1, 2, 3]],
      [{ baseDelayMs: 100, maxAgentDelayMs: 0 }, [1, 2]],
    ].map(([policy, attempts]) => attempts.map((attempt) => ai.retryDelayMs(policy, attempt))),
  }));

  // retryAssistantCall: the answers each call gives, in order, and what the
  // caller hears. Backoffs are a millisecond so the cases stay quick.
  async function retryRun(answers, policy, { abortAt, abortBefore = false, throwAt } = {}) {
    const heard = [];
    const controller = new AbortController();
    if (abortBefore) controller.abort();
    let calls = 0;
    const produce = async () => {
      calls += 1;
      if (throwAt === calls) throw new Error(`call ${calls} threw`);
      return structuredClone(answers[Math.min(calls, answers.length) - 1]);
    };
    const callbacks = {
      onRetryScheduled: (...args) => {
        heard.push(["scheduled", ...args]);
        if (abortAt === args[0]) controller.abort();
      },
      onRetryAttemptStart: (...args) => heard.push(["attemptStart", ...args]),
      onRetryFinished: (...args) => heard.push(["finished", ...args]),
    };
    try {
      const result = await ai.retryAssistantCall(produce, policy, controller.signal, callbacks);
      return { result, calls, heard };
    } catch (error) {
      return { threw: String(error), calls, heard };
    }
  }
  const said = (stopReason, errorMessage) => ({
    role: "assistant",
    content: [{ type: "text", text: stopReason }],
    stopReason,
    ...(errorMessage === undefined ? {} : { errorMessage }),
    usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
    timestamp: 5,
  });
  const quick = (maxRetries) => ({ enabled: true, maxRetries, baseDelayMs: 1, maxAgentDelayMs: 2 });
  const overloaded = said("error", "529 overloaded_error: Overloaded");
  add("retryCall.firstAnswerStands", async () => [
    await retryRun([said("stop")], quick(3)),
    await retryRun([overloaded], undefined),
    await retryRun([overloaded], { ...quick(3), enabled: false }),
    await retryRun([said("aborted")], quick(3)),
  ]);
  add("retryCall.succeedsAfterRetries", () => retryRun([overloaded, said("error", "fetch failed"), said("toolUse")], quick(5)));
  add("retryCall.budgetRunsOut", () => retryRun([overloaded], quick(2)));
  add("retryCall.notRetryable", async () => [
    await retryRun([said("error", "400 invalid_request_error: bad schema")], quick(3)),
    await retryRun([said("error", "429 insufficient_quota: check your billing")], quick(3)),
    await retryRun([overloaded, said("error", "401 unauthorized")], quick(3)),
  ]);
  add("retryCall.abortedAfterRetry", () => retryRun([overloaded, said("aborted")], quick(3)));
  add("retryCall.abortDuringBackoff", async () => [
    await retryRun([overloaded], quick(3), { abortAt: 1 }),
    await retryRun([overloaded, overloaded], quick(3), { abortAt: 2 }),
    await retryRun([overloaded], quick(3), { abortBefore: true }),
  ]);
  add("retryCall.produceThrows", async () => [
    await retryRun([overloaded], quick(3), { throwAt: 1 }),
    await retryRun([overloaded], quick(3), { throwAt: 2 }),
  ]);
  add("retryCall.unknownErrorText", () => retryRun([said("error", "socket hang up"), said("stop")], quick(1)));
  add("retryCall.withoutCallbacks", async () => {
    let calls = 0;
    const result = await ai.retryAssistantCall(
      async () => (++calls < 3 ? structuredClone(overloaded) : said("stop")),
      quick(4),
      undefined,
      undefined,
    );
    return { calls, result };
  });

  // --- StreamingJsonParser ----------------------------------------------------
  // Each piece's changes and the snapshot after it, as JSON text at that
  // moment; `same` when snapshot() handed back the previous object.
  function streamPieces(pieces) {
    const parser = new ai.StreamingJsonParser();
    let previous;
    const taken = [];
    const steps = pieces.map((piece) => {
      const changes = JSON.stringify(parser.append(piece));
      const snapshot = parser.snapshot();
      const same = snapshot === previous;
      previous = snapshot;
      taken.push([snapshot, JSON.stringify(snapshot)]);
      return [piece, changes, same ? "same" : snapshot === undefined ? "undefined" : JSON.stringify(snapshot)];
    });
    // Snapshots never change once returned.
    const stable = taken.every(([snapshot, text]) => JSON.stringify(snapshot) === text);
    return { steps, stable };
  }
  const everyChar = (text) => [...text];
  const inPiecesOf = (size, text) => Array.from({ length: Math.ceil(text.length / size) }, (_, index) => text.slice(index * size, (index + 1) * size));
  const STREAM_DOCUMENTS = [
    '{"path": "src/a.ts", "limit": 10, "flags": [true, false, null], "nested": {"x": -1.5e3, "y": "q\\"uote"}}',
    '[1, 2.5, -0, 1e5, 1E-2, "two", [3, [4]], {}, []]',
    '"just a string with \\u00e9 and \\n and \\ud83d\\ude00"',
    '{"bad": "\\d\\x\\u12G4 kept", "ctl": "a\tb"}',
    '{"a" 1 "b": 2, "c": [1 2 3], : 4, "d": nope, "e": tru}',
    '{"__proto__": {"polluted": true}, "ok": 1}',
    '{"a": 1}} trailing {"b": 2}',
    ']] } {"after": "stray closers"}',
    '12345',
    'null',
    '   ',
    '{"num": 1.2e+',
    '{"lit": fals',
    '{"long": 123456789012345678901234567890123456789012345678901234567890123456789',
    '{"emptyKey": {"": ""}, "arr": [[], [{}], [[[]]]]}',
  ];
  add("streamingJson.everyCharacter", () => STREAM_DOCUMENTS.map((text) => streamPieces(everyChar(text))));
  add("streamingJson.wholeAndHalves", () =>
    STREAM_DOCUMENTS.map((text) => [streamPieces([text]), streamPieces([text.slice(0, text.length >> 1), text.slice(text.length >> 1)])]),
  );
  add("streamingJson.deepNesting", () => {
    const depth = 40;
    const text = `${'{"k": '.repeat(depth)}"deep"${"}".repeat(depth)}`;
    return [streamPieces(inPiecesOf(7, text)), streamPieces(everyChar(text).slice(0, 6 * 35 + 3))];
  });
  add("streamingJson.deepArrays", () => {
    const text = `${"[".repeat(36)}1, "s"${"]".repeat(36)}`;
    return streamPieces(inPiecesOf(5, text));
  });
  add("streamingJson.largeOpenContainer", () => {
    // Thousands of elements while the array stays open: the snapshot lags
    // behind the text once copying it costs more than the pieces earned.
    const text = `{"items": [${Array.from({ length: 4000 }, (_, index) => index).join(", ")}], "done": true}`;
    const parser = new ai.StreamingJsonParser();
    const lengths = [];
    let changeCount = 0;
    for (const piece of inPiecesOf(3, text)) {
      changeCount += parser.append(piece).length;
      lengths.push(parser.snapshot()?.items?.length ?? -1);
    }
    return { changeCount, lengths: fingerprint(lengths.join(",")), last: lengths.slice(-5), final: parser.snapshot() && Object.keys(parser.snapshot()) };
  });
  add("streamingJson.snapshotWithoutAppend", () => {
    const parser = new ai.StreamingJsonParser();
    const first = parser.snapshot();
    parser.append("");
    const changes = parser.append('{"a": [1');
    const one = parser.snapshot();
    return [first === undefined, JSON.stringify(changes), JSON.stringify(one), parser.snapshot() === one];
  });
  add("streamingJson.toolCallArgumentsLag", () => {
    const stream = new ai.ToolCallArgumentsStream();
    const text = `{"list": [${Array.from({ length: 3000 }, (_, index) => `"v${index}"`).join(",")}]}`;
    const sizes = inPiecesOf(4, text).map((piece) => stream.append(piece).list?.length ?? -1);
    return { sizes: fingerprint(sizes.join(",")), tail: sizes.slice(-3), finished: stream.finish().arguments.list.length };
  });

  // --- parseStreamingJson (pi-ai-streaming-json-cases.mjs) -------------------
  addStreamingJsonCases(add, ai);

  // --- pure helpers (pi-ai-helper-cases.mjs) ---------------------------------
  addHelperCases(add, ai);

  // --- the faux provider and Models plumbing (pi-ai-models-cases.mjs) --------
  addModelsCases(add, { ai, aiModels });

  // --- pi-agent-core, whose model calls go through this pi-ai ----------------
  addAgentCoreCases(add, { ai, core, env, goldenModel, answer });
  addProviderCases(add, ai);
  addVertexCases(add, ai);
  addCodexCases(add, ai);
  addBuiltinProviderCases(add, { ai, aiProviders });
  // Last: resetApiProviders forgets every registered provider.
  addPiAiExportCoverageCases(add, { ai, aiProviders });

  return cases;
}

// Provider error texts (written here, in the shapes providers and gateways
// send them) for the overflow and retry classifiers.
const OVERFLOW_TEXTS = [
  "prompt is too long: 210000 tokens > 200000 maximum",
  "Prompt too long",
  "prompt exceeds max length",
  '413 {"error":{"type":"request_too_large","message":"Request exceeds the maximum size"}}',
  "Input is too long for requested model.",
  "Your input exceeds the context window of this model. Please adjust your input and try again.",
  "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
  "Requested token count exceeds the model's maximum context length of 131,072 tokens",
  "Input length (265330) exceeds model's maximum context length (262144).",
  "exceeds maximum context length of 4096 tokens",
  "exceeds the maximum context length",
  "litellm.ContextWindowExceededError: Context Window exceeded for given call.",
  "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575).",
  "This model's maximum prompt length is 131072 but the request contains 537812 tokens.",
  "Please reduce the length of the messages or completion.",
  "Input length 300000 exceeds the maximum allowed input length of 262,144 tokens.",
  "The input (300000 tokens) is longer than the model's context length (262144 tokens).",
  "The input (300000 tokens) is longer than the models context length (262144 tokens).",
  "prompt token count of 140000 exceeds the limit of 128000",
  "the request exceeds the available context size, try increasing it",
  "tokens to keep from the initial prompt is greater than the context length",
  "invalid params, context window exceeds limit (2013)",
  "Your request exceeded model token limit: 262144 (requested: 300000)",
  "Prompt contains 140000 tokens and 0 draft tokens, too large for model with 131072 maximum context length",
  "Prompt has 200,000 tokens, but the configured context size is 131,072 tokens",
  "finish_reason: model_context_window_exceeded",
  "prompt too long; exceeded max context length by 1200 tokens",
  "prompt too long; exceeded context length by 5 tokens",
  "Range of input length should be [1, 129024]",
  "context_length_exceeded",
  "Context length exceeded",
  "Too many tokens in the request",
  "token limit exceeded",
  'github-copilot API error (413): {"message":"failed to parse request","code":""}',
  "413 Payload Too Large",
  "413: request entity too large",
  "413",
  "Some Gateway API error (413): too big",
  "upstream said 413 somewhere in the body",
  "400 status code (no body)",
  "413 (no body)",
  "400status code(no body)",
  "500 status code (no body)",
  "ThrottlingException: Too many tokens, please wait before trying again.",
  "Throttling error: Too many tokens, please wait before trying again.",
  "Service unavailable: too many tokens",
  "rate limit reached: too many tokens per minute",
  "Too many requests: too many tokens",
  "maximum prompt length is unknown",
  "exceeds the limit of your plan",
  "",
  "everything is fine",
];
const RETRY_TEXTS = [
  "529 overloaded_error: Overloaded",
  "server_busy",
  "Our servers are currently busy. Please try again later.",
  "We are currently experiencing high demand.",
  "The model is at capacity.",
  "Rate limit reached for requests",
  "ratelimit exceeded",
  "rate_limit_error",
  "429 Too Many Requests",
  "Error: 429",
  "request id req_4290abc failed",
  "HTTP 500",
  "500 Internal Server Error",
  "status 502 bad gateway",
  "503",
  "got 504.",
  "cloudflare 520",
  "a 524 timeout",
  "sent 5000 bytes",
  "id x503y",
  "The service is temporarily unavailable",
  "Service Unavailable",
  "service_unavailable",
  "server error",
  "internal_error",
  "Provider returned error",
  "The upstream provider returned an error",
  "exceeded request buffer limit while retrying upstream",
  "unable to forward upstream response",
  "upstream request failed",
  "upstream_stream_read_error",
  "The stream was interrupted",
  "http2 stream failed",
  "HTTP/2 stream failed",
  "network error",
  "Connection error.",
  "connection refused",
  "connection lost",
  '{"type":"error","error":{"type":"api_error","message":"Connection closed."}}',
  "other side closed",
  "TypeError: fetch failed",
  "request to https://oauth2.googleapis.com/token failed, reason: ",
  "getaddrinfo ENOTFOUND api.example.com",
  "read ECONNRESET",
  "write EPIPE",
  "connect ETIMEDOUT 1.2.3.4:443",
  "ECONNABORTED",
  "connect ECONNREFUSED 127.0.0.1:8080",
  "MY_ECONNRESET_FLAG",
  "ECONNRESET2",
  "connection reset by peer",
  "EAI_AGAIN",
  "upstream connect error or disconnect/reset before headers",
  "socket hang up",
  "The socket connection was closed unexpectedly",
  "Request timed out.",
  "time out",
  "timeout",
  "terminated",
  "WebSocket closed 1006",
  "websocket error",
  "Responses websocket connection limit reached",
  "websocket_connection_limit_reached",
  "stream ended without message_stop",
  "Anthropic stream ended before message_stop",
  "stream ended before a terminal response event",
  "http2 request did not get a response",
  "stream disconnected before completion: stream closed before response.completed",
  "Claude Code's stream from Anthropic was cut short after the reply had begun",
  "ERR_HTTP2_STREAM_CANCEL: The pending stream has been canceled",
  "retry delay 120000ms exceeds the maximum",
  "An error occurred. You can retry your request.",
  "Please try your request again.",
  "please retry your request",
  "ResourceExhausted: quota",
  "subscription_sharing_usage_unavailable",
  "subscription_sharing_user_unavailable",
  "GoUsageLimitError: 429",
  "FreeUsageLimitError",
  "Monthly usage limit reached. Enable usage from your available balance.",
  "429 insufficient_quota",
  "You are out of budget (503)",
  "Quota exceeded for metric, retry after a timeout",
  "check your billing details (500)",
  "subscription_sharing_usage_limit_exceeded",
  "subscription_sharing_workplace_individual_usage_limit_exceeded",
  '429 {"code":"1308","message":"usage limit"}',
  '429 {"code": 1308, "message": "usage limit"}',
  '429 {"code":"13080"}',
  "400 invalid_request_error: bad schema",
  "401 Unauthorized",
  "Invalid API key",
];
