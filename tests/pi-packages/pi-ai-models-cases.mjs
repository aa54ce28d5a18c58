// Cases of pi-ai's scripted model and its Models plumbing for the pi-ai case
// table (pi-ai-cases.mjs): the faux provider (its engine, its registration
// in the api registry and its use in a Models collection), createModels and
// createProvider, the in-memory stores, the auth helpers, lazy streams,
// ModelsError, the telemetry schema and observer, session cleanups and the
// images registry's lookups. Every case removes what it registers. Clocks,
// random ids and durations are reduced to checks, and errors the engine
// words itself (V8 against pihost's) are reduced to their names.

// One chunk per block: far larger than any text in the cases.
const ONE_CHUNK = { min: 1_000_000, max: 1_000_000 };
// Two tokens, eight characters, per chunk.
const EIGHT_CHARS = { min: 2, max: 2 };

const VOLATILE = new Set(["timestamp", "checkedAt"]);

/**
 * `value` as data, every clock reading replaced by whether it was a number.
 * `durationMs` is left out: a setup failure's message is stamped just
 * before its stream is made, so whether the stream times it depends on a
 * millisecond tick falling between the two (in pi as in pihost).
 */
function stable(value) {
  return JSON.parse(
    JSON.stringify(value, (key, item) => {
      if (key === "durationMs") return undefined;
      if (VOLATILE.has(key)) return typeof item === "number" ? "<number>" : item === undefined ? "<undefined>" : item;
      if (item === undefined) return "<undefined>";
      if (typeof item === "function") return "<function>";
      if (item instanceof Error) return { error: item.name, message: item.message, ...(item.code === undefined ? {} : { code: item.code }) };
      if (item instanceof Map) return { map: [...item] };
      return item;
    }),
  );
}

/** What a promise settled to, an error reduced to its name and message. */
async function settled(promise) {
  try {
    return { value: await promise };
  } catch (error) {
    return { rejected: { name: error?.name, message: error?.message } };
  }
}

/** The events of a stream as received (copied then) and as they ended up, and its result. */
async function collect(stream) {
  const received = [];
  const events = [];
  for await (const event of stream) {
    received.push(stable(event));
    events.push(event);
  }
  const result = await stream.result();
  return { received, final: stable(events), result: stable(result) };
}

const USER = (text, timestamp = 1) => ({ role: "user", content: text, timestamp });

/** Runs `run(faux)` with a faux provider registered on `api`, removed afterwards. */
async function withFaux(ai, options, run) {
  const faux = ai.registerFauxProvider(options);
  try {
    return await run(faux);
  } finally {
    faux.unregister();
  }
}

/** Adds the cases through `add(name, run)`; `ai` is the pi-ai root, `aiModels` pi-ai/models. */
export function addModelsCases(add, { ai, aiModels }) {
  addFauxCoreCases(add, ai);
  addFauxStreamCases(add, ai);
  addFauxModelsCases(add, ai);
  addCollectionCases(add, ai);
  addStoreCases(add, ai);
  addAuthCases(add, ai);
  addLazyCases(add, ai);
  addErrorAndTelemetryCases(add, ai, aiModels);
  addRegistryCases(add, ai);
}

// --- the faux engine ------------------------------------------------------------

function addFauxCoreCases(add, ai) {
  add("fauxCore.defaults", () => {
    const core = ai.createFauxCore({ api: "pihost-golden-faux" });
    return {
      keys: Object.keys(core),
      api: core.api,
      provider: core.provider,
      models: core.models,
      first: core.getModel() === core.models[0],
      named: core.getModel("faux-1") === core.models[0],
      unknown: core.getModel("nope"),
      pending: core.getPendingResponseCount(),
      state: core.state,
    };
  });
  add("fauxCore.randomApi", () => {
    const before = Date.now();
    const { api } = ai.createFauxCore({});
    const after = Date.now();
    const match = /^faux:(\d+):([0-9a-z]+)$/.exec(api);
    return { shape: match !== null, timely: match !== null && Number(match[1]) >= before && Number(match[1]) <= after };
  });
  add("fauxCore.customModels", () => {
    const core = ai.createFauxCore({
      api: "a",
      provider: "p",
      models: [
        { id: "m1" },
        { id: "m2", name: "Two", reasoning: true, input: ["text"], inputLimits: { image: 1 }, cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 }, contextWindow: 10, maxTokens: 5 },
      ],
    });
    const empty = ai.createFauxCore({ api: "b", models: [] });
    return { models: core.models, getModel: core.getModel("m2").name, emptyFallsBack: empty.models.map((model) => model.id) };
  });
  add("fauxCore.queue", () => {
    const core = ai.createFauxCore({ api: "q" });
    const counts = [core.getPendingResponseCount()];
    const script = [ai.fauxAssistantMessage("a", { timestamp: 1 })];
    core.setResponses(script);
    script.push("not queued");
    counts.push(core.getPendingResponseCount());
    core.appendResponses([ai.fauxAssistantMessage("b", { timestamp: 1 }), ai.fauxAssistantMessage("c", { timestamp: 1 })]);
    counts.push(core.getPendingResponseCount());
    core.setResponses([]);
    counts.push(core.getPendingResponseCount());
    return counts;
  });
  add("fauxCore.requiresOptions", () => {
    try {
      ai.createFauxCore();
      return "returned";
    } catch (error) {
      return { thrown: error.name };
    }
  });
}

