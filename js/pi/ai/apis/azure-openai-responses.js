// pi-ai's "azure-openai-responses" api over the isolate's fetch: the
// Responses request of openai-responses.js addressed to an Azure deployment
// (resource URL, api-version query, api-key header) as OpenAI's AzureOpenAI
// client sends it.
import { clampThinkingLevel } from "../model-kinds.js";
import { AssistantMessageEventStream } from "../event-stream.js";
import { getIdentityHeaders } from "../identity.js";
import { providerEnvValue } from "../provider-env.js";
import { getDeclaredTools } from "../tool-declarations.js";
import { resolveTranscript, resolveTranscriptTools } from "../transcript-tools.js";
import { emptyUsage } from "../usage.js";
import { createGrammarToolInputProperties } from "./grammar-tools.js";
import { formatProviderFailure, headersToRecord, retryProviderRequest } from "./http.js";
import { clampOpenAIPromptCacheKey, openAIEvents, openAIRequest } from "./openai-http.js";
import { convertResponsesMessages, convertResponsesTools, getResponsesToolSupport, processResponsesStream } from "./responses-shared.js";
import { buildBaseOptions, resolveSamplingParams } from "./token-budget.js";

const TOOL_CALL_ID_PROVIDERS = new Set(["openai", "openai-codex", "opencode", "azure"]);
const MIN_OUTPUT_TOKENS = 16;
const DEFAULT_API_VERSION = "v1";

function deploymentNames(value) {
  const names = new Map();
  for (const entry of (value ?? "").split(",")) {
    const trimmed = entry.trim();
    if (!trimmed) continue;
    const [modelId, deployment] = trimmed.split("=", 2);
    if (modelId && deployment) names.set(modelId.trim(), deployment.trim());
  }
  return names;
}

/** The deployment a model is served by: the option, AZURE_OPENAI_DEPLOYMENT_NAME_MAP ("model=deployment,…"), or the model id. */
export function resolveDeploymentName(model, options) {
  if (options?.azureDeploymentName) return options.azureDeploymentName;
  return deploymentNames(providerEnvValue("AZURE_OPENAI_DEPLOYMENT_NAME_MAP", options?.env)).get(model.id) || model.id;
}

/** Azure hosts get /openai/v1 as their path, so the api path and api-version land right. */
function normalizeAzureBaseUrl(baseUrl) {
  const trimmed = baseUrl.trim().replace(/\/+$/, "");
  let url;
  try {
    url = new URL(trimmed);
  } catch {
    throw new Error(`Invalid Azure OpenAI base URL: ${baseUrl}`);
  }
  const azureHost = [".openai.azure.com", ".cognitiveservices.azure.com", ".ai.azure.com"].some((suffix) => url.hostname.endsWith(suffix));
  const path = url.pathname.replace(/\/+$/, "");
  if (azureHost && ["", "/", "/openai", "/openai/v1/responses"].includes(path)) {
    url.pathname = "/openai/v1";
    url.search = "";
  }
  return url.toString().replace(/\/+$/, "");
}

export function resolveAzureBaseUrl(model, options) {
  let baseUrl = options?.azureBaseUrl?.trim() || providerEnvValue("AZURE_OPENAI_BASE_URL", options?.env)?.trim() || undefined;
  const resourceName = options?.azureResourceName || providerEnvValue("AZURE_OPENAI_RESOURCE_NAME", options?.env);
  if (!baseUrl && resourceName) baseUrl = `https://${resourceName}.openai.azure.com/openai/v1`;
  if (!baseUrl && model.baseUrl) baseUrl = model.baseUrl;
  if (!baseUrl) {
    throw new Error(
      "Azure OpenAI base URL is required. Set AZURE_OPENAI_BASE_URL or AZURE_OPENAI_RESOURCE_NAME, or pass azureBaseUrl, azureResourceName, or model.baseUrl.",
    );
  }
  return normalizeAzureBaseUrl(baseUrl);
}

function resolveAzureConfig(model, options) {
  return {
    baseUrl: resolveAzureBaseUrl(model, options),
    apiVersion: options?.azureApiVersion || providerEnvValue("AZURE_OPENAI_API_VERSION", options?.env) || DEFAULT_API_VERSION,
  };
}

