// pi-ai's "openai-completions" api (OpenAI's Chat Completions and the many
// servers that copy it) over the isolate's fetch: the request pi builds for
// the detected server flavour, sent as OpenAI's SDK sends it, and the SSE
// chunks turned into pi's assistant message events.
import { calculateCost } from "../cost.js";
import { AssistantMessageEventStream } from "../event-stream.js";
import { getIdentityHeaders } from "../identity.js";
import { ToolCallArgumentsStream } from "../json.js";
import { clampThinkingLevel } from "../model-kinds.js";
import { getSystemMessageText, renderSystemMessageUpdate } from "../system-text.js";
import { getDeclaredTools } from "../tool-declarations.js";
import { resolveTranscript, resolveTranscriptTools } from "../transcript-tools.js";
import { emptyUsage } from "../usage.js";
import { buildCopilotDynamicHeaders, hasCopilotVisionInput } from "./copilot-headers.js";
import {
  appendGrammarToolInputJsonDelta,
  closeGrammarToolInputJson,
  createGrammarToolInputProperties,
  getGrammarToolInput,
  resolveGrammarConstrainedSampling,
} from "./grammar-tools.js";
import { clientApiKey, formatProviderFailure, headersToRecord, resolveCacheRetention, retryProviderRequest } from "./http.js";
import { clampOpenAIPromptCacheKey, openAIEvents, openAIRequest } from "./openai-http.js";
import { applyOpenRouterReportedCost, isOpenRouterModel } from "./openrouter-cost.js";
import { transformMessages } from "./replay-messages.js";
import { getJsonSchemaToolParameters, resolveJsonSchemaStrictSampling } from "./strict-schemas.js";
import { sanitizeSurrogates, shortHash } from "./text-safety.js";
import { buildBaseOptions, MIN_ANSWER_TOKENS, resolveSamplingParams, thinkingBudgetForLevel } from "./token-budget.js";

const REASONING_FIELDS = ["reasoning", "reasoning_content", "reasoning_text"];
// The order deltas are read in: llama.cpp's field first; some servers send two with the same text.
const DELTA_REASONING_FIELDS = ["reasoning_content", "reasoning", "reasoning_text"];

// --- what the server is, from its provider name and URL --------------------------

function detectCompat(model) {
  const { provider, baseUrl } = model;
  const isZai = provider === "zai" || provider === "zai-coding-cn" || baseUrl.includes("api.z.ai") || baseUrl.includes("open.bigmodel.cn");
  const isTogether = provider === "together" || baseUrl.includes("api.together.ai") || baseUrl.includes("api.together.xyz");
  const isMoonshot = provider === "moonshotai" || provider === "moonshotai-cn" || baseUrl.includes("api.moonshot.");
  const isOpenRouter = provider === "openrouter" || baseUrl.includes("openrouter.ai");
  const isCloudflareWorkersAI = provider === "cloudflare-workers-ai" || baseUrl.includes("api.cloudflare.com");
  const isCloudflareGateway = provider === "cloudflare-ai-gateway" || baseUrl.includes("gateway.ai.cloudflare.com");
  const isNvidia = provider === "nvidia" || baseUrl.includes("integrate.api.nvidia.com");
  const isAntLing = provider === "ant-ling" || baseUrl.includes("api.ant-ling.com");
  const isCerebras = provider === "cerebras" || baseUrl.includes("cerebras.ai");
  const isDeepSeek = provider === "deepseek" || baseUrl.toLowerCase().includes("deepseek.com");
  const isGrok = provider === "xai" || baseUrl.includes("api.x.ai");
  const isChutes = baseUrl.includes("chutes.ai");
  const isNonStandard =
    isNvidia ||
    isCerebras ||
    isGrok ||
    isTogether ||
    isChutes ||
    isDeepSeek ||
    isZai ||
    isMoonshot ||
    provider === "opencode" ||
    baseUrl.includes("opencode.ai") ||
    isCloudflareWorkersAI ||
    isCloudflareGateway ||
    isAntLing;
  const useMaxTokens = isChutes || isDeepSeek || isMoonshot || isCloudflareGateway || isTogether || isNvidia || isAntLing || isZai;
  // Only OpenAI's own API gets the developer role by default; other chat templates often reject it.
  const isOpenAI = provider === "openai" || baseUrl.includes("api.openai.com");
  let thinkingFormat = "openai";
  if (isDeepSeek) thinkingFormat = "deepseek";
  else if (isZai) thinkingFormat = "zai";
  else if (isTogether) thinkingFormat = "together";
  else if (isAntLing) thinkingFormat = "ant-ling";
  else if (isOpenRouter) thinkingFormat = "openrouter";
  return {
    supportsStore: !isNonStandard,
    supportsDeveloperRole: isOpenAI,
    supportsReasoningEffort: !isGrok && !isZai && !isMoonshot && !isTogether && !isCloudflareGateway && !isNvidia && !isAntLing,
    supportsUsageInStreaming: true,
    supportsFinishReason: true,
    maxTokensField: useMaxTokens ? "max_tokens" : "max_completion_tokens",
    requiresToolResultName: false,
    requiresAssistantAfterToolResult: false,
    requiresNonNullAssistantContent: false,
    requiresToolsWithToolHistory: false,
    requiresThinkingAsText: false,
    requiresReasoningContentOnAssistantMessages: isDeepSeek,
    thinkingFormat,
    openRouterRouting: {},
    vercelGatewayRouting: {},
    chatTemplateKwargs: {},
    chatTemplateArgs: {},
    zaiToolStream: false,
    supportsThinkingTokenBudget: false,
    thinkingTokenBudgetField: undefined,
    // Being OpenAI-compatible does not mean taking strict JSON-schema tools.
    supportsStrictMode: false,
    supportsOpenAIGrammarTools: false,
    supportsMidConvoSystemMessages: false,
    supportsMidConvoToolAdditions: false,
    cacheControlFormat: provider === "openrouter" && model.id.startsWith("anthropic/") ? "anthropic" : undefined,
    sendSessionAffinityHeaders: isOpenRouter,
    sessionAffinityFormat: isOpenRouter ? "openrouter" : "openai",
    supportsLongCacheRetention: !(isTogether || isCloudflareWorkersAI || isCloudflareGateway || isNvidia || isAntLing),
  };
}

