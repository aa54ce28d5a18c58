// Differential test for pi-ai: runs the shared case table
// (pi-ai-cases.mjs) against js/pi/pi-ai.js under Node and compares every
// result with the goldens recorded from pi 1.6.0
// (reference-data/pi-ai-goldens.json). A second, separate part checks what
// has no counterpart in pi, the host hook contract, against expectations
// derived by hand. Run with Node 22:
//   node tests/pi-packages/pi-ai-differential.mjs [-v]
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { buildCases, goldenModel, hookEnv, runCase } from "./pi-ai-cases.mjs";

const root = new URL("../../", import.meta.url);
const goldens = JSON.parse(await readFile(new URL("reference-data/pi-ai-goldens.json", root), "utf8")).cases;
// The recorded tables come from pihost's op in the isolate; here, from their files.
const referenceData = {};
for (const name of ["model-catalog", "overflow-patterns"]) {
  referenceData[name] = await readFile(new URL(`reference-data/${name}.json`, root), "utf8");
}
globalThis.Deno ??= { core: { ops: { op_pihost_reference_data: (name) => referenceData[name] } } };
const ai = await import("../../js/pi/pi-ai.js");
const aiModels = await import("../../js/pi/pi-ai/models.js");
const aiProviders = await import("../../js/pi/pi-ai/providers/all.js");
const core = await import("../../js/pi/pi-agent-core.js");
const env = hookEnv();

const verbose = process.argv.includes("-v");
let passed = 0;
const failures = [];
const pass = (name) => {
  passed++;
  if (verbose) console.log(`ok ${name}`);
};

// A case that never settles leaves Node nothing to wait for, and it exits
// mid table; say which case that was.
let running;
process.on("exit", () => {
  if (running) console.log(`FAIL ${running}\n    never settled; the table stopped here`);
});

// --- Part 1: goldens recorded from pi ------------------------------------------
const names = new Set();
for (const { name, run } of buildCases({ ai, aiModels, aiProviders, core, env })) {
  names.add(name);
  running = name;
  const expected = goldens[name];
  const actual = await runCase(run);
  if (expected === undefined) {
    failures.push(`${name}\n    no golden (re-record reference-data/pi-ai-goldens.json)`);
    continue;
  }
  const [want, got] = [JSON.stringify(expected), JSON.stringify(actual)];
  if (want === got) pass(name);
  else failures.push(`${name}\n    pi:     ${want}\n    pihost: ${got}`);
}
running = undefined;
for (const name of Object.keys(goldens)) {
  if (!names.has(name)) failures.push(`${name}\n    golden without a case`);
}

