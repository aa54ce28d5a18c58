// pi's ModelRegistry: the synchronous view of a model runtime that
// extensions get as ctx.modelRegistry. Every method asks the runtime; the
// registry only reshapes auth into { ok, apiKey, headers } answers.

const MISSING_KEY = "authHeader requires a resolved API key";

function describeFailure(error) {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

export class ModelRegistry {
  runtime;

  constructor(runtime) {
    this.runtime = runtime;
  }

  /** Reloads models.json; await it before synchronous reads. */
  refresh(options) {
    return this.runtime.refresh(options);
  }

  getError() {
    return this.runtime.getError();
  }

  getAll() {
    return [...this.runtime.getModels()];
  }

  getAvailable() {
    return [...this.runtime.getAvailableSnapshot()];
  }

  find(provider, modelId) {
    return this.runtime.getModel(provider, modelId);
  }

  findOfType(type, provider, modelId) {
    return this.runtime.getModelOfType(type, provider, modelId);
  }

  hasConfiguredAuth(model) {
    return this.runtime.hasConfiguredAuth(model.provider);
  }

  /** The credentials a request for `model` would use; never rejects. */
  async getApiKeyAndHeaders(model) {
    try {
      const resolution = await this.runtime.getAuth(model);
      if (!resolution) {
        const compatibility = this.runtime.getCompatibilityRequestConfig(model);
        if (compatibility.authHeader) return { ok: false, error: `No API key found for "${model.provider}"` };
        return { ok: true, headers: compatibility.headers };
      }
      const { auth } = resolution;
      return { ok: true, apiKey: auth.apiKey, headers: auth.headers, ...(auth.baseUrl ? { baseUrl: auth.baseUrl } : {}), env: resolution.env };
    } catch (error) {
      const message = describeFailure(error);
      return { ok: false, error: message === MISSING_KEY ? `No API key found for "${model.provider}"` : message };
    }
  }

  getProviderAuthStatus(provider) {
    return this.runtime.getProviderAuthStatus(provider);
  }

  getProvider(provider) {
    return this.runtime.getProvider(provider);
  }

  stream(model, context, options) {
    return this.runtime.stream(model, context, options);
  }

  streamSimple(model, context, options) {
    return this.runtime.streamSimple(model, context, options);
  }

  complete(model, context, options) {
    return this.runtime.complete(model, context, options);
  }

  getModelsOfType(type, provider) {
    return this.runtime.getModelsOfType(type, provider);
  }

  getAvailableOfType(type, provider, options) {
    return this.runtime.getAvailableOfType(type, provider, options);
  }

  getModelOfType(type, provider, modelId) {
    return this.runtime.getModelOfType(type, provider, modelId);
  }

  classify(model, context, options) {
    return this.runtime.classify(model, context, options);
  }

  generateImages(model, context, options) {
    return this.runtime.generateImages(model, context, options);
  }

  getProviderDisplayName(provider) {
    return this.runtime.getProvider(provider)?.name ?? provider;
  }

  getProviderAuth(provider) {
    return this.runtime.getAuth(provider);
  }

  async getApiKeyForProvider(provider) {
    try {
      return (await this.runtime.getAuth(provider))?.auth.apiKey;
    } catch {
      return undefined;
    }
  }

  isUsingOAuth(model) {
    return this.runtime.isUsingOAuth(model.provider);
  }

  registerProvider(providerOrName, config) {
    if (typeof providerOrName !== "string") {
      this.runtime.registerNativeProvider(providerOrName);
      return;
    }
    if (!config) throw new Error("Provider config is required when registering by name");
    this.runtime.registerProvider(providerOrName, config);
  }

  unregisterProvider(providerName) {
    this.runtime.unregisterProvider(providerName);
  }

  registerVirtualModel(definition) {
    this.runtime.registerVirtualModel(definition);
  }

  unregisterVirtualModel(providerName, id) {
    this.runtime.unregisterVirtualModel(providerName, id);
  }

  getRegisteredProviderConfig(providerName) {
    return this.runtime.getRegisteredProviderConfig(providerName);
  }

  getRegisteredNativeProvider(providerName) {
    return this.runtime.getRegisteredNativeProvider(providerName);
  }

  getRegisteredProviderIds() {
    return this.runtime.getRegisteredProviderIds();
  }
}
