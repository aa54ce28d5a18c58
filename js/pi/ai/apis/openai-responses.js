// pi-ai's "openai-responses" api over the isolate's fetch: OpenAI's
// Responses endpoint as OpenAI's SDK calls it, with pi's request (stateless,
// store: false, encrypted reasoning kept for replay) and stream handling.
import { clampThinkingLevel } from "../model-kinds.js";
import { AssistantMessageEventStream } from "../event-stream.js";
import { getIdentityHeaders } from "../identity.js";
import { getDeclaredTools } from "../tool-declarations.js";
import { resolveTranscript, resolveTranscriptTools } from "../transcript-tools.js";
import { emptyUsage } from "../usage.js";
import { buildCopilotDynamicHeaders, hasCopilotVisionInput } from "./copilot-headers.js";
import { createGrammarToolInputProperties } from "./grammar-tools.js";
import { clientApiKey, formatProviderFailure, headersToRecord, resolveCacheRetention, retryProviderRequest } from "./http.js";
import { clampOpenAIPromptCacheKey, openAIEvents, openAIRequest } from "./openai-http.js";
import { convertResponsesMessages, convertResponsesTools, getResponsesToolSupport, processResponsesStream } from "./responses-shared.js";
import { buildBaseOptions, resolveSamplingParams } from "./token-budget.js";

const TOOL_CALL_ID_PROVIDERS = new Set(["openai", "openai-codex", "opencode"]);
// Responses rejects max_output_tokens below 16.
const MIN_OUTPUT_TOKENS = 16;
const CHATGPT_USAGE_URL = "https://chatgpt.com/settings/usage";
const CHATGPT_WORKSPACE_LIMIT_HINT =
  "You've reached your ChatGPT workspace's usage limit. Ask your workspace admin to increase it at admin.openai.com → Workspace → Usage limits.";
// reasoning.effort stays fixed while configuration_update items carry the level.
const CONFIGURATION_UPDATE_REQUEST_EFFORT = "medium";

/** A credential other than an `sk-` key sent to OpenAI itself is a Sign in with ChatGPT token. */
function isChatGPTSignIn(model, apiKey) {
  return model.provider === "openai" && model.baseUrl === "https://api.openai.com/v1" && apiKey !== undefined && !apiKey.startsWith("sk-");
}

function responsesCompat(model) {
  const compat = model.compat ?? {};
  const viaOpenRouter = model.provider === "openrouter" || model.baseUrl.includes("openrouter.ai");
  return {
    supportsDeveloperRole: compat.supportsDeveloperRole ?? true,
    supportsMidConvoSystemMessages: compat.supportsMidConvoSystemMessages ?? false,
    sessionAffinityFormat: compat.sessionAffinityFormat ?? (viaOpenRouter ? "openrouter" : "openai"),
    promptCacheKeyMode: compat.promptCacheKeyMode ?? "auto",
    supportsLongCacheRetention: compat.supportsLongCacheRetention ?? true,
    supportsStrictMode: compat.supportsStrictMode ?? false,
    supportsOpenAIGrammarTools: compat.supportsOpenAIGrammarTools ?? false,
    supportsAdditionalTools: compat.supportsAdditionalTools ?? false,
    supportsToolSearch: compat.supportsToolSearch ?? false,
    supportsExplicitPromptCacheMode: compat.supportsExplicitPromptCacheMode ?? false,
    supportsMaxOutputTokens: compat.supportsMaxOutputTokens ?? true,
    supportsMidConvoEffort: compat.supportsMidConvoEffort ?? false,
  };
}

/** The effort configuration_update items carry, or undefined when it goes as reasoning.effort. */
function configurationUpdateEffort(model, options, compat) {
  // Sign in with ChatGPT rejects configuration_update items.
  if (!compat.supportsMidConvoEffort || !options?.reasoningEffort || isChatGPTSignIn(model, options.apiKey)) return undefined;
  return model.thinkingLevelMap?.[options.reasoningEffort] ?? options.reasoningEffort;
}

function promptCacheRetention(compat, cacheRetention) {
  return cacheRetention === "long" && compat.supportsLongCacheRetention && !compat.supportsExplicitPromptCacheMode ? "24h" : undefined;
}

