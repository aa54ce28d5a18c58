// Cases of pi-ai's pure helpers for the pi-ai case table (pi-ai-cases.mjs):
// diagnostics, tool declarations, API keys from the environment, client
// identity headers, prompt-cache warming, system-message updates and the
// faux message builders. Stacks, clocks, random ids and the host's runtime
// are reduced to checks in the case, so the results are the same anywhere.

// Every variable the key lookups read: cleared around each environment case
// so the machine's own settings never show.
const ENV_NAMES = [
  "COPILOT_GITHUB_TOKEN",
  "ANTHROPIC_AUTH_TOKEN",
  "ANTHROPIC_OAUTH_TOKEN",
  "ANTHROPIC_API_KEY",
  "ANT_LING_API_KEY",
  "QWEN_TOKEN_PLAN_TEAM_API_KEY",
  "QWEN_TOKEN_PLAN_API_KEY",
  "QWEN_TOKEN_PLAN_TEAM_CN_API_KEY",
  "QWEN_TOKEN_PLAN_CN_API_KEY",
  "QWEN_TOKEN_PLAN_INDIVIDUAL_API_KEY",
  "QWEN_TOKEN_PLAN_INDIVIDUAL_CN_API_KEY",
  "OPENAI_API_KEY",
  "AZURE_OPENAI_API_KEY",
  "NVIDIA_API_KEY",
  "DEEPSEEK_API_KEY",
  "GEMINI_API_KEY",
  "GOOGLE_CLOUD_API_KEY",
  "GROQ_API_KEY",
  "CEREBRAS_API_KEY",
  "XAI_API_KEY",
  "TYPESAFE_API_KEY",
  "RADIUS_API_KEY",
  "OPENROUTER_API_KEY",
  "AI_GATEWAY_API_KEY",
  "ZAI_API_KEY",
  "ZAI_CODING_CN_API_KEY",
  "MISTRAL_API_KEY",
  "MINIMAX_API_KEY",
  "MINIMAX_CN_API_KEY",
  "MOONSHOT_API_KEY",
  "HF_TOKEN",
  "FIREWORKS_API_KEY",
  "TOGETHER_API_KEY",
  "BASETEN_API_KEY",
  "OPENCODE_API_KEY",
  "KIMI_API_KEY",
  "META_API_KEY",
  "CLOUDFLARE_API_KEY",
  "XIAOMI_API_KEY",
  "XIAOMI_TOKEN_PLAN_CN_API_KEY",
  "XIAOMI_TOKEN_PLAN_AMS_API_KEY",
  "XIAOMI_TOKEN_PLAN_SGP_API_KEY",
  "GOOGLE_APPLICATION_CREDENTIALS",
  "GOOGLE_CLOUD_PROJECT",
  "GCLOUD_PROJECT",
  "GOOGLE_CLOUD_LOCATION",
  "AWS_PROFILE",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_BEARER_TOKEN_BEDROCK",
  "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
  "AWS_CONTAINER_CREDENTIALS_FULL_URI",
  "AWS_WEB_IDENTITY_TOKEN_FILE",
  "PI_CACHE_RETENTION",
];

const PROVIDERS = [
  "github-copilot",
  "anthropic",
  "ant-ling",
  "qwen-token-plan",
  "qwen-token-plan-cn",
  "qwen-token-plan-individual",
  "qwen-token-plan-individual-cn",
  "openai",
  "azure",
  "nvidia",
  "deepseek",
  "google",
  "google-vertex",
  "groq",
  "cerebras",
  "xai",
  "typesafe",
  "radius",
  "openrouter",
  "vercel-ai-gateway",
  "zai",
  "zai-coding-cn",
  "mistral",
  "minimax",
  "minimax-cn",
  "moonshotai",
  "moonshotai-cn",
  "huggingface",
  "fireworks",
  "together",
  "baseten",
  "opencode",
  "opencode-go",
  "kimi-coding",
  "meta",
  "cloudflare-workers-ai",
  "cloudflare-ai-gateway",
  "xiaomi",
  "xiaomi-token-plan-cn",
  "xiaomi-token-plan-ams",
  "xiaomi-token-plan-sgp",
  "amazon-bedrock",
  "openai-codex",
  "unknown-provider",
  "",
  undefined,
];

// A path that exists and one that does not, on any Unix machine.
const EXISTING_PATH = "/";
const MISSING_PATH = "/pihost-golden-no-such-file/credentials.json";

