// pi-tui's TUI as extension components see it, with no terminal behind it:
// the host says how big the screen is, pihost renders each shown component
// at that width and keeps the lines as frames, and the host's keys reach
// whichever component has focus. What pi-tui does to a real terminal
// (cursor moves, diffing, compositing overlays into the base lines) is the
// host's business: it gets every shown component's lines on their own.
import { core } from "pihost:runtime/ops.js";
import { enterExtensionSync } from "pihost:runtime/entries.js";
import { CURSOR_MARKER, FAKE_CURSOR_END, FAKE_CURSOR_START } from "pihost:pi/pi-tui/components/cursor.js";
import { isKeyRelease, matchesKey } from "pihost:pi/pi-tui/keys.js";
import { visibleWidth } from "pihost:pi/pi-tui/width.js";
import {
  ArrayConcat,
  ArrayFromValues,
  ArrayIsArray,
  ArrayPrototypeFilter,
  ArrayPrototypeFind,
  ArrayPrototypeFlatMap,
  ArrayPrototypeIncludes,
  ArrayPrototypeIndexOf,
  ArrayPrototypeMap,
  ArrayPrototypeSlice,
  ArrayPrototypeSome,
  ArrayPrototypeSort,
  ArrayPrototypeSplice,
  ArrayPushAll,
  MathFloor,
  MathMax,
  MathMin,
  SafeSet,
  StringPrototypeIncludes,
  StringPrototypeReplaceAll,
} from "pihost:runtime/primordials.js";

/** pi-tui's default overlay width, when its options name none. */
const DEFAULT_OVERLAY_WIDTH = 80;

/** `"50%"` of `total`, or an absolute number; undefined for anything else. */
function sizeValue(value, total) {
  if (typeof value === "number") return value;
  const percent = typeof value === "string" ? /^(\d+(?:\.\d+)?)%$/.exec(value) : null;
  return percent ? MathFloor((total * parseFloat(percent[1])) / 100) : undefined;
}

function marginsOf(margin) {
  if (typeof margin === "number") return { top: margin, right: margin, bottom: margin, left: margin };
  return margin ?? {};
}

/** The width and height an overlay gets on a screen, as pi-tui sizes it. */
export function overlaySize(options, columns, rows) {
  const margin = marginsOf(options?.margin);
  const availableWidth = MathMax(1, columns - MathMax(0, margin.left ?? 0) - MathMax(0, margin.right ?? 0));
  const availableHeight = MathMax(1, rows - MathMax(0, margin.top ?? 0) - MathMax(0, margin.bottom ?? 0));
  let width = sizeValue(options?.width, columns) ?? MathMin(DEFAULT_OVERLAY_WIDTH, availableWidth);
  if (options?.minWidth !== undefined) width = MathMax(width, options.minWidth);
  width = MathMax(1, MathMin(width, availableWidth));
  const maxHeight = sizeValue(options?.maxHeight, rows);
  return { width, maxHeight: maxHeight === undefined ? undefined : MathMax(1, MathMin(maxHeight, availableHeight)) };
}

/** A terminal line as the host should draw it: pi-tui's cursor markers resolved. */
function displayLine(line) {
  const withoutCursor = StringPrototypeReplaceAll(line, CURSOR_MARKER, "");
  if (!StringPrototypeIncludes(withoutCursor, FAKE_CURSOR_START)) return withoutCursor;
  return StringPrototypeReplaceAll(StringPrototypeReplaceAll(withoutCursor, FAKE_CURSOR_START, "\x1b[7m"), FAKE_CURSOR_END, "\x1b[27m");
}