function promptCacheOptions(compat, cacheRetention) {
  if (!compat.supportsExplicitPromptCacheMode) return undefined;
  if (cacheRetention === "none") return { mode: "explicit" };
  if (cacheRetention === "long" && compat.supportsLongCacheRetention) return { ttl: "30m" };
  return undefined;
}

function clientHeaders(model, context, optionsHeaders, identity, sessionId, compat) {
  const headers = { ...getIdentityHeaders(model, identity), ...model.headers };
  if (model.provider === "github-copilot") {
    Object.assign(headers, buildCopilotDynamicHeaders({ messages: context.messages, hasImages: hasCopilotVisionInput(context.messages) }));
  }
  if (sessionId) {
    if (compat.sessionAffinityFormat === "openrouter") {
      headers["x-session-id"] = sessionId;
    } else {
      if (compat.sessionAffinityFormat === "openai") headers["session-id"] = sessionId;
      headers["x-client-request-id"] = sessionId;
    }
  }
  return optionsHeaders ? Object.assign(headers, optionsHeaders) : headers;
}

function buildParams(model, context, options, compat, grammarToolInputProperties, updateEffort) {
  const transcriptTools = resolveTranscriptTools(context.messages, getResponsesToolSupport(compat));
  const toolOptions = { supportsStrictMode: compat.supportsStrictMode, supportsOpenAIGrammarTools: compat.supportsOpenAIGrammarTools };
  const input = convertResponsesMessages(model, context, TOOL_CALL_ID_PROVIDERS, {
    grammarToolInputProperties,
    supportsMidConvoSystemMessages: compat.supportsMidConvoSystemMessages,
    supportsAdditionalTools: compat.supportsAdditionalTools,
    supportsToolSearch: compat.supportsToolSearch,
    toolOptions,
    configurationUpdateEffort: updateEffort,
  });
  const cacheRetention = resolveCacheRetention(options?.cacheRetention, options?.env);
  // Sign in with ChatGPT rejects these fields.
  const chatGPT = isChatGPTSignIn(model, options?.apiKey);
  const params = {
    model: model.id,
    input,
    stream: true,
    prompt_cache_key: cacheRetention !== "none" && compat.promptCacheKeyMode !== "disabled" ? clampOpenAIPromptCacheKey(options?.sessionId) : undefined,
    prompt_cache_retention: chatGPT ? undefined : promptCacheRetention(compat, cacheRetention),
    prompt_cache_options: chatGPT ? undefined : promptCacheOptions(compat, cacheRetention),
    store: false,
  };
  if (options?.maxTokens && compat.supportsMaxOutputTokens && !chatGPT) params.max_output_tokens = Math.max(options.maxTokens, MIN_OUTPUT_TOKENS);
  if (options?.temperature !== undefined && !chatGPT) params.temperature = options.temperature;
  if (options?.serviceTier !== undefined) params.service_tier = options.serviceTier;
  if (transcriptTools.requestTools.length > 0) params.tools = convertResponsesTools(transcriptTools.requestTools, toolOptions);
  if (options?.toolChoice !== undefined) params.tool_choice = options.toolChoice;
  const reasoningEffort = options?.reasoningEffort ?? (options?.reasoningSummary ? "medium" : undefined);
  if (model.reasoning) {
    if (reasoningEffort) {
      const requested = options?.reasoningEffort ? (model.thinkingLevelMap?.[options.reasoningEffort] ?? options.reasoningEffort) : reasoningEffort;
      params.reasoning = {
        effort: updateEffort === undefined ? requested : CONFIGURATION_UPDATE_REQUEST_EFFORT,
        summary: options?.reasoningSummary || "auto",
      };
      params.include = ["reasoning.encrypted_content"];
    } else if (model.provider !== "github-copilot" && model.thinkingLevelMap?.off !== null) {
      params.reasoning = { effort: model.thinkingLevelMap?.off ?? "none" };
    }
    if (model.provider === "xai") params.include = ["reasoning.encrypted_content"];
  }
  // Last, so the model's and the request's sampling parameters win over named fields.
  const sampling = resolveSamplingParams(model, reasoningEffort ?? "off", options?.samplingParams);
  if (sampling) Object.assign(params, sampling);
  return params;
}

function serviceTierMultiplier(model, tier) {
  if (tier === "flex") return 0.5;
  if (tier === "priority" || tier === "fast") return model.id === "gpt-5.5" ? 2.5 : 2;
  return 1;
}

