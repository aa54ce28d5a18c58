// pi-ai's built-in providers (builtinProviders and builtinModels of
// pi-ai/providers/all): one provider object per vendor pi 1.6.0 ships, in
// pi's order, each with pi's id, name, endpoint, auth methods and catalog
// (the recorded one, catalog.js), streaming through pihost's own api
// implementations (builtin-apis.js). What pihost lacks fails when used, not
// when the provider is built: the OAuth logins (builtin-oauth.js), the
// classifier apis and Bedrock without a module set for it.
import * as apis from "./builtin-apis.js";
import { builtinOAuth, copilotAuth, kimiBearerAuth } from "./builtin-oauth.js";
import { getAllBuiltinModels } from "./catalog.js";
import {
  ANTHROPIC_API_KEY_ENV,
  ANTHROPIC_AUTH_TOKEN_ENV,
  ANTHROPIC_FEDERATION_RULE_ID_ENV,
  ANTHROPIC_IDENTITY_TOKEN_FILE_ENV,
  ANTHROPIC_OAUTH_TOKEN_ENV,
  ANTHROPIC_ORGANIZATION_ID_ENV,
  ANTHROPIC_SERVICE_ACCOUNT_ID_ENV,
  ANTHROPIC_WORKSPACE_ID_ENV,
} from "./env-api-keys.js";
import { lazyStream } from "./lazy-stream.js";
import { isModelType } from "./model-kinds.js";
import { createModels, createProvider } from "./models-collection.js";
import { envApiKeyAuth } from "./provider-auth.js";
import { radiusProvider } from "./radius-provider.js";

/** A provider over its recorded catalog (chat, image and classifier models, in that order, as pi lists them). */
function builtin(id, name, baseUrl, auth, api, extra = {}) {
  return createProvider({ id, name, baseUrl, auth, models: getAllBuiltinModels(id), api, ...extra });
}

/** The common case: an API key from the environment, sent to an OpenAI-compatible endpoint unless `api` says otherwise. */
function keyed(id, name, baseUrl, keyName, envVars, api = apis.openAICompletionsApi) {
  return () => builtin(id, name, baseUrl, { apiKey: envApiKeyAuth(keyName, envVars) }, api());
}

/** `ctx.env(name)` between abort checks, so a cancelled resolution stops reading. */
function envReader(ctx, signal) {
  return async (name) => {
    signal.throwIfAborted();
    const value = await ctx.env(name);
    signal.throwIfAborted();
    return value;
  };
}

async function promptSecret(interaction, message) {
  interaction.signal.throwIfAborted();
  const key = await interaction.prompt({ type: "secret", message });
  interaction.signal.throwIfAborted();
  return { type: "api_key", key };
}

// --- Amazon Bedrock ------------------------------------------------------------------

