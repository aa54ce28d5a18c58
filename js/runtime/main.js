// pihost's runtime entry point: installs the globals and exports the
// functions Rust calls.
import "pihost:runtime/globals.js";
import { createExtensionRuntime } from "pihost:runtime/extension-runtime.js";
import { createEventBus } from "pihost:runtime/event-bus.js";
import { clearExtensionCache as clearCache, loadExtensions as loadExtensionList } from "pihost:runtime/loader.js";
import { describeLoad, describeTool } from "pihost:runtime/snapshot.js";
import { ExtensionRunner, emitProjectTrustEvent } from "pihost:runtime/runner.js";
import { ModelRegistry } from "pihost:pi/coding-agent/model-registry.js";
import { createHostModelRuntime, resolveSessionModelRuntime } from "pihost:pi/coding-agent/host-model-runtime.js";
import { wrapRegisteredTool } from "pihost:runtime/tool-wrapper.js";
import { ops, resolveOpSession } from "pihost:runtime/ops.js";
import { createHostSession, resolveCurrentSession, screenSessionOf, useScreenComponents } from "pihost:runtime/host-bridge.js";
import { dispatchEvent } from "pihost:runtime/dispatch.js";
export { CALL_PENDING, reportingCall } from "pihost:runtime/call-settlement.js";
import { validateOwnToolArguments, validateToolArguments } from "pihost:runtime/validate-tool-arguments.js";
import { reloadExtensions } from "pihost:runtime/reload.js";
import { configureHeapLimit, currentOwner, enterExtension } from "pihost:runtime/entries.js";
import { configureLoadLimits } from "pihost:runtime/loader.js";
import { stopGuests } from "pihost:runtime/isolation.js";
import {
  ArrayFromEntries,
  ArrayFromValues,
  ArrayPrototypeMap,
  JSONParse,
  JSONStringify,
  ObjectDefineProperty,
  PromisePrototypeThen,
  PromiseResolve,
  ReflectApply,
  SafeMap,
  SafeWeakMap,
  StringPrototypeStartsWith,
} from "pihost:runtime/primordials.js";
export { failStalled, failTerminated } from "pihost:runtime/entries.js";

// Every function here is called from Rust through its call table
// (src/engine/calls.rs): arguments arrive as values, answers go back as JSON
// text. The second argument names the session the call is for (none: the
// first, session 0): a runtime holds one session (pihost's isolated mode)
// or many (its shared mode), each with its own load, runner, host and host state; modules and
// cached factories (L6) are the runtime's. Like the rest of pihost's runtime, it uses the built-ins captured
// before any extension ran (primordials.js), so an extension that patches
// JSON, arrays or maps cannot change what pihost tells the host.

/** Takes the engine's limits that JavaScript keeps (`{ loadTimeoutMs, heapMb }`). */
export function configureLimits(limits) {
  configureLoadLimits(limits);
  configureHeapLimit(limits.heapMb);
  return "null";
}

/**
 * One session: what its last load produced, kept for the host calls that
 * follow it, and its side of the host bridge.
 */
function createSession(id) {
  const models = createHostModelRuntime();
  return {
    id,
    runtime: undefined,
    eventBus: undefined,
    extensions: [],
    runner: undefined,
    bound: false,
    runningTools: new SafeMap(),
    models,
    host: createHostSession(id, models),
  };
}

/** The sessions of this runtime by id; session 0 is there from the start. */
const sessions = new SafeMap();
sessions.set(0, createSession(0));

function sessionFor(id) {
  const session = sessions.get(id ?? 0);
  if (session === undefined) throw new Error(`pihost: session ${id} is not open in this runtime`);
  return session;
}

/**
 * The session whose extension code runs now: the one its entry names, or
 * the only one when there is a single session (pihost's isolated mode).
 */
function currentSession() {
  const id = currentOwner()?.session;
  if (id !== undefined) return sessions.get(id);
  if (sessions.size === 1) for (const only of sessions.values()) return only;
  return undefined;
}
resolveCurrentSession(() => currentSession()?.id);
resolveOpSession(() => currentSession()?.id ?? -1);
resolveSessionModelRuntime(() => currentSession()?.models.runtime);

/** Opens session `id` in this runtime (shared mode): nothing loaded, no host bound. */
export function openSession(_argument, id) {
  if (sessions.has(id)) throw new Error(`pihost: session ${id} is already open`);
  sessions.set(id, createSession(id));
  return "null";
}

/**
 * Ends session `id`: every ctx and pi object of its extensions throws from
 * now on (R3), its running tools are aborted and its isolated extensions
 * stopped. The modules and cached factories stay for the other sessions.
 */
