// Cases of pi-ai's built-in provider objects (pi-ai/providers/all's
// builtinProviders, builtinModels and radiusProvider) for the pi-ai case
// table (pi-ai-cases.mjs): each provider's shape in pi's order, its models,
// what its auth methods read and answer for a given environment or stored
// credential, their prompt-driven logins, OAuth credentials turned into
// request auth, Radius's dynamic catalog, and real requests through a
// Models collection of them to the local server of pi-ai-provider-cases.mjs.
// Nothing here reaches a vendor: OAuth logins and refreshes (browser flows)
// and classifications (which would call the vendor) are left out.
import {
  anthropicEnd,
  anthropicStart,
  anthropicText,
  chunk,
  completionsReply,
  finish,
  pieces,
  recordRequests,
  SIMPLE,
  SSE_HEADERS,
  sseReply,
} from "./pi-ai-provider-cases.mjs";

/** An auth context over a fixed environment that records what it is asked, in order. */
function recordingContext(lookup, fileExists = () => false) {
  const reads = [];
  return {
    reads,
    ctx: {
      env: async (name) => {
        reads.push(name);
        return lookup(name);
      },
      fileExists: async (path) => {
        reads.push(`file:${path}`);
        return fileExists(path);
      },
    },
  };
}

const fixedContext = (env, files = false) => ({
  env: async (name) => env[name],
  fileExists: async () => files,
});

/** What a promise settled to, an error reduced to its name and message. */
async function settled(promise) {
  try {
    const value = await promise;
    return value === undefined ? "<undefined>" : value;
  } catch (error) {
    return { thrown: error?.name, message: error?.message };
  }
}

