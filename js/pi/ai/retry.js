// Retrying a model call that failed for a passing reason, as pi-ai 1.6.0
// does: which failures are passing (overloads, rate limits, 5xx statuses,
// dropped connections and streams, timeouts) and which are not even when they
// look alike (exhausted quotas, budgets and subscription limits, which reset
// after hours), the backoff between attempts, and the loop with its callbacks.

// Limits of an account or plan: answered with 429 like a rate limit, but a
// retry within seconds cannot succeed.
const ACCOUNT_LIMITS = [
  /GoUsageLimitError|FreeUsageLimitError/i, // OpenCode Go and free tier
  /Monthly usage limit reached|available balance/i, // OpenCode Go's subscription text
  /insufficient_quota|out of budget|quota exceeded|billing/i,
  /subscription_sharing_(?:workplace_individual_)?usage_limit_exceeded/i, // ChatGPT sign-in plans
  /"code"\s*:\s*"?1308(?![0-9])/i, // Zhipu / Z.ai plan limit
];

const PASSING_FAILURES = [
  // Load and capacity.
  /overloaded|server_busy|servers are currently busy|currently experiencing high demand|model is at capacity/i,
  /rate.?limit|too many requests/i,
  // A status code standing alone, not the digits of a longer number or word.
  /(?<![a-z0-9])(?:429|500|502|503|504|520|524)(?![a-z0-9])/i,
  /service.?(?:is.?)?(?:temporarily.?)?unavailable|server.?error|internal.?error/i,
  // Gateways relaying an upstream failure.
  /provider.?returned.?(?:an.?)?error|exceeded request buffer limit while retrying upstream/i,
  /unable to forward upstream|upstream.?request.?failed|upstream_stream_read_error|upstream.?connect/i,
  /stream was interrupted|http\/?2 stream failed/i,
  // Transport: the network, sockets, name resolution, fetch.
  /network.?error|connection.?(?:error|refused|lost|closed)|connection reset by peer|other side closed/i,
  /fetch failed|request to \S+ failed, reason:|getaddrinfo|ENOTFOUND|EAI_AGAIN/i,
  /(?<![a-z0-9_])(?:ECONNRESET|ECONNABORTED|ECONNREFUSED|ETIMEDOUT|EPIPE)(?![a-z0-9_])/i,
  /reset before headers|socket hang up|socket connection was closed/i,
  /timed? out|timeout|terminated/i,
  /websocket.?(?:closed|error|connection.?limit.?reached)/i,
  // Streams that ended early.
  /ended without|stream ended before (?:message_stop|a terminal response event)/i,
  /http2 request did not get a response|stream disconnected before completion/i,
  /cut short after the reply had begun|pending stream has been canceled/i,
  // The provider asking for a retry, or a delay it asked for that was too long.
  /retry delay|you can retry your request|try your request again|please retry your request/i,
  /ResourceExhausted/i, // gRPC providers
  /subscription_sharing_(?:usage|user)_unavailable/i, // ChatGPT sign-in, usage data unavailable
];

export const DEFAULT_MAX_AGENT_RETRY_DELAY_MS = 60_000;

/** Whether `message` failed in a way a retry can fix (see the lists above). */
export function isRetryableAssistantError(message) {
  if (message.stopReason !== "error" || !message.errorMessage) return false;
  const text = message.errorMessage;
  if (ACCOUNT_LIMITS.some((pattern) => pattern.test(text))) return false;
  return PASSING_FAILURES.some((pattern) => pattern.test(text));
}

/** The wait before retry number `attempt` (from 1): doubling from the base, capped. */
export function retryDelayMs(policy, attempt) {
  const doubled = policy.baseDelayMs * 2 ** Math.max(0, attempt - 1);
  const delay = Number.isSafeInteger(doubled) ? doubled : Number.MAX_SAFE_INTEGER;
  return Math.min(delay, policy.maxAgentDelayMs ?? DEFAULT_MAX_AGENT_RETRY_DELAY_MS);
}

class BackoffAborted extends Error {
  constructor() {
    super("Aborted");
  }
}

function backoff(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new BackoffAborted());
      return;
    }
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(new BackoffAborted());
      },
      { once: true },
    );
  });
}

/**
 * Runs `produce` (one model call resolving to an assistant message) and, while
 * it fails in a way {@link isRetryableAssistantError} accepts and `policy`
 * (`{ enabled, maxRetries, baseDelayMs, maxAgentDelayMs? }`) allows, again
 * after a backoff. An abort, during a call or the backoff, ends it with an
 * aborted message. `callbacks` hear of each scheduled retry, each retried
 * call's start, and the end of a run that retried.
 */
export async function retryAssistantCall(produce, policy, signal, callbacks) {
  const allowed = policy?.enabled ? policy.maxRetries : 0;
  let retries = 0;
  let lastFailure;
  for (;;) {
    const response = await produce();
    const failed = response.stopReason === "error";
    if (!failed || response.stopReason === "aborted" || retries >= allowed || !isRetryableAssistantError(response)) {
      if (lastFailure) {
        const succeeded = !failed && response.stopReason !== "aborted";
        if (failed) await callbacks?.onRetryFinished?.(false, lastFailure.attempt, response.errorMessage);
        else await callbacks?.onRetryFinished?.(succeeded, lastFailure.attempt);
      }
      return response;
    }
    retries += 1;
    lastFailure = { attempt: retries, errorMessage: response.errorMessage || "Unknown error" };
    const delay = retryDelayMs(policy, retries);
    await callbacks?.onRetryScheduled?.(retries, allowed, delay, lastFailure.errorMessage);
    try {
      await backoff(delay, signal);
    } catch (error) {
      await callbacks?.onRetryFinished?.(false, retries, lastFailure.errorMessage);
      if (!(error instanceof BackoffAborted)) throw error;
      // Shaped like a call the provider aborted, whenever the abort came.
      const { errorMessage: _dropped, ...aborted } = response;
      return { ...aborted, stopReason: "aborted" };
    }
    await callbacks?.onRetryAttemptStart?.();
  }
}
