// The model runtime of a session inside pihost: the built-in catalog for
// model lookups, and the host for everything that needs credentials. The
// host keeps the keys and answers model calls (pi-ai's stream/streamSimple),
// so every provider counts as configured and auth resolves to pi-ai's
// ambient-auth marker instead of a key the extension could read. Imports
// only the catalog, the dispatcher and two small helpers: pihost's runner
// holds one at start-up, so nothing heavier loads with every runtime.
import {
  getAllBuiltinModels,
  getBuiltinClassifierModel,
  getBuiltinClassifierModels,
  getBuiltinImageModel,
  getBuiltinImageModels,
  getBuiltinModel,
  getBuiltinModels,
  getBuiltinProviderDescriptions,
  getBuiltinProviders,
} from "../ai/catalog.js";
import { complete, completeSimple, stream, streamSimple } from "../ai/dispatch.js";
import { failedClassification, failedImages } from "../ai/failed-results.js";

const AMBIENT_AUTH = "<authenticated>";

/**
 * A classification or image generation with a catalog model, run by the
 * host (`model.classify` / `model.generateImages`). Never rejects, as pi-ai's
 * Models: a failure is a result with stopReason "error" (or "aborted").
 */
async function hostOperation(method, type, failed, model, context, options) {
  const what = type === "image" ? "images" : "a classification";
  try {
    // A model without a `type` is a chat model (pi-ai's rule; model-kinds.js is not loaded for this).
    if ((model.type ?? "chat") !== type) throw new Error(`Model ${model.provider}/${model.id} is not ${type === "image" ? "an image" : "a classifier"} model`);
    if (type === "classifier" && context.images?.length && !model.input.includes("image")) {
      throw new Error(`Model ${model.provider}/${model.id} does not accept image input`);
    }
    const ask = globalThis.__pihostModelOperation;
    const answer = typeof ask === "function" ? await ask(method, model, context, options) : undefined;
    if (answer === undefined || answer === null) throw new Error(`pihost: the host answered no ${what} for ${model.provider}/${model.id}`);
    return answer;
  } catch (error) {
    return failed(model, error, options?.signal?.aborted);
  }
}

function hostAuth() {
  return { auth: { apiKey: AMBIENT_AUTH } };
}

function allModels(providerId, read) {
  return providerId === undefined ? getBuiltinProviders().flatMap((provider) => read(provider)) : read(providerId);
}

const MODELS_OF_TYPE = { chat: getBuiltinModels, image: getBuiltinImageModels, classifier: getBuiltinClassifierModels };
const MODEL_OF_TYPE = { chat: getBuiltinModel, image: getBuiltinImageModel, classifier: getBuiltinClassifierModel };

/**
 * A built-in provider as pihost serves it: pi's description and catalog
 * (recorded data, so no provider object of pi-ai's is built for it), its
 * requests to the host.
 */
function hostProvider({ id, name, baseUrl, headers }) {
  return {
    id,
    name,
    baseUrl,
    headers,
    auth: { apiKey: { name: "The host's credentials", resolve: async () => hostAuth() } },
    getModels: () => getBuiltinModels(id),
    getAllModels: () => getAllBuiltinModels(id),
    stream: (model, context, options) => stream(model, context, options),
    streamSimple: (model, context, options) => streamSimple(model, context, options),
  };
}

let hostProviders;

/** pi's built-in providers, their requests going to the host, in pi's order. */
export function hostBuiltinProviders() {
  hostProviders ??= getBuiltinProviderDescriptions().map(hostProvider);
  return hostProviders;
}

/**
 * A session's model runtime: the catalog, its requests going to the host,
 * and what the session's extensions registered with the host. Each session
 * of a runtime (pihost's shared mode) has its own, so one session's
 * providers never show in another's.
 */