// --- the faux provider in the api registry: stream() and complete() ---------------

const RICH = (ai) =>
  ai.fauxAssistantMessage(
    [
      ai.fauxThinking("Thinking it over, at some length."),
      ai.fauxText("Hello there, this is a longer text."),
      ai.fauxToolCall("read", { path: "some/file.txt", limit: [1, 22, 333] }, { id: "call-1" }),
    ],
    { stopReason: "toolUse", responseId: "resp-9", timestamp: 7 },
  );

function addFauxStreamCases(add, ai) {
  const context = { systemPrompt: "Be brief.", messages: [USER("Hi there")] };
  for (const [name, tokenSize] of [
    ["oneChunk", ONE_CHUNK],
    ["eightChars", EIGHT_CHARS],
    ["clampedToOne", { min: 0, max: 0 }],
  ]) {
    add(`fauxStream.${name}`, () =>
      withFaux(ai, { api: "pihost-golden-faux", provider: "golden", tokenSize }, async (faux) => {
        faux.setResponses([RICH(ai)]);
        const collected = await collect(ai.stream(faux.getModel(), context));
        return { ...collected, callCount: faux.state.callCount, pending: faux.getPendingResponseCount() };
      }),
    );
  }
  add("fauxStream.pacedByTokensPerSecond", () =>
    withFaux(ai, { api: "pihost-golden-faux", tokenSize: EIGHT_CHARS, tokensPerSecond: 1_000_000 }, async (faux) => {
      faux.setResponses([ai.fauxAssistantMessage("paced text over several chunks", { timestamp: 1 })]);
      return collect(ai.stream(faux.getModel(), context));
    }),
  );
  add("fauxStream.usageEstimate", () =>
    withFaux(ai, { api: "pihost-golden-faux", tokenSize: ONE_CHUNK }, async (faux) => {
      const reply = (text) => ai.fauxAssistantMessage(text, { timestamp: 1 });
      faux.setResponses([reply("first answer"), reply("second"), reply("third one"), reply("fourth"), reply("fifth")]);
      const model = faux.getModel();
      const system = { role: "system", content: "sys", sections: { a: "alpha" }, toolsAdded: [{ name: "t", description: "d", parameters: {} }], timestamp: 0 };
      const first = { messages: [system, USER("question one")] };
      const second = {
        messages: [
          ...first.messages,
          { role: "assistant", content: [ai.fauxThinking("th"), ai.fauxText("answer"), ai.fauxToolCall("t", { x: 1 }, { id: "i" })], timestamp: 2 },
          { role: "toolResult", toolCallId: "i", toolName: "t", content: [{ type: "text", text: "result" }, { type: "image", mimeType: "image/png", data: "AAAA" }], isError: false, timestamp: 3 },
          USER([{ type: "text", text: "more" }, { type: "image", mimeType: "image/png", data: "BBBBBB" }], 4),
        ],
      };
      const usages = [];
      for (const [ctx, options] of [
        [first, {}],
        [first, { sessionId: "s" }],
        [second, { sessionId: "s" }],
        [{ messages: [system, USER("question two")] }, { sessionId: "s" }],
        [second, { sessionId: "s", cacheRetention: "none" }],
      ]) {
        usages.push((await ai.complete(model, ctx, options)).usage);
      }
      return usages;
    }),
  );
  add("fauxStream.stepFunction", () =>
    withFaux(ai, { api: "pihost-golden-faux", tokenSize: ONE_CHUNK }, async (faux) => {
      const seen = [];
      faux.setResponses([
        async (transcript, options, state, model) => {
          seen.push({ transcript, options: Object.keys(options ?? {}), callCount: state === faux.state && state.callCount, model: model.id });
          return { role: "assistant", content: [{ type: "text", text: "from a function" }], stopReason: "stop" };
        },
      ]);
      const result = await ai.completeSimple(faux.getModel(), context, { maxTokens: 9, reasoning: "low" });
      return { seen: stable(seen), result: stable(result) };
    }),
  );
  add("fauxStream.failures", () =>
    withFaux(ai, { api: "pihost-golden-faux", tokenSize: ONE_CHUNK }, async (faux) => {
      const model = faux.getModel();
      faux.setResponses([
        () => {
          throw new Error("script failed");
        },
        ai.fauxAssistantMessage("never ends", { stopReason: "pending", timestamp: 1 }),
        ai.fauxAssistantMessage("bad", { stopReason: "error", errorMessage: "upstream", timestamp: 1 }),
      ]);
      const outcomes = [];
      for (let index = 0; index < 4; index++) outcomes.push(await collect(ai.stream(model, context)));
      return outcomes;
    }),
  );
  add("fauxStream.aborted", () =>
    withFaux(ai, { api: "pihost-golden-faux", tokenSize: EIGHT_CHARS }, async (faux) => {
      const controller = new AbortController();
      controller.abort();
      faux.setResponses([ai.fauxAssistantMessage("unsaid", { timestamp: 1 })]);
      const before = await collect(ai.stream(faux.getModel(), context, { signal: controller.signal }));
      // Aborted between chunks: when the first delta arrives.
      const midway = new AbortController();
      faux.setResponses([ai.fauxAssistantMessage("one chunk then another and more", { timestamp: 1 })]);
      const stream = ai.stream(faux.getModel(), context, { signal: midway.signal });
      const types = [];
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === "text_delta") midway.abort(new Error("caller stopped"));
      }
      return { before, midway: { types, result: stable(await stream.result()) } };
    }),
  );
  add("fauxStream.onResponse", () =>
    withFaux(ai, { api: "pihost-golden-faux", tokenSize: ONE_CHUNK }, async (faux) => {
      const calls = [];
      faux.setResponses([ai.fauxAssistantMessage("ok", { timestamp: 1 })]);
      const result = await ai.complete(faux.getModel(), context, {
        onResponse: async (response, model) => {
          calls.push({ response, model: model.id });
        },
      });
      return { calls, text: result.content };
    }),
  );
  add("fauxStream.registration", async () => {
    const faux = ai.registerFauxProvider({ api: "pihost-golden-faux-reg" });
    const registered = ai.getApiProvider("pihost-golden-faux-reg");
    const shape = { keys: Object.keys(faux), registeredKeys: Object.keys(registered ?? {}), models: faux.models.length };
    let mismatch;
    try {
      registered.stream({ ...faux.getModel(), api: "other" }, { messages: [] });
    } catch (error) {
      mismatch = error.message;
    }
    faux.unregister();
    faux.unregister();
    return { ...shape, mismatch, afterUnregister: ai.getApiProvider("pihost-golden-faux-reg") };
  });
  add("fauxStream.randomApiRegistered", async () => {
    const faux = ai.registerFauxProvider();
    const registered = ai.getApiProvider(faux.api) !== undefined;
    faux.setResponses([ai.fauxAssistantMessage("x", { timestamp: 1 })]);
    const result = await ai.complete(faux.getModel(), { messages: [] });
    faux.unregister();
    return { registered, sameApi: result.api === faux.api, model: result.model, gone: ai.getApiProvider(faux.api) === undefined };
  });
}

