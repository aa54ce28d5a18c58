// The reference pi's screen for extension components, without a terminal:
// a pi-tui TuiMainScreen over a terminal that draws nowhere, and the UI
// context methods that put extension components on it the way pi's
// interactive mode does (ctx.ui.custom in the editor's place with focus or
// as an overlay, widgets above and below the editor, header, footer, an
// extension's editor component in the editor's place), keys
// fed through the TUI's own input path. Used by the compat recorder
// (tests/compat/record.mjs) and by drive-ui-reference.mjs.

const CURSOR_MARKER = "\x1b_pi:c\x07";
const FAKE_CURSOR_START = "\x1b_pi:fc\x07";
const FAKE_CURSOR_END = "\x1b_pi:/fc\x07";

/** A line as pi-tui writes it with the hardware cursor hidden (its default), without its per-line reset. */
export const written = (line) =>
  line.replaceAll(CURSOR_MARKER, "").replaceAll(FAKE_CURSOR_START, "\x1b[7m").replaceAll(FAKE_CURSOR_END, "\x1b[27m");

/** A pi-tui terminal of `columns` × `rows` that draws nowhere; `onInput` gets what start() was handed. */
export function nullTerminal({ columns, rows }, onStart) {
  return {
    start(onInput) {
      onStart(onInput);
    },
    stop() {},
    drainInput: async () => {},
    write() {},
    get columns() {
      return columns;
    },
    get rows() {
      return rows;
    },
    kittyProtocolActive: false,
    moveBy() {},
    hideCursor() {},
    showCursor() {},
    clearLine() {},
    clearFromCursor() {},
    clearScreen() {},
    setTitle() {},
    setProgress() {},
    setProgramStatus() {},
  };
}

/** pi shows at most this many lines of a widget given as lines. */
const MAX_WIDGET_LINES = 10;

/**
 * A screen for the compat driver: `ui(base)` is `base` with pi's
 * interactive-mode component methods, `sendKey(data)` feeds the TUI,
 * `view()` lists what is shown now, top to bottom as pi lays it out.
 * `tuiModule` is the pi-tui extensions import; `theme()` the current theme;
 * `editorTheme()` pi's getEditorTheme, for editor components.
 */