// Settings a model's own compat overrides; routing objects default to empty.
const OVERRIDABLE = [
  "supportsStore",
  "supportsDeveloperRole",
  "supportsReasoningEffort",
  "supportsUsageInStreaming",
  "supportsFinishReason",
  "maxTokensField",
  "requiresToolResultName",
  "requiresAssistantAfterToolResult",
  "requiresNonNullAssistantContent",
  "requiresToolsWithToolHistory",
  "requiresThinkingAsText",
  "requiresReasoningContentOnAssistantMessages",
  "thinkingFormat",
  "vercelGatewayRouting",
  "chatTemplateKwargs",
  "chatTemplateArgs",
  "zaiToolStream",
  "supportsThinkingTokenBudget",
  "thinkingTokenBudgetField",
  "supportsStrictMode",
  "supportsOpenAIGrammarTools",
  "supportsMidConvoSystemMessages",
  "supportsMidConvoToolAdditions",
  "cacheControlFormat",
  "sendSessionAffinityHeaders",
  "sessionAffinityFormat",
  "supportsLongCacheRetention",
];

export function getCompat(model) {
  const detected = detectCompat(model);
  if (!model.compat) return detected;
  const compat = {};
  for (const key of OVERRIDABLE) compat[key] = model.compat[key] ?? detected[key];
  compat.openRouterRouting = model.compat.openRouterRouting ?? {};
  compat.promptCacheKeyMode = model.compat.promptCacheKeyMode;
  compat.vllmPriority = model.compat.vllmPriority;
  return compat;
}

// --- reasoning replay details (OpenRouter's reasoning_details) --------------------

function hasCommonDetailFields(detail) {
  return (
    (detail.id === undefined || detail.id === null || typeof detail.id === "string") &&
    (detail.format === undefined || typeof detail.format === "string") &&
    (detail.index === undefined || typeof detail.index === "number")
  );
}

function isReasoningDetail(detail) {
  if (typeof detail !== "object" || detail === null || Array.isArray(detail) || !hasCommonDetailFields(detail)) return false;
  if (detail.type === "reasoning.summary") return typeof detail.summary === "string";
  if (detail.type === "reasoning.encrypted") return typeof detail.data === "string";
  if (detail.type === "reasoning.text") {
    return typeof detail.text === "string" && (detail.signature === undefined || detail.signature === null || typeof detail.signature === "string");
  }
  return false;
}