export function closeSession(_argument, id) {
  const session = sessions.get(id);
  if (session === undefined) return "null";
  sessions.delete(id);
  session.runner?.invalidate("This extension's session was closed.");
  for (const controller of session.runningTools.values()) controller.abort();
  stopGuests(id);
  if (hasScreen(session)) {
    screen.resetScreen();
    useScreenComponents(screen, undefined);
  }
  return "null";
}

function newRunner(session, loaded, cwd) {
  const runner = new ExtensionRunner(loaded.extensions, loaded.runtime, cwd, session.host.sessionView.readonly(), new ModelRegistry(session.models.runtime));
  runner.onError((error) => ops.op_pihost_report_error(session.id, error));
  return runner;
}

/**
 * Loads extensions. `request`: { cwd, useCache, entries: [{ path, resolvedPath, moduleUrl }] }.
 * Resolves to the JSON of the load report.
 */
/**
 * Loads and reloads of the runtime's sessions run one at a time: what the
 * engine notes while an extension loads (the loading mark a stuck load is
 * blamed by, `--timing`'s stages) is about one extension at a time.
 */
let previousLoad = PromiseResolve();
const settledAnyway = () => undefined;

function inTurn(load) {
  const run = () => load();
  const turn = PromisePrototypeThen(previousLoad, run, run);
  previousLoad = PromisePrototypeThen(turn, settledAnyway, settledAnyway);
  return turn;
}

export function loadExtensions(request, sessionId) {
  const session = sessionFor(sessionId);
  return inTurn(() => loadInto(session, request));
}

async function loadInto(session, request) {
  stopGuests(session.id);
  // Each load gets its own shared runtime and bus, as each pi loadExtensions() call does.
  session.runtime = createExtensionRuntime();
  session.eventBus = createEventBus();
  const result = await loadExtensionList(request.entries, {
    cwd: request.cwd,
    eventBus: session.eventBus,
    runtime: session.runtime,
    useCache: request.useCache,
    sessionId: session.id,
  });
  session.extensions = result.extensions;
  session.host.sessionView.setDefaultCwd(request.cwd);
  session.runner = newRunner(session, { extensions: result.extensions, runtime: session.runtime }, request.cwd);
  return JSONStringify(describeLoad(result, session.runtime));
}

/** Forgets every cached extension factory (L6). Resolves to "null". */
export function clearExtensionCache() {
  clearCache();
  return "null";
}

function runnerOf(session) {
  if (!session.runner) throw new Error("pihost: no extensions are loaded");
  return session.runner;
}

function currentRunner(sessionId) {
  return runnerOf(sessionFor(sessionId));
}

/** `undefined` and `null` stay apart: { result } with result left out when undefined. */
function resultJson(result) {
  return JSONStringify({ result });
}

/** Binds the host (R1): its state, actions, UI and provider registry. */
export function bindHost(state, sessionId) {
  const session = sessionFor(sessionId);
  const runner = runnerOf(session);
  const { host } = session;
  host.setHostState(state);
  const binding = host.createHostBinding();
  runner.bindCore(binding.actions, binding.contextActions, binding.providerActions);
  runner.bindCommandContext(binding.commandActions);
  runner.setUIContext(binding.ui, host.uiMode());
  if (hasScreen(session)) screen.setComponentErrorReporter((error) => runner.emitError(error));
  session.bound = true;
  return "null";
}

/**
 * pihost's screen for extension components (js/runtime/ui/components.js),
 * loaded when a host first attaches one: runtime creation does not pay for it.
 */
let screen;

/** Whether pihost's screen draws for `session` (one session of a runtime can have it). */
function hasScreen(session) {
  return screen !== undefined && screenSessionOf()?.id === session.id;
}

async function loadScreen(session) {
  const owner = screenSessionOf();
  if (owner !== undefined && owner.id !== session.id && sessions.has(owner.id)) {
    throw new Error(`pihost: the screen of this runtime draws for session ${owner.id}; a second session's screen is not built`);
  }
  if (!screen) screen = await import("pihost:runtime/ui/components.js");
  if (!hasScreen(session)) {
    useScreenComponents(screen, { id: session.id, hostState: session.host.hostState });
    if (session.bound) screen.setComponentErrorReporter((error) => runnerOf(session).emitError(error));
  }
  return screen;
}

/** pihost's screen when it draws for session `sessionId`, or undefined. */
function screenOf(sessionId) {
  return hasScreen(sessionFor(sessionId)) ? screen : undefined;
}

