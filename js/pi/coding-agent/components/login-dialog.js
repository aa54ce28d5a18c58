// The dialog that stands in for the editor while a provider is signed in
// to: a title, then whatever the login flow shows (a URL to open, a device
// code, a prompt, progress), with an input for the answers it asks for.
import { Container } from "../../pi-tui/components/container.js";
import { Input } from "../../pi-tui/components/input.js";
import { Spacer, Text, TruncatedText } from "../../pi-tui/components/text.js";
import { replaceControlCharacters } from "../../pi-tui/ansi.js";
import { getKeybindings } from "../../pi-tui/keybindings.js";
import { hyperlink } from "../../pi-tui/terminal-image.js";
import { copyToClipboard } from "../clipboard.js";
import { openBrowser } from "../open-browser.js";
import { DynamicBorder } from "../ui/dynamic-border.js";
import { keyHint } from "../ui/keybinding-hints.js";
import { currentTheme } from "../ui/theme.js";
import { displayUrl, webUrl } from "../web-url.js";
import { AuthUrlComponent, clickToOpenHint } from "./auth-url.js";

/** `text` linked to `url` when that is a web URL; other targets are not made clickable. */
function linkedIfWeb(text, url) {
  const target = webUrl(url);
  return target === undefined ? text : hyperlink(text, target);
}

function deviceCodeActionLabel({ openBrowserOnConfirm, copyCodeOnConfirm }) {
  if (!openBrowserOnConfirm) return "to copy code";
  return copyCodeOnConfirm ? "to open browser and copy code" : "to open browser";
}

export class LoginDialogComponent extends Container {
  constructor(tui, providerId, onComplete, providerNameOverride, titleOverride) {
    super();
    const theme = currentTheme();
    this.tui = tui;
    this.onComplete = onComplete;
    this.abortController = new AbortController();
    this.authUrl = undefined;
    this.inputResolver = undefined;
    this.inputRejecter = undefined;
    this.deviceCodeAction = undefined;
    this.deviceCodeHint = undefined;
    this._focused = false;
    const title = titleOverride ?? `Login to ${providerNameOverride || providerId}`;
    this.addChild(new DynamicBorder());
    this.addChild(new Text(theme.fg("accent", theme.bold(title)), 1, 0));
    this.contentContainer = new Container();
    this.addChild(this.contentContainer);
    // One input serves every question the flow asks; it is shown only while one is open.
    this.input = new Input();
    this.input.onSubmit = () => this.submitAnswer();
    this.input.onEscape = () => this.cancel();
    this.addChild(new DynamicBorder());
  }

  get focused() {
    return this._focused;
  }

  // The input shows the terminal cursor (for IME) only while the dialog has the focus.
  set focused(value) {
    this._focused = value;
    this.input.focused = value;
  }

  get signal() {
    return this.abortController.signal;
  }

  submitAnswer() {
    if (!this.inputResolver) return;
    const value = this.input.getValue();
    // The answer stays on screen as typed, in place of the input.
    this.contentContainer.children = this.contentContainer.children.map((child) => (child === this.input ? new Text(`> ${value}`, 0, 0) : child));
    const resolve = this.inputResolver;
    this.inputResolver = undefined;
    this.inputRejecter = undefined;
    resolve(value);
  }

  waitForAnswer() {
    return new Promise((resolve, reject) => {
      this.inputResolver = resolve;
      this.inputRejecter = reject;
    });
  }

  clearDeviceCodeAction() {
    if (this.deviceCodeHint) this.contentContainer.removeChild(this.deviceCodeHint);
    this.deviceCodeHint = undefined;
    this.deviceCodeAction = undefined;
  }

  cancel() {
    this.clearDeviceCodeAction();
    this.abortController.abort();
    if (this.inputRejecter) {
      const reject = this.inputRejecter;
      this.inputResolver = undefined;
      this.inputRejecter = undefined;
      reject(new Error("Login cancelled"));
    }
    this.onComplete(false, "Login cancelled");
  }

  /** The sign-in URL (opened in the browser when it is a web URL) and the provider's instructions. */
  showAuth(url, instructions) {
    this.clearDeviceCodeAction();
    this.contentContainer.clear();
    this.contentContainer.addChild(new Spacer(1));
    const target = webUrl(url);
    this.authUrl = new AuthUrlComponent(this.tui, target ?? replaceControlCharacters(url));
    this.contentContainer.addChild(this.authUrl);
    if (instructions) {
      this.contentContainer.addChild(new Spacer(1));
      this.contentContainer.addChild(new Text(currentTheme().fg("warning", instructions), 1, 0));
    }
    if (target !== undefined) openBrowser(target);
    this.tui.requestRender();
  }

  /** A device-code login: where to go, the code to enter, and (once) Enter to open the page and copy the code. */
  showDeviceCode(info) {
    const theme = currentTheme();
    this.authUrl = undefined;
    const action = { ...info, openBrowserOnConfirm: info.openBrowserOnConfirm ?? true, copyCodeOnConfirm: info.copyCodeOnConfirm ?? true };
    this.clearDeviceCodeAction();
    this.contentContainer.clear();
    this.contentContainer.addChild(new Spacer(1));
    const shownUrl = displayUrl(action.verificationUri);
    this.contentContainer.addChild(new Text(theme.fg("accent", linkedIfWeb(shownUrl, shownUrl)), 1, 0));
    this.contentContainer.addChild(new Text(theme.fg("dim", linkedIfWeb(clickToOpenHint(), action.verificationUri)), 1, 0));
    this.contentContainer.addChild(new Spacer(1));
    this.contentContainer.addChild(new Text(theme.fg("warning", `Enter code: ${action.userCode}`), 1, 0));
    if (!this.signal.aborted && (action.openBrowserOnConfirm || action.copyCodeOnConfirm)) {
      // One row that later shows the progress and result too, even when narrow.
      const hint = new Container();
      hint.addChild(new TruncatedText(`(${keyHint("tui.select.confirm", deviceCodeActionLabel(action))})`, 1, 0));
      this.contentContainer.addChild(hint);
      this.deviceCodeHint = hint;
      this.deviceCodeAction = { info: action, hint };
    }
    this.tui.requestRender();
  }