/** `<base>/responses?…&api-version=<version>`, the base's own query kept. */
function responsesUrl(baseUrl, apiVersion) {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/responses`;
  url.searchParams.set("api-version", apiVersion);
  return url.toString();
}

function buildParams(model, context, options, deploymentName, grammarToolInputProperties) {
  const compat = model.compat ?? {};
  const support = {
    supportsMidConvoSystemMessages: compat.supportsMidConvoSystemMessages ?? false,
    supportsAdditionalTools: compat.supportsAdditionalTools ?? false,
    supportsToolSearch: compat.supportsToolSearch ?? false,
  };
  const toolOptions = { supportsStrictMode: compat.supportsStrictMode ?? true, supportsOpenAIGrammarTools: compat.supportsOpenAIGrammarTools ?? false };
  const transcriptTools = resolveTranscriptTools(context.messages, getResponsesToolSupport(support));
  const params = {
    model: deploymentName,
    input: convertResponsesMessages(model, context, TOOL_CALL_ID_PROVIDERS, { grammarToolInputProperties, ...support, toolOptions }),
    stream: true,
    prompt_cache_key: compat.promptCacheKeyMode === "disabled" ? undefined : clampOpenAIPromptCacheKey(options?.sessionId),
    store: false,
  };
  if (options?.maxTokens) params.max_output_tokens = Math.max(options.maxTokens, MIN_OUTPUT_TOKENS);
  if (options?.temperature !== undefined) params.temperature = options.temperature;
  if (transcriptTools.requestTools.length > 0) params.tools = convertResponsesTools(transcriptTools.requestTools, toolOptions);
  if (options?.toolChoice !== undefined) params.tool_choice = options.toolChoice;
  const reasoningEffort = options?.reasoningEffort ?? (options?.reasoningSummary ? "medium" : undefined);
  if (model.reasoning) {
    if (reasoningEffort) {
      const effort = options?.reasoningEffort ? (model.thinkingLevelMap?.[options.reasoningEffort] ?? options.reasoningEffort) : reasoningEffort;
      params.reasoning = { effort, summary: options?.reasoningSummary || "auto" };
      params.include = ["reasoning.encrypted_content"];
    } else if (model.thinkingLevelMap?.off !== null) {
      params.reasoning = { effort: model.thinkingLevelMap?.off ?? "none" };
    }
  }
  // Last, so the model's and the request's sampling parameters win over named fields.
  const sampling = resolveSamplingParams(model, reasoningEffort ?? "off", options?.samplingParams);
  if (sampling) Object.assign(params, sampling);
  return params;
}

export function stream(model, context, options) {
  const events = new AssistantMessageEventStream();
  const transcript = resolveTranscript(context, model.compat?.supportsMidConvoSystemMessages);
  const output = {
    role: "assistant",
    content: [],
    api: "azure-openai-responses",
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason: "pending",
    timestamp: Date.now(),
  };
  run(model, transcript, options, output, events).catch((error) => {
    output.stopReason = options?.signal?.aborted ? "aborted" : "error";
    output.errorMessage = formatProviderFailure(error, "Azure OpenAI API error");
    events.push({ type: "error", reason: output.stopReason, error: output });
    events.end();
  });
  return events;
}

async function run(model, context, options, output, events) {
  const deploymentName = resolveDeploymentName(model, options);
  const apiKey = options?.apiKey;
  if (!apiKey) throw new Error(`No API key for provider: ${model.provider}`);
  const headers = { ...getIdentityHeaders(model, options?.identity), ...model.headers, ...options?.headers };
  const { baseUrl, apiVersion } = resolveAzureConfig(model, options);
  const grammarToolInputProperties = createGrammarToolInputProperties(getDeclaredTools(context.messages), model.compat?.supportsOpenAIGrammarTools ?? false);
  let params = buildParams(model, context, options, deploymentName, grammarToolInputProperties);
  const replaced = await options?.onPayload?.(params, model);
  if (replaced !== undefined) params = replaced;
  const response = await retryProviderRequest(
    () =>
      openAIRequest({ model, url: responsesUrl(baseUrl, apiVersion), auth: { "api-key": apiKey }, headers, body: params, options }),
    { maxRetries: options?.maxRetries, maxRetryDelayMs: options?.maxRetryDelayMs, signal: options?.signal },
  );
  await options?.onResponse?.({ status: response.status, headers: headersToRecord(response.headers) }, model);
  events.push({ type: "start", partial: output });
  await processResponsesStream(openAIEvents(response, options?.signal), output, events, model, {
    onProviderStreamEvent: options?.onProviderStreamEvent,
    grammarToolInputProperties,
  });
  if (options?.signal?.aborted) throw new Error("Request was aborted");
  if (output.stopReason === "pending") throw new Error("Azure OpenAI Responses stream ended without a stop reason");
  if (output.stopReason === "aborted" || output.stopReason === "error") throw new Error(output.errorMessage || "An unknown error occurred");
  events.push({ type: "done", reason: output.stopReason, message: output });
  events.end();
}

export function streamSimple(model, context, options) {
  const apiKey = options?.apiKey;
  if (!apiKey) throw new Error(`No API key for provider: ${model.provider}`);
  const base = { ...buildBaseOptions(model, context, options, apiKey), toolChoice: options?.toolChoice };
  const level = options?.reasoning ? clampThinkingLevel(model, options.reasoning) : undefined;
  return stream(model, context, { ...base, reasoningEffort: level === "off" ? undefined : level });
}