/**
 * Gives pihost a screen (`{ columns, rows }`) to draw extension components
 * on: from now on the UI is pi's TUI (`ctx.mode` "tui") and `ctx.ui.custom`
 * shows the extension's own component. Again with another size: a resize.
 */
export async function attachTerminal({ columns, rows, push }, sessionId) {
  const session = sessionFor(sessionId);
  const terminal = { columns, rows };
  const { attachScreen } = await loadScreen(session);
  session.host.setHostState({ terminal });
  attachScreen({ ...terminal, push: push === true });
  if (session.bound) runnerOf(session).setUIContext(session.host.createUI(), session.host.uiMode());
  return "null";
}

/** Resolves once a component has focus and can take keys. */
export async function waitForComponent(_argument, sessionId) {
  await (await loadScreen(sessionFor(sessionId))).waitForFocus();
  return "null";
}

/** The component that has focus now: JSON `{ component, kind }`, or null. */
export function focusedUiComponent(_argument, sessionId) {
  const shown = screenOf(sessionId);
  return JSONStringify(shown ? shown.focusedComponent() : null);
}

/** Sends one raw key sequence to the focused component; resolves to the JSON id of the component that got it. */
export async function sendUiInput(data, sessionId) {
  const shown = screenOf(sessionId);
  return JSONStringify(shown ? await shown.sendInput(data) : null);
}

/**
 * Sends a raw key sequence to one component (`{ id, data }`); resolves to
 * JSON `{ delivered }`, or `{ unknown: true }` when no component has the id.
 */
export async function sendUiInputTo({ id, data }, sessionId) {
  const shown = screenOf(sessionId);
  return JSONStringify(shown ? await shown.sendInputTo(id, data) : { unknown: true });
}

/** Draws one component (`{ id, columns, rows }`) at a size of its own; JSON false for an unknown id. */
export function resizeUiComponent({ id, columns, rows }, sessionId) {
  const shown = screenOf(sessionId);
  return JSONStringify(shown ? shown.resizeComponent(id, { columns, rows }) : false);
}

/** Closes one open component (`{ id, reason }`), rejecting its promise; JSON false for an unknown id. */
export function closeUiComponent({ id, reason }, sessionId) {
  const shown = screenOf(sessionId);
  return JSONStringify(shown ? shown.closeComponent(id, reason) : false);
}

/** The frames drawn since the last call: JSON `[{ component, extension, kind, …, lines }]`. */
export function takeUiFrames(_argument, sessionId) {
  const shown = screenOf(sessionId);
  return JSONStringify(shown ? shown.takeFrames() : []);
}

/** Closes every open component, rejecting its promise with the reason given (JSON text); resolves to their JSON ids. */
export function closeUiComponents(reason, sessionId) {
  const shown = screenOf(sessionId);
  return JSONStringify(shown ? shown.closeOpenComponents(reason) : []);
}

/** pi-tui key names ("down", "ctrl+c") as the raw sequences a terminal sends; an unknown name throws. */
export async function encodeKeys(names) {
  const { encodeKey } = await import("pihost:pi/pi-tui/keys.js");
  return JSONStringify(
    ArrayPrototypeMap(names, (name) => {
      const sequence = encodeKey(name);
      if (sequence === undefined) throw new Error(`"${name}" is not a key pi-tui knows (for example up, enter, escape, ctrl+c, shift+tab, a)`);
      return sequence;
    }),
  );
}

/**
 * Reload (H1): session_shutdown to the old extensions, invalidate them, load
 * anew keeping flag values (active tools live in the host state and stay),
 * bind the same host again, then session_start. Every later call reaches the
 * new runner (H2). `request` is a load request; resolves to the new load report.
 */
export function reload(request, sessionId) {
  const session = sessionFor(sessionId);
  return inTurn(() => reloadInto(session, request));
}

async function reloadInto(session, request) {
  const wasBound = session.bound;
  session.bound = false;
  let result;
  const { runner } = await reloadExtensions(runnerOf(session), {
    bound: wasBound,
    async loadExtensions() {
      stopGuests(session.id);
      session.runtime = createExtensionRuntime();
      result = await loadExtensionList(request.entries, {
        cwd: request.cwd,
        eventBus: session.eventBus,
        runtime: session.runtime,
        useCache: request.useCache,
        sessionId: session.id,
      });
      return { ...result, runtime: session.runtime };
    },
    createRunner(loaded) {
      session.extensions = loaded.extensions;
      session.runner = newRunner(session, loaded, request.cwd);
      return session.runner;
    },
    bind() {
      if (hasScreen(session)) screen.resetScreen();
      bindHost({}, session.id);
    },
  });
  session.runner = runner;
  return JSONStringify(describeLoad(result, session.runtime));
}