function applyServiceTierPricing(usage, tier, model) {
  const multiplier = serviceTierMultiplier(model, tier);
  if (multiplier === 1) return;
  usage.cost.input *= multiplier;
  usage.cost.output *= multiplier;
  usage.cost.cacheRead *= multiplier;
  usage.cost.cacheWrite *= multiplier;
  usage.cost.total = usage.cost.input + usage.cost.output + usage.cost.cacheRead + usage.cost.cacheWrite;
}

/** A failure as text, with where to look when a ChatGPT subscription ran out. */
function failureMessage(model, error) {
  const message = formatProviderFailure(error, `${model.provider === "openai" ? "OpenAI" : model.provider} API error`);
  if (message.includes("subscription_sharing_usage_limit_exceeded")) return `${message}\nCheck your ChatGPT usage: ${CHATGPT_USAGE_URL}`;
  if (message.includes("subscription_sharing_workplace_individual_usage_limit_exceeded")) return `${message}\n${CHATGPT_WORKSPACE_LIMIT_HINT}`;
  return message;
}

export function stream(model, context, options) {
  const events = new AssistantMessageEventStream();
  const compat = responsesCompat(model);
  const transcript = resolveTranscript(context, compat.supportsMidConvoSystemMessages);
  const updateEffort = configurationUpdateEffort(model, options, compat);
  const output = {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    ...(updateEffort === undefined ? {} : { providerThinkingLevel: updateEffort }),
    usage: emptyUsage(),
    stopReason: "pending",
    timestamp: Date.now(),
  };
  run(model, transcript, options, compat, updateEffort, output, events).catch((error) => {
    output.stopReason = options?.signal?.aborted ? "aborted" : "error";
    output.errorMessage = failureMessage(model, error);
    events.push({ type: "error", reason: output.stopReason, error: output });
    events.end();
  });
  return events;
}

async function run(model, context, options, compat, updateEffort, output, events) {
  const apiKey = clientApiKey(model.provider, options?.apiKey, options?.headers);
  const cacheRetention = resolveCacheRetention(options?.cacheRetention, options?.env);
  const cacheSessionId = cacheRetention === "none" ? undefined : options?.sessionId;
  const grammarToolInputProperties = createGrammarToolInputProperties(getDeclaredTools(context.messages), compat.supportsOpenAIGrammarTools);
  const headers = clientHeaders(model, context, options?.headers, options?.identity, cacheSessionId, compat);
  let params = buildParams(model, context, options, compat, grammarToolInputProperties, updateEffort);
  const replaced = await options?.onPayload?.(params, model);
  if (replaced !== undefined) params = replaced;
  const response = await retryProviderRequest(
    () => openAIRequest({ model, path: "/responses", apiKey, headers, body: params, options }),
    { maxRetries: options?.maxRetries, maxRetryDelayMs: options?.maxRetryDelayMs, signal: options?.signal },
  );
  await options?.onResponse?.({ status: response.status, headers: headersToRecord(response.headers) }, model);
  events.push({ type: "start", partial: output });
  await processResponsesStream(openAIEvents(response, options?.signal), output, events, model, {
    onProviderStreamEvent: options?.onProviderStreamEvent,
    serviceTier: options?.serviceTier,
    grammarToolInputProperties,
    applyServiceTierPricing: (usage, tier) => applyServiceTierPricing(usage, tier, model),
  });
  if (options?.signal?.aborted) throw new Error("Request was aborted");
  if (output.stopReason === "pending") throw new Error("OpenAI Responses stream ended without a stop reason");
  if (output.stopReason === "aborted" || output.stopReason === "error") throw new Error(output.errorMessage || "An unknown error occurred");
  events.push({ type: "done", reason: output.stopReason, message: output });
  events.end();
}

export function streamSimple(model, context, options) {
  clientApiKey(model.provider, options?.apiKey, options?.headers);
  const base = { ...buildBaseOptions(model, context, options, options?.apiKey), toolChoice: options?.toolChoice };
  const level = options?.reasoning ? clampThinkingLevel(model, options.reasoning) : undefined;
  return stream(model, context, { ...base, reasoningEffort: level === "off" ? undefined : level });
}