  setDeviceCodeStatus(hint, message) {
    if (this.signal.aborted || !this.focused || !this.contentContainer.children.includes(hint)) return;
    hint.children = [new TruncatedText(currentTheme().fg("dim", message), 1, 0)];
    this.tui.requestRender();
  }

  activateDeviceCode(info, hint) {
    this.setDeviceCodeStatus(hint, info.copyCodeOnConfirm ? "Copying code..." : "Browser open requested");
    if (info.copyCodeOnConfirm) {
      // The clipboard programs must not hold up the browser or the polling.
      void copyToClipboard(info.userCode).then(
        () => this.setDeviceCodeStatus(hint, "Code copied to clipboard"),
        () => this.setDeviceCodeStatus(hint, "Copy code manually"),
      );
    }
    if (info.openBrowserOnConfirm) {
      try {
        const target = webUrl(info.verificationUri);
        if (target !== undefined) openBrowser(target);
      } catch {
        // The code and URL are on screen: a launcher that fails must not end the login.
      }
    }
  }

  /** Asks for a pasted code or redirect URL (flows whose callback server may be out of reach). */
  showManualInput(prompt) {
    this.clearDeviceCodeAction();
    this.input.setValue("");
    this.contentContainer.addChild(new Spacer(1));
    this.contentContainer.addChild(new Text(currentTheme().fg("dim", prompt), 1, 0));
    this.contentContainer.addChild(this.input);
    this.contentContainer.addChild(new Text(`(${keyHint("tui.select.cancel", "to cancel")})`, 1, 0));
    this.tui.requestRender();
    return this.waitForAnswer();
  }

  /** Asks a question below what is shown already (the URL stays). */
  showPrompt(message, placeholder) {
    const theme = currentTheme();
    this.clearDeviceCodeAction();
    this.contentContainer.addChild(new Spacer(1));
    this.contentContainer.addChild(new Text(theme.fg("text", message), 1, 0));
    if (placeholder) this.contentContainer.addChild(new Text(theme.fg("dim", `e.g., ${placeholder}`), 1, 0));
    this.contentContainer.addChild(this.input);
    this.contentContainer.addChild(new Text(`(${keyHint("tui.select.cancel", "to cancel,")} ${keyHint("tui.select.confirm", "to submit")})`, 1, 0));
    this.input.setValue("");
    this.tui.requestRender();
    return this.waitForAnswer();
  }

  /** Replaces what is shown with lines of information before the next step. */
  showDetails(lines) {
    this.authUrl = undefined;
    this.clearDeviceCodeAction();
    this.contentContainer.clear();
    this.contentContainer.addChild(new Spacer(1));
    for (const line of lines) this.contentContainer.addChild(new Text(line, 1, 0));
    this.tui.requestRender();
  }

  /** The provider's own message and links, with no sign-in flow behind them. */
  showInfo(message, links = [], showCloseHint = false) {
    const theme = currentTheme();
    this.contentContainer.addChild(new Spacer(1));
    this.contentContainer.addChild(new Text(theme.fg("text", message), 1, 0));
    for (const link of links) {
      const url = displayUrl(link.url);
      const text = link.label ? `${link.label}: ${url}` : url;
      this.contentContainer.addChild(new Text(theme.fg("accent", linkedIfWeb(text, url)), 1, 0));
    }
    if (showCloseHint) {
      this.contentContainer.addChild(new Spacer(1));
      this.contentContainer.addChild(new Text(`(${keyHint("tui.select.cancel", "to close")})`, 1, 0));
    }
    this.tui.requestRender();
  }

  /** What a polling flow waits for, and how to stop waiting. */
  showWaiting(message) {
    this.contentContainer.addChild(new Spacer(1));
    this.contentContainer.addChild(new Text(currentTheme().fg("dim", message), 1, 0));
    this.contentContainer.addChild(new Text(`(${keyHint("tui.select.cancel", "to cancel")})`, 1, 0));
    this.tui.requestRender();
  }

  showProgress(message) {
    this.contentContainer.addChild(new Text(currentTheme().fg("dim", message), 1, 0));
    this.tui.requestRender();
  }

  handleInput(data) {
    const keys = getKeybindings();
    if (keys.matches(data, "tui.select.cancel")) {
      this.cancel();
      return;
    }
    if (this.authUrl && keys.matches(data, "app.message.copy")) {
      void this.authUrl.copy();
      return;
    }
    if (this.deviceCodeAction && !this.inputResolver && !this.signal.aborted && this.focused && keys.matches(data, "tui.select.confirm")) {
      // Taken once: a second Enter must not open another browser or copy again.
      const { info, hint } = this.deviceCodeAction;
      this.deviceCodeAction = undefined;
      this.activateDeviceCode(info, hint);
      this.tui.requestRender();
      return;
    }
    this.input.handleInput(data);
  }
}
