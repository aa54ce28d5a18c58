// The life of the components extensions show (`ctx.ui.custom`) when the host
// gives pihost a screen to draw them on: pihost calls the factory with the
// screen's `tui`, the theme, the keybindings and `done`, shows the
// component, records its frames, routes the host's keys to it, and on
// `done(result)` settles the extension's promise and disposes the component.
// A component that throws while rendering or handling a key is the error of
// the extension that showed it: reported, closed, its promise rejected.
import { currentTheme } from "pihost:pi/coding-agent/ui/theme.js";
import { Container } from "pihost:pi/pi-tui/components/container.js";
import { Text } from "pihost:pi/pi-tui/components/text.js";
import { getKeybindings } from "pihost:pi/pi-tui/keybindings.js";
import { addOutsideSettler, currentOwner, enterExtensionSync } from "pihost:runtime/entries.js";
import { core } from "pihost:runtime/ops.js";
import { VirtualScreen } from "pihost:runtime/ui/virtual-tui.js";

let screen;
let nextComponentId = 1;
/** Frames since the host last took them: `{ component, extension, overlay?, lines }`. */
const frames = [];
/** Components whose promise is still open, by id: how the host closes each (with the error its promise rejects with). */
const openComponents = new Map();
/** Widgets on the screen, by key. */
const widgets = new Map();
/** pi shows at most this many lines of a widget given as lines. */
const MAX_WIDGET_LINES = 10;
/** Callers waiting for a component to take keys. */
let focusWaiters = [];
let reportError = () => {};

// An open component can settle whatever waits on it with the next key the
// host sends, so nothing waiting is "stalled" while one is open.
addOutsideSettler(() => openComponents.size > 0);

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

/** Gives pihost a screen of `columns` × `rows`, or a new size for the one it has. */
export function attachScreen({ columns, rows }) {
  if (screen) {
    screen.resize({ columns, rows });
    return;
  }
  screen = new VirtualScreen({
    columns,
    rows,
    onFrame: ({ surface, lines }) => {
      frames.push({
        component: surface.id,
        extension: surface.owner.path,
        ...(surface.overlay ? { overlay: true } : {}),
        ...(surface.widget !== undefined ? { widget: surface.widget, placement: surface.placement } : {}),
        lines,
      });
    },
    adopt: (component) => adoptComponent(component),
  });
}

function ownerNamed(path) {
  return { path, where: "in its ui.custom component", event: "ui.custom" };
}

/** A component extension code shows on its own (`tui.showOverlay`): it lives until hidden. */
function adoptComponent(component) {
  const owner = ownerNamed(currentOwner()?.path ?? "<unknown>");
  const surface = {
    id: nextComponentId++,
    component,
    owner,
    fail: (error) => {
      reportError({ extensionPath: owner.path, event: "ui.custom", ...describe(error) });
      screen.remove(surface);
    },
  };
  Promise.resolve().then(wakeFocusWaiters);
  return surface;
}

function focusedSurface() {
  return screen?.focusedSurface();
}

function wakeFocusWaiters() {
  if (!focusedSurface()) return;
  const waiting = focusWaiters;
  focusWaiters = [];
  for (const wake of waiting) wake();
}

/** `ctx.ui.custom(factory, options)` on pihost's screen. */
export function showCustom(factory, options) {
  const owner = ownerNamed(currentOwner()?.path ?? "<unknown>");
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
    openComponents.set(id, (error) => close(() => reject(error)));
    // Called at once, as pi does: a factory that throws rejects the promise.
    const made = factory(screen.tui, currentTheme(), getKeybindings(), done);
    Promise.resolve(made).then(
      (component) => {
        if (closed) return;
        surface = { id, component, owner, fail };
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
  const owner = { path: currentOwner()?.path ?? "<unknown>", where: "in its onTerminalInput handler", event: "ui.onTerminalInput" };
  return screen.addInputListener((data) => {
    try {
      return enterExtensionSync(owner, () => handler(data));
    } catch (error) {
      reportError({ extensionPath: owner.path, event: "ui.onTerminalInput", ...describe(error) });
      return undefined;
    }
  });
}

function disposeWidget(surface) {
  try {
    enterExtensionSync(surface.owner, () => surface.component.dispose?.());
  } catch {
    // As in pi: a failing dispose does not keep the widget.
  }
}

/**
 * `ctx.ui.setWidget(key, content, options)` on pihost's screen: lines (at
 * most ten, as pi shows them) or a component factory `(tui, theme)`; the
 * same key replaces the widget (the old one disposed), undefined removes it.
 */
export function setScreenWidget(key, content, options) {
  const owner = { path: currentOwner()?.path ?? "<unknown>", where: "in its widget", event: "ui.setWidget" };
  const existing = widgets.get(key);
  if (existing) {
    widgets.delete(key);
    screen.remove(existing);
    disposeWidget(existing);
    screen.requestRender();
  }
  if (content === undefined) return;
  let component;
  if (Array.isArray(content)) {
    component = new Container();
    for (const line of content.slice(0, MAX_WIDGET_LINES)) component.addChild(new Text(line, 1, 0));
    if (content.length > MAX_WIDGET_LINES) {
      component.addChild(new Text(currentTheme().fg("muted", "... (widget truncated)"), 1, 0));
    }
  } else {
    component = content(screen.tui, currentTheme());
  }
  const surface = {
    id: nextComponentId++,
    component,
    owner,
    widget: key,
    placement: options?.placement ?? "aboveEditor",
    fail: (error) => {
      reportError({ extensionPath: owner.path, event: "ui.setWidget", ...describe(error) });
      if (widgets.get(key) === surface) widgets.delete(key);
      screen.remove(surface);
      disposeWidget(surface);
    },
  };
  widgets.set(key, surface);
  screen.showWidget(surface);
}

/**
 * Gives `ui` (the host's UI context) pihost's components: custom, terminal
 * input and widgets (the host is still told of each setWidget).
 */
export function withScreenComponents(ui) {
  const tellHost = ui.setWidget;
  ui.custom = showCustom;
  ui.onTerminalInput = addTerminalInputHandler;
  ui.setWidget = (key, content, options) => {
    tellHost(key, content, options);
    setScreenWidget(key, content, options);
  };
  return ui;
}

/** Resolves once some component has focus (at once if one has). */
export function waitForFocus() {
  if (focusedSurface()) return Promise.resolve();
  return new Promise((wake) => focusWaiters.push(wake));
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

/** The frames since the last call, oldest first. */
export function takeFrames() {
  screen?.flush();
  return frames.splice(0);
}

/**
 * Closes every open component for the host: each is disposed and its
 * promise rejects with `reason` (pi never closes a component from outside,
 * so no answer of the component's own type would be honest). Answers their ids.
 */
export function closeOpenComponents(reason) {
  const ids = [...openComponents.keys()];
  for (const id of ids) openComponents.get(id)?.(new Error(reason));
  return ids;
}
