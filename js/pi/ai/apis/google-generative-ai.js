// pi-ai's "google-generative-ai" api (the Gemini Developer API) over the
// isolate's fetch: the request pi builds, sent as Google's genai SDK sends
// it (streamGenerateContent with SSE), and the chunks turned into pi's
// assistant message events.
import { calculateCost } from "../cost.js";
import { AssistantMessageEventStream } from "../event-stream.js";
import { getIdentityHeaders } from "../identity.js";
import { clampThinkingLevel } from "../model-kinds.js";
import { getSystemMessageText } from "../system-text.js";
import { collapseSystemMessages, getCurrentTools } from "../system-messages.js";
import { getInitialSystemMessage } from "../transcript.js";
import { emptyUsage } from "../usage.js";
import {
  convertMessages,
  convertTools,
  generateContentBody,
  getDisabledGoogleThinkingConfig,
  googleClientHeader,
  googleStatusError,
  googleStreamChunks,
  isThinkingPart,
  mapStopReason,
  resolveGoogleFunctionCallingMode,
  resolveGoogleThinkingLevel,
  retainThoughtSignature,
  retryGoogleRequest,
  supportsGoogleStrictToolSampling,
  toGoogleThinkingLevel,
  usesGoogleThinkingLevel,
} from "./google-shared.js";
import { formatProviderFailure, mergeRequestHeaders, ProviderConnectionError, ProviderHttpError } from "./http.js";
import { sanitizeSurrogates } from "./text-safety.js";
import { buildBaseOptions } from "./token-budget.js";

// Makes ids for calls the model sent without one (or with a repeated one).
let toolCallCounter = 0;

function modelPath(id) {
  if (!id || typeof id !== "string") throw new Error("model is required and must be a string");
  if (id.includes("..") || id.includes("?") || id.includes("&")) throw new Error("invalid model parameter");
  return id.startsWith("models/") || id.startsWith("tunedModels/") ? id : `models/${id}`;
}

/** The request Google's SDK sends for a Gemini call, on the Developer API and Vertex alike. */
export function buildGeminiParams(model, context, options = {}) {
  const initialSystem = getInitialSystemMessage(context.messages);
  const tools = getCurrentTools(context.messages);
  const generation = {};
  if (options.temperature !== undefined) generation.temperature = options.temperature;
  if (options.maxTokens !== undefined) generation.maxOutputTokens = options.maxTokens;
  const strict = supportsGoogleStrictToolSampling(model.id);
  const callingMode = tools.length > 0 ? resolveGoogleFunctionCallingMode(tools, options.toolChoice, strict) : undefined;
  const systemInstruction = initialSystem ? getSystemMessageText(initialSystem) : "";
  const config = {
    ...(Object.keys(generation).length > 0 && generation),
    ...(systemInstruction && { systemInstruction: sanitizeSurrogates(systemInstruction) }),
    ...(tools.length > 0 && { tools: convertTools(tools, false, strict) }),
    ...(callingMode !== undefined && { toolConfig: { functionCallingConfig: { mode: callingMode } } }),
    // The SDK's own continuation requests stay off: a CONTINUATION finish ends the turn as "length".
    automaticContinuation: false,
  };
  if (options.thinking?.enabled && model.reasoning) {
    const thinkingConfig = { includeThoughts: true };
    if (options.thinking.level !== undefined) thinkingConfig.thinkingLevel = options.thinking.level;
    else if (options.thinking.budgetTokens !== undefined) thinkingConfig.thinkingBudget = options.thinking.budgetTokens;
    config.thinkingConfig = thinkingConfig;
  } else if (model.reasoning && options.thinking && !options.thinking.enabled) {
    config.thinkingConfig = getDisabledGoogleThinkingConfig(model);
  }
  if (options.signal) {
    if (options.signal.aborted) throw new Error("Request aborted");
    config.abortSignal = options.signal;
  }
  return { model: model.id, contents: convertMessages(model, context), config };
}