/** Runs `run` with the process environment holding exactly `vars` of ENV_NAMES, then puts it back. */
function withEnv(vars, run) {
  const saved = new Map(ENV_NAMES.map((name) => [name, process.env[name]]));
  for (const name of ENV_NAMES) delete process.env[name];
  Object.assign(process.env, vars);
  try {
    return run();
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** What a call returned, or the name of what it threw (engines word messages differently). */
function outcome(run) {
  try {
    const value = run();
    return value === undefined ? "<undefined>" : value;
  } catch (error) {
    return { thrown: error?.name };
  }
}

/** Adds the cases to the table through `add(name, run)`; `ai` is the pi-ai root. */
export function addHelperCases(add, ai) {
  addDiagnosticCases(add, ai);
  addToolDeclarationCases(add, ai);
  addEnvKeyCases(add, ai);
  addIdentityCases(add, ai);
  addCacheWarmingCases(add, ai);
  addSystemUpdateCases(add, ai);
  addFauxCases(add, ai);
}

// --- diagnostics -----------------------------------------------------------

function thrownValues() {
  const withCode = (code) => Object.assign(new Error("coded"), { code });
  const nameless = new Error("");
  nameless.name = "";
  const renamed = new RangeError("out");
  renamed.name = "Custom";
  class HttpError extends Error {
    constructor(message, status) {
      super(message);
      this.name = "HttpError";
      this.status = status;
    }
  }
  return [
    ["error", new Error("boom")],
    ["emptyMessage", new Error("")],
    ["typeErrorEmpty", new TypeError("")],
    ["nameless", nameless],
    ["renamed", renamed],
    ["subclass", new HttpError("bad gateway", 502)],
    ["errorPrototypeObject", Object.create(Error.prototype)],
    ["stringCode", withCode("ENOENT")],
    ["numberCode", withCode(429)],
    ["objectCode", withCode({ value: 1 })],
    ["bigintCode", withCode(5n)],
    ["nullCode", withCode(null)],
    ["aggregate", new AggregateError([new Error("inner")], "many")],
    ["string", "plain text"],
    ["emptyString", ""],
    ["number", 42],
    ["null", null],
    ["undefined", undefined],
    ["object", { message: "looks like an error", name: "Fake" }],
    ["array", [1, "two"]],
    ["symbol", Symbol("thrown")],
  ];
}

/** extractDiagnosticError's result with the stack reduced to whether it starts with the error's header line. */
function withoutStack(extracted, error) {
  if (!("stack" in extracted)) return extracted;
  const header = String(error.stack ?? "").split("\n")[0];
  return { ...extracted, stack: typeof extracted.stack === "string" ? `<stack from ${header}>` : extracted.stack };
}

function addDiagnosticCases(add, ai) {
  add("diagnostics.formatThrownValue", () => thrownValues().map(([label, value]) => [label, ai.formatThrownValue(value)]));
  add("diagnostics.extractDiagnosticError", () =>
    thrownValues().map(([label, value]) => {
      const extracted = ai.extractDiagnosticError(value);
      return [label, Object.keys(extracted), withoutStack(extracted, value)];
    }),
  );
  add("diagnostics.createAssistantMessageDiagnostic", () => {
    const before = Date.now();
    const made = [
      ai.createAssistantMessageDiagnostic("provider_error", Object.assign(new Error("upstream"), { code: "E_UP" }), { status: 500 }),
      ai.createAssistantMessageDiagnostic("hook_error", "said no"),
      ai.createAssistantMessageDiagnostic(undefined, undefined, undefined),
    ];
    const after = Date.now();
    return made.map((diagnostic) => ({
      keys: Object.keys(diagnostic),
      timely: diagnostic.timestamp >= before && diagnostic.timestamp <= after,
      type: diagnostic.type,
      error: { ...diagnostic.error, stack: typeof diagnostic.error.stack },
      details: diagnostic.details,
    }));
  });
  add("diagnostics.appendAssistantMessageDiagnostic", () => {
    const message = { role: "assistant", content: [] };
    const first = { type: "a" };
    const second = { type: "b" };
    ai.appendAssistantMessageDiagnostic(message, first);
    const afterFirst = message.diagnostics;
    const returned = ai.appendAssistantMessageDiagnostic(message, second);
    return {
      returned: returned === undefined,
      types: message.diagnostics.map((diagnostic) => diagnostic.type),
      newArray: afterFirst !== message.diagnostics,
      earlierUntouched: afterFirst.length,
      sameObjects: message.diagnostics[0] === first && message.diagnostics[1] === second,
      keys: Object.keys(message),
    };
  });
}

// --- tool declarations --------------------------------------------------------

function addToolDeclarationCases(add, ai) {
  const { Type } = ai;
  const typed = () =>
    Type.Object({
      path: Type.String({ description: "File to read" }),
      limit: Type.Optional(Type.Number({ minimum: 1 })),
      mode: ai.StringEnum(["fast", "slow"], { description: "How" }),
    });
  const tool = (name, description = `${name} tool`, parameters = { type: "object", properties: {} }, extra = {}) => ({
    name,
    description,
    parameters,
    ...extra,
  });
  add("toolDeclarations.toToolDeclaration", () =>
    [
      tool("read", "Read a file", typed(), { label: "Read", execute: () => 1, promptSnippet: "r" }),
      tool("plain", "Plain", { type: "object", properties: { a: { type: "string", default: undefined } }, required: undefined }),
      tool("strict", "Strict", { type: "object" }, { constrainedSampling: true }),
      tool("loose", "Loose", { type: "object" }, { constrainedSampling: false }),
      tool("undefinedSampling", "U", { type: "object" }, { constrainedSampling: undefined }),
      { parameters: { type: "object" }, name: "noDescription" },
      { name: "dateParameter", description: "d", parameters: { when: new Date(0), list: [undefined, () => 1] } },
    ].map((given) => {
      const declaration = ai.toToolDeclaration(given);
      return { keys: Object.keys(declaration), declaration, parametersCopied: declaration.parameters !== given.parameters };
    }),
  );
  add("toolDeclarations.toToolDeclaration.withoutParameters", () => outcome(() => ai.toToolDeclaration({ name: "x", description: "y" })));
  add("toolDeclarations.declarationsEqual", () => {
    const base = tool("read", "Read", { type: "object", properties: { a: { type: "string" } } });
    const pairs = {
      same: [base, tool("read", "Read", { type: "object", properties: { a: { type: "string" } } })],
      extraFields: [base, { ...base, label: "R", execute() {} }],
      otherDescription: [base, { ...base, description: "Read!" }],
      otherName: [base, { ...base, name: "read2" }],
      keyOrder: [base, tool("read", "Read", { properties: { a: { type: "string" } }, type: "object" })],
      samplingUndefinedVsAbsent: [base, { ...base, constrainedSampling: undefined }],
      samplingFalseVsAbsent: [base, { ...base, constrainedSampling: false }],
      typeboxVsPlain: [tool("t", "T", typed()), tool("t", "T", JSON.parse(JSON.stringify(typed())))],
      undefinedPropertyVsAbsent: [
        tool("u", "U", { type: "object", description: undefined }),
        tool("u", "U", { type: "object" }),
      ],
    };
    return Object.fromEntries(Object.entries(pairs).map(([label, [left, right]]) => [label, ai.declarationsEqual(left, right)]));
  });
  add("toolDeclarations.getToolStateChanges", () => {
    const a = tool("a");
    const b = tool("b");
    const c = tool("c");
    const changedB = tool("b", "b changed");
    const d = tool("d", "d tool", typed(), { execute: () => 0 });
    return [
      ai.getToolStateChanges([], []),
      ai.getToolStateChanges([], [a, b]),
      ai.getToolStateChanges([a, b], []),
      ai.getToolStateChanges([a, b, c], [c, changedB, d]),
      ai.getToolStateChanges([a, b], [b, a]),
      ai.getToolStateChanges([a, a], [a]),
      ai.getToolStateChanges([a], [a, tool("a", "second a")]),
      ai.getToolStateChanges([{ ...a, label: "x" }], [{ ...a, execute() {} }]),
    ];
  });
  const system = (extra, timestamp = 0) => ({ role: "system", content: "", ...extra, timestamp });
  const user = (extra = {}) => ({ role: "user", content: "hi", ...extra, timestamp: 1 });
  const a = tool("a");
  const a2 = tool("a", "a redefined");
  const b = tool("b");
  const transcripts = {
    empty: [],
    noSystem: [user(), user()],
    onlyAdditions: [system({ toolsAdded: [a] }), user(), system({ toolsAdded: [b] })],
    sameAddedTwice: [system({ toolsAdded: [a] }), system({ toolsAdded: [tool("a")] })],
    redefined: [system({ toolsAdded: [a] }), user(), system({ toolsAdded: [a2] })],
    redefinedInOneMessage: [system({ toolsAdded: [a, b, a2] })],
    removal: [system({ toolsAdded: [a, b] }), system({ toolsRemoved: [{ name: "a" }] })],
    emptyRemoval: [system({ toolsAdded: [a], toolsRemoved: [] })],
    removedThenReadded: [system({ toolsAdded: [a] }), system({ toolsRemoved: [{ name: "a" }] }), system({ toolsAdded: [a] })],
    removedThenRedefined: [system({ toolsAdded: [a] }), system({ toolsRemoved: [{ name: "a" }] }), system({ toolsAdded: [a2] })],
    nonSystemDeltasIgnored: [user({ toolsAdded: [a] }), user({ toolsAdded: [a2], toolsRemoved: [{ name: "a" }] }), system({ toolsAdded: [b] })],
    removalOfUnknown: [system({ toolsRemoved: [{ name: "never" }] })],
  };
  // Transcripts that do not start with a system message, for the request tool list.
  transcripts.userFirst = [user(), system({ toolsAdded: [a] }), system({ toolsAdded: [b] })];
  transcripts.userFirstWithRemoval = [user(), system({ toolsAdded: [a, b] }), user(), system({ toolsRemoved: [{ name: "b" }] }), system({ toolsAdded: [tool("c")] })];
  transcripts.sectionsAndRemovals = [
    system({ content: "Base", sections: { s: "one" }, toolsAdded: [a, b] }, 5),
    user(),
    system({ content: "More", sections: { s: null, t: "two" }, toolsRemoved: [{ name: "a" }] }, 6),
    system({ toolsAdded: [a2] }, 7),
  ];
  const describeTools = (resolved) => ({ ...resolved, requestTools: resolved.requestTools.map((listed) => `${listed.name}: ${listed.description}`) });
  for (const [label, messages] of Object.entries(transcripts)) {
    add(`toolDeclarations.transcript.${label}`, () => ({
      declared: ai.getDeclaredTools(messages).map((declared) => declared.description),
      declaredSameObjects: ai.getDeclaredTools(messages).every((declared) => messages.some((message) => message.toolsAdded?.includes(declared))),
      redefinitions: ai.hasToolRedefinitions(messages),
      nonAdditive: ai.hasNonAdditiveToolChanges(messages),
      requestTools: Object.fromEntries(
        ["none", "changes", "additions", "something-else", undefined].map((support) => [String(support), describeTools(ai.resolveTranscriptTools(messages, support))]),
      ),
      resolved: [true, false, undefined, 1].map((supports) => {
        const context = { messages };
        const resolved = ai.resolveTranscript(context, supports);
        return resolved === context ? "<same context>" : resolved;
      }),
    }));
  }
  add("hasApi.fromTheRoot", () => {
    const chat = { id: "m", api: "openai-responses", provider: "p" };
    return [ai.hasApi(chat, "openai-responses"), ai.hasApi(chat, "anthropic-messages"), ai.hasApi({ ...chat, type: "image" }, "openai-responses"), ai.hasApi({ ...chat, type: "chat" }, "openai-responses")];
  });
}

// --- API keys from the environment -----------------------------------------

function addEnvKeyCases(add, ai) {
  const everyProvider = (env) =>
    PROVIDERS.map((provider) => [provider ?? "<undefined>", outcome(() => ai.findEnvKeys(provider, env)), outcome(() => ai.getEnvApiKey(provider, env))]);
  const allSet = Object.fromEntries(ENV_NAMES.map((name) => [name, `value-of-${name}`]));
  add("envKeys.vertexHostCredentialsAreLookedUpOnce", () => {
    // The first look at the host's credentials is kept: later changes to
    // the environment do not count. It comes before every other case that
    // looks, so what is kept is the named file, not the machine's own.
    const look = (vars) => withEnv({ GOOGLE_CLOUD_PROJECT: "p", GOOGLE_CLOUD_LOCATION: "l", ...vars }, () => outcome(() => ai.getEnvApiKey("google-vertex")));
    return [look({ GOOGLE_APPLICATION_CREDENTIALS: EXISTING_PATH }), look({ GOOGLE_APPLICATION_CREDENTIALS: MISSING_PATH }), look({}), look({ GOOGLE_CLOUD_LOCATION: "" })];
  });
  add("envKeys.nothingSet", () => withEnv({}, () => everyProvider()));
  add("envKeys.everythingSet", () => withEnv(allSet, () => everyProvider()));
  add("envKeys.everythingSetThroughEnvArgument", () => withEnv({}, () => everyProvider(allSet)));
  add("envKeys.inheritedNames", () =>
    withEnv(allSet, () => ["constructor", "toString", "__proto__", "hasOwnProperty"].map((provider) => [provider, outcome(() => ai.findEnvKeys(provider)), outcome(() => ai.getEnvApiKey(provider))])),
  );
  add("envKeys.anthropic", () =>
    [
      { ANTHROPIC_AUTH_TOKEN: "auth" },
      { ANTHROPIC_AUTH_TOKEN: "auth", ANTHROPIC_API_KEY: "key" },
      { ANTHROPIC_OAUTH_TOKEN: "oauth", ANTHROPIC_API_KEY: "key" },
      { ANTHROPIC_API_KEY: "key" },
      { ANTHROPIC_AUTH_TOKEN: "auth", ANTHROPIC_OAUTH_TOKEN: "" },
    ].map((vars) => withEnv(vars, () => [ai.findEnvKeys("anthropic"), outcome(() => ai.getEnvApiKey("anthropic"))])),
  );
  add("envKeys.qwenPlanPrecedence", () =>
    [
      { QWEN_TOKEN_PLAN_API_KEY: "shared" },
      { QWEN_TOKEN_PLAN_API_KEY: "shared", QWEN_TOKEN_PLAN_TEAM_API_KEY: "team" },
      { QWEN_TOKEN_PLAN_API_KEY: "shared", QWEN_TOKEN_PLAN_INDIVIDUAL_API_KEY: "individual" },
    ].map((vars) =>
      withEnv(vars, () =>
        ["qwen-token-plan", "qwen-token-plan-individual", "qwen-token-plan-cn"].map((provider) => [ai.findEnvKeys(provider), outcome(() => ai.getEnvApiKey(provider))]),
      ),
    ),
  );
  add("envKeys.envArgumentAgainstProcess", () =>
    withEnv({ OPENAI_API_KEY: "from-process", GROQ_API_KEY: "" }, () => ({
      override: ai.getEnvApiKey("openai", { OPENAI_API_KEY: "from-argument" }),
      emptyArgumentFallsBack: ai.getEnvApiKey("openai", { OPENAI_API_KEY: "" }),
      otherNamesFallBack: ai.getEnvApiKey("openai", { GROQ_API_KEY: "g" }),
      emptyProcessValueIsUnset: outcome(() => ai.getEnvApiKey("groq")),
      emptyProcessValueNotFound: outcome(() => ai.findEnvKeys("groq")),
      nullArgument: ai.getEnvApiKey("openai", null),
      argumentOnly: ai.findEnvKeys("groq", { GROQ_API_KEY: "g" }),
    })),
  );
  add("envKeys.bedrock", () =>
    [
      {},
      { AWS_PROFILE: "dev" },
      { AWS_ACCESS_KEY_ID: "id" },
      { AWS_ACCESS_KEY_ID: "id", AWS_SECRET_ACCESS_KEY: "secret" },
      { AWS_SECRET_ACCESS_KEY: "secret" },
      { AWS_BEARER_TOKEN_BEDROCK: "t" },
      { AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: "/r" },
      { AWS_CONTAINER_CREDENTIALS_FULL_URI: "http://x" },
      { AWS_WEB_IDENTITY_TOKEN_FILE: "/f" },
      { AWS_PROFILE: "" },
    ].map((vars) => withEnv(vars, () => [outcome(() => ai.findEnvKeys("amazon-bedrock")), outcome(() => ai.getEnvApiKey("amazon-bedrock"))])),
  );
  add("envKeys.vertexWithCredentialsInEnvArgument", () =>
    withEnv({}, () =>
      [
        { GOOGLE_APPLICATION_CREDENTIALS: EXISTING_PATH, GOOGLE_CLOUD_PROJECT: "p", GOOGLE_CLOUD_LOCATION: "l" },
        { GOOGLE_APPLICATION_CREDENTIALS: EXISTING_PATH, GCLOUD_PROJECT: "p", GOOGLE_CLOUD_LOCATION: "l" },
        { GOOGLE_APPLICATION_CREDENTIALS: EXISTING_PATH, GOOGLE_CLOUD_PROJECT: "p" },
        { GOOGLE_APPLICATION_CREDENTIALS: EXISTING_PATH, GOOGLE_CLOUD_LOCATION: "l" },
        { GOOGLE_APPLICATION_CREDENTIALS: MISSING_PATH, GOOGLE_CLOUD_PROJECT: "p", GOOGLE_CLOUD_LOCATION: "l" },
        { GOOGLE_CLOUD_API_KEY: "vertex-key", GOOGLE_APPLICATION_CREDENTIALS: MISSING_PATH },
      ].map((env) => outcome(() => ai.getEnvApiKey("google-vertex", env))),
    ),
  );
}

// --- client identity ---------------------------------------------------------

/** A User-Agent with this host's platform, runtime and architecture replaced by "<host>". */
function hostless(userAgent) {
  if (typeof userAgent !== "string") return userAgent;
  const host = globalThis.process;
  const runtime = host?.versions?.bun ? `bun/${host.versions.bun}` : `node/${host?.version}`;
  return userAgent.replace(`(${host?.platform}; ${runtime}; ${host?.arch})`, "(<host>)");
}

function addIdentityCases(add, ai) {
  add("identity.constants", () => ({ attribution: ai.PI_ATTRIBUTION, version: ai.PI_AI_VERSION }));
  add("identity.mergeClientIdentity", () => {
    const first = { version: "1.0.0", userAgent: "short" };
    const merged = ai.mergeClientIdentity(first);
    return {
      none: outcome(() => ai.mergeClientIdentity()),
      onlyEmpty: outcome(() => ai.mergeClientIdentity(undefined, null, 0, "")),
      emptyObject: ai.mergeClientIdentity({}),
      copy: { merged, fresh: merged !== first },
      laterWins: ai.mergeClientIdentity({ version: "1", userAgent: "short" }, { userAgent: { custom: "X" } }),
      undefinedSkipped: ai.mergeClientIdentity({ version: "1", attribution: ai.PI_ATTRIBUTION }, { version: undefined, attribution: undefined }),
      nullOverrides: ai.mergeClientIdentity({ attribution: ai.PI_ATTRIBUTION }, { attribution: null }),
      keyOrder: Object.keys(ai.mergeClientIdentity({ version: "1" }, { attribution: false }, { userAgent: "short" })),
      otherFieldsDropped: ai.mergeClientIdentity({ version: "1", extra: true }),
      skipsFalsy: ai.mergeClientIdentity(null, { version: "2" }, undefined),
    };
  });
  add("identity.getClientVersion", () => [undefined, null, {}, { version: "9.9.9" }, { version: null }, { version: "" }].map((identity) => ai.getClientVersion(identity)));
  add("identity.formatUserAgent", () =>
    [
      undefined,
      {},
      { userAgent: "short" },
      { userAgent: "detailed" },
      { userAgent: "detailed", version: "2.0.0" },
      { userAgent: "something-else" },
      { userAgent: null },
      { userAgent: { custom: "MyApp/3" } },
      { userAgent: {} },
      { userAgent: "short", version: "2.0.0" },
      { version: "" },
    ].map((identity) => outcome(() => hostless(ai.formatUserAgent(identity)))),
  );
  const targets = {
    openrouterProvider: { provider: "openrouter", baseUrl: "https://example.com" },
    openrouterUrl: { provider: "custom", baseUrl: "https://openrouter.ai/api/v1" },
    openrouterInPath: { provider: "custom", baseUrl: "https://proxy.example/openrouter.ai" },
    nvidiaProvider: { provider: "nvidia", baseUrl: "https://example.com" },
    nvidiaHost: { provider: "custom", baseUrl: "https://integrate.api.nvidia.com/v1" },
    nvidiaLookalike: { provider: "custom", baseUrl: "https://integrate.api.nvidia.com.example.com/v1" },
    opencode: { provider: "opencode", baseUrl: "https://example.com" },
    opencodeGo: { provider: "opencode-go", baseUrl: "https://example.com" },
    opencodeHost: { provider: "custom", baseUrl: "https://opencode.ai/zen/v1" },
    opencodeSubdomain: { provider: "custom", baseUrl: "https://api.opencode.ai/zen/v1" },
    notAUrl: { provider: "custom", baseUrl: "not a url" },
    other: { provider: "anthropic", baseUrl: "https://api.anthropic.com" },
  };
  const attributions = {
    none: undefined,
    pi: { attribution: ai.PI_ATTRIBUTION },
    noCategories: { attribution: { name: "myapp", url: "https://my.app" } },
    emptyCategories: { attribution: { name: "myapp", url: "https://my.app", categories: [] } },
    twoCategories: { attribution: { name: "myapp", url: "https://my.app", categories: ["cli-agent", "ide"] } },
    emptyName: { attribution: { name: "", url: "u" } },
    off: { attribution: false },
  };
  add("identity.getAttributionHeaders", () =>
    Object.entries(targets).map(([target, given]) => [
      target,
      Object.fromEntries(Object.entries(attributions).map(([label, identity]) => [label, outcome(() => ai.getAttributionHeaders(given, identity))])),
    ]),
  );
  add("identity.getAttributionHeaders.withoutBaseUrl", () => [
    outcome(() => ai.getAttributionHeaders({ provider: "x" }, attributions.pi)),
    outcome(() => ai.getAttributionHeaders({ provider: "openrouter" }, attributions.pi)),
    outcome(() => ai.getAttributionHeaders({ provider: "x" }, undefined)),
  ]);
  add("identity.getIdentityHeaders", () =>
    [
      [targets.openrouterProvider, attributions.pi],
      [targets.nvidiaHost, { ...attributions.pi, userAgent: "short" }],
      [targets.other, { userAgent: { custom: "Custom/1" }, attribution: ai.PI_ATTRIBUTION }],
      [targets.opencode, undefined],
    ].map(([target, identity]) => {
      const headers = ai.getIdentityHeaders(target, identity);
      return { keys: Object.keys(headers), headers: { ...headers, "User-Agent": hostless(headers["User-Agent"]) } };
    }),
  );
  add("identity.getOpenCodeSessionHeaders", () =>
    [targets.opencode, targets.opencodeHost, targets.other].flatMap((target) =>
      ["session-1", "", undefined, null].map((session) => outcome(() => ai.getOpenCodeSessionHeaders(target, session))),
    ),
  );
  add("identity.withClientIdentity", () => recordWrappedModels(ai));
}

/** A stand-in Models collection that records every call, wrapped with an identity and exercised. */
function recordWrappedModels(ai) {
  const calls = [];
  const fakeModels = (mutable) => {
    const models = {};
    const names = [
      "getProviders",
      "getProvider",
      "getModels",
      "getModel",
      "getModelsOfType",
      "getModelOfType",
      "getAllModels",
      "refresh",
      "checkAuth",
      "getAvailable",
      "getAvailableOfType",
      "getAllAvailable",
      "getAuth",
      "login",
      "logout",
      "stream",
      "complete",
      "streamSimple",
      "completeSimple",
      "streamDeferred",
      "fetchDeferred",
      "cancelDeferred",
      "generateImages",
      "classify",
      ...(mutable ? ["setProvider", "deleteProvider", "clearProviders"] : []),
    ];
    for (const name of names) {
      models[name] = function (...args) {
        calls.push({ name, count: args.length, args, thisIsModels: this === models });
        return `${name}-result`;
      };
    }
    return models;
  };
  const identity = { version: "7.7.7", attribution: ai.PI_ATTRIBUTION };
  const exercise = (wrapped) => {
    calls.length = 0;
    const results = {};
    for (const [name, method] of Object.entries(wrapped)) results[name] = method("a1", "a2", { maxTokens: 5, identity: { userAgent: "short" } }, "a4", "a5");
    const records = calls.map((call) => ({ ...call }));
    calls.length = 0;
    wrapped.stream("m", "c");
    wrapped.complete("m", "c", { identity: { version: "8.0.0" } });
    return { results, records, withoutOptions: calls.map((call) => call.args[2]) };
  };
  const plain = fakeModels(false);
  const wrappedPlain = ai.withClientIdentity(plain, identity);
  const described = (wrapped) =>
    Object.entries(wrapped).map(([name, method]) => [name, typeof method, method.name, method.length]);
  // Methods are looked up when called, except getAuth, bound when wrapping.
  const lateModels = fakeModels(false);
  const lateWrapped = ai.withClientIdentity(lateModels, undefined);
  lateModels.getModels = () => "replaced";
  lateModels.getAuth = () => "replaced";
  const partial = fakeModels(false);
  partial.setProvider = () => 0;
  return {
    plain: described(wrappedPlain),
    plainCalls: exercise(wrappedPlain),
    mutable: described(ai.withClientIdentity(fakeModels(true), identity)),
    mutableCalls: exercise(ai.withClientIdentity(fakeModels(true), identity)),
    withoutIdentity: exercise(ai.withClientIdentity(fakeModels(false), undefined)).withoutOptions,
    lateLookup: [lateWrapped.getModels("p"), lateWrapped.getAuth()],
    partlyMutable: Object.keys(ai.withClientIdentity(partial, identity)).length,
    withoutGetAuth: outcome(() => ai.withClientIdentity({ getProviders() {} }, identity)),
    returnsNewObject: ai.withClientIdentity(plain, identity) !== ai.withClientIdentity(plain, identity),
  };
}

// --- prompt-cache warming ---------------------------------------------------

function addCacheWarmingCases(add, ai) {
  const cached = { id: "m", api: "anthropic-messages", promptCache: { short: 300, long: 3600 }, cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } };
  add("cacheWarming.constants", () => [
    ai.CACHE_WARMING_MAX_AGE_MS,
    ai.CACHE_WARMING_MAX_IDLE_AGE_MS,
    ai.CACHE_WARMING_MINIMUM_EXPECTED_SAVINGS,
    ai.CACHE_WARMING_IDLE_CONTINUATION_PROBABILITY,
  ]);
  add("cacheWarming.getPromptCacheTtlMs", () =>
    withEnv({}, () => {
      const models = {
        cached,
        shortOnly: { promptCache: { short: 60 } },
        zero: { promptCache: { short: 0, long: 0 } },
        none: {},
        medium: { promptCache: { short: 1, medium: 2 } },
      };
      const options = [undefined, {}, { cacheRetention: "long" }, { cacheRetention: "short" }, { cacheRetention: "none" }, { cacheRetention: "medium" }, { cacheRetention: null }, { env: { PI_CACHE_RETENTION: "long" } }, { env: { PI_CACHE_RETENTION: "none" } }, { env: { PI_CACHE_RETENTION: "long" }, cacheRetention: "short" }];
      return Object.entries(models).map(([label, model]) => [label, options.map((given) => outcome(() => ai.getPromptCacheTtlMs(model, given)))]);
    }),
  );
  add("cacheWarming.getPromptCacheTtlMs.processEnv", () =>
    ["long", "LONG", "none", ""].map((value) =>
      withEnv({ PI_CACHE_RETENTION: value }, () => [
        outcome(() => ai.getPromptCacheTtlMs(cached)),
        outcome(() => ai.getPromptCacheTtlMs(cached, { env: { PI_CACHE_RETENTION: "short" } })),
        outcome(() => ai.getPromptCacheTtlMs(cached, { env: { PI_CACHE_RETENTION: "" } })),
      ]),
    ),
  );
  add("cacheWarming.getCacheWarmingDelayMs", () =>
    [-5, 0, 10_000, 10_001, 20_000, 99_999, 100_000, 100_001, 300_000, 3_600_000, 1e12, 10_000.5].map((ttl) => outcome(() => ai.getCacheWarmingDelayMs(ttl))),
  );
  add("cacheWarming.isCacheWarmingReplayable", () =>
    [
      [cached, undefined],
      [cached, { reasoning: "high" }],
      [{ ...cached, compat: { forceAdaptiveThinking: true } }, { reasoning: "high" }],
      [{ ...cached, compat: { forceAdaptiveThinking: "yes" } }, { reasoning: "high" }],
      [{ ...cached, api: "openai-responses" }, { reasoning: "high" }],
      [cached, { reasoning: "" }],
    ].map(([model, options]) => ai.isCacheWarmingReplayable(model, options)),
  );
  add("cacheWarming.getCacheWarmingRequestOptions", () => [
    ai.getCacheWarmingRequestOptions({ maxTokens: 4000, maxRetries: 3, temperature: 0.2, sessionId: "s" }, "the-signal"),
    Object.keys(ai.getCacheWarmingRequestOptions(undefined, undefined)),
    ai.getCacheWarmingRequestOptions({ signal: "old" }),
  ]);
  add("cacheWarming.evaluateCacheWarming", () => {
    const models = {
      cached,
      noCacheWrite: { id: "n", cost: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 } },
      free: { id: "f", cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } },
      tiered: {
        id: "t",
        cost: { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 1.25, tiers: [{ inputTokensAbove: 100_000, input: 4, output: 8, cacheRead: 0.4, cacheWrite: 5 }] },
      },
    };
    return Object.entries(models).flatMap(([label, model]) =>
      [0, 1000, 50_000, 200_000].flatMap((tokens) => ["idle", "streaming"].map((phase) => [label, tokens, ai.evaluateCacheWarming(model, tokens, phase)])),
    );
  });
}

