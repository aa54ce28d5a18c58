// The HTTP side of the direct providers: requests over the isolate's `fetch`
// with the headers, timeouts and failures the vendors' SDKs produce (pi
// talks through those SDKs, and its error texts are theirs), and pi's own
// retry loop around them.
import { providerEnvValue } from "../provider-env.js";

/**
 * Merges header sources, later ones winning, names compared without case.
 * A null value removes the header; the spelling of the last writer is kept.
 */
export function mergeRequestHeaders(...sources) {
  const merged = new Map();
  for (const source of sources) {
    if (!source) continue;
    for (const [name, value] of Object.entries(source)) {
      const key = name.toLowerCase();
      merged.delete(key);
      if (value !== null && value !== undefined) merged.set(key, [name, String(value)]);
    }
  }
  return Object.fromEntries(merged.values());
}

export function headersToRecord(headers) {
  const record = {};
  for (const [name, value] of headers.entries()) record[name] = value;
  return record;
}

/** A non-2xx answer: the status, the response headers and the body (parsed when it is JSON). */
export class ProviderHttpError extends Error {
  constructor(message, { status, headers, error, type }) {
    super(message);
    this.status = status;
    this.headers = headers;
    this.error = error;
    this.type = type ?? null;
  }
}

/** The request never got an answer (the SDKs' "Connection error."), the failure kept as cause. */
export class ProviderConnectionError extends Error {
  constructor(message, cause) {
    super(message, cause === undefined ? undefined : { cause });
    this.status = undefined;
    this.headers = undefined;
  }
}

function parseJsonOrUndefined(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The SDKs' status error text: the body's `message` when it has one, else
 * the JSON body, else the raw text, after the status.
 */
export function statusErrorMessage(status, body, rawText) {
  const detail = body?.message
    ? typeof body.message === "string"
      ? body.message
      : JSON.stringify(body.message)
    : body
      ? JSON.stringify(body)
      : rawText;
  if (status && detail) return `${status} ${detail}`;
  if (status) return `${status} status code (no body)`;
  return detail || "(no status code or body)";
}

export function abortError(message) {
  const error = new Error(message);
  error.name = "AbortError";
  return error;
}

/**
 * POSTs `body` as JSON and resolves to the response once its headers are in.
 * Fails like the SDKs: `abortedMessage` when the caller's signal aborts
 * before the answer, "Request timed out." after `timeoutMs`, "Connection
 * error." when fetch fails, and a ProviderHttpError (`errorBody(json)` picks
 * the error's body, `errorType(json)` its type) for a non-2xx status.
 */
export async function postJson({ url, headers, body, signal, timeoutMs, fetchImpl, abortedMessage, errorBody, errorType }) {
  if (signal?.aborted) throw abortError(abortedMessage);
  const controller = new AbortController();
  const forwardAbort = () => controller.abort();
  signal?.addEventListener("abort", forwardAbort, { once: true });
  let timedOut = false;
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs);
  let response;
  try {
    response = await (fetchImpl ?? globalThis.fetch)(url, {
      method: "POST",
      // The SDKs' body header wins over configured ones, whatever their spelling.
      headers: mergeRequestHeaders(headers, { "content-type": "application/json" }),
      body: JSON.stringify(body),
      signal: controller.signal,
    });
  } catch (error) {
    if (signal?.aborted) throw abortError(abortedMessage);
    if (timedOut) throw new ProviderConnectionError("Request timed out.");
    throw new ProviderConnectionError("Connection error.", error instanceof Error ? error : new Error(String(error)));
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
  // The listener stays: the body streams on, and the caller's abort must still reach it.
  if (!response.ok) {
    signal?.removeEventListener("abort", forwardAbort);
    const text = await response.text().catch((error) => (error instanceof Error ? error.message : String(error)));
    const json = parseJsonOrUndefined(text);
    const error = errorBody ? errorBody(json) : json;
    throw new ProviderHttpError(statusErrorMessage(response.status, error, json ? undefined : text), {
      status: response.status,
      headers: response.headers,
      error,
      type: errorType?.(json),
    });
  }
  return response;
}

const MAX_CAUSE_DEPTH = 5;

/** An error's message with the deepest cause's reason appended, which connection failures hide there. */
export function withCauseDetail(error) {
  let deepest;
  let current = error.cause;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && current instanceof Error; depth++) {
    deepest = current;
    current = current.cause;
  }
  if (!deepest) return error.message;
  let detail = (deepest.message || deepest.name).trim();
  const code = deepest.code;
  if ((typeof code === "string" || typeof code === "number") && !detail.includes(String(code))) {
    detail = detail ? `${detail} (${code})` : String(code);
  }
  if (!detail || error.message.includes(detail)) return error.message;
  return error.message ? `${error.message}: ${detail}` : detail;
}

const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;

/** An HTTP failure of any SDK (theirs carry a status and headers too): the ones the retry policy looks at. */
function isProviderError(error) {
  if (!(error instanceof Error) || !("status" in error) || !("headers" in error)) return false;
  return (error.status === undefined || typeof error.status === "number") && (error.headers === undefined || error.headers instanceof Headers);
}