// One object for every Bedrock provider built, as in pi. The AWS SDK finds
// ambient credentials itself; resolve only says which source it would use.
const bedrockAuth = {
  name: "AWS credentials or bearer token",
  login: async (interaction) => {
    interaction.signal.throwIfAborted();
    const method = await interaction.prompt({
      type: "select",
      message: "Select Amazon Bedrock authentication method:",
      options: [
        { id: "bearer-token", label: "Bearer token" },
        { id: "aws-profile", label: "AWS profile" },
        { id: "credential-chain", label: "Existing AWS credential chain" },
      ],
    });
    interaction.signal.throwIfAborted();
    if (method === "bearer-token") {
      return { type: "api_key", key: await interaction.prompt({ type: "secret", message: "Enter Amazon Bedrock bearer token" }) };
    }
    interaction.notify({
      type: "info",
      message: "Amazon Bedrock supports AWS profiles, IAM credentials, and role-based credentials.",
      links: [{ label: "AWS credential provider chain", url: "https://docs.aws.amazon.com/sdkref/latest/guide/standardized-credentials.html" }],
    });
    if (method === "aws-profile") {
      return { type: "api_key", env: { AWS_PROFILE: await interaction.prompt({ type: "text", message: "Enter AWS profile name" }) } };
    }
    if (method !== "credential-chain") throw new Error(`Unknown Amazon Bedrock auth method: ${method}`);
    await interaction.prompt({ type: "text", message: "Configure AWS credentials, then press Enter to continue" });
    return { type: "api_key" };
  },
  resolve: async ({ ctx, credential, signal }) => {
    const env = envReader(ctx, signal);
    if (credential?.key) return { auth: { apiKey: credential.key }, env: credential.env, source: "stored credential" };
    if (await env("AWS_BEARER_TOKEN_BEDROCK")) return { auth: {}, source: "AWS_BEARER_TOKEN_BEDROCK" };
    const storedProfile = credential?.env?.AWS_PROFILE;
    if (storedProfile ?? (await env("AWS_PROFILE"))) {
      return { auth: {}, env: credential?.env, source: storedProfile ? "stored credential" : "AWS_PROFILE" };
    }
    if ((await env("AWS_ACCESS_KEY_ID")) && (await env("AWS_SECRET_ACCESS_KEY"))) return { auth: {}, source: "AWS access keys" };
    if (await env("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI")) return { auth: {}, source: "ECS task role" };
    if (await env("AWS_CONTAINER_CREDENTIALS_FULL_URI")) return { auth: {}, source: "ECS task role" };
    if (await env("AWS_WEB_IDENTITY_TOKEN_FILE")) return { auth: {}, source: "web identity token" };
    return undefined;
  },
};

const amazonBedrock = () => builtin("amazon-bedrock", "Amazon Bedrock", undefined, { apiKey: bedrockAuth }, apis.bedrockConverseStreamApi());

// --- Anthropic -----------------------------------------------------------------------

// Identity federation's settings: the first three are required, the rest optional.
const FEDERATION_REQUIRED = [ANTHROPIC_FEDERATION_RULE_ID_ENV, ANTHROPIC_ORGANIZATION_ID_ENV, ANTHROPIC_IDENTITY_TOKEN_FILE_ENV];
const FEDERATION_OPTIONAL = [ANTHROPIC_SERVICE_ACCOUNT_ID_ENV, ANTHROPIC_WORKSPACE_ID_ENV];

function anthropicKeyAuth() {
  return {
    name: "Anthropic API key",
    login: (interaction) => promptSecret(interaction, "Enter Anthropic API key"),
    resolve: async ({ ctx, credential, signal }) => {
      signal.throwIfAborted();
      if (credential?.key) return { auth: { apiKey: credential.key }, env: credential.env, source: "stored credential" };
      const read = async (name) => {
        const value = await ctx.env(name);
        signal.throwIfAborted();
        return value;
      };
      // An auth token is a bearer token, never an x-api-key.
      const authToken = await read(ANTHROPIC_AUTH_TOKEN_ENV);
      if (authToken) return { auth: { headers: { Authorization: `Bearer ${authToken}` } }, source: ANTHROPIC_AUTH_TOKEN_ENV };
      for (const name of [ANTHROPIC_OAUTH_TOKEN_ENV, ANTHROPIC_API_KEY_ENV]) {
        const apiKey = await read(name);
        if (apiKey) return { auth: { apiKey }, source: name };
      }
      // Workload identity federation comes last, so any key still wins. The
      // SDK exchanges the identity token itself; the ids it needs are
      // settings, so they travel as env rather than as auth.
      const federation = {};
      for (const name of FEDERATION_REQUIRED) {
        const value = await read(name);
        if (!value) return undefined;
        federation[name] = value;
      }
      for (const name of FEDERATION_OPTIONAL) {
        const value = await read(name);
        if (value) federation[name] = value;
      }
      return { auth: {}, env: federation, source: "workload identity federation" };
    },
  };
}

