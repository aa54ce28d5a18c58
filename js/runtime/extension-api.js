// The `pi` object each extension's factory receives (A1–A9). Registration
// methods write only into the extension's own record; action methods forward
// to the shared runtime. Loading is two-phase (A6): registrations that touch
// shared state queue until the factory resolves, then commit or discard.
import { execCommand } from "pihost:runtime/exec.js";
import { ops } from "pihost:runtime/ops.js";
import { enterExtension } from "pihost:runtime/entries.js";
import { noteHandlersChanged } from "pihost:runtime/handler-snapshots.js";
import { validateMcpServerConfig } from "pihost:pi/coding-agent/mcp-servers.js";
import {
  ArrayFromEntries,
  ArrayIsArray,
  ArrayPrototypeFind,
  ArrayPrototypeIndexOf,
  ArrayPrototypeSplice,
  SafeMap,
  SafeSet,
  StringPrototypeReplace,
  StructuredClone,
} from "pihost:runtime/primordials.js";

const DEFAULT_MARKDOWN_MESSAGE_TYPES = ["user", "assistant", "assistant-thinking"];

/** A new, empty record of what one extension registers. */
export function createExtensionRecord(path, resolvedPath) {
  return {
    path,
    resolvedPath,
    sourceInfo: { path, source: "local", baseDir: StringPrototypeReplace(resolvedPath, /\/[^/]*$/, "") || "/" },
    // SafeMaps: the runner reads them for every event, after extensions ran.
    handlers: new SafeMap(),
    tools: new SafeMap(),
    messageRenderers: new SafeMap(),
    entryRenderers: new SafeMap(),
    commands: new SafeMap(),
    flags: new SafeMap(),
    shortcuts: new SafeMap(),
  };
}

function isPlainObjectRecord(value) {
  return typeof value === "object" && value !== null && !ArrayIsArray(value);
}

