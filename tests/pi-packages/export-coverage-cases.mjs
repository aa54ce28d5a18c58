// Cases for exports that no other case calls by name: pi-ai's Anthropic
// environment names, its transcript helpers, the api factories, the images
// registry and resetApiProviders, and pi-ai/providers/all's
// getBuiltinProviders (for the pi-ai table, pi-ai-cases.mjs); TypeBox's
// guards, patterns, deferred types, actions and instantiations, Value's
// CreateError and ParseError, and pi-coding-agent's constants, getAgentDir
// and image helpers (for the pi-packages table, pi-packages-cases.mjs).
// copyToClipboard is left out: it may write OSC 52 to standard output,
// where the recorder writes the goldens. Each case checks a name the way an
// extension would notice it: a constant by its value, a function over
// representative, empty and malformed inputs, a registry by what
// registering changes, with the state put back for later cases.
import os from "node:os";
import {
  anthropicEnd,
  anthropicStart,
  anthropicText,
  chunk,
  completionsReply,
  exchange,
  finish,
  googleChunk,
  googleReply,
  pieces,
  responseObject,
  responsesMessage,
  SIMPLE,
  SSE_HEADERS,
  sseReply,
} from "./pi-ai-provider-cases.mjs";
import { withProcessEnv } from "./pi-ai-builtin-provider-cases.mjs";

/** What running `run` gives: its value, or the error it threw as name and message. */
function caught(run) {
  try {
    const value = run();
    return value === undefined ? "<undefined>" : value;
  } catch (error) {
    return { thrown: error?.name, message: String(error?.message ?? error) };
  }
}

/**
 * What running `run` gives, an error shown by its class only: for inputs
 * where the engine itself throws, whose words differ between V8 and
 * pihost's QuickJS ("x is not iterable", docs/engine-notes.md note 37).
 */
function caughtClass(run) {
  try {
    const value = run();
    return value === undefined ? "<undefined>" : value;
  } catch (error) {
    return { thrown: error?.name };
  }
}

// --- pi-ai --------------------------------------------------------------------------

const TOOL = (name, description = `${name} tool`) => ({ name, description, parameters: { type: "object", properties: {} } });
const user = (text, timestamp) => ({ role: "user", content: text, timestamp });
const system = (fields, timestamp) => ({ role: "system", content: "", ...fields, timestamp });

/** A transcript whose system messages change the prompt, its sections and the tools along the way. */
const TRANSCRIPT = () => [
  system({ content: "Base prompt.", sections: { rules: "Be terse.", style: "Plain." }, toolsAdded: [TOOL("read"), TOOL("bash")] }, 10),
  user("first", 11),
  system({ content: [{ type: "text", text: "Later note." }], sections: { style: null, extra: "Extra section." }, toolsRemoved: [{ name: "bash" }], toolsAdded: [TOOL("edit")] }, 12),
  user("second", 13),
  system({ content: "", toolsAdded: [TOOL("read", "read tool, redefined")] }, 14),
];

const ANTHROPIC_ENV_NAMES = [
  "ANTHROPIC_API_KEY_ENV",
  "ANTHROPIC_AUTH_TOKEN_ENV",
  "ANTHROPIC_FEDERATION_RULE_ID_ENV",
  "ANTHROPIC_IDENTITY_TOKEN_FILE_ENV",
  "ANTHROPIC_OAUTH_TOKEN_ENV",
  "ANTHROPIC_ORGANIZATION_ID_ENV",
  "ANTHROPIC_SERVICE_ACCOUNT_ID_ENV",
  "ANTHROPIC_WORKSPACE_ID_ENV",
];

const API_FACTORIES = [
  "anthropicMessagesApi",
  "azureOpenAIResponsesApi",
  "googleGenerativeAIApi",
  "googleVertexApi",
  "mistralConversationsApi",
  "openAICodexResponsesApi",
  "openAICompletionsApi",
  "openAIResponsesApi",
];

function base64Url(text) {
  return btoa(text).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
}

/** A ChatGPT sign-in token (unsigned: pi only reads its claims). */
function chatGPTToken() {
  const claims = { "https://api.openai.com/auth": { chatgpt_account_id: "acct-export" }, exp: 4102444800 };
  return `${base64Url(JSON.stringify({ alg: "none" }))}.${base64Url(JSON.stringify(claims))}.sig`;
}

/** SSE with data lines only, as OpenAI-style and Codex servers send it. */
function dataReply(events) {
  const text = [...events.map((event) => `data: ${JSON.stringify(event)}\n\n`), "data: [DONE]\n\n"].join("");
  return { status: 200, headers: SSE_HEADERS, chunks: pieces(text, 45) };
}

const responsesAnswer = (text) => [
  { type: "response.created", response: responseObject("in_progress", { usage: null }) },
  ...responsesMessage(0, "msg_export", [text]),
  { type: "response.completed", response: responseObject("completed") },
];

// Vertex reads Google's credentials from the process environment; none are seen.
const GOOGLE_ENV = [
  "GOOGLE_VERTEX_BASE_URL",
  "GOOGLE_APPLICATION_CREDENTIALS",
  "GOOGLE_CLOUD_QUOTA_PROJECT",
  "GOOGLE_CLOUD_PROJECT",
  "GOOGLE_CLOUD_LOCATION",
  "GOOGLE_API_KEY",
  "GEMINI_API_KEY",
  "METADATA_SERVER_DETECTION",
  "GCE_METADATA_HOST",
  "GCE_METADATA_IP",
  "CLOUD_RUN_JOB",
  "FUNCTION_NAME",
  "K_SERVICE",
];