const anthropic = () =>
  builtin(
    "anthropic",
    "Anthropic",
    "https://api.anthropic.com",
    { apiKey: anthropicKeyAuth(), oauth: builtinOAuth({ flow: "Anthropic", name: "Anthropic (Claude Pro/Max)", isSubscription: true }) },
    apis.anthropicMessagesApi(),
  );

// --- Azure ---------------------------------------------------------------------------

/**
 * Chat Completions on Azure: the endpoint and deployment are worked out per
 * request (options, then AZURE_OPENAI_* settings), inside the lazy stream so
 * a missing endpoint ends the stream with an error instead of throwing. The
 * deployment goes out as the request's model; the catalog id stays the model's.
 */
function azureCompletions(streams) {
  const run = (kind) => (model, context, options) =>
    lazyStream(model, async () => {
      const { resolveAzureBaseUrl, resolveDeploymentName } = await import("./apis/azure-openai-responses.js");
      const target = { ...model, baseUrl: resolveAzureBaseUrl(model, options) };
      const deployment = resolveDeploymentName(model, options);
      let requestOptions = options;
      if (deployment !== model.id) {
        requestOptions = {
          ...options,
          onPayload: async (payload, payloadModel) => {
            const renamed = { ...payload, model: deployment };
            return (await options?.onPayload?.(renamed, payloadModel)) ?? renamed;
          },
        };
      }
      return streams[kind](target, context, requestOptions);
    });
  return { stream: run("stream"), streamSimple: run("streamSimple") };
}

const azure = () =>
  builtin("azure", "Azure", undefined, { apiKey: envApiKeyAuth("Azure OpenAI API key", ["AZURE_OPENAI_API_KEY"]) }, {
    "azure-openai-responses": apis.azureOpenAIResponsesApi(),
    "openai-completions": azureCompletions(apis.openAICompletionsApi()),
  });

// --- Cloudflare ----------------------------------------------------------------------

const CLOUDFLARE_API_KEY = "CLOUDFLARE_API_KEY";
const CLOUDFLARE_ACCOUNT_ID = "CLOUDFLARE_ACCOUNT_ID";
const CLOUDFLARE_GATEWAY_ID = "CLOUDFLARE_GATEWAY_ID";

/**
 * The key and the account (and gateway) ids, each from the stored
 * credential when it has that one, else from the environment: a stored key
 * alone still picks the ids up from the environment.
 */
async function cloudflareSettings(withGateway, ctx, credential, signal) {
  const value = async (name) => {
    const stored = credential ? (name === CLOUDFLARE_API_KEY ? credential.key : credential.env?.[name]) : undefined;
    if (stored !== undefined) return stored;
    signal.throwIfAborted();
    const found = await ctx.env(name);
    signal.throwIfAborted();
    return found;
  };
  const apiKey = await value(CLOUDFLARE_API_KEY);
  const accountId = await value(CLOUDFLARE_ACCOUNT_ID);
  const gatewayId = withGateway ? await value(CLOUDFLARE_GATEWAY_ID) : undefined;
  if (!apiKey || !accountId || (withGateway && !gatewayId)) return undefined;
  return {
    apiKey,
    env: { [CLOUDFLARE_ACCOUNT_ID]: accountId, ...(gatewayId ? { [CLOUDFLARE_GATEWAY_ID]: gatewayId } : {}) },
    source: credential ? "stored credential" : CLOUDFLARE_API_KEY,
  };
}

function cloudflareAuth(withGateway) {
  return {
    name: "Cloudflare API key",
    login: async (interaction) => {
      const key = await interaction.prompt({ type: "secret", message: "Enter Cloudflare API key" });
      const env = { [CLOUDFLARE_ACCOUNT_ID]: await interaction.prompt({ type: "text", message: "Enter Cloudflare account ID" }) };
      if (withGateway) env[CLOUDFLARE_GATEWAY_ID] = await interaction.prompt({ type: "text", message: "Enter Cloudflare AI Gateway ID" });
      return { type: "api_key", key, env };
    },
    resolve: async ({ ctx, credential, signal }) => {
      const settings = await cloudflareSettings(withGateway, ctx, credential, signal);
      if (!settings) return undefined;
      // The gateway authenticates itself with cf-aig-authorization and must
      // not see the vendor's own auth headers, which the SDKs would add.
      const auth = withGateway
        ? { headers: { "cf-aig-authorization": `Bearer ${settings.apiKey}`, Authorization: null, "x-api-key": null } }
        : { apiKey: settings.apiKey };
      return { auth, env: settings.env, source: settings.source };
    },
  };
}

