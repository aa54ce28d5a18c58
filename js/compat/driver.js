// The compat scenario driver, shared by both sides: tests/compat/record.mjs
// runs it on Node against the reference pi's own loader and runner, and
// pihost runs the very same file in its isolate against its own. Whatever
// differs in the two outputs differs in the implementations, not the harness.
//
// A scenario (scenario.json in a folder next to its extension files):
//   { "description", "covers": ["E3", ...], "extensions": ["a.ts", ...],
//     "host": { canned answers, see createRecordingHost }, "steps": [ { "op", ... } ] }
// The output: { registrations, steps: [{ op, result | error }], log: [...] }.
// Values that JSON cannot carry are described (see `describe`); the scenario
// folder's absolute path is replaced by "<scenario>" so outputs are portable.
//
// `env` gives the implementation under test:
//   loadExtensions(paths, cwd, eventBus) -> { extensions, errors, runtime }
//   createRunner(extensions, runtime, cwd, sessionManager) -> runner
//   createEventBus() -> bus
//   emitProjectTrustEvent({ extensions }, event, ctx) -> { result, errors }
//   wrapToolDefinition(definition, ctxFactory) -> agent tool
//   wrapRegisteredTool(registeredTool, runner) -> agent tool (pi's extension wrapper)
//   flush() -> Promise resolved after pending timers and microtasks
//   afterLoad() -> what pi's CLI sets up after loading (terminal, theme)
//   currentTheme() -> the theme interactive pi's ctx.ui.theme gives (reference side)
//   attachScreen({ columns, rows }, baseUi) -> a UI context that draws
//     extension components on a screen of that size, as pi's interactive
//     mode does (custom, widgets, header, footer, overlays); baseUi is the
//     canned host UI for the rest (reference side; pihost ignores it)
//   sendKey(data) -> sends one raw key sequence through the screen's input path
//     (attachScreen's third argument: { reportError } for component errors)
//   screenView() -> what the screen shows now, top to bottom as pi lays it
//     out: [{ id, kind, widget?, placement?, hidden?, lines }] (id: the
//     side's own; hidden, with no lines: an overlay hidden with setHidden
//     or a dialog a newer one covers)

import { dispatchEvent } from "../runtime/dispatch.js";
import { reloadExtensions } from "../runtime/reload.js";
import { SessionView } from "../runtime/session-manager.js";

/** A JSON-safe description of any value, the same on both sides. */
export function describe(value, seen = new Set()) {
  if (value === undefined) return { $undefined: true };
  if (value === null || typeof value === "boolean" || typeof value === "string") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : { $number: String(value) };
  if (typeof value === "bigint") return { $bigint: String(value) };
  if (typeof value === "symbol") return { $symbol: value.description ?? "" };
  if (typeof value === "function") return { $function: true };
  if (value instanceof Error) return { $error: value.message };
  if (typeof value.then === "function") return { $promise: true };
  if (seen.has(value)) return { $cycle: true };
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => describe(item, seen));
    if (value instanceof Map) return { $map: [...value].map(([k, v]) => [describe(k, seen), describe(v, seen)]) };
    if (value instanceof Set) return { $set: [...value].map((item) => describe(item, seen)) };
    if (value instanceof Date) return { $date: Number.isNaN(value.getTime()) ? "invalid" : value.toISOString() };
    if (ArrayBuffer.isView(value)) return { $bytes: Array.from(new Uint8Array(value.buffer, value.byteOffset, value.byteLength)) };
    const described = {};
    for (const key of Object.keys(value)) {
      let item;
      try {
        item = value[key];
      } catch (error) {
        described[key] = { $throws: error instanceof Error ? error.message : String(error) };
        continue;
      }
      described[key] = describe(item, seen);
    }
    return described;
  } finally {
    seen.delete(value);
  }
}

function errorText(error) {
  return error instanceof Error ? error.message : String(error);
}

