// A scrolling list of choices with an optional description column.
import { getKeybindings, getSelectPageIndex } from "../keybindings.js";
import { truncateToWidth } from "../truncate.js";
import { visibleWidth } from "../width.js";

const DEFAULT_PRIMARY_COLUMN_WIDTH = 32;
const COLUMN_GAP = 2;
const MIN_DESCRIPTION_WIDTH = 10;

const oneLine = (text) => text.replace(/[\r\n]+/g, " ").trim();
const clamp = (value, min, max) => Math.max(min, Math.min(value, max));

/** The window of `count` items, `size` tall, that keeps `selected` centred. */
export function visibleRange(selected, count, size) {
  const start = Math.max(0, Math.min(selected - Math.floor(size / 2), count - size));
  return { startIndex: start, endIndex: Math.min(start + size, count) };
}

export class SelectList {
  constructor(items, maxVisible, theme, layout = {}) {
    this.capturesViewportInput = true;
    this.items = items;
    this.filteredItems = items;
    this.selectedIndex = 0;
    this.maxVisible = maxVisible;
    this.theme = theme;
    this.layout = layout;
    this.onSelect = undefined;
    this.onCancel = undefined;
    this.onSelectionChange = undefined;
  }

  setFilter(filter) {
    const prefix = filter.toLowerCase();
    this.filteredItems = this.items.filter((item) => item.value.toLowerCase().startsWith(prefix));
    this.selectedIndex = 0;
  }

  setSelectedIndex(index) {
    this.selectedIndex = Math.max(0, Math.min(index, this.filteredItems.length - 1));
  }

  invalidate() {}

  render(width) {
    if (this.filteredItems.length === 0) return [this.theme.noMatch("  No matching commands")];
    const column = this.primaryColumnWidth();
    const { startIndex, endIndex } = visibleRange(this.selectedIndex, this.filteredItems.length, this.maxVisible);
    const lines = [];
    for (let i = startIndex; i < endIndex; i++) {
      const item = this.filteredItems[i];
      if (!item) continue;
      const description = item.description ? oneLine(item.description) : undefined;
      lines.push(this.renderItem(item, i === this.selectedIndex, width, description, column));
    }
    if (startIndex > 0 || endIndex < this.filteredItems.length) {
      const position = `  (${this.selectedIndex + 1}/${this.filteredItems.length})`;
      lines.push(this.theme.scrollInfo(truncateToWidth(position, width - 2, "")));
    }
    return lines;
  }

  handleInput(data) {
    const kb = getKeybindings();
    const count = this.filteredItems.length;
    const page = getSelectPageIndex(kb, data, this.selectedIndex, count, this.maxVisible);
    if (kb.matches(data, "tui.select.up")) {
      this.selectedIndex = this.selectedIndex === 0 ? count - 1 : this.selectedIndex - 1;
      this.notifySelectionChange();
    } else if (kb.matches(data, "tui.select.down")) {
      this.selectedIndex = this.selectedIndex === count - 1 ? 0 : this.selectedIndex + 1;
      this.notifySelectionChange();
    } else if (page !== undefined) {
      if (count === 0 || page === this.selectedIndex) return;
      this.selectedIndex = page;
      this.notifySelectionChange();
    } else if (kb.matches(data, "tui.select.confirm")) {
      const item = this.filteredItems[this.selectedIndex];
      if (item) this.onSelect?.(item);
    } else if (kb.matches(data, "tui.select.cancel")) {
      this.onCancel?.();
    }
  }

  renderItem(item, selected, width, description, column) {
    const prefix = selected ? "→ " : "  ";
    const prefixWidth = visibleWidth(prefix);
    if (description && width > 40) {
      const columnWidth = Math.max(1, Math.min(column, width - prefixWidth - 4));
      const value = this.truncatePrimary(item, selected, Math.max(1, columnWidth - COLUMN_GAP), columnWidth);
      const valueWidth = visibleWidth(value);
      const spacing = " ".repeat(Math.max(1, columnWidth - valueWidth));
      const remaining = width - (prefixWidth + valueWidth + spacing.length) - 2;
      if (remaining > MIN_DESCRIPTION_WIDTH) {
        const desc = truncateToWidth(description, remaining, "");
        if (selected) return this.theme.selectedText(`${prefix}${value}${spacing}${desc}`);
        return prefix + value + this.theme.description(spacing + desc);
      }
    }
    const maxWidth = width - prefixWidth - 2;
    const value = this.truncatePrimary(item, selected, maxWidth, maxWidth);
    return selected ? this.theme.selectedText(`${prefix}${value}`) : prefix + value;
  }

  primaryColumnWidth() {
    const a = this.layout.minPrimaryColumnWidth ?? this.layout.maxPrimaryColumnWidth ?? DEFAULT_PRIMARY_COLUMN_WIDTH;
    const b = this.layout.maxPrimaryColumnWidth ?? this.layout.minPrimaryColumnWidth ?? DEFAULT_PRIMARY_COLUMN_WIDTH;
    const widest = this.filteredItems.reduce(
      (w, item) => Math.max(w, visibleWidth(this.getDisplayValue(item)) + COLUMN_GAP),
      0,
    );
    return clamp(widest, Math.max(1, Math.min(a, b)), Math.max(1, Math.max(a, b)));
  }

  truncatePrimary(item, isSelected, maxWidth, columnWidth) {
    const text = this.getDisplayValue(item);
    const custom = this.layout.truncatePrimary;
    const cut = custom ? custom({ text, maxWidth, columnWidth, item, isSelected }) : truncateToWidth(text, maxWidth, "");
    return truncateToWidth(cut, maxWidth, "");
  }

  getDisplayValue(item) {
    return item.label || item.value;
  }

  notifySelectionChange() {
    const item = this.filteredItems[this.selectedIndex];
    if (item) this.onSelectionChange?.(item);
  }

  getSelectedItem() {
    return this.filteredItems[this.selectedIndex] || null;
  }
}