/** The run's result with the process environment holding `vars` for `names`, then put back. */
export async function withProcessEnv(names, vars, run) {
  const saved = new Map(names.map((name) => [name, process.env[name]]));
  for (const name of names) delete process.env[name];
  Object.assign(process.env, vars);
  try {
    return await run();
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** A stream as data: its event types and its final message. */
async function drain(stream) {
  const events = [];
  for await (const event of stream) events.push(event.type);
  return { events, message: await stream.result() };
}

const FUTURE = () => Date.now() + 24 * 60 * 60 * 1000;
const oauthCredential = (extra = {}) => ({ type: "oauth", access: "oauth-access", refresh: "oauth-refresh", expires: FUTURE(), ...extra });

async function storeWith(ai, entries) {
  const credentials = new ai.InMemoryCredentialStore();
  for (const [providerId, credential] of Object.entries(entries)) await credentials.modify(providerId, async () => credential);
  return credentials;
}

/** Adds the cases through `add(name, run)`; `ai` is the pi-ai root, `aiProviders` pi-ai/providers/all. */
export function addBuiltinProviderCases(add, { ai, aiProviders }) {
  addShapeCases(add, aiProviders);
  addApiKeyCases(add, aiProviders);
  addLoginCases(add, aiProviders);
  addCollectionCases(add, ai, aiProviders);
  addRadiusCases(add, ai, aiProviders);
  addRequestCases(add, aiProviders);
  addClassifierCases(add, aiProviders);
}

// --- the providers themselves ----------------------------------------------------

function addShapeCases(add, aiProviders) {
  // The whole objects as data: keys in order, values, functions named as such.
  add("builtinProviders.shape", () => aiProviders.builtinProviders());
  add("builtinProviders.models", () =>
    aiProviders.builtinProviders().map((provider) => {
      const chat = provider.getModels();
      const all = provider.getAllModels?.() ?? chat;
      return {
        id: provider.id,
        chat: chat.map((model) => model.id),
        // Only listed where they differ from the chat models.
        all: all.length === chat.length ? "<same>" : all.map((model) => `${model.type ?? "chat"}:${model.id}`),
        // The catalog's own objects, except Radius's, which are its copies for the provider's id.
        catalogObjects: all.every((model) => aiProviders.getAllBuiltinModels(provider.id).includes(model)),
        providerField: [...new Set(all.map((model) => model.provider))],
      };
    }),
  );
  add("builtinProviders.fresh", () => {
    const first = aiProviders.builtinProviders();
    const second = aiProviders.builtinProviders();
    return first.map((provider, index) => {
      const other = second[index];
      return {
        id: provider.id,
        sameProvider: provider === other,
        sameApiKeyAuth: provider.auth.apiKey !== undefined && provider.auth.apiKey === other.auth.apiKey,
        sameOAuth: provider.auth.oauth !== undefined && provider.auth.oauth === other.auth.oauth,
        sameList: provider.getModels() === other.getModels(),
        sameFirstModel: provider.getModels()[0] === other.getModels()[0],
      };
    });
  });
  add("builtinProviders.radiusFirstModel", () => {
    const radius = aiProviders.builtinProviders().find((provider) => provider.id === "radius");
    const model = radius.getModels()[0];
    return { model, catalogCopy: model !== aiProviders.getBuiltinModel("radius", model.id) };
  });
}

// --- api-key auth: what each method reads and answers --------------------------------

const STORED = { type: "api_key", key: "stored-key", env: { CLOUDFLARE_ACCOUNT_ID: "stored-account", GOOGLE_CLOUD_PROJECT: "stored-project" } };

function addApiKeyCases(add, aiProviders) {
  const withKeys = () => aiProviders.builtinProviders().filter((provider) => provider.auth.apiKey);
  const resolveWith = async (provider, lookup, credential, files) => {
    const { reads, ctx } = recordingContext(lookup, files);
    const result = await settled(provider.auth.apiKey.resolve({ ctx, credential, signal: new AbortController().signal }));
    return { result, reads };
  };
  add("builtinProviders.apiKey.nothingSet", async () => {
    const out = {};
    for (const provider of withKeys()) out[provider.id] = await resolveWith(provider, () => undefined);
    return out;
  });
  add("builtinProviders.apiKey.everythingSet", async () => {
    const out = {};
    for (const provider of withKeys()) out[provider.id] = await resolveWith(provider, (name) => `env:${name}`, undefined, () => true);
    return out;
  });
  add("builtinProviders.apiKey.storedCredential", async () => {
    const out = {};
    for (const provider of withKeys()) out[provider.id] = await resolveWith(provider, () => undefined, structuredClone(STORED));
    return out;
  });
  add("builtinProviders.apiKey.aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const out = {};
    for (const provider of withKeys()) {
      const { reads, ctx } = recordingContext((name) => `env:${name}`);
      const result = await settled(provider.auth.apiKey.resolve({ ctx, credential: undefined, signal: controller.signal }));
      out[provider.id] = { thrown: result?.thrown, reads };
    }
    return out;
  });

  /** Each scenario's environment (and files, and stored credential) against one provider. */
  const scenarios = (providerId, list) => async () => {
    const provider = aiProviders.builtinProviders().find((entry) => entry.id === providerId);
    const out = [];
    for (const { env, files = false, credential } of list) {
      out.push(await resolveWith(provider, (name) => env[name], credential, () => files));
    }
    return out;
  };
  add(
    "builtinProviders.apiKey.anthropic",
    scenarios("anthropic", [
      { env: { ANTHROPIC_AUTH_TOKEN: "tok", ANTHROPIC_API_KEY: "key" } },
      { env: { ANTHROPIC_OAUTH_TOKEN: "oat", ANTHROPIC_API_KEY: "key" } },
      { env: { ANTHROPIC_API_KEY: "key" } },
      { env: { ANTHROPIC_FEDERATION_RULE_ID: "rule", ANTHROPIC_ORGANIZATION_ID: "org", ANTHROPIC_IDENTITY_TOKEN_FILE: "/tok" } },
      {
        env: {
          ANTHROPIC_FEDERATION_RULE_ID: "rule",
          ANTHROPIC_ORGANIZATION_ID: "org",
          ANTHROPIC_IDENTITY_TOKEN_FILE: "/tok",
          ANTHROPIC_SERVICE_ACCOUNT_ID: "sa",
          ANTHROPIC_WORKSPACE_ID: "ws",
        },
      },
      { env: { ANTHROPIC_FEDERATION_RULE_ID: "rule", ANTHROPIC_IDENTITY_TOKEN_FILE: "/tok" } },
      { env: { ANTHROPIC_API_KEY: "key" }, credential: { type: "api_key", key: "", env: { X: "y" } } },
    ]),
  );
  add(
    "builtinProviders.apiKey.bedrock",
    scenarios("amazon-bedrock", [
      { env: { AWS_BEARER_TOKEN_BEDROCK: "bt", AWS_PROFILE: "p" } },
      { env: { AWS_PROFILE: "p" } },
      { env: { AWS_PROFILE: "p" }, credential: { type: "api_key", env: { AWS_PROFILE: "stored" } } },
      { env: {}, credential: { type: "api_key", env: { REGION: "eu" } } },
      { env: { AWS_ACCESS_KEY_ID: "id" } },
      { env: { AWS_ACCESS_KEY_ID: "id", AWS_SECRET_ACCESS_KEY: "secret" } },
      { env: { AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: "/rel" } },
      { env: { AWS_CONTAINER_CREDENTIALS_FULL_URI: "http://x" } },
      { env: { AWS_WEB_IDENTITY_TOKEN_FILE: "/token" } },
    ]),
  );
  add(
    "builtinProviders.apiKey.vertex",
    scenarios("google-vertex", [
      { env: { GOOGLE_CLOUD_API_KEY: "gk" } },
      { env: { GOOGLE_CLOUD_PROJECT: "p", GOOGLE_CLOUD_LOCATION: "l" }, files: true },
      { env: { GCLOUD_PROJECT: "gp", GOOGLE_CLOUD_LOCATION: "l", GOOGLE_APPLICATION_CREDENTIALS: "/sa.json" }, files: true },
      { env: { GOOGLE_CLOUD_PROJECT: "p", GOOGLE_CLOUD_LOCATION: "l" }, files: false },
      { env: { GOOGLE_CLOUD_PROJECT: "p" }, files: true },
      {
        env: {},
        files: true,
        credential: { type: "api_key", env: { GOOGLE_CLOUD_PROJECT: "sp", GOOGLE_CLOUD_LOCATION: "sl", GOOGLE_APPLICATION_CREDENTIALS: "/stored.json" } },
      },
      { env: { GOOGLE_CLOUD_API_KEY: "gk" }, credential: { type: "api_key", key: "stored" } },
    ]),
  );
  const cloudflare = [
    { env: { CLOUDFLARE_API_KEY: "ck" } },
    { env: { CLOUDFLARE_API_KEY: "ck", CLOUDFLARE_ACCOUNT_ID: "acc" } },
    { env: { CLOUDFLARE_API_KEY: "ck", CLOUDFLARE_ACCOUNT_ID: "acc", CLOUDFLARE_GATEWAY_ID: "gw" } },
    { env: { CLOUDFLARE_ACCOUNT_ID: "env-acc", CLOUDFLARE_GATEWAY_ID: "env-gw" }, credential: { type: "api_key", key: "stored" } },
    { env: { CLOUDFLARE_API_KEY: "env-key" }, credential: { type: "api_key", env: { CLOUDFLARE_ACCOUNT_ID: "sa", CLOUDFLARE_GATEWAY_ID: "sg" } } },
  ];
  add("builtinProviders.apiKey.cloudflareWorkersAI", scenarios("cloudflare-workers-ai", cloudflare));
  add("builtinProviders.apiKey.cloudflareAIGateway", scenarios("cloudflare-ai-gateway", cloudflare));
  add(
    "builtinProviders.apiKey.qwenSharedVariable",
    scenarios("qwen-token-plan-individual-cn", [
      { env: { QWEN_TOKEN_PLAN_CN_API_KEY: "shared" } },
      { env: { QWEN_TOKEN_PLAN_CN_API_KEY: "shared", QWEN_TOKEN_PLAN_INDIVIDUAL_CN_API_KEY: "own" } },
      { env: { GROQ_API_KEY: "unrelated" } },
    ]),
  );
}

// --- logins that prompt (no browser) ------------------------------------------------

/** An interaction that answers prompts from `answers` in turn and records prompts and notices. */
function scriptedInteraction(answers) {
  const seen = [];
  const queue = [...answers];
  return {
    seen,
    interaction: {
      signal: new AbortController().signal,
      prompt: async (prompt) => {
        seen.push({ prompt });
        return queue.shift();
      },
      notify: (notice) => {
        seen.push({ notice });
      },
    },
  };
}

function addLoginCases(add, aiProviders) {
  const login = async (providerId, method, answers) => {
    const provider = aiProviders.builtinProviders().find((entry) => entry.id === providerId);
    const { seen, interaction } = scriptedInteraction(answers);
    const credential = await settled(provider.auth[method].login(interaction));
    return { providerId, credential, seen };
  };
  add("builtinProviders.apiKeyLogins", async () => [
    await login("groq", "apiKey", ["gsk-typed"]),
    await login("radius", "apiKey", ["rk-typed"]),
    await login("anthropic", "apiKey", ["sk-ant-typed"]),
    await login("amazon-bedrock", "apiKey", ["bearer-token", "bt-typed"]),
    await login("amazon-bedrock", "apiKey", ["aws-profile", "work"]),
    await login("amazon-bedrock", "apiKey", ["credential-chain", ""]),
    await login("amazon-bedrock", "apiKey", ["sso"]),
    await login("google-vertex", "apiKey", ["api-key", "gk-typed"]),
    await login("google-vertex", "apiKey", ["adc", "proj", "us-central1"]),
    await login("google-vertex", "apiKey", ["service-account", "proj", "europe-west4", "/sa.json"]),
    await login("google-vertex", "apiKey", ["other"]),
    await login("cloudflare-workers-ai", "apiKey", ["cf-key", "acc"]),
    await login("cloudflare-ai-gateway", "apiKey", ["cf-key", "acc", "gw"]),
  ]);
}

// --- in a Models collection ----------------------------------------------------------

function addCollectionCases(add, ai, aiProviders) {
  add("builtinModels.collection", async () => {
    const models = aiProviders.builtinModels({ authContext: fixedContext({ GROQ_API_KEY: "gk", MOONSHOT_API_KEY: "mk" }) });
    const groqModel = models.getModel("groq", "llama-3.1-8b-instant");
    const available = await models.getAvailable();
    const byProvider = {};
    for (const model of available) byProvider[model.provider] = (byProvider[model.provider] ?? 0) + 1;
    return {
      providers: models.getProviders().map((provider) => provider.id),
      sameAsCatalog: groqModel === aiProviders.getBuiltinModel("groq", "llama-3.1-8b-instant"),
      radius: models.getModel("radius", "balanced")?.provider,
      imageModels: models.getModelsOfType("image").length,
      classifierModels: models.getModelsOfType("classifier").map((model) => `${model.provider}/${model.id}`),
      groqAuth: await models.getAuth("groq"),
      groqModelAuth: await models.getAuth(groqModel),
      groqCheck: await models.checkAuth("groq"),
      openaiAuth: await settled(models.getAuth("openai")),
      openaiCheck: await settled(models.checkAuth("openai")),
      codexAuth: await settled(models.getAuth("openai-codex")),
      requestKey: await models.getAuth("openai", { apiKey: "given" }),
      available: byProvider,
      refreshable: models.getProviders().filter((provider) => provider.refreshModels).map((provider) => provider.id),
    };
  });
  add("builtinModels.processEnv", async () => {
    // Every variable the two providers read, so the host's own settings stay out of it.
    const names = [
      "GROQ_API_KEY",
      "ANTHROPIC_AUTH_TOKEN",
      "ANTHROPIC_OAUTH_TOKEN",
      "ANTHROPIC_API_KEY",
      "ANTHROPIC_FEDERATION_RULE_ID",
      "ANTHROPIC_ORGANIZATION_ID",
      "ANTHROPIC_IDENTITY_TOKEN_FILE",
      "ANTHROPIC_SERVICE_ACCOUNT_ID",
      "ANTHROPIC_WORKSPACE_ID",
    ];
    const read = async () => {
      const models = aiProviders.builtinModels();
      return {
        groq: await models.getAuth("groq"),
        groqCheck: await models.checkAuth("groq"),
        anthropic: await models.getAuth("anthropic"),
      };
    };
    return {
      set: await withProcessEnv(names, { GROQ_API_KEY: "from-process", ANTHROPIC_AUTH_TOKEN: "bearer-from-process", ANTHROPIC_API_KEY: "key" }, read),
      blank: await withProcessEnv(names, { GROQ_API_KEY: "  ", ANTHROPIC_API_KEY: "key" }, read),
      unset: await withProcessEnv(names, {}, read),
    };
  });
  add("builtinModels.oauthCredentials", async () => {
    const copilotIds = aiProviders.getBuiltinModels("github-copilot").map((model) => model.id);
    const credentials = await storeWith(ai, {
      anthropic: oauthCredential(),
      "github-copilot": oauthCredential({ access: "tid=1;exp=2;proxy-ep=proxy.business.githubcopilot.com;st=x", availableModelIds: [...copilotIds.slice(1, 3), "nope"] }),
      "kimi-coding": oauthCredential(),
      meta: oauthCredential(),
      openai: oauthCredential(),
      "openai-codex": oauthCredential(),
      openrouter: oauthCredential(),
      radius: oauthCredential(),
      xai: oauthCredential(),
      // A stored OAuth credential on a provider without OAuth resolves to nothing.
      groq: oauthCredential(),
    });
    const models = aiProviders.builtinModels({ credentials, authContext: fixedContext({ OPENAI_API_KEY: "env-key", GROQ_API_KEY: "gk" }) });
    const out = {};
    for (const id of ["anthropic", "github-copilot", "kimi-coding", "meta", "openai", "openai-codex", "openrouter", "radius", "xai", "groq"]) {
      out[id] = { auth: await settled(models.getAuth(id)), check: await settled(models.checkAuth(id)) };
    }
    out.copilotAvailable = (await models.getAvailable("github-copilot")).map((model) => model.id);
    out.copilotAllAvailable = (await models.getAllAvailable("github-copilot")).map((model) => model.id);
    out.openaiAllAvailableTypes = [...new Set((await models.getAllAvailable("openai")).map((model) => model.type ?? "chat"))];
    const copilotModel = models.getModel("github-copilot", models.getModels("github-copilot")[0].id);
    out.copilotModelAuth = await models.getAuth(copilotModel);
    return out;
  });
  add("builtinModels.copilotEndpoints", async () => {
    const out = [];
    for (const credential of [
      oauthCredential({ access: "tid=1;proxy-ep=proxy.enterprise.example.com;x=y" }),
      oauthCredential({ access: "no-proxy-here", enterpriseUrl: "https://github.acme.example/" }),
      oauthCredential({ access: "no-proxy-here", enterpriseUrl: "ghe.acme.example" }),
      oauthCredential({ access: "no-proxy-here", enterpriseUrl: "   " }),
      oauthCredential({ access: "no-proxy-here" }),
    ]) {
      const models = aiProviders.builtinModels({ credentials: await storeWith(ai, { "github-copilot": credential }), authContext: fixedContext({}) });
      out.push(await models.getAuth("github-copilot"));
    }
    return out;
  });
  add("builtinModels.openaiClassifiersWithoutOAuth", async () => {
    const models = aiProviders.builtinModels({ authContext: fixedContext({ OPENAI_API_KEY: "k" }) });
    return [...new Set((await models.getAllAvailable("openai")).map((model) => model.type ?? "chat"))];
  });
}

// --- Radius --------------------------------------------------------------------------

const gatewayModel = (id, extra = {}) => ({
  id,
  name: `Model ${id}`,
  reasoning: false,
  input: ["text"],
  cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 1000,
  maxTokens: 100,
  ...extra,
});

const RADIUS_USAGE = { input: 3, output: 4, cacheRead: 0, cacheWrite: 0, totalTokens: 7, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

function maskCheckedAt(entry) {
  return entry && { ...entry, checkedAt: typeof entry.checkedAt === "number" ? "<number>" : entry.checkedAt };
}

function addRadiusCases(add, ai, aiProviders) {
  add("radiusProvider.options", () => {
    const describe = (provider) => ({
      keys: Object.keys(provider),
      id: provider.id,
      name: provider.name,
      oauthName: provider.auth.oauth.name,
      apiKeyName: provider.auth.apiKey.name,
      models: provider.getModels().length,
      firstModel: provider.getModels()[0] && { id: provider.getModels()[0].id, provider: provider.getModels()[0].provider, baseUrl: provider.getModels()[0].baseUrl },
    });
    return [
      describe(aiProviders.radiusProvider()),
      describe(aiProviders.radiusProvider({ id: "team-radius", name: "Team Radius" })),
      describe(aiProviders.radiusProvider({ gateway: "radius.pi.dev/" })),
      describe(aiProviders.radiusProvider({ gateway: "HTTPS://radius.pi.dev" })),
      describe(aiProviders.radiusProvider({ id: "own", name: "Own", gateway: "https://radius.example.com//" })),
    ];
  });
  add("radiusProvider.refreshFromStore", async () => {
    const modelsStore = new ai.InMemoryModelsStore();
    const radiusModel = (id, provider = "stored-radius") => ({ ...gatewayModel(id), api: "pi-messages", provider, baseUrl: "https://radius.example.com/v1" });
    await modelsStore.write("stored-radius", {
      models: [radiusModel("kept"), radiusModel("elsewhere", "other"), { ...radiusModel("future"), type: "video" }, radiusModel("also-kept")],
      checkedAt: 5,
    });
    const models = ai.createModels({ modelsStore, authContext: fixedContext({}) });
    const provider = aiProviders.radiusProvider({ id: "stored-radius", gateway: "https://radius.example.com" });
    models.setProvider(provider);
    const before = models.getModels("stored-radius").map((model) => model.id);
    const result = await models.refresh({ allowNetwork: false });
    return {
      before,
      result: { aborted: result.aborted, errors: [...result.errors.keys()] },
      after: models.getModels("stored-radius").map((model) => model.id),
      stored: maskCheckedAt(await modelsStore.read("stored-radius")).models.length,
    };
  });
  add("radiusProvider.legacyCredentialCatalog", async () => {
    const modelsStore = new ai.InMemoryModelsStore();
    const credentials = await storeWith(ai, {
      radius: oauthCredential({
        gatewayConfig: { baseUrl: "https://radius.pi.dev/v1", models: [gatewayModel("legacy-a"), { id: "malformed" }, gatewayModel("legacy-b", { reasoning: true })] },
      }),
      "bad-radius": oauthCredential({ gatewayConfig: { models: [] } }),
    });
    const models = ai.createModels({ modelsStore, credentials, authContext: fixedContext({}) });
    models.setProvider(aiProviders.radiusProvider());
    models.setProvider(aiProviders.radiusProvider({ id: "bad-radius", gateway: "https://radius.example.com" }));
    const shipped = models.getModels("radius").length;
    const result = await models.refresh({ allowNetwork: false });
    return {
      shippedBefore: shipped > 0,
      result: { aborted: result.aborted, errors: [...result.errors.keys()] },
      after: models.getModels("radius"),
      persisted: maskCheckedAt(await modelsStore.read("radius")),
      bad: { models: models.getModels("bad-radius"), persisted: await settled(modelsStore.read("bad-radius")) },
    };
  });
  add("radiusProvider.refreshFromGateway", async () => {
    const recorded = await recordRequests(
      (url) => [
        // The config names the server's own address, so the models' requests come back here.
        {
          status: 200,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            baseUrl: `${url}/v1`,
            models: [gatewayModel("g-1"), gatewayModel("g-2", { input: ["text", "image"] }), { id: "broken", name: 3 }],
            extra: true,
          }),
        },
        {
          status: 200,
          headers: SSE_HEADERS,
          chunks: pieces(
            [
              { type: "start" },
              { type: "text_start", contentIndex: 0 },
              { type: "text_delta", contentIndex: 0, delta: "from the gateway" },
              { type: "text_end", contentIndex: 0, content: "from the gateway" },
              { type: "done", reason: "stop", usage: RADIUS_USAGE },
            ]
              .map((event) => `data: ${JSON.stringify(event)}\n\n`)
              .join(""),
            29,
          ),
        },
        { status: 503, body: "gateway down" },
        { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ baseUrl: 7 }) },
      ],
      async (url) => {
        const modelsStore = new ai.InMemoryModelsStore();
        const models = ai.createModels({ modelsStore, authContext: fixedContext({ RADIUS_API_KEY: "rk-env" }) });
        models.setProvider(aiProviders.radiusProvider({ id: "local-radius", name: "Local", gateway: `${url}/` }));
        const before = models.getModels("local-radius").length;
        const refreshed = await models.refresh();
        const after = models.getModels("local-radius");
        const streamed = await drain(models.stream(after[0], SIMPLE, { sessionId: "radius-session" }));
        const refreshErrors = async () => [...(await models.refresh()).errors].map(([id, error]) => [id, error.message]);
        return {
          before,
          refreshed: { aborted: refreshed.aborted, errors: [...refreshed.errors.keys()] },
          after,
          persisted: maskCheckedAt(await modelsStore.read("local-radius")),
          streamed,
          gatewayDown: await refreshErrors(),
          invalidConfig: await refreshErrors(),
          keptAfterFailures: models.getModels("local-radius").map((model) => model.id),
        };
      },
    );
    // The config is fetched with the engine's own fetch, whose user agent names the engine.
    for (const request of recorded.requests) if (request.path === "/v1/config") delete request.headers["user-agent"];
    return recorded;
  });
}

