// pi-ai's "google-vertex" api (Gemini on Vertex AI) over the isolate's
// fetch: the request pi builds, sent where Google's genai SDK sends a
// Vertex request (an API key's global endpoint, or the project's regional
// one with application default credentials), and the chunks read as the
// Gemini api reads them.
import { AssistantMessageEventStream } from "../event-stream.js";
import { getIdentityHeaders } from "../identity.js";
import { clampThinkingLevel } from "../model-kinds.js";
import { providerEnvValue } from "../provider-env.js";
import { collapseSystemMessages } from "../system-messages.js";
import { emptyUsage } from "../usage.js";
import { hostEnv } from "../../host-env.js";
import { buildGeminiParams, finishGemini, readGeminiChunks } from "./google-generative-ai.js";
import {
  generateContentBody,
  googleClientHeader,
  googleStatusError,
  googleStreamChunks,
  resolveGoogleThinkingLevel,
  retryGoogleRequest,
  toGoogleThinkingLevel,
  usesGoogleThinkingLevel,
} from "./google-shared.js";
import { formatProviderFailure, mergeRequestHeaders, ProviderConnectionError, ProviderHttpError } from "./http.js";
import { buildBaseOptions } from "./token-budget.js";

const API_VERSION = "v1";
// What pi stores as the "key" of a Vertex login that uses ADC instead.
const ADC_MARKER = "gcp-vertex-credentials";
const MULTI_REGIONAL_LOCATIONS = new Set(["us", "eu"]);

function resolveApiKey(options) {
  const apiKey = options?.apiKey?.trim();
  if (!apiKey || apiKey === ADC_MARKER || /^<[^>]+>$/.test(apiKey)) return undefined;
  return apiKey;
}

function resolveProject(options) {
  const project = options?.project || providerEnvValue("GOOGLE_CLOUD_PROJECT", options?.env) || providerEnvValue("GCLOUD_PROJECT", options?.env);
  if (!project) throw new Error("Vertex AI requires a project ID. Set GOOGLE_CLOUD_PROJECT/GCLOUD_PROJECT or pass project in options.");
  return project;
}

function resolveLocation(options) {
  const location = options?.location || providerEnvValue("GOOGLE_CLOUD_LOCATION", options?.env);
  if (!location) throw new Error("Vertex AI requires a location. Set GOOGLE_CLOUD_LOCATION or pass location in options.");
  return location;
}

/** A model base URL of the caller's own (pi's catalog ones name a `{location}` and are not used). */
function customBaseUrl(baseUrl) {
  const trimmed = baseUrl.trim();
  return !trimmed || trimmed.includes("{location}") ? undefined : trimmed;
}

function includesApiVersion(baseUrl) {
  try {
    return new URL(baseUrl).pathname.split("/").some((part) => /^v\d+(?:beta\d*)?$/.test(part));
  } catch {
    return /(?:^|\/)v\d+(?:beta\d*)?(?:\/|$)/.test(baseUrl);
  }
}

function vertexModelPath(id) {
  if (!id || typeof id !== "string") throw new Error("model is required and must be a string");
  if (id.includes("..") || id.includes("?") || id.includes("&")) throw new Error("invalid model parameter");
  if (id.startsWith("publishers/") || id.startsWith("projects/") || id.startsWith("models/")) return id;
  const slash = id.indexOf("/");
  if (slash >= 0) {
    const [publisher, name] = id.split("/", 2);
    return `publishers/${publisher}/models/${name}`;
  }
  return `publishers/google/models/${id}`;
}

/**
 * Where the request goes, as the SDK decides it: a custom model base URL as
 * given (no project path, no version when it names one); else the base URL
 * the environment names, or the endpoint for the key or the location.
 */
function requestUrl(model, modelId, auth) {
  const custom = customBaseUrl(model.baseUrl);
  let base;
  let version = API_VERSION;
  let projectPath = auth.project !== undefined;
  if (custom) {
    base = custom;
    projectPath = false;
    if (includesApiVersion(custom)) version = "";
  } else if (hostEnv().GOOGLE_VERTEX_BASE_URL) {
    base = hostEnv().GOOGLE_VERTEX_BASE_URL;
  } else if (auth.project === undefined || auth.location === "global") {
    base = "https://aiplatform.googleapis.com/";
  } else if (MULTI_REGIONAL_LOCATIONS.has(auth.location)) {
    base = `https://aiplatform.${auth.location}.rep.googleapis.com/`;
  } else {
    base = `https://${auth.location}-aiplatform.googleapis.com/`;
  }
  const parts = [base.endsWith("/") ? base.slice(0, -1) : base];
  if (version) parts.push(version);
  if (projectPath) parts.push(`projects/${auth.project}/locations/${auth.location}`);
  parts.push(`${vertexModelPath(modelId)}:streamGenerateContent`);
  const url = new URL(parts.join("/"));
  url.searchParams.set("alt", "sse");
  return url.toString();
}