// --- the faux provider in a Models collection ------------------------------------

function addFauxModelsCases(add, ai) {
  add("fauxModels.complete", async () => {
    const faux = ai.fauxProvider({ api: "pihost-golden-faux", tokenSize: ONE_CHUNK });
    const models = ai.createModels();
    models.setProvider(faux.provider);
    faux.setResponses([ai.fauxAssistantMessage("hi from models", { timestamp: 1 })]);
    const streamed = await collect(models.stream(faux.getModel(), { messages: [USER("x")] }));
    const exhausted = await models.complete(faux.getModel(), { messages: [] });
    return {
      keys: Object.keys(faux),
      providerKeys: Object.keys(faux.provider),
      provider: stable(faux.provider),
      streamed,
      exhausted: stable(exhausted),
      auth: await models.checkAuth("faux"),
      available: (await models.getAvailable()).map((model) => model.id),
      registry: ai.getApiProvider("pihost-golden-faux"),
    };
  });
  add("fauxModels.deferred", async () => {
    const faux = ai.fauxProvider({ api: "pihost-golden-faux", tokenSize: ONE_CHUNK, deferred: { pendingFetches: 1, pollAfterMs: 25 } });
    const models = ai.createModels();
    models.setProvider(faux.provider);
    const model = faux.getModel();
    faux.setResponses([ai.fauxAssistantMessage("later", { timestamp: 1 }), ai.fauxAssistantMessage("cancelled one", { timestamp: 1 })]);
    const submitted = await models.complete(model, { messages: [USER("q")] }, { deferred: true });
    const handle = submitted.deferred;
    const handleShape = { ...handle, id: /^deferred:\d+:[0-9a-z]+$/.test(handle.id) };
    const poll = await models.fetchDeferred(model, handle);
    const final = await models.fetchDeferred(model, handle);
    const again = await models.fetchDeferred(model, handle);
    const second = await models.complete(model, { messages: [] }, { deferred: true });
    await models.cancelDeferred(model, second.deferred);
    const afterCancel = await models.fetchDeferred(model, second.deferred);
    const unknown = await models.fetchDeferred(model, { ...handle, id: "deferred:none" });
    const mismatched = await models.fetchDeferred(model, { ...handle, modelId: "other" });
    return {
      submitted: stable({ ...submitted, deferred: handleShape }),
      poll: { stopReason: poll.stopReason, sameHandle: JSON.stringify(poll.deferred) === JSON.stringify(handle) },
      final: stable(final),
      again: stable(again),
      afterCancel: afterCancel.errorMessage === `Faux deferred response was cancelled: ${second.deferred.id}`,
      unknown: unknown.errorMessage,
      mismatched: mismatched.errorMessage === `Unknown faux deferred response: ${handle.id}`,
      state: { ...faux.state, cancelledDeferred: faux.state.cancelledDeferred.length },
    };
  });
}

