// pi-ai's Models collection (createModels) and the provider builder
// (createProvider). A collection holds providers by id and runs requests
// through them: it resolves each request's auth (provider-auth.js), streams
// through the provider's api, and keeps each provider's fetched model list
// in its models store. Nothing here reaches the network itself; a provider's
// api does, and in pihost the providers extensions build are their own.
import { operationSignal, raceWithAbortSignal } from "./abort.js";
import { getOpenCodeSessionHeaders, mergeClientIdentity } from "./identity.js";
import { lazyStream } from "./lazy-stream.js";
import { getModelType, isModelType } from "./model-kinds.js";
import { ModelsError } from "./models-error.js";
import { failedClassification, failedImages } from "./failed-results.js";
import { defaultProviderAuthContext, readCredential, refreshStoredOAuthCredential, resolveProviderAuth } from "./provider-auth.js";
import { InMemoryCredentialStore, InMemoryModelsStore } from "./stores.js";
import { observeModelRequest } from "./telemetry.js";
import { normalizeContext } from "./transcript.js";

const KNOWN_MODEL_TYPES = new Set(["chat", "image", "classifier"]);

/** Stored or fetched lists may hold types only a newer pi knows; those are left out. */
function hasKnownModelType(model) {
  return KNOWN_MODEL_TYPES.has(getModelType(model));
}

/** `override` over `base`, a header name replacing every spelling of it. */
function mergeHeaders(base, override) {
  if (!base && !override) return undefined;
  const merged = { ...base };
  for (const [name, value] of Object.entries(override ?? {})) {
    for (const existing of Object.keys(merged)) {
      if (existing.toLowerCase() === name.toLowerCase()) delete merged[existing];
    }
    merged[name] = value;
  }
  return merged;
}

function requireModelType(model, type, noun) {
  if (!isModelType(model, type)) throw new ModelsError("provider", `Model ${model.provider}/${model.id} is not ${noun}`);
}

/** Every model of `providers` that `list(provider)` gives; a provider whose list throws gives none. */
function collectModels(providers, list) {
  const models = [];
  for (const provider of providers) {
    try {
      models.push(...list(provider));
    } catch {
      // A provider that cannot list its models has none to offer.
    }
  }
  return models;
}

class Models {
  providers = new Map();
  credentials;
  modelsStore;
  authContext;
  identity;
  // Per provider: which model refresh is current, how to abort it, and the
  // queue its publications go through, so a superseded refresh publishes nothing.
  refreshGenerations = new Map();
  refreshControllers = new Map();
  publicationChains = new Map();

  constructor(options) {
    this.credentials = options?.credentials ?? new InMemoryCredentialStore();
    this.modelsStore = options?.modelsStore ?? new InMemoryModelsStore();
    this.authContext = options?.authContext ?? defaultProviderAuthContext();
    this.identity = options?.identity;
  }

  setProvider(provider) {
    this.supersedeProviderRefresh(provider.id);
    this.providers.set(provider.id, provider);
  }

  deleteProvider(id) {
    this.supersedeProviderRefresh(id);
    this.providers.delete(id);
  }

  clearProviders() {
    for (const id of new Set([...this.providers.keys(), ...this.refreshControllers.keys()])) this.supersedeProviderRefresh(id);
    this.providers.clear();
  }

  getProviders() {
    return Array.from(this.providers.values());
  }

  getProvider(id) {
    return this.providers.get(id);
  }

