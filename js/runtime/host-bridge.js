// The bridge between the runner and the embedder's `Host` (Rust). Extensions
// read host state synchronously (`ctx.model`, `pi.getActiveTools()`), so the
// state lives here as a snapshot the embedder pushes; what extensions change
// is applied to the snapshot at once and told to the host. Calls whose answer
// an extension awaits (UI prompts, session actions, nested tools) are async
// ops: the isolate never blocks on the embedder.
import { currentTheme } from "pihost:pi/coding-agent/ui/theme.js";
import { ops } from "pihost:runtime/ops.js";
import { noOpUIContext } from "pihost:runtime/runner.js";
import { SessionView } from "pihost:runtime/session-manager.js";
import {
  ArrayIsArray,
  ArrayPrototypeSlice,
  JSONParse,
  JSONStringify,
  ObjectAssign,
  ObjectDefineProperty,
  ObjectKeys,
  ReflectApply,
} from "pihost:runtime/primordials.js";

// Calls cross as JSON objects of named arguments; functions (renderers,
// component factories) cannot cross and are dropped.
function encode(fields) {
  return JSONStringify(fields, (_key, value) => (typeof value === "function" ? undefined : value));
}

function notify(sessionId, method, fields) {
  ops.op_pihost_host_notify(sessionId, method, encode(fields));
}

async function request(sessionId, method, fields) {
  const answer = await ops.op_pihost_host_request(sessionId, method, encode(fields));
  return answer === "" ? undefined : JSONParse(answer);
}

// Which session's host a model call made by extension code goes to: the
// session whose code runs now (set by js/runtime/main.js).
let currentSessionId = () => undefined;

/** `resolve()` answers the id of the session whose extension code runs now. */
export function resolveCurrentSession(resolve) {
  currentSessionId = resolve;
}

function requestOfCurrentSession(method, fields) {
  const sessionId = currentSessionId();
  if (sessionId === undefined) throw new Error(`pihost: ${method} was asked outside any session's extension code`);
  return request(sessionId, method, fields);
}

// pi-ai's complete/stream calls (js/pi/pi-ai.js) go to the host, which runs
// the model; no answer means no provider, which pi-ai turns into pi's error.
ObjectDefineProperty(globalThis, "__pihostModelRequest", {
  __proto__: null,
  value: async (kind, model, context, options) => {
    const fields = { kind, model, context, options: options && { ...options, signal: undefined } };
    const answer = await requestOfCurrentSession("model.complete", fields);
    if (answer === undefined) throw new Error(`pihost: the host answered no model for ${model?.provider}/${model?.id}`);
    return answer;
  },
  writable: false,
  configurable: true,
  enumerable: false,
});

// pi-ai's classify/generateImages with a catalog model (host-model-runtime.js)
// go to the host the same way: `model.classify`, `model.generateImages`.
ObjectDefineProperty(globalThis, "__pihostModelOperation", {
  __proto__: null,
  value: (method, model, context, options) =>
    requestOfCurrentSession(method, { model, context, options: options && { ...options, signal: undefined } }),
  writable: false,
  configurable: true,
  enumerable: false,
});

/** `{ [names[i]]: args[i] }`: positional arguments as the named fields a call carries. */
function named(names, args) {
  const fields = {};
  for (let index = 0; index < names.length; index++) fields[names[index]] = args[index];
  return fields;
}

/** A notification to a session's host whose positional arguments get `names`; `apply` updates the snapshot first. */
function notifier(sessionId, method, names, apply) {
  return (...args) => {
    if (apply) ReflectApply(apply, undefined, args);
    notify(sessionId, method, named(names, args));
  };
}

function providerCall(sessionId, method, names) {
  return (...args) => ops.op_pihost_host_provider(sessionId, method, encode(named(names, args)));
}

/** UI calls that only inform the host, with their argument names. */
const UI_NOTIFICATIONS = {
  notify: ["message", "type"],
  setStatus: ["key", "text"],
  setWorkingMessage: ["message"],
  setWorkingVisible: ["visible"],
  setWorkingIndicator: ["indicator"],
  setHiddenThinkingLabel: ["label"],
  setWidget: ["key", "content", "options"],
  setFooter: [],
  setHeader: [],
  setTitle: ["title"],
  pasteToEditor: ["text"],
};

/**
 * js/runtime/ui/components.js once a host gave pihost a screen: loaded then,
 * not at start-up, which most sessions never need it for.
 */
let screenComponents;