/** The catalog's endpoints hold {CLOUDFLARE_ACCOUNT_ID} and {CLOUDFLARE_GATEWAY_ID}; the resolved env fills them in. */
function cloudflareModel(model, env) {
  if (!env) return model;
  const fill = (url, name) => url.replaceAll(`{${name}}`, env[name] ?? `{${name}}`);
  const baseUrl = fill(fill(model.baseUrl, CLOUDFLARE_ACCOUNT_ID), CLOUDFLARE_GATEWAY_ID);
  return baseUrl === model.baseUrl ? model : { ...model, baseUrl };
}

function cloudflareStreams(streams) {
  return {
    stream: (model, context, options) => streams.stream(cloudflareModel(model, options?.env), context, options),
    streamSimple: (model, context, options) => streams.streamSimple(cloudflareModel(model, options?.env), context, options),
  };
}

function cloudflareClassifier(classifier) {
  return { classify: (model, context, options) => classifier.classify(cloudflareModel(model, options?.env), context, options) };
}

const cloudflareAIGateway = () =>
  // All three apis always, though the catalog may list no model of one:
  // models.dev drops and restores the gateway's workers-ai entries.
  builtin("cloudflare-ai-gateway", "Cloudflare AI Gateway", undefined, { apiKey: cloudflareAuth(true) }, {
    "anthropic-messages": cloudflareStreams(apis.anthropicMessagesApi()),
    "openai-completions": cloudflareStreams(apis.openAICompletionsApi()),
    "openai-responses": cloudflareStreams(apis.openAIResponsesApi()),
  });

const cloudflareWorkersAI = () =>
  builtin("cloudflare-workers-ai", "Cloudflare Workers AI", undefined, { apiKey: cloudflareAuth(false) }, cloudflareStreams(apis.openAICompletionsApi()), {
    classifiers: { "cloudflare-workers-ai-system-one": cloudflareClassifier(apis.cloudflareWorkersAISystemOneApi()) },
  });

// --- GitHub Copilot ------------------------------------------------------------------

/** Copilot serves System One under /v1, its chat apis without a prefix, and the login's endpoint replaces the catalog's. */
function copilotSystemOne(classifier) {
  return {
    classify: (model, context, options) => classifier.classify({ ...model, baseUrl: `${model.baseUrl.replace(/\/+$/, "")}/v1` }, context, options),
  };
}

/** A Copilot login lists the models the account may use; without such a list every model stays. */
function copilotAvailable(models, credential) {
  if (credential?.type !== "oauth") return models;
  const ids = credential.availableModelIds;
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === "string")) return models;
  const available = new Set(ids);
  return models.filter((model) => available.has(model.id));
}

const githubCopilot = () =>
  builtin(
    "github-copilot",
    "GitHub Copilot",
    "https://api.individual.githubcopilot.com",
    {
      apiKey: envApiKeyAuth("GitHub Copilot token", ["COPILOT_GITHUB_TOKEN"]),
      oauth: builtinOAuth({ flow: "GitHub Copilot", name: "GitHub Copilot", isSubscription: true, toAuth: copilotAuth }),
    },
    {
      "anthropic-messages": apis.anthropicMessagesApi(),
      "openai-completions": apis.openAICompletionsApi(),
      "openai-responses": apis.openAIResponsesApi(),
    },
    { filterModels: copilotAvailable, classifiers: { "typesafe-system-one": copilotSystemOne(apis.typesafeSystemOneApi()) } },
  );