// --- createModels and createProvider -------------------------------------------

const chatModel = (provider, id, extra = {}) => ({
  id,
  name: id,
  api: "pihost-golden-api",
  provider,
  baseUrl: "http://localhost:0",
  reasoning: false,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 1000,
  maxTokens: 100,
  ...extra,
});

/** An api that records each request and answers with an empty message. */
function recordingApi(ai, requests) {
  const answer = (kind) => (model, context, options) => {
    requests.push({ kind, model: model.id, baseUrl: model.baseUrl, context, options });
    const stream = ai.createAssistantMessageEventStream();
    const message = {
      role: "assistant",
      content: [{ type: "text", text: kind }],
      api: model.api,
      provider: model.provider,
      model: model.id,
      usage: { input: 1, output: 2, cacheRead: 3, cacheWrite: 4, totalTokens: 10, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.5 } },
      stopReason: "stop",
      timestamp: 1,
    };
    queueMicrotask(() => {
      stream.push({ type: "start", partial: message });
      stream.push({ type: "done", reason: "stop", message });
      stream.end(message);
    });
    return stream;
  };
  return { stream: answer("stream"), streamSimple: answer("streamSimple") };
}

const keyAuth = (ai, vars) => ({ apiKey: ai.envApiKeyAuth("Golden key", vars) });

/** An auth context over a fixed environment. */
const fixedContext = (env) => ({
  env: async (name) => env[name],
  fileExists: async () => false,
});

