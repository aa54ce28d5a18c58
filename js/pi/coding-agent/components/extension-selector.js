// The list of string options extensions open with ctx.ui.select(): ten
// rows at a time around the selection, arrow keys or j/k to move.
import { Container } from "../../pi-tui/components/container.js";
import { Spacer, Text } from "../../pi-tui/components/text.js";
import { getKeybindings } from "../../pi-tui/keybindings.js";
import { DynamicBorder } from "../ui/dynamic-border.js";
import { keyHint, rawKeyHint } from "../ui/keybinding-hints.js";
import { currentTheme } from "../ui/theme.js";
import { CountdownTimer } from "./countdown-timer.js";

const MAX_VISIBLE = 10;

export class ExtensionSelectorComponent extends Container {
  constructor(title, options, onSelect, onCancel, opts) {
    super();
    const theme = currentTheme();
    this.options = options;
    this.selectedIndex = 0;
    this.onSelectCallback = onSelect;
    this.onCancelCallback = onCancel;
    this.onToggleToolsExpanded = opts?.onToggleToolsExpanded;
    this.baseTitle = title;
    this.countdown = undefined;
    this.addChild(new DynamicBorder());
    this.addChild(new Spacer(1));
    this.titleText = new Text(theme.fg("accent", theme.bold(title)), 1, 0);
    this.addChild(this.titleText);
    if (opts?.description) {
      this.addChild(new Spacer(1));
      this.addChild(new Text(theme.fg("text", opts.description), 1, 0));
    }
    this.addChild(new Spacer(1));
    if (opts?.timeout && opts.timeout > 0 && opts.tui) {
      this.countdown = new CountdownTimer(
        opts.timeout,
        opts.tui,
        (seconds) => this.titleText.setText(currentTheme().fg("accent", currentTheme().bold(`${this.baseTitle} (${seconds}s)`))),
        () => this.onCancelCallback(),
      );
    }
    this.listContainer = new Container();
    this.addChild(this.listContainer);
    this.addChild(new Spacer(1));
    const hints = `${rawKeyHint("↑↓", "navigate")}  ${keyHint("tui.select.confirm", "select")}  ${keyHint("tui.select.cancel", "cancel")}`;
    this.addChild(new Text(hints, 1, 0));
    this.addChild(new Spacer(1));
    this.addChild(new DynamicBorder());
    this.updateList();
  }

  updateList() {
    const theme = currentTheme();
    this.listContainer.clear();
    // The window centred on the selection, then kept inside the list.
    const start = Math.max(0, Math.min(this.selectedIndex - Math.floor(MAX_VISIBLE / 2), this.options.length - MAX_VISIBLE));
    const end = Math.min(start + MAX_VISIBLE, this.options.length);
    for (let i = start; i < end; i++) {
      const row = i === this.selectedIndex ? theme.fg("accent", "→ ") + theme.fg("accent", this.options[i]) : `  ${theme.fg("text", this.options[i])}`;
      this.listContainer.addChild(new Text(row, 1, 0));
    }
    if (start > 0 || end < this.options.length) {
      this.listContainer.addChild(new Text(theme.fg("muted", `  (${this.selectedIndex + 1}/${this.options.length})`), 0, 0));
    }
  }

  handleInput(keyData) {
    const keys = getKeybindings();
    if (keys.matches(keyData, "app.tools.expand")) {
      this.onToggleToolsExpanded?.();
    } else if (keys.matches(keyData, "tui.select.up") || keyData === "k") {
      this.selectedIndex = Math.max(0, this.selectedIndex - 1);
      this.updateList();
    } else if (keys.matches(keyData, "tui.select.down") || keyData === "j") {
      this.selectedIndex = Math.min(this.options.length - 1, this.selectedIndex + 1);
      this.updateList();
    } else if (keys.matches(keyData, "tui.select.confirm") || keyData === "\n") {
      const selected = this.options[this.selectedIndex];
      if (selected) this.onSelectCallback(selected);
    } else if (keys.matches(keyData, "tui.select.cancel")) {
      this.onCancelCallback();
    }
  }

  dispose() {
    this.countdown?.dispose();
  }
}