// --- Google Vertex -------------------------------------------------------------------

const VERTEX_ADC_PATH = "~/.config/gcloud/application_default_credentials.json";

// One object for every Vertex provider built, as in pi. An API key, or
// application default credentials with a project and a location (which the
// api reads itself).
const vertexAuth = {
  name: "Google Cloud credentials",
  login: async (interaction) => {
    interaction.signal.throwIfAborted();
    const method = await interaction.prompt({
      type: "select",
      message: "Select Google Vertex AI authentication method:",
      options: [
        { id: "api-key", label: "Google Cloud API key" },
        { id: "adc", label: "Application Default Credentials" },
        { id: "service-account", label: "Service account credentials file" },
      ],
    });
    interaction.signal.throwIfAborted();
    if (method === "api-key") {
      return { type: "api_key", key: await interaction.prompt({ type: "secret", message: "Enter Google Cloud API key" }) };
    }
    if (method !== "adc" && method !== "service-account") throw new Error(`Unknown Google Vertex AI auth method: ${method}`);
    interaction.notify({
      type: "info",
      message:
        method === "adc"
          ? "Run `gcloud auth application-default login`, then provide the project and location."
          : "Provide a service account credentials file, project, and location.",
      links: [{ label: "Application Default Credentials", url: "https://cloud.google.com/docs/authentication/provide-credentials-adc" }],
    });
    const project = await interaction.prompt({ type: "text", message: "Enter Google Cloud project ID" });
    const location = await interaction.prompt({ type: "text", message: "Enter Google Cloud location" });
    const credentialsPath =
      method === "service-account" ? await interaction.prompt({ type: "text", message: "Enter service account credentials file path" }) : undefined;
    return {
      type: "api_key",
      env: {
        GOOGLE_CLOUD_PROJECT: project,
        GOOGLE_CLOUD_LOCATION: location,
        ...(credentialsPath ? { GOOGLE_APPLICATION_CREDENTIALS: credentialsPath } : {}),
      },
    };
  },
  resolve: async ({ ctx, credential, signal }) => {
    const env = envReader(ctx, signal);
    const stored = credential?.env;
    const key = credential?.key ?? (await env("GOOGLE_CLOUD_API_KEY"));
    if (key) return { auth: { apiKey: key }, source: credential?.key ? "stored credential" : "GOOGLE_CLOUD_API_KEY" };
    const credentialsPath = stored?.GOOGLE_APPLICATION_CREDENTIALS ?? (await env("GOOGLE_APPLICATION_CREDENTIALS"));
    signal.throwIfAborted();
    const hasCredentials = await ctx.fileExists(credentialsPath ?? VERTEX_ADC_PATH);
    signal.throwIfAborted();
    const project = stored?.GOOGLE_CLOUD_PROJECT ?? (await env("GOOGLE_CLOUD_PROJECT")) ?? (await env("GCLOUD_PROJECT"));
    const location = stored?.GOOGLE_CLOUD_LOCATION ?? (await env("GOOGLE_CLOUD_LOCATION"));
    if (!hasCredentials || !project || !location) return undefined;
    return { auth: {}, env: stored, source: credential ? "stored credential" : "gcloud application default credentials" };
  },
};

const googleVertex = () => builtin("google-vertex", "Google Vertex AI", undefined, { apiKey: vertexAuth }, apis.googleVertexApi());

// --- OpenAI --------------------------------------------------------------------------

const openai = () =>
  builtin(
    "openai",
    "OpenAI",
    "https://api.openai.com/v1",
    {
      apiKey: envApiKeyAuth("OpenAI API key", ["OPENAI_API_KEY"]),
      oauth: builtinOAuth({ flow: "ChatGPT", name: "OpenAI (ChatGPT subscription)", isSubscription: true, loginLabel: "Sign in with ChatGPT" }),
    },
    apis.openAIResponsesApi(),
    {
      // A ChatGPT sign-in's token reaches only the Responses api; the Decisions api refuses it.
      filterAllModels: (models, credential) => (credential?.type === "oauth" ? models.filter((model) => !isModelType(model, "classifier")) : models),
      classifiers: { "openai-decisions": apis.openAIDecisionsApi() },
    },
  );

