// How pi turns model references into models: `--model` (with `--provider`
// and a `:thinking` suffix) into one model, and `--models` / enabledModels
// scope patterns (ids, provider/id, fuzzy text, globs) into a list. A
// reference names a model exactly (its id, or provider/id), else fuzzily
// (part of the id or name; aliases before dated versions, then the latest);
// credentials only break ties between providers offering the same model.
import { modelsAreEqual } from "../ai/model-kinds.js";
import { globMatches } from "./model-glob.js";

const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh"];

/** The chat model pi picks for each provider when nothing else decides. */
export const defaultModelPerProvider = {
  "amazon-bedrock": "us.anthropic.claude-opus-5-5",
  "ant-ling": "Ring-2.6-1T",
  anthropic: "claude-opus-5-5",
  openai: "gpt-6.2-sol",
  azure: "gpt-6.2-sol",
  "openai-codex": "gpt-6.2-sol",
  radius: "balanced",
  nvidia: "nvidia/nemotron-3.5-super-vl-120b-a12b",
  deepseek: "deepseek-v4-pro",
  google: "gemini-4-argon",
  "google-vertex": "gemini-4-argon",
  "github-copilot": "gpt-6.1-sol",
  openrouter: "moonshotai/kimi-k2.7-code",
  "vercel-ai-gateway": "zai/glm-5.3",
  xai: "grok-4.7",
  groq: "openai/gpt-oss-120b",
  cerebras: "gpt-oss-120b",
  zai: "glm-5.3",
  "zai-coding-cn": "glm-5.3",
  mistral: "devstral-medium-latest",
  minimax: "MiniMax-M3",
  "minimax-cn": "MiniMax-M3",
  moonshotai: "kimi-k2.7-code",
  "moonshotai-cn": "kimi-k2.7-code",
  huggingface: "moonshotai/Kimi-K2.7-Code",
  fireworks: "accounts/fireworks/models/kimi-k3",
  together: "moonshotai/Kimi-K3",
  baseten: "zai-org/GLM-5.3",
  opencode: "kimi-k2.7-code",
  "opencode-go": "kimi-k3.1-pro",
  "kimi-coding": "kimi-for-coding",
  meta: "muse-spark-1.3",
  "cloudflare-workers-ai": "@cf/moonshotai/kimi-k2.7-code",
  "cloudflare-ai-gateway": "workers-ai/@cf/moonshotai/kimi-k2.7-code",
  "qwen-token-plan": "qwen3.8-max",
  "qwen-token-plan-cn": "qwen3.8-max",
  "qwen-token-plan-individual": "qwen3.8-max",
  "qwen-token-plan-individual-cn": "qwen3.8-max",
  xiaomi: "mimo-v2.6-pro",
  "xiaomi-token-plan-cn": "mimo-v2.6-pro",
  "xiaomi-token-plan-ams": "mimo-v2.6-pro",
  "xiaomi-token-plan-sgp": "mimo-v2.6-pro",
};

/** `text` as base and thinking level when it ends in `:<level>`. */
function splitThinkingSuffix(text) {
  const colon = text.lastIndexOf(":");
  const suffix = text.substring(colon + 1);
  if (colon === -1 || !THINKING_LEVELS.includes(suffix)) return undefined;
  return { base: text.substring(0, colon), thinkingLevel: suffix };
}

// Provider ids may themselves contain "/", so the longest known id that prefixes the text wins.
function splitProviderPrefix(text, models) {
  const lower = text.toLowerCase();
  let best;
  for (const { provider } of models) {
    const prefix = provider.trim().toLowerCase();
    if (!prefix || (best && best.provider.length >= provider.length)) continue;
    const slash = lower.indexOf("/", prefix.length);
    if (slash === -1 || lower.substring(0, slash).trim() !== prefix) continue;
    const modelText = text.substring(slash + 1).trim();
    if (modelText) best = { provider, modelText };
  }
  return best;
}

function resolveModelReference(request, models, usable) {
  const text = request.text.trim();
  if (!text) return { status: "not-found" };
  const constraint = request.provider?.toLowerCase();
  const pool = constraint ? models.filter((model) => model.provider.toLowerCase() === constraint) : models;
  const result = resolveText(text, request, pool, usable);
  if (result.status !== "not-found") return result;
  // Not found, but the provider is known: the caller may use the text as a custom model id there.
  const split = splitProviderPrefix(text, pool);
  const anchor = constraint ? pool[0] : pool.find((model) => model.provider === split?.provider);
  if (!anchor) return result;
  const modelText = split?.modelText ?? text;
  const suffix = request.thinkingSuffix === "none" ? undefined : splitThinkingSuffix(modelText);
  return {
    status: "not-found",
    target: {
      provider: anchor.provider,
      providerModels: [anchor, ...pool.filter((model) => model.provider === anchor.provider && model !== anchor)],
      modelText,
      modelId: suffix?.base ?? modelText,
      thinkingLevel: suffix?.thinkingLevel,
    },
  };
}

