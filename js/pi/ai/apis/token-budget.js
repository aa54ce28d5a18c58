// How many output tokens a request may ask for: the estimate of the prompt
// (chars / 3.5, or the last answer's reported usage plus what came after),
// the model's context window and the thinking budget of a reasoning level.
import { clampThinkingLevel } from "../model-kinds.js";
import { getSystemMessageText } from "../system-text.js";

const CHARS_PER_TOKEN = 3.5;
const IMAGE_CHARS = 4800;
const SAFETY_TOKENS = 4096;
// OpenRouter counts input with its own tokenizer, up to 12% above the provider's.
const SAFETY_RATIO = 0.15;
const MIN_OUTPUT_WITH_RATIO_MARGIN = 32768;

export const MIN_ANSWER_TOKENS = 1024;
export const DEFAULT_THINKING_BUDGETS = { minimal: 1024, low: 2048, medium: 8192, high: 16384 };

function jsonLength(value) {
  try {
    return (JSON.stringify(value) ?? "undefined").length;
  } catch {
    return "[unserializable]".length;
  }
}

function textTokens(text) {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

function contentTokens(content) {
  if (typeof content === "string") return textTokens(content);
  let chars = 0;
  for (const block of content) chars += block.type === "text" ? block.text.length : IMAGE_CHARS;
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

function toolsTokens(tools) {
  return tools && tools.length > 0 ? Math.ceil(jsonLength(tools) / CHARS_PER_TOKEN) : 0;
}

function messageTokens(message) {
  if (message.role === "system") {
    return textTokens(getSystemMessageText(message)) + toolsTokens(message.toolsAdded) + toolsTokens(message.toolsRemoved);
  }
  if (message.role === "user" || message.role === "toolResult") return contentTokens(message.content);
  let chars = 0;
  for (const block of message.content) {
    if (block.type === "text") chars += block.text.length;
    else if (block.type === "thinking") chars += block.thinking.length;
    else chars += block.name.length + jsonLength(block.arguments);
  }
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

function usageTokens(usage) {
  return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/** The prompt's size in tokens: the newest usable reported usage plus estimates of what followed it. */
export function estimatePromptTokens(messages) {
  let newestPrefix = Number.NEGATIVE_INFINITY;
  let anchor = -1;
  messages.forEach((message, index) => {
    // An answer older than a message inserted before it (a compaction summary) no longer describes the prefix.
    if (
      message.role === "assistant" &&
      message.timestamp >= newestPrefix &&
      message.stopReason !== "aborted" &&
      message.stopReason !== "error" &&
      usageTokens(message.usage) > 0
    ) {
      anchor = index;
    }
    newestPrefix = Math.max(newestPrefix, message.timestamp);
  });
  let tokens = anchor === -1 ? 0 : usageTokens(messages[anchor].usage);
  for (let index = anchor + 1; index < messages.length; index++) tokens += messageTokens(messages[index]);
  return tokens;
}

/** `maxTokens` fitted into the context window with room for an input counted higher than estimated. */
export function clampMaxTokensToContext(model, context, maxTokens) {
  if (model.contextWindow <= 0) return Math.max(1, maxTokens);
  const input = estimatePromptTokens(context.messages);
  let room = model.contextWindow - input - Math.max(SAFETY_TOKENS, Math.ceil(input * SAFETY_RATIO));
  if (room < MIN_OUTPUT_WITH_RATIO_MARGIN) {
    room = Math.min(MIN_OUTPUT_WITH_RATIO_MARGIN, model.contextWindow - input - SAFETY_TOKENS);
  }
  return Math.min(maxTokens, Math.max(1, room));
}

export function resolveSamplingParams(model, thinkingLevel, requestParams) {
  const levelParams = model.samplingParamsByThinkingLevel?.[clampThinkingLevel(model, thinkingLevel)];
  return model.samplingParams || levelParams || requestParams
    ? { ...model.samplingParams, ...levelParams, ...requestParams }
    : undefined;
}

/** The stream options every api's Simple form starts from. */
export function buildBaseOptions(model, context, options, apiKey) {
  return {
    temperature: options?.temperature,
    samplingParams: resolveSamplingParams(model, options?.reasoning ?? "off", options?.samplingParams),
    maxTokens: clampMaxTokensToContext(model, context, options?.maxTokens ?? model.maxTokens),
    signal: options?.signal,
    telemetry: options?.telemetry,
    apiKey: apiKey || options?.apiKey,
    fetch: options?.fetch,
    transport: options?.transport,
    cacheRetention: options?.cacheRetention,
    sessionId: options?.sessionId,
    disableContinuation: options?.disableContinuation,
    headers: options?.headers,
    identity: options?.identity,
    onPayload: options?.onPayload,
    onResponse: options?.onResponse,
    onProviderStreamEvent: options?.onProviderStreamEvent,
    timeoutMs: options?.timeoutMs,
    websocketConnectTimeoutMs: options?.websocketConnectTimeoutMs,
    maxRetries: options?.maxRetries,
    maxRetryDelayMs: options?.maxRetryDelayMs,
    metadata: options?.metadata,
    env: options?.env,
  };
}

/** "xhigh" and "max" have no budget of their own. */
export function clampReasoning(effort) {
  return effort === "xhigh" || effort === "max" ? "high" : effort;
}

export function thinkingBudgetForLevel(level, customBudgets) {
  return { ...DEFAULT_THINKING_BUDGETS, ...customBudgets }[clampReasoning(level)];
}

/**
 * The response ceiling and thinking budget for a level: the caller's cap
 * grows by the budget (up to the model's), and a budget that would fill the
 * ceiling leaves MIN_ANSWER_TOKENS for the answer.
 */
export function adjustMaxTokensForThinking(baseMaxTokens, modelMaxTokens, level, customBudgets) {
  let thinkingBudget = thinkingBudgetForLevel(level, customBudgets);
  const maxTokens = baseMaxTokens === undefined ? modelMaxTokens : Math.min(baseMaxTokens + thinkingBudget, modelMaxTokens);
  if (maxTokens <= thinkingBudget) thinkingBudget = Math.min(thinkingBudget, Math.max(0, maxTokens - MIN_ANSWER_TOKENS));
  return { maxTokens, thinkingBudget };
}