const openaiCodex = () =>
  builtin(
    "openai-codex",
    "OpenAI Codex",
    "https://chatgpt.com/backend-api",
    { oauth: builtinOAuth({ flow: "OpenAI Codex", name: "OpenAI (ChatGPT Plus/Pro)", isSubscription: true }) },
    apis.openAICodexResponsesApi(),
  );

// --- OpenCode ------------------------------------------------------------------------

const OPENCODE_SESSION_HEADER = "x-opencode-session";

/** OpenCode routes a conversation by its session header; the request's session id fills it unless the caller set one. */
function withOpenCodeSession(streams) {
  const withHeader = (options) => {
    if (!options?.sessionId) return options;
    const named = Object.keys(options.headers ?? {}).some((header) => header.toLowerCase() === OPENCODE_SESSION_HEADER);
    return named ? options : { ...options, headers: { ...options.headers, [OPENCODE_SESSION_HEADER]: options.sessionId } };
  };
  return {
    ...streams,
    stream: (model, context, options) => streams.stream(model, context, withHeader(options)),
    streamSimple: (model, context, options) => streams.streamSimple(model, context, withHeader(options)),
  };
}

function openCodeApis() {
  return {
    "anthropic-messages": withOpenCodeSession(apis.anthropicMessagesApi()),
    "google-generative-ai": withOpenCodeSession(apis.googleGenerativeAIApi()),
    "openai-completions": withOpenCodeSession(apis.openAICompletionsApi()),
    "openai-responses": withOpenCodeSession(apis.openAIResponsesApi()),
  };
}

const openCodeKey = () => ({ apiKey: envApiKeyAuth("OpenCode API key", ["OPENCODE_API_KEY"]) });

const opencode = () =>
  builtin("opencode", "OpenCode Zen", undefined, openCodeKey(), openCodeApis(), {
    classifiers: { "typesafe-system-one": apis.typesafeSystemOneApi() },
  });

const opencodeGo = () => builtin("opencode-go", "OpenCode Go", undefined, openCodeKey(), openCodeApis());

// --- OpenRouter ----------------------------------------------------------------------

const openrouter = () =>
  builtin(
    "openrouter",
    "OpenRouter",
    "https://openrouter.ai/api/v1",
    {
      apiKey: envApiKeyAuth("OpenRouter API key", ["OPENROUTER_API_KEY"]),
      oauth: builtinOAuth({ flow: "OpenRouter", name: "OpenRouter OAuth", loginLabel: "Sign in with OpenRouter" }),
    },
    { "anthropic-messages": apis.anthropicMessagesApi(), "openai-completions": apis.openAICompletionsApi() },
    { images: { "openrouter-images": apis.openrouterImagesApi() }, classifiers: { "typesafe-system-one": apis.typesafeSystemOneApi() } },
  );

// --- subscriptions with their own sign-in ------------------------------------------

const kimiCoding = () =>
  builtin(
    "kimi-coding",
    "Kimi For Coding",
    "https://api.kimi.com/coding/v1",
    {
      apiKey: envApiKeyAuth("Kimi API key", ["KIMI_API_KEY"]),
      oauth: builtinOAuth({
        flow: "Kimi Code",
        name: "Kimi Code (subscription)",
        isSubscription: true,
        loginLabel: "Sign in with Kimi Code",
        toAuth: kimiBearerAuth,
      }),
    },
    apis.openAICompletionsApi(),
  );

