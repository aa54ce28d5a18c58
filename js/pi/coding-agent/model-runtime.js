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
// Virtual models (registerVirtualModel) are kept here, beside the catalog:
// listed under their provider, hiding a physical chat model of their id, and
// routed per request by resolveModel. A provider made from a config
// (registerProvider) is composed as pi composes one (provider-config.js), over
// the built-in provider of its id if there is one. Credentials cannot be
// managed from inside a host.
import { lazyStream } from "../ai/lazy-stream.js";
import { clampThinkingLevel, isModelType } from "../ai/model-kinds.js";
import { createModels } from "../ai/models-collection.js";
import { ModelsError } from "../ai/models-error.js";
import { hostBuiltinProviders, hostModelRuntime } from "./host-model-runtime.js";
import { isConfigValueConfigured } from "./mcp/config-values.js";
import { composeConfiguredProvider, validateProviderConfig } from "./provider-config.js";
import { createVirtualModel, findLatestResponse, isVirtualModel } from "./virtual-models.js";

function notInAHost(method) {
  return new Error(`pihost: ModelRuntime.${method} cannot work inside a host: the host keeps the credentials and answers model calls`);
}

export class ModelRuntime {
  /** Providers registered as objects, by id, in order of registration. */
  #native = new Map();
  /** Providers made from a config (registerProvider): the config as merged over re-registrations, and the provider made of it. */
  #configs = new Map();
  #composed = new Map();
  /** Why a config could not be made into a provider, by provider id. */
  #compositionErrors = new Map();
  /** The same providers in pi-ai's collection, which resolves their auth and requests as pi's does. */
  #models = createModels();
  /** Registered providers whose auth resolved at the last refresh. */
  #configured = new Set();
  #builtins;
  /** Virtual models by provider id, then model id: `{ model, route }`. */
  #virtual = new Map();

  static async create(options = {}) {
    options.signal?.throwIfAborted();
    return new ModelRuntime();
  }

