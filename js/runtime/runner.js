// The extension runner (R1–R6, E1–E11, N1–N3, W1): binds a host's actions
// into the shared runtime, builds lazy contexts, and dispatches each event
// with its own merge rule. Merge rules live here, in JS, where object
// identity (E6) and in-place mutation (E8) mean what they mean in pi.
import { getCurrentSystemMessage } from "pihost:pi/ai/system-messages.js";
import { buildSystemPrompt, normalizeBuildSystemPromptOptions } from "pihost:pi/coding-agent/system-prompt.js";
import { currentTheme } from "pihost:pi/coding-agent/ui/theme.js";
import { ACTION_NAMES, DEFAULT_STALE_MESSAGE } from "pihost:runtime/extension-runtime.js";

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

const SESSION_BEFORE_EVENTS = new Set([
  "session_before_switch",
  "session_before_fork",
  "session_before_compact",
  "session_before_tree",
]);

function builtinKeybindingsByKey(resolvedKeybindings) {
  const byKey = {};
  for (const [keybinding, keys] of Object.entries(resolvedKeybindings ?? {})) {
    if (keys === undefined) continue;
    const restrictOverride = RESERVED_KEYBINDINGS.includes(keybinding);
    for (const key of Array.isArray(keys) ? keys : [keys]) {
      const normalized = key.toLowerCase();
      // When several actions share a key, a reserved one keeps it blocked.
      if (byKey[normalized]?.restrictOverride && !restrictOverride) continue;
      byKey[normalized] = { keybinding, restrictOverride };
    }
  }
  return byKey;
}

function isUserBashResult(value) {
  if (typeof value !== "object" || value === null) return false;
  const hasOperations = value.operations !== undefined;
  const hasResult = value.result !== undefined;
  if (hasOperations === hasResult) return false;
  if (hasOperations) {
    return typeof value.operations === "object" && value.operations !== null && typeof value.operations.exec === "function";
  }
  const result = value.result;
  if (typeof result !== "object" || result === null) return false;
  return (
    typeof result.output === "string" &&
    "exitCode" in result &&
    (result.exitCode === undefined || typeof result.exitCode === "number") &&
    typeof result.cancelled === "boolean" &&
    typeof result.truncated === "boolean" &&
    (result.fullOutputPath === undefined || typeof result.fullOutputPath === "string")
  );
}

/** Each extension with a copy of its handlers for `event` (E1). */
function snapshotHandlers(extensions, event) {
  return extensions.map((extension) => ({ extension, handlers: extension.handlers.get(event)?.slice() ?? [] }));
}

function sameMessages(left, right) {
  return left.length === right.length && left.every((message, index) => message === right[index]);
}