/** Replaces parts of the host state the getters read. */
export function setHostState(state, sessionId) {
  sessionFor(sessionId).host.setHostState(state);
  return "null";
}

/** Dispatches one event with its family's merge rule; resolves to { result }. */
/**
 * What dispatchEvent asks of the host for the host's own events: made once,
 * not per event (the runner is the current one when an event needs it).
 */
function hostEventsOf(session) {
  session.hostEvents ??= {
    __proto__: null,
    ownsEvent: true,
    buildBoundaryContext: async (eventType, entries) =>
      JSONParse((await ops.op_pihost_host_request(session.id, "buildBoundaryContext", JSONStringify({ eventType, entries }))) || "null"),
    emitProjectTrust: (trustEvent, ctx) => emitProjectTrustEvent(runnerOf(session).extensions, trustEvent, ctx),
  };
  return session.hostEvents;
}

export async function emitEvent(event, sessionId) {
  return resultJson(await dispatchHostEvent(event, sessionId));
}

/** What emitKept answers when the handlers left the value as the host sent it. */
const KEPT_UNCHANGED = JSONStringify({ unchanged: true });
/** The length of `{"result":` that opens resultJson's text. */
const RESULT_OPENING = 10;

/**
 * An event whose one large field (a context event's messages, E6; a
 * provider request's payload, E8) arrives as the host's own JSON text
 * (src/engine/calls.rs, `KeptEvent`). Most handlers read it and change
 * nothing; then the answer says so instead of carrying it back, and the
 * host keeps its own: reading 200 messages out and parsing them again was
 * a fifth of a context event (docs/benchmarks.md, twenty-eighth session).
 * "Unchanged" means the answer's text is exactly the host's text, so what
 * the host keeps is what it would have read.
 */
async function emitKept(type, field, text, sessionId) {
  const answer = resultJson(await dispatchHostEvent({ type, [field]: JSONParse(text) }, sessionId));
  // Compared in place: a slice would copy the whole text.
  const unchanged = answer.length === text.length + RESULT_OPENING + 1 && StringPrototypeStartsWith(answer, text, RESULT_OPENING);
  return unchanged ? KEPT_UNCHANGED : answer;
}

export function emitContext(messagesText, sessionId) {
  return emitKept("context", "messages", messagesText, sessionId);
}

export function emitBeforeProviderRequest(payloadText, sessionId) {
  return emitKept("before_provider_request", "payload", payloadText, sessionId);
}

/** Dispatches one event the host sent; resolves to what its family's merge rule answers. */
async function dispatchHostEvent(event, sessionId) {
  const session = sessionFor(sessionId);
  const runner = runnerOf(session);
  try {
    const result = await dispatchEvent(runner, event, hostEventsOf(session));
    // The host's session_start is pi's session starting: then pi reports the
    // MCP servers that no extension connects.
    if (event.type === "session_start") runner.reportUnhandledMcpServers();
    return result;
  } catch (error) {
    // As pi's agent session: whatever a tool_call handler throws blocks the
    // tool, with an Error the host can show.
    if (event.type !== "tool_call" || error instanceof Error) throw error;
    throw new Error(`Extension failed, blocking execution: ${String(error)}`);
  }
}

/** Each registered tool's wrapper (W1), made on its first call by a runner: it holds no state of a call. */
const wrappedTools = new SafeWeakMap();

function wrappedTool(registered, runner) {
  const known = wrappedTools.get(registered);
  if (known !== undefined && known.runner === runner) return known.tool;
  const tool = wrapRegisteredTool(registered, runner);
  wrappedTools.set(registered, { runner, tool });
  return tool;
}