async function send(model, apiKey, params, options) {
  const base = model.baseUrl.endsWith("/") ? model.baseUrl.slice(0, -1) : model.baseUrl;
  const url = `${base}/${modelPath(params.model)}:streamGenerateContent?alt=sse`;
  const headers = mergeRequestHeaders(
    { "Content-Type": "application/json", "x-goog-api-key": apiKey, "user-agent": googleClientHeader(), "x-goog-api-client": googleClientHeader() },
    getIdentityHeaders(model, options?.identity),
    model.headers,
    options?.headers,
  );
  let response;
  try {
    response = await (options?.fetch ?? globalThis.fetch)(url, {
      method: "POST",
      headers,
      body: JSON.stringify(generateContentBody(params)),
      signal: params.config?.abortSignal,
    });
  } catch (error) {
    if (options?.signal?.aborted) throw error;
    throw new ProviderConnectionError(error instanceof Error ? error.message : `exception ${error} sending request`, error);
  }
  if (!response.ok) throw await googleStatusError(response, ProviderHttpError);
  return response;
}

export function stream(model, context, options) {
  const events = new AssistantMessageEventStream();
  const transcript = collapseSystemMessages(context);
  const output = {
    role: "assistant",
    content: [],
    api: "google-generative-ai",
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason: "pending",
    timestamp: Date.now(),
  };
  run(model, transcript, options, output, events).catch((error) => {
    output.stopReason = options?.signal?.aborted ? "aborted" : "error";
    output.errorMessage = formatProviderFailure(error);
    events.push({ type: "error", reason: output.stopReason, error: output });
    events.end();
  });
  return events;
}

/** Reads Gemini chunks into `output`: runs of text or thought parts make blocks; calls come whole. */
export async function readGeminiChunks(chunks, model, output, events, options) {
  const push = (fields) => events.push({ ...fields, partial: output });
  const lastIndex = () => output.content.length - 1;
  let current = null;
  const closeCurrent = () => {
    if (!current) return;
    if (current.type === "text") push({ type: "text_end", contentIndex: lastIndex(), content: current.text });
    else push({ type: "thinking_end", contentIndex: lastIndex(), content: current.thinking });
  };
  for await (const chunk of chunks) {
    await options?.onProviderStreamEvent?.(chunk, model);
    // The first non-empty response id identifies the answer.
    output.responseId ||= chunk.responseId;
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      if (part.text !== undefined) {
        const thinking = isThinkingPart(part);
        if (!current || (thinking && current.type !== "thinking") || (!thinking && current.type !== "text")) {
          closeCurrent();
          if (thinking) {
            current = { type: "thinking", thinking: "", thinkingSignature: undefined };
            output.content.push(current);
            push({ type: "thinking_start", contentIndex: lastIndex() });
          } else {
            current = { type: "text", text: "" };
            output.content.push(current);
            push({ type: "text_start", contentIndex: lastIndex() });
          }
        }
        if (current.type === "thinking") {
          current.thinking += part.text;
          current.thinkingSignature = retainThoughtSignature(current.thinkingSignature, part.thoughtSignature);
          push({ type: "thinking_delta", contentIndex: lastIndex(), delta: part.text });
        } else {
          current.text += part.text;
          current.textSignature = retainThoughtSignature(current.textSignature, part.thoughtSignature);
          push({ type: "text_delta", contentIndex: lastIndex(), delta: part.text });
        }
      }
      if (part.functionCall) {
        closeCurrent();
        current = null;
        const given = part.functionCall.id;
        const fresh = !given || output.content.some((block) => block.type === "toolCall" && block.id === given);
        const toolCall = {
          type: "toolCall",
          id: fresh ? `${part.functionCall.name}_${Date.now()}_${++toolCallCounter}` : given,
          name: part.functionCall.name || "",
          arguments: part.functionCall.args ?? {},
          ...(part.thoughtSignature && { thoughtSignature: part.thoughtSignature }),
        };
        output.content.push(toolCall);
        push({ type: "toolcall_start", contentIndex: lastIndex() });
        push({ type: "toolcall_delta", contentIndex: lastIndex(), delta: JSON.stringify(toolCall.arguments) });
        push({ type: "toolcall_end", contentIndex: lastIndex(), toolCall });
      }
    }
    if (candidate?.finishReason) {
      output.rawStopReason = candidate.finishReason;
      output.stopReason = mapStopReason(candidate.finishReason);
      if (output.content.some((block) => block.type === "toolCall") && output.stopReason === "stop") output.stopReason = "toolUse";
    }
    const usage = chunk.usageMetadata;
    if (usage) {
      output.usage = {
        input: (usage.promptTokenCount || 0) - (usage.cachedContentTokenCount || 0),
        output: (usage.candidatesTokenCount || 0) + (usage.thoughtsTokenCount || 0),
        cacheRead: usage.cachedContentTokenCount || 0,
        cacheWrite: 0,
        reasoning: usage.thoughtsTokenCount || 0,
        totalTokens: usage.totalTokenCount || 0,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      };
      calculateCost(model, output.usage);
    }
  }
  closeCurrent();
}