function addCollectionCases(add, ai) {
  add("models.providers", () => {
    const models = ai.createModels();
    const image = { ...chatModel("p", "img"), type: "image" };
    const classifier = { ...chatModel("p", "cls"), type: "classifier" };
    const p = ai.createProvider({ id: "p", auth: {}, models: [chatModel("p", "a"), image, classifier, chatModel("p", "b")], api: recordingApi(ai, []) });
    const q = ai.createProvider({ id: "q", name: "Q", auth: {}, models: [chatModel("q", "c")], api: recordingApi(ai, []) });
    const broken = { id: "broken", getModels: () => { throw new Error("no list"); } };
    models.setProvider(p);
    models.setProvider(q);
    models.setProvider(broken);
    const read = () => ({
      providers: models.getProviders().map((provider) => provider.id),
      models: models.getModels().map((model) => model.id),
      ofP: models.getModels("p").map((model) => model.id),
      all: models.getAllModels().map((model) => model.id),
      images: models.getModelsOfType("image").map((model) => model.id),
      classifiers: models.getModelsOfType("classifier", "p").map((model) => model.id),
      model: models.getModel("p", "b")?.id,
      imageAsChat: models.getModel("p", "img"),
      imageOfType: models.getModelOfType("image", "p", "img")?.id,
      missing: models.getModels("none"),
      brokenModels: models.getModels("broken"),
    });
    const full = read();
    models.deleteProvider("q");
    const afterDelete = models.getProviders().map((provider) => provider.id);
    models.clearProviders();
    return { full, afterDelete, afterClear: models.getProviders(), getProvider: models.getProvider("p"), keys: Object.keys(models) };
  });
  add("createProvider.shape", () => {
    const api = recordingApi(ai, []);
    const provider = ai.createProvider({ id: "p", auth: {}, models: [chatModel("p", "a"), { ...chatModel("p", "i"), type: "image" }], api });
    const withMaps = ai.createProvider({
      id: "m",
      name: "Mapped",
      baseUrl: "http://x",
      headers: { h: "1" },
      auth: {},
      models: [],
      api: { one: api, two: undefined },
      images: { img: { generateImages: async () => "images" } },
      classifiers: { cls: { classify: async () => "classified" } },
      fetchModels: async () => [],
      filterModels: (models) => models,
    });
    return {
      keys: Object.keys(provider),
      provider: stable(provider),
      chat: provider.getModels().map((model) => model.id),
      all: provider.getAllModels().map((model) => model.id),
      mappedKeys: Object.keys(withMaps),
      mapped: stable(withMaps),
    };
  });
  add("createProvider.requiresAnImplementation", () =>
    [{}, { api: {} }, { api: { x: undefined } }, { images: {} }, { classifiers: { c: undefined } }].map((parts) => {
      try {
        ai.createProvider({ id: "empty", auth: {}, models: [], ...parts });
        return "built";
      } catch (error) {
        return { name: error.name, message: error.message };
      }
    }),
  );
  add("createProvider.dispatch", async () => {
    const requests = [];
    const provider = ai.createProvider({
      id: "p",
      auth: {},
      models: [],
      api: { "pihost-golden-api": recordingApi(ai, requests) },
      images: { "img-api": { generateImages: async (model, context) => ({ model: model.id, prompt: context.prompt }) } },
      classifiers: { "cls-api": { classify: async (model) => ({ model: model.id }) } },
    });
    const model = chatModel("p", "a");
    const other = { ...model, api: "nothing-here" };
    return {
      known: await collect(provider.stream(model, { messages: [] })),
      unknown: await collect(provider.streamSimple(other, { messages: [] })),
      requests: requests.map((request) => request.kind),
      images: await provider.generateImages({ ...model, api: "img-api" }, { prompt: "cat" }),
      noImages: stable(await provider.generateImages(other, { prompt: "cat" })),
      classified: await provider.classify({ ...model, api: "cls-api" }, {}),
      noClassifier: stable(await provider.classify(other, {})),
      deferred: [provider.fetchDeferred, provider.cancelDeferred].map((operation) => typeof operation),
    };
  });
  add("createProvider.deferredDispatch", async () => {
    const withDeferred = {
      ...recordingApi(ai, []),
      fetchDeferred: (model) => recordingApi(ai, []).stream(model, { messages: [] }),
      cancelDeferred: async () => {},
    };
    const provider = ai.createProvider({ id: "p", auth: {}, models: [], api: { a: withDeferred, b: recordingApi(ai, []) } });
    const model = (api) => ({ ...chatModel("p", "m"), api });
    return {
      fetched: (await provider.fetchDeferred(model("a"), {}).result()).content,
      fetchedElsewhere: stable(await provider.fetchDeferred(model("b"), {}).result()),
      cancelled: await settled(provider.cancelDeferred(model("a"), {})),
      cancelElsewhere: await settled(provider.cancelDeferred(model("b"), {})),
    };
  });
  add("models.requests", async () => {
    const requests = [];
    const models = ai.createModels({ authContext: fixedContext({ GOLDEN_KEY: "env-key" }), identity: { originator: "golden", version: "1" } });
    models.setProvider(
      ai.createProvider({
        id: "p",
        auth: keyAuth(ai, ["GOLDEN_KEY"]),
        models: [chatModel("p", "a")],
        api: recordingApi(ai, requests),
      }),
    );
    const model = { ...chatModel("p", "a"), headers: { "X-Model": "m", "x-shared": "model" } };
    const context = { systemPrompt: "S", messages: [USER("u")] };
    await models.complete(model, context);
    await models.completeSimple(model, context, {
      apiKey: "explicit",
      headers: { "X-SHARED": "request" },
      env: { EXTRA: "1" },
      sessionId: "s1",
      transformHeaders: async (headers) => ({ ...headers, transformed: "yes" }),
      identity: { version: "2" },
      maxTokens: 3,
    });
    const streamed = await collect(models.stream(model, context));
    return { requests: stable(requests), streamed };
  });
  add("models.requestFailures", async () => {
    const models = ai.createModels({ authContext: fixedContext({}) });
    models.setProvider(ai.createProvider({ id: "p", auth: keyAuth(ai, ["UNSET"]), models: [], api: recordingApi(ai, []) }));
    models.setProvider(ai.createProvider({ id: "open", auth: { apiKey: { name: "open", resolve: async () => ({ auth: {} }) } }, models: [], api: recordingApi(ai, []) }));
    const controller = new AbortController();
    controller.abort(new Error("caller stopped"));
    const outcomes = {
      notConfigured: await collect(models.stream(chatModel("p", "a"), { messages: [] })),
      unknownProvider: await collect(models.stream(chatModel("nobody", "a"), { messages: [] })),
      notChat: await collect(models.stream({ ...chatModel("p", "a"), type: "image" }, { messages: [] })),
      abortedSetup: await collect(models.streamSimple(chatModel("p", "a"), { messages: [] }, { signal: controller.signal })),
      noDeferred: await collect(models.streamDeferred(chatModel("open", "a"), {})),
      cancelDeferred: await settled(models.cancelDeferred(chatModel("open", "a"), {})),
      images: stable(await models.generateImages(chatModel("open", "a"), { prompt: "p" })),
      imagesUnsupported: stable(await models.generateImages({ ...chatModel("open", "a"), type: "image" }, { prompt: "p" })),
      classify: stable(await models.classify(chatModel("open", "a"), {})),
      classifyImages: stable(await models.classify({ ...chatModel("open", "a"), type: "classifier" }, { images: [{}] })),
      classifyUnsupported: stable(await models.classify({ ...chatModel("open", "a"), type: "classifier", input: ["text", "image"] }, {})),
      abortedImages: stable(await models.generateImages(chatModel("open", "a"), {}, { signal: controller.signal })),
    };
    return outcomes;
  });
  add("models.auth", async () => {
    const models = ai.createModels({ authContext: fixedContext({ FIRST: "", SECOND: "second-key" }) });
    models.setProvider(ai.createProvider({ id: "p", name: "Pee", auth: keyAuth(ai, ["FIRST", "SECOND"]), models: [chatModel("p", "a")], api: recordingApi(ai, []) }));
    models.setProvider(ai.createProvider({ id: "none", auth: {}, models: [chatModel("none", "b")], api: recordingApi(ai, []) }));
    const prompts = [];
    const interaction = { signal: new AbortController().signal, prompt: async (request) => (prompts.push(request), "typed-key") };
    const steps = {};
    steps.fromEnv = await models.getAuth("p");
    steps.check = await models.checkAuth("p");
    steps.checkNone = await models.checkAuth("none");
    steps.checkUnknown = await models.checkAuth("unknown");
    steps.withModelHeaders = await models.getAuth({ ...chatModel("p", "a"), headers: { A: "1" } });
    steps.explicit = await models.getAuth("p", { apiKey: "given", env: { E: "1" } });
    steps.available = (await models.getAvailable()).map((model) => model.id);
    steps.login = await models.login("p", "apiKey", interaction);
    steps.prompts = prompts;
    steps.stored = await models.getAuth("p");
    steps.storedWithEnv = await models.getAuth("p", { env: { E: "2" } });
    steps.list = await models.credentials.list();
    steps.oauthLogin = await settled(models.login("p", "oauth", interaction));
    steps.unknownLogin = await settled(models.login("unknown", "apiKey", interaction));
    await models.logout("p");
    steps.afterLogout = await models.getAuth("p");
    return stable(steps);
  });
  add("models.oauth", async () => {
    const credentials = new ai.InMemoryCredentialStore();
    const models = ai.createModels({ credentials, authContext: fixedContext({}) });
    const refreshed = [];
    const oauth = {
      name: "Golden OAuth",
      refresh: async (credential) => {
        refreshed.push(credential.access);
        return { ...credential, access: `${credential.access}+`, expires: Date.now() + 3_600_000 };
      },
      toAuth: async (credential) => ({ apiKey: credential.access }),
    };
    models.setProvider(ai.createProvider({ id: "o", auth: { oauth }, models: [chatModel("o", "a")], api: recordingApi(ai, []) }));
    await credentials.modify("o", async () => ({ type: "oauth", access: "old", refresh: "r", expires: Date.now() + 1000 }));
    const soon = await models.getAuth("o");
    const fresh = await models.getAuth("o");
    const check = await models.checkAuth("o");
    const tooShort = await settled(models.getAuth("o", { minOAuthValidityMs: 7_200_000 }));
    return { soon, fresh, check, refreshed, tooShort };
  });
  add("models.refresh", async () => {
    const modelsStore = new ai.InMemoryModelsStore();
    const fetches = [];
    const source = (id) =>
      ai.createProvider({
        id,
        auth: keyAuth(ai, ["GOLDEN_KEY"]),
        models: [chatModel(id, "base"), chatModel(id, "replaced")],
        api: recordingApi(ai, []),
        fetchModels: async (context) => {
          fetches.push({ id, allowNetwork: context.allowNetwork, credential: context.credential, stored: context.stored !== undefined });
          if (id === "failing") throw new Error("source down");
          return [chatModel(id, "replaced", { name: "new name" }), chatModel(id, "fetched"), { ...chatModel(id, "future"), type: "video" }];
        },
      });
    const first = ai.createModels({ modelsStore, authContext: fixedContext({ GOLDEN_KEY: "k" }) });
    for (const id of ["p", "failing"]) first.setProvider(source(id));
    first.setProvider(ai.createProvider({ id: "static", auth: {}, models: [], api: recordingApi(ai, []) }));
    const offline = await first.refresh({ allowNetwork: false });
    const afterOffline = first.getModels("p").map((model) => model.name);
    const online = await first.refresh();
    const afterOnline = first.getAllModels("p").map((model) => model.name);
    const stored = await modelsStore.read("p");
    const second = ai.createModels({ modelsStore, authContext: fixedContext({}) });
    second.setProvider(source("p"));
    const restored = await second.refresh({ providers: ["p"] });
    const controller = new AbortController();
    controller.abort();
    const aborted = await second.refresh({ signal: controller.signal });
    return stable({
      offline,
      afterOffline,
      online: { aborted: online.aborted, errors: [...online.errors].map(([id, error]) => [id, error.message]) },
      afterOnline,
      stored,
      restored,
      restoredModels: second.getModels("p").map((model) => model.name),
      aborted,
      fetches,
    });
  });
}