/** Runs a registered tool with a context made for this call (W1); updates stream to Rust. */
export async function executeTool({ name, toolCallId, args }, sessionId) {
  const session = sessionFor(sessionId);
  const runner = runnerOf(session);
  const { runningTools } = session;
  const registered = runner.findRegisteredTool(name);
  if (!registered) throw new Error(`Tool "${name}" is not registered by any extension`);
  const tool = wrappedTool(registered, runner);
  const controller = new AbortController();
  // Something outside the event loop (an abort) can still settle a tool
  // that listens to its signal; one that does not can never be settled.
  let listensForAbort = false;
  const { signal } = controller;
  const addListener = signal.addEventListener;
  signal.addEventListener = function (type, ...rest) {
    if (type === "abort") listensForAbort = true;
    const args = [type];
    for (let index = 0; index < rest.length; index++) args[index + 1] = rest[index];
    return ReflectApply(addListener, this, args);
  };
  runningTools.set(toolCallId, controller);
  try {
    const owner = {
      __proto__: null,
      path: registered.sourceInfo?.path ?? "<unknown>",
      session: session.id,
      where: `in tool "${name}"`,
      event: `tool ${name}`,
      settlesFromOutside: () => (listensForAbort || signal.onabort != null) && !signal.aborted,
    };
    const result = await enterExtension(owner, () => {
      // As pi's agent loop does before a call: the tool's own argument
      // repair, then pi-ai's coercion and schema check, whose text is the error.
      const given = args ?? {};
      const prepared = tool.prepareArguments ? tool.prepareArguments(given) : given;
      const run = (ready) => {
        // Arguments read from the host's JSON for this call are this call's
        // own; what prepareArguments answers may be held elsewhere.
        const validate = ready === given ? validateOwnToolArguments : validateToolArguments;
        const validated = validate(tool, { type: "toolCall", id: toolCallId, name, arguments: ready });
        return tool.execute(toolCallId, validated, signal, (update) =>
          ops.op_pihost_tool_update(session.id, toolCallId, JSONParse(JSONStringify(update ?? null))),
        );
      };
      // An isolated extension's prepareArguments answers from its own runtime.
      return registered.isolated && tool.prepareArguments ? PromisePrototypeThen(PromiseResolve(prepared), run) : run(prepared);
    });
    return resultJson(result);
  } finally {
    runningTools.delete(toolCallId);
  }
}

/** Aborts a running tool's signal. */
export function abortTool(toolCallId, sessionId) {
  sessionFor(sessionId).runningTools.get(toolCallId)?.abort();
  return "null";
}

/** Runs a command by its invocation name (N2) with a command context (R2). */
export async function runCommand({ name, args }, sessionId) {
  const session = sessionFor(sessionId);
  const runner = runnerOf(session);
  const command = runner.getCommand(name);
  if (!command) throw new Error(`Unknown command: /${name}`);
  const ctx = runner.createCommandContext();
  const owner = {
    __proto__: null,
    path: command.sourceInfo?.path ?? "<unknown>",
    session: session.id,
    where: `in command "/${name}"`,
    event: `/${name}`,
  };
  return resultJson(await enterExtension(owner, () => command.handler(args ?? "", ctx)));
}

/** Commands with invocation names, tools (first registration wins), flags and values. */
export function listRegistrations(_argument, sessionId) {
  const runner = currentRunner(sessionId);
  return JSONStringify({
    commands: ArrayPrototypeMap(runner.getRegisteredCommands(), (command) => ({
      name: command.name,
      invocationName: command.invocationName,
      description: command.description,
      extensionPath: command.sourceInfo?.path,
    })),
    tools: ArrayPrototypeMap(runner.getAllRegisteredTools(), (tool) => {
      const described = describeTool(tool);
      return { ...described, parameters: described.parameters ?? {} };
    }),
    flags: ArrayPrototypeMap(ArrayFromValues(runner.getFlags()), (flag) => ({
      name: flag.name,
      type: flag.type,
      description: flag.description,
      extensionPath: flag.extensionPath,
    })),
    flagValues: objectOf(runner.getFlagValues()),
  });
}

/** A map's entries as an object's fields, without the map's (patchable) iterator. */
function objectOf(map) {
  const object = {};
  const entries = ArrayFromEntries(map);
  // As Object.fromEntries: own fields, "__proto__" included.
  for (let index = 0; index < entries.length; index++) {
    ObjectDefineProperty(object, entries[index][0], { __proto__: null, value: entries[index][1], writable: true, enumerable: true, configurable: true });
  }
  return object;
}

export function setFlag({ name, value }, sessionId) {
  currentRunner(sessionId).setFlagValue(name, value);
  return "null";
}

/** Extension shortcuts for a keybinding map, with the conflict diagnostics (N3). */
export function resolveShortcuts(keybindings, sessionId) {
  const runner = currentRunner(sessionId);
  const shortcuts = runner.getShortcuts(keybindings);
  return JSONStringify({
    shortcuts: ArrayPrototypeMap(ArrayFromEntries(shortcuts), ({ 0: key, 1: shortcut }) => ({
      key,
      extensionPath: shortcut.extensionPath,
      description: shortcut.description,
    })),
    diagnostics: runner.getShortcutDiagnostics(),
  });
}

/** Makes every old ctx and pi object throw (R3). */
export function invalidate(message, sessionId) {
  currentRunner(sessionId).invalidate(message ?? undefined);
  return "null";
}
