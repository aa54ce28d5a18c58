// The results pi-ai's Models give for an image generation or a
// classification that failed before a provider answered: the model's
// origin, nothing produced, "error" (or "aborted") and the reason.

function failedOperation(model, error, aborted) {
  return {
    api: model.api,
    provider: model.provider,
    model: model.id,
    stopReason: aborted ? "aborted" : "error",
    errorMessage: error instanceof Error ? error.message : String(error),
    timestamp: Date.now(),
  };
}

/** The result of an image generation that failed before the provider answered. */
export function failedImages(model, error, aborted = false) {
  const { stopReason, errorMessage, timestamp, ...origin } = failedOperation(model, error, aborted);
  return { ...origin, output: [], stopReason, errorMessage, timestamp };
}

/** The result of a classification that failed before the provider answered. */
export function failedClassification(model, error, aborted = false) {
  const { stopReason, errorMessage, timestamp, ...origin } = failedOperation(model, error, aborted);
  return { ...origin, answers: {}, stopReason, errorMessage, timestamp };
}