// --- system-message updates ---------------------------------------------------

function addSystemUpdateCases(add, ai) {
  add("renderSystemMessageUpdate", () =>
    [
      { role: "system", content: "More rules.", timestamp: 1 },
      { role: "system", content: "", timestamp: 1 },
      { role: "system", content: [{ type: "text", text: "one" }, { type: "image", data: "x", mimeType: "image/png" }, { type: "text", text: "two" }], timestamp: 1 },
      { role: "system", content: "Base", sections: { tools: "Use tools.", style: null, empty: "" }, timestamp: 1 },
      { role: "system", content: "", sections: { gone: null }, timestamp: 1 },
      { role: "system", content: [], sections: {}, timestamp: 1 },
      { role: "system", content: "x", sections: { "quoted \"name\"": "v\nw" }, timestamp: 1 },
    ].map((message) => ai.renderSystemMessageUpdate(message)),
  );
}

// --- faux messages ---------------------------------------------------------------

function addFauxCases(add, ai) {
  add("faux.blocks", () => [
    ai.fauxText("hello"),
    ai.fauxText(""),
    ai.fauxThinking("hmm"),
    ai.fauxToolCall("read", { path: "a.txt" }, { id: "call-1" }),
    ai.fauxToolCall("noargs", undefined, { id: "call-2" }),
    Object.keys(ai.fauxToolCall("read", {}, { id: "k" })),
    outcome(() => ai.fauxToolCall("read", {}, null)),
  ]);
  add("faux.toolCallIds", () => {
    const before = Date.now();
    const calls = [ai.fauxToolCall("a", {}), ai.fauxToolCall("b", {}, {}), ai.fauxToolCall("c", {}, { id: undefined })];
    const after = Date.now();
    return calls.map((call) => {
      const match = /^tool:(\d+):([0-9a-z]*)$/.exec(call.id);
      const stamp = match ? Number(match[1]) : Number.NaN;
      return { shape: match !== null, timely: stamp >= before && stamp <= after, rest: { ...call, id: "<id>" } };
    });
  });
  add("faux.assistantMessages", () => {
    const blocks = [ai.fauxThinking("t"), ai.fauxText("x")];
    const fromArray = ai.fauxAssistantMessage(blocks, { timestamp: 5 });
    const messages = [
      ai.fauxAssistantMessage("hello", { timestamp: 1 }),
      ai.fauxAssistantMessage("", { timestamp: 1 }),
      fromArray,
      ai.fauxAssistantMessage(ai.fauxToolCall("read", {}, { id: "c" }), { timestamp: 2, stopReason: "toolUse" }),
      ai.fauxAssistantMessage("x", { timestamp: 3, stopReason: "error", errorMessage: "boom", responseId: "r1", deferred: { handle: "h" } }),
      ai.fauxAssistantMessage("x", { timestamp: 4, errorMessage: undefined, responseId: undefined, deferred: false }),
      ai.fauxAssistantMessage([], { timestamp: 0 }),
    ];
    return {
      messages: messages.map((message) => ({ keys: Object.keys(message), message })),
      arrayKept: fromArray.content === blocks,
      usageShared: messages[0].usage === messages[1].usage,
    };
  });
  add("faux.assistantMessageTimestamp", () => {
    const before = Date.now();
    const message = ai.fauxAssistantMessage("now");
    const after = Date.now();
    return { timely: message.timestamp >= before && message.timestamp <= after, keys: Object.keys(message), nullOptions: outcome(() => ai.fauxAssistantMessage("x", null)) };
  });
}