const meta = () =>
  builtin(
    "meta",
    "Meta",
    "https://api.meta.ai/v1",
    {
      apiKey: envApiKeyAuth("Meta Model API key", ["META_API_KEY"]),
      oauth: builtinOAuth({ flow: "Meta", name: "Meta (Muse subscription)", isSubscription: true, loginLabel: "Sign in with Meta" }),
    },
    apis.openAIResponsesApi(),
  );

const xai = () =>
  builtin(
    "xai",
    "xAI",
    "https://api.x.ai/v1",
    {
      apiKey: envApiKeyAuth("xAI API key", ["XAI_API_KEY"]),
      oauth: builtinOAuth({
        flow: "xAI",
        name: "xAI (Grok/X subscription)",
        isSubscription: true,
        loginLabel: "Sign in with SuperGrok or X Premium",
      }),
    },
    apis.openAIResponsesApi(),
  );

// --- classifiers only, or with them ------------------------------------------------

const typesafe = () =>
  createProvider({
    id: "typesafe",
    name: "TypeSafe",
    auth: { apiKey: envApiKeyAuth("TypeSafe API key", ["TYPESAFE_API_KEY"]) },
    models: getAllBuiltinModels("typesafe"),
    classifiers: { "typesafe-system-one": apis.typesafeSystemOneApi() },
  });

const vercelAIGateway = () =>
  builtin(
    "vercel-ai-gateway",
    "Vercel AI Gateway",
    "https://ai-gateway.vercel.sh",
    { apiKey: envApiKeyAuth("Vercel AI Gateway API key", ["AI_GATEWAY_API_KEY"]) },
    apis.anthropicMessagesApi(),
    { classifiers: { "typesafe-system-one": apis.typesafeSystemOneApi() } },
  );

// --- every built-in provider, in pi's order ------------------------------------------

const QWEN_INTL = "https://token-plan.maas.qwencloudapi.com/compatible-mode/v1";
const QWEN_CN = "https://token-plan.maas.qianwenaiapi.com/compatible-mode/v1";

