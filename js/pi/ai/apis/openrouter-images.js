// Image generation over OpenRouter's chat completions endpoint, one JSON
// answer (no stream), sent as OpenAI's SDK sends it.
import { getIdentityHeaders } from "../identity.js";
import { formatProviderFailure, headersToRecord, mergeRequestHeaders, retryProviderRequest } from "./http.js";
import { openAIRequest } from "./openai-http.js";
import { sanitizeSurrogates } from "./text-safety.js";

function buildParams(model, context) {
  const content = context.input.map((item) =>
    item.type === "text" ? { type: "text", text: sanitizeSurrogates(item.text) } : { type: "image_url", image_url: { url: `data:${item.mimeType};base64,${item.data}` } },
  );
  return {
    model: model.id,
    messages: [{ role: "user", content }],
    stream: false,
    modalities: model.output.includes("text") ? ["image", "text"] : ["image"],
  };
}

function parseUsage(raw, model) {
  const prompt = raw.prompt_tokens || 0;
  const reportedCached = raw.prompt_tokens_details?.cached_tokens || 0;
  const cacheWrite = raw.prompt_tokens_details?.cache_write_tokens || 0;
  // OpenRouter counts cache writes among the cached tokens.
  const cacheRead = cacheWrite > 0 ? Math.max(0, reportedCached - cacheWrite) : reportedCached;
  const input = Math.max(0, prompt - cacheRead - cacheWrite);
  const output = raw.completion_tokens || 0;
  const cost = {
    input: (model.cost.input / 1000000) * input,
    output: (model.cost.output / 1000000) * output,
    cacheRead: (model.cost.cacheRead / 1000000) * cacheRead,
    cacheWrite: (model.cost.cacheWrite / 1000000) * cacheWrite,
    total: 0,
    totalFromProvider: false,
  };
  cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
  return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite, cost };
}

export async function generateImages(model, context, options) {
  const output = { api: model.api, provider: model.provider, model: model.id, output: [], stopReason: "stop", timestamp: Date.now() };
  try {
    const apiKey = options?.apiKey;
    if (!apiKey) throw new Error(`No API key for provider: ${model.provider}`);
    const headers = mergeRequestHeaders(getIdentityHeaders(model, options?.identity), model.headers, options?.headers);
    let params = buildParams(model, context);
    const replaced = await options?.onPayload?.(params, model);
    if (replaced !== undefined) params = replaced;
    const response = await retryProviderRequest(
      () => openAIRequest({ model, path: "/chat/completions", apiKey, headers, body: params, options }),
      { maxRetries: options?.maxRetries, maxRetryDelayMs: options?.maxRetryDelayMs, signal: options?.signal },
    );
    await options?.onResponse?.({ status: response.status, headers: headersToRecord(response.headers) }, model);
    const answer = await response.json();
    output.responseId = answer.id;
    if (answer.usage) output.usage = parseUsage(answer.usage, model);
    const choice = answer.choices[0];
    if (choice) {
      const content = choice.message.content;
      if (typeof content === "string" && content.length > 0) output.output.push({ type: "text", text: content });
      for (const image of choice.message.images ?? []) {
        const url = typeof image.image_url === "string" ? image.image_url : image.image_url?.url;
        if (!url?.startsWith("data:")) continue;
        const matches = url.match(/^data:([^;]+);base64,(.+)$/);
        if (matches) output.output.push({ type: "image", mimeType: matches[1], data: matches[2] });
      }
    }
    return output;
  } catch (error) {
    output.stopReason = options?.signal?.aborted ? "aborted" : "error";
    output.errorMessage = formatProviderFailure(error);
    return output;
  }
}