const UI_METHODS_ANSWERED = ["select", "confirm", "input", "editor", "custom"];
const UI_METHODS_RECORDED = [
  "notify",
  "setStatus",
  "setWorkingMessage",
  "setWorkingVisible",
  "setWorkingIndicator",
  "setHiddenThinkingLabel",
  "setWidget",
  "setFooter",
  "setHeader",
  "setTitle",
  "pasteToEditor",
  "setEditorText",
  "addAutocompleteProvider",
  "setEditorComponent",
  "setToolsExpanded",
];

/** The harness's answer to ui.setTheme: scenarios have no themes. */
export const SCENARIO_SET_THEME_RESULT = { success: false, error: "no themes in scenarios" };

/**
 * A host answering from `answers` (scenario.host):
 *   model, scopedModels, activeTools, allTools, settings, sessionName,
 *   thinkingLevel, commands, isIdle, projectTrusted, pendingMessages,
 *   contextUsage, systemPrompt, callableTools, executeToolResult (absent:
 *   nested tool calls are unavailable), failProviders (names whose
 *   registration throws), setModelResult, sessionEntries (the branch
 *   ctx.sessionManager reads; see cannedSessionManager),
 *   ui: null for headless, else { select, confirm, input, editor, custom, editorText }.
 * Returns { actions, contextActions, providerActions, commandActions, ui }.
 */
export function createCannedHost(answers, currentTheme = () => undefined) {
  const state = {
    activeTools: answers.activeTools ?? [],
    sessionName: answers.sessionName,
    thinkingLevel: answers.thinkingLevel ?? "off",
  };
  const nothing = () => undefined;
  const actions = {
    sendMessage: nothing,
    sendUserMessage: nothing,
    appendEntry: nothing,
    setSessionName: (name) => {
      state.sessionName = name;
    },
    getSessionName: () => state.sessionName,
    setLabel: nothing,
    getActiveTools: () => state.activeTools.slice(),
    getAllTools: () => answers.allTools ?? [],
    getSettings: () => answers.settings ?? {},
    setActiveTools: (names) => {
      state.activeTools = names.slice();
    },
    refreshTools: nothing,
    getCommands: () => answers.commands ?? [],
    setModel: async () => answers.setModelResult ?? true,
    getThinkingLevel: () => state.thinkingLevel,
    setThinkingLevel: (level) => {
      state.thinkingLevel = level;
    },
  };
  const contextActions = {
    getModel: () => answers.model,
    getScopedModels: () => answers.scopedModels ?? [],
    isIdle: () => answers.isIdle ?? true,
    isProjectTrusted: () => answers.projectTrusted ?? true,
    getSignal: () => undefined,
    abort: nothing,
    hasPendingMessages: () => answers.pendingMessages ?? false,
    shutdown: nothing,
    getContextUsage: () => answers.contextUsage,
    compact: nothing,
    getSystemPrompt: () => answers.systemPrompt ?? "",
    executeTool: answers.executeToolResult === undefined ? undefined : async () => answers.executeToolResult,
    getCallableTools: () => answers.callableTools ?? [],
  };
  const failing = new Set(answers.failProviders ?? []);
  const providerActions = {
    registerProvider: (name) => {
      if (failing.has(name)) throw new Error(`provider ${name} was refused by the host`);
    },
    registerNativeProvider: (provider) => {
      if (failing.has(provider?.id)) throw new Error(`provider ${provider.id} was refused by the host`);
    },
    unregisterProvider: nothing,
    registerVirtualModel: nothing,
    unregisterVirtualModel: nothing,
  };
  const commandActions = {
    waitForIdle: async () => {},
    newSession: async () => ({ cancelled: false }),
    fork: async () => ({ cancelled: false }),
    navigateTree: async () => ({ cancelled: false }),
    switchSession: async () => ({ cancelled: false }),
    reload: async () => {},
  };
  let ui;
  if (answers.ui) {
    ui = {
      getEditorText: () => answers.ui.editorText ?? "",
      onTerminalInput: () => () => {},
      getEditorComponent: () => undefined,
      getAllThemes: () => [],
      getTheme: () => undefined,
      setTheme: () => SCENARIO_SET_THEME_RESULT,
      getToolsExpanded: () => false,
      // Interactive pi reads the theme its CLI initialised (env.currentTheme).
      get theme() {
        return currentTheme();
      },
    };
    for (const name of UI_METHODS_ANSWERED) ui[name] = () => Promise.resolve(answers.ui[name]);
    for (const name of UI_METHODS_RECORDED) ui[name] = nothing;
  }
  return { actions, contextActions, providerActions, commandActions, ui };
}

