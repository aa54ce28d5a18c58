// How a Models collection finds a provider's auth: a request's explicit key,
// else the stored credential (an OAuth token refreshed when it is about to
// expire), else what the provider's api-key auth finds in the environment.
// A stored credential owns its provider: the environment is asked only when
// nothing is stored. Also the ready-made auth pieces providers are built
// from (envApiKeyAuth, lazyOAuth) and the default context they read.
import { access } from "node:fs/promises";
import { homedir } from "node:os";
import { operationSignal, raceWithAbortSignal } from "./abort.js";
import { ModelsError } from "./models-error.js";

/** Environment variables from process.env (blank ones count as unset) and whether a file exists, `~` being home. */
export function defaultProviderAuthContext() {
  return {
    async env(name) {
      const value = globalThis.process?.env?.[name];
      return typeof value === "string" && value.trim().length > 0 ? value : undefined;
    },
    async fileExists(path) {
      try {
        await access(path.startsWith("~") ? homedir() + path.slice(1) : path);
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** Api-key auth: a stored key, else the first of `envVars` that is set; its login prompts for the key. */
export function envApiKeyAuth(name, envVars) {
  return {
    name,
    login: async (interaction) => {
      interaction.signal.throwIfAborted();
      const key = await interaction.prompt({ type: "secret", message: `Enter ${name}` });
      interaction.signal.throwIfAborted();
      return { type: "api_key", key };
    },
    resolve: async ({ ctx, credential, signal }) => {
      signal.throwIfAborted();
      if (credential?.key) return { auth: { apiKey: credential.key }, env: credential.env, source: "stored credential" };
      for (const envVar of envVars) {
        const value = await ctx.env(envVar);
        signal.throwIfAborted();
        if (value) return { auth: { apiKey: value }, source: envVar };
      }
      return undefined;
    },
  };
}

/** OAuth auth whose flow `input.load()` provides, loaded once, on the first login, refresh or conversion. */
export function lazyOAuth(input) {
  let flow;
  const loaded = () => {
    flow ??= input.load();
    return flow;
  };
  return {
    name: input.name,
    isSubscription: input.isSubscription,
    loginLabel: input.loginLabel,
    login: async (interaction, options) => (await loaded()).login(interaction, options),
    refresh: async (credential, signal) => (await loaded()).refresh(credential, signal),
    toAuth: async (credential) => (await loaded()).toAuth(credential),
  };
}

// An OAuth token is refreshed when it has less than this left.
const OAUTH_MINIMUM_VALIDITY_MS = 5 * 60 * 1000;
// A started refresh ignores cancellation (the old token may already be
// spent), so only this bounds it.
const OAUTH_REFRESH_TIMEOUT_MS = 15_000;

/** The provider's auth resolution, or undefined when it has none; rejects when the signal aborts first. */
export function resolveProviderAuth(provider, credentials, authContext, overrides) {
  const signal = operationSignal(overrides?.signal);
  return raceWithAbortSignal(resolveAuth(provider, credentials, authContext, overrides, signal), signal);
}

async function resolveAuth(provider, credentials, authContext, overrides, signal) {
  signal.throwIfAborted();
  const context = overrides?.env ? withEnvOverlay(authContext, overrides.env) : authContext;
  const apiKeyAuth = provider.auth.apiKey;
  if (overrides?.apiKey !== undefined && apiKeyAuth) {
    const given = { type: "api_key", key: overrides.apiKey, env: overrides.env };
    return resolveApiKey(context, apiKeyAuth, provider.id, given, signal);
  }
  const stored = await readCredential(credentials, provider.id, signal);
  if (!stored) return apiKeyAuth ? resolveApiKey(context, apiKeyAuth, provider.id, undefined, signal) : undefined;
  if (stored.type === "oauth" && provider.auth.oauth) {
    return resolveStoredOAuth(credentials, provider.id, provider.auth.oauth, stored, signal, overrides?.minOAuthValidityMs);
  }
  if (stored.type === "api_key" && apiKeyAuth) {
    const credential = overrides?.env ? { ...stored, env: { ...stored.env, ...overrides.env } } : stored;
    return resolveApiKey(context, apiKeyAuth, provider.id, credential, signal);
  }
  return undefined;
}

function withEnvOverlay(base, env) {
  return {
    env: async (name) => env[name] || (await base.env(name)),
    fileExists: (path) => base.fileExists(path),
  };
}

/**
 * Refreshes a stored OAuth credential while holding the store's queue for
 * the provider, when `needsRefresh` still says so there (another request
 * may have refreshed it meanwhile), and stores the result. `signal` cancels
 * only the wait for the queue. The OAuth credential afterwards, or undefined
 * when there is none any more.
 */
export async function refreshStoredOAuthCredential(credentials, providerId, oauth, needsRefresh, signal) {
  const queueWait = new AbortController();
  const stopWaiting = () => queueWait.abort(signal.reason);
  signal.addEventListener("abort", stopWaiting, { once: true });
  if (signal.aborted) stopWaiting();
  let after;
  try {
    after = await credentials.modify(
      providerId,
      async (current) => {
        signal.removeEventListener("abort", stopWaiting);
        signal.throwIfAborted();
        if (current?.type !== "oauth" || !needsRefresh(current)) return undefined;
        try {
          return await oauth.refresh(current, AbortSignal.timeout(OAUTH_REFRESH_TIMEOUT_MS));
        } catch (error) {
          throw new ModelsError("oauth", `OAuth refresh failed for ${providerId}`, { cause: error });
        }
      },
      { signal: queueWait.signal },
    );
  } catch (error) {
    if (error instanceof ModelsError) throw error;
    signal.throwIfAborted();
    throw new ModelsError("auth", `Credential store modify failed for ${providerId}`, { cause: error });
  } finally {
    signal.removeEventListener("abort", stopWaiting);
  }
  return after?.type === "oauth" ? after : undefined;
}

async function resolveStoredOAuth(credentials, providerId, oauth, stored, signal, minOAuthValidityMs) {
  const minimumValidityMs = Math.max(OAUTH_MINIMUM_VALIDITY_MS, minOAuthValidityMs ?? 0);
  const expiresSoon = (credential) => Date.now() + minimumValidityMs >= credential.expires;
  let credential = stored;
  if (expiresSoon(credential)) {
    const refreshed = await refreshStoredOAuthCredential(credentials, providerId, oauth, expiresSoon, signal);
    if (!refreshed) return undefined;
    credential = refreshed;
    // Only a caller that asked for a validity holds the provider to it.
    if (minOAuthValidityMs !== undefined && expiresSoon(credential)) {
      throw new ModelsError("oauth", `OAuth refresh returned a token that expires too soon for ${providerId}`);
    }
  }
  try {
    return { auth: await oauth.toAuth(credential), source: "OAuth" };
  } catch (error) {
    throw new ModelsError("oauth", `OAuth auth derivation failed for ${providerId}`, { cause: error });
  }
}

async function resolveApiKey(context, apiKeyAuth, providerId, credential, signal) {
  try {
    return await apiKeyAuth.resolve({ ctx: context, credential, signal });
  } catch (error) {
    throw new ModelsError("auth", `API key auth failed for provider ${providerId}`, { cause: error });
  }
}

export async function readCredential(credentials, providerId, signal) {
  try {
    return await credentials.read(providerId, { signal });
  } catch (error) {
    throw new ModelsError("auth", `Credential store read failed for ${providerId}`, { cause: error });
  }
}
