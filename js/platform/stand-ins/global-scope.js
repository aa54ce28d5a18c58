// pihost's stand-in for deno_runtime's global scope table, of which
// deno_node's `node:console` reads one entry: the global console.
export const windowOrWorkerGlobalScope = {
  console: {
    get: () => globalThis.console,
    enumerable: false,
    configurable: true,
  },
};
