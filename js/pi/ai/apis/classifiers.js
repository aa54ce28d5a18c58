// pi-ai's classifier apis: System One (TypeSafe's protocol, which OpenRouter,
// OpenCode, Vercel's gateway and Copilot serve too, and Cloudflare Workers
// AI's envelope around it) and OpenAI's Decisions. Each posts one JSON request
// with bearer auth and pi's retries, and answers with a classification result
// (answers, usage priced from the catalog), never throwing: a failure is the
// result's error, as in pi.
import { calculateCost } from "../cost.js";
import { getIdentityHeaders } from "../identity.js";
import { formatProviderFailure, headersToRecord, mergeRequestHeaders, retryProviderRequest } from "./http.js";

function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function requiredNumber(label, value, field) {
  if (typeof value !== "number" || !Number.isFinite(value)) throw new Error(`${label} returned an invalid ${field}`);
  return value;
}

function httpError(label, response, body) {
  const error = new Error(`${label} returned ${response.status}`);
  error.status = response.status;
  error.headers = response.headers;
  error.body = body;
  return error;
}

function timeoutError(timeoutMs) {
  const error = new Error(`Request timed out after ${timeoutMs}ms`);
  error.name = "TimeoutError";
  error.status = undefined;
  error.headers = undefined;
  error.body = "";
  return error;
}

/** Posts one classifier request; the parsed answer, or a thrown failure. `noRetryStatuses` fail at once. */
async function postClassifierRequest(label, url, model, body, options, noRetryStatuses) {
  if (!options?.apiKey) throw new Error(`No API key for provider: ${model.provider}`);
  let payload = body;
  const transformed = await options.onPayload?.(payload, model);
  if (transformed !== undefined) payload = transformed;
  const requestFetch = options.fetch ?? globalThis.fetch;
  const headers = mergeRequestHeaders(
    getIdentityHeaders(model, options.identity),
    { authorization: `Bearer ${options.apiKey}`, "content-type": "application/json" },
    model.headers,
    options.headers,
  );
  const { response, json } = await retryProviderRequest(
    async () => {
      const timeoutSignal = options.timeoutMs !== undefined ? AbortSignal.timeout(options.timeoutMs) : undefined;
      const signal = options.signal && timeoutSignal ? AbortSignal.any([options.signal, timeoutSignal]) : (options.signal ?? timeoutSignal);
      try {
        const next = await requestFetch(url, { method: "POST", headers, body: JSON.stringify(payload), signal });
        if (!next.ok) throw httpError(label, next, await next.text());
        return { response: next, json: await next.json() };
      } catch (error) {
        if (timeoutSignal?.aborted && !options.signal?.aborted) throw timeoutError(options.timeoutMs);
        throw error;
      }
    },
    { maxRetries: options.maxRetries ?? 2, maxRetryDelayMs: options.maxRetryDelayMs, signal: options.signal, noRetryStatuses },
  );
  await options.onResponse?.({ status: response.status, headers: headersToRecord(response.headers) }, model);
  return json;
}