// --- the stores -----------------------------------------------------------------

function addStoreCases(add, ai) {
  add("stores.credentials", async () => {
    const store = new ai.InMemoryCredentialStore();
    const steps = [];
    steps.push(await store.read("p"));
    steps.push(await store.modify("p", async (current) => ({ type: "api_key", key: `k${current === undefined}` })));
    steps.push(await store.modify("p", () => undefined));
    steps.push(await store.modify("q", async () => ({ type: "oauth", access: "a" })));
    steps.push(await store.list());
    const order = [];
    await Promise.all([
      store.modify("p", async (current) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push("slow");
        return { ...current, key: "slow" };
      }),
      store.modify("p", async (current) => {
        order.push(`fast saw ${current.key}`);
        return current;
      }),
    ]);
    steps.push(order);
    const controller = new AbortController();
    controller.abort();
    steps.push(await settled(store.modify("p", async () => ({ type: "api_key", key: "never" }), { signal: controller.signal })));
    steps.push(await settled(store.read("p", { signal: controller.signal })));
    steps.push(await settled(store.modify("p", async () => {
      throw new Error("modify failed");
    })));
    steps.push(await store.delete("p"));
    steps.push(await store.list());
    return { steps: stable(steps).map((step) => (step?.rejected?.name === "AbortError" ? "<aborted>" : step)), keys: Object.keys(store) };
  });
  add("stores.models", async () => {
    const store = new ai.InMemoryModelsStore();
    const entry = { models: [{ id: "m" }], checkedAt: 5 };
    await store.write("p", entry);
    entry.models.push({ id: "later" });
    const read = await store.read("p");
    read.models.length = 0;
    const again = await store.read("p");
    await store.delete("p");
    const controller = new AbortController();
    controller.abort();
    return {
      again,
      afterDelete: await store.read("p"),
      keys: Object.keys(store),
      aborted: (await settled(store.write("p", entry, { signal: controller.signal }))).rejected?.name,
    };
  });
}

