// A list of settings whose values cycle (or open a submenu), with optional
// fuzzy search.
import { fuzzyFilter } from "../fuzzy.js";
import { getKeybindings, getSelectPageIndex } from "../keybindings.js";
import { truncateToWidth } from "../truncate.js";
import { visibleWidth } from "../width.js";
import { wrapTextWithAnsi } from "../wrap.js";
import { Input } from "./input.js";
import { visibleRange } from "./select-list.js";

const MAX_LABEL_WIDTH = 36;

export class SettingsList {
  constructor(items, maxVisible, theme, onChange, onCancel, options = {}) {
    this.capturesViewportInput = true;
    this.items = items;
    this.filteredItems = items;
    this.maxVisible = maxVisible;
    this.theme = theme;
    this.onChange = onChange;
    this.onCancel = onCancel;
    this.selectedIndex = 0;
    this.searchEnabled = options.enableSearch ?? false;
    this.searchInput = this.searchEnabled ? new Input() : undefined;
    this.submenuComponent = null;
    this.submenuItemIndex = null;
    this.navigateAfterClose = null;
  }

  updateValue(id, newValue) {
    const item = this.items.find((i) => i.id === id);
    if (item) item.currentValue = newValue;
  }

  selectItem(id) {
    const index = this.displayItems().findIndex((i) => i.id === id);
    if (index !== -1) this.selectedIndex = index;
  }

  invalidate() {
    this.submenuComponent?.invalidate?.();
  }

  displayItems() {
    return this.searchEnabled ? this.filteredItems : this.items;
  }

  render(width) {
    return this.submenuComponent ? this.submenuComponent.render(width) : this.renderList(width);
  }

  renderList(width) {
    const lines = [];
    if (this.searchInput) lines.push(...this.searchInput.render(width), "");
    if (this.items.length === 0) {
      lines.push(this.theme.hint("  No settings available"));
      if (this.searchEnabled) this.addHint(lines, width);
      return lines;
    }
    const items = this.displayItems();
    if (items.length === 0) {
      lines.push(truncateToWidth(this.theme.hint("  No matching settings"), width));
      this.addHint(lines, width);
      return lines;
    }
    const { startIndex, endIndex } = visibleRange(this.selectedIndex, items.length, this.maxVisible);
    // Labels line up across all items, filtered or not.
    const labelWidth = Math.min(MAX_LABEL_WIDTH, Math.max(...this.items.map((item) => visibleWidth(item.label))));
    for (let i = startIndex; i < endIndex; i++) {
      const item = items[i];
      if (!item) continue;
      const selected = i === this.selectedIndex;
      const prefix = selected ? this.theme.cursor : "  ";
      const label = this.theme.label(item.label + " ".repeat(Math.max(0, labelWidth - visibleWidth(item.label))), selected);
      const valueWidth = width - (visibleWidth(prefix) + labelWidth + 2) - 2;
      const value = this.theme.value(truncateToWidth(item.currentValue, valueWidth, ""), selected);
      lines.push(truncateToWidth(`${prefix}${label}  ${value}`, width));
    }
    if (startIndex > 0 || endIndex < items.length) {
      lines.push(this.theme.hint(truncateToWidth(`  (${this.selectedIndex + 1}/${items.length})`, width - 2, "")));
    }
    const selectedItem = items[this.selectedIndex];
    if (selectedItem?.description) {
      lines.push("");
      for (const line of wrapTextWithAnsi(selectedItem.description, width - 4)) {
        lines.push(this.theme.description(`  ${line}`));
      }
    }
    this.addHint(lines, width);
    return lines;
  }

  handleInput(data) {
    if (this.submenuComponent) {
      this.submenuComponent.handleInput?.(data);
      return;
    }
    const kb = getKeybindings();
    const items = this.displayItems();
    const page = getSelectPageIndex(kb, data, this.selectedIndex, items.length, this.maxVisible);
    if (kb.matches(data, "tui.select.up")) {
      if (items.length > 0) this.selectedIndex = this.selectedIndex === 0 ? items.length - 1 : this.selectedIndex - 1;
    } else if (kb.matches(data, "tui.select.down")) {
      if (items.length > 0) this.selectedIndex = this.selectedIndex === items.length - 1 ? 0 : this.selectedIndex + 1;
    } else if (page !== undefined) {
      if (items.length > 0) this.selectedIndex = page;
    } else if (
      kb.matches(data, "tui.select.confirm") ||
      // Space toggles unless it is part of a search query.
      (data === " " && (!this.searchEnabled || this.searchInput?.getValue().length === 0))
    ) {
      this.activateItem();
    } else if (kb.matches(data, "tui.select.cancel")) {
      this.onCancel();
    } else if (this.searchInput) {
      const before = this.searchInput.getValue();
      this.searchInput.handleInput(data);
      const query = this.searchInput.getValue();
      if (query !== before) {
        this.filteredItems = fuzzyFilter(this.items, query, (item) => item.label);
        this.selectedIndex = 0;
      }
    }
  }

  activateItem() {
    const item = this.displayItems()[this.selectedIndex];
    if (!item) return;
    if (item.submenu) {
      this.submenuItemIndex = this.selectedIndex;
      this.submenuComponent = item.submenu(item.currentValue, (selectedValue, options) => {
        if (selectedValue !== undefined) {
          item.currentValue = selectedValue;
          this.onChange(item.id, selectedValue);
        }
        if (options?.navigateTo) this.navigateAfterClose = options.navigateTo;
        this.closeSubmenu();
      });
    } else if (item.values && item.values.length > 0) {
      const next = item.values[(item.values.indexOf(item.currentValue) + 1) % item.values.length];
      item.currentValue = next;
      this.onChange(item.id, next);
    }
  }

  closeSubmenu() {
    this.submenuComponent = null;
    if (this.navigateAfterClose !== null) {
      const id = this.navigateAfterClose;
      this.navigateAfterClose = null;
      this.submenuItemIndex = null;
      this.selectItem(id);
      this.activateItem();
    } else if (this.submenuItemIndex !== null) {
      this.selectedIndex = this.submenuItemIndex;
      this.submenuItemIndex = null;
    }
  }

  addHint(lines, width) {
    const hint = this.searchEnabled
      ? "  Type to search · Enter/Space to change · Esc to cancel"
      : "  Enter/Space to change · Esc to cancel";
    lines.push("", truncateToWidth(this.theme.hint(hint), width));
  }
}