function resolveText(text, request, pool, usable) {
  const reference = selectReference(text, pool, request.fuzzy, usable);
  if (reference) return reference;
  if (request.fuzzy) {
    const fuzzy = selectFuzzy(fuzzyMatches(text, pool), usable);
    if (fuzzy) return fuzzy;
  }
  if (request.thinkingSuffix === "none") return { status: "not-found" };
  const thinking = splitThinkingSuffix(text);
  if (thinking) {
    const inner = resolveText(thinking.base, request, pool, usable);
    if (inner.status === "not-found") return inner;
    return { ...inner, thinkingLevel: inner.warning ? undefined : thinking.thinkingLevel };
  }
  // Strict: an invalid suffix stays part of the id, so nothing else is resolved by mistake.
  if (request.thinkingSuffix === "strict") return { status: "not-found" };
  const colon = text.lastIndexOf(":");
  if (colon === -1) return { status: "not-found" };
  const inner = resolveText(text.substring(0, colon), request, pool, usable);
  if (inner.status === "not-found") return inner;
  return {
    ...inner,
    thinkingLevel: undefined,
    warning: `Invalid thinking level "${text.substring(colon + 1)}" in pattern "${text}". Using default instead.`,
  };
}

// `provider/rest` is a hint: the whole text may be another provider's model id
// (gateway ids like `zai/glm-5`). The named provider wins when usable, else a
// sole usable raw match, else the named one (so --api-key can set it up).
function selectReference(text, pool, fuzzy, usable) {
  const lower = text.toLowerCase();
  const raw = pool.filter((model) => model.id.toLowerCase() === lower);
  const split = splitProviderPrefix(text, pool);
  let named;
  if (split) {
    const providerModels = pool.filter((model) => model.provider === split.provider);
    const lowerModelText = split.modelText.toLowerCase();
    named =
      providerModels.find((model) => model.id.toLowerCase() === lowerModelText) ??
      raw.find((model) => model.provider === split.provider) ??
      (fuzzy ? bestFuzzyMatch(fuzzyMatches(split.modelText, providerModels)) : undefined);
  }
  const others = raw.filter((model) => model !== named);
  const candidates = named ? [named, ...others] : others;
  if (candidates.length === 0) return undefined;
  if (new Set(candidates.map((model) => model.provider)).size === 1) return { status: "resolved", model: candidates[0] };
  if (named && usable(named.provider)) return { status: "resolved", model: named };
  const usableOthers = others.filter((model) => usable(model.provider));
  if (usableOthers.length === 1) return { status: "resolved", model: usableOthers[0] };
  if (usableOthers.length === 0 && named) return { status: "resolved", model: named };
  return { status: "ambiguous", candidates, usableCount: usableOthers.length };
}

function fuzzyMatches(text, models) {
  const lower = text.toLowerCase();
  return models.filter((model) => model.id.toLowerCase().includes(lower) || model.name?.toLowerCase().includes(lower));
}

function selectFuzzy(matches, usable) {
  if (matches.length === 0) return undefined;
  const multipleProviders = new Set(matches.map((model) => model.provider)).size > 1;
  const usableMatches = multipleProviders ? matches.filter((model) => usable(model.provider)) : [];
  const pool = usableMatches.length > 0 ? usableMatches : matches;
  const best = bestFuzzyMatch(pool);
  if (!best) return undefined;
  // The same id on several providers must not be decided by catalog order.
  const tied = pool.filter((model) => model.id === best.id);
  if (new Set(tied.map((model) => model.provider)).size === 1) return { status: "resolved", model: best };
  return { status: "ambiguous", candidates: tied, usableCount: usableMatches.length > 0 ? tied.length : 0 };
}

const isAlias = (id) => id.endsWith("-latest") || !/-\d{8}$/.test(id);

function bestFuzzyMatch(matches) {
  const aliases = matches.filter((model) => isAlias(model.id));
  return [...(aliases.length > 0 ? aliases : matches)].sort((a, b) => b.id.localeCompare(a.id))[0];
}

/** A model of the provider (its default one when listed) renamed to the custom id. */
function customModel(providerModels, modelId) {
  const defaultId = defaultModelPerProvider[providerModels[0].provider];
  const base = (defaultId && providerModels.find((model) => model.id === defaultId)) || providerModels[0];
  return { ...base, id: modelId, name: modelId };
}

