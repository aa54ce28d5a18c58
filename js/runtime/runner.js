// The extension runner (R1–R6, N1–N3, W1): binds a host's actions into the
// shared runtime, answers what extensions registered, builds lazy contexts,
// and dispatches each event with its family's merge rule (E1–E11, in
// runner-events.js).
import { buildSystemPrompt, normalizeBuildSystemPromptOptions } from "pihost:pi/coding-agent/system-prompt.js";
import { currentTheme } from "pihost:pi/coding-agent/ui/theme.js";
import { ACTION_NAMES, DEFAULT_STALE_MESSAGE } from "pihost:runtime/extension-runtime.js";
import { describeError, eventFamilies } from "pihost:runtime/runner-events.js";
import {
  ArrayFromValues,
  ArrayIsArray,
  ArrayPrototypeFind,
  ArrayPrototypeIncludes,
  ArrayPrototypeMap,
  NativeMapOf,
  ObjectCreate,
  ObjectDefineProperties,
  ObjectGetOwnPropertyDescriptors,
  ObjectKeys,
  ObjectPrototype,
  PromisePrototypeFinally,
  SafeMap,
  SafeSet,
  StringPrototypeToLowerCase,
  queueMicrotask,
} from "pihost:runtime/primordials.js";

/**
 * `object`'s own property descriptors, each without a prototype: creating an
 * object from them must not read a `get`, `set` or `value` an extension put
 * on Object.prototype.
 */
function nullPrototypeDescriptors(object) {
  const descriptors = ObjectGetOwnPropertyDescriptors(object);
  const keys = ObjectKeys(descriptors);
  const copy = { __proto__: null };
  for (let index = 0; index < keys.length; index++) {
    copy[keys[index]] = { __proto__: null, ...descriptors[keys[index]] };
  }
  return copy;
}

// Extension shortcuts compete with these built-in keybindings: an extension
// may not take them (N3).
const RESERVED_KEYBINDINGS = [
  "app.interrupt",
  "app.clear",
  "app.exit",
  "app.suspend",
  "app.thinking.cycle",
  "app.model.cycleForward",
  "app.model.cycleBackward",
  "app.model.select",
  "app.tools.expand",
  "app.thinking.toggle",
  "app.editor.external",
  "app.message.copy",
  "app.message.followUp",
  "tui.input.submit",
  "tui.select.confirm",
  "tui.select.cancel",
  "tui.input.copy",
  "tui.editor.deleteToLineEnd",
];


function builtinKeybindingsByKey(resolvedKeybindings) {
  const byKey = {};
  const given = resolvedKeybindings ?? {};
  const keybindings = ObjectKeys(given);
  for (let index = 0; index < keybindings.length; index++) {
    const keybinding = keybindings[index];
    const keys = given[keybinding];
    if (keys === undefined) continue;
    const restrictOverride = ArrayPrototypeIncludes(RESERVED_KEYBINDINGS, keybinding);
    const list = ArrayIsArray(keys) ? keys : [keys];
    for (let keyIndex = 0; keyIndex < list.length; keyIndex++) {
      const normalized = StringPrototypeToLowerCase(list[keyIndex]);
      // When several actions share a key, a reserved one keeps it blocked.
      if (byKey[normalized]?.restrictOverride && !restrictOverride) continue;
      byKey[normalized] = { keybinding, restrictOverride };
    }
  }
  return byKey;
}


/** The UI of headless pi (R4): every prompt answers "nothing". */
export const noOpUIContext = {
  select: async () => undefined,
  confirm: async () => false,
  input: async () => undefined,
  notify: () => {},
  onTerminalInput: () => () => {},
  setStatus: () => {},
  setWorkingMessage: () => {},
  setWorkingVisible: () => {},
  setWorkingIndicator: () => {},
  setHiddenThinkingLabel: () => {},
  setWidget: () => {},
  setFooter: () => {},
  setHeader: () => {},
  setTitle: () => {},
  custom: async () => undefined,
  pasteToEditor: () => {},
  setEditorText: () => {},
  getEditorText: () => "",
  editor: async () => undefined,
  addAutocompleteProvider: () => {},
  setEditorComponent: () => {},
  getEditorComponent: () => undefined,
  // Headless pi still initializes its theme (print mode too), so a headless
  // ctx.ui.theme colours text as pi's does.
  get theme() {
    return currentTheme();
  },
  getAllThemes: () => [],
  getTheme: () => undefined,
  setTheme: () => ({ success: false, error: "UI not available" }),
  getToolsExpanded: () => false,
  setToolsExpanded: () => {},
};


