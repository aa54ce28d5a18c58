// A provider an extension registers on a ModelRuntime from a config
// (`registerProvider(id, { baseUrl, apiKey, api, models, headers, … })`), as
// pi 1.6.0 composes one: the config's models (their api and base URL from
// the model, the config, or the built-in provider it overlays), an API key
// that is a literal, a `$ENV` template or a `!command`, headers resolved the
// same way (and an Authorization header with `authHeader`), OAuth adapted
// from the extension's login/refresh functions, and requests sent to the
// extension's own streamSimple for its api, to the overlaid provider for its
// apis, else to pi-ai's api implementation; image and classifier models to
// the config's implementations for their api. pihost reads no models.json: the
// host owns the user's model configuration.
import { getApiProvider } from "../ai/dispatch.js";
import { lazyStream } from "../ai/lazy-stream.js";
import { isModelType } from "../ai/model-kinds.js";
import { failedClassification, failedImages } from "../ai/failed-results.js";
import { getConfigValueEnvVarNames, isCommandConfigValue, resolveConfigValueOrThrow, resolveHeadersOrThrow } from "./mcp/config-values.js";

function allModels(provider) {
  return provider ? (provider.getAllModels?.() ?? provider.getModels()) : [];
}

function defaultsFor(models, definition) {
  const type = definition.type ?? "chat";
  const candidates = models.filter((model) => isModelType(model, type));
  return (
    candidates.find((model) => model.id === definition.id) ??
    (definition.api ? candidates.find((model) => model.api === definition.api) : undefined) ??
    (type === "chat" ? candidates.find((model) => model.api === "openai-completions") : undefined) ??
    candidates[0]
  );
}

function modelOf(providerId, models, config, definition) {
  const type = definition.type ?? "chat";
  const defaults = defaultsFor(models, definition);
  const api = definition.api ?? (type === "chat" ? config.api : undefined) ?? defaults?.api;
  if (!api) {
    throw new Error(`Provider ${providerId}, model ${definition.id}: no "api" specified. Set it at model level${type === "chat" ? " or provider level" : ""}.`);
  }
  const baseUrl = definition.baseUrl ?? config.baseUrl ?? defaults?.baseUrl;
  if (!baseUrl) throw new Error(`Provider ${providerId}: "baseUrl" is required when defining custom models.`);
  return { ...definition, api, provider: providerId, baseUrl, headers: undefined };
}

/** The models of `base` under the config: its own list when it has one, else the base's at the config's base URL. */
function configuredModels(providerId, baseModels, config) {
  if (!config.models) return config.baseUrl ? baseModels.map((model) => ({ ...model, baseUrl: config.baseUrl })) : [...baseModels];
  return config.models.map((definition) => modelOf(providerId, baseModels, config, definition));
}

/** Throws what pi throws for a config it refuses (checked before anything is stored). */
export function validateProviderConfig(providerId, base, config) {
  if (config.streamSimple && !config.api) throw new Error(`Provider ${providerId}: "api" is required when registering streamSimple.`);
  configuredModels(providerId, allModels(base), config);
}

function withAuthHeaders(auth, headers, authHeader) {
  let merged = auth.headers || headers ? { ...auth.headers, ...headers } : undefined;
  if (authHeader) {
    if (!auth.apiKey) throw new Error("authHeader requires a resolved API key");
    merged = { ...merged, Authorization: `Bearer ${auth.apiKey}` };
  }
  return { ...auth, headers: merged };
}

/** The environment a value's `$NAME`s read, from the auth context unless `explicit` has them. */
async function contextEnv(values, ctx, explicit) {
  const env = { ...explicit };
  for (const name of new Set(values.flatMap(getConfigValueEnvVarNames))) {
    if (env[name] !== undefined) continue;
    const value = await ctx.env(name);
    if (value !== undefined) env[name] = value;
  }
  return Object.keys(env).length > 0 ? env : undefined;
}

