// The multi-line editor extensions open with ctx.ui.editor(): Enter
// submits, the newline key adds a line, and the external-editor key hands
// the text to $VISUAL/$EDITOR.
import { Container } from "../../pi-tui/components/container.js";
import { Editor } from "../../pi-tui/components/editor.js";
import { Spacer, Text } from "../../pi-tui/components/text.js";
import { getKeybindings } from "../../pi-tui/keybindings.js";
import { editInExternalEditor } from "../external-editor.js";
import { DynamicBorder } from "../ui/dynamic-border.js";
import { keyHint } from "../ui/keybinding-hints.js";
import { currentTheme, getEditorTheme } from "../ui/theme.js";

function defaultEditorCommand() {
  const env = globalThis.process?.env ?? {};
  return env.VISUAL || env.EDITOR || (globalThis.process?.platform === "win32" ? "notepad" : "nano");
}

export class ExtensionEditorComponent extends Container {
  constructor(tui, keybindings, title, prefill, onSubmit, onCancel, options, externalEditorCommand) {
    super();
    const theme = currentTheme();
    this._focused = false;
    this.tui = tui;
    this.keybindings = keybindings;
    this.externalEditorCommand = externalEditorCommand || defaultEditorCommand();
    this.onSubmitCallback = onSubmit;
    this.onCancelCallback = onCancel;
    // Why the external editor failed; empty, it renders nothing.
    this.externalEditorStatus = new Text("", 1, 0);
    const { description, ...editorOptions } = options ?? {};
    this.addChild(new DynamicBorder());
    this.addChild(new Spacer(1));
    this.addChild(new Text(theme.fg("accent", title), 1, 0));
    if (description) {
      this.addChild(new Spacer(1));
      this.addChild(new Text(theme.fg("text", description), 1, 0));
    }
    this.addChild(new Spacer(1));
    this.editor = new Editor(tui, getEditorTheme(), editorOptions);
    if (prefill) this.editor.setText(prefill);
    this.editor.onSubmit = (text) => this.onSubmitCallback(text);
    this.addChild(this.editor);
    this.addChild(this.externalEditorStatus);
    this.addChild(new Spacer(1));
    const hint = [
      keyHint("tui.select.confirm", "submit"),
      keyHint("tui.input.newLine", "newline"),
      keyHint("tui.select.cancel", "cancel"),
      keyHint("app.editor.external", "external editor"),
    ].join("  ");
    this.addChild(new Text(hint, 1, 0));
    this.addChild(new Spacer(1));
    this.addChild(new DynamicBorder());
  }

  get focused() {
    return this._focused;
  }

  set focused(value) {
    this._focused = value;
    this.editor.focused = value;
  }

  handleInput(keyData) {
    if (getKeybindings().matches(keyData, "tui.select.cancel")) {
      this.onCancelCallback();
      return;
    }
    // The external-editor key is an app binding, so it comes from the manager given, not pi-tui's.
    if (this.keybindings.matches(keyData, "app.editor.external")) {
      void this.handleOpenExternalEditor();
      return;
    }
    this.editor.handleInput(keyData);
  }

  async handleOpenExternalEditor() {
    const content = this.editor.getText();
    this.tui.stop();
    try {
      const result = await editInExternalEditor({ command: this.externalEditorCommand, content });
      this.externalEditorStatus.setText(result.status === "failed" ? currentTheme().fg("warning", result.message) : "");
      if (result.status === "complete") this.editor.setText(result.content);
    } finally {
      this.tui.start();
      this.tui.requestRender(true);
    }
  }
}