export class ExtensionRunner {
  mode = "print";
  uiContext = noOpUIContext;
  errorListeners = new SafeSet();
  getModel = () => undefined;
  getScopedModels = () => [];
  isIdleFn = () => true;
  isProjectTrustedFn = () => true;
  getSignalFn = () => undefined;
  waitForIdleFn = async () => {};
  abortFn = () => {};
  hasPendingMessagesFn = () => false;
  getContextUsageFn = () => undefined;
  compactFn = () => {};
  getSystemPromptFn = () => "";
  getSystemPromptOptionsFn = () => normalizeBuildSystemPromptOptions({ cwd: this.cwd });
  // pi renders the prompt itself; a host may render its own (buildSystemPrompt).
  buildSystemPromptFn = (options) => buildSystemPrompt(options);
  executeToolFn = undefined;
  getCallableToolsFn = () => [];
  newSessionHandler = async () => ({ cancelled: false });
  forkHandler = async () => ({ cancelled: false });
  navigateTreeHandler = async () => ({ cancelled: false });
  switchSessionHandler = async () => ({ cancelled: false });
  reloadHandler = async () => {};
  shutdownHandler = () => {};
  shortcutDiagnostics = [];
  commandDiagnostics = [];
  staleMessage = undefined;
  /** Whether bindCore has run (pihost's W2 wrapper needs the host's active tools). */
  isBound = false;
  uiPromptDepth = 0;
  activeUIPrompt = undefined;
  /** createContext's property descriptors and the model readers they were made with. */
  contextShape = undefined;

  constructor(extensions, runtime, cwd, sessionManager, modelRegistry) {
    this.extensions = extensions;
    this.runtime = runtime;
    this.cwd = cwd;
    this.sessionManager = sessionManager;
    this.modelRegistry = modelRegistry;
    // A handler still running when its session is replaced must not report
    // into the replacement.
    this.runtime.reportError = (error) => {
      if (!this.staleMessage) this.emitError(error);
    };
  }

  /** Copies the host's actions into the shared runtime and flushes queued providers (R1, A7). */
  bindCore(actions, contextActions, providerActions) {
    const runtime = this.runtime;
    for (let index = 0; index < ACTION_NAMES.length; index++) runtime[ACTION_NAMES[index]] = actions[ACTION_NAMES[index]];
    runtime.refreshTools = actions.refreshTools;
    runtime.setModel = actions.setModel;
    runtime.createContext = () => this.createContext();
    this.isBound = true;

    this.getModel = contextActions.getModel;
    this.getScopedModels = contextActions.getScopedModels;
    this.isIdleFn = contextActions.isIdle;
    this.isProjectTrustedFn = contextActions.isProjectTrusted;
    this.getSignalFn = contextActions.getSignal;
    this.abortFn = contextActions.abort;
    this.hasPendingMessagesFn = contextActions.hasPendingMessages;
    this.shutdownHandler = contextActions.shutdown;
    this.getContextUsageFn = contextActions.getContextUsage;
    this.compactFn = contextActions.compact;
    this.getSystemPromptFn = contextActions.getSystemPrompt;
    if (contextActions.getSystemPromptOptions) this.getSystemPromptOptionsFn = contextActions.getSystemPromptOptions;
    if (contextActions.buildSystemPrompt) this.buildSystemPromptFn = contextActions.buildSystemPrompt;
    this.executeToolFn = contextActions.executeTool;
    this.getCallableToolsFn = contextActions.getCallableTools ?? (() => []);

    // Servers registered from now on reach the extension that connects them
    // at once; those registered while loading are read at session_start.
    runtime.mcpServers.setChangeListener(() => {
      void this.emit({ type: "mcp_servers_change", servers: runtime.mcpServers.list() });
      this.reportUnhandledMcpServers();
    });

    const report = (extensionPath, event, error) => this.emitError({ extensionPath, event, ...describeError(error) });
    const registry = this.modelRegistry;
    const registerProvider = (name, config) =>
      providerActions?.registerProvider ? providerActions.registerProvider(name, config) : registry?.registerProvider(name, config);
    const registerNativeProvider = (provider) =>
      providerActions?.registerNativeProvider
        ? providerActions.registerNativeProvider(provider)
        : registry?.registerProvider(provider);
    const registerVirtualModel = (definition) =>
      providerActions?.registerVirtualModel
        ? providerActions.registerVirtualModel(definition)
        : registry?.registerVirtualModel(definition);

    const pendingProviders = runtime.pendingProviderRegistrations;
    for (let index = 0; index < pendingProviders.length; index++) {
      const { name, config, extensionPath } = pendingProviders[index];
      try {
        registerProvider(name, config);
      } catch (error) {
        report(extensionPath, "register_provider", error);
      }
    }
    runtime.pendingProviderRegistrations = [];
    const pendingNativeProviders = runtime.pendingNativeProviderRegistrations;
    for (let index = 0; index < pendingNativeProviders.length; index++) {
      const { provider, extensionPath } = pendingNativeProviders[index];
      try {
        registerNativeProvider(provider);
      } catch (error) {
        report(extensionPath, "register_provider", error);
      }
    }
    runtime.pendingNativeProviderRegistrations = [];
    const pendingVirtualModels = runtime.pendingVirtualModelRegistrations;
    for (let index = 0; index < pendingVirtualModels.length; index++) {
      const { definition, extensionPath } = pendingVirtualModels[index];
      try {
        registerVirtualModel(definition);
      } catch (error) {
        report(extensionPath, "register_virtual_model", error);
      }
    }
    runtime.pendingVirtualModelRegistrations = [];

    // From now on provider changes take effect at once.
    runtime.registerProvider = registerProvider;
    runtime.registerNativeProvider = registerNativeProvider;
    runtime.unregisterProvider = (name) =>
      providerActions?.unregisterProvider ? providerActions.unregisterProvider(name) : registry?.unregisterProvider(name);
    runtime.registerVirtualModel = registerVirtualModel;
    runtime.unregisterVirtualModel = (provider, id) =>
      providerActions?.unregisterVirtualModel
        ? providerActions.unregisterVirtualModel(provider, id)
        : registry?.unregisterVirtualModel(provider, id);
  }

