// pi's prompt editor: pi-tui's Editor with the app's own keys (escape,
// Ctrl+D, image paste, extension shortcuts, registered app actions) taken
// before the editor sees them, and optionally a working-status indicator set
// into the top rule.
import { Editor } from "../../pi-tui/components/editor.js";
import { visibleWidth } from "../../pi-tui/width.js";

export class CustomEditor extends Editor {
  constructor(tui, theme, keybindings, options) {
    super(tui, theme, options);
    this.keybindings = keybindings;
    this.embedWorkingStatus = options?.embedWorkingStatus ?? false;
    this.workingStatusIndicator = undefined;
    this.actionHandlers = new Map();
    this.onEscape = undefined;
    this.onCtrlD = undefined;
    this.onPasteImage = undefined;
    /** Returns true when an extension shortcut consumed the key. */
    this.onExtensionShortcut = undefined;
  }

  setWorkingStatusIndicator(indicator) {
    this.workingStatusIndicator = indicator;
  }

  renderTopBorder(width, hiddenLineCount) {
    const indicator = this.workingStatusIndicator;
    if (!this.embedWorkingStatus || !indicator || width <= 0) return super.renderTopBorder(width, hiddenLineCount);
    let status = indicator.renderInBorder(Math.max(1, width - 5));
    let statusWidth = visibleWidth(status);
    if (statusWidth === 0) return super.renderTopBorder(width, hiddenLineCount);

    // "── status ───── ↑ N more ─────": the scroll label stays centred when
    // there is room for it beside the status.
    const label = hiddenLineCount > 0 ? ` ↑ ${hiddenLineCount} more ` : undefined;
    const labelWidth = label ? visibleWidth(label) : 0;
    const labelStart = Math.floor((width - labelWidth) / 2);
    const labelFits = () => label !== undefined && labelWidth + 2 <= width && labelStart - (statusWidth + 4) >= 1;
    if (label && !labelFits()) {
      status = indicator.renderSpinnerInBorder(width);
      statusWidth = visibleWidth(status);
    }
    if (labelFits()) {
      const rest = `${"─".repeat(labelStart - (statusWidth + 4))}${label}${"─".repeat(width - labelStart - labelWidth)}`;
      return `${this.borderColor("── ")}${status}${this.borderColor(` ${rest}`)}`;
    }
    if (width >= statusWidth + 5) {
      return `${this.borderColor("── ")}${status}${this.borderColor(` ${"─".repeat(width - statusWidth - 4)}`)}`;
    }
    status = indicator.renderSpinnerInBorder(width);
    statusWidth = visibleWidth(status);
    const lead = Math.min(3, Math.max(0, width - statusWidth));
    return this.borderColor("─".repeat(lead)) + status + this.borderColor("─".repeat(Math.max(0, width - lead - statusWidth)));
  }

  onAction(action, handler) {
    this.actionHandlers.set(action, handler);
  }

  handleInput(data) {
    const kb = this.keybindings;
    if (this.onExtensionShortcut?.(data)) return;
    // An open completion menu takes its page keys before any app action.
    if (this.isShowingAutocomplete() && (kb.matches(data, "tui.select.pageUp") || kb.matches(data, "tui.select.pageDown"))) {
      super.handleInput(data);
      return;
    }
    if (kb.matches(data, "app.clipboard.pasteImage")) {
      this.onPasteImage?.();
      return;
    }
    if (kb.matches(data, "app.interrupt")) {
      // While completing, escape closes the menu instead.
      const handler = this.isShowingAutocomplete() ? undefined : (this.onEscape ?? this.actionHandlers.get("app.interrupt"));
      if (handler) handler();
      else super.handleInput(data);
      return;
    }
    if (kb.matches(data, "app.exit")) {
      if (this.getText().length === 0) {
        (this.onCtrlD ?? this.actionHandlers.get("app.exit"))?.();
        return;
      }
      // With text, the key keeps its editor meaning (delete forward).
    }
    // History keys the user bound win over app actions sharing them.
    if (kb.matches(data, "tui.editor.historyPrevious") || kb.matches(data, "tui.editor.historyNext")) {
      super.handleInput(data);
      return;
    }
    for (const [action, handler] of this.actionHandlers) {
      if (action !== "app.interrupt" && action !== "app.exit" && kb.matches(data, action)) {
        handler();
        return;
      }
    }
    super.handleInput(data);
  }
}
