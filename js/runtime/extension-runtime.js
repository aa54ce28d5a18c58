// The one runtime every extension's API object shares (A2, A7, R3). Until a
// host binds it, action methods throw and provider registrations queue.

export const NOT_INITIALIZED_MESSAGE =
  "Extension runtime not initialized. Action methods cannot be called during extension loading.";

export const DEFAULT_STALE_MESSAGE =
  "This extension ctx is stale after session replacement or reload. Do not use a captured pi or command ctx after ctx.newSession(), ctx.fork(), ctx.switchSession(), or ctx.reload(). For newSession, fork, and switchSession, move post-replacement work into withSession and use the ctx passed to withSession. For reload, do not use the old ctx after await ctx.reload().";

/** Names of the actions a host replaces when it binds (A2). */
export const ACTION_NAMES = [
  "sendMessage",
  "sendUserMessage",
  "appendEntry",
  "setSessionName",
  "getSessionName",
  "setLabel",
  "getActiveTools",
  "getAllTools",
  "getSettings",
  "setActiveTools",
  "getCommands",
  "getThinkingLevel",
  "setThinkingLevel",
];

function throwNotInitialized() {
  throw new Error(NOT_INITIALIZED_MESSAGE);
}

/** Registered MCP servers, keyed by name, each remembering its extension. */
class McpServerRegistry {
  #servers = new Map();
  get(name) {
    return this.#servers.get(name);
  }
  list() {
    return [...this.#servers.values()];
  }
  register(server) {
    this.#servers.set(server.name, server);
  }
  unregister(name, extensionPath) {
    const server = this.#servers.get(name);
    if (server && (extensionPath === undefined || server.extensionPath === extensionPath)) {
      this.#servers.delete(name);
    }
  }
}

export function createExtensionRuntime() {
  let staleMessage;
  const eventBusUnsubscribers = new Set();

  const runtime = {
    refreshTools() {
      // registerTool() is legal while loading; only a bound host needs refreshing (A3).
    },
    setModel: () => Promise.reject(new Error("Extension runtime not initialized")),
    createContext: throwNotInitialized,
    flagValues: new Map(),
    pendingProviderRegistrations: [],
    pendingNativeProviderRegistrations: [],
    pendingVirtualModelRegistrations: [],
    mcpServers: new McpServerRegistry(),

    assertActive() {
      if (staleMessage) throw new Error(staleMessage);
    },
    get staleMessage() {
      return staleMessage;
    },
    invalidate(message) {
      if (staleMessage) return;
      staleMessage = message ?? DEFAULT_STALE_MESSAGE;
      for (const unsubscribe of [...eventBusUnsubscribers]) unsubscribe();
      eventBusUnsubscribers.clear();
    },
    trackEventBusSubscription(unsubscribe) {
      let active = true;
      const tracked = () => {
        if (!active) return;
        active = false;
        eventBusUnsubscribers.delete(tracked);
        unsubscribe();
      };
      eventBusUnsubscribers.add(tracked);
      return tracked;
    },
    // Replaced by the runner; before that there is nobody to tell.
    reportError() {},

    // Before binding, providers queue (A7); binding swaps in direct calls.
    registerProvider(name, config, extensionPath = "<unknown>") {
      runtime.pendingProviderRegistrations.push({ name, config, extensionPath });
    },
    registerNativeProvider(provider, extensionPath = "<unknown>") {
      runtime.pendingNativeProviderRegistrations.push({ provider, extensionPath });
    },
    unregisterProvider(name) {
      runtime.pendingProviderRegistrations = runtime.pendingProviderRegistrations.filter(
        (registration) => registration.name !== name,
      );
      runtime.pendingNativeProviderRegistrations = runtime.pendingNativeProviderRegistrations.filter(
        (registration) => registration.provider.id !== name,
      );
    },
    registerVirtualModel(definition, extensionPath = "<unknown>") {
      runtime.pendingVirtualModelRegistrations.push({ definition, extensionPath });
    },
    unregisterVirtualModel(provider, id) {
      runtime.pendingVirtualModelRegistrations = runtime.pendingVirtualModelRegistrations.filter(
        ({ definition }) => definition.provider !== provider || definition.id !== id,
      );
    },
  };
  for (const name of ACTION_NAMES) runtime[name] = throwNotInitialized;
  return runtime;
}
