// The /tree screen: the session's entries as a tree to move through,
// search, filter, fold, label and pick a point to continue from.
import { Container } from "../../pi-tui/components/container.js";
import { CURSOR_MARKER } from "../../pi-tui/components/cursor.js";
import { Input } from "../../pi-tui/components/input.js";
import { Spacer, Text } from "../../pi-tui/components/text.js";
import { getKeybindings } from "../../pi-tui/keybindings.js";
import { truncateToWidth } from "../../pi-tui/truncate.js";
import { visibleWidth } from "../../pi-tui/width.js";
import { wrapTextWithAnsi } from "../../pi-tui/wrap.js";
import { DynamicBorder } from "../ui/dynamic-border.js";
import { formatKeyText, keyHint } from "../ui/keybinding-hints.js";
import { currentTheme } from "../ui/theme.js";
import { TreeList } from "./tree-list.js";

/** The search typed so far, with a drawn cursor while focused. */
class SearchLine {
  constructor(treeList) {
    this.treeList = treeList;
    this.focused = false;
  }

  invalidate() {}

  render(width) {
    if (width <= 0) return [""];
    const theme = currentTheme();
    const query = this.treeList.getSearchQuery();
    const line = `  ${theme.fg("muted", "Type to search:")} ${query ? theme.fg("accent", query) : ""}`;
    if (!this.focused) return [truncateToWidth(line, width)];
    return [`${truncateToWidth(line, Math.max(0, width - 1))}${CURSOR_MARKER}\x1b[7m \x1b[27m`];
  }

  handleInput(_keyData) {}
}

const HELP_ITEMS = [
  { keys: ["tui.select.up", "tui.select.down"], label: "move" },
  { keys: ["tui.editor.cursorLeft", "tui.editor.cursorRight"], label: "page" },
  { keys: ["app.tree.foldOrUp", "app.tree.unfoldOrDown"], label: "branch" },
  { keys: ["app.message.copy"], label: "copy" },
  { keys: ["app.tree.editLabel"], label: "label" },
  { keys: ["app.tree.toggleLabelTimestamp"], label: "label time" },
  {
    keys: ["app.tree.filter.default", "app.tree.filter.noTools", "app.tree.filter.userOnly", "app.tree.filter.labeledOnly", "app.tree.filter.all"],
    label: "filters",
    labelFirst: true,
  },
  { keys: ["app.tree.filter.cycleForward", "app.tree.filter.cycleBackward"], label: "cycle", labelFirst: true },
];

const KEY_SYMBOLS = [
  [/\bpageUp\b/g, "pgup"],
  [/\bpageDown\b/g, "pgdn"],
  [/\bup\b/g, "↑"],
  [/\bdown\b/g, "↓"],
  [/\bleft\b/g, "←"],
  [/\bright\b/g, "→"],
];

/** Keys sharing a modifier written once: ["ctrl+a", "ctrl+b"] → "ctrl+a/b". */
function compactKeys(keys) {
  if (keys.length === 1) return keys[0];
  const split = keys.map((key) => {
    const at = key.lastIndexOf("+");
    return at === -1 ? { modifiers: "", key } : { modifiers: key.slice(0, at + 1), key: key.slice(at + 1) };
  });
  const { modifiers } = split[0];
  return modifiers && split.every((part) => part.modifiers === modifiers) ? `${modifiers}${split.map((part) => part.key).join("/")}` : keys.join("/");
}

/** The first key of each binding, compacted, with arrows and page keys as symbols; "" when none is bound. */
function helpKeys(ids) {
  const keys = ids.map((id) => getKeybindings().getKeys(id)[0]).filter((key) => key !== undefined);
  if (keys.length === 0) return "";
  return KEY_SYMBOLS.reduce((text, [pattern, symbol]) => text.replace(pattern, symbol), formatKeyText(compactKeys(keys)));
}

/** The key help, items joined with " · " and wrapped between items where it can. */
class TreeHelp {
  invalidate() {}

  render(width) {
    const items = HELP_ITEMS.map(({ keys, label, labelFirst }) => {
      const text = helpKeys(keys);
      if (!text) return label;
      return labelFirst ? `${label} ${text}` : `${text} ${label}`;
    });
    const room = Math.max(1, width);
    const indent = "  ";
    // A line starts indented when the item fits that way.
    const opening = (item) => (visibleWidth(`${indent}${item}`) <= room ? `${indent}${item}` : item);
    const lines = [];
    let line = "";
    for (const item of items) {
      const candidate = line ? `${line} · ${item}` : opening(item);
      if (!line || visibleWidth(candidate) <= room) {
        line = candidate;
        continue;
      }
      lines.push(...wrapTextWithAnsi(line.trimEnd(), room));
      line = opening(item);
    }
    if (line) lines.push(...wrapTextWithAnsi(line.trimEnd(), room));
    const theme = currentTheme();
    return lines.map((text) => theme.fg("muted", text));
  }
}