function isRetryable(error) {
  const shouldRetry = error.headers?.get("x-should-retry");
  if (shouldRetry === "true") return true;
  if (shouldRetry === "false") return false;
  if (error.status === undefined) return true;
  return error.status === 408 || error.status === 409 || error.status === 429 || error.status >= 500;
}

function checkedServerDelay(delayMs, maxRetryDelayMs, message) {
  const max = maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
  if (max > 0 && delayMs > max) {
    throw new Error(`Server requested ${Math.ceil(delayMs / 1000)}s retry delay (max: ${Math.ceil(max / 1000)}s). ${message}`);
  }
  return delayMs;
}

function retryDelay(error, retryIndex, maxRetryDelayMs) {
  const afterMs = error.headers?.get("retry-after-ms");
  if (afterMs) {
    const value = Number.parseFloat(afterMs);
    if (Number.isFinite(value)) return checkedServerDelay(value, maxRetryDelayMs, error.message);
  }
  const after = error.headers?.get("retry-after");
  if (after) {
    const seconds = Number.parseFloat(after);
    const delayMs = Number.isNaN(seconds) ? Date.parse(after) - Date.now() : seconds * 1000;
    if (Number.isFinite(delayMs)) return checkedServerDelay(delayMs, maxRetryDelayMs, error.message);
  }
  return Math.min(0.5 * 2 ** retryIndex, 8) * 1000 * (1 - Math.random() * 0.25);
}

function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError("Request aborted"));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError("Request aborted"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Runs `request` again on the failures the SDKs retry (connection errors,
 * 408, 409, 429, 5xx, or as `x-should-retry` says), up to `maxRetries`
 * times (none by default), waiting as the server asks or backing off; a
 * server delay above `maxRetryDelayMs` (60 s unless 0) fails at once.
 */
export async function retryProviderRequest(request, options = {}) {
  const maxRetries = options.maxRetries ?? 0;
  let remaining = maxRetries;
  for (;;) {
    try {
      return await request();
    } catch (error) {
      if (options.signal?.aborted) throw abortError("Request aborted");
      if (remaining <= 0 || !isProviderError(error) || !isRetryable(error)) throw error;
      if (error.status !== undefined && options.noRetryStatuses?.includes(error.status)) throw error;
      const retryIndex = maxRetries - remaining;
      remaining--;
      await sleep(retryDelay(error, retryIndex, options.maxRetryDelayMs), options.signal);
    }
  }
}

export const MAX_PROVIDER_ERROR_BODY_CHARS = 4000;

function isPlainNonEmptyObject(value) {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && Object.keys(value).length > 0;
}

function jsonText(value) {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text;
  } catch {
    return String(value);
  }
}

function truncateErrorText(text, maxChars) {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}... [truncated ${text.length - maxChars} chars]`;
}

/**
 * A provider failure as display text: the message when it already carries
 * the response body (or there is no status or body), else the status and
 * the body, from the error's parsed `error` (the OpenAI SDK's shape) or its
 * text body, cut at MAX_PROVIDER_ERROR_BODY_CHARS. With a `prefix` ("OpenAI
 * API error"), a failure with a status reads "<prefix> (<status>): …".
 */
export function formatProviderFailure(error, prefix) {
  if (!(error instanceof Error)) return jsonText(error);
  const status = typeof error.statusCode === "number" ? error.statusCode : typeof error.status === "number" ? error.status : undefined;
  let bodyText;
  if (typeof error.body === "string") bodyText = error.body;
  else if (isPlainNonEmptyObject(error.error)) bodyText = jsonText(error.error);
  const trimmed = bodyText?.trim();
  const body = trimmed ? truncateErrorText(trimmed, MAX_PROVIDER_ERROR_BODY_CHARS) : undefined;
  const message = status === undefined && body === undefined ? withCauseDetail(error) : error.message;
  if (body === undefined || message.includes(body) || status === undefined) {
    return prefix !== undefined && status !== undefined ? `${prefix} (${status}): ${message}` : message;
  }
  return prefix !== undefined ? `${prefix} (${status}): ${body}` : `${status}: ${body}`;
}

/** Whether `headers` (a plain record) set `name` (lower case) to something. */
export function hasHeader(headers, name) {
  if (!headers) return false;
  return Object.entries(headers).some(([key, value]) => key.toLowerCase() === name && value !== null && value.trim().length > 0);
}

/** The key an OpenAI-style client sends; headers that carry auth themselves need none. */
export function clientApiKey(provider, apiKey, headers) {
  if (apiKey) return apiKey;
  if (hasHeader(headers, "authorization") || hasHeader(headers, "cf-aig-authorization")) return "unused";
  throw new Error(`No API key for provider: ${provider}`);
}

/** The prompt-cache retention asked for, else the legacy PI_CACHE_RETENTION=long, else short. */
export function resolveCacheRetention(cacheRetention, env) {
  if (cacheRetention) return cacheRetention;
  return providerEnvValue("PI_CACHE_RETENTION", env) === "long" ? "long" : "short";
}
