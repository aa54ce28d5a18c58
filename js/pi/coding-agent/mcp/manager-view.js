// The `/mcp` manager's screen: a framed menu that rebuilds while servers
// connect, a status line (with Esc to cancel), and the sign-in screen that
// shows the authorization URL and accepts a pasted redirect URL.
import { Container } from "../../pi-tui/components/container.js";
import { Input } from "../../pi-tui/components/input.js";
import { SelectList } from "../../pi-tui/components/select-list.js";
import { Spacer, Text } from "../../pi-tui/components/text.js";
import { truncateToWidth } from "../../pi-tui/truncate.js";
import { visibleWidth } from "../../pi-tui/width.js";
import { AuthUrlComponent } from "../components/auth-url.js";
import { DynamicBorder } from "../ui/dynamic-border.js";
import { keyHint } from "../ui/keybinding-hints.js";
import { getSelectListTheme } from "../ui/theme.js";

const MAX_VISIBLE_ITEMS = 12;

function framed(theme, title, body, footer) {
  const frame = new Container();
  frame.addChild(new DynamicBorder((text) => theme.fg("accent", text)));
  frame.addChild(new Text(theme.fg("accent", theme.bold(title)), 1, 0));
  for (const child of body) frame.addChild(child);
  if (footer) {
    frame.addChild(new Spacer(1));
    frame.addChild(new Text(theme.fg("dim", footer), 1, 0));
  }
  frame.addChild(new DynamicBorder((text) => theme.fg("accent", text)));
  return frame;
}

export class McpManagerView {
  #tui;
  #theme;
  #keybindings;
  #content;
  #input;
  #focusTarget;
  #focused = false;

  constructor(tui, theme, keybindings) {
    this.#tui = tui;
    this.#theme = theme;
    this.#keybindings = keybindings;
    this.#content = framed(theme, "MCP servers", [new Text(theme.fg("muted", "Loading…"), 1, 1)]);
  }

  get focused() {
    return this.#focused;
  }

  set focused(value) {
    this.#focused = value;
    if (this.#focusTarget) this.#focusTarget.focused = value;
  }

  get capturesViewportInput() {
    return this.#input?.capturesViewportInput === true;
  }

  /**
   * Shows a menu built by `build()` (again on every change `subscribe`
   * reports, keeping the selection) and resolves with the chosen value, or
   * undefined when cancelled. `build()` returns `{ title, details?, error?,
   * items, selected?, empty?, confirmLabel, cancelLabel }`.
   */
  menu(build, subscribe) {
    return new Promise((resolve) => {
      let unsubscribe;
      let settled = false;
      const finish = (value) => {
        if (settled) return;
        settled = true;
        unsubscribe?.();
        resolve(value);
      };
      let selected;
      const render = () => {
        const menu = build();
        const body = [];
        if (menu.details) body.push(new Text(this.#theme.fg("muted", menu.details), 1, 0));
        if (menu.error) body.push(new Text(this.#theme.fg("error", menu.error), 1, 0));
        body.push(new Spacer(1));
        if (menu.items.length === 0) {
          body.push(new Text(this.#theme.fg("muted", menu.empty ?? "Nothing to show."), 1, 0));
          this.#show(framed(this.#theme, menu.title, body, keyHint("tui.select.cancel", menu.cancelLabel)), {
            handleInput: (data) => {
              if (this.#keybindings.matches(data, "tui.select.cancel")) finish(undefined);
            },
          });
          return;
        }
        const list = new SelectList(menu.items, Math.min(menu.items.length, MAX_VISIBLE_ITEMS), getSelectListTheme());
        const index = menu.items.findIndex((item) => item.value === (selected ?? menu.selected));
        if (index !== -1) list.setSelectedIndex(index);
        selected = list.getSelectedItem()?.value;
        list.onSelectionChange = (item) => {
          selected = item.value;
        };
        list.onSelect = (item) => finish(item.value);
        list.onCancel = () => finish(undefined);
        body.push(list);
        const footer = `${keyHint("tui.select.confirm", menu.confirmLabel)} • ${keyHint("tui.select.cancel", menu.cancelLabel)}`;
        this.#show(framed(this.#theme, menu.title, body, footer), list);
      };
      render();
      unsubscribe = subscribe?.(() => {
        if (!settled) render();
      });
    });
  }

  /** A message while something runs; with `onCancel`, Esc calls it. */
  status(title, message, onCancel) {
    const body = [new Spacer(1), new Text(this.#theme.fg("muted", message), 1, 0)];
    if (!onCancel) {
      this.#show(framed(this.#theme, title, body));
      return;
    }
    this.#show(framed(this.#theme, title, body, keyHint("tui.select.cancel", "cancel")), {
      handleInput: (data) => {
        if (this.#keybindings.matches(data, "tui.select.cancel")) onCancel();
      },
    });
  }

  /** The sign-in screen; resolves with a pasted redirect URL, or undefined when cancelled or `signal` aborts. */
  redirectUrl(title, authorizationUrl, signal) {
    return new Promise((resolve) => {
      let settled = false;
      const finish = (value) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      };
      const onAbort = () => finish(undefined);
      if (signal.aborted) {
        finish(undefined);
        return;
      }
      signal.addEventListener("abort", onAbort, { once: true });
      const input = new Input();
      const link = new AuthUrlComponent(this.#tui, authorizationUrl);
      const muted = (text) => new Text(this.#theme.fg("muted", text), 1, 0);
      const body = [
        new Spacer(1),
        muted("Approve access in your browser. If it did not open, visit:"),
        link,
        new Spacer(1),
        muted("If the browser runs on another machine, paste the URL it was redirected to:"),
        input,
      ];
      const footer = `${keyHint("tui.select.confirm", "submit")} • ${keyHint("tui.select.cancel", "cancel")}`;
      const handler = {
        handleInput: (data) => {
          if (this.#keybindings.matches(data, "tui.select.confirm")) {
            const value = input.getValue().trim();
            if (value) finish(value);
          } else if (this.#keybindings.matches(data, "tui.select.cancel")) finish(undefined);
          else if (this.#keybindings.matches(data, "app.message.copy")) void link.copy();
          else input.handleInput(data);
        },
      };
      this.#show(framed(this.#theme, title, body, footer), handler, input);
    });
  }

  handleInput(data) {
    this.#input?.handleInput?.(data);
    this.#tui.requestRender();
  }

  render(width) {
    return this.#content.render(width).map((line) => (visibleWidth(line) > width ? truncateToWidth(line, width, "") : line));
  }

  invalidate() {
    this.#content.invalidate();
  }

  /** Replaces what is shown; `input` gets the keys, `focusTarget` the focus. */
  #show(content, input, focusTarget) {
    if (this.#focusTarget) this.#focusTarget.focused = false;
    this.#content = content;
    this.#input = input;
    this.#focusTarget = focusTarget;
    if (this.#focusTarget) this.#focusTarget.focused = this.#focused;
    this.#tui.requestRender();
  }
}

/** Runs `manage(view)` in the manager view until it returns; its error is shown. */
export async function showMcpManager(ctx, manage) {
  await ctx.ui.custom((tui, theme, keybindings, done) => {
    const view = new McpManagerView(tui, theme, keybindings);
    void manage(view).then(
      () => done(),
      (error) => {
        ctx.ui.notify(error instanceof Error ? error.message : String(error), "error");
        done();
      },
    );
    return view;
  });
}
