// pi's ModelRuntime inside pihost. pi's reads the user's credentials
// (auth.json), models.json and remote catalogs, and calls every provider
// itself; in pihost the host keeps the keys and answers model calls, as the
// session's own runtime does (host-model-runtime.js). So a ModelRuntime here
// is that runtime with state of its own, which is what extensions that run
// sub-agents make one for (pi-subagents: `ModelRuntime.create()` shared by
// every child session): the built-in catalog, whose requests go to the host,
// and the providers an extension registers as objects (registerNativeProvider),
// used as pi uses them: their models join the catalog, their requests go to
// their own stream with their own auth, through pi-ai's Models collection.
// A provider made from a config (registerProvider) and virtual models are
// not built; credentials cannot be managed from inside a host.
import { builtinProviders } from "../ai/builtin-providers.js";
import { createModels } from "../ai/models-collection.js";
import { hostModelRuntime } from "./host-model-runtime.js";

function notImplemented(method, why) {
  return new Error(`pihost: ModelRuntime.${method} is not implemented yet${why ? `: ${why}` : ""}`);
}

function notInAHost(method) {
  return new Error(`pihost: ModelRuntime.${method} cannot work inside a host: the host keeps the credentials and answers model calls`);
}

/** A built-in provider as pihost serves it: pi's description and catalog, its requests to the host. */
function hostProvider(builtin) {
  const { id } = builtin;
  return {
    id,
    name: builtin.name,
    baseUrl: builtin.baseUrl,
    headers: builtin.headers,
    auth: {
      apiKey: {
        name: "The host's credentials",
        resolve: async () => hostModelRuntime.getAuth(),
      },
    },
    getModels: () => builtin.getModels(),
    getAllModels: () => builtin.getAllModels(),
    stream: (model, context, options) => hostModelRuntime.stream(model, context, options),
    streamSimple: (model, context, options) => hostModelRuntime.streamSimple(model, context, options),
  };
}

export class ModelRuntime {
  /** Providers registered as objects, by id, in order of registration. */
  #native = new Map();
  /** The same providers in pi-ai's collection, which resolves their auth and requests as pi's does. */
  #models = createModels();
  /** Registered providers whose auth resolved at the last refresh. */
  #configured = new Set();
  #builtins;

  static async create(options = {}) {
    options.signal?.throwIfAborted();
    return new ModelRuntime();
  }