function parseReasoningDetails(signature) {
  if (!signature) return undefined;
  try {
    const parsed = JSON.parse(signature);
    return Array.isArray(parsed) && parsed.length > 0 && parsed.every(isReasoningDetail) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** An encrypted detail kept on a tool call's thoughtSignature by older pi versions. */
function parseLegacyEncryptedDetail(signature) {
  if (!signature) return undefined;
  try {
    const parsed = JSON.parse(signature);
    return isReasoningDetail(parsed) && parsed.type === "reasoning.encrypted" && typeof parsed.id === "string" && parsed.id.length > 0 && parsed.data.length > 0
      ? parsed
      : undefined;
  } catch {
    return undefined;
  }
}

/** Streamed text and summary pieces merge into their entry; encrypted ones stay apart. */
function appendReasoningDetail(details, detail) {
  const last = details[details.length - 1];
  const fill = () => {
    last.id ??= detail.id;
    last.format ||= detail.format;
    last.index ??= detail.index;
  };
  if (detail.type === "reasoning.text" && last?.type === "reasoning.text") {
    last.text += detail.text;
    last.signature ||= detail.signature;
    fill();
    return;
  }
  if (detail.type === "reasoning.summary" && last?.type === "reasoning.summary") {
    last.summary += detail.summary;
    fill();
    return;
  }
  details.push({ ...detail });
}

// --- request body ---------------------------------------------------------------

function hasToolHistory(messages) {
  return messages.some(
    (message) => message.role === "toolResult" || (message.role === "assistant" && message.content.some((block) => block.type === "toolCall")),
  );
}

function imageUrlPart(image) {
  return { type: "image_url", image_url: { url: `data:${image.mimeType};base64,${image.data}` } };
}

/**
 * Tool call ids as Chat Completions takes them. Responses-API ids are
 * "<call_id>|<item id>", often 400+ characters: both parts are kept while
 * they fit in 40 characters, else the call id and a hash.
 */
function completionsToolCallId(model, id) {
  if (id.includes("|")) {
    const separator = id.indexOf("|");
    const callId = id.slice(0, separator).replace(/[^a-zA-Z0-9_-]/g, "_");
    const itemId = id.slice(separator + 1).replace(/[^a-zA-Z0-9_-]/g, "_");
    const combined = itemId.length > 0 ? `${callId}_${itemId}` : callId;
    if (combined.length <= 40) return combined;
    const hash = shortHash(id).slice(0, 8);
    return `${callId.slice(0, Math.max(1, 40 - hash.length - 1))}_${hash}`;
  }
  if (model.provider === "openai") return id.length > 40 ? id.slice(0, 40) : id;
  return id;
}

function convertAssistant(model, message, compat, grammarToolInputProperties) {
  const converted = {
    role: "assistant",
    content: compat.requiresAssistantAfterToolResult || compat.requiresNonNullAssistantContent ? "" : null,
  };
  const textParts = message.content
    .filter((block) => block.type === "text" && block.text.trim().length > 0)
    .map((block) => ({ type: "text", text: sanitizeSurrogates(block.text) }));
  // A plain string: some models mirror a block array literally in their output.
  const text = textParts.map((part) => part.text).join("");
  const thinkingBlocks = message.content.filter((block) => block.type === "thinking");
  const toolCalls = message.content.filter((block) => block.type === "toolCall");
  const signedDetails = thinkingBlocks.map((block) => parseReasoningDetails(block.thinkingSignature)).find((details) => details !== undefined);
  const legacyDetails = toolCalls.map((call) => parseLegacyEncryptedDetail(call.thoughtSignature)).filter((detail) => detail !== undefined);
  const replayDetails = signedDetails ?? (legacyDetails.length > 0 ? legacyDetails : undefined);
  const thinking = thinkingBlocks.filter((block) => block.thinking.trim().length > 0);
  if (thinking.length > 0) {
    if (compat.requiresThinkingAsText) {
      // Plain text, no tags the model could learn to imitate.
      converted.content = [{ type: "text", text: thinking.map((block) => sanitizeSurrogates(block.thinking)).join("\n\n") }, ...textParts];
    } else {
      if (text.length > 0) converted.content = text;
      if (!replayDetails) {
        // The signature names the field the server streamed the reasoning in (llama.cpp, gpt-oss).
        let field = thinking[0].thinkingSignature;
        if (model.provider === "opencode-go" && field === "reasoning") field = "reasoning_content";
        if (field && REASONING_FIELDS.includes(field)) converted[field] = thinking.map((block) => block.thinking).join("\n");
      }
    }
  } else if (text.length > 0) {
    converted.content = text;
  }
  if (toolCalls.length > 0) {
    converted.tool_calls = toolCalls.map((call) => {
      const inputProperty = grammarToolInputProperties?.get(call.name);
      if (inputProperty !== undefined) {
        return {
          id: call.id,
          type: "custom",
          custom: { name: call.name, input: sanitizeSurrogates(getGrammarToolInput(call.name, call.arguments, inputProperty)) },
        };
      }
      return { id: call.id, type: "function", function: { name: call.name, arguments: JSON.stringify(call.arguments) } };
    });
  }
  if (replayDetails) converted.reasoning_details = replayDetails;
  if (compat.requiresReasoningContentOnAssistantMessages && model.reasoning && converted.reasoning_content === undefined) {
    converted.reasoning_content = "";
  }
  // Servers want content or tool calls; an aborted answer may have neither.
  const hasContent = converted.content !== null && converted.content !== undefined && converted.content.length > 0;
  return hasContent || converted.tool_calls ? converted : undefined;
}

export function convertMessages(model, context, compat, options) {
  const transcript = resolveTranscript(context, compat.supportsMidConvoSystemMessages);
  const params = [];
  const messages = transformMessages(transcript.messages, model, (id) => completionsToolCallId(model, id));
  const transcriptTools = resolveTranscriptTools(
    transcript.messages,
    compat.supportsMidConvoSystemMessages === true && compat.supportsMidConvoToolAdditions === true ? "additions" : "none",
  );
  const instructionRole = model.reasoning && compat.supportsDeveloperRole ? "developer" : "system";
  const bridge = { role: "assistant", content: "I have processed the tool results." };
  let lastRole = null;
  let systemIndex = 0;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index];
    // Some servers refuse a user message right after tool results.
    if (compat.requiresAssistantAfterToolResult && lastRole === "toolResult" && message.role === "user") params.push({ ...bridge });
    if (message.role === "system") {
      // Tools added after the folded prefix go in place, as a system message of tools (Kimi's form).
      const added = systemIndex++ >= transcriptTools.foldedSystemMessages ? (message.toolsAdded ?? []) : [];
      if (added.length > 0) params.push({ role: "system", tools: convertTools(added, compat) });
      const text = index === 0 ? getSystemMessageText(message) : renderSystemMessageUpdate(message);
      if (text.length > 0) params.push({ role: instructionRole, content: sanitizeSurrogates(text) });
    } else if (message.role === "user") {
      if (typeof message.content === "string") {
        params.push({ role: "user", content: sanitizeSurrogates(message.content) });
      } else {
        const content = message.content
          .filter((block) => block.type !== "text" || block.text.length > 0)
          .map((block) => (block.type === "text" ? { type: "text", text: sanitizeSurrogates(block.text) } : imageUrlPart(block)));
        if (content.length === 0) continue;
        params.push({ role: "user", content });
      }
    } else if (message.role === "assistant") {
      const converted = convertAssistant(model, message, compat, options?.grammarToolInputProperties);
      if (!converted) continue;
      params.push(converted);
    } else if (message.role === "toolResult") {
      const images = [];
      let next = index;
      for (; next < messages.length && messages[next].role === "toolResult"; next++) {
        const result = messages[next];
        const text = result.content.filter((block) => block.type === "text").map((block) => block.text).join("\n");
        const hasImages = result.content.some((block) => block.type === "image");
        const resultText = text.trim().length > 0 ? text : hasImages ? "(see attached image)" : "(no tool output)";
        const converted = { role: "tool", content: sanitizeSurrogates(resultText), tool_call_id: result.toolCallId };
        if (compat.requiresToolResultName && result.toolName) converted.name = result.toolName;
        params.push(converted);
        // Tool messages take no images: they follow in a user message.
        if (hasImages && model.input.includes("image")) {
          for (const block of result.content) if (block.type === "image") images.push(imageUrlPart(block));
        }
      }
      index = next - 1;
      if (images.length > 0) {
        if (compat.requiresAssistantAfterToolResult) params.push({ ...bridge });
        params.push({ role: "user", content: [{ type: "text", text: "Attached image(s) from tool result:" }, ...images] });
        lastRole = "user";
      } else {
        lastRole = "toolResult";
      }
      continue;
    }
    lastRole = message.role;
  }
  return params;
}

