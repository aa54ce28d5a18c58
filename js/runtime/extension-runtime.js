// The one runtime every extension's API object shares (A2, A7, R3), and
// pi-coding-agent's createExtensionRuntime: until a runner binds it, action
// methods throw (extensions may only register while loading), provider and
// virtual model registrations queue until a model registry exists, and
// invalidate() marks every captured API stale after a session is replaced.
// Its keys and their order are pi's (the pi-packages goldens compare them).
import {
  ArrayFromValues,
  ArrayPrototypeFilter,
  ArrayPrototypeMap,
  PromiseReject,
  SafeMap,
  SafeSet,
  StructuredClone,
} from "./primordials.js";

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

/** The MCP servers extensions registered, in registration order; the runner listens for changes. */
class McpServerRegistry {
  servers = new SafeMap();
  changeListener;

  register(server) {
    this.servers.set(server.name, server);
    this.changeListener?.();
  }

  /** Only the extension that registered a server may remove it. */
  unregister(name, extensionPath) {
    if (this.servers.get(name)?.extensionPath !== extensionPath) return;
    this.servers.delete(name);
    this.changeListener?.();
  }

  get(name) {
    return this.servers.get(name);
  }

  /** Copies, so a caller cannot change a registered config. */
  list() {
    return ArrayPrototypeMap(ArrayFromValues(this.servers), (server) => ({ ...server, config: StructuredClone(server.config) }));
  }

  setChangeListener(listener) {
    this.changeListener = listener;
  }
}

export function createExtensionRuntime() {
  const notInitialized = () => {
    throw new Error(NOT_INITIALIZED_MESSAGE);
  };
  let staleMessage;
  const eventBusUnsubscribers = new SafeSet();
  const runtime = {
    sendMessage: notInitialized,
    sendUserMessage: notInitialized,
    appendEntry: notInitialized,
    setSessionName: notInitialized,
    getSessionName: notInitialized,
    setLabel: notInitialized,
    getActiveTools: notInitialized,
    getAllTools: notInitialized,
    getSettings: notInitialized,
    setActiveTools: notInitialized,
    // Registering tools is allowed while loading; only a bound runner has tools to refresh.
    refreshTools: () => {},
    getCommands: notInitialized,
    setModel: () => PromiseReject(new Error("Extension runtime not initialized")),
    getThinkingLevel: notInitialized,
    setThinkingLevel: notInitialized,
    flagValues: new SafeMap(),
    pendingProviderRegistrations: [],
    pendingNativeProviderRegistrations: [],
    mcpServers: new McpServerRegistry(),
    pendingVirtualModelRegistrations: [],
    createContext: notInitialized,
    assertActive: () => {
      if (staleMessage) throw new Error(staleMessage);
    },
    invalidate: (message) => {
      if (staleMessage) return;
      staleMessage = message ?? DEFAULT_STALE_MESSAGE;
      for (const unsubscribe of eventBusUnsubscribers) unsubscribe();
      eventBusUnsubscribers.clear();
    },
    /** An unsubscribe that runs at most once, and runs by itself when the runtime goes stale. */
    trackEventBusSubscription: (unsubscribe) => {
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
    // Nobody can show an error before the runner exists; it replaces this.
    reportError: () => {},
    registerProvider: (name, config, extensionPath = "<unknown>") => {
      const pending = runtime.pendingProviderRegistrations;
      pending[pending.length] = { name, config, extensionPath };
    },
    registerNativeProvider: (provider, extensionPath = "<unknown>") => {
      const pending = runtime.pendingNativeProviderRegistrations;
      pending[pending.length] = { provider, extensionPath };
    },
    unregisterProvider: (name) => {
      runtime.pendingProviderRegistrations = ArrayPrototypeFilter(runtime.pendingProviderRegistrations, (entry) => entry.name !== name);
      runtime.pendingNativeProviderRegistrations = ArrayPrototypeFilter(
        runtime.pendingNativeProviderRegistrations,
        (entry) => entry.provider.id !== name,
      );
    },
    registerVirtualModel: (definition, extensionPath = "<unknown>") => {
      const pending = runtime.pendingVirtualModelRegistrations;
      pending[pending.length] = { definition, extensionPath };
    },
    unregisterVirtualModel: (provider, id) => {
      runtime.pendingVirtualModelRegistrations = ArrayPrototypeFilter(
        runtime.pendingVirtualModelRegistrations,
        ({ definition }) => definition.provider !== provider || definition.id !== id,
      );
    },
  };
  return runtime;
}