/**
 * Wraps a host so every action, UI call and provider change is recorded in
 * `log` (with its arguments described) before it runs. The same wrapper goes
 * around the canned host here and around pihost's Rust-backed host, so both
 * sides log the same calls.
 */
export function recordCalls(host, log) {
  const record = (kind, name, args) => log.push({ kind, name, args: args.map((arg) => describe(arg)) });
  const wrap = (kind, object, names) => {
    if (!object) return object;
    // Descriptors, not a spread: getters such as ui.theme stay live.
    const wrapped = Object.defineProperties({}, Object.getOwnPropertyDescriptors(object));
    for (const name of names) {
      const original = object[name];
      if (typeof original !== "function") continue;
      wrapped[name] = (...args) => {
        record(kind, name, args);
        return original(...args);
      };
    }
    return wrapped;
  };
  return {
    actions: wrap("action", host.actions, Object.keys(host.actions)),
    contextActions: wrap("action", host.contextActions, ["abort", "shutdown", "compact", "executeTool"]),
    providerActions: wrap("action", host.providerActions, Object.keys(host.providerActions)),
    commandActions: wrap("action", host.commandActions, Object.keys(host.commandActions)),
    ui: wrap("ui", host.ui, [...UI_METHODS_ANSWERED, ...UI_METHODS_RECORDED]),
  };
}

/** A UI context with every call recorded, as recordCalls records the host's. */
export function recordUICalls(ui, log) {
  return recordCalls({ actions: {}, contextActions: {}, providerActions: {}, commandActions: {}, ui }, log).ui;
}

/** The canned host with every call recorded: what the reference side runs. */
export function createRecordingHost(answers, log, currentTheme) {
  return recordCalls(createCannedHost(answers, currentTheme), log);
}

/**
 * The runner's `ctx.sessionManager`: with `sessionEntries` (scenario.host)
 * a session of those entries (leaf: the last), for extensions that read it
 * (pi's footer and game examples); else the empty object scenarios always
 * had. Both sides get pihost's session view (js/runtime/session-manager.js),
 * so a scenario tests what extensions do with a session, not the view; the
 * canned host's appendEntry does not add to it.
 */
function cannedSessionManager(answers, cwd) {
  const entries = answers.sessionEntries;
  if (!entries) return {};
  const view = new SessionView(cwd);
  view.replace({ entries });
  return view.readonly();
}

function replaceAll(text, search, replacement) {
  return search ? text.split(search).join(replacement) : text;
}

function boundaryContext(entries) {
  // The scenario host's validation rule for boundary drafts (E10).
  entries.forEach((entry, index) => {
    if (typeof entry?.type !== "string") throw new Error(`entry ${index} has no type`);
  });
  return { entryCount: entries.length };
}

function describeRegistrations(loaded) {
  return {
    extensions: loaded.extensions.map((extension) => ({
      path: extension.path,
      tools: [...extension.tools.keys()],
      commands: [...extension.commands.keys()],
      flags: [...extension.flags.keys()],
      shortcuts: [...extension.shortcuts.keys()],
      handlers: Object.fromEntries([...extension.handlers].map(([event, list]) => [event, list.length]).sort()),
    })),
    errors: loaded.errors.map(({ path, error }) => ({ path, error })),
  };
}