/**
 * Per api factory: a catalog model, the options that authenticate it and
 * a canned reply with one text answer, in the vendor's wire format.
 */
function apiExchanges(ai) {
  return {
    anthropicMessagesApi: {
      model: () => ai.getModel("anthropic", "claude-sonnet-4-5"),
      options: { apiKey: "sk-ant-export" },
      reply: () => sseReply([anthropicStart(), ...anthropicText(0, ["from anthropic"]), ...anthropicEnd()]),
    },
    azureOpenAIResponsesApi: {
      model: () => ai.getModel("azure", "chat-latest"),
      options: { apiKey: "az-export" },
      reply: () => sseReply(responsesAnswer("from azure")),
    },
    googleGenerativeAIApi: {
      model: () => ai.getModel("google", "gemini-2.5-flash"),
      options: { apiKey: "g-export" },
      reply: () => googleReply([googleChunk([{ text: "from google" }], { candidates: [{ content: { role: "model", parts: [{ text: "from google" }] }, finishReason: "STOP", index: 0 }] })]),
    },
    googleVertexApi: {
      model: () => ai.getModel("google-vertex", "gemini-2.5-flash"),
      options: { apiKey: "v-export" },
      reply: () => googleReply([googleChunk([{ text: "from vertex" }], { candidates: [{ content: { role: "model", parts: [{ text: "from vertex" }] }, finishReason: "STOP", index: 0 }] })]),
    },
    mistralConversationsApi: {
      model: () => ai.getModel("mistral", "mistral-large-latest"),
      options: { apiKey: "m-export" },
      reply: () => dataReply([{ id: "cmpl-m1", object: "chat.completion.chunk", model: "mistral-x", choices: [{ index: 0, delta: { role: "assistant", content: "from mistral" }, finish_reason: "stop" }] }]),
    },
    openAICodexResponsesApi: {
      model: () => ai.getModel("openai-codex", "gpt-5.6-luna"),
      options: { apiKey: chatGPTToken(), transport: "sse" },
      reply: () => dataReply(responsesAnswer("from codex")),
    },
    openAICompletionsApi: {
      model: () => ai.getModel("groq", "llama-3.1-8b-instant"),
      options: { apiKey: "c-export" },
      reply: () => completionsReply([chunk({ role: "assistant", content: "from completions" }), finish("stop")]),
    },
    openAIResponsesApi: {
      model: () => ai.getModel("openai", "gpt-4o-mini"),
      options: { apiKey: "sk-export" },
      reply: () => sseReply(responsesAnswer("from responses")),
    },
  };
}

