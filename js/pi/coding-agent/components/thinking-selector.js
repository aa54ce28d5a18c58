// The thinking-level picker: the levels a model supports with what each
// costs, filtered as the user types, the current level ticked.
import { Container } from "../../pi-tui/components/container.js";
import { Input } from "../../pi-tui/components/input.js";
import { SelectList } from "../../pi-tui/components/select-list.js";
import { Spacer, Text } from "../../pi-tui/components/text.js";
import { fuzzyFilter } from "../../pi-tui/fuzzy.js";
import { getKeybindings } from "../../pi-tui/keybindings.js";
import { DynamicBorder } from "../ui/dynamic-border.js";
import { keyDisplayText } from "../ui/keybinding-hints.js";
import { currentTheme, getSelectListTheme } from "../ui/theme.js";

const LIST_LAYOUT = { minPrimaryColumnWidth: 12, maxPrimaryColumnWidth: 32 };

const LEVEL_DESCRIPTIONS = {
  off: "No reasoning",
  minimal: "Very brief reasoning (~1k tokens)",
  low: "Light reasoning (~2k tokens)",
  medium: "Moderate reasoning (~8k tokens)",
  high: "Deep reasoning (~16k tokens)",
  xhigh: "Extra-high reasoning (~32k tokens)",
  max: "Maximum reasoning",
};

const NAVIGATION_KEYS = ["tui.select.up", "tui.select.down", "tui.select.confirm", "tui.select.cancel"];

export class ThinkingSelectorComponent extends Container {
  constructor(currentLevel, availableLevels, onSelect, onCancel, onSelectAsDefault, defaultThinkingLevel) {
    super();
    this._focused = false;
    this.onSelect = onSelect;
    this.onCancel = onCancel;
    this.onSelectAsDefault = onSelectAsDefault;
    this.allItems = availableLevels.map((level) => ({
      value: level,
      label: `${level === currentLevel ? "✓ " : "  "}${level}`,
      description: level === defaultThinkingLevel ? `${LEVEL_DESCRIPTIONS[level]} · default` : LEVEL_DESCRIPTIONS[level],
    }));
    this.addChild(new DynamicBorder());
    this.addChild(new Spacer(1));
    this.addChild(new Text("Thinking Level", 0, 0));
    this.addChild(new Spacer(1));
    this.addChild(new Text(`${keyDisplayText("app.thinking.cycle")} cycles thinking levels in-session`, 0, 0));
    this.addChild(new Spacer(1));
    this.searchInput = new Input();
    this.searchInput.onSubmit = () => this.selectList.handleInput("\r");
    this.addChild(this.searchInput);
    this.addChild(new Spacer(1));
    this.selectList = this.buildSelectList(this.allItems, currentLevel);
    // The list is swapped in place whenever the filter changes.
    this.selectListChildIndex = this.children.length;
    this.addChild(this.selectList);
    this.addChild(new Spacer(1));
    const hint = `  ${keyDisplayText("tui.select.confirm")} to select · ${keyDisplayText("app.thinking.save")} to set as default · ${keyDisplayText("tui.select.cancel")} to cancel`;
    this.addChild(new Text(currentTheme().fg("dim", hint), 0, 0));
    this.addChild(new DynamicBorder());
  }

  get focused() {
    return this._focused;
  }

  set focused(value) {
    this._focused = value;
    this.searchInput.focused = value;
  }

  buildSelectList(items, preselect) {
    const list = new SelectList(items, Math.max(1, items.length), getSelectListTheme(), LIST_LAYOUT);
    const index = items.findIndex((item) => item.value === preselect);
    if (index !== -1) list.setSelectedIndex(index);
    list.onSelect = (item) => this.onSelect(item.value);
    list.onCancel = () => this.onCancel();
    return list;
  }

  applyFilter(query) {
    const items = query ? fuzzyFilter(this.allItems, query, (item) => `${item.value} ${item.description ?? ""}`) : this.allItems;
    const list = this.buildSelectList(items, this.selectList.getSelectedItem()?.value);
    this.children[this.selectListChildIndex] = list;
    this.selectList = list;
  }

  handleInput(keyData) {
    const keys = getKeybindings();
    if (keys.matches(keyData, "app.thinking.save") && this.onSelectAsDefault) {
      const item = this.selectList.getSelectedItem();
      if (item) this.onSelectAsDefault(item.value);
      return;
    }
    if (NAVIGATION_KEYS.some((id) => keys.matches(keyData, id))) {
      this.selectList.handleInput(keyData);
      return;
    }
    // Only a changed query rebuilds the list: cursor keys in the input leave it alone.
    const before = this.searchInput.getValue();
    this.searchInput.handleInput(keyData);
    const query = this.searchInput.getValue();
    if (query !== before) this.applyFilter(query);
  }

  getSelectList() {
    return this.selectList;
  }
}
