// Whether a model's answer means its context was too long, as pi-ai 1.6.0
// decides it: by the provider's error text, or, given the model's context
// window, by usage that could not have fitted. The error texts pi-ai
// recognizes are recorded from the reference
// (reference-data/overflow-patterns.json) and read on first use.
import { ops } from "../../runtime/ops.js";

let overflowPatterns;

function patterns() {
  overflowPatterns ??= JSON.parse(ops.op_pihost_reference_data("overflow-patterns")).patterns.map(
    ({ source, flags }) => new RegExp(source, flags),
  );
  return overflowPatterns;
}

// Throttling and rate limits can quote token counts ("too many tokens") and
// still are not an overflow: such texts never count as one. Bedrock's own
// error formatting names them by a prefix.
const NOT_AN_OVERFLOW = [/^(?:Throttling error|Service unavailable):/i, /rate limit/i, /too many requests/i];

// Cerebras answers an oversized request with a bare 400 or 413 and no body.
const CEREBRAS_BODYLESS_REJECTION = /^4(?:00|13)\s*(?:status code)?\s*\(no body\)/i;

// A length stop that left no room for output counts once the input fills
// this share of the window (providers that truncate the input to fit).
const FILLED_WINDOW = 0.99;

function promptTokens(usage) {
  return usage.input + usage.cacheRead;
}

function errorSaysOverflow(message) {
  const text = message.errorMessage;
  if (NOT_AN_OVERFLOW.some((pattern) => pattern.test(text))) return false;
  if (patterns().some((pattern) => pattern.test(text))) return true;
  return message.provider === "cerebras" && CEREBRAS_BODYLESS_REJECTION.test(text);
}

/**
 * True when `message` (an assistant message) failed or was cut because the
 * context was too long. With `contextWindow`, also a successful answer whose
 * prompt exceeded it, and a length stop with no output whose prompt filled it.
 */
export function isContextOverflow(message, contextWindow) {
  if (message.stopReason === "error" && message.errorMessage && errorSaysOverflow(message)) return true;
  if (!contextWindow) return false;
  if (message.stopReason === "stop") return promptTokens(message.usage) > contextWindow;
  if (message.stopReason === "length" && message.usage.output === 0) {
    return promptTokens(message.usage) >= contextWindow * FILLED_WINDOW;
  }
  return false;
}

/** A length stop that ended below the output the caller wanted: worth one compact-and-retry. */
export function isRecoverableLength(message, desiredMaxOutput) {
  return message.stopReason === "length" && desiredMaxOutput > 0 && message.usage.output < desiredMaxOutput;
}

/** The error texts recognized as an overflow, a fresh array each call. */
export function getOverflowPatterns() {
  return [...patterns()];
}
