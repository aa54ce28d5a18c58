// Cleanups pi-ai runs when a session ends: providers that keep state per
// session id (a connection, a cache) register one and drop that state when
// cleanupSessionResources(sessionId) runs.
const cleanups = new Set();

/** Adds a cleanup; the function returned removes it again. */
export function registerSessionResourceCleanup(cleanup) {
  cleanups.add(cleanup);
  return () => {
    cleanups.delete(cleanup);
  };
}

/** Runs every cleanup for the session; one that throws does not stop the others, and all failures are thrown together. */
export function cleanupSessionResources(sessionId) {
  const errors = [];
  for (const cleanup of cleanups) {
    try {
      cleanup(sessionId);
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length > 0) throw new AggregateError(errors, "Failed to cleanup session resources");
}
