// The error a Models collection and its providers throw, with a code naming
// the stage that failed ("auth", "oauth", "provider", "stream",
// "model_source"). Callers tend to show only `message`, so a cause's own
// text is appended to it.
import { formatThrownValue } from "./diagnostics.js";

function messageWithCause(message, cause) {
  if (cause === undefined || cause === null) return message;
  const detail = formatThrownValue(cause).trim();
  if (detail === "" || message.includes(detail)) return message;
  return `${message}: ${detail}`;
}

export class ModelsError extends Error {
  code;

  constructor(code, message, options) {
    super(messageWithCause(message, options?.cause), options);
    this.name = "ModelsError";
    this.code = code;
  }
}