/** The session pihost's screen draws for (one session of a runtime has it): its id and host state. */
let screenSession;

/** Uses pihost's screen (`module`) for `session` (`{ id, hostState }`). */
export function useScreenComponents(module, session) {
  screenComponents = module;
  screenSession = session;
}

/** The session that has pihost's screen, `{ id, hostState }` (js/runtime/ui/components.js reads it). */
export function screenSessionOf() {
  return screenSession;
}

/**
 * One session's side of the bridge: the host state its getters read, its
 * `ctx.sessionManager` data, and the bindings whose calls reach that
 * session's host (every op names the session). `models` is the session's
 * model runtime (host-model-runtime.js's createHostModelRuntime).
 */
export function createHostSession(sessionId, models) {
  /** Host state that getters read; the embedder replaces any part with setHostState. */
  const hostState = {
    model: undefined,
    scopedModels: [],
    activeTools: [],
    allTools: [],
    settings: {},
    sessionName: undefined,
    thinkingLevel: "off",
    commands: [],
    isIdle: true,
    projectTrusted: true,
    pendingMessages: false,
    contextUsage: undefined,
    systemPrompt: "",
    systemPromptOptions: undefined,
    callableTools: [],
    editorText: "",
    toolsExpanded: false,
    setThemeResult: undefined,
    hasUI: false,
    canExecuteTools: false,
    /** `{ columns, rows }` when pihost draws extension components itself (attachTerminal). */
    terminal: undefined,
  };

  /**
   * `ctx.sessionManager`'s data: the host's session (HostState.session) and
   * what extensions appended since it was sent. One view for the whole
   * session, so a reload's runner reads the same one.
   */
  const sessionView = new SessionView();

  function setHostState(partial) {
    const { session, ...rest } = partial;
    ObjectAssign(hostState, rest);
    if (session !== undefined) sessionView.replace(session);
  }

  /** The UI an extension sees when the host has one: prompts are requests, the rest notifications. */
  function createHostUI() {
    const ui = { ...noOpUIContext };
    const notifications = ObjectKeys(UI_NOTIFICATIONS);
    for (let index = 0; index < notifications.length; index++) {
      const name = notifications[index];
      ui[name] = notifier(sessionId, `ui.${name}`, UI_NOTIFICATIONS[name]);
    }
    ui.select = (title, options, opts) => request(sessionId, "ui.select", { title, options, opts });
    ui.confirm = async (title, message, opts) => (await request(sessionId, "ui.confirm", { title, message, opts })) === true;
    ui.input = (title, placeholder, opts) => request(sessionId, "ui.input", { title, placeholder, opts });
    ui.editor = (title, prefill) => request(sessionId, "ui.editor", { title, prefill });
    ui.custom = (_factory, options) => request(sessionId, "ui.custom", { options });
    ui.setTheme = () => hostState.setThemeResult ?? { success: false, error: "UI not available" };
    ui.getEditorText = () => hostState.editorText;
    ui.getToolsExpanded = () => hostState.toolsExpanded;
    ui.setEditorText = notifier(sessionId, "ui.setEditorText", ["text"], (text) => {
      hostState.editorText = text;
    });
    ui.setToolsExpanded = notifier(sessionId, "ui.setToolsExpanded", ["expanded"], (expanded) => {
      hostState.toolsExpanded = expanded;
    });
    // Colours are computed in the isolate (an embedder draws the ANSI text
    // it gets): pi's dark theme, or the one initTheme chose.
    ObjectDefineProperty(ui, "theme", { __proto__: null, get: () => currentTheme(), enumerable: true, configurable: true });
    return ui;
  }

  /** The objects runner.bindCore / bindCommandContext / setUIContext take. */
  function createHostBinding() {
    const actions = {
      sendMessage: notifier(sessionId, "sendMessage", ["message", "options"]),
      sendUserMessage: notifier(sessionId, "sendUserMessage", ["content", "options"]),
      // Appended to the session view first, as pi appends it to its session
      // manager: the extension reads it back at once; the host gets the entry
      // pihost made (its id, parent and timestamp) to keep.
      appendEntry: (customType, data) => {
        const entry = sessionView.appendCustom(customType, data);
        notify(sessionId, "appendEntry", { customType, data, entry });
      },
      setSessionName: (name) => {
        hostState.sessionName = name;
        sessionView.appendSessionInfo(name);
        notify(sessionId, "setSessionName", { name });
      },
      // pi answers from the session's entries (its latest session_info); a
      // host that keeps its session elsewhere can say the name in HostState.
      getSessionName: () => (sessionView.hasSessionInfo() ? sessionView.sessionName() : hostState.sessionName),
      setLabel: (entryId, label) => {
        sessionView.appendLabel(entryId, label);
        notify(sessionId, "setLabel", { entryId, label });
      },
      getActiveTools: () => ArrayPrototypeSlice(hostState.activeTools),
      getAllTools: () => hostState.allTools,
      getSettings: () => hostState.settings,
      setActiveTools: notifier(sessionId, "setActiveTools", ["toolNames"], (names) => {
        const copy = [];
        if (ArrayIsArray(names)) for (let index = 0; index < names.length; index++) copy[index] = names[index];
        else for (const name of names) copy[copy.length] = name;
        hostState.activeTools = copy;
      }),
      refreshTools: notifier(sessionId, "refreshTools", []),
      getCommands: () => hostState.commands,
      setModel: async (model) => (await request(sessionId, "setModel", { model })) !== false,
      getThinkingLevel: () => hostState.thinkingLevel,
      setThinkingLevel: notifier(sessionId, "setThinkingLevel", ["level"], (level) => {
        hostState.thinkingLevel = level;
      }),
    };
    const contextActions = {
      getModel: () => hostState.model,
      getScopedModels: () => hostState.scopedModels,
      isIdle: () => hostState.isIdle,
      isProjectTrusted: () => hostState.projectTrusted,
      getSignal: () => undefined,
      abort: notifier(sessionId, "abort", []),
      hasPendingMessages: () => hostState.pendingMessages,
      shutdown: notifier(sessionId, "shutdown", []),
      getContextUsage: () => hostState.contextUsage,
      compact: notifier(sessionId, "compact", ["options"]),
      getSystemPrompt: () => hostState.systemPrompt,
      getSystemPromptOptions: () => hostState.systemPromptOptions ?? {},
      executeTool: hostState.canExecuteTools
        ? (toolCallId, name, args, options) =>
            request(sessionId, "executeTool", { toolCallId, name, args, options: { ...options, signal: undefined } })
        : undefined,
      getCallableTools: () => hostState.callableTools,
    };
    const providerActions = {
      // The host learns of each change; the main session's model runtime keeps what was registered.
      registerProvider: (name, config) => {
        const answer = providerCall(sessionId, "registerProvider", ["name", "config"])(name, config);
        models.recordProviderRegistration(name, config);
        return answer;
      },
      registerNativeProvider: (provider) => {
        const answer = providerCall(sessionId, "registerNativeProvider", ["id"])(provider?.id);
        models.recordNativeProviderRegistration(provider);
        return answer;
      },
      unregisterProvider: (name) => {
        const answer = providerCall(sessionId, "unregisterProvider", ["name"])(name);
        models.recordProviderRegistration(name, undefined);
        return answer;
      },
      registerVirtualModel: providerCall(sessionId, "registerVirtualModel", ["definition"]),
      unregisterVirtualModel: providerCall(sessionId, "unregisterVirtualModel", ["provider", "id"]),
    };
    models.bindProviderActions(providerActions);
    const cancelledByDefault = async (method, fields) => (await request(sessionId, method, fields)) ?? { cancelled: false };
    const commandActions = {
      waitForIdle: () => request(sessionId, "waitForIdle", {}),
      newSession: (options) => cancelledByDefault("newSession", { options }),
      fork: (entryId, options) => cancelledByDefault("fork", { entryId, options }),
      navigateTree: (targetId, options) => cancelledByDefault("navigateTree", { targetId, options }),
      switchSession: (sessionPath, options) => cancelledByDefault("switchSession", { sessionPath, options }),
      reload: () => request(sessionId, "reload", {}),
    };
    return {
      actions,
      contextActions,
      providerActions,
      commandActions,
      ui: createUI(),
    };
  }

  /** pi's mode name for the UI the host gives: pihost's own screen is pi's TUI. */
  function uiMode() {
    if (hostState.terminal) return "tui";
    return hostState.hasUI ? "interactive" : "print";
  }

  /** The UI context a bound runner gets for the current host state; undefined is headless pi's. */
  function createUI() {
    if (hostState.terminal && screenComponents && screenSession?.hostState === hostState) return screenComponents.withScreenComponents(createHostUI());
    return hostState.hasUI ? createHostUI() : undefined;
  }

  return { hostState, sessionView, setHostState, createHostBinding, uiMode, createUI };
}