const BUILTIN = [
  amazonBedrock,
  keyed("ant-ling", "Ant Ling", "https://api.ant-ling.com/v1", "Ant Ling API key", ["ANT_LING_API_KEY"]),
  anthropic,
  azure,
  keyed("baseten", "Baseten", "https://inference.baseten.co/v1", "Baseten API key", ["BASETEN_API_KEY"]),
  keyed("cerebras", "Cerebras", "https://api.cerebras.ai/v1", "Cerebras API key", ["CEREBRAS_API_KEY"]),
  cloudflareAIGateway,
  cloudflareWorkersAI,
  keyed("deepseek", "DeepSeek", "https://api.deepseek.com", "DeepSeek API key", ["DEEPSEEK_API_KEY"]),
  keyed("fireworks", "Fireworks", "https://api.fireworks.ai/inference", "Fireworks API key", ["FIREWORKS_API_KEY"], () => ({
    "anthropic-messages": apis.anthropicMessagesApi(),
    "openai-completions": apis.openAICompletionsApi(),
  })),
  githubCopilot,
  keyed("google", "Google", "https://generativelanguage.googleapis.com/v1beta", "Gemini API key", ["GEMINI_API_KEY"], apis.googleGenerativeAIApi),
  googleVertex,
  keyed("groq", "Groq", "https://api.groq.com/openai/v1", "Groq API key", ["GROQ_API_KEY"]),
  keyed("huggingface", "Hugging Face", "https://router.huggingface.co/v1", "Hugging Face token", ["HF_TOKEN"]),
  kimiCoding,
  meta,
  keyed("minimax", "MiniMax", "https://api.minimax.io/anthropic", "MiniMax API key", ["MINIMAX_API_KEY"], apis.anthropicMessagesApi),
  keyed("minimax-cn", "MiniMax CN", "https://api.minimaxi.com/anthropic", "MiniMax CN API key", ["MINIMAX_CN_API_KEY"], apis.anthropicMessagesApi),
  keyed("mistral", "Mistral", "https://api.mistral.ai", "Mistral API key", ["MISTRAL_API_KEY"], apis.mistralConversationsApi),
  keyed("moonshotai", "Moonshot AI", "https://api.moonshot.ai/v1", "Moonshot AI API key", ["MOONSHOT_API_KEY"]),
  keyed("moonshotai-cn", "Moonshot AI CN", "https://api.moonshot.cn/v1", "Moonshot AI API key", ["MOONSHOT_API_KEY"]),
  keyed("nvidia", "NVIDIA", "https://integrate.api.nvidia.com/v1", "NVIDIA API key", ["NVIDIA_API_KEY"]),
  openai,
  openaiCodex,
  opencode,
  opencodeGo,
  openrouter,
  // A plan's own variable first, then the one its region's plans share.
  keyed("qwen-token-plan", "Qwen Token Plan Team", QWEN_INTL, "Qwen Token Plan Team API key", ["QWEN_TOKEN_PLAN_TEAM_API_KEY", "QWEN_TOKEN_PLAN_API_KEY"]),
  keyed("qwen-token-plan-cn", "Qwen Token Plan Team CN", QWEN_CN, "Qwen Token Plan Team CN API key", [
    "QWEN_TOKEN_PLAN_TEAM_CN_API_KEY",
    "QWEN_TOKEN_PLAN_CN_API_KEY",
  ]),
  keyed("qwen-token-plan-individual", "Qwen Token Plan Individual", QWEN_INTL, "Qwen Token Plan Individual API key", [
    "QWEN_TOKEN_PLAN_INDIVIDUAL_API_KEY",
    "QWEN_TOKEN_PLAN_API_KEY",
  ]),
  keyed("qwen-token-plan-individual-cn", "Qwen Token Plan Individual CN", QWEN_CN, "Qwen Token Plan Individual CN API key", [
    "QWEN_TOKEN_PLAN_INDIVIDUAL_CN_API_KEY",
    "QWEN_TOKEN_PLAN_CN_API_KEY",
  ]),
  () => radiusProvider(),
  keyed("together", "Together", "https://api.together.ai/v1", "Together API key", ["TOGETHER_API_KEY"]),
  typesafe,
  vercelAIGateway,
  xai,
  keyed("xiaomi", "Xiaomi", "https://api.xiaomimimo.com/v1", "Xiaomi API key", ["XIAOMI_API_KEY"]),
  keyed("xiaomi-token-plan-ams", "Xiaomi Token Plan AMS", "https://token-plan-ams.xiaomimimo.com/v1", "Xiaomi Token Plan AMS API key", [
    "XIAOMI_TOKEN_PLAN_AMS_API_KEY",
  ]),
  keyed("xiaomi-token-plan-cn", "Xiaomi Token Plan CN", "https://token-plan-cn.xiaomimimo.com/v1", "Xiaomi Token Plan CN API key", [
    "XIAOMI_TOKEN_PLAN_CN_API_KEY",
  ]),
  keyed("xiaomi-token-plan-sgp", "Xiaomi Token Plan SGP", "https://token-plan-sgp.xiaomimimo.com/v1", "Xiaomi Token Plan SGP API key", [
    "XIAOMI_TOKEN_PLAN_SGP_API_KEY",
  ]),
  keyed("zai", "Z.AI", "https://api.z.ai/api/coding/paas/v4", "Z.AI API key", ["ZAI_API_KEY"]),
  keyed("zai-coding-cn", "Z.AI Coding CN", "https://open.bigmodel.cn/api/coding/paas/v4", "Z.AI Coding CN API key", ["ZAI_CODING_CN_API_KEY"]),
];

/** Every built-in provider, freshly built. */
export function builtinProviders() {
  return BUILTIN.map((make) => make());
}

/** A Models collection (createModels with `options`) holding every built-in provider. */
export function builtinModels(options) {
  const models = createModels(options);
  for (const provider of builtinProviders()) models.setProvider(provider);
  return models;
}

export { radiusProvider };