function resolveModelScopeFromModels(patterns, models) {
  const scopedModels = [];
  const diagnostics = [];
  const add = (model, thinkingLevel) => {
    if (!scopedModels.some((scoped) => modelsAreEqual(scoped.model, model))) scopedModels.push({ model, thinkingLevel });
  };
  const noMatch = (pattern) => diagnostics.push({ type: "warning", code: "no-match", message: `No models match pattern "${pattern}"`, pattern });
  const ambiguous = (pattern, candidates) => {
    const providers = [...new Set(candidates.map((model) => model.provider))].sort((a, b) => a.localeCompare(b));
    diagnostics.push({
      type: "warning",
      code: "ambiguous",
      message: `Pattern "${pattern}" matches several providers: ${providers.join(", ")}. Use provider/id to choose one.`,
      pattern,
    });
  };
  for (const pattern of patterns) {
    if (pattern.includes("*") || pattern.includes("?") || pattern.includes("[")) {
      const thinking = splitThinkingSuffix(pattern);
      const glob = thinking?.base ?? pattern;
      // Ids such as `bracketed-model[1m]` are not globs.
      const exact = resolveModelReference({ text: glob, thinkingSuffix: "none", fuzzy: false }, models, () => true);
      let matches;
      if (exact.status === "resolved") {
        matches = [exact.model];
      } else if (exact.status === "ambiguous") {
        matches = exact.candidates;
        ambiguous(pattern, matches);
      } else {
        matches = models.filter((model) => globMatches(`${model.provider}/${model.id}`, glob) || globMatches(model.id, glob));
      }
      if (matches.length === 0) noMatch(pattern);
      for (const model of matches) add(model, thinking?.thinkingLevel);
      continue;
    }
    const result = resolveModelReference({ text: pattern, thinkingSuffix: "lenient", fuzzy: true }, models, () => true);
    if (result.status === "not-found") {
      noMatch(pattern);
      continue;
    }
    if (result.warning) diagnostics.push({ type: "warning", code: "invalid-thinking-level", message: result.warning, pattern });
    if (result.status === "ambiguous") ambiguous(pattern, result.candidates);
    for (const model of result.status === "resolved" ? [result.model] : result.candidates) add(model, result.thinkingLevel);
  }
  return { scopedModels, diagnostics };
}

/** The models the scope patterns select among the runtime's available models, with warnings. */
export async function resolveModelScopeWithDiagnostics(patterns, modelRuntime, options) {
  return resolveModelScopeFromModels(patterns, await modelRuntime.getAvailable(undefined, options));
}

/**
 * The model `--model` (and `--provider`) name, among all the runtime's
 * models, credentials or not (so --api-key can set one up). A thinking
 * suffix is parsed and returned, not applied.
 */
export function resolveCliModel(options) {
  const { cliProvider, cliModel, cliThinking, inlineApiKey, modelRuntime } = options;
  if (!cliModel) return { model: undefined, warning: undefined, error: undefined };
  const models = [...modelRuntime.getModels()];
  if (models.length === 0) {
    return { model: undefined, warning: undefined, error: "No models available. Check your installation or add models to models.json." };
  }
  const provider = cliProvider ? models.find((model) => model.provider.toLowerCase() === cliProvider.toLowerCase())?.provider : undefined;
  if (cliProvider && !provider) {
    return { model: undefined, warning: undefined, error: `Unknown provider "${cliProvider}". Use --list-models to see available providers/models.` };
  }
  // An inline key goes to whichever provider is selected, so stored credentials must not choose it.
  const usable = inlineApiKey ? () => false : (providerId) => modelRuntime.hasConfiguredAuth(providerId);
  const result = resolveModelReference({ text: cliModel, provider, thinkingSuffix: "strict", fuzzy: true }, models, usable);
  if (result.status === "resolved") {
    return { model: result.model, thinkingLevel: result.thinkingLevel, warning: result.warning, error: undefined };
  }
  if (result.status === "ambiguous") {
    const matches = result.candidates
      .map((model) => `${model.provider}/${model.id}`)
      .sort((a, b) => a.localeCompare(b))
      .join(", ");
    const authHint = inlineApiKey
      ? "--api-key does not choose a provider."
      : result.usableCount === 0
        ? "No matching provider is authenticated."
        : "More than one matching provider is authenticated.";
    return {
      model: undefined,
      warning: undefined,
      error: `Model "${cliModel}" is ambiguous across providers: ${matches}. ${authHint} Use --provider or provider/model.`,
    };
  }
  const { target } = result;
  if (!target) {
    return { model: undefined, warning: undefined, error: `Model "${cliModel}" not found. Use --list-models to see available models.` };
  }
  // With --thinking given, a suffix stays part of the custom id.
  const modelId = cliThinking ? target.modelText : target.modelId;
  const fallbackThinking = cliThinking ? undefined : target.thinkingLevel;
  const fallback = customModel(target.providerModels, modelId);
  const requestedThinking = cliThinking ?? fallbackThinking;
  return {
    model: requestedThinking && requestedThinking !== "off" ? { ...fallback, reasoning: true } : fallback,
    thinkingLevel: fallbackThinking,
    warning: `Model "${modelId}" not found for provider "${target.provider}". Using custom model id.`,
    error: undefined,
  };
}
