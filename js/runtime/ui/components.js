// The life of the components extensions show (`ctx.ui.custom`) when the host
// gives pihost a screen to draw them on: pihost calls the factory with the
// screen's `tui`, the theme, the keybindings and `done`, shows the
// component, records its frames, routes the host's keys to it, and on
// `done(result)` settles the extension's promise and disposes the component.
// A component that throws while rendering or handling a key is the error of
// the extension that showed it: reported, closed, its promise rejected.
import { currentTheme, getEditorTheme } from "pihost:pi/coding-agent/ui/theme.js";
import { Container } from "pihost:pi/pi-tui/components/container.js";
import { Text } from "pihost:pi/pi-tui/components/text.js";
import { getKeybindings } from "pihost:pi/pi-tui/keybindings.js";
import { addOutsideSettler, currentOwner, enterExtensionSync, failable, onEntryStopped } from "pihost:runtime/entries.js";
import { screenSessionOf } from "pihost:runtime/host-bridge.js";

// The session the screen draws for, until it is closed: what a late callback
// of a closed session's component reads and names then is no session's.
const NO_SESSION_STATE = { __proto__: null };
function screenHostState() {
  return screenSessionOf()?.hostState ?? NO_SESSION_STATE;
}
function screenSessionId() {
  return screenSessionOf()?.id ?? -1;
}
import { core, ops } from "pihost:runtime/ops.js";
import { VirtualScreen } from "pihost:runtime/ui/virtual-tui.js";
import { isFromAnotherRealm } from "pihost:runtime/membrane.js";
import {
  ArrayFromKeys,
  ArrayConcat,
  ArrayFromValues,
  ArrayIsArray,
  ArrayPrototypeFind,
  ArrayPrototypeSplice,
  JSONStringify,
  NativeMapOf,
  Promise,
  PromisePrototypeThen,
  PromiseResolve,
  SafeMap,
  SafeSet,
  StringPrototypeTrim,
} from "pihost:runtime/primordials.js";

let screen;
let nextComponentId = 1;
/**
 * Frames since the host last took them (`takeFrames`), when it pulls them:
 * `{ component, extension, kind, widget?, placement?, closed?, hidden?, lines }`.
 */
const frames = [];
/**
 * Whether frames go to the bound host as they are drawn (a `ui.frame`
 * notification each) instead of waiting in `frames` to be taken. Pushed
 * synchronously from the render that made them, a frame can neither be
 * lost nor overtaken: it reaches the host before anything the same turn
 * goes on to do (the answer of the key that caused it, a closed
 * component's settled promise).
 */
let pushFrames = false;
/**
 * Components whose promise is still open, by id: `close(error)` rejects it,
 * `waiting` is the entry (the tool, command or handler) that showed it.
 */
const openComponents = new SafeMap();
/** Header, footer and widgets on the screen, by slot ("header", "footer", "widget:<key>"). */
const fixedSurfaces = new SafeMap();
/** pi shows at most this many lines of a widget given as lines. */
const MAX_WIDGET_LINES = 10;
/** Callers waiting for a component to take keys. */
let focusWaiters = [];
let reportError = () => {};

// An open component can settle whatever waits on it with the next key the
// host sends, so nothing waiting is "stalled" while one is open.
addOutsideSettler(() => openComponents.size > 0);

// A call pihost stopped (its render ran past the CPU limit, say) takes its
// components with it: nothing is left to answer them. Closing disposes them,
// which is extension code: it runs as a job of its own, under the limits,
// not inside pihost's handling of the stop.
onEntryStopped((entry, error) => {
  const open = ArrayFromValues(openComponents);
  for (let index = 0; index < open.length; index++) {
    const { close, waiting } = open[index];
    if (waiting === entry) PromisePrototypeThen(PromiseResolve(), () => close(error));
  }
});

function describe(error) {
  return {
    error: error instanceof Error ? error.message : String(error),
    stack: error instanceof Error ? error.stack : undefined,
  };
}

/** Where extension errors go (the runner's error stream). */
export function setComponentErrorReporter(report) {
  reportError = report;
}

/**
 * Gives pihost a screen of `columns` × `rows`, or a new size for the one it
 * has (every shown component is drawn again). `push`: frames go to the
 * host as they are drawn; otherwise they wait for `takeFrames`.
 */