function convertTools(tools, compat) {
  return tools.map((tool) => {
    const grammar = resolveGrammarConstrainedSampling(tool, compat.supportsOpenAIGrammarTools);
    if (grammar) {
      return {
        type: "custom",
        custom: {
          name: tool.name,
          description: tool.description,
          format: { type: "grammar", grammar: { syntax: grammar.format, definition: grammar.definition } },
        },
      };
    }
    const strict = resolveJsonSchemaStrictSampling(tool, compat.supportsStrictMode !== false);
    return {
      type: "function",
      function: {
        name: tool.name,
        description: tool.description,
        parameters: getJsonSchemaToolParameters(tool, strict),
        // Some servers reject the field itself.
        ...(compat.supportsStrictMode !== false && { strict: strict ?? false }),
      },
    };
  });
}

// Anthropic models behind OpenRouter take Anthropic's cache markers.
function markLastText(message, cacheControl) {
  const content = message.content;
  if (typeof content === "string") {
    if (content.length === 0) return false;
    message.content = [{ type: "text", text: content, cache_control: cacheControl }];
    return true;
  }
  if (!Array.isArray(content)) return false;
  for (let index = content.length - 1; index >= 0; index--) {
    if (content[index]?.type === "text") {
      content[index].cache_control = cacheControl;
      return true;
    }
  }
  return false;
}

function applyAnthropicCacheControl(messages, tools, cacheControl) {
  const instruction = messages.find((message) => message.role === "system" || message.role === "developer");
  if (instruction) markLastText(instruction, cacheControl);
  if (tools && tools.length > 0) tools[tools.length - 1].cache_control = cacheControl;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if ((message.role === "user" || message.role === "assistant" || message.role === "tool") && markLastText(message, cacheControl)) return;
  }
}

function thinkingBudget(model, options, params) {
  if (!options?.reasoningEffort || !model.reasoning) return undefined;
  const ceiling = params.max_tokens ?? params.max_completion_tokens ?? model.maxTokens;
  const budget = Math.min(thinkingBudgetForLevel(options.reasoningEffort, options.thinkingBudgets), Math.max(0, ceiling - MIN_ANSWER_TOKENS));
  return budget > 0 ? budget : undefined;
}