/** The scenario prefix of extensions taken from pi's examples/extensions. */
export const EXAMPLES_PREFIX = "pi-examples:";

/** Runs one scenario; `dir` is its folder's absolute path. */
export async function runScenario(scenario, dir, env) {
  const log = [];
  // pihost binds its real, Rust-backed host here (env.createHost); the
  // reference gets the canned JS host. Both are wrapped by recordCalls.
  const host = env.createHost
    ? env.createHost(scenario.host ?? {}, log)
    : createRecordingHost(scenario.host ?? {}, log, env.currentTheme);
  const eventBus = env.createEventBus();
  // "pi-examples:x.ts" names one of pi's own example extensions, loaded from
  // the reference install (never copied into a scenario).
  const examples = env.examplesDir;
  const paths = (scenario.extensions ?? []).map((file) =>
    file.startsWith(EXAMPLES_PREFIX) ? `${examples}/${file.slice(EXAMPLES_PREFIX.length)}` : `${dir}/${file}`,
  );
  const loaded = await env.loadExtensions(paths, dir, eventBus);
  // What pi's CLI initialises once the extensions are loaded (its theme).
  env.afterLoad?.();
  const session = { runner: undefined, loaded, bound: false, reloads: [] };
  const adopt = (runner) => {
    runner.onError(({ extensionPath, event, error }) => log.push({ kind: "error", extensionPath, event, error }));
    session.runner = runner;
    return runner;
  };
  const sessionManager = cannedSessionManager(scenario.host ?? {}, dir);
  adopt(env.createRunner(loaded.extensions, loaded.runtime, dir, sessionManager));
  session.reload = async () => {
    const { runner, loaded: reloaded } = await reloadExtensions(session.runner, {
      bound: session.bound,
      loadExtensions: () => env.loadExtensions(paths, dir, eventBus),
      createRunner: (fresh) => adopt(env.createRunner(fresh.extensions, fresh.runtime, dir, sessionManager)),
      bind: (fresh) => bindHost(fresh, host, session.bindStep),
    });
    session.runner = runner;
    session.loaded = reloaded;
    session.reloads.push(describeRegistrations(reloaded));
  };
  session.answers = scenario.host ?? {};
  session.log = log;
  session.started = [];
  session.screen = undefined;
  const steps = [];
  for (const step of scenario.steps ?? []) {
    const outcome = { op: step.op };
    const at = log.length;
    try {
      outcome.result = describe(await runStep(step, session, env, host, eventBus));
    } catch (error) {
      outcome.error = errorText(error);
    }
    await env.flush();
    if (session.screen) session.screen.look();
    outcome.log = log.splice(at);
    steps.push(outcome);
  }
  const output = { registrations: describeRegistrations(loaded), steps };
  if (session.reloads.length > 0) output.reloads = session.reloads;
  const portable = replaceAll(replaceAll(JSON.stringify(output), dir, "<scenario>"), examples, "<pi-examples>");
  return JSON.parse(portable);
}

/**
 * pi-tui key names a scenario's `keys` step may use, as the raw sequences a
 * terminal (without the kitty protocol) sends for them. Anything else must
 * be one character or a raw sequence starting with a control character.
 */
const KEY_SEQUENCES = {
  up: "\x1b[A",
  down: "\x1b[B",
  right: "\x1b[C",
  left: "\x1b[D",
  home: "\x1b[H",
  end: "\x1b[F",
  pageUp: "\x1b[5~",
  pageDown: "\x1b[6~",
  delete: "\x1b[3~",
  enter: "\r",
  escape: "\x1b",
  tab: "\t",
  "shift+tab": "\x1b[Z",
  backspace: "\x7f",
  space: " ",
  "ctrl+c": "\x03",
};