export function attachScreen({ columns, rows, push = false }) {
  pushFrames = push;
  if (screen) {
    screen.resize({ columns, rows });
    return;
  }
  screen = new VirtualScreen({
    columns,
    rows,
    onFrame: ({ surface, lines, closed, hidden }) => {
      const frame = {
        component: surface.id,
        extension: surface.owner.path,
        kind: surface.kind,
        ...(surface.kind === "widget" ? { widget: surface.widget, placement: surface.placement } : {}),
        ...(closed ? { closed: true } : {}),
        ...(hidden ? { hidden: true } : {}),
        lines,
      };
      if (pushFrames) ops.op_pihost_host_notify(screenSessionId(), "ui.frame", JSONStringify(frame));
      else frames[frames.length] = frame;
    },
    adopt: (component) => adoptComponent(component),
  });
}

function ownerNamed(path) {
  return { __proto__: null, path, session: screenSessionId(), where: "in its ui.custom component", event: "ui.custom" };
}

/** A component extension code shows on its own (`tui.showOverlay`): it lives until hidden. */
function adoptComponent(component) {
  const owner = ownerNamed(currentOwner()?.path ?? "<unknown>");
  const surface = {
    id: nextComponentId++,
    kind: "overlay",
    component,
    owner,
    fail: (error) => {
      reportError({ extensionPath: owner.path, event: "ui.custom", ...describe(error) });
      screen.remove(surface);
    },
  };
  PromisePrototypeThen(PromiseResolve(), wakeFocusWaiters);
  return surface;
}

function focusedSurface() {
  return screen?.focusedSurface();
}

function wakeFocusWaiters() {
  if (!focusedSurface()) return;
  const waiting = focusWaiters;
  focusWaiters = [];
  for (let index = 0; index < waiting.length; index++) waiting[index]();
}

/** A factory from an isolated extension's realm cannot make a component here (README, "Not built yet"). */
function refuseIsolated(factory, what) {
  if (isFromAnotherRealm(factory)) {
    throw new Error(
      `pihost: ${what} cannot show a component of an extension isolated by a permission policy: components drawn in the host's runtime are not built for isolated extensions`,
    );
  }
}

/** `ctx.ui.custom(factory, options)` on pihost's screen. */
export function showCustom(factory, options) {
  refuseIsolated(factory, "ctx.ui.custom");
  const caller = currentOwner();
  // Its render and keys run for the call that showed it, which pihost fails if they run away.
  const owner = { __proto__: null, ...ownerNamed(caller?.path ?? "<unknown>"), parent: caller };
  const id = nextComponentId++;
  const isOverlay = options?.overlay ?? false;
  return new Promise((resolve, reject) => {
    let closed = false;
    let surface;
    const dispose = () => {
      try {
        enterExtensionSync(owner, () => surface?.component?.dispose?.());
      } catch {
        // As in pi: a failing dispose does not undo the close.
      }
    };
    const close = (settle) => {
      if (closed) return;
      closed = true;
      openComponents.delete(id);
      if (surface) screen.remove(surface);
      settle();
      dispose();
    };
    const done = (result) => close(() => resolve(result));
    const fail = (error) => {
      reportError({ extensionPath: owner.path, event: "ui.custom", ...describe(error) });
      close(() => reject(error));
    };
    openComponents.set(id, { close: (error) => close(() => reject(error)), waiting: failable(caller) });
    // Called at once, as pi does: a factory that throws rejects the promise.
    const made = factory(screen.tui, currentTheme(), getKeybindings(), done);
    PromisePrototypeThen(
      PromiseResolve(made),
      (component) => {
        if (closed) return;
        surface = { id, kind: "custom", component, owner, fail };
        if (isOverlay) {
          const resolveOptions = () =>
            typeof options?.overlayOptions === "function"
              ? options.overlayOptions()
              : (options?.overlayOptions ?? (component?.width ? { width: component.width } : undefined));
          surface.resolveOptions = resolveOptions;
          const handle = screen.showOverlay(surface, resolveOptions());
          screen.renderNow();
          options?.onHandle?.(handle);
        } else {
          screen.showDialog(surface);
        }
        wakeFocusWaiters();
      },
      (error) => {
        if (closed) return;
        closed = true;
        openComponents.delete(id);
        reject(error);
      },
    );
  });
}

/** `ctx.ui.onTerminalInput(handler)`: the handler sees every key before the focused component. */
export function addTerminalInputHandler(handler) {
  const owner = { __proto__: null, path: currentOwner()?.path ?? "<unknown>", session: screenSessionId(), where: "in its onTerminalInput handler", event: "ui.onTerminalInput" };
  return screen.addInputListener((data) => {
    try {
      return enterExtensionSync(owner, () => handler(data));
    } catch (error) {
      reportError({ extensionPath: owner.path, event: "ui.onTerminalInput", ...describe(error) });
      return undefined;
    }
  });
}

