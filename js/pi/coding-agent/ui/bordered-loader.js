// A loader between two borders, as extensions show while they work; the
// cancellable kind (the default) aborts its signal on the cancel key.
import { CancellableLoader, Loader } from "../../pi-tui/components/loader.js";
import { Container } from "../../pi-tui/components/container.js";
import { Spacer, Text } from "../../pi-tui/components/text.js";
import { DynamicBorder } from "./dynamic-border.js";
import { keyHint } from "./keybinding-hints.js";

export class BorderedLoader extends Container {
  constructor(tui, theme, message, options) {
    super();
    this.cancellable = options?.cancellable ?? true;
    const border = (text) => theme.fg("border", text);
    const spinner = (text) => theme.fg("accent", text);
    const muted = (text) => theme.fg("muted", text);
    this.addChild(new DynamicBorder(border));
    if (this.cancellable) {
      this.loader = new CancellableLoader(tui, spinner, muted, message);
    } else {
      this.signalController = new AbortController();
      this.loader = new Loader(tui, spinner, muted, message);
    }
    this.addChild(this.loader);
    if (this.cancellable) {
      this.addChild(new Spacer(1));
      this.addChild(new Text(keyHint("tui.select.cancel", "cancel"), 1, 0));
    }
    this.addChild(new Spacer(1));
    this.addChild(new DynamicBorder(border));
  }

  get signal() {
    if (this.cancellable) return this.loader.signal;
    return this.signalController?.signal ?? new AbortController().signal;
  }

  set onAbort(fn) {
    if (this.cancellable) this.loader.onAbort = fn;
  }

  handleInput(data) {
    if (this.cancellable) this.loader.handleInput(data);
  }

  dispose() {
    if (typeof this.loader.dispose === "function") this.loader.dispose();
    else this.loader.stop?.();
  }
}