/** Adds the pi-ai cases; `ai` is the pi-ai root, `aiProviders` pi-ai/providers/all. */
export function addPiAiExportCoverageCases(add, { ai, aiProviders }) {
  // --- Anthropic's environment variable names ---------------------------------------
  add("pi-ai exports: the ANTHROPIC_*_ENV constants by value", () => Object.fromEntries(ANTHROPIC_ENV_NAMES.map((name) => [name, ai[name]])));
  add("pi-ai exports: getEnvApiKey for anthropic reads the variables the ANTHROPIC_*_ENV constants name", () => {
    const all = Object.fromEntries(ANTHROPIC_ENV_NAMES.map((name) => [ai[name], `value of ${ai[name]}`]));
    const without = (...names) => Object.fromEntries(Object.entries(all).filter(([key]) => !names.map((name) => ai[name]).includes(key)));
    return {
      all: ai.getEnvApiKey("anthropic", all),
      noAuthToken: ai.getEnvApiKey("anthropic", without("ANTHROPIC_AUTH_TOKEN_ENV")),
      apiKeyOnly: ai.getEnvApiKey("anthropic", { [ai.ANTHROPIC_API_KEY_ENV]: "k" }),
      authTokenOnly: ai.getEnvApiKey("anthropic", { [ai.ANTHROPIC_AUTH_TOKEN_ENV]: "t" }),
      none: ai.getEnvApiKey("anthropic", {}),
    };
  });

  // --- contentText and getSystemMessageText ---------------------------------------
  add("pi-ai exports: contentText of strings, block lists and custom separators", () => [
    ai.contentText("plain"),
    ai.contentText(""),
    ai.contentText([]),
    ai.contentText([{ type: "text", text: "a" }, { type: "image", data: "x", mimeType: "image/png" }, { type: "thinking", thinking: "t" }, { type: "text", text: "b" }]),
    ai.contentText([{ type: "text", text: "a" }, { type: "text", text: "" }, { type: "text", text: "c" }], " | "),
    ai.contentText([{ type: "text", text: "only" }], ""),
    ai.contentText("string ignores the separator", "-"),
  ]);
  add("pi-ai exports: contentText of missing and malformed content", () => [
    caught(() => ai.contentText(undefined)),
    caught(() => ai.contentText(null)),
    caught(() => ai.contentText([{ type: "text" }, { text: "no type" }])),
    caughtClass(() => ai.contentText(42)),
  ]);
  add("pi-ai exports: getSystemMessageText joins content and sections, skipping empty and removed ones", () => [
    ai.getSystemMessageText({ role: "system", content: "Base.", sections: { a: "Section A.", gone: null, empty: "", b: "Section B." }, timestamp: 0 }),
    ai.getSystemMessageText({ role: "system", content: [{ type: "text", text: "x" }, { type: "text", text: "y" }], timestamp: 0 }),
    ai.getSystemMessageText({ role: "system", content: "", sections: { only: "Only a section." }, timestamp: 0 }),
    ai.getSystemMessageText({ role: "system", content: "", timestamp: 0 }),
    caught(() => ai.getSystemMessageText({ role: "system", timestamp: 0 })),
  ]);

  // --- the transcript's system messages -----------------------------------------------
  add("pi-ai exports: createInitialSystemMessage of prompts and tool lists, empty ones included", () => [
    ai.createInitialSystemMessage("You are terse.", [TOOL("read")]),
    ai.createInitialSystemMessage("Prompt only."),
    ai.createInitialSystemMessage(undefined, [TOOL("bash")]),
    ai.createInitialSystemMessage("", [TOOL("bash")]),
    ai.createInitialSystemMessage("", []),
    ai.createInitialSystemMessage(undefined, undefined),
    ai.createInitialSystemMessage("Prompt.", []),
  ]);
  add("pi-ai exports: getInitialSystemMessage and withoutInitialSystemMessage of leading, later and no system messages", () => {
    const leading = [system({ content: "S" }, 1), user("u", 2)];
    const later = [user("u", 1), system({ content: "S" }, 2)];
    const empty = [];
    return {
      leading: [ai.getInitialSystemMessage(leading), ai.withoutInitialSystemMessage(leading)],
      later: [ai.getInitialSystemMessage(later) ?? "<none>", ai.withoutInitialSystemMessage(later) === later],
      empty: [ai.getInitialSystemMessage(empty) ?? "<none>", ai.withoutInitialSystemMessage(empty) === empty],
      twoLeading: ai.withoutInitialSystemMessage([system({ content: "A" }, 1), system({ content: "B" }, 2)]),
      notCopied: ai.withoutInitialSystemMessage(leading) !== leading && leading.length === 2,
      missing: [caught(() => ai.getInitialSystemMessage(undefined)), caught(() => ai.withoutInitialSystemMessage(null))],
    };
  });
  add("pi-ai exports: getCurrentTools after additions, removals and a redefinition", () => ({
    transcript: ai.getCurrentTools(TRANSCRIPT()),
    none: ai.getCurrentTools([user("u", 1)]),
    empty: ai.getCurrentTools([]),
    removeUnknown: ai.getCurrentTools([system({ toolsRemoved: [{ name: "never-added" }] }, 1)]),
    removedThenAdded: ai.getCurrentTools([system({ toolsAdded: [TOOL("a"), TOOL("b")] }, 1), system({ toolsRemoved: [{ name: "a" }], toolsAdded: [TOOL("a", "again")] }, 2)]).map((tool) => [tool.name, tool.description]),
  }));
  add("pi-ai exports: getCurrentSystemMessage of a transcript with several system messages", () => ai.getCurrentSystemMessage(TRANSCRIPT()));
  add("pi-ai exports: getCurrentSystemMessage of transcripts without prompt text or without system messages", () => ({
    none: ai.getCurrentSystemMessage([user("u", 1)]) ?? "<none>",
    empty: ai.getCurrentSystemMessage([]) ?? "<none>",
    emptySystem: ai.getCurrentSystemMessage([system({}, 5)]),
    toolsOnly: ai.getCurrentSystemMessage([system({ toolsAdded: [TOOL("t")] }, 7)]),
    sectionRemovedAgain: ai.getCurrentSystemMessage([system({ sections: { a: "A" } }, 1), system({ sections: { a: null } }, 2)]),
    allToolsRemoved: ai.getCurrentSystemMessage([system({ content: "p", toolsAdded: [TOOL("t")] }, 3), system({ toolsRemoved: [{ name: "t" }] }, 4)]),
    noTimestamp: ai.getCurrentSystemMessage([{ role: "system", content: "no time" }]),
    fromASet: ai.getCurrentSystemMessage(new Set(TRANSCRIPT())),
    toolsFromASet: ai.getCurrentTools(new Set(TRANSCRIPT())).map((tool) => tool.name),
    missing: [caughtClass(() => ai.getCurrentSystemMessage(undefined)), caughtClass(() => ai.getCurrentTools(null)), caughtClass(() => ai.getCurrentSystemPrompt(5))],
    malformedMessage: caught(() => ai.getCurrentSystemMessage([null])),
  }));
  add("pi-ai exports: getCurrentSystemPrompt of the replayed system messages", () => ({
    transcript: ai.getCurrentSystemPrompt(TRANSCRIPT()),
    none: ai.getCurrentSystemPrompt([user("u", 1)]),
    toolsOnly: ai.getCurrentSystemPrompt([system({ toolsAdded: [TOOL("t")] }, 1)]),
    sectionsOnly: ai.getCurrentSystemPrompt([system({ sections: { b: "B.", a: "A." } }, 1), system({ sections: { b: "B2." } }, 2)]),
  }));
  add("pi-ai exports: collapseSystemMessages moves the replayed system message to the front", () => {
    const withoutSystem = { messages: [user("u", 1)] };
    const collapsedWithout = ai.collapseSystemMessages(withoutSystem);
    return {
      transcript: ai.collapseSystemMessages({ messages: TRANSCRIPT() }),
      withoutSystem: collapsedWithout,
      freshObject: collapsedWithout !== withoutSystem && collapsedWithout.messages !== withoutSystem.messages,
      empty: ai.collapseSystemMessages({ messages: [] }),
      dropsOtherFields: ai.collapseSystemMessages({ messages: [system({ content: "s" }, 1)], systemPrompt: "ignored", tools: [TOOL("x")] }),
      missingMessages: caughtClass(() => ai.collapseSystemMessages({})),
    };
  });

  // --- the api factories --------------------------------------------------------------
  add("pi-ai exports: the api factories make a fresh object of stream functions", () =>
    Object.fromEntries(
      API_FACTORIES.map((name) => {
        const first = ai[name]();
        const second = ai[name]();
        return [name, { keys: Object.keys(first), types: Object.values(first).map((item) => typeof item), fresh: first !== second && first.stream !== second.stream }];
      }),
    ),
  );
  const exchanges = apiExchanges(ai);
  for (const name of API_FACTORIES) {
    for (const kind of ["stream", "streamSimple"]) {
      add(`pi-ai exports: ${name}().${kind} answers a text reply from a local server`, () =>
        withProcessEnv(GOOGLE_ENV, {}, () => {
          const { model, options, reply } = exchanges[name];
          const exchanged = exchange([reply()], (url) => {
            const stream = ai[name]()[kind]({ ...model(), baseUrl: url }, ai.normalizeContext(SIMPLE), options);
            // The stream is there at once; the implementation is loaded behind it.
            if (typeof stream?.[Symbol.asyncIterator] !== "function") throw new Error("not a stream");
            return stream;
          });
          // Codex bodies are zstd-compressed, whose bytes differ between compressors;
          // pi-ai-codex-cases.mjs compares them decompressed.
          if (name !== "openAICodexResponsesApi") return exchanged;
          return exchanged.then((result) => ({ ...result, requests: result.requests.map((request) => ({ ...request, body: "<zstd>" })) }));
        }),
      );
    }
  }

  // --- the images registry ------------------------------------------------------------
  add("pi-ai exports: registerImagesApiProvider registers, checks the api and replaces", async () => {
    const api = "pihost-export-images";
    const calls = [];
    const imageModel = (modelApi = api) => ({ id: "painter", name: "Painter", api: modelApi, provider: "export-images", baseUrl: "", output: ["image"] });
    const before = ai.getImagesApiProvider(api);
    ai.registerImagesApiProvider(
      {
        api,
        generateImages: async (model, context, options) => {
          calls.push({ model: model.id, context, options });
          return { api: model.api, provider: model.provider, model: model.id, output: [], stopReason: "stop", timestamp: 0 };
        },
        extra: "dropped",
      },
      "pihost-export-source",
    );
    const registered = ai.getImagesApiProvider(api);
    const generated = await ai.generateImages(imageModel(), { input: [{ type: "text", text: "a cat" }] }, { apiKey: "k" });
    const direct = await registered.generateImages(imageModel(), { input: [] });
    const mismatch = caught(() => registered.generateImages(imageModel("other-images"), { input: [] }));
    ai.registerImagesApiProvider({ api, generateImages: async () => "replaced" });
    const replaced = await ai.generateImages(imageModel(), { input: [] });
    // The registry has no removal: the entry points at a provider that refuses, so nothing later can use it.
    ai.registerImagesApiProvider({
      api,
      generateImages: async () => {
        throw new Error("pihost-export-images is retired");
      },
    });
    let retired;
    try {
      await ai.generateImages(imageModel(), { input: [] });
    } catch (error) {
      retired = error.message;
    }
    return { before: before ?? "<none>", keys: Object.keys(registered), api: registered.api, calls, generated, direct, mismatch, replaced, retired, unknown: ai.getImagesApiProvider("pihost-export-never") ?? "<none>" };
  });

  // --- resetApiProviders ----------------------------------------------------------------
  add("pi-ai exports: resetApiProviders forgets registered providers", () => {
    const api = "pihost-export-reset";
    const provider = (tag) => ({ api, stream: () => tag, streamSimple: () => tag });
    ai.registerApiProvider(provider("one"), "pihost-export-a");
    ai.registerApiProvider({ ...provider("two"), api: `${api}-2` });
    const before = [ai.getApiProvider(api)?.stream({ api }), ai.getApiProvider(`${api}-2`)?.stream({ api: `${api}-2` })];
    ai.resetApiProviders();
    const after = [ai.getApiProvider(api) ?? "<none>", ai.getApiProvider(`${api}-2`) ?? "<none>"];
    const registeredAgain = (ai.registerApiProvider(provider("three")), ai.getApiProvider(api).stream({ api }));
    // pi registers its built-in apis again on reset, with no source id; they go with the others registered without one.
    ai.unregisterApiProviders(undefined);
    return { before, after, registeredAgain, left: ai.getApiProviders().map((entry) => entry.api).filter((name) => name.startsWith("pihost-export")) };
  });

  // --- pi-ai/providers/all ---------------------------------------------------------------
  add("pi-ai exports: getBuiltinProviders lists the catalog's providers", () => {
    const providers = aiProviders.getBuiltinProviders();
    return {
      providers,
      fresh: providers !== aiProviders.getBuiltinProviders(),
      sameAsGetProviders: JSON.stringify(providers) === JSON.stringify(ai.getProviders()),
      everyHasModels: providers.every((provider) => aiProviders.getBuiltinModels(provider).length > 0),
    };
  });
}