/** The stop checks both Gemini apis make once the chunks are read. */
export function finishGemini(output, events, options, backend = "Google") {
  if (options?.signal?.aborted) throw new Error("Request was aborted");
  if (output.stopReason === "pending") throw new Error(`${backend} stream ended without a finish reason`);
  if (output.stopReason === "aborted" || output.stopReason === "error") {
    throw new Error(output.rawStopReason ? `Provider stopped with: ${output.rawStopReason}` : "An unknown error occurred");
  }
  events.push({ type: "done", reason: output.stopReason, message: output });
  events.end();
}

async function run(model, context, options, output, events) {
  const apiKey = options?.apiKey;
  if (!apiKey) throw new Error(`No API key for provider: ${model.provider}`);
  let params = buildGeminiParams(model, context, options);
  const replaced = await options?.onPayload?.(params, model);
  if (replaced !== undefined) params = replaced;
  const response = await retryGoogleRequest(() => send(model, apiKey, params, options), options);
  events.push({ type: "start", partial: output });
  await readGeminiChunks(googleStreamChunks(response, ProviderHttpError), model, output, events, options);
  finishGemini(output, events, options);
}

/** Thinking budgets of the 2.5 models, by level; -1 lets the model decide. */
export function googleThinkingBudget(model, level, customBudgets) {
  if (customBudgets?.[level] !== undefined) return customBudgets[level];
  if (model.id.includes("2.5-pro")) return { minimal: 128, low: 2048, medium: 8192, high: 32768 }[level];
  if (model.id.includes("2.5-flash-lite")) return { minimal: 512, low: 2048, medium: 8192, high: 24576 }[level];
  if (model.id.includes("2.5-flash")) return { minimal: 128, low: 2048, medium: 8192, high: 24576 }[level];
  return -1;
}

/** The thinking option of a Simple request. */
export function simpleThinking(model, options) {
  if (!options?.reasoning) return { enabled: false };
  const level = clampThinkingLevel(model, options.reasoning);
  if (level === "off") return { enabled: false };
  const resolved = resolveGoogleThinkingLevel(model, level);
  if (usesGoogleThinkingLevel(model)) return { enabled: true, level: toGoogleThinkingLevel(resolved) };
  return { enabled: true, budgetTokens: googleThinkingBudget(model, resolved, options.thinkingBudgets) };
}

export function streamSimple(model, context, options) {
  const apiKey = options?.apiKey;
  if (!apiKey) throw new Error(`No API key for provider: ${model.provider}`);
  const base = { ...buildBaseOptions(model, context, options, apiKey), toolChoice: options?.toolChoice };
  return stream(model, context, { ...base, thinking: simpleThinking(model, options) });
}