function disposeFixed(surface) {
  try {
    enterExtensionSync(surface.owner, () => surface.component.dispose?.());
  } catch {
    // As in pi: a failing dispose does not keep the component on screen.
  }
}

/**
 * Puts what `make()` builds in `slot` (a new one replaces the old, which is
 * disposed; `make` undefined only clears it). `fields` says what it is
 * (`kind`, a widget's key and placement); `event` names the extension's
 * call in its errors.
 */
function placeFixed(slot, make, fields, event) {
  const owner = { __proto__: null, path: currentOwner()?.path ?? "<unknown>", session: screenSessionId(), where: `in its ${fields.kind}`, event };
  const existing = fixedSurfaces.get(slot);
  if (existing) {
    fixedSurfaces.delete(slot);
    screen.remove(existing);
    disposeFixed(existing);
  }
  if (make === undefined) return;
  // Called at once, as pi does: a factory that throws throws to the extension.
  const component = make();
  const surface = {
    id: nextComponentId++,
    ...fields,
    component,
    owner,
    fail: (error) => {
      reportError({ extensionPath: owner.path, event, ...describe(error) });
      if (fixedSurfaces.get(slot) === surface) fixedSurfaces.delete(slot);
      screen.remove(surface);
      disposeFixed(surface);
    },
  };
  fixedSurfaces.set(slot, surface);
  screen.showFixed(surface);
}

/** Widget content given as lines: at most ten, as pi shows them, each padded as pi's Text pads it. */
function linesComponent(lines) {
  const component = new Container();
  for (let index = 0; index < lines.length && index < MAX_WIDGET_LINES; index++) component.addChild(new Text(lines[index], 1, 0));
  if (lines.length > MAX_WIDGET_LINES) {
    component.addChild(new Text(currentTheme().fg("muted", "... (widget truncated)"), 1, 0));
  }
  return component;
}

/** `ctx.ui.setWidget(key, content, options)`: lines or a factory `(tui, theme)`; undefined removes it. */
export function setScreenWidget(key, content, options) {
  refuseIsolated(content, "ctx.ui.setWidget");
  const make =
    content === undefined
      ? undefined
      : () => (ArrayIsArray(content) ? linesComponent(content) : content(screen.tui, currentTheme()));
  placeFixed(`widget:${key}`, make, { kind: "widget", widget: key, placement: options?.placement ?? "aboveEditor" }, "ui.setWidget");
}

/** `ctx.ui.setHeader(factory)`: a factory `(tui, theme)`, or undefined for pi's own header. */
export function setScreenHeader(factory) {
  refuseIsolated(factory, "ctx.ui.setHeader");
  placeFixed("header", factory && (() => factory(screen.tui, currentTheme())), { kind: "header" }, "ui.setHeader");
}

/** Extension statuses (`ctx.ui.setStatus`), which footers read. */
const statuses = new SafeMap();
const branchListeners = new SafeSet();

/**
 * What pi's footer factories get beside `tui` and the theme. pihost knows no
 * git branch (null, as outside a repository) and no model providers (0).
 */
const footerData = {
  getGitBranch: () => null,
  getExtensionStatuses: () => NativeMapOf(statuses),
  getAvailableProviderCount: () => 0,
  onBranchChange(callback) {
    branchListeners.add(callback);
    return () => branchListeners.delete(callback);
  },
};

/** `ctx.ui.setFooter(factory)`: a factory `(tui, theme, footerData)`, or undefined for pi's own footer. */
export function setScreenFooter(factory) {
  refuseIsolated(factory, "ctx.ui.setFooter");
  placeFixed("footer", factory && (() => factory(screen.tui, currentTheme(), footerData)), { kind: "footer" }, "ui.setFooter");
}

/** `ctx.ui.setStatus(key, text)`: kept for footers, which are drawn again. */
function setScreenStatus(key, text) {
  if (text === undefined) statuses.delete(key);
  else statuses.set(key, text);
  screen.requestRender();
}

/** The extension's editor (`ctx.ui.setEditorComponent`): its surface and the factory that made it. */
let editor;

/** The editor's text as pi reads it (pasted blocks expanded). */
function editorText(component) {
  return component.getExpandedText?.() ?? component.getText?.() ?? "";
}

/**
 * What pi's default editor does with a submitted text, as far as it is the
 * extensions' business: trimmed, nothing when blank, else kept in the
 * editor's history and handed on (pi prompts with it; pihost tells the
 * host, whose prompt it is: `ui.editorSubmit`).
 */
