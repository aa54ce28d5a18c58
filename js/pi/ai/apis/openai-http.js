// OpenAI's SDK on the wire, shared by the Chat Completions and Responses
// apis: the request headers it sends, its error texts, and how it reads an
// SSE stream (a "[DONE]" sentinel ends it, an `error` event or an `error`
// field fails it, a transport abort ends it quietly).
import { mergeRequestHeaders, postJson, ProviderHttpError } from "./http.js";
import { readSseEvents } from "./sse.js";

const SDK_USER_AGENT = "OpenAI/JS 7.59.0";
const DEFAULT_TIMEOUT_MS = 600_000;

const PROMPT_CACHE_KEY_MAX_CHARS = 64;

/** At most 64 code points: OpenAI's limit on prompt_cache_key. */
export function clampOpenAIPromptCacheKey(key) {
  if (key === undefined) return undefined;
  const chars = Array.from(key);
  return chars.length <= PROMPT_CACHE_KEY_MAX_CHARS ? key : chars.slice(0, PROMPT_CACHE_KEY_MAX_CHARS).join("");
}

function joinUrl(baseUrl, path) {
  return baseUrl + (baseUrl.endsWith("/") && path.startsWith("/") ? path.slice(1) : path);
}

/** POSTs `body` to `path` under the model's base URL as OpenAI's client would, `headers` being its default headers. */
export function openAIRequest({ model, path, apiKey, headers, body, options, url, auth }) {
  return postJson({
    url: url ?? joinUrl(model.baseUrl, path),
    headers: mergeRequestHeaders(
      { accept: "application/json", "user-agent": SDK_USER_AGENT },
      auth ?? (apiKey ? { authorization: `Bearer ${apiKey}` } : undefined),
      headers,
    ),
    body,
    signal: options?.signal,
    timeoutMs: options?.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    fetchImpl: options?.fetch,
    abortedMessage: "Request was aborted.",
    // The SDK's status errors carry the body's `error` object, or the whole body when it has none.
    errorBody: (json) => (json && typeof json === "object" && json.error == null ? json : json?.error),
  });
}

/** An error the stream itself reports, as the SDK raises it (no status). */
function streamError(error, headers) {
  const detail = error?.message ? (typeof error.message === "string" ? error.message : JSON.stringify(error.message)) : error ? JSON.stringify(error) : undefined;
  return new ProviderHttpError(detail || "(no status code or body)", { status: undefined, headers, error });
}

/** The parsed events of an SSE response. */
export async function* openAIEvents(response, signal, { withEventNames = false } = {}) {
  try {
    for await (const sse of readSseEvents(response.body, signal)) {
      if (sse.data === "[DONE]") return;
      let data;
      try {
        data = JSON.parse(sse.data);
      } catch {
        throw new SyntaxError("Error reading response: malformed server-sent event JSON.");
      }
      if (sse.event?.startsWith("thread.")) {
        yield { event: sse.event, data };
        continue;
      }
      if (sse.event === "error") throw streamError(data?.error ?? data, response.headers);
      if (data && data.error) throw streamError(data.error, response.headers);
      yield withEventNames ? { event: sse.event, data } : data;
    }
  } catch (error) {
    // The SDK ends the stream without an error when the request was aborted.
    if (signal?.aborted) return;
    throw error;
  }
}
