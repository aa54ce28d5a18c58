// Who is calling a provider: the User-Agent pi sends and the attribution
// headers some gateways (OpenRouter, NVIDIA NIM, OpenCode) read to credit
// the client. An identity is `{ userAgent, attribution, version }`, each
// optional; a Models collection can carry one into every request.

/** The pi-ai version pihost stands in for; the default version in the User-Agent. */
export const PI_AI_VERSION = "1.6.0";

/** pi's own attribution. */
export const PI_ATTRIBUTION = { name: "pi", url: "https://pi.dev", categories: ["cli-agent"] };

const IDENTITY_FIELDS = ["userAgent", "attribution", "version"];

/** The identities laid over each other in order: a later defined field wins. Undefined when no identity is given. */
export function mergeClientIdentity(...sources) {
  let merged;
  for (const source of sources) {
    if (!source) continue;
    merged = { ...merged };
    for (const field of IDENTITY_FIELDS) {
      if (source[field] !== undefined) merged[field] = source[field];
    }
  }
  return merged;
}

/** The version the User-Agent names. */
export function getClientVersion(identity) {
  return identity?.version ?? PI_AI_VERSION;
}

/** "bun/…" or "node/v…" for the runtime, undefined outside one (a browser). */
function runtimeName(host) {
  if (!host) return undefined;
  const { versions } = host;
  if (versions?.bun) return `bun/${versions.bun}`;
  if (versions?.node) return `node/${host.version}`;
  return undefined;
}

/**
 * The User-Agent for an identity: a custom text (`{ custom }`), "pi" for
 * "short", else pi's version with the platform, runtime and architecture.
 */
export function formatUserAgent(identity) {
  const mode = identity?.userAgent ?? "detailed";
  if (typeof mode === "object") return mode.custom;
  if (mode === "short") return "pi";
  const product = `pi/${getClientVersion(identity)}`;
  const host = globalThis.process;
  const runtime = runtimeName(host);
  return runtime ? `${product} (${host.platform}; ${runtime}; ${host.arch})` : `${product} (browser)`;
}

function hostnameIs(baseUrl, host) {
  try {
    return new URL(baseUrl).hostname === host;
  } catch {
    return false;
  }
}

const isOpenRouter = (target) => target.provider === "openrouter" || target.baseUrl.includes("openrouter.ai");
const isNvidiaNim = (target) => target.provider === "nvidia" || hostnameIs(target.baseUrl, "integrate.api.nvidia.com");
const isOpenCode = (target) =>
  target.provider === "opencode" || target.provider === "opencode-go" || hostnameIs(target.baseUrl, "opencode.ai");

/** The attribution headers the target (`{ provider, baseUrl }`) reads; none without an attribution or for other targets. */
export function getAttributionHeaders(target, identity) {
  const attribution = identity?.attribution;
  if (!attribution) return {};
  const { name, url, categories } = attribution;
  if (isOpenRouter(target)) {
    const headers = { "HTTP-Referer": url, "X-OpenRouter-Title": name };
    if (categories !== undefined && categories.length > 0) headers["X-OpenRouter-Categories"] = categories.join(",");
    return headers;
  }
  // NVIDIA wants the origin capitalized ("Pi").
  if (isNvidiaNim(target)) return { "X-BILLING-INVOKE-ORIGIN": name.charAt(0).toUpperCase() + name.slice(1) };
  if (isOpenCode(target)) return { "x-opencode-client": name };
  return {};
}

/** OpenCode's per-conversation routing header, for requests to OpenCode with a session; else undefined. */
export function getOpenCodeSessionHeaders(target, sessionId) {
  if (!sessionId || !isOpenCode(target)) return undefined;
  return { "x-opencode-session": sessionId };
}

/** The headers an identity adds to every request: the User-Agent, then the attribution headers. */
export function getIdentityHeaders(target, identity) {
  return { "User-Agent": formatUserAgent(identity), ...getAttributionHeaders(target, identity) };
}

// The Models methods a wrapper forwards, with how many arguments each takes
// and which of them is the request options (that then carry the identity).
const FORWARDED = [
  ["getProviders", 0],
  ["getProvider", 1],
  ["getModels", 1],
  ["getModel", 2],
  ["getModelsOfType", 2],
  ["getModelOfType", 3],
  ["getAllModels", 1],
  ["refresh", 1],
  ["checkAuth", 2],
  ["getAvailable", 2],
  ["getAvailableOfType", 3],
  ["getAllAvailable", 2],
  ["getAuth"],
  ["login", 4],
  ["logout", 2],
  ["stream", 3, 2],
  ["complete", 3, 2],
  ["streamSimple", 3, 2],
  ["completeSimple", 3, 2],
  ["streamDeferred", 3, 2],
  ["fetchDeferred", 3, 2],
  ["cancelDeferred", 3, 2],
  ["generateImages", 3, 2],
  ["classify", 3, 2],
];
const MUTATORS = [
  ["setProvider", 1],
  ["deleteProvider", 1],
  ["clearProviders", 0],
];

/** A method that calls `models[name]` when called, with exactly `arity` arguments. */
function forwarder(models, name, arity, withIdentityAt, identity) {
  const forward = (...given) => {
    const args = Array.from({ length: arity }, (_, index) => given[index]);
    if (withIdentityAt !== undefined) {
      const options = args[withIdentityAt];
      args[withIdentityAt] = { ...options, identity: mergeClientIdentity(identity, options?.identity) };
    }
    return models[name](...args);
  };
  Object.defineProperty(forward, "length", { value: arity });
  Object.defineProperty(forward, "name", { value: name });
  return forward;
}

/**
 * `models` with `identity` under every request's own (the request's fields
 * win). getAuth is bound once, now; the other methods are looked up on
 * `models` when called. A collection that can change its providers keeps
 * setProvider, deleteProvider and clearProviders.
 */
export function withClientIdentity(models, identity) {
  const wrapped = {};
  for (const [name, arity, withIdentityAt] of FORWARDED) {
    wrapped[name] = arity === undefined ? models[name].bind(models) : forwarder(models, name, arity, withIdentityAt, identity);
  }
  const mutable = MUTATORS.every(([name]) => name in models);
  if (!mutable) return wrapped;
  for (const [name, arity] of MUTATORS) wrapped[name] = forwarder(models, name, arity, undefined, identity);
  return wrapped;
}
