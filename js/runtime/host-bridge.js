// The bridge between the runner and the embedder's `Host` (Rust). Extensions
// read host state synchronously (`ctx.model`, `pi.getActiveTools()`), so the
// state lives here as a snapshot the embedder pushes; what extensions change
// is applied to the snapshot at once and told to the host. Calls whose answer
// an extension awaits (UI prompts, session actions, nested tools) are async
// ops: the isolate never blocks on the embedder.
import {
  bindHostProviderActions,
  recordHostNativeProviderRegistration,
  recordHostProviderRegistration,
} from "pihost:pi/coding-agent/host-model-runtime.js";
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

/** Host state that getters read; the embedder replaces any part with setHostState. */
export const hostState = {
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
export const sessionView = new SessionView();

export function setHostState(partial) {
  const { session, ...rest } = partial;
  ObjectAssign(hostState, rest);
  if (session !== undefined) sessionView.replace(session);
}

// Calls cross as JSON objects of named arguments; functions (renderers,
// component factories) cannot cross and are dropped.
function encode(fields) {
  return JSONStringify(fields, (_key, value) => (typeof value === "function" ? undefined : value));
}

function notify(method, fields) {
  ops.op_pihost_host_notify(method, encode(fields));
}

async function request(method, fields) {
  const answer = await ops.op_pihost_host_request(method, encode(fields));
  return answer === "" ? undefined : JSONParse(answer);
}

// pi-ai's complete/stream calls (js/pi/pi-ai.js) go to the host, which runs
// the model; no answer means no provider, which pi-ai turns into pi's error.
ObjectDefineProperty(globalThis, "__pihostModelRequest", {
  __proto__: null,
  value: async (kind, model, context, options) => {
    const fields = { kind, model, context, options: options && { ...options, signal: undefined } };
    const answer = await request("model.complete", fields);
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
  value: (method, model, context, options) => request(method, { model, context, options: options && { ...options, signal: undefined } }),
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

/** A notification whose positional arguments get `names`; `apply` updates the snapshot first. */
function notifier(method, names, apply) {
  return (...args) => {
    if (apply) ReflectApply(apply, undefined, args);
    notify(method, named(names, args));
  };
}

function providerCall(method, names) {
  return (...args) => ops.op_pihost_host_provider(method, encode(named(names, args)));
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

/** The UI an extension sees when the host has one: prompts are requests, the rest notifications. */
function createHostUI() {
  const ui = { ...noOpUIContext };
  const notifications = ObjectKeys(UI_NOTIFICATIONS);
  for (let index = 0; index < notifications.length; index++) {
    const name = notifications[index];
    ui[name] = notifier(`ui.${name}`, UI_NOTIFICATIONS[name]);
  }
  ui.select = (title, options, opts) => request("ui.select", { title, options, opts });
  ui.confirm = async (title, message, opts) => (await request("ui.confirm", { title, message, opts })) === true;
  ui.input = (title, placeholder, opts) => request("ui.input", { title, placeholder, opts });
  ui.editor = (title, prefill) => request("ui.editor", { title, prefill });
  ui.custom = (_factory, options) => request("ui.custom", { options });
  ui.setTheme = () => hostState.setThemeResult ?? { success: false, error: "UI not available" };
  ui.getEditorText = () => hostState.editorText;
  ui.getToolsExpanded = () => hostState.toolsExpanded;
  ui.setEditorText = notifier("ui.setEditorText", ["text"], (text) => {
    hostState.editorText = text;
  });
  ui.setToolsExpanded = notifier("ui.setToolsExpanded", ["expanded"], (expanded) => {
    hostState.toolsExpanded = expanded;
  });
  // Colours are computed in the isolate (an embedder draws the ANSI text
  // it gets): pi's dark theme, or the one initTheme chose.
  ObjectDefineProperty(ui, "theme", { __proto__: null, get: () => currentTheme(), enumerable: true, configurable: true });
  return ui;
}

/** The objects runner.bindCore / bindCommandContext / setUIContext take. */
export function createHostBinding() {
  const actions = {
    sendMessage: notifier("sendMessage", ["message", "options"]),
    sendUserMessage: notifier("sendUserMessage", ["content", "options"]),
    // Appended to the session view first, as pi appends it to its session
    // manager: the extension reads it back at once; the host gets the entry
    // pihost made (its id, parent and timestamp) to keep.
    appendEntry: (customType, data) => {
      const entry = sessionView.appendCustom(customType, data);
      notify("appendEntry", { customType, data, entry });
    },
    setSessionName: (name) => {
      hostState.sessionName = name;
      sessionView.appendSessionInfo(name);
      notify("setSessionName", { name });
    },
    // pi answers from the session's entries (its latest session_info); a
    // host that keeps its session elsewhere can say the name in HostState.
    getSessionName: () => (sessionView.hasSessionInfo() ? sessionView.sessionName() : hostState.sessionName),
    setLabel: (entryId, label) => {
      sessionView.appendLabel(entryId, label);
      notify("setLabel", { entryId, label });
    },
    getActiveTools: () => ArrayPrototypeSlice(hostState.activeTools),
    getAllTools: () => hostState.allTools,
    getSettings: () => hostState.settings,
    setActiveTools: notifier("setActiveTools", ["toolNames"], (names) => {
      const copy = [];
      if (ArrayIsArray(names)) for (let index = 0; index < names.length; index++) copy[index] = names[index];
      else for (const name of names) copy[copy.length] = name;
      hostState.activeTools = copy;
    }),
    refreshTools: notifier("refreshTools", []),
    getCommands: () => hostState.commands,
    setModel: async (model) => (await request("setModel", { model })) !== false,
    getThinkingLevel: () => hostState.thinkingLevel,
    setThinkingLevel: notifier("setThinkingLevel", ["level"], (level) => {
      hostState.thinkingLevel = level;
    }),
  };
  const contextActions = {
    getModel: () => hostState.model,
    getScopedModels: () => hostState.scopedModels,
    isIdle: () => hostState.isIdle,
    isProjectTrusted: () => hostState.projectTrusted,
    getSignal: () => undefined,
    abort: notifier("abort", []),
    hasPendingMessages: () => hostState.pendingMessages,
    shutdown: notifier("shutdown", []),
    getContextUsage: () => hostState.contextUsage,
    compact: notifier("compact", ["options"]),
    getSystemPrompt: () => hostState.systemPrompt,
    getSystemPromptOptions: () => hostState.systemPromptOptions ?? {},
    executeTool: hostState.canExecuteTools
      ? (toolCallId, name, args, options) =>
          request("executeTool", { toolCallId, name, args, options: { ...options, signal: undefined } })
      : undefined,
    getCallableTools: () => hostState.callableTools,
  };
  const providerActions = {
    // The host learns of each change; the main session's model runtime keeps what was registered.
    registerProvider: (name, config) => {
      const answer = providerCall("registerProvider", ["name", "config"])(name, config);
      recordHostProviderRegistration(name, config);
      return answer;
    },
    registerNativeProvider: (provider) => {
      const answer = providerCall("registerNativeProvider", ["id"])(provider?.id);
      recordHostNativeProviderRegistration(provider);
      return answer;
    },
    unregisterProvider: (name) => {
      const answer = providerCall("unregisterProvider", ["name"])(name);
      recordHostProviderRegistration(name, undefined);
      return answer;
    },
    registerVirtualModel: providerCall("registerVirtualModel", ["definition"]),
    unregisterVirtualModel: providerCall("unregisterVirtualModel", ["provider", "id"]),
  };
  bindHostProviderActions(providerActions);
  const cancelledByDefault = async (method, fields) => (await request(method, fields)) ?? { cancelled: false };
  const commandActions = {
    waitForIdle: () => request("waitForIdle", {}),
    newSession: (options) => cancelledByDefault("newSession", { options }),
    fork: (entryId, options) => cancelledByDefault("fork", { entryId, options }),
    navigateTree: (targetId, options) => cancelledByDefault("navigateTree", { targetId, options }),
    switchSession: (sessionPath, options) => cancelledByDefault("switchSession", { sessionPath, options }),
    reload: () => request("reload", {}),
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
export function uiMode() {
  if (hostState.terminal) return "tui";
  return hostState.hasUI ? "interactive" : "print";
}

/**
 * js/runtime/ui/components.js once a host gave pihost a screen: loaded then,
 * not at start-up, which most sessions never need it for.
 */
let screenComponents;

export function useScreenComponents(module) {
  screenComponents = module;
}

/** The UI context a bound runner gets for the current host state; undefined is headless pi's. */
export function createUI() {
  if (hostState.terminal && screenComponents) return screenComponents.withScreenComponents(createHostUI());
  return hostState.hasUI ? createHostUI() : undefined;
}