function keySequence(key) {
  if (Object.hasOwn(KEY_SEQUENCES, key)) return KEY_SEQUENCES[key];
  if (typeof key === "string" && (key.length === 1 || key.charCodeAt(0) < 0x20)) return key;
  throw new Error(`"${key}" is not a key name of the driver (${Object.keys(KEY_SEQUENCES).join(", ")}), one character or a raw sequence`);
}

/**
 * The frames a screen drew, as the driver records them on both sides: after
 * every step and every key, what each shown component draws now is
 * compared with what it drew before; a change is a frame, a component gone
 * (done, replaced, removed) a `closed` frame with no lines, one not drawn
 * for now (an overlay hidden with setHidden, a dialog covered by a newer
 * one) a `hidden` frame; shown again it draws anew. Components are
 * numbered in the order they first appeared, so no side's own ids show.
 */
function createScreenRecorder(env) {
  const numbers = new Map();
  let shown = new Map();
  let frames = [];
  const describeSurface = (number, surface) => ({
    component: number,
    kind: surface.kind,
    ...(surface.kind === "widget" ? { widget: surface.widget, placement: surface.placement } : {}),
  });
  return {
    look() {
      const now = new Map();
      for (const surface of env.screenView()) {
        if (!numbers.has(surface.id)) numbers.set(surface.id, numbers.size + 1);
        const number = numbers.get(surface.id);
        now.set(surface.id, surface);
        const before = shown.get(surface.id);
        if (surface.hidden) {
          if (before && !before.hidden) frames.push({ ...describeSurface(number, surface), hidden: true, lines: [] });
          continue;
        }
        const same =
          before &&
          !before.hidden &&
          before.lines.length === surface.lines.length &&
          before.lines.every((line, i) => line === surface.lines[i]);
        if (!same) frames.push({ ...describeSurface(number, surface), lines: surface.lines });
      }
      for (const [id, surface] of shown) {
        if (!now.has(id)) frames.push({ ...describeSurface(numbers.get(id), surface), closed: true, lines: [] });
      }
      shown = now;
    },
    take() {
      const taken = frames;
      frames = [];
      return taken;
    },
  };
}

/** Starts a step's call without awaiting it (`"background": true`); an `await` step takes its outcome. */
function startInBackground(session, run) {
  const call = { settled: false };
  call.promise = Promise.resolve()
    .then(run)
    .then(
      (result) => Object.assign(call, { settled: true, result }),
      (error) => Object.assign(call, { settled: true, failed: true, error }),
    );
  session.started.push(call);
  return { started: session.started.length };
}

function bindHost(runner, host, step) {
  runner.bindCore(host.actions, host.contextActions, host.providerActions);
  runner.bindCommandContext(step.commandContext === false ? undefined : host.commandActions);
  // With a screen attached (attachScreen) the UI is pi's TUI.
  runner.setUIContext(step.ui === false ? undefined : host.ui, host.uiMode ?? (host.ui ? "interactive" : "print"));
}