/** A chat template value: literals as they are, `$var` references resolved, level-mapped values by the effort. */
function chatTemplateValue(model, options, value, budget) {
  if (typeof value !== "object" || value === null) return value;
  const effort = options?.reasoningEffort;
  if (!effort && value.omitWhenOff) return undefined;
  if (value.$var === "thinking.enabled") return !!effort;
  if (value.$var === "thinking.budget") return budget;
  const mapped = effort ? model.thinkingLevelMap?.[effort] : model.thinkingLevelMap?.off;
  return mapped === undefined ? effort : typeof mapped === "string" ? mapped : undefined;
}

function chatTemplateValues(model, options, values, budget) {
  const resolved = {};
  for (const [key, value] of Object.entries(values)) {
    const result = chatTemplateValue(model, options, value, budget);
    if (result !== undefined) resolved[key] = result;
  }
  return Object.keys(resolved).length > 0 ? resolved : undefined;
}

/** The reasoning fields of the server's flavour. */
function applyThinking(params, model, options, compat, budget) {
  const effort = options?.reasoningEffort;
  const levelMap = model.thinkingLevelMap;
  const format = compat.thinkingFormat;
  if (!model.reasoning) {
    return;
  }
  if (format === "zai") {
    params.thinking = effort ? { type: "enabled", clear_thinking: false } : { type: "disabled" };
    if (effort && compat.supportsReasoningEffort) {
      const mapped = levelMap?.[effort];
      const value = mapped === undefined ? effort : mapped;
      if (typeof value === "string") params.reasoning_effort = value;
    }
  } else if (format === "qwen") {
    params.enable_thinking = !!effort;
    if (effort && compat.supportsReasoningEffort) {
      const value = levelMap?.[effort] ?? effort;
      if (typeof value === "string") params.reasoning_effort = value;
    }
  } else if (format === "qwen-chat-template") {
    params.chat_template_kwargs = { enable_thinking: !!effort, preserve_thinking: true };
  } else if (format === "chat-template") {
    const values = chatTemplateValues(model, options, compat.chatTemplateKwargs, budget);
    if (values) params.chat_template_kwargs = values;
  } else if (format === "baseten") {
    const values = chatTemplateValues(model, options, compat.chatTemplateArgs, budget);
    if (values) params.chat_template_args = values;
    if (compat.supportsReasoningEffort) {
      const mapped = effort ? levelMap?.[effort] : levelMap?.off;
      const value = mapped === undefined ? effort : mapped;
      if (typeof value === "string") params.reasoning_effort = value;
    }
  } else if (format === "deepseek") {
    if (effort) params.thinking = { type: "enabled" };
    else if (levelMap?.off !== null) params.thinking = { type: "disabled" };
    if (effort && compat.supportsReasoningEffort) params.reasoning_effort = levelMap?.[effort] ?? effort;
  } else if (format === "openrouter") {
    // OpenRouter normalizes reasoning across its providers in one object.
    if (effort) params.reasoning = { effort: levelMap?.[effort] ?? effort };
    else if (levelMap?.off !== null) params.reasoning = { effort: levelMap?.off ?? "none" };
  } else if (format === "ant-ling") {
    if (effort && typeof levelMap?.[effort] === "string") params.reasoning = { effort: levelMap[effort] };
  } else if (format === "together") {
    params.reasoning = { enabled: !!effort };
    if (effort && compat.supportsReasoningEffort) params.reasoning_effort = levelMap?.[effort] ?? effort;
  } else if (format === "string-thinking") {
    if (effort) params.thinking = levelMap?.[effort] ?? effort;
    else if (levelMap?.off !== null) params.thinking = levelMap?.off ?? "none";
  } else if (effort && compat.supportsReasoningEffort) {
    params.reasoning_effort = levelMap?.[effort] ?? effort;
  } else if (!effort && compat.supportsReasoningEffort && typeof levelMap?.off === "string") {
    params.reasoning_effort = levelMap.off;
  }
}