/** `sessionId`: the session of pihost's runtime the extension is loaded for. */
export function createExtensionAPI(extension, runtime, cwd, eventBus, sessionId = 0) {
  const pendingFlagValues = new SafeMap();
  const pendingRuntimeChanges = [];
  const loadingUnsubscribers = [];
  let state = "loading";

  const assertActive = () => {
    if (state === "failed") {
      throw new Error(`Extension "${extension.path}" failed to load and its API is no longer active.`);
    }
    runtime.assertActive();
  };
  const applyRuntimeChange = (change) => {
    if (state === "loading") pendingRuntimeChanges[pendingRuntimeChanges.length] = change;
    else change();
  };
  const clearPending = () => {
    pendingFlagValues.clear();
    pendingRuntimeChanges.length = 0;
    loadingUnsubscribers.length = 0;
  };

  const api = {
    on(event, handler) {
      assertActive();
      // A fresh wrapper per registration, so registering one function twice
      // gives two entries and each unsubscribe removes its own.
      const owner = { __proto__: null, path: extension.path, session: sessionId, where: `in its "${event}" handler`, event: String(event) };
      const registered = (...args) => enterExtension(owner, handler, args);
      const list = extension.handlers.get(event) ?? [];
      list[list.length] = registered;
      extension.handlers.set(event, list);
      noteHandlersChanged();
      // Rust keeps a count per event so an event nobody handles is answered
      // without entering the isolate (H3).
      ops.op_pihost_handler_count(sessionId, String(event), 1);
      return () => {
        const handlers = extension.handlers.get(event);
        if (!handlers) return;
        const index = ArrayPrototypeIndexOf(handlers, registered);
        if (index === -1) return;
        ArrayPrototypeSplice(handlers, index, 1);
        noteHandlersChanged();
        ops.op_pihost_handler_count(sessionId, String(event), -1);
        if (handlers.length === 0) extension.handlers.delete(event);
      };
    },

    registerTool(tool) {
      assertActive();
      if (!isPlainObjectRecord(tool.parameters)) {
        throw new Error(
          `Tool "${tool.name}" registered by extension "${extension.path}" must define an object parameter schema.`,
        );
      }
      extension.tools.set(tool.name, { definition: tool, sourceInfo: extension.sourceInfo });
      runtime.refreshTools();
    },

    registerCommand(name, options) {
      assertActive();
      if (typeof name !== "string" || name.length === 0) {
        throw new Error(
          `Command registered by extension "${extension.path}" must have a non-empty string name. Use pi.registerCommand("name", { description, handler }).`,
        );
      }
      if (typeof options?.handler !== "function") {
        throw new Error(`Command "/${name}" registered by extension "${extension.path}" must define handler().`);
      }
      extension.commands.set(name, { name, sourceInfo: extension.sourceInfo, ...options });
    },

    registerShortcut(shortcut, options) {
      assertActive();
      extension.shortcuts.set(shortcut, { shortcut, extensionPath: extension.path, ...options });
    },

    registerFlag(name, options) {
      assertActive();
      if (options.default !== undefined && typeof options.default !== options.type) {
        throw new Error(`Invalid default for flag "${name}": expected ${options.type}, got ${typeof options.default}`);
      }
      extension.flags.set(name, { name, extensionPath: extension.path, ...options });
      if (options.default !== undefined && !runtime.flagValues.has(name)) {
        if (state === "loading") {
          if (!pendingFlagValues.has(name)) pendingFlagValues.set(name, options.default);
        } else {
          runtime.flagValues.set(name, options.default);
        }
      }
    },

    registerMessageRenderer(customType, renderer) {
      assertActive();
      extension.messageRenderers.set(customType, renderer);
    },

    registerMarkdownTransformer(transformer, options) {
      assertActive();
      extension.markdownTransformer = {
        transformer,
        messageTypes: new SafeSet(options?.messageTypes ?? DEFAULT_MARKDOWN_MESSAGE_TYPES),
      };
    },

    registerEntryRenderer(customType, renderer) {
      assertActive();
      extension.entryRenderers ??= new SafeMap();
      extension.entryRenderers.set(customType, renderer);
    },

    registerToolRenderer(resolver) {
      assertActive();
      extension.toolRenderers ??= [];
      extension.toolRenderers[extension.toolRenderers.length] = resolver;
    },

    getFlag(name) {
      assertActive();
      if (!extension.flags.has(name)) return undefined;
      return runtime.flagValues.has(name) ? runtime.flagValues.get(name) : pendingFlagValues.get(name);
    },

    sendMessage(message, options) {
      assertActive();
      runtime.sendMessage(message, options);
    },
    sendUserMessage(content, options) {
      assertActive();
      runtime.sendUserMessage(content, options);
    },
    appendEntry(customType, data) {
      assertActive();
      runtime.appendEntry(customType, data);
    },
    setSessionName(name) {
      assertActive();
      runtime.setSessionName(name);
    },
    getSessionName() {
      assertActive();
      return runtime.getSessionName();
    },
    setLabel(entryId, label) {
      assertActive();
      runtime.setLabel(entryId, label);
    },
    exec(command, args, options) {
      assertActive();
      return execCommand(command, args, options?.cwd ?? cwd, options);
    },
    getActiveTools() {
      assertActive();
      return runtime.getActiveTools();
    },
    getAllTools() {
      assertActive();
      return runtime.getAllTools();
    },
    getSettings() {
      assertActive();
      return runtime.getSettings();
    },
    setActiveTools(toolNames) {
      assertActive();
      runtime.setActiveTools(toolNames);
    },
    getCommands() {
      assertActive();
      return runtime.getCommands();
    },
    setModel(model) {
      assertActive();
      return runtime.setModel(model);
    },
    getThinkingLevel() {
      assertActive();
      return runtime.getThinkingLevel();
    },
    setThinkingLevel(level) {
      assertActive();
      runtime.setThinkingLevel(level);
    },

    registerProvider(providerOrName, config) {
      assertActive();
      if (typeof providerOrName === "string") {
        if (!config) throw new Error("Provider config is required when registering by name");
        applyRuntimeChange(() => runtime.registerProvider(providerOrName, config, extension.path));
        return;
      }
      applyRuntimeChange(() => runtime.registerNativeProvider(providerOrName, extension.path));
    },
    unregisterProvider(name) {
      assertActive();
      applyRuntimeChange(() => runtime.unregisterProvider(name, extension.path));
    },

    registerMcpServer(name, config) {
      assertActive();
      const validated = validateMcpServerConfig(name, config);
      if (typeof validated === "string") {
        throw new Error(`Invalid MCP server registered by extension "${extension.path}": ${validated}`);
      }
      const owner = runtime.mcpServers.get(name)?.extensionPath;
      if (owner !== undefined && owner !== extension.path) {
        throw new Error(`MCP server "${name}" is already registered by extension "${owner}"`);
      }
      const namespace = (serverName) => StringPrototypeReplace(serverName, /-/g, "_");
      const clash = ArrayPrototypeFind(
        runtime.mcpServers.list(),
        (server) => server.name !== name && namespace(server.name) === namespace(name),
      );
      if (clash) throw new Error(`MCP server "${name}" conflicts with registered server "${clash.name}"`);
      const server = { name, config: StructuredClone(validated), extensionPath: extension.path };
      applyRuntimeChange(() => runtime.mcpServers.register(server));
    },
    unregisterMcpServer(name) {
      assertActive();
      applyRuntimeChange(() => runtime.mcpServers.unregister(name, extension.path));
    },
    getMcpServers() {
      assertActive();
      return runtime.mcpServers.list();
    },

    registerVirtualModel(model) {
      assertActive();
      // Routing happens after binding, so each request gets a fresh context.
      const definition = { ...model, route: (request) => model.route(request, runtime.createContext()) };
      applyRuntimeChange(() => runtime.registerVirtualModel(definition, extension.path));
    },
    unregisterVirtualModel(provider, id) {
      assertActive();
      applyRuntimeChange(() => runtime.unregisterVirtualModel(provider, id));
    },

    events: {
      emit(channel, data) {
        assertActive();
        eventBus.emit(channel, data);
      },
      on(channel, handler) {
        assertActive();
        // Reported like any extension error instead of printed by the bus.
        const reporting = async (data) => {
          try {
            await handler(data);
          } catch (error) {
            runtime.reportError({
              extensionPath: extension.path,
              event: `events:${channel}`,
              error: error instanceof Error ? error.message : String(error),
              stack: error instanceof Error ? error.stack : undefined,
            });
          }
        };
        const unsubscribe = runtime.trackEventBusSubscription(eventBus.on(channel, reporting));
        if (state === "loading") loadingUnsubscribers[loadingUnsubscribers.length] = unsubscribe;
        return unsubscribe;
      },
    },
  };

  return {
    api,
    commit() {
      if (state !== "loading") return;
      runtime.assertActive();
      const flagValues = ArrayFromEntries(pendingFlagValues);
      for (let index = 0; index < flagValues.length; index++) {
        const name = flagValues[index][0];
        if (!runtime.flagValues.has(name)) runtime.flagValues.set(name, flagValues[index][1]);
      }
      for (let index = 0; index < pendingRuntimeChanges.length; index++) pendingRuntimeChanges[index]();
      state = "active";
      clearPending();
    },
    discard() {
      if (state !== "loading") return;
      state = "failed";
      for (let index = 0; index < loadingUnsubscribers.length; index++) loadingUnsubscribers[index]();
      clearPending();
    },
  };
}