export function createReferenceScreen({ columns, rows, tuiModule, theme, keybindings, editorTheme }) {
  let sendInput;
  const tui = new tuiModule.TuiMainScreen(nullTerminal({ columns, rows }, (onInput) => (sendInput = onInput)));
  tui.start();
  const ids = new WeakMap();
  let nextId = 1;
  const idOf = (component) => {
    if (!ids.has(component)) ids.set(component, nextId++);
    return ids.get(component);
  };
  const dialogs = [];
  const widgetsAbove = new Map();
  const widgetsBelow = new Map();
  let header;
  let footer;
  // The extension's editor component (setEditorComponent) and its factory;
  // pi has its default editor where there is none, which draws nothing here.
  let editor;
  let editorFactory;
  const statuses = new Map();
  const footerData = {
    getGitBranch: () => null,
    getExtensionStatuses: () => new Map(statuses),
    getAvailableProviderCount: () => 0,
    onBranchChange: () => () => {},
  };

  const showTopDialog = () => {
    const top = dialogs.at(-1);
    for (const dialog of dialogs) tui.removeChild(dialog);
    if (top) {
      tui.addChild(top);
      tui.setFocus(top);
    } else {
      // pi's showTopExtensionDialog: with no dialog left, the editor has the place and focus.
      tui.setFocus(editor ?? null);
    }
    tui.requestRender();
  };

  const editorText = (component) => component.getExpandedText?.() ?? component.getText();

  // pi's setCustomEditorComponent, with pi's default editor (in its default
  // settings, thinking off) as the editor it replaces or gets back.
  const setEditorComponent = (base, factory) => {
    const text = editor ? editorText(editor) : base.getEditorText();
    editorFactory = factory;
    if (!factory) {
      editor = undefined;
      base.setEditorText(text);
    } else {
      const made = factory(tui, editorTheme(), keybindings);
      // pi's default editor's submit: the text becomes a prompt, which is not the screen's business.
      made.onSubmit = () => {};
      made.onChange = () => {};
      made.setText(text);
      if (made.borderColor !== undefined) made.borderColor = theme().getThinkingBorderColor("off");
      made.setPaddingX?.(0);
      made.setAutocompleteMaxVisible?.(5);
      editor = made;
    }
    if (dialogs.length === 0) tui.setFocus(editor ?? null);
    tui.requestRender();
  };

  const custom = (factory, options) =>
    new Promise((resolve, reject) => {
      const isOverlay = options?.overlay ?? false;
      let closed = false;
      let component;
      let overlayHandle;
      const dispose = () => {
        try {
          component?.dispose?.();
        } catch {
          // pi ignores dispose errors.
        }
      };
      const close = (result) => {
        if (closed) return;
        closed = true;
        if (isOverlay) {
          overlayHandle?.hide();
          dispose();
          resolve(result);
          return;
        }
        const index = dialogs.indexOf(component);
        if (index !== -1) dialogs.splice(index, 1);
        if (component) tui.removeChild(component);
        showTopDialog();
        resolve(result);
        dispose();
      };
      Promise.resolve(factory(tui, theme(), keybindings, close)).then(
        (made) => {
          if (closed) return;
          component = made;
          if (isOverlay) {
            const overlayOptions =
              typeof options?.overlayOptions === "function"
                ? options.overlayOptions()
                : (options?.overlayOptions ?? (made.width ? { width: made.width } : undefined));
            overlayHandle = tui.showOverlay(made, overlayOptions);
            options?.onHandle?.(overlayHandle);
          } else {
            dialogs.push(made);
            showTopDialog();
          }
        },
        (error) => {
          if (!closed) reject(error);
        },
      );
    });

  const setWidget = (key, content, options) => {
    for (const map of [widgetsAbove, widgetsBelow]) {
      map.get(key)?.dispose?.();
      map.delete(key);
    }
    if (content === undefined) return;
    let component;
    if (Array.isArray(content)) {
      component = new tuiModule.Container();
      for (const line of content.slice(0, MAX_WIDGET_LINES)) component.addChild(new tuiModule.Text(line, 1, 0));
      if (content.length > MAX_WIDGET_LINES) {
        component.addChild(new tuiModule.Text(theme().fg("muted", "... (widget truncated)"), 1, 0));
      }
    } else {
      component = content(tui, theme());
    }
    (options?.placement === "belowEditor" ? widgetsBelow : widgetsAbove).set(key, component);
    tui.requestRender();
  };

  // Descriptors, not a spread: base's theme getter stays live.
  const ui = (base) => Object.assign(Object.defineProperties({}, Object.getOwnPropertyDescriptors(base)), {
    custom,
    setWidget,
    setHeader(factory) {
      header?.dispose?.();
      header = factory ? factory(tui, theme()) : undefined;
      tui.requestRender();
    },
    setFooter(factory) {
      footer?.dispose?.();
      footer = factory ? factory(tui, theme(), footerData) : undefined;
      tui.requestRender();
    },
    setStatus(key, text) {
      if (text === undefined) statuses.delete(key);
      else statuses.set(key, text);
      tui.requestRender();
    },
    onTerminalInput: (handler) => tui.addInputListener(handler),
    setEditorComponent: (factory) => setEditorComponent(base, factory),
    getEditorComponent: () => editorFactory,
    getEditorText: () => (editor ? editorText(editor) : base.getEditorText()),
    setEditorText: (text) => (editor ? editor.setText(text) : base.setEditorText(text)),
    pasteToEditor: (text) => (editor ? editor.handleInput(`\x1b[200~${text}\x1b[201~`) : base.pasteToEditor(text)),
  });

  const draw = (component, width) => component.render(width).map(written);
  const view = () => {
    const shown = [];
    const push = (component, kind, extra = {}, width = columns, maxHeight = undefined) => {
      let lines = draw(component, width);
      if (maxHeight !== undefined) lines = lines.slice(0, maxHeight);
      shown.push({ id: idOf(component), kind, ...extra, lines });
    };
    if (header) push(header, "header");
    for (const [key, widget] of widgetsAbove) push(widget, "widget", { widget: key, placement: "aboveEditor" });
    // A dialog takes the editor's place; the editor comes back when the last one goes.
    if (editor && dialogs.length > 0) shown.push({ id: idOf(editor), kind: "editor", hidden: true, lines: [] });
    if (editor && dialogs.length === 0) push(editor, "editor");
    // pi draws only the newest dialog; the ones it covers come back when it goes.
    for (const covered of dialogs.slice(0, -1)) shown.push({ id: idOf(covered), kind: "custom", hidden: true, lines: [] });
    if (dialogs.length > 0) push(dialogs.at(-1), "custom");
    for (const [key, widget] of widgetsBelow) push(widget, "widget", { widget: key, placement: "belowEditor" });
    if (footer) push(footer, "footer");
    const overlays = tui.overlayStack
      .filter((entry) => entry.hidden || tui.isOverlayVisible(entry))
      .sort((a, b) => a.focusOrder - b.focusOrder);
    for (const entry of overlays) {
      if (entry.hidden) {
        shown.push({ id: idOf(entry.component), kind: "overlay", hidden: true, lines: [] });
        continue;
      }
      const { width, maxHeight } = tui.resolveOverlayLayout(entry.options, 0, columns, rows);
      push(entry.component, "overlay", {}, width, maxHeight);
    }
    return shown;
  };

  return { tui, ui, sendKey: (data) => sendInput(data), view };
}