function apiKeyAuth(providerId, base, config) {
  const inherited = base?.auth.apiKey;
  const rawKey = config.apiKey;
  const oauth = config.oauth ?? base?.auth.oauth;
  // An OAuth-only provider gets no API-key method made up for it.
  if (!inherited && rawKey === undefined && oauth) return undefined;
  const rawHeaders = config.headers;
  const authHeader = config.authHeader ?? false;
  const inheritedCheck = async (input) => {
    if (inherited?.check) return inherited.check(input);
    const resolved = await inherited?.resolve(input);
    return resolved ? { type: "api_key", source: resolved.source } : undefined;
  };
  return {
    name: inherited?.name ?? "API key",
    login: inherited?.login ?? (async (interaction) => ({ type: "api_key", key: await interaction.prompt({ type: "secret", message: "Enter API key" }) })),
    check: async (input) => {
      if (input.credential) {
        if (!inherited?.check && input.credential.key) return { type: "api_key", source: "stored credential" };
        return inheritedCheck(input);
      }
      if (rawKey !== undefined) {
        if (isCommandConfigValue(rawKey)) return { type: "api_key", source: "configured API key" };
        for (const name of getConfigValueEnvVarNames(rawKey)) if ((await input.ctx.env(name)) === undefined) return undefined;
        return { type: "api_key", source: "configured API key" };
      }
      return inheritedCheck(input);
    },
    resolve: async (input) => {
      let result;
      if (input.credential) {
        if (inherited) result = await inherited.resolve(input);
        else if (input.credential.key) result = { auth: { apiKey: input.credential.key }, env: input.credential.env, source: "stored credential" };
      } else if (rawKey !== undefined) {
        const key = resolveConfigValueOrThrow(rawKey, `API key for provider "${providerId}"`, await contextEnv([rawKey], input.ctx));
        result = inherited ? await inherited.resolve({ ...input, credential: { type: "api_key", key } }) : { auth: { apiKey: key }, source: "configured API key" };
      } else {
        result = await inherited?.resolve(input);
      }
      if (!result) return undefined;
      const explicitEnv = { ...(input.credential?.env ?? {}), ...(result.env ?? {}) };
      const headerEnv = await contextEnv(Object.values(rawHeaders ?? {}), input.ctx, explicitEnv);
      const headers = resolveHeadersOrThrow(rawHeaders, `provider "${providerId}"`, headerEnv);
      return { ...result, auth: withAuthHeaders(result.auth, headers, authHeader) };
    },
  };
}

/** The extension's OAuth functions (login, refreshToken, getApiKey) in pi-ai's shape. */
function adaptedOAuth(config) {
  return {
    name: config.name,
    isSubscription: config.isSubscription,
    login: async (callbacks) => {
      const credential = await config.login({
        onAuth: (info) => callbacks.notify({ type: "auth_url", ...info }),
        onDeviceCode: (info) => callbacks.notify({ type: "device_code", ...info }),
        onPrompt: (prompt) => callbacks.prompt({ type: "text", ...prompt }),
        onProgress: (message) => callbacks.notify({ type: "progress", message }),
        onManualCodeInput: () => callbacks.prompt({ type: "manual_code", message: "Paste the authorization code" }),
        onSelect: (prompt) => callbacks.prompt({ type: "select", ...prompt }),
        signal: callbacks.signal,
      });
      return { ...credential, type: "oauth" };
    },
    refresh: async (credential, signal) => ({ ...(await config.refreshToken(credential, signal)), type: "oauth" }),
    toAuth: async (credential) => ({ apiKey: config.getApiKey(credential) }),
  };
}

function oauthAuth(providerId, base, config) {
  const oauth = config.oauth ? adaptedOAuth(config.oauth) : base?.auth.oauth;
  if (!oauth) return undefined;
  return {
    ...oauth,
    toAuth: async (credential) => {
      const auth = await oauth.toAuth(credential);
      const env = typeof credential.env === "object" && credential.env !== null ? credential.env : undefined;
      return withAuthHeaders(auth, resolveHeadersOrThrow(config.headers, `provider "${providerId}"`, env), config.authHeader ?? false);
    },
  };
}