  #selected(providerId) {
    if (providerId === undefined) return this.providers.values();
    const provider = this.providers.get(providerId);
    return provider ? [provider] : [];
  }

  getModels(provider) {
    return collectModels(this.#selected(provider), (entry) => entry.getModels());
  }

  getAllModels(provider) {
    return collectModels(this.#selected(provider), (entry) => entry.getAllModels?.() ?? entry.getModels());
  }

  getModelsOfType(type, provider) {
    return this.getAllModels(provider).filter((model) => isModelType(model, type));
  }

  getModel(provider, id) {
    return this.getModels(provider).find((model) => model.id === id);
  }

  getModelOfType(type, provider, id) {
    return this.getModelsOfType(type, provider).find((model) => model.id === id);
  }

  supersedeProviderRefresh(providerId) {
    const generation = (this.refreshGenerations.get(providerId) ?? 0) + 1;
    this.refreshGenerations.set(providerId, generation);
    const running = this.refreshControllers.get(providerId);
    if (running) {
      this.refreshControllers.delete(providerId);
      running.abort();
    }
    return generation;
  }

  beginProviderRefresh(providerId) {
    const generation = this.supersedeProviderRefresh(providerId);
    const controller = new AbortController();
    this.refreshControllers.set(providerId, controller);
    return { generation, controller };
  }

  #isCurrent(providerId, generation, signal) {
    return !signal.aborted && this.refreshGenerations.get(providerId) === generation;
  }

  /** Stores and applies one publication of a provider's models, in order, unless its refresh was superseded. */
  publishProviderModels(providerId, generation, signal, publication) {
    const previous = this.publicationChains.get(providerId) ?? Promise.resolve();
    const queued = (async () => {
      await previous.catch(() => {});
      if (!this.#isCurrent(providerId, generation, signal)) return false;
      if (publication.persist === null) await this.modelsStore.delete(providerId, { signal });
      else if (publication.persist !== undefined) await this.modelsStore.write(providerId, structuredClone(publication.persist), { signal });
      if (!this.#isCurrent(providerId, generation, signal)) return false;
      publication.update?.();
      return true;
    })();
    const tail = queued.catch(() => {});
    this.publicationChains.set(providerId, tail);
    tail.then(() => {
      if (this.publicationChains.get(providerId) === tail) this.publicationChains.delete(providerId);
    });
    return raceWithAbortSignal(queued, signal);
  }

  async runProviderRefreshPhase(provider, credential, allowNetwork, force, generation, signal) {
    const stored = await this.modelsStore.read(provider.id, { signal });
    // A copy, so a provider never changes what a store handed out.
    const restored = stored ? structuredClone(stored) : undefined;
    await provider.refreshModels({
      credential,
      stored: restored ? { ...restored, models: restored.models.filter(hasKnownModelType) } : undefined,
      publish: (publication) => this.publishProviderModels(provider.id, generation, signal, publication),
      allowNetwork,
      force: allowNetwork ? force : undefined,
      signal,
      baseUrl: provider.baseUrl,
    });
  }

  /**
   * Refreshes the model lists of the providers that can: first from the
   * models store, then (unless `allowNetwork` is false) from the provider's
   * source when it is configured. Failures are collected per provider.
   */
  async refresh(options = {}) {
    const allowNetwork = options.allowNetwork ?? true;
    const callerSignal = operationSignal(options.signal);
    const errors = new Map();
    if (callerSignal.aborted) return { aborted: true, errors };
    const wanted = options.providers ? new Set(options.providers) : undefined;
    const refreshable = this.getProviders().filter((provider) => provider.refreshModels !== undefined && (!wanted || wanted.has(provider.id)));
    const refreshOne = async (provider) => {
      const { generation, controller } = this.beginProviderRefresh(provider.id);
      const signal = AbortSignal.any([callerSignal, controller.signal]);
      const operation = (async () => {
        let stored;
        let readError;
        try {
          stored = await this.readCredential(provider.id, signal);
        } catch (error) {
          readError = error;
        }
        // The stored list comes back before any auth or network work.
        await this.runProviderRefreshPhase(provider, stored, false, undefined, generation, signal);
        if (readError !== undefined) throw readError;
        if (!allowNetwork || signal.aborted) return;
        const network = await this.resolveNetworkRefresh(provider, stored, signal);
        if (!network) return;
        await this.runProviderRefreshPhase(provider, network.credential, true, options.force, generation, signal);
      })();
      try {
        await raceWithAbortSignal(operation, signal);
      } catch (error) {
        if (!signal.aborted) {
          errors.set(
            provider.id,
            error instanceof Error ? error : new ModelsError("model_source", `Model refresh failed for ${provider.id}`, { cause: error }),
          );
        }
      } finally {
        if (this.refreshControllers.get(provider.id) === controller) this.refreshControllers.delete(provider.id);
      }
    };
    try {
      await raceWithAbortSignal(Promise.all(refreshable.map(refreshOne)), callerSignal);
    } catch (error) {
      if (!callerSignal.aborted) throw error;
    }
    return { aborted: callerSignal.aborted, errors: new Map(errors) };
  }

  /** What the network phase of a refresh runs with, or undefined when the provider is not configured. */
  async resolveNetworkRefresh(provider, stored, signal) {
    if (provider.refreshModelsAuth === "configured") {
      return (await this.checkProviderAuth(provider, stored, signal)) ? {} : undefined;
    }
    const credential = await this.resolveRefreshCredential(provider, stored, signal);
    return credential ? { credential } : undefined;
  }

  async resolveRefreshCredential(provider, stored, signal) {
    if (stored?.type === "oauth") {
      const oauth = provider.auth.oauth;
      if (!oauth) return undefined;
      if (Date.now() < stored.expires) return stored;
      if (signal.aborted) return undefined;
      return refreshStoredOAuthCredential(this.credentials, provider.id, oauth, (current) => Date.now() >= current.expires, signal);
    }
    const apiKey = provider.auth.apiKey;
    if (!apiKey) return undefined;
    const credential = stored?.type === "api_key" ? stored : undefined;
    const result = await apiKey.resolve({ ctx: this.authContext, credential, signal });
    if (!result) return undefined;
    return { type: "api_key", key: result.auth.apiKey, env: result.env };
  }

  readCredential(providerId, signal) {
    return readCredential(this.credentials, providerId, signal);
  }

  async checkProviderAuth(provider, credential, signal) {
    if (credential?.type === "oauth") return provider.auth.oauth ? { source: "OAuth", type: "oauth" } : undefined;
    const apiKey = provider.auth.apiKey;
    if (!apiKey) return undefined;
    if (apiKey.check) {
      try {
        return await apiKey.check({ ctx: this.authContext, credential: credential?.type === "api_key" ? credential : undefined, signal });
      } catch (error) {
        throw new ModelsError("auth", `API key auth check failed for provider ${provider.id}`, { cause: error });
      }
    }
    const resolution = await resolveProviderAuth(provider, this.credentials, this.authContext, { signal });
    return resolution ? { source: resolution.source, type: "api_key" } : undefined;
  }

  checkAuth(providerId, options) {
    const signal = operationSignal(options?.signal);
    const check = (async () => {
      signal.throwIfAborted();
      const provider = this.providers.get(providerId);
      if (!provider) return undefined;
      return this.checkProviderAuth(provider, await this.readCredential(providerId, signal), signal);
    })();
    return raceWithAbortSignal(check, signal);
  }

  async getAuthenticatedProviders(providerId, signal) {
    signal.throwIfAborted();
    const providers = providerId ? [...this.#selected(providerId)] : this.getProviders();
    const checked = await Promise.all(
      providers.map(async (provider) => {
        const credential = await this.readCredential(provider.id, signal);
        return { provider, credential, auth: await this.checkProviderAuth(provider, credential, signal) };
      }),
    );
    return checked.filter((entry) => entry.auth !== undefined);
  }

  /** The chat models of the providers that have auth, as each provider filters them for its credential. */
  getAvailable(providerId, options) {
    const signal = operationSignal(options?.signal);
    const available = (async () => {
      const providers = await this.getAuthenticatedProviders(providerId, signal);
      return providers.flatMap(({ provider, credential }) => {
        const models = provider.getModels();
        return provider.filterModels?.(models, credential) ?? models;
      });
    })();
    return raceWithAbortSignal(available, signal);
  }

  async getAvailableOfType(type, providerId, options) {
    return (await this.getAllAvailable(providerId, options)).filter((model) => isModelType(model, type));
  }

  /** Models of every type from the providers that have auth; a chat-only filter hides only chat models. */
  getAllAvailable(providerId, options) {
    const signal = operationSignal(options?.signal);
    const available = (async () => {
      const providers = await this.getAuthenticatedProviders(providerId, signal);
      return providers.flatMap(({ provider, credential }) => {
        const models = provider.getAllModels?.() ?? provider.getModels();
        if (provider.filterAllModels) return provider.filterAllModels(models, credential);
        if (!provider.filterModels) return models;
        const availableChat = new Set(provider.filterModels(provider.getModels(), credential).map((model) => model.id));
        return models.filter((model) => !isModelType(model, "chat") || availableChat.has(model.id));
      });
    })();
    return raceWithAbortSignal(available, signal);
  }

  /** The provider's resolved auth; for a model, with the model's own headers over the auth's. */
  async getAuth(providerOrModel, overrides) {
    const signal = operationSignal(overrides?.signal);
    const byId = typeof providerOrModel === "string";
    const provider = this.providers.get(byId ? providerOrModel : providerOrModel.provider);
    if (!provider) return undefined;
    const result = await resolveProviderAuth(provider, this.credentials, this.authContext, { ...overrides, signal });
    if (!result || byId || !providerOrModel.headers) return result;
    return { ...result, auth: { ...result.auth, headers: mergeHeaders(result.auth.headers, providerOrModel.headers) } };
  }

  /** Runs the provider's login of `type` ("oauth" or "apiKey") and stores the credential it gives. */
  async login(providerId, type, interaction, options) {
    const signal = operationSignal(interaction.signal);
    signal.throwIfAborted();
    const provider = this.providers.get(providerId);
    if (!provider) throw new ModelsError("provider", `Unknown provider: ${providerId}`);
    const method = type === "oauth" ? provider.auth.oauth : provider.auth.apiKey;
    if (!method?.login) throw new ModelsError("auth", `${provider.name} does not support ${type} login`);
    const credential = await raceWithAbortSignal(method.login({ ...interaction, signal }, options), signal);
    // Once the store has begun writing, an abort no longer undoes the login.
    let writing = false;
    let markWriting;
    const started = new Promise((resolve) => {
      markWriting = resolve;
    });
    const write = this.credentials.modify(
      providerId,
      async () => {
        writing = true;
        markWriting();
        return credential;
      },
      { signal },
    );
    write.catch(() => {});
    try {
      await new Promise((resolve, reject) => {
        const onAbort = () => {
          if (!writing) reject(signal.reason);
        };
        signal.addEventListener("abort", onAbort, { once: true });
        Promise.race([started, write]).then(
          () => {
            signal.removeEventListener("abort", onAbort);
            resolve();
          },
          (error) => {
            signal.removeEventListener("abort", onAbort);
            reject(error);
          },
        );
        if (signal.aborted) onAbort();
      });
      await write;
    } catch (error) {
      signal.throwIfAborted();
      throw new ModelsError("auth", `Credential store modify failed for ${providerId}`, { cause: error });
    }
    return credential;
  }

  async logout(providerId, options) {
    const signal = operationSignal(options?.signal);
    signal.throwIfAborted();
    try {
      await this.credentials.delete(providerId, { signal });
    } catch (error) {
      signal.throwIfAborted();
      throw new ModelsError("auth", `Credential store delete failed for ${providerId}`, { cause: error });
    }
  }

  requireProvider(model) {
    const provider = this.providers.get(model.provider);
    if (!provider) throw new ModelsError("provider", `Unknown provider: ${model.provider}`);
    return provider;
  }

  requireChatProvider(model) {
    requireModelType(model, "chat", "a chat model");
    return this.requireProvider(model);
  }

  /** The model and options a request goes to its provider with: resolved auth under the request's own options. */
  async applyAuth(model, options) {
    this.requireProvider(model);
    const resolution = await this.getAuth(model, { apiKey: options?.apiKey, env: options?.env, signal: options?.signal });
    if (!resolution) throw new ModelsError("auth", `Provider is not configured: ${model.provider}`);
    const { auth } = resolution;
    const requestModel = auth.baseUrl ? { ...model, baseUrl: auth.baseUrl } : model;
    const sessionId = options && "sessionId" in options && typeof options.sessionId === "string" ? options.sessionId : undefined;
    let headers = mergeHeaders(mergeHeaders(getOpenCodeSessionHeaders(requestModel, sessionId), auth.headers), options?.headers);
    // The caller's transform sees the final headers and is for this collection only.
    if (options?.transformHeaders) headers = await options.transformHeaders(headers ?? {});
    const env = resolution.env || options?.env ? { ...(resolution.env ?? {}), ...(options?.env ?? {}) } : undefined;
    const identity = mergeClientIdentity(this.identity, options?.identity);
    const { transformHeaders: _transformHeaders, ...passedOn } = options ?? {};
    const requestOptions = {
      ...passedOn,
      apiKey: options?.apiKey ?? auth.apiKey,
      headers,
      env,
      ...(identity === undefined ? {} : { identity }),
    };
    return { requestModel, requestOptions };
  }

  #request(kind, model, context, options) {
    const transcript = normalizeContext(context);
    return lazyStream(
      model,
      async () => {
        const provider = this.requireChatProvider(model);
        const { requestModel, requestOptions } = await this.applyAuth(model, options);
        return provider[kind](requestModel, transcript, requestOptions);
      },
      observeModelRequest(model, options, false),
      options?.signal,
    );
  }

  stream(model, context, options) {
    return this.#request("stream", model, context, options);
  }

  async complete(model, context, options) {
    return this.stream(model, context, options).result();
  }

  streamSimple(model, context, options) {
    return this.#request("streamSimple", model, context, options);
  }

  async completeSimple(model, context, options) {
    return this.streamSimple(model, context, options).result();
  }

  streamDeferred(model, handle, options) {
    return lazyStream(
      model,
      async () => {
        const provider = this.requireChatProvider(model);
        if (!provider.fetchDeferred) throw new ModelsError("provider", `Provider ${model.provider} does not support deferred responses`);
        const { requestModel, requestOptions } = await this.applyAuth(model, options);
        return provider.fetchDeferred(requestModel, handle, requestOptions);
      },
      observeModelRequest(model, options, true),
      options?.signal,
    );
  }

  async fetchDeferred(model, handle, options) {
    return this.streamDeferred(model, handle, options).result();
  }

  async cancelDeferred(model, handle, options) {
    const provider = this.requireChatProvider(model);
    if (!provider.cancelDeferred) throw new ModelsError("provider", `Provider ${model.provider} does not support deferred responses`);
    const { requestModel, requestOptions } = await this.applyAuth(model, options);
    await provider.cancelDeferred(requestModel, handle, requestOptions);
  }

  /** Never rejects: a failure is a result with stopReason "error" (or "aborted"). */
  async generateImages(model, context, options) {
    try {
      requireModelType(model, "image", "an image model");
      const provider = this.requireProvider(model);
      if (!provider.generateImages) throw new ModelsError("provider", `Provider ${model.provider} does not support image generation`);
      const { requestModel, requestOptions } = await this.applyAuth(model, options);
      return await provider.generateImages(requestModel, context, requestOptions);
    } catch (error) {
      return failedImages(model, error, options?.signal?.aborted);
    }
  }

  /** Never rejects: a failure is a result with stopReason "error" (or "aborted"). */
  async classify(model, context, options) {
    try {
      requireModelType(model, "classifier", "a classifier model");
      if (context.images?.length && !model.input.includes("image")) {
        throw new ModelsError("provider", `Model ${model.provider}/${model.id} does not accept image input`);
      }
      const provider = this.requireProvider(model);
      if (!provider.classify) throw new ModelsError("provider", `Provider ${model.provider} does not support classification`);
      const { requestModel, requestOptions } = await this.applyAuth(model, options);
      return await provider.classify(requestModel, context, requestOptions);
    } catch (error) {
      return failedClassification(model, error, options?.signal?.aborted);
    }
  }
}

export function createModels(options) {
  return new Models(options);
}

/**
 * A provider from its parts. `api` is one implementation for every chat
 * model, or a map by `model.api` (a model whose api has none gets a stream
 * that ends in an error); `images` and `classifiers` are maps by api. At
 * least one implementation is required. With `fetchModels`, the provider's
 * list is its `models` with the fetched ones over them (same type and id).
 */
export function createProvider(input) {
  const single = input.api && typeof input.api.stream === "function" ? input.api : undefined;
  const byApi = single || !input.api ? undefined : input.api;
  const { images, classifiers } = input;
  const present = (map) => Object.values(map ?? {}).filter((entry) => entry !== undefined);
  const streams = single ? [single] : present(byApi);
  if (streams.length === 0 && present(images).length === 0 && present(classifiers).length === 0) {
    throw new Error(`Provider ${input.id}: at least one of "api", "images", or "classifiers" is required.`);
  }
  const baseline = input.models;
  let fetched = [];
  const currentModels = () => {
    const merged = [...baseline];
    for (const model of fetched) {
      const index = merged.findIndex((entry) => getModelType(entry) === getModelType(model) && entry.id === model.id);
      if (index >= 0) merged[index] = model;
      else merged.push(model);
    }
    return merged;
  };
  const apiFor = (model) => single ?? byApi?.[model.api];
  const dispatch = (kind, model, context, options) => {
    const implementation = apiFor(model);
    if (implementation) return implementation[kind](model, context, options);
    return lazyStream(
      model,
      async () => {
        throw new ModelsError("stream", `Provider ${input.id} has no API implementation for "${model.api}"`);
      },
      undefined,
      options?.signal,
    );
  };
  const { fetchModels } = input;
  const refreshModels = async (context) => {
    if (context.stored) {
      const restored = context.stored.models.filter((model) => model.provider === input.id);
      const published = await context.publish({
        update: () => {
          fetched = restored;
        },
      });
      if (!published) return;
    }
    if (!context.allowNetwork || context.signal.aborted) return;
    const listed = await fetchModels(context);
    if (context.signal.aborted) return;
    const known = listed.filter(hasKnownModelType);
    await context.publish({
      persist: { models: known, checkedAt: Date.now() },
      update: () => {
        fetched = known;
      },
    });
  };
  const provider = {
    id: input.id,
    name: input.name ?? input.id,
    baseUrl: input.baseUrl,
    headers: input.headers,
    auth: input.auth,
    getModels: () => currentModels().filter((model) => isModelType(model, "chat")),
    getAllModels: currentModels,
    refreshModels: fetchModels ? refreshModels : undefined,
    filterModels: input.filterModels,
    filterAllModels: input.filterAllModels,
    stream: (model, context, options) => dispatch("stream", model, context, options),
    streamSimple: (model, context, options) => dispatch("streamSimple", model, context, options),
  };
  if (streams.some((entry) => entry.fetchDeferred !== undefined)) {
    provider.fetchDeferred = (model, handle, options) =>
      lazyStream(
        model,
        async () => {
          const implementation = apiFor(model);
          if (!implementation?.fetchDeferred) {
            throw new ModelsError("provider", `Provider ${input.id} does not support deferred responses for "${model.api}"`);
          }
          return implementation.fetchDeferred(model, handle, options);
        },
        undefined,
        options?.signal,
      );
  }
  if (streams.some((entry) => entry.cancelDeferred !== undefined)) {
    provider.cancelDeferred = async (model, handle, options) => {
      const implementation = apiFor(model);
      if (!implementation?.cancelDeferred) {
        throw new ModelsError("provider", `Provider ${input.id} cannot cancel deferred responses for "${model.api}"`);
      }
      await implementation.cancelDeferred(model, handle, options);
    };
  }
  if (present(images).length > 0) {
    provider.generateImages = async (model, context, options) => {
      const implementation = images[model.api];
      if (!implementation) {
        return failedImages(model, new ModelsError("provider", `Provider ${input.id} has no image generation implementation for "${model.api}"`));
      }
      return implementation.generateImages(model, context, options);
    };
  }
  if (present(classifiers).length > 0) {
    provider.classify = async (model, context, options) => {
      const implementation = classifiers[model.api];
      if (!implementation) {
        return failedClassification(model, new ModelsError("provider", `Provider ${input.id} has no classifier implementation for "${model.api}"`));
      }
      return implementation.classify(model, context, options);
    };
  }
  return provider;
}
