// A sign-in URL with how to open it and how to copy it: a long URL wraps,
// and over SSH or tmux it often cannot be selected or clicked whole, so the
// dialog copies it when asked (`copy()`).
import { Container } from "../../pi-tui/components/container.js";
import { Text } from "../../pi-tui/components/text.js";
import { hyperlink } from "../../pi-tui/terminal-image.js";
import { copyToClipboard } from "../clipboard.js";
import { keyHint } from "../ui/keybinding-hints.js";
import { currentTheme } from "../ui/theme.js";

export function clickToOpenHint() {
  return globalThis.process?.platform === "darwin" ? "Cmd+click to open" : "Ctrl+click to open";
}

export class AuthUrlComponent extends Container {
  constructor(tui, url) {
    super();
    this.tui = tui;
    this.url = url;
    this.addChild(new Text(currentTheme().fg("accent", hyperlink(url, url)), 1, 0));
    this.hint = new Text("", 1, 0);
    this.addChild(this.hint);
    this.setHint(keyHint("app.message.copy", "to copy"));
  }

  setHint(suffix) {
    const theme = currentTheme();
    this.hint.setText(`${theme.fg("dim", hyperlink(clickToOpenHint(), this.url))} ${theme.fg("dim", "•")} ${suffix}`);
    this.tui.requestRender();
  }

  async copy() {
    const theme = currentTheme();
    try {
      await copyToClipboard(this.url);
      this.setHint(theme.fg("success", "Copied URL to clipboard"));
    } catch (error) {
      this.setHint(theme.fg("error", error instanceof Error ? error.message : String(error)));
    }
  }
}
