// Keeping a provider's prompt cache warm: how long an entry lives, when to
// refresh it, whether a request can be replayed to do so and whether that
// pays for itself. Hosts schedule the refreshes; these are only the numbers.
import { calculateCost } from "./cost.js";
import { providerEnvValue } from "./provider-env.js";
import { emptyUsage } from "./usage.js";

/** Refreshes after a real request stop this long after it. */
export const CACHE_WARMING_MAX_AGE_MS = 60 * 60_000;
/** The shorter horizon while idle, where guesses about a next request grow stale. */
export const CACHE_WARMING_MAX_IDLE_AGE_MS = 30 * 60_000;
/** The least a refresh must be expected to save, in dollars. */
export const CACHE_WARMING_MINIMUM_EXPECTED_SAVINGS = 0.05;
/** How likely a real request comes before an idle agent's cache entry expires (measured by pi). */
export const CACHE_WARMING_IDLE_CONTINUATION_PROBABILITY = 0.15;

/** When to refresh an entry that lives `ttlMs`: at 90% of it, at least ten seconds early; never for ten seconds or less. */
export function getCacheWarmingDelayMs(ttlMs) {
  if (ttlMs <= 10_000) return undefined;
  return Math.max(1, Math.floor(Math.min(ttlMs * 0.9, ttlMs - 10_000)));
}

/**
 * How long the cache entry a request writes lives, from the model's
 * `promptCache` seconds for the retention used (the option, else
 * PI_CACHE_RETENTION=long, else short). Undefined when caching is off or
 * the model gives no lifetime.
 */
export function getPromptCacheTtlMs(model, options) {
  const retention = options?.cacheRetention ?? retentionFromEnv(options?.env);
  if (retention === "none") return undefined;
  const seconds = model.promptCache?.[retention];
  return seconds === undefined ? undefined : seconds * 1000;
}

function retentionFromEnv(env) {
  return providerEnvValue("PI_CACHE_RETENTION", env) === "long" ? "long" : "short";
}

/**
 * Whether a replay capped at one output token leaves the cache entry alone.
 * Not for Anthropic's budget-based thinking: the budget follows max_tokens,
 * Anthropic keys the cache on it, and the replay could still think at length.
 */
export function isCacheWarmingReplayable(model, options) {
  if (!options?.reasoning || model.api !== "anthropic-messages") return true;
  return model.compat?.forceAdaptiveThinking === true;
}

/** A refresh's options: the request's own, one output token, no retries, and no new continuation state. */
export function getCacheWarmingRequestOptions(options, signal) {
  return { ...options, maxTokens: 1, disableContinuation: true, maxRetries: 0, signal };
}

/** What a refresh of a `promptTokens` prompt costs and saves in `phase` ("idle" or streaming), and whether to do it. */
export function evaluateCacheWarming(model, promptTokens, phase) {
  const hitCost = priceOf(model, { cacheRead: promptTokens });
  const writesCache = model.cost.cacheWrite > 0;
  const missCostRaw = priceOf(model, writesCache ? { cacheWrite: promptTokens } : { input: promptTokens });
  const warmCost = priceOf(model, { cacheRead: promptTokens, output: 1 });
  const missCost = Math.max(0, missCostRaw - hitCost);
  const continuationProbability = phase === "idle" ? CACHE_WARMING_IDLE_CONTINUATION_PROBABILITY : 1;
  const expectedSavings = continuationProbability * missCost - warmCost;
  return {
    phase,
    warmCost,
    missCost,
    continuationProbability,
    expectedSavings,
    economicsAvailable: promptTokens > 0 && (hitCost > 0 || missCostRaw > 0),
    action: expectedSavings >= CACHE_WARMING_MINIMUM_EXPECTED_SAVINGS ? "warm" : "stop",
  };
}

function priceOf(model, tokens) {
  const usage = { ...emptyUsage(), ...tokens };
  return calculateCost(model, usage).total;
}