// --- auth helpers -------------------------------------------------------------------

function addAuthCases(add, ai) {
  add("auth.defaultContext", async () => {
    const context = ai.defaultProviderAuthContext();
    const saved = { set: process.env.PIHOST_GOLDEN_SET, blank: process.env.PIHOST_GOLDEN_BLANK };
    process.env.PIHOST_GOLDEN_SET = "value";
    process.env.PIHOST_GOLDEN_BLANK = "   ";
    delete process.env.PIHOST_GOLDEN_UNSET;
    try {
      return {
        keys: Object.keys(context),
        set: await context.env("PIHOST_GOLDEN_SET"),
        blank: await context.env("PIHOST_GOLDEN_BLANK"),
        unset: await context.env("PIHOST_GOLDEN_UNSET"),
        root: await context.fileExists("/"),
        home: await context.fileExists("~"),
        missing: await context.fileExists("/pihost-golden-no-such-file"),
        notAPath: await context.fileExists(undefined),
      };
    } finally {
      for (const [name, value] of [
        ["PIHOST_GOLDEN_SET", saved.set],
        ["PIHOST_GOLDEN_BLANK", saved.blank],
      ]) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
  add("auth.envApiKeyAuth", async () => {
    const auth = ai.envApiKeyAuth("Golden API key", ["ONE", "TWO"]);
    const signal = new AbortController().signal;
    const ctx = fixedContext({ TWO: "two" });
    const prompts = [];
    const aborted = new AbortController();
    aborted.abort();
    return stable({
      keys: Object.keys(auth),
      name: auth.name,
      stored: await auth.resolve({ ctx, credential: { type: "api_key", key: "k", env: { A: "1" } }, signal }),
      storedEmpty: await auth.resolve({ ctx, credential: { type: "api_key", key: "" }, signal }),
      fromEnv: await auth.resolve({ ctx, signal }),
      none: await auth.resolve({ ctx: fixedContext({}), signal }),
      login: await auth.login({ signal, prompt: async (request) => (prompts.push(request), "typed") }),
      prompts,
      abortedResolve: (await settled(auth.resolve({ ctx, signal: aborted.signal }))).rejected?.name,
      abortedLogin: (await settled(auth.login({ signal: aborted.signal, prompt: async () => "x" }))).rejected?.name,
    });
  });
  add("auth.lazyOAuth", async () => {
    let loads = 0;
    const calls = [];
    const oauth = ai.lazyOAuth({
      name: "Lazy",
      isSubscription: true,
      load: async () => {
        loads++;
        return {
          login: async (interaction, options) => (calls.push(["login", interaction, options]), { type: "oauth" }),
          refresh: async (credential, signal) => (calls.push(["refresh", credential, signal === undefined]), credential),
          toAuth: async (credential) => (calls.push(["toAuth", credential]), { apiKey: "a" }),
        };
      },
    });
    const before = loads;
    const results = [await oauth.login("i", "o"), await oauth.refresh({ access: "x" }), await oauth.toAuth({ access: "y" })];
    const failing = ai.lazyOAuth({ name: "F", load: async () => { throw new Error("cannot load"); } });
    return { keys: Object.keys(oauth), oauth: stable(oauth), before, loads, results, calls, failing: await settled(failing.toAuth({})) };
  });
}

// --- lazy streams ----------------------------------------------------------------

function addLazyCases(add, ai) {
  const model = chatModel("p", "lazy");
  add("lazy.stream", async () => {
    const observed = [];
    const observer = { onEvent: (event) => observed.push(event.type), onResult: (result) => observed.push(`result:${result.stopReason}`) };
    const ok = await collect(ai.lazyStream(model, async () => recordingApi(ai, []).stream(model, {}, {}), observer));
    const failed = await collect(
      ai.lazyStream(model, async () => {
        throw new Error("setup failed");
      }, observer),
    );
    const controller = new AbortController();
    controller.abort();
    const aborted = await collect(ai.lazyStream(model, async () => Promise.reject("plain reason"), undefined, controller.signal));
    // A source that is only iterable: its last done or error event is the result.
    const iterable = await collect(
      ai.lazyStream(model, async () => ({
        async *[Symbol.asyncIterator]() {
          yield { type: "start" };
          yield { type: "error", reason: "error", error: { role: "assistant", stopReason: "error", errorMessage: "e" } };
        },
      })),
    );
    return { ok, failed, aborted, iterable, observed };
  });
  add("lazy.api", async () => {
    let loads = 0;
    const implementation = recordingApi(ai, []);
    const load = async () => {
      loads++;
      return implementation;
    };
    const plain = ai.lazyApi(load);
    const capable = ai.lazyApi(load, { fetchDeferred: true, cancelDeferred: true });
    const results = [
      (await plain.stream(model, {}).result()).content,
      (await plain.streamSimple(model, {}).result()).content,
      stable(await capable.fetchDeferred(model, {}).result()),
      await settled(capable.cancelDeferred(model, {})),
    ];
    const failing = ai.lazyApi(async () => {
      throw new Error("module missing");
    });
    return { plainKeys: Object.keys(plain), capableKeys: Object.keys(capable), results, loads, failing: stable(await failing.stream(model, {}).result()) };
  });
}

// --- ModelsError and telemetry ------------------------------------------------------

function addErrorAndTelemetryCases(add, ai, aiModels) {
  add("modelsError.shape", () => {
    const plain = new ai.ModelsError("auth", "No key");
    const caused = new ai.ModelsError("oauth", "Refresh failed", { cause: new Error("token revoked") });
    const included = new ai.ModelsError("stream", "Failed: boom", { cause: "boom" });
    const nameless = new ai.ModelsError("provider", "Odd", { cause: Object.assign(new Error(""), { name: "Weird" }) });
    const blank = new ai.ModelsError("provider", "Blank", { cause: "   " });
    const nullCause = new ai.ModelsError("provider", "Null", { cause: null });
    return {
      sameClass: aiModels.ModelsError === ai.ModelsError,
      isError: plain instanceof Error,
      errors: [plain, caused, included, nameless, blank, nullCause].map((error) => ({
        name: error.name,
        code: error.code,
        message: error.message,
        keys: Object.keys(error),
        hasCause: Object.hasOwn(error, "cause"),
      })),
      causeKept: caused.cause.message,
    };
  });
  add("telemetry.schema", () => ({ schema: ai.AI_TELEMETRY_SCHEMA, same: aiModels.AI_TELEMETRY_SCHEMA === ai.AI_TELEMETRY_SCHEMA }));
  add("telemetry.observed", async () => {
    const log = [];
    const instrument = (kind, name) => ({
      add: (value, attributes) => log.push([kind, name, value, attributes]),
      record: (value, attributes) => log.push([kind, name, typeof value, attributes]),
    });
    const metrics = {
      counter: (name, definition) => (log.push(["counter", name, definition.unit]), instrument("counter", name)),
      histogram: (name, definition) => (log.push(["histogram", name, definition.unit]), instrument("histogram", name)),
      upDownCounter: (name) => instrument("upDownCounter", name),
    };
    const span = {
      addEvent: (name, attributes) => log.push(["event", name, attributes]),
      setAttributes: (attributes) => log.push(["attributes", attributes]),
      setStatus: (status) => log.push(["status", status]),
    };
    const telemetry = {
      metrics,
      startSpan: (options, run) => {
        log.push(["span", options]);
        return run(span).then(() => log.push(["spanEnded", options.name]));
      },
    };
    const faux = ai.fauxProvider({ api: "pihost-golden-faux", tokenSize: EIGHT_CHARS });
    const models = ai.createModels();
    models.setProvider(faux.provider);
    faux.setResponses([RICH(ai), ai.fauxAssistantMessage("bad", { stopReason: "error", errorMessage: "x".repeat(600), timestamp: 1 })]);
    await models.complete(faux.getModel(), { messages: [USER("q")] }, { telemetry, reasoning: "high" });
    // The first request's span ends a few promise turns after complete()
    // settles, and engines take those turns apart differently: let it end.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await models.complete(faux.getModel(), { messages: [] }, { telemetry });
    await new Promise((resolve) => setTimeout(resolve, 0));
    return stable(log).map((entry) => (entry[0] === "status" ? ["status", entry[1].status, entry[1].error.name, entry[1].error.message.length] : entry));
  });
}

// --- session cleanups and the images registry --------------------------------------

function addRegistryCases(add, ai) {
  add("sessionResources.cleanup", () => {
    const calls = [];
    const removeA = ai.registerSessionResourceCleanup((id) => calls.push(`a:${id}`));
    const removeB = ai.registerSessionResourceCleanup((id) => {
      calls.push(`b:${id}`);
      throw new Error("b failed");
    });
    const removeC = ai.registerSessionResourceCleanup((id) => {
      calls.push(`c:${id}`);
      throw "c failed";
    });
    let thrown;
    try {
      ai.cleanupSessionResources("s1");
    } catch (error) {
      thrown = { name: error.name, message: error.message, errors: error.errors.map(String), isAggregate: error instanceof AggregateError };
    }
    removeB();
    removeC();
    const second = ai.cleanupSessionResources("s2");
    removeA();
    removeA();
    ai.cleanupSessionResources("s3");
    return { calls, thrown, second: second === undefined ? "<undefined>" : second, removeReturns: removeA() === undefined };
  });
  add("imagesRegistry.lookups", async () => ({
    unknown: ai.getImagesApiProvider("pihost-golden-no-images"),
    generate: await settled(ai.generateImages(chatModel("p", "img"), { prompt: "x" })),
  }));
}