  #builtinProviders() {
    this.#builtins ??= new Map(hostBuiltinProviders().map((provider) => [provider.id, provider]));
    return this.#builtins;
  }

  /** Whether the provider's requests are served here (a registered object or config), not by the host. */
  #isNative(providerId) {
    return this.#native.has(providerId) || this.#composed.has(providerId);
  }

  #localProvider(providerId) {
    return this.#native.get(providerId) ?? this.#composed.get(providerId);
  }

  #modelsOf(providerOrModel) {
    const providerId = typeof providerOrModel === "string" ? providerOrModel : providerOrModel?.provider;
    return this.#isNative(providerId) ? this.#models : hostModelRuntime;
  }

  /** Every provider: the built-in ones in the catalog's order (a registered one in place of a built-in one of its id), then the rest as registered. */
  getProviders() {
    const builtins = this.#builtinProviders();
    const listed = [...builtins.keys()].map((id) => this.#localProvider(id) ?? builtins.get(id));
    const added = [...this.#native.values(), ...this.#composed.values()].filter((provider) => !builtins.has(provider.id));
    const virtualOnly = [...this.#virtual.keys()].filter((id) => this.#isVirtualOnly(id)).map((id) => this.#virtualOnlyProvider(id));
    return [...listed, ...added, ...virtualOnly];
  }

  getProvider(providerId) {
    if (this.#isVirtualOnly(providerId)) return this.#virtualOnlyProvider(providerId);
    return this.#localProvider(providerId) ?? this.#builtinProviders().get(providerId);
  }

  /** A provider that only lists virtual models: it needs no credentials and streams nothing unrouted. */
  #isVirtualOnly(providerId) {
    return this.#virtual.has(providerId) && !this.#isNative(providerId) && !this.#builtinProviders().has(providerId);
  }

  #virtualOnlyProvider(providerId) {
    const unrouted = (model) => this.#unroutedStream(model);
    return {
      id: providerId,
      name: providerId,
      auth: { apiKey: { name: "Virtual model", resolve: async () => ({ auth: {}, source: "virtual" }) } },
      getModels: () => this.#virtualModels(providerId),
      stream: unrouted,
      streamSimple: unrouted,
    };
  }

  #virtualModels(providerId) {
    return [...(this.#virtual.get(providerId)?.values() ?? [])].map((entry) => entry.model);
  }

  /** A provider's physical models (less the chat models a virtual one of the same id hides), then its virtual ones. */
  #withVirtual(providerId, models) {
    const virtual = this.#virtual.get(providerId);
    if (!virtual) return models;
    const physical = models.filter((model) => !isVirtualModel(model) && !(isModelType(model, "chat") && virtual.has(model.id)));
    return [...physical, ...this.#virtualModels(providerId)];
  }

  #everyProvider(read) {
    return this.getProviders().flatMap((provider) => read(this.#modelsOf(provider.id), provider.id));
  }

  getModels(providerId) {
    if (providerId !== undefined) return this.#withVirtual(providerId, this.#modelsOf(providerId).getModels(providerId));
    return this.#everyProvider((models, id) => this.#withVirtual(id, models.getModels(id)));
  }

  getAllModels(providerId) {
    if (providerId !== undefined) return this.#withVirtual(providerId, this.#modelsOf(providerId).getAllModels(providerId));
    return this.#everyProvider((models, id) => this.#withVirtual(id, models.getAllModels(id)));
  }

  getModel(providerId, modelId) {
    return this.#virtual.get(providerId)?.get(modelId)?.model ?? this.#modelsOf(providerId).getModel(providerId, modelId);
  }

  /** A catalog model that is not virtual. */
  getPhysicalModel(providerId, modelId) {
    const model = this.getModel(providerId, modelId);
    return model && !isVirtualModel(model) ? model : undefined;
  }

  getModelsOfType(type, providerId) {
    const ofType = (id, models) => (type === "chat" ? this.#withVirtual(id, models) : models);
    if (providerId !== undefined) return ofType(providerId, this.#modelsOf(providerId).getModelsOfType(type, providerId));
    return this.#everyProvider((models, id) => ofType(id, models.getModelsOfType(type, id)));
  }

  getModelOfType(type, providerId, modelId) {
    return this.#modelsOf(providerId).getModelOfType(type, providerId, modelId);
  }

  // Which built-in providers have keys is the host's business: none is
  // claimed available, each counts as configured (host-model-runtime.js).
  getAvailableSnapshot() {
    return this.getModels().filter((model) => this.#configured.has(model.provider) || this.#isVirtualOnly(model.provider));
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
    if (this.#isVirtualOnly(providerId)) return true;
    return this.#isNative(providerId) ? this.#configured.has(providerId) : hostModelRuntime.hasConfiguredAuth(providerId);
  }

  checkAuth(providerId, options) {
    if (this.#isVirtualOnly(providerId)) return this.#virtualOnlyProvider(providerId).auth.apiKey.resolve();
    return this.#modelsOf(providerId).checkAuth(providerId, options);
  }

  getAuth(providerOrModel, overrides) {
    return this.#modelsOf(providerOrModel).getAuth(providerOrModel, overrides);
  }

  getProviderAuthStatus(providerId) {
    if (this.#isVirtualOnly(providerId)) return { configured: true, source: "virtual" };
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
    const errors = [...this.#compositionErrors].map(([providerId, error]) => `Provider "${providerId}": ${error}`);
    return errors.length > 0 ? errors.join("\n\n") : undefined;
  }

  #unroutedStream(model) {
    return lazyStream(model, async () => {
      throw new Error(`Virtual model ${model.provider}/${model.id} must be routed before streaming`);
    });
  }

  stream(model, context, options) {
    if (isVirtualModel(model)) return this.#unroutedStream(model);
    return this.#modelsOf(model).stream(model, context, options);
  }

  complete(model, context, options) {
    if (isVirtualModel(model)) return this.stream(model, context, options).result();
    return this.#modelsOf(model).complete(model, context, options);
  }

  // A virtual model asked directly is routed here ("direct"), its output
  // budget capped to the routed model's; the caller's credentials go along
  // only when the route stays with the same provider.
  streamSimple(model, context, options) {
    if (!isVirtualModel(model)) return this.#modelsOf(model).streamSimple(model, context, options);
    return lazyStream(
      model,
      async () => {
        const route = await this.resolveModel(model, context?.messages ?? [], {
          reason: "direct",
          thinkingLevel: options?.reasoning ?? "off",
          signal: options?.signal,
        });
        const limit = route.model.maxTokens;
        const maxTokens = options?.maxTokens && limit > 0 ? Math.min(options.maxTokens, limit) : options?.maxTokens;
        const reasoning = route.thinkingLevel === "off" ? undefined : route.thinkingLevel;
        const { apiKey, headers, env, ...rest } = options ?? {};
        const auth = route.model.provider === model.provider ? { apiKey, headers, env } : {};
        return this.streamSimple(route.model, context, { ...rest, ...auth, maxTokens, reasoning });
      },
      undefined,
      options?.signal,
    );
  }

  completeSimple(model, context, options) {
    if (isVirtualModel(model)) return this.streamSimple(model, context, options).result();
    return this.#modelsOf(model).completeSimple(model, context, options);
  }

  // pi's built-in providers have no deferred responses; pihost's serve theirs from the host.
  #noDeferred(model) {
    return new ModelsError("provider", `Provider ${model.provider} does not support deferred responses`);
  }

  streamDeferred(model, handle, options) {
    if (this.#isNative(model?.provider)) return this.#models.streamDeferred(model, handle, options);
    return lazyStream(
      model,
      async () => {
        throw this.#noDeferred(model);
      },
      undefined,
      options?.signal,
    );
  }

  async fetchDeferred(model, handle, options) {
    if (this.#isNative(model?.provider)) return this.#models.fetchDeferred(model, handle, options);
    return this.streamDeferred(model, handle, options).result();
  }

  async cancelDeferred(model, handle, options) {
    if (this.#isNative(model?.provider)) return this.#models.cancelDeferred(model, handle, options);
    throw this.#noDeferred(model);
  }

  async generateImages(model, context, options) {
    return this.#modelsOf(model).generateImages(model, context, options);
  }

  async classify(model, context, options) {
    return this.#modelsOf(model).classify(model, context, options);
  }

  /** Refreshes the registered providers' catalogs and which of them are configured. */
  async refresh(options = {}) {
    const result = await this.#models.refresh(options);
    const configured = new Set();
    for (const providerId of [...this.#native.keys(), ...this.#composed.keys()]) {
      if ((await this.#models.checkAuth(providerId, { signal: options.signal })) !== undefined) configured.add(providerId);
    }
    this.#configured = configured;
    return result;
  }

  registerNativeProvider(provider) {
    if (!provider.id.trim()) throw new Error("Provider id must not be empty.");
    this.#forgetConfig(provider.id);
    this.#native.set(provider.id, provider);
    this.#models.setProvider(provider);
    void this.refresh({ allowNetwork: false }).catch(() => {});
  }

  unregisterProvider(providerId) {
    this.#forgetConfig(providerId);
    this.#native.delete(providerId);
    this.#models.deleteProvider(providerId);
    this.#configured.delete(providerId);
  }

  #forgetConfig(providerId) {
    this.#configs.delete(providerId);
    this.#composed.delete(providerId);
    this.#compositionErrors.delete(providerId);
  }

  getRegisteredProviderIds() {
    return [...new Set([...this.#configs.keys(), ...this.#native.keys()])];
  }

  getRegisteredNativeProvider(providerId) {
    return this.#native.get(providerId);
  }

  getRegisteredProviderConfig(providerId) {
    return this.#configs.get(providerId);
  }

  /**
   * Registers a provider made from `config` (merged over an earlier
   * registration of the id: values left undefined keep the earlier ones).
   * A config pi refuses throws before anything changes; one that cannot be
   * made into a provider (no way to authenticate) is reported by getError().
   */
  registerProvider(providerId, config) {
    const builtin = this.#builtinProviders().get(providerId);
    validateProviderConfig(providerId, builtin, config);
    this.#native.delete(providerId);
    const effective = { ...this.#configs.get(providerId) };
    for (const [key, value] of Object.entries(config)) if (value !== undefined) effective[key] = value;
    this.#configs.set(providerId, effective);
    try {
      const provider = composeConfiguredProvider(providerId, builtin, effective);
      this.#composed.set(providerId, provider);
      this.#compositionErrors.delete(providerId);
      this.#models.setProvider(provider);
    } catch (error) {
      this.#composed.delete(providerId);
      this.#compositionErrors.set(providerId, error instanceof Error ? error.message : String(error));
      this.#models.deleteProvider(providerId);
    }
    // Configured at once when its key is: a session made next reads this before the refresh below ends.
    if (this.#composed.has(providerId) && effective.apiKey !== undefined && isConfigValueConfigured(effective.apiKey)) this.#configured.add(providerId);
    else this.#configured.delete(providerId);
    void this.refresh({ allowNetwork: false }).catch(() => {});
  }

  /** Adds (or replaces) a virtual model under `definition.provider`; a physical model of that id refuses it. */
  registerVirtualModel(definition) {
    const { provider: providerId, id } = definition;
    if (!providerId.trim() || !id.trim()) throw new Error("Virtual model provider and id must not be empty.");
    const existing = this.getModel(providerId, id);
    if (existing && !isVirtualModel(existing)) throw new Error(`Virtual model ${providerId}/${id} conflicts with a physical model.`);
    const models = this.#virtual.get(providerId) ?? new Map();
    models.set(id, { model: createVirtualModel(definition), route: (request) => definition.route(request) });
    this.#virtual.set(providerId, models);
  }

  unregisterVirtualModel(providerId, id) {
    const models = this.#virtual.get(providerId);
    if (!models?.delete(id)) return;
    if (models.size === 0) this.#virtual.delete(providerId);
  }

  /**
   * Asks a virtual model's router where one request goes: a physical model
   * whose provider has credentials, the thinking level clamped to it, and
   * the router's new state. `messages` are the request's; the latest good
   * response among them is the router's `previous`, `options.failed` a
   * response being retried.
   */
  async resolveModel(model, messages, options) {
    const name = `Virtual model ${model.provider}/${model.id}`;
    const virtual = this.#virtual.get(model.provider)?.get(model.id);
    if (!virtual) throw new Error(`${name} is not registered.`);
    const { failed, ...request } = options;
    const latest = findLatestResponse(messages);
    const previousModel = latest && this.getPhysicalModel(latest.provider, latest.model);
    const failedModel = failed && this.getPhysicalModel(failed.provider, failed.model);
    const route = await virtual.route({
      ...request,
      model,
      previous: previousModel && { model: previousModel, thinkingLevel: latest?.thinkingLevel },
      failed: failedModel && { model: failedModel, thinkingLevel: failed.thinkingLevel, message: failed },
      messages,
    });
    const target = this.getPhysicalModel(route.model.provider, route.model.id);
    const routed = `${name} routed to ${route.model.provider}/${route.model.id}`;
    if (!target) throw new Error(`${routed}, which is not a physical model.`);
    if (!this.hasConfiguredAuth(target.provider)) throw new Error(`${routed}, which has no credentials.`);
    return { model: target, thinkingLevel: clampThinkingLevel(target, route.thinkingLevel), state: route.state };
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