/** The provider `config` makes, over `base` (a built-in provider of the same id) when there is one. */
export function composeConfiguredProvider(providerId, base, config) {
  let oauthCredential;
  let refreshedModels;
  const current = () => (refreshedModels ? { ...config, models: refreshedModels } : config);
  const getAllModels = () => {
    const models = configuredModels(providerId, allModels(base), current());
    if (!oauthCredential || !config.oauth?.modifyModels) return models;
    const chat = models.filter((model) => isModelType(model, "chat"));
    return [...config.oauth.modifyModels(chat, oauthCredential), ...models.filter((model) => !isModelType(model, "chat"))];
  };
  getAllModels();
  const apiKey = apiKeyAuth(providerId, base, config);
  const oauth = oauthAuth(providerId, base, config);
  if (!apiKey && !oauth) throw new Error(`Provider ${providerId}: no authentication method configured.`);
  const baseServes = (model) => base?.getModels().some((entry) => entry.api === model.api) ?? false;
  const request = (model, context, options, simple) =>
    lazyStream(
      model,
      async () => {
        if (config.streamSimple && model.api === config.api) return config.streamSimple(model, context, options);
        if (base && baseServes(model)) return simple ? base.streamSimple(model, context, options) : base.stream(model, context, options);
        const api = getApiProvider(model.api);
        if (!api) throw new Error(`No API provider registered for api: ${model.api}`);
        return simple ? api.streamSimple(model, context, options) : api.stream(model, context, options);
      },
      undefined,
      options?.signal,
    );
  const refreshes = base?.refreshModels || config.refreshModels || config.oauth?.modifyModels;
  const provider = {
    id: providerId,
    name: config.name ?? base?.name ?? config.oauth?.name ?? providerId,
    baseUrl: config.baseUrl ?? base?.baseUrl,
    headers: base?.headers,
    auth: { ...(apiKey ? { apiKey } : {}), ...(oauth ? { oauth } : {}) },
    getModels: () => getAllModels().filter((model) => isModelType(model, "chat")),
    getAllModels,
    refreshModelsAuth: config.refreshModels || config.oauth?.modifyModels ? undefined : base?.refreshModelsAuth,
    refreshModels: refreshes
      ? async (context) => {
          await base?.refreshModels?.(context);
          const refreshed = config.refreshModels ? await config.refreshModels(context) : undefined;
          if (context.signal.aborted) return;
          const credential = context.credential?.type === "oauth" ? context.credential : undefined;
          await context.publish({
            update: () => {
              if (refreshed) {
                configuredModels(providerId, allModels(base), { ...config, models: refreshed });
                refreshedModels = refreshed;
              }
              oauthCredential = credential;
            },
          });
        }
      : undefined,
    filterModels: base?.filterModels ? (models, credential) => base.filterModels(models, credential) : undefined,
    filterAllModels: base?.filterAllModels ? (models, credential) => base.filterAllModels(models, credential) : undefined,
    stream: (model, context, options) => request(model, context, options, false),
    streamSimple: (model, context, options) => request(model, context, options, true),
  };
  for (const method of ["fetchDeferred", "cancelDeferred"]) {
    const delegate = base?.[method];
    if (delegate) provider[method] = (...args) => delegate(...args);
  }
  // Image and classifier models go to the config's implementation for their api, else the base's.
  const operations = [
    ["generateImages", config.images, failedImages, "image"],
    ["classify", config.classifiers, failedClassification, "classifier"],
  ];
  for (const [method, implementations, failed, noun] of operations) {
    const delegate = base?.[method];
    if (!delegate && Object.keys(implementations ?? {}).length === 0) continue;
    provider[method] = (model, context, options) => {
      const implementation = implementations?.[model.api];
      if (implementation) return implementation[method](model, context, options);
      if (delegate) return delegate(model, context, options);
      return Promise.resolve(failed(model, new Error(`Provider ${providerId} has no ${noun} implementation for "${model.api}"`)));
    };
  }
  return provider;
}