  bindCommandContext(actions) {
    this.waitForIdleFn = actions?.waitForIdle ?? (async () => {});
    this.newSessionHandler = actions?.newSession ?? (async () => ({ cancelled: false }));
    this.forkHandler = actions?.fork ?? (async () => ({ cancelled: false }));
    this.navigateTreeHandler = actions?.navigateTree ?? (async () => ({ cancelled: false }));
    this.switchSessionHandler = actions?.switchSession ?? (async () => ({ cancelled: false }));
    this.reloadHandler = actions?.reload ?? (async () => {});
  }

  setUIContext(uiContext, mode = "print") {
    this.uiContext = uiContext ? this.wrapUIPromptContext(uiContext) : noOpUIContext;
    this.mode = mode;
  }

  wrapUIPromptContext(ui) {
    return {
      ...ui,
      select: (title, options, opts) => this.withUIPrompt("select", title, () => ui.select(title, options, opts)),
      confirm: (title, message, opts) => this.withUIPrompt("confirm", title, () => ui.confirm(title, message, opts)),
      input: (title, placeholder, opts) => this.withUIPrompt("input", title, () => ui.input(title, placeholder, opts)),
      editor: (title, prefill) => this.withUIPrompt("editor", title, () => ui.editor(title, prefill)),
      custom: (factory, options) => this.withUIPrompt("custom", undefined, () => ui.custom(factory, options)),
    };
  }

  withUIPrompt(kind, title, run) {
    if (this.uiPromptDepth++ === 0) {
      this.activeUIPrompt = { kind, title };
      this.emitUIPromptEvent({ type: "ui_prompt_start", reason: "ui_prompt", kind, ...(title ? { title } : {}) });
    }
    const finish = () => {
      if (--this.uiPromptDepth > 0) return;
      this.uiPromptDepth = 0;
      const prompt = this.activeUIPrompt ?? { kind, title };
      this.activeUIPrompt = undefined;
      this.emitUIPromptEvent({
        type: "ui_prompt_end",
        reason: "ui_prompt",
        kind: prompt.kind,
        ...(prompt.title ? { title: prompt.title } : {}),
      });
    };
    try {
      return PromisePrototypeFinally(run(), finish);
    } catch (error) {
      finish();
      throw error;
    }
  }

  emitUIPromptEvent(event) {
    queueMicrotask(() => {
      void this.emit(event);
    });
  }

  getUIContext() {
    return this.uiContext;
  }

  hasUI() {
    return this.uiContext !== noOpUIContext;
  }