/**
 * The auth headers: the key when there is one, else an access token from
 * application default credentials (loaded with the first such request).
 * Headers the request already carries win, as in the SDK.
 */
async function authHeaders(auth, options) {
  if (auth.apiKey !== undefined) return [["x-goog-api-key", auth.apiKey]];
  const { applicationDefaultHeaders } = await import("./google-adc.js");
  return await applicationDefaultHeaders({ keyFilename: providerEnvValue("GOOGLE_APPLICATION_CREDENTIALS", options?.env) });
}

async function send(model, auth, params, options) {
  const url = requestUrl(model, params.model, auth);
  const headers = mergeRequestHeaders(
    { "Content-Type": "application/json", "user-agent": googleClientHeader(), "x-goog-api-client": googleClientHeader() },
    getIdentityHeaders(model, options?.identity),
    model.headers,
    options?.headers,
  );
  const present = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
  for (const [name, value] of await authHeaders(auth, options)) {
    if (!present.has(name.toLowerCase())) headers[name] = value;
  }
  let response;
  try {
    response = await (options?.fetch ?? globalThis.fetch)(url, {
      method: "POST",
      headers,
      body: JSON.stringify(generateContentBody(params, { vertex: true })),
      signal: params.config?.abortSignal,
    });
  } catch (error) {
    if (options?.signal?.aborted) throw error;
    throw new ProviderConnectionError(error instanceof Error ? error.message : `exception ${error} sending request`, error);
  }
  if (!response.ok) throw await googleStatusError(response, ProviderHttpError);
  return response;
}

async function run(model, context, options, output, events) {
  const apiKey = resolveApiKey(options);
  // Project and location are checked before the request is built, as the SDK client is made first.
  const auth = apiKey ? { apiKey } : { project: resolveProject(options), location: resolveLocation(options) };
  let params = buildGeminiParams(model, context, options);
  const replaced = await options?.onPayload?.(params, model);
  if (replaced !== undefined) params = replaced;
  const response = await retryGoogleRequest(() => send(model, auth, params, options), options);
  events.push({ type: "start", partial: output });
  await readGeminiChunks(googleStreamChunks(response, ProviderHttpError), model, output, events, options);
  finishGemini(output, events, options, "Google Vertex");
}

export function stream(model, context, options) {
  const events = new AssistantMessageEventStream();
  const transcript = collapseSystemMessages(context);
  const output = {
    role: "assistant",
    content: [],
    api: "google-vertex",
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

/** Vertex's thinking budgets of the 2.5 models by level (flash-lite counts as flash here); -1 lets the model decide. */
function vertexThinkingBudget(model, level, customBudgets) {
  if (customBudgets?.[level] !== undefined) return customBudgets[level];
  if (model.id.includes("2.5-pro")) return { minimal: 128, low: 2048, medium: 8192, high: 32768 }[level];
  if (model.id.includes("2.5-flash")) return { minimal: 128, low: 2048, medium: 8192, high: 24576 }[level];
  return -1;
}

function simpleThinking(model, options) {
  if (!options?.reasoning) return { enabled: false };
  const level = clampThinkingLevel(model, options.reasoning);
  if (level === "off") return { enabled: false };
  const resolved = resolveGoogleThinkingLevel(model, level);
  if (usesGoogleThinkingLevel(model)) return { enabled: true, level: toGoogleThinkingLevel(resolved) };
  return { enabled: true, budgetTokens: vertexThinkingBudget(model, resolved, options.thinkingBudgets) };
}

// Unlike the Gemini api, no key is required: ADC may stand in for one.
export function streamSimple(model, context, options) {
  const base = { ...buildBaseOptions(model, context, options, undefined), toolChoice: options?.toolChoice };
  return stream(model, context, { ...base, thinking: simpleThinking(model, options) });
}