function submitToHost(component, text) {
  const submitted = StringPrototypeTrim(String(text ?? ""));
  if (!submitted) return;
  component.addToHistory?.(submitted);
  ops.op_pihost_host_notify(screenSessionId(), "ui.editorSubmit", JSONStringify({ text: submitted }));
}

/**
 * `ctx.ui.setEditorComponent(factory)`: as pi's setCustomEditorComponent,
 * the factory gets `(tui, editorTheme, keybindings)`, its editor takes the
 * current text, pi's default editor's wiring (submit, change, border colour,
 * padding, completion rows) and the editor's place, with focus unless a
 * dialog is open. `undefined` takes it away: the text goes back to the
 * host's own editor (`ui.setEditorText`), as pi gives it back to its default one.
 */
export function setScreenEditor(factory, tellHost) {
  refuseIsolated(factory, "ctx.ui.setEditorComponent");
  const previous = editor;
  const text = previous ? editorText(previous.surface.component) : (screenHostState().editorText ?? "");
  if (previous) {
    editor = undefined;
    screen.remove(previous.surface);
    // pi only drops the old editor; pihost disposes it, so a timer it runs
    // (an animation) stops with it instead of running for the whole session.
    disposeFixed(previous.surface);
  }
  if (!factory) {
    if (previous) tellHost.setEditorText(text);
    return;
  }
  const owner = { __proto__: null, path: currentOwner()?.path ?? "<unknown>", session: screenSessionId(), where: "in its editor component", event: "ui.setEditorComponent" };
  // Called at once, as pi does: a factory that throws throws to the extension.
  const component = factory(screen.tui, getEditorTheme(), getKeybindings());
  component.onSubmit = (submitted) => submitToHost(component, submitted);
  component.onChange = (changed) => {
    screenHostState().editorText = changed;
  };
  component.setText?.(text);
  const theme = currentTheme();
  if (component.borderColor !== undefined && theme.getThinkingBorderColor) {
    component.borderColor = theme.getThinkingBorderColor(screenHostState().thinkingLevel || "off");
  }
  component.setPaddingX?.(screenHostState().settings?.editorPaddingX ?? 0);
  component.setAutocompleteMaxVisible?.(screenHostState().settings?.autocompleteMaxVisible ?? 5);
  const surface = {
    id: nextComponentId++,
    kind: "editor",
    component,
    owner,
    fail: (error) => {
      reportError({ extensionPath: owner.path, event: "ui.setEditorComponent", ...describe(error) });
      if (editor?.surface === surface) editor = undefined;
      screen.remove(surface);
      disposeFixed(surface);
    },
  };
  editor = { surface, factory, tellHost };
  screen.setEditor(surface);
  wakeFocusWaiters();
}

/** `ctx.ui.getEditorComponent()`: the factory of the editor shown, as pi answers it. */
function getScreenEditorFactory() {
  return editor?.factory;
}

/**
 * Gives `ui` (the host's UI context) pihost's components: custom, terminal
 * input, widgets, header and footer (the host is still told of each
 * setWidget, setHeader, setFooter and setStatus).
 */
export function withScreenComponents(ui) {
  const tellHost = {
    setWidget: ui.setWidget,
    setHeader: ui.setHeader,
    setFooter: ui.setFooter,
    setStatus: ui.setStatus,
    setEditorText: ui.setEditorText,
    getEditorText: ui.getEditorText,
    pasteToEditor: ui.pasteToEditor,
  };
  ui.custom = showCustom;
  ui.onTerminalInput = addTerminalInputHandler;
  ui.setWidget = (key, content, options) => {
    tellHost.setWidget(key, content, options);
    setScreenWidget(key, content, options);
  };
  ui.setHeader = (factory) => {
    tellHost.setHeader(factory);
    setScreenHeader(factory);
  };
  ui.setFooter = (factory) => {
    tellHost.setFooter(factory);
    setScreenFooter(factory);
  };
  ui.setStatus = (key, text) => {
    tellHost.setStatus(key, text);
    setScreenStatus(key, text);
  };
  ui.setEditorComponent = (factory) => setScreenEditor(factory, tellHost);
  ui.getEditorComponent = getScreenEditorFactory;
  // With an editor of the extension's on the screen, the editor calls are
  // its own, as pi's are its current editor's; else the host's editor.
  ui.getEditorText = () => (editor ? editorText(editor.surface.component) : tellHost.getEditorText());
  ui.setEditorText = (text) => {
    if (!editor) return tellHost.setEditorText(text);
    editor.surface.component.setText(text);
    screenHostState().editorText = text;
    screen.requestRender();
  };
  ui.pasteToEditor = (text) => {
    if (!editor) return tellHost.pasteToEditor(text);
    enterExtensionSync(editor.surface.owner, () => editor.surface.component.handleInput(`\x1b[200~${text}\x1b[201~`));
    screen.requestRender();
  };
  return ui;
}

