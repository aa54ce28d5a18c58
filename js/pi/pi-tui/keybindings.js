// Named actions (tui.select.up, tui.editor.undo, ...) and the keys bound to
// them; components ask the shared manager instead of naming keys.
import { matchesKey } from "./keys.js";

const binding = (defaultKeys, description) => ({ defaultKeys, description });

export const TUI_KEYBINDINGS = {
  "tui.editor.cursorUp": binding("up", "Move cursor up"),
  "tui.editor.cursorDown": binding("down", "Move cursor down"),
  "tui.editor.historyPrevious": binding([], "Select previous prompt history entry"),
  "tui.editor.historyNext": binding([], "Select next prompt history entry"),
  "tui.editor.cursorLeft": binding(["left", "ctrl+b"], "Move cursor left"),
  "tui.editor.cursorRight": binding(["right", "ctrl+f"], "Move cursor right"),
  "tui.editor.cursorWordLeft": binding(["alt+left", "ctrl+left", "alt+b"], "Move cursor word left"),
  "tui.editor.cursorWordRight": binding(["alt+right", "ctrl+right", "alt+f"], "Move cursor word right"),
  "tui.editor.cursorLineStart": binding(["home", "ctrl+a"], "Move to line start"),
  "tui.editor.cursorLineEnd": binding(["end", "ctrl+e"], "Move to line end"),
  "tui.editor.jumpForward": binding("ctrl+]", "Jump forward to character"),
  "tui.editor.jumpBackward": binding("ctrl+alt+]", "Jump backward to character"),
  "tui.editor.pageUp": binding(["pageUp", "ctrl+pageUp"], "Page up"),
  "tui.editor.pageDown": binding(["pageDown", "ctrl+pageDown"], "Page down"),
  "tui.editor.deleteCharBackward": binding("backspace", "Delete character backward"),
  "tui.editor.deleteCharForward": binding(["delete", "ctrl+d"], "Delete character forward"),
  "tui.editor.deleteWordBackward": binding(["ctrl+w", "alt+backspace"], "Delete word backward"),
  "tui.editor.deleteWordForward": binding(["alt+d", "alt+delete"], "Delete word forward"),
  "tui.editor.deleteToLineStart": binding("ctrl+u", "Delete to line start"),
  "tui.editor.deleteToLineEnd": binding("ctrl+k", "Delete to line end"),
  "tui.editor.yank": binding("ctrl+y", "Yank"),
  "tui.editor.yankPop": binding("alt+y", "Yank pop"),
  "tui.editor.undo": binding("ctrl+-", "Undo"),
  "tui.input.newLine": binding(["shift+enter", "ctrl+j"], "Insert newline"),
  "tui.input.submit": binding("enter", "Submit input"),
  "tui.input.tab": binding("tab", "Tab / autocomplete"),
  "tui.input.copy": binding("ctrl+c", "Copy selection"),
  "tui.select.up": binding("up", "Move selection up"),
  "tui.select.down": binding("down", "Move selection down"),
  "tui.select.pageUp": binding("pageUp", "Selection page up"),
  "tui.select.pageDown": binding("pageDown", "Selection page down"),
  "tui.select.confirm": binding("enter", "Confirm selection"),
  "tui.select.cancel": binding(["escape", "ctrl+c"], "Cancel selection"),
  "tui.altScreen.pageUp": binding("pageUp", "Scroll viewport up one page"),
  "tui.altScreen.pageDown": binding("pageDown", "Scroll viewport down one page"),
  "tui.altScreen.halfPageUp": binding([], "Scroll viewport up half a page"),
  "tui.altScreen.halfPageDown": binding([], "Scroll viewport down half a page"),
  "tui.altScreen.lineUp": binding([], "Scroll viewport up one line"),
  "tui.altScreen.lineDown": binding([], "Scroll viewport down one line"),
  "tui.altScreen.previousPrompt": binding(["ctrl+shift+up", "ctrl+up"], "Jump to previous semantic prompt"),
  "tui.altScreen.nextPrompt": binding(["ctrl+shift+down", "ctrl+down"], "Jump to next semantic prompt"),
  "tui.altScreen.search": binding("ctrl+shift+f", "Search the primary scroll view"),
  "tui.altScreen.searchNext": binding(["enter", "ctrl+g"], "Select the next search match"),
  "tui.altScreen.searchPrevious": binding(["shift+enter", "ctrl+shift+g"], "Select the previous search match"),
  "tui.altScreen.searchClose": binding("escape", "Close transcript search"),
  "tui.altScreen.top": binding("ctrl+home", "Scroll viewport to top"),
  "tui.altScreen.bottom": binding("ctrl+end", "Scroll viewport to bottom"),
};

function keyList(keys) {
  if (keys === undefined) return [];
  return [...new Set(Array.isArray(keys) ? keys : [keys])];
}

export class KeybindingsManager {
  constructor(definitions, userBindings = {}) {
    this.definitions = definitions;
    this.userBindings = userBindings;
    this.keysById = new Map();
    this.conflicts = [];
    this.rebuild();
  }

  rebuild() {
    this.keysById.clear();
    // A key the user gave to two actions is reported, not resolved.
    const claims = new Map();
    for (const [id, keys] of Object.entries(this.userBindings)) {
      if (!(id in this.definitions)) continue;
      for (const key of keyList(keys)) {
        if (!claims.has(key)) claims.set(key, new Set());
        claims.get(key).add(id);
      }
    }
    this.conflicts = [...claims]
      .filter(([, ids]) => ids.size > 1)
      .map(([key, ids]) => ({ key, keybindings: [...ids] }));
    for (const [id, definition] of Object.entries(this.definitions)) {
      const user = this.userBindings[id];
      this.keysById.set(id, keyList(user === undefined ? definition.defaultKeys : user));
    }
  }

  matches(data, id) {
    return (this.keysById.get(id) ?? []).some((key) => matchesKey(data, key));
  }

  getKeys(id) {
    return [...(this.keysById.get(id) ?? [])];
  }

  getDefinition(id) {
    return this.definitions[id];
  }

  getConflicts() {
    return this.conflicts.map((c) => ({ ...c, keybindings: [...c.keybindings] }));
  }

  setUserBindings(userBindings) {
    this.userBindings = userBindings;
    this.rebuild();
  }

  getUserBindings() {
    return { ...this.userBindings };
  }

  getResolvedBindings() {
    const out = {};
    for (const id of Object.keys(this.definitions)) {
      const keys = this.keysById.get(id) ?? [];
      out[id] = keys.length === 1 ? keys[0] : [...keys];
    }
    return out;
  }
}

let shared = null;

export function setKeybindings(keybindings) {
  shared = keybindings;
}

export function getKeybindings() {
  shared ??= new KeybindingsManager(TUI_KEYBINDINGS);
  return shared;
}

/**
 * The selection after a page key, moved by `pageSize` and clamped to the
 * list; undefined when `data` is no page key.
 */
export function getSelectPageIndex(keybindings, data, selectedIndex, itemCount, pageSize) {
  let direction;
  if (keybindings.matches(data, "tui.select.pageUp")) direction = -1;
  else if (keybindings.matches(data, "tui.select.pageDown")) direction = 1;
  else return undefined;
  return Math.max(0, Math.min(itemCount - 1, selectedIndex + direction * pageSize));
}