  getExtensionPaths() {
    const paths = [];
    for (let index = 0; index < this.extensions.length; index++) paths[index] = this.extensions[index].path;
    return paths;
  }

  /** The tool named `name` in getAllRegisteredTools (the first registered), without making the list. */
  findRegisteredTool(name) {
    let found;
    const match = (tool) => {
      if (found === undefined && tool.definition.name === name) found = tool;
    };
    for (let index = 0; index < this.extensions.length && found === undefined; index++) this.extensions[index].tools.forEach(match);
    return found;
  }

  /** Every registered tool; the first registration of a name wins (N1). */
  getAllRegisteredTools() {
    const tools = [];
    const names = new SafeSet();
    // One callback for every record's own (SafeMap) forEach: each tool call looks its tool up here.
    const collect = (tool) => {
      if (names.has(tool.definition.name)) return;
      names.add(tool.definition.name);
      tools[tools.length] = tool;
    };
    for (let index = 0; index < this.extensions.length; index++) this.extensions[index].tools.forEach(collect);
    return tools;
  }

  getToolDefinition(toolName) {
    for (let index = 0; index < this.extensions.length; index++) {
      const tool = this.extensions[index].tools.get(toolName);
      if (tool) return tool.definition;
    }
    return undefined;
  }

  getFlags() {
    const flags = new SafeMap();
    for (let index = 0; index < this.extensions.length; index++) {
      const registered = this.extensions[index].flags;
      for (const entry of registered) {
        if (!flags.has(entry[0])) flags.set(entry[0], entry[1]);
      }
    }
    return flags;
  }

  setFlagValue(name, value) {
    this.runtime.flagValues.set(name, value);
  }

  getFlagValues() {
    return NativeMapOf(this.runtime.flagValues);
  }

  /** Extension shortcuts by normalized key, after the built-in conflicts (N3). */
  getShortcuts(resolvedKeybindings) {
    this.shortcutDiagnostics = [];
    const builtin = builtinKeybindingsByKey(resolvedKeybindings);
    const shortcuts = new SafeMap();
    const diagnostics = this.shortcutDiagnostics;
    const warn = (message, extensionPath) => {
      diagnostics[diagnostics.length] = { type: "warning", message, path: extensionPath };
      if (!this.hasUI()) console.warn(message);
    };
    for (let index = 0; index < this.extensions.length; index++) {
      for (const entry of this.extensions[index].shortcuts) {
        const key = entry[0];
        const shortcut = entry[1];
        const normalized = StringPrototypeToLowerCase(key);
        const builtIn = builtin[normalized];
        if (builtIn?.restrictOverride === true) {
          warn(
            `Extension shortcut '${key}' from ${shortcut.extensionPath} conflicts with built-in shortcut. Skipping.`,
            shortcut.extensionPath,
          );
          continue;
        }
        if (builtIn?.restrictOverride === false) {
          warn(
            `Extension shortcut conflict: '${key}' is built-in shortcut for ${builtIn.keybinding} and ${shortcut.extensionPath}. Using ${shortcut.extensionPath}.`,
            shortcut.extensionPath,
          );
        }
        const existing = shortcuts.get(normalized);
        if (existing) {
          warn(
            `Extension shortcut conflict: '${key}' registered by both ${existing.extensionPath} and ${shortcut.extensionPath}. Using ${shortcut.extensionPath}.`,
            shortcut.extensionPath,
          );
        }
        shortcuts.set(normalized, shortcut);
      }
    }
    return shortcuts;
  }

  getShortcutDiagnostics() {
    return this.shortcutDiagnostics;
  }

  /** Makes every old ctx and pi object throw `message` (R3). */
  invalidate(message = DEFAULT_STALE_MESSAGE) {
    if (!this.staleMessage) {
      this.staleMessage = message;
      this.runtime.invalidate(message);
    }
  }

  assertActive() {
    if (this.staleMessage) throw new Error(this.staleMessage);
  }

  onError(listener) {
    this.errorListeners.add(listener);
    return () => this.errorListeners.delete(listener);
  }

  emitError(error) {
    for (const listener of this.errorListeners) listener(error);
  }