/**
 * pi's reset of extension UI when extensions reload: every component, widget,
 * header, footer and input listener goes (each disposed). An open
 * `ctx.ui.custom` promise is left unsettled, as pi leaves it: its extension
 * is gone, and the never-settles check may now fail the call that awaits it.
 */
export function resetScreen() {
  if (!screen) return;
  // pi's reset sets the editor component back to its default editor, text
  // and all: the text goes back to the host's editor (the surfaces below
  // dispose the extension's).
  if (editor) editor.tellHost.setEditorText(editorText(editor.surface.component));
  const shown = ArrayConcat(ArrayFromValues(fixedSurfaces), screen.surfaces());
  editor = undefined;
  fixedSurfaces.clear();
  openComponents.clear();
  statuses.clear();
  branchListeners.clear();
  screen.clear();
  for (let index = 0; index < shown.length; index++) {
    const surface = shown[index];
    try {
      enterExtensionSync(surface.owner, () => surface.component?.dispose?.());
    } catch {
      // As in pi: a failing dispose does not stop the reset.
    }
  }
}

/** The component that has focus now, as `{ component, kind }`, or null. */
export function focusedComponent() {
  const surface = focusedSurface();
  return surface ? { component: surface.id, kind: surface.kind } : null;
}

/** Resolves once some component has focus (at once if one has). */
export function waitForFocus() {
  if (focusedSurface()) return PromiseResolve();
  return new Promise((wake) => {
    focusWaiters[focusWaiters.length] = wake;
  });
}

/** One turn of the event loop: timers the key started (a coalesced render) run first. */
function nextTurn() {
  return new Promise((resolve) => core.createTimer(resolve, 0, undefined, false, true));
}

/**
 * Sends the host's key `data` (a raw sequence) to the focused component and
 * lets the event loop turn so what it started is drawn. Answers the id of
 * the component that got it, or null.
 */
export async function sendInput(data) {
  if (!screen) throw new Error("pihost: no screen is attached (attachTerminal first)");
  const target = screen.input(data);
  await nextTurn();
  return target?.id ?? null;
}

/** The surface on the screen with component id `id`, of any kind. */
function surfaceWithId(id) {
  return screen ? ArrayPrototypeFind(screen.allSurfaces(), (surface) => surface.id === id) : undefined;
}

/**
 * Sends the host's key `data` to component `id`, if it has focus (keys only
 * ever reach the focused component, as in pi-tui), and lets the event loop
 * turn so what it started is drawn. Answers `{ delivered }`, or
 * `{ unknown: true }` when no component has that id.
 */
export async function sendInputTo(id, data) {
  const known = openComponents.has(id) || surfaceWithId(id) !== undefined;
  if (!known) return { unknown: true };
  if (focusedSurface()?.id !== id) return { delivered: false };
  screen.input(data);
  await nextTurn();
  return { delivered: true };
}

/**
 * Draws component `id` at a size of its own from now on (and again at
 * once); answers false when no component on the screen has that id.
 */
export function resizeComponent(id, size) {
  const surface = surfaceWithId(id);
  if (!surface) return false;
  screen.resizeSurface(surface, size);
  return true;
}

/**
 * Closes the open `ctx.ui.custom` component `id` for the host: it is
 * disposed and its promise rejects with `reason`. Answers false when no
 * open component has that id.
 */
export function closeComponent(id, reason) {
  const open = openComponents.get(id);
  if (!open) return false;
  open.close(new Error(reason));
  return true;
}

/** The frames since the last call, oldest first. */
export function takeFrames() {
  screen?.flush();
  return ArrayPrototypeSplice(frames, 0);
}

/**
 * Closes every open component for the host: each is disposed and its
 * promise rejects with `reason` (pi never closes a component from outside,
 * so no answer of the component's own type would be honest). Answers their ids.
 */
export function closeOpenComponents(reason) {
  const ids = ArrayFromKeys(openComponents);
  for (let index = 0; index < ids.length; index++) openComponents.get(ids[index])?.close(new Error(reason));
  return ids;
}