async function runStep(step, session, env, host, eventBus) {
  const runner = session.runner;
  const loaded = session.loaded;
  switch (step.op) {
    case "bind":
      bindHost(runner, host, step);
      session.bound = true;
      session.bindStep = step;
      return { hasUI: runner.hasUI() };
    case "reload":
      // H1 with pi's sequence (js/runtime/reload.js); later steps use the new runner (H2).
      await session.reload();
      return { extensions: session.loaded.extensions.length };
    case "emit":
      return dispatchEvent(runner, step.event, {
        buildBoundaryContext: async (_eventType, entries) => boundaryContext(entries),
        emitProjectTrust: (event, ctx) => env.emitProjectTrustEvent({ extensions: loaded.extensions }, event, ctx),
      });
    case "executeTool": {
      const definition = runner.getToolDefinition(step.name);
      if (!definition) throw new Error(`Tool "${step.name}" not found`);
      const tool = env.wrapToolDefinition(definition, (toolCallId, signal) => runner.createToolContext(toolCallId, signal));
      const updates = [];
      const execute = async () => {
        const result = await tool.execute(step.toolCallId ?? "call-1", step.args ?? {}, undefined, (update) =>
          updates.push(describe(update)),
        );
        return { result, updates };
      };
      return step.background ? startInBackground(session, execute) : execute();
    }
    case "executeRegisteredTool": {
      // The extension wrapper pi puts around registered tools (W1; in pi
      // 0.82 also W2: tools the call activated are merged into addedToolNames).
      const registered = runner.getAllRegisteredTools().find((tool) => tool.definition.name === step.name);
      if (!registered) throw new Error(`Tool "${step.name}" not found`);
      const tool = env.wrapRegisteredTool(registered, runner);
      return tool.execute(step.toolCallId ?? "call-1", step.args ?? {}, undefined, undefined);
    }
    case "runCommand": {
      const command = runner.getCommand(step.name);
      if (!command) throw new Error(`Unknown command: ${step.name}`);
      const run = () => command.handler(step.args ?? "", runner.createCommandContext());
      return step.background ? startInBackground(session, run) : run();
    }
    case "attachScreen": {
      // pi's interactive mode: the UI draws extension components on a
      // screen, and the mode extensions see is "tui".
      const base = createCannedHost(session.answers, env.currentTheme).ui ?? createCannedHost({ ui: {} }, env.currentTheme).ui;
      const reportError = (error) => session.runner.emitError(error);
      const ui = await env.attachScreen({ columns: step.columns, rows: step.rows }, base, { reportError });
      host.ui = recordUICalls(ui, session.log);
      host.uiMode = "tui";
      session.screen = createScreenRecorder(env);
      if (session.bound) runner.setUIContext(host.ui, host.uiMode);
      return { hasUI: runner.hasUI() };
    }
    case "keys": {
      if (!session.screen) throw new Error("keys need a screen (attachScreen first)");
      for (const key of step.keys ?? []) {
        await env.sendKey(keySequence(key));
        await env.flush();
        session.screen.look();
      }
      return step.keys?.length ?? 0;
    }
    case "frames": {
      if (!session.screen) throw new Error("frames need a screen (attachScreen first)");
      await env.flush();
      session.screen.look();
      return session.screen.take();
    }
    case "await": {
      // The oldest call started in the background and not yet awaited.
      const call = session.started.shift();
      if (!call) throw new Error("no call was started in the background");
      await env.flush();
      if (!call.settled) throw new Error("the call started in the background has not finished");
      if (call.failed) throw call.error;
      return call.result;
    }
    case "commands":
      return runner.getRegisteredCommands().map((command) => ({
        name: command.name,
        invocationName: command.invocationName,
        description: command.description,
      }));
    case "tools":
      return runner.getAllRegisteredTools().map((tool) => tool.definition.name);
    case "shortcuts": {
      const shortcuts = runner.getShortcuts(step.keybindings ?? {});
      return {
        shortcuts: [...shortcuts].map(([key, shortcut]) => [key, shortcut.extensionPath, shortcut.description]),
        diagnostics: runner.getShortcutDiagnostics(),
      };
    }
    case "flags":
      return { flags: [...runner.getFlags().keys()], values: Object.fromEntries(runner.getFlagValues()) };
    case "setFlag":
      return runner.setFlagValue(step.name, step.value);
    case "hasHandlers":
      return runner.hasHandlers(step.event);
    case "invalidate":
      return runner.invalidate(step.message);
    case "busEmit":
      return eventBus.emit(step.channel, step.data);
    case "call": {
      // Extensions expose test hooks on globalThis, for example to use a ctx
      // they captured earlier (R2, R3).
      const hook = globalThis[step.global];
      if (typeof hook !== "function") throw new Error(`No hook globalThis.${step.global}`);
      return hook(...(step.args ?? []));
    }
    default:
      throw new Error(`Unknown step op: ${step.op}`);
  }
}
