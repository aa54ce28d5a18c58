// Diagnostics an assistant message carries about failures along the way
// (a provider error, a thrown hook), as plain data that survives a session
// file: whatever was thrown, reduced to a name, a message, a stack and a code.

/** A thrown value as one line of text: an error's message (its name when the message is empty), else String(value). */
export function formatThrownValue(value) {
  if (value instanceof Error) return value.message || value.name;
  return typeof value === "string" ? value : String(value);
}

/**
 * The parts of a thrown value worth keeping. Anything that is not an Error
 * is a "ThrownValue"; a code is kept only when it is a string or a number.
 */
export function extractDiagnosticError(error) {
  if (!(error instanceof Error)) return { name: "ThrownValue", message: formatThrownValue(error) };
  const { code } = error;
  return {
    name: error.name || undefined,
    message: error.message || error.name,
    stack: error.stack,
    code: typeof code === "string" || typeof code === "number" ? code : undefined,
  };
}

/** A diagnostic of `type`, stamped now. */
export function createAssistantMessageDiagnostic(type, error, details) {
  return { type, timestamp: Date.now(), error: extractDiagnosticError(error), details };
}

/** Adds `diagnostic` to the message's list; the list is replaced, never changed in place, so earlier copies keep theirs. */
export function appendAssistantMessageDiagnostic(message, diagnostic) {
  message.diagnostics = [...(message.diagnostics ?? []), diagnostic];
}