function tokenCount(value) {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

/** Usage from `{ input_tokens, output_tokens }`, priced like chat usage; none when the answer has none. */
function parseClassifierUsage(value, model) {
  if (!isRecord(value) || (value.input_tokens === undefined && value.output_tokens === undefined)) return undefined;
  const input = tokenCount(value.input_tokens);
  const output = tokenCount(value.output_tokens);
  const usage = { input, output, cacheRead: 0, cacheWrite: 0, totalTokens: input + output, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  calculateCost(model, usage);
  return usage;
}

/** A choice answer, its probabilities read by the service's `readProbabilities`. */
function choiceAnswer(label, id, answer, readProbabilities) {
  if (answer.type !== "choice" || typeof answer.choice !== "string") throw new Error(`${label} did not return a choice answer for ${id}`);
  return {
    type: "choice",
    choice: answer.choice,
    probabilities: readProbabilities(answer.probabilities, id),
    confidence: requiredNumber(label, answer.confidence, `confidence for ${id}`),
  };
}

function scoreAnswer(label, id, answer) {
  if (answer.type !== "score") throw new Error(`${label} did not return a score answer for ${id}`);
  return { type: "score", score: requiredNumber(label, answer.score, `score for ${id}`), confidence: requiredNumber(label, answer.confidence, `confidence for ${id}`) };
}

function emptyResult(model) {
  return { api: model.api, provider: model.provider, model: model.id, answers: {}, stopReason: "stop", timestamp: Date.now() };
}

// --- System One ------------------------------------------------------------

/** TypeSafe's opt-in header for its experimental image input. */
const IMAGE_OPT_IN_HEADERS = { "TypeSafe-Danger-Zone-Images": "true" };
const ASSET_FORMATS = { "image/png": "png", "image/jpeg": "jpeg" };
const DATA_URL_TYPES = new Set(["image/png", "image/jpeg", "image/webp"]);
/** Clef takes at most this many images a request. */
const MAX_DATA_URL_IMAGES = 4;

function probabilities(label, value, id) {
  if (!isRecord(value)) throw new Error(`${label} returned invalid probabilities for ${id}`);
  return Object.fromEntries(Object.entries(value).map(([key, probability]) => [key, requiredNumber(label, probability, `probability for ${id}.${key}`)]));
}

function systemOneAnswer(label, id, question, answer) {
  if (!isRecord(answer)) throw new Error(`${label} did not return an answer for ${id}`);
  if (question.type === "choice") return choiceAnswer(label, id, answer, (value, answerId) => probabilities(label, value, answerId));
  if (question.type === "score") return scoreAnswer(label, id, answer);
  if (answer.type !== "noul") throw new Error(`${label} did not return a bool answer for ${id}`);
  return { type: "bool", probability: requiredNumber(label, answer.noul, `probability for ${id}`) };
}

function systemOneAnswers(label, value, context) {
  if (!isRecord(value)) throw new Error(`${label} returned an unexpected response`);
  return Object.fromEntries(Object.entries(context.questions).map(([id, question]) => [id, systemOneAnswer(label, id, question, value[id])]));
}

/** The context's images in the service's form: data URLs, image parts before the state, or named assets. */
function addImages(label, model, input, images, request) {
  if (input === "images") {
    if (images.length > MAX_DATA_URL_IMAGES) throw new Error(`${label} accepts at most ${MAX_DATA_URL_IMAGES} images for ${model.id}, got ${images.length}`);
    request.images = images.map((image) => {
      if (!DATA_URL_TYPES.has(image.mimeType)) throw new Error(`${label} accepts PNG, JPEG, and WebP images for ${model.id}, got ${image.mimeType}`);
      return `data:${image.mimeType};base64,${image.data}`;
    });
    return;
  }
  if (input === "state-image-urls") {
    const parts = images.map((image) => ({ type: "image_url", image_url: { url: `data:${image.mimeType};base64,${image.data}` } }));
    request.state = [...parts, request.state];
    return;
  }
  const assets = {};
  images.forEach((image, index) => {
    const format = ASSET_FORMATS[image.mimeType];
    if (!format) throw new Error(`${label} accepts PNG and JPEG images for ${model.id}, got ${image.mimeType}`);
    assets[`<image-${index + 1}>`] = { type: "image", format, data_base64: image.data };
  });
  request.assets = assets;
  // Every asset is referenced from the request, before the state.
  request.state = [...Object.keys(assets), request.state];
}

/** Public `bool` questions are `noul` on the wire. */
function systemOneRequest(context) {
  return {
    state: context.state,
    questions: Object.fromEntries(Object.entries(context.questions).map(([id, question]) => [id, question.type === "bool" ? { ...question, type: "noul" } : question])),
  };
}

function endpoint(model, path) {
  return new URL(path, `${model.baseUrl.replace(/\/+$/u, "")}/`);
}

async function classifySystemOne(transport, model, context, options) {
  const output = emptyResult(model);
  try {
    if (model.api !== transport.api) throw new Error(`Unsupported classifier API: ${model.api}`);
    const request = systemOneRequest(context);
    let requestOptions = options;
    if (context.images?.length) {
      if (!model.input.includes("image")) throw new Error(`${transport.label} does not support image input for ${model.id}`);
      const detected = transport.detectCompat(model);
      addImages(transport.label, model, model.compat?.imageInput ?? detected.imageInput, context.images, request);
      if (model.compat?.sendImageOptInHeader ?? detected.sendImageOptInHeader) {
        requestOptions = { ...options, headers: { ...IMAGE_OPT_IN_HEADERS, ...options?.headers } };
      }
    }
    const body = await postClassifierRequest(transport.label, transport.url(model), model, transport.payload(model, request), requestOptions);
    const result = transport.output(body);
    // A request whose answers turn out malformed was still billed.
    const usage = parseClassifierUsage(result.usage, model);
    if (usage) output.usage = usage;
    output.answers = systemOneAnswers(transport.label, result.answers, context);
    return output;
  } catch (error) {
    output.stopReason = options?.signal?.aborted ? "aborted" : "error";
    output.errorMessage = formatProviderFailure(error, `${transport.label} error`);
    return output;
  }
}

const typesafeTransport = {
  api: "typesafe-system-one",
  label: "System One API",
  // OpenRouter by provider id (which survives base URL overrides) or by host takes images in the state.
  detectCompat: (model) =>
    model.provider === "openrouter" || model.baseUrl.includes("openrouter.ai")
      ? { imageInput: "state-image-urls", sendImageOptInHeader: false }
      : { imageInput: "assets", sendImageOptInHeader: true },
  url: (model) => endpoint(model, "systemone"),
  payload: (model, request) => ({ model: model.id, ...request }),
  output: (body) => {
    if (!isRecord(body)) throw new Error("System One API returned an unexpected response");
    return body;
  },
};

const CLOUDFLARE = "Cloudflare Workers AI";

function cloudflareErrorMessage(errors) {
  const messages = Array.isArray(errors) ? errors.flatMap((error) => (isRecord(error) && typeof error.message === "string" ? [error.message] : [])) : [];
  return messages.length > 0 ? `${CLOUDFLARE} error: ${messages.join("; ")}` : `${CLOUDFLARE} request failed`;
}

const cloudflareTransport = {
  api: "cloudflare-workers-ai-system-one",
  label: CLOUDFLARE,
  detectCompat: (model) => ({ imageInput: model.id.startsWith("@cf/cloudflare/clef") ? "images" : "assets", sendImageOptInHeader: false }),
  url: (model) => endpoint(model, "run"),
  payload: (model, request) => ({ model: model.id, input: request }),
  // Cloudflare's envelope; third-party models add a run record around the output.
  output: (body) => {
    if (!isRecord(body)) throw new Error(`${CLOUDFLARE} returned an unexpected response`);
    if (body.success === false) throw new Error(cloudflareErrorMessage(body.errors));
    const result = body.result;
    if (!isRecord(result)) throw new Error(`${CLOUDFLARE} returned an unexpected response`);
    if ("answers" in result) return result;
    if (result.state !== "Completed") throw new Error(`${CLOUDFLARE} run did not complete (state: ${String(result.state)})`);
    if (!isRecord(result.result)) throw new Error(`${CLOUDFLARE} returned an unexpected response`);
    return result.result;
  },
};

export const classifyTypesafeSystemOne = (model, context, options) => classifySystemOne(typesafeTransport, model, context, options);
export const classifyCloudflareSystemOne = (model, context, options) => classifySystemOne(cloudflareTransport, model, context, options);

// --- OpenAI Decisions ------------------------------------------------------

const DECISIONS = "OpenAI Decisions";
/** The endpoint takes at most this many image parts. */
const MAX_DECISION_IMAGES = 128;
/** Cloudflare in front of OpenAI answers 504 for very large inputs, again on every retry. */
const DECISIONS_NO_RETRY_STATUSES = [504];

function predicateInstructions(question) {
  const meanings = [question.criteria.true ? `True means: ${question.criteria.true}` : "", question.criteria.false ? `False means: ${question.criteria.false}` : ""].filter(Boolean);
  return meanings.length > 0 ? `${question.instructions}\n\n${meanings.join("\n")}` : question.instructions;
}

function decisionQuestion(name, question) {
  if (question.type === "choice") {
    return {
      type: "choice",
      name,
      instructions: question.instructions,
      choices: Object.entries(question.criteria).map(([value, description]) => (description ? { value, description } : { value })),
    };
  }
  if (question.type === "score") return { type: "score", name, instructions: question.instructions, levels: question.criteria.map((label) => ({ label })) };
  return { type: "predicate", name, instructions: predicateInstructions(question) };
}

function decisionInput(context) {
  const state = JSON.stringify(context.state);
  const images = context.images ?? [];
  if (images.length === 0) return state;
  if (images.length > MAX_DECISION_IMAGES) throw new Error(`${DECISIONS} accepts at most ${MAX_DECISION_IMAGES} images, got ${images.length}`);
  return [
    {
      role: "user",
      content: [{ type: "input_text", text: state }, ...images.map((image) => ({ type: "input_image", image_url: `data:${image.mimeType};base64,${image.data}` }))],
    },
  ];
}

function choiceProbabilities(value, id) {
  if (!Array.isArray(value)) throw new Error(`${DECISIONS} returned invalid probabilities for ${id}`);
  return Object.fromEntries(
    value.map((entry) => {
      if (!isRecord(entry) || typeof entry.value !== "string") throw new Error(`${DECISIONS} returned invalid probabilities for ${id}`);
      return [entry.value, requiredNumber(DECISIONS, entry.probability, `probability for ${id}.${entry.value}`)];
    }),
  );
}

function decisionAnswer(id, question, answer) {
  if (answer.type === "refusal") throw new Error(`${DECISIONS} refused to answer ${id}`);
  if (question.type === "choice") return choiceAnswer(DECISIONS, id, answer, choiceProbabilities);
  if (question.type === "score") return scoreAnswer(DECISIONS, id, answer);
  if (answer.type !== "predicate") throw new Error(`${DECISIONS} did not return a predicate answer for ${id}`);
  return { type: "bool", probability: requiredNumber(DECISIONS, answer.probability, `probability for ${id}`) };
}

function decisionAnswers(value, context) {
  if (!Array.isArray(value)) throw new Error(`${DECISIONS} returned an unexpected response`);
  const byName = new Map();
  for (const answer of value) if (isRecord(answer) && typeof answer.name === "string") byName.set(answer.name, answer);
  return Object.fromEntries(
    Object.entries(context.questions).map(([id, question]) => {
      const answer = byName.get(id);
      if (!answer) throw new Error(`${DECISIONS} did not return an answer for ${id}`);
      return [id, decisionAnswer(id, question, answer)];
    }),
  );
}

function decisionsErrorMessage(error) {
  if (error?.status === 504) {
    return `${DECISIONS} error (504): the request timed out at the gateway. Very large inputs (above roughly 600K tokens) currently exceed its time limit.`;
  }
  return formatProviderFailure(error, `${DECISIONS} error`);
}

export async function classifyOpenAIDecisions(model, context, options) {
  const output = emptyResult(model);
  try {
    if (model.api !== "openai-decisions") throw new Error(`Unsupported classifier API: ${model.api}`);
    const body = await postClassifierRequest(
      DECISIONS,
      endpoint(model, "decisions"),
      model,
      { model: model.id, input: decisionInput(context), questions: Object.entries(context.questions).map(([id, question]) => decisionQuestion(id, question)) },
      options,
      DECISIONS_NO_RETRY_STATUSES,
    );
    if (!isRecord(body)) throw new Error(`${DECISIONS} returned an unexpected response`);
    // A request whose answers turn out malformed or refused was still billed.
    const usage = parseClassifierUsage(body.usage, model);
    if (usage) output.usage = usage;
    output.answers = decisionAnswers(body.answers, context);
    return output;
  } catch (error) {
    output.answers = {};
    output.stopReason = options?.signal?.aborted ? "aborted" : "error";
    output.errorMessage = decisionsErrorMessage(error);
    return output;
  }
}