function buildParams(model, context, options, compat, cacheRetention, grammarToolInputProperties) {
  const transcriptTools = resolveTranscriptTools(
    context.messages,
    compat.supportsMidConvoSystemMessages === true && compat.supportsMidConvoToolAdditions === true ? "additions" : "none",
  );
  const messages = convertMessages(model, context, compat, { grammarToolInputProperties });
  const cacheControl =
    compat.cacheControlFormat === "anthropic" && cacheRetention !== "none"
      ? { type: "ephemeral", ...(cacheRetention === "long" && compat.supportsLongCacheRetention ? { ttl: "1h" } : {}) }
      : undefined;
  const keyMode = compat.promptCacheKeyMode ?? "auto";
  const sendsCacheKey =
    keyMode === "enabled" || (keyMode === "auto" && (model.baseUrl.includes("api.openai.com") || (cacheRetention === "long" && compat.supportsLongCacheRetention)));
  const params = {
    model: model.id,
    messages,
    stream: true,
    prompt_cache_key: cacheRetention !== "none" && sendsCacheKey ? clampOpenAIPromptCacheKey(options?.sessionId) : undefined,
    prompt_cache_retention: cacheRetention === "long" && compat.supportsLongCacheRetention ? "24h" : undefined,
  };
  if (compat.supportsUsageInStreaming !== false) params.stream_options = { include_usage: true };
  if (compat.supportsStore) params.store = false;
  if (options?.maxTokens) {
    // max_tokens is deprecated by OpenAI, but some compatible servers take nothing else.
    if (compat.maxTokensField === "max_tokens") params.max_tokens = options.maxTokens;
    else params.max_completion_tokens = options.maxTokens;
  }
  if (options?.temperature !== undefined) params.temperature = options.temperature;
  if (transcriptTools.requestTools.length > 0) {
    params.tools = convertTools(transcriptTools.requestTools, compat);
    if (compat.zaiToolStream) params.tool_stream = true;
  } else if (compat.requiresToolsWithToolHistory && hasToolHistory(context.messages)) {
    // Anthropic behind a proxy wants the field whenever the history has tool calls.
    params.tools = [];
  }
  if (cacheControl) applyAnthropicCacheControl(messages, params.tools, cacheControl);
  if (options?.toolChoice) params.tool_choice = options.toolChoice;
  if (compat.vllmPriority !== undefined) params.priority = compat.vllmPriority;
  const budgetField = compat.thinkingTokenBudgetField || (compat.supportsThinkingTokenBudget ? "thinking_token_budget" : undefined);
  const budget = thinkingBudget(model, options, params);
  applyThinking(params, model, options, compat, budget);
  // Reasoning and answer share the ceiling; an uncapped reasoning phase could leave no answer.
  if (budgetField && budget !== undefined) params[budgetField] = budget;
  if (model.compat?.openRouterRouting) params.provider = model.compat.openRouterRouting;
  const routing = model.compat?.vercelGatewayRouting;
  if (routing && (routing.only || routing.order)) {
    const gateway = {};
    if (routing.only) gateway.only = routing.only;
    if (routing.order) gateway.order = routing.order;
    params.providerOptions = { gateway };
  }
  // Last, so the model's and the request's sampling parameters win over named fields.
  const sampling = resolveSamplingParams(model, options?.reasoningEffort ?? "off", options?.samplingParams);
  if (sampling) Object.assign(params, sampling);
  return params;
}

function clientHeaders(model, context, optionsHeaders, identity, sessionId, compat) {
  const headers = { ...getIdentityHeaders(model, identity), ...model.headers };
  if (model.provider === "github-copilot") {
    Object.assign(headers, buildCopilotDynamicHeaders({ messages: context.messages, hasImages: hasCopilotVisionInput(context.messages) }));
  }
  if (sessionId && compat.sendSessionAffinityHeaders) {
    if (compat.sessionAffinityFormat === "openrouter") {
      headers["x-session-id"] = sessionId;
    } else {
      if (compat.sessionAffinityFormat === "openai") headers.session_id = sessionId;
      headers["x-client-request-id"] = sessionId;
      headers["x-session-affinity"] = sessionId;
    }
  }
  return optionsHeaders ? Object.assign(headers, optionsHeaders) : headers;
}

// --- the answer -----------------------------------------------------------------