function sameLines(left, right) {
  if (left === undefined || left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
  return true;
}

/**
 * The screen: its size, the components shown on it (dialogs, of which the
 * newest is visible, and overlays), focus, input listeners, and render
 * scheduling. `onFrame({ surface, lines })` gets every changed render of a
 * shown component; `surface.fail(error)` is called when its component throws.
 */
export class VirtualScreen {
  #columns;
  #rows;
  #onFrame;
  #dialogs = [];
  #overlays = [];
  /** Header, widgets and footer: always drawn, never focused. */
  #fixed = [];
  /**
   * The extension's editor (`ctx.ui.setEditorComponent`): in the editor's
   * place when no dialog covers it, with focus when nothing else has it.
   */
  #editor = undefined;
  #focused = null;
  /** The surface focus belongs to, when its code focused a component of its own. */
  #focusOwner = undefined;
  #inputListeners = new SafeSet();
  #renderTimer = undefined;
  #focusOrder = 0;

  #adopt;

  /** `adopt(component)` makes a surface of a component extension code shows itself (`tui.showOverlay`). */
  constructor({ columns, rows, onFrame, adopt }) {
    this.#columns = columns;
    this.#rows = rows;
    this.#onFrame = onFrame;
    this.#adopt = adopt;
    this.tui = createTui(this);
  }

  surfaceFor(component) {
    return this.#adopt(component);
  }

  get columns() {
    return this.#columns;
  }

  get rows() {
    return this.#rows;
  }

  /**
   * A new size for the whole screen: every shown component is drawn again
   * at once, changed or not, since the host laid its screen out anew. Each
   * is invalidated first: pi-tui only requests a render on a resize, and a
   * component that keeps its lines for the old width (pi's question example
   * does) then crashes pi's TUI with a line wider than the screen.
   */
  resize({ columns, rows }) {
    this.#columns = columns;
    this.#rows = rows;
    const surfaces = this.allSurfaces();
    for (let index = 0; index < surfaces.length; index++) this.#invalidateSurface(surfaces[index]);
    this.renderNow({ redraw: () => true });
  }

  /**
   * A size of its own for one component (a host that gives it a pane of its
   * own): it is drawn at `columns` from now on, and again at once;
   * `tui.terminal` still reports the screen's size.
   */
  resizeSurface(surface, { columns, rows }) {
    surface.size = { columns, rows };
    this.#invalidateSurface(surface);
    this.renderNow({ redraw: (candidate) => candidate === surface });
  }

  /** Drops what a component cached of its render; a throwing invalidate fails it. */
  #invalidateSurface(surface) {
    try {
      enterExtensionSync(surface.owner, () => surface.component?.invalidate?.());
    } catch (error) {
      surface.fail(error);
    }
  }

  /** Every surface on the screen: fixed ones, dialogs and overlays. */
  allSurfaces() {
    return ArrayConcat(this.#fixed, this.surfaces());
  }

  get focused() {
    return this.#focused;
  }

  /** Every surface that can take focus, shown or waiting behind another. */
  surfaces() {
    const surfaces = ArrayConcat(this.#dialogs, this.#overlays);
    if (this.#editor) surfaces[surfaces.length] = this.#editor;
    return surfaces;
  }

  /**
   * Puts `surface` in the editor's place, as pi's setCustomEditorComponent
   * does: with focus, unless a dialog is open (it keeps the place and the
   * focus; the editor shows when the last dialog goes).
   */
  setEditor(surface) {
    this.#editor = surface;
    if (this.#dialogs.length === 0) this.setFocus(surface.component);
    this.requestRender();
  }

  /**
   * Shows a surface that is always drawn and never takes keys: `kind`
   * "header", "widget" (with its `placement`) or "footer".
   */
  showFixed(surface) {
    this.#fixed[this.#fixed.length] = surface;
    this.requestRender();
  }

  /**
   * The shown surface whose component has focus, or whose code gave it to
   * a component of its own (an editor inside a dialog): keys go there and
   * what they break is that extension's error.
   */
  focusedSurface() {
    if (this.#focused === null) return undefined;
    const shown = this.surfaces();
    return (
      ArrayPrototypeFind(shown, (surface) => surface.component === this.#focused) ??
      (ArrayPrototypeIncludes(shown, this.#focusOwner) ? this.#focusOwner : undefined)
    );
  }

  setFocus(component) {
    if (this.#focused === component) return;
    if (this.#focused && "focused" in this.#focused) this.#focused.focused = false;
    this.#focused = component ?? null;
    if (this.#focused && "focused" in this.#focused) this.#focused.focused = true;
    const surface = ArrayPrototypeFind(this.surfaces(), (candidate) => candidate.component === this.#focused);
    if (surface || this.#focused === null) this.#focusOwner = surface;
  }

  /**
   * Shows `surface` (`{ component, owner, fail }`) as the top dialog, with
   * focus. pi draws only the top dialog in the editor's place: the one it
   * covers is hidden until the new one goes, then draws anew.
   */
  showDialog(surface) {
    // A dialog takes the editor's place, as pi swaps its editor container's child.
    const covered = this.#topDialog() ?? this.#editor;
    if (covered) this.#erase(covered, { hidden: true });
    this.#dialogs[this.#dialogs.length] = surface;
    this.setFocus(surface.component);
    this.renderNow();
  }

  /** Shows `surface` as an overlay; answers pi-tui's OverlayHandle. */
  showOverlay(surface, options) {
    const entry = { ...surface, kind: "overlay", options, hidden: false, preFocus: this.#focused, order: ++this.#focusOrder };
    surface.entry = entry;
    this.#overlays[this.#overlays.length] = entry;
    if (!options?.nonCapturing) this.setFocus(entry.component);
    this.requestRender();
    return this.#overlayHandle(entry);
  }

  #overlayHandle(entry) {
    const screen = this;
    return {
      hide: () => screen.remove(entry),
      setHidden: (hidden) => {
        if (entry.hidden === hidden) return;
        entry.hidden = hidden;
        if (hidden) screen.#erase(entry, { hidden: true });
        if (hidden && screen.focusedSurface() === entry) screen.#focusAfter(entry);
        if (!hidden && !entry.options?.nonCapturing) {
          entry.order = ++screen.#focusOrder;
          screen.setFocus(entry.component);
        }
        screen.requestRender();
      },
      isHidden: () => entry.hidden,
      focus: () => {
        if (!ArrayPrototypeIncludes(screen.#overlays, entry) || entry.hidden) return;
        entry.order = ++screen.#focusOrder;
        screen.setFocus(entry.component);
        screen.requestRender();
      },
      unfocus: (options) => {
        if (screen.focusedSurface() !== entry) return;
        if (options && "target" in options) screen.setFocus(options.target);
        else screen.#focusAfter(entry);
        screen.requestRender();
      },
      isFocused: () => screen.focusedSurface() === entry,
      // Where an overlay sits is the host's choice: pihost does not composite.
      getBounds: () => undefined,
    };
  }

  /** Focus goes to the frontmost other capturing overlay, else where it was before `entry`. */
  #focusAfter(entry) {
    const candidates = ArrayPrototypeFilter(this.#overlays, (other) => other !== entry && !other.hidden && !other.options?.nonCapturing);
    const next = ArrayPrototypeSort(candidates, (a, b) => b.order - a.order)[0];
    this.setFocus(next?.component ?? this.#topDialog()?.component ?? entry.preFocus ?? this.#editor?.component ?? null);
  }

  #topDialog() {
    return this.#dialogs[this.#dialogs.length - 1];
  }

  /** Takes a dialog or overlay off the screen; focus moves on as pi-tui moves it. */
  remove(surface) {
    if (surface === this.#editor) {
      this.#editor = undefined;
      if (this.#focused === surface.component || this.#focusOwner === surface) this.setFocus(null);
      this.#erase(surface, { closed: true });
      this.requestRender();
      return;
    }
    const fixedIndex = ArrayPrototypeIndexOf(this.#fixed, surface);
    if (fixedIndex !== -1) {
      ArrayPrototypeSplice(this.#fixed, fixedIndex, 1);
      this.#erase(surface, { closed: true });
      this.requestRender();
      return;
    }
    const entry = surface.entry ?? surface;
    const hadFocus = this.#focused === entry.component || this.#focusOwner === entry;
    const overlayIndex = ArrayPrototypeIndexOf(this.#overlays, entry);
    if (overlayIndex !== -1) {
      ArrayPrototypeSplice(this.#overlays, overlayIndex, 1);
      if (hadFocus) this.#focusAfter(entry);
    } else {
      const dialogIndex = ArrayPrototypeIndexOf(this.#dialogs, entry);
      if (dialogIndex === -1) return;
      ArrayPrototypeSplice(this.#dialogs, dialogIndex, 1);
      // Focus goes back to the dialog below, else to the editor, as pi's showTopExtensionDialog gives it.
      if (hadFocus) this.setFocus(this.#topDialog()?.component ?? this.#editor?.component ?? null);
    }
    this.#erase(entry, { closed: true });
    this.requestRender();
  }

  /**
   * Tells the host that what `surface` drew is gone (`{ closed: true }` or
   * `{ hidden: true }`, with no lines); a surface that never drew has
   * nothing to erase. Shown again, it draws anew. One hidden still closes:
   * the host keeps a hidden surface until told it is gone for good.
   */
  #erase(surface, how) {
    if (how.closed ? !surface.drew : surface.lastLines === undefined) return;
    if (how.closed) surface.drew = false;
    surface.lastLines = undefined;
    this.#onFrame({ surface, lines: [], ...how });
  }

  /** Takes every surface off the screen and forgets every input listener (pi's reset of extension UI on reload). */
  clear() {
    const surfaces = ArrayConcat(this.#fixed, this.surfaces());
    for (let index = 0; index < surfaces.length; index++) this.remove(surfaces[index]);
    this.#inputListeners.clear();
  }

  hasOverlay() {
    return ArrayPrototypeSome(this.#overlays, (entry) => !entry.hidden && this.#overlayVisible(entry));
  }

  hideTopOverlay() {
    const top = ArrayPrototypeSort(ArrayPrototypeSlice(this.#overlays), (a, b) => b.order - a.order)[0];
    if (top) this.remove(top);
  }

  #overlayVisible(entry) {
    return entry.options?.visible ? entry.options.visible(this.#columns, this.#rows) !== false : true;
  }

  addInputListener(listener) {
    this.#inputListeners.add(listener);
    return () => this.#inputListeners.delete(listener);
  }

  removeInputListener(listener) {
    this.#inputListeners.delete(listener);
  }

  /**
   * One key from the host (a raw sequence): input listeners first (they may
   * consume or rewrite it), then the focused component, then a frame.
   * Answers the surface the key reached, if any.
   */
  input(data) {
    let current = data;
    const listeners = ArrayFromValues(this.#inputListeners);
    for (let index = 0; index < listeners.length; index++) {
      const result = listeners[index](current);
      if (result?.consume) return undefined;
      if (result?.data !== undefined) current = result.data;
    }
    if (current.length === 0) return undefined;
    const target = this.focusedSurface();
    if (matchesKey(current, "shift+ctrl+d") && this.tui.onDebug) {
      this.tui.onDebug();
      return undefined;
    }
    const component = this.#focused;
    if (!component?.handleInput) return undefined;
    if (isKeyRelease(current) && !component.wantsKeyRelease) return undefined;
    try {
      const owner = target?.owner ?? { path: "<unknown>", where: "in a component", event: "ui.input" };
      enterExtensionSync(owner, () => component.handleInput(current));
    } catch (error) {
      if (!target) throw error;
      target.fail(error);
      return target;
    }
    this.renderNow();
    return target;
  }

  /** Coalesces renders: at most one frame per turn of the event loop. */
  requestRender() {
    if (this.#renderTimer !== undefined) return;
    this.#renderTimer = core.createTimer(
      () => {
        this.#renderTimer = undefined;
        this.renderNow();
      },
      0,
      undefined,
      false,
      true,
    );
  }

  /** Draws now what a coalesced render still owes. */
  flush() {
    if (this.#renderTimer !== undefined) this.renderNow();
  }

  /**
   * Renders every shown component now and hands on what changed, and what
   * `redraw(surface)` asks for even unchanged.
   */
  renderNow({ redraw } = {}) {
    if (this.#renderTimer !== undefined) {
      core.cancelTimer(this.#renderTimer);
      this.#renderTimer = undefined;
    }
    const shown = [];
    const full = (surface) => ({ surface, width: surface.size?.columns ?? this.#columns, maxHeight: undefined });
    const fixed = (test) => ArrayPrototypeMap(ArrayPrototypeFilter(this.#fixed, test), full);
    // Top to bottom as pi lays them out: the header, widgets above the
    // editor, the dialog in the editor's place (else the extension's
    // editor), widgets below it, the footer, then overlays.
    ArrayPushAll(shown, fixed((surface) => surface.kind === "header"));
    ArrayPushAll(shown, fixed((surface) => surface.kind === "widget" && surface.placement !== "belowEditor"));
    const top = this.#topDialog();
    if (top) shown[shown.length] = full(top);
    else if (this.#editor) shown[shown.length] = full(this.#editor);
    ArrayPushAll(shown, fixed((surface) => surface.kind === "widget" && surface.placement === "belowEditor"));
    ArrayPushAll(shown, fixed((surface) => surface.kind === "footer"));
    const overlays = ArrayPrototypeSort(ArrayPrototypeSlice(this.#overlays), (a, b) => a.order - b.order);
    for (let index = 0; index < overlays.length; index++) {
      const entry = overlays[index];
      if (entry.hidden || !this.#overlayVisible(entry)) continue;
      const { width, maxHeight } = overlaySize(
        entry.resolveOptions?.() ?? entry.options,
        entry.size?.columns ?? this.#columns,
        entry.size?.rows ?? this.#rows,
      );
      shown[shown.length] = { surface: entry, width, maxHeight };
    }
    for (let index = 0; index < shown.length; index++) {
      const { surface, width, maxHeight } = shown[index];
      let lines;
      try {
        lines = renderSurface(surface, width, maxHeight);
      } catch (error) {
        surface.fail(error);
        continue;
      }
      if (sameLines(surface.lastLines, lines) && !redraw?.(surface)) continue;
      surface.lastLines = lines;
      surface.drew = true;
      this.#onFrame({ surface, lines });
    }
  }

  invalidate() {
    const surfaces = ArrayConcat(this.#fixed, this.surfaces());
    for (let index = 0; index < surfaces.length; index++) {
      const surface = surfaces[index];
      enterExtensionSync(surface.owner, () => surface.component.invalidate?.());
    }
  }
}

/** A component's lines at `width`; pi-tui's rule that no line may be wider is kept. */
function renderSurface(surface, width, maxHeight) {
  const rendered = enterExtensionSync(surface.owner, () => surface.component.render(width));
  if (!ArrayIsArray(rendered)) throw new TypeError("render(width) must return an array of lines");
  const count = maxHeight === undefined ? rendered.length : MathMin(rendered.length, maxHeight);
  const lines = [];
  for (let index = 0; index < count; index++) lines[index] = displayLine(String(rendered[index]));
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    const lineWidth = visibleWidth(line);
    if (lineWidth > width) {
      throw new Error(
        `Rendered line ${index} exceeds terminal width (${lineWidth} > ${width}). A component must cut its lines to the width it is given (visibleWidth, truncateToWidth).`,
      );
    }
  }
  return lines;
}

/** The `tui` argument of component factories: pi-tui's TUI interface over the screen. */
function createTui(screen) {
  const terminal = {
    get columns() {
      return screen.columns;
    },
    get rows() {
      return screen.rows;
    },
    kittyProtocolActive: false,
    // There is no terminal to write to: what would be drawn is the frames.
    start() {},
    stop() {},
    drainInput: async () => {},
    write() {},
    moveBy() {},
    hideCursor() {},
    showCursor() {},
    clearLine() {},
    clearFromCursor() {},
    clearScreen() {},
    setTitle() {},
    setProgress() {},
  };
  let showHardwareCursor = false;
  let clearOnShrink = false;
  let fullRedraws = 0;
  const tui = {
    mode: "regular",
    children: [],
    terminal,
    onDebug: undefined,
    get fullRedraws() {
      return fullRedraws;
    },
    addChild(component) {
      tui.children[tui.children.length] = component;
    },
    removeChild(component) {
      const index = ArrayPrototypeIndexOf(tui.children, component);
      if (index !== -1) ArrayPrototypeSplice(tui.children, index, 1);
    },
    clear() {
      tui.children = [];
    },
    render(width) {
      return ArrayPrototypeFlatMap(tui.children, (child) => child.render(width));
    },
    invalidate() {
      const children = tui.children;
      for (let index = 0; index < children.length; index++) children[index].invalidate?.();
      screen.invalidate();
    },
    getShowHardwareCursor: () => showHardwareCursor,
    setShowHardwareCursor(enabled) {
      showHardwareCursor = enabled;
    },
    getClearOnShrink: () => clearOnShrink,
    setClearOnShrink(enabled) {
      clearOnShrink = enabled;
    },
    getFocusedComponent: () => screen.focused,
    setFocus: (component) => screen.setFocus(component),
    showOverlay: (component, options) => screen.showOverlay(screen.surfaceFor(component), options),
    hideOverlay: () => screen.hideTopOverlay(),
    hasOverlay: () => screen.hasOverlay(),
    start() {},
    stop() {},
    renderNow(force) {
      if (force) fullRedraws++;
      screen.renderNow();
    },
    requestRender(force) {
      if (force) fullRedraws++;
      screen.requestRender();
    },
    addInputListener: (listener) => screen.addInputListener(listener),
    removeInputListener: (listener) => screen.removeInputListener(listener),
    onTerminalColorSchemeChange: () => () => {},
    setTerminalColorSchemeNotifications() {},
    setSuspendSignalHandler() {},
    // No terminal answers colour queries: every colour is unknown.
    queryTerminalColors: async () => ({}),
  };
  return tui;
}