// --- requests through the built-in providers ------------------------------------------

const COMPLETION = () =>
  completionsReply([chunk({ role: "assistant", content: "Hi" }), chunk({ content: " there" }), finish("stop", { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 })]);
const ANTHROPIC = () => sseReply([anthropicStart(), ...anthropicText(0, ["Hel", "lo"]), ...anthropicEnd()]);

function addRequestCases(add, aiProviders) {
  /** The catalog model `provider/id` of `models`, sent to `baseUrl`. */
  const local = (models, provider, id, baseUrl) => ({ ...models.getModel(provider, id), baseUrl });
  add("builtinModels.requests.groq", () =>
    recordRequests([COMPLETION()], async (url) => {
      const models = aiProviders.builtinModels({ authContext: fixedContext({ GROQ_API_KEY: "gsk-env" }) });
      const unconfigured = aiProviders.builtinModels({ authContext: fixedContext({}) });
      const model = local(models, "groq", "llama-3.1-8b-instant", url);
      return {
        configured: await drain(models.stream(model, SIMPLE, { headers: { "X-Custom": "c" }, maxTokens: 64 })),
        unconfigured: await drain(unconfigured.stream(model, SIMPLE)),
      };
    }),
  );
  add("builtinModels.requests.anthropic", () =>
    recordRequests([ANTHROPIC(), ANTHROPIC(), ANTHROPIC()], async (url) => {
      const run = async (env, options = {}) => {
        const models = aiProviders.builtinModels({ authContext: fixedContext(env) });
        return drain(models.streamSimple(local(models, "anthropic", "claude-sonnet-4-5", url), SIMPLE, options));
      };
      return [
        await run({ ANTHROPIC_API_KEY: "sk-ant-env" }),
        await run({ ANTHROPIC_AUTH_TOKEN: "bearer-env", ANTHROPIC_API_KEY: "sk-ant-env" }),
        await run({}, { apiKey: "sk-ant-given", reasoning: "low" }),
      ];
    }),
  );
  add("builtinModels.requests.opencodeSession", () =>
    recordRequests([ANTHROPIC(), COMPLETION(), COMPLETION()], async (url) => {
      const models = aiProviders.builtinModels({ authContext: fixedContext({ OPENCODE_API_KEY: "oc-env" }) });
      return [
        await drain(models.stream(local(models, "opencode", "claude-fable-5", url), SIMPLE, { sessionId: "oc-session" })),
        await drain(models.stream(local(models, "opencode-go", "deepseek-v4-pro", url), SIMPLE, { sessionId: "go-session", headers: { "X-OpenCode-Session": "caller" } })),
        await drain(models.stream(local(models, "opencode", "big-pickle", url), SIMPLE)),
      ];
    }),
  );
  add("builtinModels.requests.cloudflare", () =>
    recordRequests([COMPLETION(), ANTHROPIC(), COMPLETION()], async (url) => {
      const models = aiProviders.builtinModels({
        authContext: fixedContext({ CLOUDFLARE_API_KEY: "cf-env", CLOUDFLARE_ACCOUNT_ID: "acc-1", CLOUDFLARE_GATEWAY_ID: "gw-1" }),
      });
      const workers = models.getModels("cloudflare-workers-ai")[0];
      const gateway = models.getModels("cloudflare-ai-gateway").find((model) => model.api === "anthropic-messages");
      const gatewayCompletions = models.getModels("cloudflare-ai-gateway").find((model) => model.api === "openai-completions");
      // The catalog's endpoint with the server in place of Cloudflare's host, placeholders kept.
      const onServer = (model) => ({ ...model, baseUrl: model.baseUrl.replace(/^https:\/\/[^/]+/, url) });
      return {
        endpoints: [workers.baseUrl, gateway.baseUrl, gatewayCompletions?.baseUrl],
        workers: await drain(models.stream(onServer(workers), SIMPLE)),
        gateway: await drain(models.stream(onServer(gateway), SIMPLE)),
        gatewayCompletions: gatewayCompletions ? await drain(models.stream(onServer(gatewayCompletions), SIMPLE)) : "<none>",
      };
    }),
  );
  add("builtinModels.requests.openrouterImages", () =>
    recordRequests(
      [
        {
          status: 200,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            id: "gen-img",
            choices: [{ message: { role: "assistant", content: "A cat", images: [{ type: "image_url", image_url: { url: "data:image/png;base64,QUJD" } }] } }],
            usage: { prompt_tokens: 10, completion_tokens: 20 },
          }),
        },
      ],
      async (url) => {
        const models = aiProviders.builtinModels({ authContext: fixedContext({ OPENROUTER_API_KEY: "or-env" }) });
        const image = models.getModelsOfType("image", "openrouter")[0];
        return {
          model: image.id,
          result: await models.generateImages({ ...image, baseUrl: url }, { input: [{ type: "text", text: "a cat" }] }),
          notImage: await models.generateImages(models.getModels("openrouter")[0], { input: [{ type: "text", text: "x" }] }),
        };
      },
    ),
  );
  add("builtinModels.requests.azureCompletions", () =>
    recordRequests([COMPLETION(), COMPLETION()], async (url) => {
      const models = aiProviders.builtinModels({ authContext: fixedContext({ AZURE_OPENAI_API_KEY: "az-env" }) });
      const model = models.getModels("azure").find((entry) => entry.api === "openai-completions");
      const payloads = [];
      return {
        model: { id: model.id, baseUrl: model.baseUrl },
        deployed: await drain(
          models.stream(model, SIMPLE, {
            env: { AZURE_OPENAI_BASE_URL: `${url}/openai/v1/`, AZURE_OPENAI_DEPLOYMENT_NAME_MAP: `other=x, ${model.id}=dep-1` },
            onPayload: (payload) => {
              payloads.push(payload.model);
              return undefined;
            },
          }),
        ),
        sameName: await drain(models.stream(model, SIMPLE, { env: { AZURE_OPENAI_BASE_URL: url } })),
        payloads,
        noEndpoint: await drain(models.stream(model, SIMPLE)),
      };
    }),
  );
}