function describeError(error) {
  return {
    error: error instanceof Error ? error.message : String(error),
    stack: error instanceof Error ? error.stack : undefined,
  };
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

/** Joins the project trust answers of every extension (E9). */
export async function emitProjectTrustEvent(extensions, event, ctx) {
  const errors = [];
  for (const { extension, handlers } of snapshotHandlers(extensions, "project_trust")) {
    for (const handler of handlers) {
      try {
        const result = await handler(event, ctx);
        if (result.trusted === "undecided") continue;
        return { result, errors };
      } catch (error) {
        errors.push({ extensionPath: extension.path, event: event.type, ...describeError(error) });
      }
    }
  }
  return { errors };
}

export class ExtensionRunner {
  mode = "print";
  uiContext = noOpUIContext;
  errorListeners = new Set();
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
    for (const name of [...ACTION_NAMES, "refreshTools", "setModel"]) {
      runtime[name] = actions[name];
    }
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

    for (const { name, config, extensionPath } of runtime.pendingProviderRegistrations) {
      try {
        registerProvider(name, config);
      } catch (error) {
        report(extensionPath, "register_provider", error);
      }
    }
    runtime.pendingProviderRegistrations = [];
    for (const { provider, extensionPath } of runtime.pendingNativeProviderRegistrations) {
      try {
        registerNativeProvider(provider);
      } catch (error) {
        report(extensionPath, "register_provider", error);
      }
    }
    runtime.pendingNativeProviderRegistrations = [];
    for (const { definition, extensionPath } of runtime.pendingVirtualModelRegistrations) {
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
      return run().finally(finish);
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
    return this.extensions.map((extension) => extension.path);
  }

  /** Every registered tool; the first registration of a name wins (N1). */
  getAllRegisteredTools() {
    const byName = new Map();
    for (const extension of this.extensions) {
      for (const tool of extension.tools.values()) {
        if (!byName.has(tool.definition.name)) byName.set(tool.definition.name, tool);
      }
    }
    return [...byName.values()];
  }

  getToolDefinition(toolName) {
    for (const extension of this.extensions) {
      const tool = extension.tools.get(toolName);
      if (tool) return tool.definition;
    }
    return undefined;
  }

  getFlags() {
    const flags = new Map();
    for (const extension of this.extensions) {
      for (const [name, flag] of extension.flags) {
        if (!flags.has(name)) flags.set(name, flag);
      }
    }
    return flags;
  }

  setFlagValue(name, value) {
    this.runtime.flagValues.set(name, value);
  }

  getFlagValues() {
    return new Map(this.runtime.flagValues);
  }

  /** Extension shortcuts by normalized key, after the built-in conflicts (N3). */
  getShortcuts(resolvedKeybindings) {
    this.shortcutDiagnostics = [];
    const builtin = builtinKeybindingsByKey(resolvedKeybindings);
    const shortcuts = new Map();
    const warn = (message, extensionPath) => {
      this.shortcutDiagnostics.push({ type: "warning", message, path: extensionPath });
      if (!this.hasUI()) console.warn(message);
    };
    for (const extension of this.extensions) {
      for (const [key, shortcut] of extension.shortcuts) {
        const normalized = key.toLowerCase();
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
   * handles mcp_servers_change, so nothing connects them. pi's session calls
   * it after session_start; pihost's host emits that itself, so only the
   * exported ExtensionRunner's users call it.
   */
  reportUnhandledMcpServers() {
    if (this.hasHandlers("mcp_servers_change")) return;
    this.reportedMcpServers ??= new Set();
    for (const server of this.runtime.mcpServers.list()) {
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
    return this.extensions.some((extension) => (extension.handlers.get(eventType)?.length ?? 0) > 0);
  }

  getMessageRenderer(customType) {
    for (const extension of this.extensions) {
      const renderer = extension.messageRenderers.get(customType);
      if (renderer) return renderer;
    }
    return undefined;
  }

  getEntryRenderer(customType) {
    for (const extension of this.extensions) {
      const renderer = extension.entryRenderers?.get(customType);
      if (renderer) return renderer;
    }
    return undefined;
  }

  getMarkdownTransformers() {
    return this.extensions.flatMap((extension) => {
      if (!extension.markdownTransformer) return [];
      const { transformer, messageTypes } = extension.markdownTransformer;
      return [(markdown, context) => (messageTypes.has(context.messageType) ? transformer(markdown, context) : markdown)];
    });
  }

  resolveToolRenderers(toolName, base) {
    const resolvers = this.extensions.flatMap((extension) => extension.toolRenderers ?? []);
    const resolve = (index) => (index < resolvers.length ? resolvers[index](toolName, () => resolve(index + 1)) : base());
    return resolve(0);
  }

  /** Commands with invocation names; a shared name becomes name:1, name:2, … (N2). */
  resolveRegisteredCommands() {
    const commands = [];
    const counts = new Map();
    for (const extension of this.extensions) {
      for (const command of extension.commands.values()) {
        commands.push(command);
        counts.set(command.name, (counts.get(command.name) ?? 0) + 1);
      }
    }
    const seen = new Map();
    const taken = new Set();
    return commands.map((command) => {
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
    return this.resolveRegisteredCommands().find((command) => command.invocationName === name);
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

  /** A context whose every property reads the runner's state when used (R1, R2). */
  createContext() {
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
    return Object.defineProperties(this.createContext(), {
      tools: {
        get() {
          runner.assertActive();
          return runner.getCallableToolsFn();
        },
      },
      executeTool: {
        value: async (name, args, options = {}) => {
          runner.assertActive();
          if (!runner.executeToolFn) {
            return {
              toolCall: { type: "toolCall", id: `${toolCallId}/0`, name, arguments: {} },
              result: { content: [{ type: "text", text: "Nested tool calls are not available in this context" }], details: {} },
              isError: true,
            };
          }
          return runner.executeToolFn(toolCallId, name, args, { ...options, signal: options.signal ?? signal });
        },
      },
    });
  }

  /** A command context: the context's property descriptors (never spread, R2) plus session actions. */
  createCommandContext() {
    const context = Object.defineProperties({}, Object.getOwnPropertyDescriptors(this.createContext()));
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

  /** turn_end / agent_before_settle: entries and continue chain; the host validates each draft (E10). */
  async emitBoundary(baseEvent, buildContext) {
    const ctx = this.createContext();
    let entries = [];
    let shouldContinue = false;
    let context = await buildContext(entries);
    let valid = true;
    for (const { extension, handlers } of snapshotHandlers(this.extensions, baseEvent.type)) {
      for (const handler of handlers) {
        const event = { ...baseEvent, entries, continue: shouldContinue, context };
        try {
          const result = await handler(event, ctx);
          if (result?.entries !== undefined) entries = result.entries;
          if (result?.continue !== undefined) shouldContinue = result.continue;
        } catch (error) {
          this.reportHandlerError(extension, baseEvent.type, error);
        }
        try {
          context = await buildContext(entries);
          valid = true;
        } catch (error) {
          valid = false;
          const { error: message, stack } = describeError(error);
          this.emitError({
            extensionPath: extension.path,
            event: baseEvent.type,
            error: `Invalid boundary entries: ${message}`,
            stack,
          });
        }
      }
    }
    return valid
      ? { entries, continue: shouldContinue, context, valid: true }
      : { entries: [], continue: false, context, valid: false };
  }

  isSessionBeforeEvent(event) {
    return SESSION_BEFORE_EVENTS.has(event.type);
  }

  /** Every handler runs; only session_before_* results count, `cancel` returns at once (E2). */
  async emit(event) {
    const ctx = this.createContext();
    let result;
    for (const { extension, handlers } of snapshotHandlers(this.extensions, event.type)) {
      for (const handler of handlers) {
        try {
          const handlerResult = await handler(event, ctx);
          if (this.isSessionBeforeEvent(event) && handlerResult) {
            result = handlerResult;
            if (result.cancel) return result;
          }
        } catch (error) {
          this.reportHandlerError(extension, event.type, error);
        }
      }
    }
    return result;
  }

  /** The last override wins (E11). */
  async emitCacheWarmingDecision(event) {
    const ctx = this.createContext();
    let action = event.action;
    for (const { extension, handlers } of snapshotHandlers(this.extensions, event.type)) {
      for (const handler of handlers) {
        try {
          const result = await handler(event, ctx);
          if (result?.action !== undefined) action = result.action;
        } catch (error) {
          this.reportHandlerError(extension, event.type, error);
        }
      }
    }
    return action;
  }

  /** A replacement message must keep the role; returns it only if modified (E7). */
  async emitMessageEnd(event) {
    const ctx = this.createContext();
    let current = event.message;
    let modified = false;
    for (const { extension, handlers } of snapshotHandlers(this.extensions, "message_end")) {
      for (const handler of handlers) {
        try {
          const result = await handler({ ...event, message: current }, ctx);
          if (!result?.message) continue;
          if (result.message.role !== current.role) {
            this.emitError({
              extensionPath: extension.path,
              event: "message_end",
              error: "message_end handlers must return a message with the same role",
            });
            continue;
          }
          current = result.message;
          modified = true;
        } catch (error) {
          this.reportHandlerError(extension, "message_end", error);
        }
      }
    }
    return modified ? current : undefined;
  }

  /** content/details/structuredContent/isError/usage chain through handlers (E4). */
  async emitToolResult(event) {
    const ctx = this.createContext();
    const current = { ...event };
    let modified = false;
    for (const { extension, handlers } of snapshotHandlers(this.extensions, "tool_result")) {
      for (const handler of handlers) {
        try {
          const result = await handler(current, ctx);
          if (!result) continue;
          if (result.content !== undefined) {
            current.content = result.content;
            // Structured content not replaced with the content may no longer match it.
            if (result.structuredContent === undefined) delete current.structuredContent;
            modified = true;
          }
          for (const key of ["details", "structuredContent", "isError", "usage"]) {
            if (result[key] !== undefined) {
              current[key] = result[key];
              modified = true;
            }
          }
        } catch (error) {
          this.reportHandlerError(extension, "tool_result", error);
        }
      }
    }
    if (!modified) return undefined;
    return {
      content: current.content,
      details: current.details,
      structuredContent: current.structuredContent,
      isError: current.isError,
      usage: current.usage,
    };
  }

  /** No try/catch: a throwing handler rejects the dispatch; `block` returns at once (E3). */
  async emitToolCall(event) {
    const ctx = this.createContext();
    let result;
    for (const { handlers } of snapshotHandlers(this.extensions, "tool_call")) {
      for (const handler of handlers) {
        const handlerResult = await handler(event, ctx);
        if (handlerResult) {
          result = handlerResult;
          if (result.block) return result;
        }
      }
    }
    return result;
  }

  /** The first valid result wins; an invalid one is reported and thrown (E11). */
  async emitUserBash(event) {
    const ctx = this.createContext();
    for (const { extension, handlers } of snapshotHandlers(this.extensions, "user_bash")) {
      for (const handler of handlers) {
        try {
          const result = await handler(event, ctx);
          if (result === undefined) continue;
          if (!isUserBashResult(result)) {
            throw new Error(
              "Invalid user_bash handler result: return undefined for local execution or exactly one valid { operations } or { result } object",
            );
          }
          return result;
        } catch (error) {
          this.reportHandlerError(extension, "user_bash", error);
          throw error;
        }
      }
    }
    return undefined;
  }

  /**
   * context handlers see the conversation without system messages, on a
   * clone; context_with_system handlers then see everything (E6).
   */
  async emitContext(messages) {
    const ctx = this.createContext();
    let current = structuredClone(messages);
    for (const { extension, handlers } of snapshotHandlers(this.extensions, "context")) {
      for (const handler of handlers) {
        try {
          const visible = current.filter((message) => message.role !== "system");
          const snapshot = visible.slice();
          const result = await handler({ type: "context", messages: visible }, ctx);
          // A handler may return a new list or edit event.messages in place.
          const returned = result?.messages ?? (sameMessages(visible, snapshot) ? undefined : visible);
          if (!returned) continue;
          if (!sameMessages(returned, snapshot)) {
            const head = getCurrentSystemMessage(current);
            current = head ? [head, ...returned] : returned;
          }
        } catch (error) {
          this.reportHandlerError(extension, "context", error);
        }
      }
    }
    for (const { extension, handlers } of snapshotHandlers(this.extensions, "context_with_system")) {
      for (const handler of handlers) {
        try {
          const hadLeadingSystem = current[0]?.role === "system";
          const result = await handler({ type: "context_with_system", messages: current }, ctx);
          current = result?.messages ?? current;
          if (hadLeadingSystem && current[0]?.role !== "system") {
            this.emitError({
              extensionPath: extension.path,
              event: "context_with_system",
              error:
                "Handler removed the leading system message; the request has no prompt or initial tool declarations. Keep it at index 0 or replace a dropped prefix with getCurrentSystemMessage().",
            });
          }
        } catch (error) {
          this.reportHandlerError(extension, "context_with_system", error);
        }
      }
    }
    return current;
  }

  /** A non-undefined return replaces the payload (E8). */
  async emitBeforeProviderRequest(payload) {
    const ctx = this.createContext();
    let current = payload;
    for (const { extension, handlers } of snapshotHandlers(this.extensions, "before_provider_request")) {
      for (const handler of handlers) {
        try {
          const result = await handler({ type: "before_provider_request", payload: current }, ctx);
          if (result !== undefined) current = result;
        } catch (error) {
          this.reportHandlerError(extension, "before_provider_request", error);
        }
      }
    }
    return current;
  }

  /** Handlers edit the headers in place; return values are ignored (E8). */
  async emitBeforeProviderHeaders(headers) {
    const ctx = this.createContext();
    for (const { extension, handlers } of snapshotHandlers(this.extensions, "before_provider_headers")) {
      for (const handler of handlers) {
        try {
          await handler({ type: "before_provider_headers", headers }, ctx);
        } catch (error) {
          this.reportHandlerError(extension, "before_provider_headers", error);
        }
      }
    }
    return headers;
  }

  /** Messages are collected; a systemPrompt overrides the prompt for later handlers (E11). */
  async emitBeforeAgentStart(trigger, systemPromptOptions) {
    const options = normalizeBuildSystemPromptOptions(systemPromptOptions);
    const render = () => this.buildSystemPromptFn(options);
    const ctx = Object.defineProperties({}, Object.getOwnPropertyDescriptors(this.createContext()));
    ctx.getSystemPrompt = () => {
      this.assertActive();
      return render();
    };
    const messages = [];
    for (const { extension, handlers } of snapshotHandlers(this.extensions, "before_agent_start")) {
      for (const handler of handlers) {
        try {
          const event = {
            ...trigger,
            type: "before_agent_start",
            get systemPrompt() {
              return render();
            },
            systemPromptOptions: options,
          };
          const result = await handler(event, ctx);
          if (result) {
            if (result.message) messages.push(result.message);
            if (result.systemPrompt !== undefined) options.forceSystemPrompt = result.systemPrompt;
          }
        } catch (error) {
          this.reportHandlerError(extension, "before_agent_start", error);
        }
      }
    }
    return { messages, systemPromptOptions: options };
  }

  /** Paths are collected with the extension that gave them (E11). */
  async emitResourcesDiscover(cwd, reason) {
    const ctx = this.createContext();
    const collected = { skillPaths: [], promptPaths: [], themePaths: [] };
    for (const { extension, handlers } of snapshotHandlers(this.extensions, "resources_discover")) {
      for (const handler of handlers) {
        try {
          const result = await handler({ type: "resources_discover", cwd, reason }, ctx);
          for (const key of ["skillPaths", "promptPaths", "themePaths"]) {
            if (result?.[key]?.length) {
              collected[key].push(...result[key].map((path) => ({ path, extensionPath: extension.path })));
            }
          }
        } catch (error) {
          this.reportHandlerError(extension, "resources_discover", error);
        }
      }
    }
    return collected;
  }

  /** Transforms chain, `handled` returns at once (E5). */
  async emitInput(text, images, source, streamingBehavior) {
    const ctx = this.createContext();
    let currentText = text;
    let currentImages = images;
    for (const { extension, handlers } of snapshotHandlers(this.extensions, "input")) {
      for (const handler of handlers) {
        try {
          const result = await handler(
            { type: "input", text: currentText, images: currentImages, source, streamingBehavior },
            ctx,
          );
          if (result?.action === "handled") return result;
          if (result?.action === "transform") {
            currentText = result.text;
            currentImages = result.images ?? currentImages;
          }
        } catch (error) {
          this.reportHandlerError(extension, "input", error);
        }
      }
    }
    return currentText !== text || currentImages !== images
      ? { action: "transform", text: currentText, images: currentImages }
      : { action: "continue" };
  }
}