  #builtinProviders() {
    this.#builtins ??= new Map(builtinProviders().map((builtin) => [builtin.id, hostProvider(builtin)]));
    return this.#builtins;
  }

  #isNative(providerId) {
    return this.#native.has(providerId);
  }

  #modelsOf(providerOrModel) {
    const providerId = typeof providerOrModel === "string" ? providerOrModel : providerOrModel?.provider;
    return this.#isNative(providerId) ? this.#models : hostModelRuntime;
  }

  /** Every provider: the built-in ones in the catalog's order (a registered one in place of a built-in one of its id), then the rest as registered. */
  getProviders() {
    const builtins = this.#builtinProviders();
    const listed = [...builtins.keys()].map((id) => this.#native.get(id) ?? builtins.get(id));
    const added = [...this.#native.values()].filter((provider) => !builtins.has(provider.id));
    return [...listed, ...added];
  }

  getProvider(providerId) {
    return this.#native.get(providerId) ?? this.#builtinProviders().get(providerId);
  }

  #everyProvider(read) {
    return this.getProviders().flatMap((provider) => read(this.#modelsOf(provider.id), provider.id));
  }

  getModels(providerId) {
    if (providerId !== undefined) return this.#modelsOf(providerId).getModels(providerId);
    return this.#everyProvider((models, id) => models.getModels(id));
  }

  getAllModels(providerId) {
    if (providerId !== undefined) return this.#modelsOf(providerId).getAllModels(providerId);
    return this.#everyProvider((models, id) => models.getAllModels(id));
  }

  getModel(providerId, modelId) {
    return this.#modelsOf(providerId).getModel(providerId, modelId);
  }

  getPhysicalModel(providerId, modelId) {
    return this.getModel(providerId, modelId);
  }

  getModelsOfType(type, providerId) {
    if (providerId !== undefined) return this.#modelsOf(providerId).getModelsOfType(type, providerId);
    return this.#everyProvider((models, id) => models.getModelsOfType(type, id));
  }

  getModelOfType(type, providerId, modelId) {
    return this.#modelsOf(providerId).getModelOfType(type, providerId, modelId);
  }

  // Which built-in providers have keys is the host's business: none is
  // claimed available, each counts as configured (host-model-runtime.js).
  getAvailableSnapshot() {
    return this.getModels().filter((model) => this.#configured.has(model.provider));
  }

  async getAvailable(providerId, options) {
    if (providerId !== undefined && !this.#isNative(providerId)) return [];
    return this.#models.getAvailable(providerId, options);
  }

  async getAvailableOfType(type, providerId, options) {
    if (providerId !== undefined && !this.#isNative(providerId)) return [];
    return this.#models.getAvailableOfType(type, providerId, options);
  }

  async getAllAvailable(providerId, options) {
    if (providerId !== undefined && !this.#isNative(providerId)) return [];
    return this.#models.getAllAvailable(providerId, options);
  }

  hasConfiguredAuth(providerId) {
    return this.#isNative(providerId) ? this.#configured.has(providerId) : hostModelRuntime.hasConfiguredAuth(providerId);
  }

  checkAuth(providerId, options) {
    return this.#modelsOf(providerId).checkAuth(providerId, options);
  }

  getAuth(providerOrModel, overrides) {
    return this.#modelsOf(providerOrModel).getAuth(providerOrModel, overrides);
  }

  getProviderAuthStatus(providerId) {
    if (!this.#isNative(providerId)) return hostModelRuntime.getProviderAuthStatus(providerId);
    return this.#configured.has(providerId) ? { configured: true, source: "provider" } : { configured: false };
  }

  isUsingOAuth() {
    return false;
  }

  isUsingSubscription() {
    return false;
  }

  getCompatibilityRequestConfig(model) {
    return hostModelRuntime.getCompatibilityRequestConfig(model);
  }

  getError() {
    return undefined;
  }

  stream(model, context, options) {
    return this.#modelsOf(model).stream(model, context, options);
  }

  complete(model, context, options) {
    return this.#modelsOf(model).complete(model, context, options);
  }

  streamSimple(model, context, options) {
    return this.#modelsOf(model).streamSimple(model, context, options);
  }

  completeSimple(model, context, options) {
    return this.#modelsOf(model).completeSimple(model, context, options);
  }

  #nativeOnly(method, model) {
    if (!this.#isNative(model?.provider)) throw notImplemented(method, `${model?.provider} is a built-in provider, whose requests go to the host`);
    return this.#models;
  }

  streamDeferred(model, handle, options) {
    return this.#nativeOnly("streamDeferred", model).streamDeferred(model, handle, options);
  }

  fetchDeferred(model, handle, options) {
    return this.#nativeOnly("fetchDeferred", model).fetchDeferred(model, handle, options);
  }

  async cancelDeferred(model, handle, options) {
    return this.#nativeOnly("cancelDeferred", model).cancelDeferred(model, handle, options);
  }

  async generateImages(model, context, options) {
    return this.#nativeOnly("generateImages", model).generateImages(model, context, options);
  }

  async classify(model, context, options) {
    return this.#nativeOnly("classify", model).classify(model, context, options);
  }

  /** Refreshes the registered providers' catalogs and which of them are configured. */
  async refresh(options = {}) {
    const result = await this.#models.refresh(options);
    const configured = new Set();
    for (const providerId of this.#native.keys()) {
      if ((await this.#models.checkAuth(providerId, { signal: options.signal })) !== undefined) configured.add(providerId);
    }
    this.#configured = configured;
    return result;
  }

  registerNativeProvider(provider) {
    if (!provider.id.trim()) throw new Error("Provider id must not be empty.");
    this.#native.set(provider.id, provider);
    this.#models.setProvider(provider);
    void this.refresh({ allowNetwork: false }).catch(() => {});
  }

  unregisterProvider(providerId) {
    this.#native.delete(providerId);
    this.#models.deleteProvider(providerId);
    this.#configured.delete(providerId);
  }

  getRegisteredProviderIds() {
    return [...this.#native.keys()];
  }

  getRegisteredNativeProvider(providerId) {
    return this.#native.get(providerId);
  }

  getRegisteredProviderConfig() {
    return undefined;
  }

  registerProvider() {
    throw notImplemented(
      "registerProvider",
      "a provider made from a config (baseUrl, apiKey, models) is not built; pi.registerProvider registers one with the host, and registerNativeProvider takes a provider object",
    );
  }

  registerVirtualModel() {
    throw notImplemented("registerVirtualModel");
  }

  unregisterVirtualModel() {
    throw notImplemented("unregisterVirtualModel");
  }

  async resolveModel() {
    throw notImplemented("resolveModel", "virtual models are not built");
  }

  // The host keeps the credentials: none is written here, none can be.
  async settleCredentialWrites() {}

  async login() {
    throw notInAHost("login");
  }

  async logout() {
    throw notInAHost("logout");
  }

  async setRuntimeApiKey() {
    throw notInAHost("setRuntimeApiKey");
  }

  async removeRuntimeApiKey() {
    throw notInAHost("removeRuntimeApiKey");
  }

  async listCredentials() {
    throw notInAHost("listCredentials");
  }
}