// --- TypeBox, Value and pi-coding-agent ---------------------------------------------

const TYPE_GUARDS = [
  "IsAny",
  "IsArray",
  "IsBigInt",
  "IsBoolean",
  "IsCyclic",
  "IsEnum",
  "IsInteger",
  "IsIntersect",
  "IsNever",
  "IsNull",
  "IsNumber",
  "IsReadonly",
  "IsRecord",
  "IsRef",
  "IsSymbol",
  "IsTemplateLiteral",
  "IsTuple",
  "IsUndefined",
  "IsUnknown",
  "IsVoid",
];

/** Adds the cases of the pi-packages table; `typebox`, `value` and `agent` are the modules under test. */
export function addExportCoverageCases(add, { typebox, value, agent }) {
  const T = typebox.Type;
  const { Value } = value;
  const state = () => ({ callstack: [], visited: [] });
  const O = () => T.Object({ a: T.String(), b: T.Optional(T.Number()), c: T.Boolean() });

  // --- patterns and InvalidLiteralValue ---------------------------------------------------
  add("typebox exports: IntegerPattern, NumberPattern and StringPattern by value and what they match", () => {
    const samples = ["0", "-0", "12", "-12", "012", "1.5", "-1.50", "1.", ".5", "1e3", "", "abc", " 1"];
    return Object.fromEntries(
      ["IntegerPattern", "NumberPattern", "StringPattern"].map((name) => {
        const pattern = new RegExp(`^(?:${typebox[name]})$`);
        return [name, { value: typebox[name], matches: samples.filter((sample) => pattern.test(sample)) }];
      }),
    );
  });
  add("typebox exports: IntegerPattern and NumberPattern as the keys of Record(Integer) and Record(Number)", () => [
    Object.keys(T.Record(T.Integer(), T.String()).patternProperties ?? {}).map((key) => key.includes(typebox.IntegerPattern)),
    Object.keys(T.Record(T.Number(), T.String()).patternProperties ?? {}).map((key) => key.includes(typebox.NumberPattern)),
    Object.keys(T.Record(T.String(), T.String()).patternProperties ?? {}).map((key) => key.includes(typebox.StringPattern)),
  ]);
  add("typebox exports: InvalidLiteralValue thrown by Literal of values that are not literals", () =>
    [{}, null, [1], () => 1, 1n, Symbol.iterator].map((literal) => {
      try {
        return { built: T.Literal(literal) };
      } catch (error) {
        const descriptor = Object.getOwnPropertyDescriptor(error, "cause");
        return {
          instance: error instanceof typebox.InvalidLiteralValue,
          isError: error instanceof Error,
          name: error.name,
          message: error.message,
          causeKeys: Object.keys(descriptor?.value ?? {}),
          causeIsValue: descriptor?.value?.value === literal,
          causeDescriptor: { enumerable: descriptor?.enumerable, writable: descriptor?.writable, configurable: descriptor?.configurable },
        };
      }
    }),
  );
  add("typebox exports: InvalidLiteralValue constructed directly", () => {
    const error = new typebox.InvalidLiteralValue("the value");
    return { message: error.message, name: error.name, ownKeys: Reflect.ownKeys(error).filter((key) => key !== "stack"), cause: error.cause, noValue: new typebox.InvalidLiteralValue().cause };
  });

  // --- guards ------------------------------------------------------------------------
  const guardSamples = {
    any: () => T.Any(),
    array: () => T.Array(T.String()),
    bigint: () => T.BigInt(),
    boolean: () => T.Boolean(),
    cyclic: () => T.Cyclic({ Node: T.Object({ next: T.Optional(T.Ref("Node")) }) }, "Node"),
    enum: () => T.Enum(["a", "b"]),
    integer: () => T.Integer(),
    intersect: () => T.Intersect([T.Object({ a: T.String() }), T.Object({ b: T.String() })]),
    never: () => T.Never(),
    null: () => T.Null(),
    number: () => T.Number(),
    readonly: () => T.Readonly(T.String()),
    readonlyOptional: () => T.Readonly(T.Optional(T.Number())),
    record: () => T.Record(T.String(), T.Number()),
    ref: () => T.Ref("A"),
    symbol: () => T.Symbol(),
    templateLiteral: () => T.TemplateLiteral("a${string}"),
    tuple: () => T.Tuple([T.String()]),
    undefined: () => T.Undefined(),
    unknown: () => T.Unknown(),
    void: () => T.Void(),
    object: () => O(),
    string: () => T.String(),
    jsonCopy: () => JSON.parse(JSON.stringify(T.Number())),
    handMade: () => ({ "~kind": "Number", type: "number" }),
    handMadeReadonly: () => ({ "~readonly": true }),
    null_: () => null,
    undefined_: () => undefined,
    plainObject: () => ({}),
    plainArray: () => [],
    text: () => "Number",
  };
  add("typebox exports: the Is* guards over every kind of type and over values that are not types", () =>
    Object.fromEntries(TYPE_GUARDS.map((guard) => [guard, Object.entries(guardSamples).filter(([, sample]) => typebox[guard](sample())).map(([name]) => name)])),
  );
  add("typebox exports: IsRefinement of refinement records and of what is not one", () =>
    [
      { check: () => true, error: () => "e" },
      { check: () => true, error: "not a function" },
      { check: () => true },
      { error: () => "e" },
      Object.assign(() => true, { check: () => true, error: () => "e" }),
      Object.assign([], { check: () => true, error: () => "e" }),
      null,
      undefined,
      "check",
      T.Refine(T.Number(), (n) => n > 0)["~refine"]?.[0],
    ].map((item) => typebox.IsRefinement(item)),
  );

  // --- RefineAdd -----------------------------------------------------------------------
  add("typebox exports: RefineAdd adds refinements in order without changing the type it was given", () => {
    const base = T.Number({ minimum: 0 });
    const positive = { check: (n) => n > 0, error: () => "not positive" };
    const even = { check: (n) => n % 2 === 0, error: () => "not even" };
    const once = typebox.RefineAdd(base, positive);
    const twice = typebox.RefineAdd(once, even);
    return {
      base,
      baseUnchanged: !("~refine" in base),
      once: [once["~refine"].length, typebox.IsRefine(once)],
      twice: [twice["~refine"].length, twice["~refine"][0] === positive, twice["~refine"][1] === even, once["~refine"].length],
      checks: [4, 3, -2, 0].map((n) => [n, Value.Check(twice, n), [...Value.Errors(twice, n)].map((error) => error.message)]),
      sameAsRefine: JSON.stringify(T.Refine(T.Number({ minimum: 0 }), positive.check, positive.error)) === JSON.stringify(once),
    };
  });

  // --- deferred types ------------------------------------------------------------------
  add("typebox exports: the *Deferred builders name their action and keep their arguments", () => ({
    AddImmutableDeferred: typebox.AddImmutableDeferred(T.Array(T.String()), { title: "i" }),
    AddReadonlyDeferred: typebox.AddReadonlyDeferred(T.String()),
    ConstructorParametersDeferred: typebox.ConstructorParametersDeferred(T.Ref("C"), { description: "c" }),
    InstanceTypeDeferred: typebox.InstanceTypeDeferred(T.Ref("C")),
    LowercaseDeferred: typebox.LowercaseDeferred(T.Ref("S"), { title: "l" }),
    OmitDeferred: typebox.OmitDeferred(T.Ref("A"), T.Literal("a")),
    PartialDeferred: typebox.PartialDeferred(T.Ref("A"), { title: "p" }),
    PickDeferred: typebox.PickDeferred(T.Ref("A"), T.Union([T.Literal("a"), T.Literal("b")]), { title: "k" }),
    RecordDeferred: typebox.RecordDeferred(T.Ref("K"), T.Number(), { description: "r" }),
    RemoveOptionalDeferred: typebox.RemoveOptionalDeferred(T.Optional(T.String())),
    RemoveReadonlyDeferred: typebox.RemoveReadonlyDeferred(T.Readonly(T.String())),
    RequiredDeferred: typebox.RequiredDeferred(T.Ref("A")),
    UncapitalizeDeferred: typebox.UncapitalizeDeferred(T.Literal("Hello")),
    UppercaseDeferred: typebox.UppercaseDeferred(T.Literal("hello"), { title: "u" }),
  }));
  add("typebox exports: *Deferred types resolved by Instantiate with a context", () => {
    const context = { A: O(), C: T.Constructor([T.String(), T.Number()], T.Object({ made: T.Boolean() })), S: T.Literal("MiXed"), K: T.Union([T.Literal("x"), T.Literal("y")]) };
    return {
      ConstructorParametersDeferred: T.Instantiate(context, typebox.ConstructorParametersDeferred(T.Ref("C"))),
      InstanceTypeDeferred: T.Instantiate(context, typebox.InstanceTypeDeferred(T.Ref("C"))),
      LowercaseDeferred: T.Instantiate(context, typebox.LowercaseDeferred(T.Ref("S"))),
      UncapitalizeDeferred: T.Instantiate(context, typebox.UncapitalizeDeferred(T.Literal("Hello"))),
      UppercaseDeferred: T.Instantiate(context, typebox.UppercaseDeferred(T.Ref("S"))),
      OmitDeferred: T.Instantiate(context, typebox.OmitDeferred(T.Ref("A"), T.Literal("a"))),
      PickDeferred: T.Instantiate(context, typebox.PickDeferred(T.Ref("A"), T.Union([T.Literal("a"), T.Literal("c")]))),
      PartialDeferred: T.Instantiate(context, typebox.PartialDeferred(T.Ref("A"))),
      RequiredDeferred: T.Instantiate(context, typebox.RequiredDeferred(T.Ref("A"))),
      RecordDeferred: T.Instantiate(context, typebox.RecordDeferred(T.Ref("K"), T.Number())),
      AddImmutableDeferred: T.Instantiate(context, typebox.AddImmutableDeferred(T.Array(T.String()))),
      AddReadonlyDeferred: T.Instantiate(context, typebox.AddReadonlyDeferred(T.String())),
      RemoveOptionalDeferred: T.Instantiate(context, typebox.RemoveOptionalDeferred(T.Optional(T.String()))),
      RemoveReadonlyDeferred: T.Instantiate(context, typebox.RemoveReadonlyDeferred(T.Readonly(T.String()))),
      unresolved: T.Instantiate({}, typebox.PartialDeferred(T.Ref("Missing"))),
    };
  });

  // --- actions -------------------------------------------------------------------------
  // TypeBox's actions take their options as given: without them, an action that builds a type throws.
  const noOptions = (name, ...args) => caught(() => typebox[name](...args));
  add("typebox exports: the intrinsic string actions over literals, unions, template literals and refs", () =>
    Object.fromEntries(
      ["CapitalizeAction", "LowercaseAction", "UncapitalizeAction"].map((name) => [
        name,
        [
          caught(() => typebox[name](T.Literal("hello World"), {})),
          caught(() => typebox[name](T.Literal(""), {})),
          caught(() => typebox[name](T.Union([T.Literal("Ab"), T.Literal("cD")]), { title: "u" })),
          caught(() => typebox[name](T.TemplateLiteral("Ab${string}"), {})),
          caught(() => typebox[name](T.String(), {})),
          caught(() => typebox[name](T.Ref("S"), { description: "deferred" })),
          noOptions(name, T.Literal("abc")),
          noOptions(name, T.Ref("S")),
        ],
      ]),
    ),
  );
  add("typebox exports: ConstructorParametersAction and ParametersAction of constructors, functions and others", () => ({
    ConstructorParametersAction: [
      caught(() => typebox.ConstructorParametersAction(T.Constructor([T.String(), T.Optional(T.Number())], T.Object({})), { title: "params" })),
      caught(() => typebox.ConstructorParametersAction(T.Constructor([], T.Null()), {})),
      caught(() => typebox.ConstructorParametersAction(T.String(), {})),
      caught(() => typebox.ConstructorParametersAction(T.Ref("C"), {})),
      noOptions("ConstructorParametersAction", T.Constructor([], T.Null())),
      noOptions("ConstructorParametersAction", T.Ref("C")),
    ],
    ParametersAction: [
      caught(() => typebox.ParametersAction(T.Function([T.String(), T.Boolean()], T.Void()), { description: "p" })),
      caught(() => typebox.ParametersAction(T.Function([], T.Void()), {})),
      caught(() => typebox.ParametersAction(T.Number(), {})),
      caught(() => typebox.ParametersAction(T.Ref("F"), {})),
      noOptions("ParametersAction", T.Function([], T.Void())),
      noOptions("ParametersAction", T.Ref("F")),
    ],
  }));
  add("typebox exports: OmitAction and PickAction with literal and union indexers", () => {
    const keys = (...names) => T.Union(names.map((name) => T.Literal(name)));
    return {
      OmitAction: [
        caught(() => typebox.OmitAction(O(), T.Literal("a"), { title: "o" })),
        caught(() => typebox.OmitAction(O(), keys("a", "c"), {})),
        caught(() => typebox.OmitAction(O(), T.Literal("missing"), {})),
        caught(() => typebox.OmitAction(T.Ref("A"), T.Literal("a"), {})),
        caught(() => typebox.OmitAction(O(), T.Never(), {})),
        noOptions("OmitAction", O(), T.Literal("a")),
        noOptions("OmitAction", T.Ref("A"), T.Literal("a")),
      ],
      PickAction: [
        caught(() => typebox.PickAction(O(), T.Literal("b"), { title: "p" })),
        caught(() => typebox.PickAction(O(), keys("a", "c", "missing"), {})),
        caught(() => typebox.PickAction(T.Ref("A"), T.Literal("a"), {})),
        caught(() => typebox.PickAction(O(), T.Never(), {})),
        noOptions("PickAction", O(), T.Literal("a")),
        noOptions("PickAction", T.Ref("A"), T.Literal("a")),
      ],
    };
  });
  add("typebox exports: PartialAction, RequiredAction and ReadonlyObjectAction of objects, intersections and refs", () =>
    Object.fromEntries(
      ["PartialAction", "RequiredAction", "ReadonlyObjectAction"].map((name) => [
        name,
        [
          caught(() => typebox[name](O(), { title: name })),
          caught(() => typebox[name](T.Intersect([T.Object({ a: T.Optional(T.String()) }), T.Object({ b: T.Number() })]), {})),
          caught(() => typebox[name](T.Union([T.Object({ a: T.String() }), T.Object({ b: T.Optional(T.String()) })]), {})),
          caught(() => typebox[name](T.Ref("A"), { title: "deferred" })),
          caught(() => typebox[name](T.String(), {})),
          noOptions(name, O()),
          noOptions(name, T.Ref("A")),
        ],
      ]),
    ),
  );
  add("typebox exports: RecordAction with string, number, literal and deferred keys", () => [
    caught(() => typebox.RecordAction(T.String(), T.Number(), { description: "r" })),
    caught(() => typebox.RecordAction(T.Integer(), T.String(), {})),
    caught(() => typebox.RecordAction(T.Union([T.Literal("a"), T.Literal("b")]), T.Boolean(), {})),
    caught(() => typebox.RecordAction(T.TemplateLiteral("k${number}"), T.Null(), {})),
    caught(() => typebox.RecordAction(T.Ref("K"), T.Number(), { title: "deferred" })),
    noOptions("RecordAction", T.String(), T.Number()),
    noOptions("RecordAction", T.Ref("K"), T.Number()),
  ]);
  add("typebox exports: WithAction adds options to a type without changing the one it was given", () => {
    const base = O();
    const withTitle = typebox.WithAction(base, { title: "with", $id: "W" });
    return {
      withTitle,
      base,
      distinct: withTitle !== base,
      ref: caught(() => typebox.WithAction(T.Ref("A"), { title: "deferred" })),
      emptyOptions: caught(() => typebox.WithAction(T.String(), {})),
      noOptions: noOptions("WithAction", T.String()),
    };
  });

  // --- instantiations --------------------------------------------------------------------
  add("typebox exports: the *Instantiate functions resolve refs from their context first", () => {
    const context = { A: O(), K: T.Union([T.Literal("a"), T.Literal("c")]), V: T.Boolean() };
    return {
      OmitInstantiate: typebox.OmitInstantiate(context, state(), T.Ref("A"), T.Ref("K"), { title: "o" }),
      PickInstantiate: typebox.PickInstantiate(context, state(), T.Ref("A"), T.Ref("K"), {}),
      PartialInstantiate: typebox.PartialInstantiate(context, state(), T.Ref("A"), { title: "p" }),
      RequiredInstantiate: typebox.RequiredInstantiate(context, state(), typebox.PartialInstantiate(context, state(), T.Ref("A"), {}), {}),
      RecordInstantiate: typebox.RecordInstantiate(context, state(), T.Ref("K"), T.Ref("V"), { description: "r" }),
      missingRef: typebox.PartialInstantiate({}, state(), T.Ref("Nowhere"), {}),
      plainType: typebox.PickInstantiate({}, state(), O(), T.Literal("a"), {}),
    };
  });

  // --- Value's error classes ---------------------------------------------------------------
  add("typebox/value exports: CreateError thrown by Value.Create for types it cannot make", () =>
    [
      () => T.Never(),
      () => T.Ref("Nowhere"),
      () => T.Array(T.String(), { uniqueItems: true, minItems: 1 }),
      () => T.Record(T.String(), T.Number(), { minProperties: 1 }),
      () => T.Object({ a: T.Never() }),
    ].map((type) => {
      try {
        return { created: Value.Create(type()) };
      } catch (error) {
        return { instance: error instanceof value.CreateError, name: error.name, message: error.message, type: error.type, ownKeys: Object.keys(error) };
      }
    }),
  );
  add("typebox/value exports: CreateError constructed directly", () => {
    const type = T.String();
    const error = new value.CreateError(type, "cannot make it");
    return { instance: error instanceof Error, name: error.name, message: error.message, sameType: error.type === type, ownKeys: Object.keys(error), noArguments: Object.keys(new value.CreateError()) };
  });
  add("typebox/value exports: ParseError thrown by Value.Parse, with its cause", () => {
    const schema = T.Object({ a: T.Number(), b: T.Optional(T.String()) });
    return [{ a: "1" }, null, { a: 1, b: 2 }].map((item) => {
      try {
        return { parsed: Value.Parse(schema, item) };
      } catch (error) {
        return {
          parseError: error instanceof value.ParseError,
          assertError: error instanceof value.AssertError,
          name: error.name,
          message: error.message,
          causeEnumerable: Object.getOwnPropertyDescriptor(error, "cause")?.enumerable,
          cause: { source: error.cause.source, value: error.cause.value, errors: error.cause.errors },
        };
      }
    });
  });
  add("typebox/value exports: ParseError constructed directly", () => {
    const error = new value.ParseError({ x: 1 }, [{ message: "m" }]);
    return { message: error.message, name: error.name, cause: error.cause, ownKeys: Object.keys(error), assert: error instanceof value.AssertError };
  });

  // --- pi-coding-agent -----------------------------------------------------------------------
  add("pi-coding-agent exports: CURRENT_SESSION_VERSION, VERSION and VIRTUAL_MODEL_STATE_ENTRY by value", () => ({
    CURRENT_SESSION_VERSION: agent.CURRENT_SESSION_VERSION,
    VERSION: agent.VERSION,
    VIRTUAL_MODEL_STATE_ENTRY: agent.VIRTUAL_MODEL_STATE_ENTRY,
  }));
  add("pi-coding-agent exports: CURRENT_SESSION_VERSION is the version of a new session and what old entries migrate to", () => {
    const session = agent.SessionManager.inMemory("/work/project");
    const header = session.getHeader();
    const old = [{ type: "session", id: "s", timestamp: "2024-01-01T00:00:00.000Z", cwd: "/x" }, { type: "message", timestamp: "2024-01-01T00:00:01.000Z", message: { role: "user", content: "hi", timestamp: 1 } }];
    agent.migrateSessionEntries(old);
    return { header: header?.version === agent.CURRENT_SESSION_VERSION, migrated: old[0].version === agent.CURRENT_SESSION_VERSION };
  });
  add("pi-coding-agent exports: getAgentDir from PI_CODING_AGENT_DIR, else under the home folder", () => {
    const home = os.homedir();
    const values = [undefined, "", "/srv/agent-dir", "/srv/with space/", "~", "~/custom/agent", "~other/agent", "relative/agent", "./dot/agent", "file:///srv/agent"];
    return withProcessEnv(["PI_CODING_AGENT_DIR"], {}, () =>
      values.map((value) => {
        if (value === undefined) delete process.env.PI_CODING_AGENT_DIR;
        else process.env.PI_CODING_AGENT_DIR = value;
        const dir = agent.getAgentDir();
        // The machine's folders are shown by name.
        return [value ?? "<unset>", dir.startsWith(home) ? `<home>${dir.slice(home.length)}` : dir.startsWith(process.cwd()) ? `<cwd>${dir.slice(process.cwd().length)}` : dir];
      }),
    );
  });
  add("pi-coding-agent exports: convertToPng keeps a PNG as it is and answers null for what it cannot decode", async () => ({
    png: await agent.convertToPng("iVBORw0KGgo=", "image/png"),
    emptyPng: await agent.convertToPng("", "image/png"),
    notAnImage: await agent.convertToPng(btoa("not an image"), "image/jpeg"),
    empty: await agent.convertToPng("", "image/gif"),
    noMimeType: await agent.convertToPng(btoa("plain text"), undefined),
  }));
  add("pi-coding-agent exports: resizeImage answers null for bytes it cannot decode", async () => ({
    text: await agent.resizeImage(new TextEncoder().encode("not an image"), "image/png"),
    empty: await agent.resizeImage(new Uint8Array(0), "image/jpeg", { maxWidth: 10, maxHeight: 10 }),
  }));
}