function parseUsage(raw, model) {
  const prompt = raw.prompt_tokens || 0;
  // Where servers put cache hits: OpenAI and OpenRouter in the details, DeepSeek and Kimi at the top.
  const cacheRead = raw.prompt_tokens_details?.cached_tokens ?? raw.prompt_cache_hit_tokens ?? raw.cached_tokens ?? 0;
  const cacheWrite = raw.prompt_tokens_details?.cache_write_tokens || 0;
  const input = Math.max(0, prompt - cacheRead - cacheWrite);
  // completion_tokens already counts the reasoning tokens.
  const output = raw.completion_tokens || 0;
  const usage = {
    input,
    output,
    cacheRead,
    cacheWrite,
    reasoning: raw.completion_tokens_details?.reasoning_tokens || raw.reasoning_tokens || 0,
    totalTokens: input + output + cacheRead + cacheWrite,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
  calculateCost(model, usage);
  if (isOpenRouterModel(model)) applyOpenRouterReportedCost(usage, raw);
  return usage;
}

function mapStopReason(reason) {
  if (reason === null) return { stopReason: "stop" };
  switch (reason) {
    case "stop":
    case "end":
      return { stopReason: "stop" };
    case "length":
      return { stopReason: "length" };
    case "function_call":
    case "tool_calls":
      return { stopReason: "toolUse" };
    default:
      return { stopReason: "error", errorMessage: `Provider finish_reason: ${reason}` };
  }
}

/** The blocks of one answer as chunks arrive: one text block, one thinking block, tool calls by index or id. */
class ChunkAssembler {
  constructor(output, events, model, grammarToolInputProperties) {
    this.output = output;
    this.events = events;
    this.model = model;
    this.grammarToolInputProperties = grammarToolInputProperties;
    this.textBlock = null;
    this.thinkingBlock = null;
    this.callsByIndex = new Map();
    this.callsById = new Map();
    this.callStates = new Map();
    // Replay metadata, not visible deltas: serialized once, when the thinking block ends.
    this.reasoningDetails = undefined;
  }

  push(fields) {
    this.events.push({ ...fields, partial: this.output });
  }

  indexOf(block) {
    return this.output.content.indexOf(block);
  }

  applyReasoningDetails(block) {
    if (this.reasoningDetails !== undefined) block.thinkingSignature = JSON.stringify(this.reasoningDetails);
  }

  textBlockNow() {
    if (!this.textBlock) {
      this.textBlock = { type: "text", text: "" };
      this.output.content.push(this.textBlock);
      this.push({ type: "text_start", contentIndex: this.indexOf(this.textBlock) });
    }
    return this.textBlock;
  }

  thinkingBlockNow(signature) {
    if (!this.thinkingBlock) {
      this.thinkingBlock = { type: "thinking", thinking: "", thinkingSignature: signature };
      this.output.content.push(this.thinkingBlock);
      this.push({ type: "thinking_start", contentIndex: this.indexOf(this.thinkingBlock) });
    }
    return this.thinkingBlock;
  }

  customInput(property) {
    return { kind: "custom", property, buffer: { input: "", started: false, closed: false } };
  }

  toolCallBlock(call) {
    const streamIndex = typeof call.index === "number" ? call.index : undefined;
    const name = call.function?.name ?? call.custom?.name ?? "";
    let block = streamIndex !== undefined ? this.callsByIndex.get(streamIndex) : undefined;
    if (!block && call.id) block = this.callsById.get(call.id);
    if (!block) {
      // "input" is only a place for the text of a tool the model made up.
      const inputProperty = call.custom && !call.function ? (this.grammarToolInputProperties.get(name) ?? "input") : undefined;
      block = { type: "toolCall", id: call.id || "", name, arguments: inputProperty !== undefined ? { [inputProperty]: "" } : {} };
      this.callStates.set(block, {
        streamIndex,
        input: inputProperty !== undefined ? this.customInput(inputProperty) : { kind: "json", arguments: new ToolCallArgumentsStream() },
      });
      if (streamIndex !== undefined) this.callsByIndex.set(streamIndex, block);
      if (call.id) this.callsById.set(call.id, block);
      this.output.content.push(block);
      this.push({ type: "toolcall_start", contentIndex: this.indexOf(block) });
    }
    const state = this.callStates.get(block);
    if (streamIndex !== undefined && state.streamIndex === undefined) {
      state.streamIndex = streamIndex;
      this.callsByIndex.set(streamIndex, block);
    }
    if (call.id) this.callsById.set(call.id, block);
    if (!block.name && name) block.name = name;
    if (call.custom && !call.function && state.input.kind !== "custom") {
      const inputProperty = this.grammarToolInputProperties.get(block.name) ?? "input";
      block.arguments = { [inputProperty]: "" };
      state.input = this.customInput(inputProperty);
    }
    return { block, state };
  }

  delta(delta) {
    // Reasoning first: proxies that put reasoning and answer in one delta still get thinking before text.
    const field = DELTA_REASONING_FIELDS.find((name) => typeof delta[name] === "string" && delta[name].length > 0);
    if (field) {
      const text = delta[field];
      const signature = this.model.provider === "opencode-go" && field === "reasoning" ? "reasoning_content" : field;
      const block = this.thinkingBlockNow(signature);
      block.thinking += text;
      this.push({ type: "thinking_delta", contentIndex: this.indexOf(block), delta: text });
    }
    if (Array.isArray(delta.reasoning_details)) {
      for (const detail of delta.reasoning_details) {
        if (!isReasoningDetail(detail)) continue;
        this.thinkingBlockNow("");
        this.reasoningDetails ??= [];
        appendReasoningDetail(this.reasoningDetails, detail);
      }
    }
    if (delta.content !== null && delta.content !== undefined && delta.content.length > 0) {
      const block = this.textBlockNow();
      block.text += delta.content;
      this.push({ type: "text_delta", contentIndex: this.indexOf(block), delta: delta.content });
    }
    for (const call of delta.tool_calls ?? []) {
      const { block, state } = this.toolCallBlock(call);
      if (!block.id && call.id) {
        block.id = call.id;
        this.callsById.set(call.id, block);
      }
      const name = call.function?.name ?? call.custom?.name;
      if (!block.name && name) block.name = name;
      let text = "";
      const input = state.input;
      if (call.function?.arguments && input.kind === "json") {
        text = call.function.arguments;
        block.arguments = input.arguments.append(text);
      } else if (call.custom?.input && input.kind === "custom") {
        text = appendGrammarToolInputJsonDelta(input.buffer, input.property, call.custom.input) ?? "";
        block.arguments = { [input.property]: input.buffer.input };
      }
      this.push({ type: "toolcall_delta", contentIndex: this.indexOf(block), delta: text });
    }
  }

  finish(block) {
    const contentIndex = this.indexOf(block);
    if (contentIndex === -1) return;
    if (block.type === "text") {
      this.push({ type: "text_end", contentIndex, content: block.text });
    } else if (block.type === "thinking") {
      this.applyReasoningDetails(block);
      this.push({ type: "thinking_end", contentIndex, content: block.thinking });
    } else if (block.type === "toolCall") {
      const { input } = this.callStates.get(block);
      this.callStates.delete(block);
      if (input.kind === "custom") {
        const rest = closeGrammarToolInputJson(input.buffer, input.property, undefined);
        if (rest !== undefined) this.push({ type: "toolcall_delta", contentIndex, delta: rest });
      } else {
        Object.assign(block, input.arguments.finish());
      }
      this.push({ type: "toolcall_end", contentIndex, toolCall: block });
    }
  }
}

export function stream(model, context, options) {
  const events = new AssistantMessageEventStream();
  const transcript = resolveTranscript(context, getCompat(model).supportsMidConvoSystemMessages);
  const output = {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason: "pending",
    timestamp: Date.now(),
  };
  const state = { assembler: undefined };
  run(model, transcript, options, output, events, state).catch((error) => {
    if (state.assembler) {
      for (const block of output.content) if (block.type === "thinking") state.assembler.applyReasoningDetails(block);
    }
    output.stopReason = options?.signal?.aborted ? "aborted" : "error";
    output.errorMessage = formatProviderFailure(error);
    // OpenRouter's upstream providers explain themselves in metadata.raw.
    const raw = error?.error?.metadata?.raw;
    if (raw && !output.errorMessage.includes(String(raw))) output.errorMessage += `\n${raw}`;
    events.push({ type: "error", reason: output.stopReason, error: output });
    events.end();
  });
  return events;
}

async function run(model, context, options, output, events, state) {
  const apiKey = clientApiKey(model.provider, options?.apiKey, options?.headers);
  const compat = getCompat(model);
  const grammarToolInputProperties = createGrammarToolInputProperties(getDeclaredTools(context.messages), compat.supportsOpenAIGrammarTools);
  const cacheRetention = resolveCacheRetention(options?.cacheRetention, options?.env);
  const cacheSessionId = cacheRetention === "none" ? undefined : options?.sessionId;
  const headers = clientHeaders(model, context, options?.headers, options?.identity, cacheSessionId, compat);
  let params = buildParams(model, context, options, compat, cacheRetention, grammarToolInputProperties);
  const replaced = await options?.onPayload?.(params, model);
  if (replaced !== undefined) params = replaced;
  const response = await retryProviderRequest(
    () => openAIRequest({ model, path: "/chat/completions", apiKey, headers, body: params, options }),
    { maxRetries: options?.maxRetries, maxRetryDelayMs: options?.maxRetryDelayMs, signal: options?.signal },
  );
  await options?.onResponse?.({ status: response.status, headers: headersToRecord(response.headers) }, model);
  events.push({ type: "start", partial: output });
  const assembler = new ChunkAssembler(output, events, model, grammarToolInputProperties);
  state.assembler = assembler;
  let hasFinishReason = false;
  for await (const chunk of openAIEvents(response, options?.signal)) {
    await options?.onProviderStreamEvent?.(chunk, model);
    if (!chunk || typeof chunk !== "object") continue;
    // Every chunk of a completion carries its id.
    output.responseId ||= chunk.id;
    if (typeof chunk.model === "string" && chunk.model.length > 0 && chunk.model !== model.id) output.responseModel ||= chunk.model;
    if (chunk.usage) output.usage = parseUsage(chunk.usage, model);
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!choice) continue;
    // Moonshot reports usage on the choice.
    if (!chunk.usage && choice.usage) output.usage = parseUsage(choice.usage, model);
    if (choice.finish_reason) {
      output.rawStopReason = choice.finish_reason;
      const mapped = mapStopReason(choice.finish_reason);
      output.stopReason = mapped.stopReason;
      if (mapped.errorMessage) output.errorMessage = mapped.errorMessage;
      hasFinishReason = true;
    }
    if (choice.delta) assembler.delta(choice.delta);
  }
  for (const block of output.content) assembler.finish(block);
  if (options?.signal?.aborted || output.stopReason === "aborted") throw new Error("Request was aborted");
  if (!hasFinishReason && !compat.supportsFinishReason) {
    output.stopReason = output.content.some((block) => block.type === "toolCall") ? "toolUse" : "stop";
  }
  if (output.stopReason === "error") throw new Error(output.errorMessage || "Provider returned an error stop reason");
  if ((compat.supportsFinishReason && !hasFinishReason) || output.stopReason === "pending") throw new Error("Stream ended without finish_reason");
  events.push({ type: "done", reason: output.stopReason, message: output });
  events.end();
}

export function streamSimple(model, context, options) {
  clientApiKey(model.provider, options?.apiKey, options?.headers);
  const base = { ...buildBaseOptions(model, context, options, options?.apiKey), toolChoice: options?.toolChoice };
  const level = options?.reasoning ? clampThinkingLevel(model, options.reasoning) : undefined;
  return stream(model, context, { ...base, reasoningEffort: level === "off" ? undefined : level, thinkingBudgets: options?.thinkingBudgets });
}
