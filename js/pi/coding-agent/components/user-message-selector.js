// The picker of the user's earlier messages to fork the session from: two
// lines per message (the text on one line, its position), ten messages at a
// time, wrapping at either end.
import { Container } from "../../pi-tui/components/container.js";
import { Spacer, Text } from "../../pi-tui/components/text.js";
import { getKeybindings, getSelectPageIndex } from "../../pi-tui/keybindings.js";
import { truncateToWidth } from "../../pi-tui/truncate.js";
import { DynamicBorder } from "../ui/dynamic-border.js";
import { currentTheme } from "../ui/theme.js";

class UserMessageList {
  constructor(messages, initialSelectedId) {
    this.capturesViewportInput = true;
    this.messages = messages;
    this.maxVisible = 10;
    this.onSelect = undefined;
    this.onCancel = undefined;
    const initial = initialSelectedId ? messages.findIndex((message) => message.id === initialSelectedId) : -1;
    // Without a known starting message, the newest is selected.
    this.selectedIndex = initial >= 0 ? initial : Math.max(0, messages.length - 1);
  }

  invalidate() {}

  render(width) {
    const theme = currentTheme();
    const count = this.messages.length;
    if (count === 0) return [theme.fg("muted", "  No user messages found")];
    const start = Math.max(0, Math.min(this.selectedIndex - Math.floor(this.maxVisible / 2), count - this.maxVisible));
    const end = Math.min(start + this.maxVisible, count);
    const lines = [];
    for (let i = start; i < end; i++) {
      const selected = i === this.selectedIndex;
      const oneLine = truncateToWidth(this.messages[i].text.replace(/\n/g, " ").trim(), width - 2);
      lines.push((selected ? theme.fg("accent", "› ") : "  ") + (selected ? theme.bold(oneLine) : oneLine));
      lines.push(theme.fg("muted", `  Message ${i + 1} of ${count}`));
      lines.push("");
    }
    if (start > 0 || end < count) lines.push(theme.fg("muted", `  (${this.selectedIndex + 1}/${count})`));
    return lines;
  }

  handleInput(keyData) {
    const keys = getKeybindings();
    const count = this.messages.length;
    const pageIndex = getSelectPageIndex(keys, keyData, this.selectedIndex, count, this.maxVisible);
    if (keys.matches(keyData, "tui.select.up")) {
      this.selectedIndex = this.selectedIndex === 0 ? count - 1 : this.selectedIndex - 1;
    } else if (keys.matches(keyData, "tui.select.down")) {
      this.selectedIndex = this.selectedIndex === count - 1 ? 0 : this.selectedIndex + 1;
    } else if (pageIndex !== undefined) {
      if (count > 0) this.selectedIndex = pageIndex;
    } else if (keys.matches(keyData, "tui.select.confirm")) {
      const selected = this.messages[this.selectedIndex];
      if (selected && this.onSelect) this.onSelect(selected.id);
    } else if (keys.matches(keyData, "tui.select.cancel")) {
      this.onCancel?.();
    }
  }
}

export class UserMessageSelectorComponent extends Container {
  constructor(messages, onSelect, onCancel, initialSelectedId) {
    super();
    const theme = currentTheme();
    this.addChild(new Spacer(1));
    this.addChild(new Text(theme.bold("Fork from Message"), 1, 0));
    this.addChild(new Text(theme.fg("muted", "Select a user message to copy the active path up to that point into a new session"), 1, 0));
    this.addChild(new Spacer(1));
    this.addChild(new DynamicBorder());
    this.addChild(new Spacer(1));
    this.messageList = new UserMessageList(messages, initialSelectedId);
    this.messageList.onSelect = onSelect;
    this.messageList.onCancel = onCancel;
    this.addChild(this.messageList);
    this.addChild(new Spacer(1));
    this.addChild(new DynamicBorder());
    // Nothing to pick: the selector closes itself.
    if (messages.length === 0) setTimeout(() => onCancel(), 100);
  }

  getMessageList() {
    return this.messageList;
  }
}