  /**
   * Reports, once each, the MCP servers registered while no extension
   * handles mcp_servers_change, so nothing connects them: after each change
   * of the registrations once bound, and after session_start (pi's session
   * calls it then; pihost's main.js after the host's session_start, and
   * reload.js after a reload's).
   */
  reportUnhandledMcpServers() {
    if (this.hasHandlers("mcp_servers_change")) return;
    this.reportedMcpServers ??= new SafeSet();
    const servers = this.runtime.mcpServers.list();
    for (let index = 0; index < servers.length; index++) {
      const server = servers[index];
      if (this.reportedMcpServers.has(server.name)) continue;
      this.reportedMcpServers.add(server.name);
      this.emitError({
        extensionPath: server.extensionPath,
        event: "register_mcp_server",
        error: `MCP server "${server.name}" is registered, but no loaded extension connects MCP servers; another extension may have replaced the built-in MCP support`,
      });
    }
  }

  hasHandlers(eventType) {
    for (let index = 0; index < this.extensions.length; index++) {
      if ((this.extensions[index].handlers.get(eventType)?.length ?? 0) > 0) return true;
    }
    return false;
  }

  getMessageRenderer(customType) {
    for (let index = 0; index < this.extensions.length; index++) {
      const renderer = this.extensions[index].messageRenderers.get(customType);
      if (renderer) return renderer;
    }
    return undefined;
  }

  getEntryRenderer(customType) {
    for (let index = 0; index < this.extensions.length; index++) {
      const renderer = this.extensions[index].entryRenderers?.get(customType);
      if (renderer) return renderer;
    }
    return undefined;
  }

  getMarkdownTransformers() {
    const transformers = [];
    for (let index = 0; index < this.extensions.length; index++) {
      const registered = this.extensions[index].markdownTransformer;
      if (!registered) continue;
      const { transformer, messageTypes } = registered;
      transformers[transformers.length] = (markdown, context) =>
        messageTypes.has(context.messageType) ? transformer(markdown, context) : markdown;
    }
    return transformers;
  }

  resolveToolRenderers(toolName, base) {
    const resolvers = [];
    for (let index = 0; index < this.extensions.length; index++) {
      const registered = this.extensions[index].toolRenderers ?? [];
      for (let position = 0; position < registered.length; position++) resolvers[resolvers.length] = registered[position];
    }
    const resolve = (index) => (index < resolvers.length ? resolvers[index](toolName, () => resolve(index + 1)) : base());
    return resolve(0);
  }

  /** Commands with invocation names; a shared name becomes name:1, name:2, … (N2). */
  resolveRegisteredCommands() {
    const commands = [];
    const counts = new SafeMap();
    for (let index = 0; index < this.extensions.length; index++) {
      const registered = ArrayFromValues(this.extensions[index].commands);
      for (let position = 0; position < registered.length; position++) {
        const command = registered[position];
        commands[commands.length] = command;
        counts.set(command.name, (counts.get(command.name) ?? 0) + 1);
      }
    }
    const seen = new SafeMap();
    const taken = new SafeSet();
    return ArrayPrototypeMap(commands, (command) => {
      const occurrence = (seen.get(command.name) ?? 0) + 1;
      seen.set(command.name, occurrence);
      let invocationName = (counts.get(command.name) ?? 0) > 1 ? `${command.name}:${occurrence}` : command.name;
      if (taken.has(invocationName)) {
        let suffix = occurrence;
        do {
          suffix++;
          invocationName = `${command.name}:${suffix}`;
        } while (taken.has(invocationName));
      }
      taken.add(invocationName);
      return { ...command, invocationName };
    });
  }

  getRegisteredCommands() {
    this.commandDiagnostics = [];
    return this.resolveRegisteredCommands();
  }

  getCommandDiagnostics() {
    return this.commandDiagnostics;
  }

  getCommand(name) {
    return ArrayPrototypeFind(this.resolveRegisteredCommands(), (command) => command.invocationName === name);
  }

  getModelRegistry() {
    return this.modelRegistry;
  }

  shutdown() {
    this.shutdownHandler();
  }

  getActiveTools() {
    this.assertActive();
    return this.runtime.getActiveTools();
  }

  /**
   * A context for one event whose every property reads the runner's state
   * when used (R1, R2): own getters and methods in pi's order, as pi's
   * object literal has them. They depend only on the runner and the
   * model readers the context is made with, so the functions are made once
   * per pair of readers and every context gets the same ones: a literal of
   * 19 new functions per event is a measurable part of each dispatch on
   * this engine.
   */
  createContext() {
    let shape = this.contextShape;
    if (shape === undefined || shape.getModel !== this.getModel || shape.getScopedModels !== this.getScopedModels) {
      shape = {
        getModel: this.getModel,
        getScopedModels: this.getScopedModels,
        descriptors: nullPrototypeDescriptors(this.contextPropertiesLiteral()),
      };
      this.contextShape = shape;
    }
    return ObjectCreate(ObjectPrototype, shape.descriptors);
  }