export function createHostModelRuntime() {
  // How the session's registrations reach the host (the binding's provider
  // actions), so `ctx.modelRegistry.registerProvider` does what
  // `pi.registerProvider` does.
  let hostProviderActions;
  const toHost = (method) => (...args) => {
    if (!hostProviderActions) throw new Error(`pihost: ModelRuntime.${method} needs a bound host: the host keeps the session's models`);
    return hostProviderActions[method](...args);
  };
  // What the session's extensions registered with the host, as pi's runtime
  // keeps them (config objects and provider objects as given, functions
  // included); the host bridge records each registration.
  const registeredConfigs = new Map();
  const registeredNativeProviders = new Map();
  const runtime = {
    getModels: (providerId) => allModels(providerId, getBuiltinModels),
    getAllModels: (providerId) => allModels(providerId, getAllBuiltinModels),
    getModel: (providerId, modelId) => getBuiltinModel(providerId, modelId),
    getPhysicalModel: (providerId, modelId) => getBuiltinModel(providerId, modelId),
    getModelsOfType: (type, providerId) => (MODELS_OF_TYPE[type] ? allModels(providerId, MODELS_OF_TYPE[type]) : []),
    getModelOfType: (type, providerId, modelId) => MODEL_OF_TYPE[type]?.(providerId, modelId),
    // Which providers have keys is the host's business; none is claimed.
    getAvailableSnapshot: () => [],
    getError: () => undefined,
    hasConfiguredAuth: () => true,
    checkAuth: async () => ({}),
    isUsingOAuth: () => false,
    getAuth: async () => hostAuth(),
    getProviderAuthStatus: () => ({ configured: true, source: "runtime" }),
    getCompatibilityRequestConfig: () => ({}),
    stream: (model, context, options) => stream(model, context, options),
    streamSimple: (model, context, options) => streamSimple(model, context, options),
    complete: (model, context, options) => complete(model, context, options),
    completeSimple: (model, context, options) => completeSimple(model, context, options),
    // Credentials live with the host; none is ever being written here.
    settleCredentialWrites: async () => {},
    // The host refreshes its catalog itself; nothing here is fetched or fails.
    refresh: async () => ({ aborted: false, errors: new Map() }),
    getProvider: (providerId) => registeredNativeProviders.get(providerId) ?? hostBuiltinProviders().find((provider) => provider.id === providerId),
    getProviders: () => {
      const builtins = hostBuiltinProviders();
      const added = [...registeredNativeProviders.values()].filter((provider) => !builtins.some((builtin) => builtin.id === provider.id));
      return [...builtins.map((provider) => registeredNativeProviders.get(provider.id) ?? provider), ...added];
    },
    // As getAvailableSnapshot: which providers have keys is the host's business.
    getAvailableOfType: async () => [],
    classify: (model, context, options) => hostOperation("model.classify", "classifier", failedClassification, model, context, options),
    generateImages: (model, context, options) => hostOperation("model.generateImages", "image", failedImages, model, context, options),
    registerProvider: toHost("registerProvider"),
    registerNativeProvider: toHost("registerNativeProvider"),
    unregisterProvider: toHost("unregisterProvider"),
    registerVirtualModel: toHost("registerVirtualModel"),
    unregisterVirtualModel: toHost("unregisterVirtualModel"),
    getRegisteredProviderConfig: (name) => registeredConfigs.get(name),
    getRegisteredNativeProvider: (id) => registeredNativeProviders.get(id),
    getRegisteredProviderIds: () => [...new Set([...registeredConfigs.keys(), ...registeredNativeProviders.keys()])],
  };
  return {
    runtime,
    /** The host's provider actions, once a host is bound. */
    bindProviderActions(actions) {
      hostProviderActions = actions;
    },
    /** Records a provider an extension registered with the host (`config`), or removes it (undefined). */
    recordProviderRegistration(name, config) {
      if (config === undefined) {
        registeredConfigs.delete(name);
        registeredNativeProviders.delete(name);
      } else registeredConfigs.set(name, config);
    },
    /** Records a provider object an extension registered with the host. */
    recordNativeProviderRegistration(provider) {
      if (provider?.id !== undefined) registeredNativeProviders.set(provider.id, provider);
    },
  };
}

// Which session's model runtime `hostModelRuntime` stands for: the session
// whose extension code runs (set by pihost's runtime, js/runtime/main.js).
// Outside pihost's runtime (these modules under Node, in the differential
// tests) there are no sessions: one model runtime stands for the process.
let currentSessionModels;
let processModels;

/** `resolve()` answers the model runtime of the session whose code runs now. */
export function resolveSessionModelRuntime(resolve) {
  currentSessionModels = resolve;
}

/**
 * The model runtime of the session whose extension code runs now (what
 * pi's createAgentSession and ModelRuntime give a child session): each
 * method is the current session's.
 */
export const hostModelRuntime = {};
for (const method of Object.keys(createHostModelRuntime().runtime)) {
  hostModelRuntime[method] = (...args) => {
    const runtime = currentSessionModels ? currentSessionModels() : (processModels ??= createHostModelRuntime().runtime);
    if (runtime === undefined) throw new Error(`pihost: ModelRuntime.${method} was called outside any session`);
    return runtime[method](...args);
  };
}
