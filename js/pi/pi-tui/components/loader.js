// A spinner with a message, redrawn by the TUI on every frame.
import { getKeybindings } from "../keybindings.js";
import { Text } from "./text.js";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const INTERVAL_MS = 80;

export class Loader extends Text {
  constructor(ui, spinnerColorFn, messageColorFn, message = "Loading...", indicator) {
    super("", 1, 0);
    this.ui = ui;
    this.spinnerColorFn = spinnerColorFn;
    this.messageColorFn = messageColorFn;
    this.message = message;
    this.intervalId = null;
    this.setIndicator(indicator);
  }

  /** One blank line above the spinner line. */
  render(width) {
    return ["", ...super.render(width)];
  }

  start() {
    this.updateDisplay();
    this.restartAnimation();
  }

  stop() {
    if (this.intervalId) {
      clearInterval(this.intervalId);
      this.intervalId = null;
    }
  }

  setMessage(message) {
    this.message = message;
    this.updateDisplay();
  }

  invalidate() {
    super.invalidate();
    this.updateDisplay();
  }

  /** Custom frames are shown as given; the default spinner goes through spinnerColorFn. */
  setIndicator(indicator) {
    this.verbatim = indicator !== undefined;
    this.frames = indicator?.frames !== undefined ? [...indicator.frames] : [...FRAMES];
    this.intervalMs = indicator?.intervalMs > 0 ? indicator.intervalMs : INTERVAL_MS;
    this.currentFrame = 0;
    this.start();
  }

  restartAnimation() {
    this.stop();
    if (this.frames.length <= 1) return;
    this.intervalId = setInterval(() => {
      this.currentFrame = (this.currentFrame + 1) % this.frames.length;
      this.updateDisplay();
    }, this.intervalMs);
  }

  updateDisplay() {
    const frame = this.frames[this.currentFrame] ?? "";
    const shown = this.verbatim ? frame : this.spinnerColorFn(frame);
    this.setText(`${shown.length > 0 ? `${shown} ` : ""}${this.messageColorFn(this.message)}`);
    this.ui?.requestRender?.();
  }
}

/** A Loader that the cancel key (Escape) aborts. */
export class CancellableLoader extends Loader {
  constructor(...args) {
    super(...args);
    this.abortController = new AbortController();
    this.onAbort = undefined;
  }

  get signal() {
    return this.abortController.signal;
  }

  get aborted() {
    return this.abortController.signal.aborted;
  }

  handleInput(data) {
    if (getKeybindings().matches(data, "tui.select.cancel")) {
      this.abortController.abort();
      this.onAbort?.();
    }
  }

  dispose() {
    this.stop();
  }
}