// --- classifier apis against the local server ------------------------------------

const jsonReply = (status, body) => ({ status, headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });

const QUESTIONS = {
  spam: { type: "bool", instructions: "Is it spam?", criteria: { true: "unsolicited", false: "wanted" } },
  tone: { type: "choice", instructions: "Which tone?", criteria: { calm: "quiet", angry: "" } },
  urgency: { type: "score", instructions: "How urgent?", criteria: ["low", "mid", "high"] },
};
const STATE = { message: "Buy now!", from: "x@example.com" };
const PNG = { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" };
const GIF = { type: "image", data: "R0lGODlh", mimeType: "image/gif" };

const SYSTEM_ONE_ANSWERS = {
  answers: {
    spam: { type: "noul", noul: 0.91 },
    tone: { type: "choice", choice: "angry", probabilities: { calm: 0.2, angry: 0.8 }, confidence: 0.7 },
    urgency: { type: "score", score: 2, confidence: 0.6 },
  },
  usage: { input_tokens: 120, output_tokens: 6 },
};

const DECISION_ANSWERS = {
  answers: [
    { name: "spam", type: "predicate", probability: 0.12 },
    { name: "tone", type: "choice", choice: "calm", probabilities: [{ value: "calm", probability: 0.9 }, { value: "angry", probability: 0.1 }], confidence: 0.8 },
    { name: "urgency", type: "score", score: 1, confidence: 0.5 },
  ],
  usage: { input_tokens: 300, output_tokens: 9 },
};

function addClassifierCases(add, aiProviders) {
  const onServer = (model, url) => ({ ...model, baseUrl: model.baseUrl.replace(/^https:\/\/[^/]+/, url) });
  const classifier = (models, provider, id) => models.getModelOfType("classifier", provider, id);
  add("builtinModels.classify.typesafeSystemOne", () =>
    recordRequests([jsonReply(200, SYSTEM_ONE_ANSWERS), jsonReply(200, SYSTEM_ONE_ANSWERS), jsonReply(200, SYSTEM_ONE_ANSWERS)], async (url) => {
      const models = aiProviders.builtinModels({ authContext: fixedContext({ TYPESAFE_API_KEY: "ts-key", OPENROUTER_API_KEY: "or-key", OPENCODE_API_KEY: "oc-key" }) });
      const typesafe = onServer(classifier(models, "typesafe", "jev-latest"), url);
      const openrouter = { ...classifier(models, "openrouter", "liquid/d1"), baseUrl: `${url}/api/v1` };
      const opencode = onServer(classifier(models, "opencode", "jev-1.13"), url);
      return {
        typesafe: await models.classify(typesafe, { state: STATE, questions: QUESTIONS, images: [PNG] }, { headers: { "X-Custom": "c" } }),
        openrouter: await models.classify(openrouter, { state: STATE, questions: QUESTIONS, images: [PNG] }),
        opencode: await models.classify(opencode, { state: STATE, questions: { spam: QUESTIONS.spam } }),
        textOnly: await models.classify(opencode, { state: STATE, questions: QUESTIONS, images: [PNG] }),
        badImage: await models.classify(typesafe, { state: STATE, questions: QUESTIONS, images: [GIF] }),
      };
    }),
  );
  add("builtinModels.classify.systemOneFailures", () =>
    recordRequests(
      [
        jsonReply(400, { error: { message: "bad question" } }),
        jsonReply(200, { answers: { spam: { type: "choice", choice: "x" } }, usage: { input_tokens: 5, output_tokens: 1 } }),
        jsonReply(200, { answers: {} }),
        jsonReply(200, []),
        jsonReply(200, { answers: { spam: { type: "noul", noul: "high" } } }),
      ],
      async (url) => {
        const models = aiProviders.builtinModels({ authContext: fixedContext({ TYPESAFE_API_KEY: "ts-key" }) });
        const unconfigured = aiProviders.builtinModels({ authContext: fixedContext({}) });
        const typesafe = onServer(classifier(models, "typesafe", "jev-latest"), url);
        const ask = (questions = { spam: QUESTIONS.spam }) => models.classify(typesafe, { state: STATE, questions }, { maxRetries: 0 });
        return {
          status: await ask(),
          wrongType: await ask(),
          missing: await ask(),
          notAnObject: await ask(),
          badNumber: await ask(),
          noKey: await unconfigured.classify(typesafe, { state: STATE, questions: QUESTIONS }),
        };
      },
    ),
  );
  add("builtinModels.classify.cloudflareWorkersAI", () =>
    recordRequests(
      [
        jsonReply(200, { success: true, result: { model: "@cf/cloudflare/clef", ...SYSTEM_ONE_ANSWERS } }),
        jsonReply(200, { success: true, result: { state: "Completed", result: SYSTEM_ONE_ANSWERS } }),
        jsonReply(200, { success: true, result: { state: "Running" } }),
        jsonReply(200, { success: false, errors: [{ message: "quota" }, { message: "again" }] }),
      ],
      async (url) => {
        const models = aiProviders.builtinModels({ authContext: fixedContext({ CLOUDFLARE_API_KEY: "cf-key", CLOUDFLARE_ACCOUNT_ID: "acc-1" }) });
        const clef = onServer(classifier(models, "cloudflare-workers-ai", "@cf/cloudflare/clef"), url);
        const jev = onServer(classifier(models, "cloudflare-workers-ai", "typesafe/jev"), url);
        return {
          endpoint: classifier(models, "cloudflare-workers-ai", "@cf/cloudflare/clef").baseUrl,
          clef: await models.classify(clef, { state: STATE, questions: QUESTIONS, images: [PNG] }),
          jev: await models.classify(jev, { state: STATE, questions: QUESTIONS, images: [PNG] }),
          running: await models.classify(jev, { state: STATE, questions: QUESTIONS }),
          failed: await models.classify(jev, { state: STATE, questions: QUESTIONS }),
        };
      },
    ),
  );
  add("builtinModels.classify.openAIDecisions", () =>
    recordRequests(
      [
        jsonReply(200, DECISION_ANSWERS),
        jsonReply(200, DECISION_ANSWERS),
        jsonReply(200, { answers: [{ name: "spam", type: "refusal" }], usage: { input_tokens: 10, output_tokens: 1 } }),
        { status: 504, headers: { "content-type": "text/html" }, body: "<html>gateway timeout</html>" },
        jsonReply(500, { error: { message: "try later" } }),
        jsonReply(200, DECISION_ANSWERS),
      ],
      async (url) => {
        const models = aiProviders.builtinModels({ authContext: fixedContext({ OPENAI_API_KEY: "sk-openai" }) });
        const luna = onServer(classifier(models, "openai", "gpt-6-luna"), url);
        return {
          plain: await models.classify(luna, { state: STATE, questions: QUESTIONS }),
          images: await models.classify(luna, { state: STATE, questions: { spam: QUESTIONS.spam }, images: [PNG] }),
          refusal: await models.classify(luna, { state: STATE, questions: { spam: QUESTIONS.spam } }),
          gatewayTimeout: await models.classify(luna, { state: STATE, questions: QUESTIONS }, { maxRetries: 2 }),
          retried: await models.classify(luna, { state: STATE, questions: QUESTIONS }, { maxRetries: 1, maxRetryDelayMs: 0 }),
        };
      },
    ),
  );
}