/** The input that edits an entry's label; an empty label removes it. */
class LabelInput {
  constructor(entryId, currentLabel) {
    this.entryId = entryId;
    this.input = new Input();
    if (currentLabel) this.input.setValue(currentLabel);
    this._focused = false;
    this.onSubmit = undefined;
    this.onCancel = undefined;
  }

  get focused() {
    return this._focused;
  }

  set focused(value) {
    this._focused = value;
    this.input.focused = value;
  }

  invalidate() {}

  render(width) {
    const theme = currentTheme();
    const indent = "  ";
    return [
      truncateToWidth(`${indent}${theme.fg("muted", "Label (empty to remove):")}`, width),
      ...this.input.render(width - indent.length).map((line) => truncateToWidth(`${indent}${line}`, width)),
      truncateToWidth(`${indent}${keyHint("tui.select.confirm", "save")}  ${keyHint("tui.select.cancel", "cancel")}`, width),
    ];
  }

  handleInput(keyData) {
    const keys = getKeybindings();
    if (keys.matches(keyData, "tui.select.confirm")) this.onSubmit?.(this.entryId, this.input.getValue().trim() || undefined);
    else if (keys.matches(keyData, "tui.select.cancel")) this.onCancel?.();
    else this.input.handleInput(keyData);
  }
}

export class TreeSelectorComponent extends Container {
  constructor(tree, currentLeafId, terminalHeight, onSelect, onCancel, onLabelChange, initialSelectedId, initialFilterMode) {
    super();
    const theme = currentTheme();
    this.onLabelChangeCallback = onLabelChange;
    this.onCopy = undefined;
    this.labelInput = null;
    this._focused = false;
    // Half the terminal, at least five rows.
    this.treeList = new TreeList(tree, currentLeafId, Math.max(5, Math.floor(terminalHeight / 2)), initialSelectedId, initialFilterMode);
    this.treeList.onSelect = onSelect;
    this.treeList.onCancel = onCancel;
    this.treeList.onCopy = (text) => this.onCopy?.(text);
    this.treeList.onLabelEdit = (entryId, currentLabel) => this.showLabelInput(entryId, currentLabel);
    this.searchLine = new SearchLine(this.treeList);
    this.treeContainer = new Container();
    this.treeContainer.addChild(this.treeList);
    this.labelInputContainer = new Container();
    this.addChild(new Spacer(1));
    this.addChild(new DynamicBorder());
    this.addChild(new Text(theme.bold("  Session Tree"), 1, 0));
    this.addChild(new TreeHelp());
    this.addChild(this.searchLine);
    this.addChild(new DynamicBorder());
    this.addChild(new Spacer(1));
    this.addChild(this.treeContainer);
    this.addChild(this.labelInputContainer);
    this.addChild(new Spacer(1));
    this.addChild(new DynamicBorder());
    // An empty session has nothing to pick: the screen closes itself shortly after it opens.
    if (tree.length === 0) setTimeout(() => onCancel(), 100);
  }

  get focused() {
    return this._focused;
  }

  // The search line draws the cursor unless a label is being edited, which then has it.
  set focused(value) {
    this._focused = value;
    this.searchLine.focused = value && this.labelInput === null;
    if (this.labelInput) this.labelInput.focused = value;
  }

  get capturesViewportInput() {
    return this.labelInput === null;
  }

  showLabelInput(entryId, currentLabel) {
    this.labelInput = new LabelInput(entryId, currentLabel);
    this.labelInput.onSubmit = (id, label) => {
      this.treeList.updateNodeLabel(id, label);
      this.onLabelChangeCallback?.(id, label);
      this.hideLabelInput();
    };
    this.labelInput.onCancel = () => this.hideLabelInput();
    this.focused = this._focused;
    this.treeContainer.clear();
    this.labelInputContainer.clear();
    this.labelInputContainer.addChild(this.labelInput);
  }

  hideLabelInput() {
    this.labelInput = null;
    this.focused = this._focused;
    this.labelInputContainer.clear();
    this.treeContainer.clear();
    this.treeContainer.addChild(this.treeList);
  }

  handleInput(keyData) {
    if (this.labelInput) this.labelInput.handleInput(keyData);
    else this.treeList.handleInput(keyData);
  }

  getTreeList() {
    return this.treeList;
  }
}
