// The one-line text prompt extensions open with ctx.ui.input(): a title,
// an optional description, the input, and a countdown in the title when
// the prompt times out.
import { Container } from "../../pi-tui/components/container.js";
import { Input } from "../../pi-tui/components/input.js";
import { Spacer, Text } from "../../pi-tui/components/text.js";
import { getKeybindings } from "../../pi-tui/keybindings.js";
import { DynamicBorder } from "../ui/dynamic-border.js";
import { keyHint } from "../ui/keybinding-hints.js";
import { currentTheme } from "../ui/theme.js";
import { CountdownTimer } from "./countdown-timer.js";

export class ExtensionInputComponent extends Container {
  constructor(title, _placeholder, onSubmit, onCancel, opts) {
    super();
    const theme = currentTheme();
    this._focused = false;
    this.onSubmitCallback = onSubmit;
    this.onCancelCallback = onCancel;
    this.baseTitle = title;
    this.countdown = undefined;
    this.addChild(new DynamicBorder());
    this.addChild(new Spacer(1));
    this.titleText = new Text(theme.fg("accent", title), 1, 0);
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
        (seconds) => this.titleText.setText(currentTheme().fg("accent", `${this.baseTitle} (${seconds}s)`)),
        () => this.onCancelCallback(),
      );
    }
    this.input = new Input();
    if (opts?.initialValue) this.input.setValue(opts.initialValue);
    this.addChild(this.input);
    this.addChild(new Spacer(1));
    this.addChild(new Text(`${keyHint("tui.select.confirm", "submit")}  ${keyHint("tui.select.cancel", "cancel")}`, 1, 0));
    this.addChild(new Spacer(1));
    this.addChild(new DynamicBorder());
  }

  // Focus goes on to the input, which places the hardware cursor for IMEs.
  get focused() {
    return this._focused;
  }

  set focused(value) {
    this._focused = value;
    this.input.focused = value;
  }

  handleInput(keyData) {
    const keys = getKeybindings();
    if (keys.matches(keyData, "tui.select.confirm") || keyData === "\n") this.onSubmitCallback(this.input.getValue());
    else if (keys.matches(keyData, "tui.select.cancel")) this.onCancelCallback();
    else this.input.handleInput(keyData);
  }

  dispose() {
    this.countdown?.dispose();
  }
}