// --- Part 2: the host hook, pihost only (hand-derived expectations) -----------
const CONTEXT = { systemPrompt: "sys", messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const TRANSCRIPT = {
  messages: [
    { role: "system", content: "sys", timestamp: 0 },
    { role: "user", content: "hi", timestamp: 1 },
  ],
};
const USAGE = {
  input: 3,
  output: 4,
  cacheRead: 5,
  cacheWrite: 6,
  totalTokens: 18,
  cost: { input: 0.1, output: 0.2, cacheRead: 0.3, cacheWrite: 0.4, total: 1 },
};
const reply = (model) => ({
  role: "assistant",
  content: [{ type: "text", text: "ok" }],
  api: model.api,
  provider: model.provider,
  model: model.id,
  usage: structuredClone(USAGE),
  stopReason: "stop",
  timestamp: 1000,
});
const noProvider = (model) => `No API provider registered for api: ${model.api}`;

async function collect(stream) {
  const events = [];
  for await (const event of stream) events.push(event);
  return { events, result: await stream.result() };
}

// A provider's failure message is stamped when the request starts, so the
// stream times it like any fresh answer.
function failedMessage(model, stopReason, result) {
  assert.equal(typeof result.timestamp, "number");
  assert.ok(Number.isInteger(result.durationMs) && result.durationMs >= 0);
  assert.deepEqual(result, {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason,
    errorMessage: noProvider(model),
    timestamp: result.timestamp,
    durationMs: result.durationMs,
  });
}

const hookCases = {
  async "hook.receivesKindModelTranscriptOptions"() {
    const calls = [];
    const model = goldenModel();
    const options = { maxTokens: 7 };
    await env.withHook(
      async (kind, requested, transcript, given) => {
        calls.push({ kind, requested, transcript, given });
        return reply(model);
      },
      async () => {
        await ai.stream(model, CONTEXT, options).result();
        await ai.streamSimple(model, CONTEXT, options).result();
        await ai.complete(model, CONTEXT, options);
        await ai.completeSimple(model, CONTEXT, options);
      },
    );
    assert.deepEqual(
      calls.map((call) => call.kind),
      ["stream", "streamSimple", "complete", "completeSimple"],
    );
    for (const call of calls) {
      assert.equal(call.requested, model);
      assert.equal(call.given, options);
      assert.deepEqual(call.transcript, TRANSCRIPT);
    }
  },
  async "hook.answerPassesThroughUntouched"() {
    const model = goldenModel();
    const answer = reply(model);
    const { events, result } = await env.withHook(async () => answer, () => collect(ai.stream(model, CONTEXT)));
    assert.equal(result, answer);
    assert.deepEqual(result.usage, USAGE);
    assert.deepEqual(events[0].partial.usage, USAGE);
    assert.deepEqual(
      events.map((event) => event.type),
      ["start", "text_start", "text_delta", "text_end", "done"],
    );
    const completed = await env.withHook(async () => answer, () => ai.complete(model, CONTEXT));
    assert.equal(completed, answer);
  },
  async "hook.rejectionEndsTheStreamInAnError"() {
    const model = goldenModel();
    const { events, result } = await env.withHook(
      async () => {
        throw new Error("host said no");
      },
      () => collect(ai.streamSimple(model, CONTEXT)),
    );
    assert.deepEqual(
      events.map((event) => [event.type, event.reason]),
      [["error", "error"]],
    );
    assert.equal(events[0].error, result);
    failedMessage(model, "error", result);
  },
  async "hook.synchronousThrowIsARejection"() {
    const model = goldenModel();
    const { result } = await env.withHook(
      () => {
        throw new Error("sync");
      },
      () => collect(ai.stream(model, CONTEXT)),
    );
    failedMessage(model, "error", result);
  },
  async "hook.nonMessageAnswerIsARejection"() {
    for (const bad of [undefined, null, "text", { content: "not an array" }]) {
      const model = goldenModel();
      const { result } = await env.withHook(async () => bad, () => collect(ai.stream(model, CONTEXT)));
      failedMessage(model, "error", result);
    }
  },
  async "hook.rejectionRejectsComplete"() {
    const model = goldenModel();
    const reason = new Error("host said no");
    for (const name of ["complete", "completeSimple"]) {
      await assert.rejects(
        env.withHook(
          async () => {
            throw reason;
          },
          () => ai[name](model, CONTEXT),
        ),
        (error) => error.message === noProvider(model) && error.cause === reason,
      );
    }
  },
  async "hook.absentThrowsFromStream"() {
    const model = goldenModel();
    await env.withoutProvider(async () => {
      assert.throws(() => ai.stream(model, CONTEXT), { message: noProvider(model) });
      await assert.rejects(ai.complete(model, CONTEXT), { message: noProvider(model) });
    });
  },
  async "hook.abortedBeforeTheAnswer"() {
    const model = goldenModel();
    const controller = new AbortController();
    controller.abort();
    const answered = await env.withHook(async () => reply(model), () => collect(ai.stream(model, CONTEXT, { signal: controller.signal })));
    assert.deepEqual(
      answered.events.map((event) => [event.type, event.reason]),
      [["error", "aborted"]],
    );
    assert.equal(answered.result.stopReason, "aborted");
    assert.equal(answered.result.errorMessage, "Request was aborted");
    assert.deepEqual(answered.result.content, []);
    const rejected = await env.withHook(
      async () => {
        throw new Error("gone");
      },
      () => collect(ai.stream(model, CONTEXT, { signal: controller.signal })),
    );
    failedMessage(model, "aborted", rejected.result);
  },
  async "hook.registeredProviderWins"() {
    const model = goldenModel();
    let hookCalls = 0;
    ai.registerApiProvider(
      {
        api: model.api,
        stream: () => {
          const stream = ai.createAssistantMessageEventStream();
          stream.end({ ...reply(model), content: [] });
          return stream;
        },
        streamSimple: () => undefined,
      },
      "hook-test",
    );
    try {
      const result = await env.withHook(
        async () => {
          hookCalls++;
          return reply(model);
        },
        () => ai.complete(model, CONTEXT),
      );
      assert.deepEqual(result.content, []);
      assert.equal(hookCalls, 0);
    } finally {
      ai.unregisterApiProviders("hook-test");
    }
  },
  async "hook.partialsAreFaithfulAtPushTime"() {
    // Every delta event's partial already holds that block's whole text.
    const model = goldenModel();
    const answer = { ...reply(model), content: [{ type: "thinking", thinking: "hmm" }, { type: "toolCall", id: "c", name: "n", arguments: { a: [1] } }] };
    const snapshots = [];
    await env.withHook(
      async () => answer,
      async () => {
        const stream = ai.stream(model, CONTEXT);
        const push = stream.push;
        stream.push = function (event) {
          snapshots.push(JSON.parse(JSON.stringify(event.partial?.content ?? null)));
          return push.call(this, event);
        };
        await stream.result();
      },
    );
    assert.deepEqual(snapshots, [
      [],
      [{ type: "thinking", thinking: "" }],
      [{ type: "thinking", thinking: "hmm" }],
      [{ type: "thinking", thinking: "hmm" }],
      [{ type: "thinking", thinking: "hmm" }, { type: "toolCall", id: "c", name: "n", arguments: {} }],
      [{ type: "thinking", thinking: "hmm" }, { type: "toolCall", id: "c", name: "n", arguments: { a: [1] } }],
      [{ type: "thinking", thinking: "hmm" }, { type: "toolCall", id: "c", name: "n", arguments: { a: [1] } }],
      null,
    ]);
  },
};
for (const [name, check] of Object.entries(hookCases)) {
  try {
    await check();
    pass(name);
  } catch (error) {
    failures.push(`${name}\n    ${String(error?.stack ?? error).split("\n").slice(0, 6).join("\n    ")}`);
  }
}

for (const failure of failures) console.log(`FAIL ${failure}`);
console.log(`${passed} passed, ${failures.length} failed`);
process.exit(failures.length > 0 ? 1 : 0);