  /** The properties every context has, with the model readers of now. */
  contextPropertiesLiteral() {
    const runner = this;
    const getModel = this.getModel;
    const getScopedModels = this.getScopedModels;
    const guarded = (read) => {
      runner.assertActive();
      return read();
    };
    return {
      get ui() {
        return guarded(() => runner.uiContext);
      },
      get mode() {
        return guarded(() => runner.mode);
      },
      get hasUI() {
        return guarded(() => runner.hasUI());
      },
      get cwd() {
        return guarded(() => runner.cwd);
      },
      get sessionManager() {
        return guarded(() => runner.sessionManager);
      },
      get modelRegistry() {
        return guarded(() => runner.modelRegistry);
      },
      get model() {
        return guarded(() => getModel());
      },
      get scopedModels() {
        return guarded(() => getScopedModels());
      },
      get thinkingLevel() {
        return guarded(() => runner.runtime.getThinkingLevel());
      },
      isIdle: () => guarded(() => runner.isIdleFn()),
      isProjectTrusted: () => guarded(() => runner.isProjectTrustedFn()),
      get signal() {
        return guarded(() => runner.getSignalFn());
      },
      abort: () => guarded(() => void runner.abortFn()),
      hasPendingMessages: () => guarded(() => runner.hasPendingMessagesFn()),
      shutdown: () => guarded(() => void runner.shutdownHandler()),
      getContextUsage: () => guarded(() => runner.getContextUsageFn()),
      compact: (options) => guarded(() => void runner.compactFn(options)),
      getSystemPrompt: () => guarded(() => runner.getSystemPromptFn()),
    };
  }

  /** The context of one tool call: a fresh context plus `tools` and `executeTool` (R5, W1). */
  createToolContext(toolCallId, signal) {
    const runner = this;
    // Descriptors without a prototype: what an extension put on
    // Object.prototype (`get`, `value`) must not become part of them.
    return ObjectDefineProperties(this.createContext(), {
      __proto__: null,
      tools: {
        __proto__: null,
        get() {
          runner.assertActive();
          return runner.getCallableToolsFn();
        },
      },
      executeTool: {
        __proto__: null,
        value: async (name, args, options = {}) => {
          runner.assertActive();
          if (!runner.executeToolFn) {
            return {
              toolCall: { type: "toolCall", id: `${toolCallId}/0`, name, arguments: {} },
              result: { content: [{ type: "text", text: "Nested tool calls are not available in this context" }], details: {} },
              isError: true,
            };
          }
          // Awaited here: returning the host's promise would look up its `then`.
          return await runner.executeToolFn(toolCallId, name, args, { ...options, signal: options.signal ?? signal });
        },
      },
    });
  }

  /**
   * A command context: a fresh context's properties (never a spread, R2:
   * pi copies their descriptors to a new object, which is what a fresh
   * context already is) plus session actions.
   */
  createCommandContext() {
    const context = this.createContext();
    const guarded = (run) => {
      this.assertActive();
      return run();
    };
    context.getSystemPromptOptions = () => guarded(() => this.getSystemPromptOptionsFn());
    context.waitForIdle = () => guarded(() => this.waitForIdleFn());
    context.newSession = (options) => guarded(() => this.newSessionHandler(options));
    context.fork = (entryId, options) => guarded(() => this.forkHandler(entryId, options));
    context.navigateTree = (targetId, options) => guarded(() => this.navigateTreeHandler(targetId, options));
    context.switchSession = (sessionPath, options) => guarded(() => this.switchSessionHandler(sessionPath, options));
    context.reload = () => guarded(() => this.reloadHandler());
    return context;
  }

  reportHandlerError(extension, event, error) {
    this.emitError({ extensionPath: extension.path, event, ...describeError(error) });
  }

}

// The event families' merge rules live in runner-events.js; they are the
// runner's methods (pi's ExtensionRunner has them as methods), installed as
// class methods are: not enumerable.
{
  const families = ObjectGetOwnPropertyDescriptors(eventFamilies);
  const names = ObjectKeys(families);
  for (let index = 0; index < names.length; index++) families[names[index]].enumerable = false;
  ObjectDefineProperties(ExtensionRunner.prototype, families);
}

export { emitProjectTrustEvent } from "pihost:runtime/runner-events.js";
