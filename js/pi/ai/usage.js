// The usage of a message that used nothing: what pi-ai puts on partial,
// failed and scripted messages. A fresh object each time, so callers that
// must share one (pi's faux messages do) keep theirs in a constant.

export function emptyUsage() {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}
