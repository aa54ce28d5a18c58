// A message an extension added to the conversation: its own renderer's
// component when it has one that works, else the message's text as
// Markdown in a box labelled with its type.
import { Box, Container } from "../../pi-tui/components/container.js";
import { Markdown } from "../../pi-tui/components/markdown.js";
import { Spacer, Text } from "../../pi-tui/components/text.js";
import { keyHint, keyText } from "../ui/keybinding-hints.js";
import { currentTheme, getMarkdownTheme } from "../ui/theme.js";
import { createMarkdownTransform } from "./markdown-transform.js";

function messageText(content) {
  if (typeof content === "string") return content;
  return content
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("\n");
}

export class CustomMessageComponent extends Container {
  constructor(message, customRenderer, markdownTheme = getMarkdownTheme(), outputPad = 1, markdownTransformers = [], messageId, timestamp) {
    super();
    this.message = message;
    this.customRenderer = customRenderer;
    this.customComponent = undefined;
    this.markdownTheme = markdownTheme;
    this._expanded = false;
    this.outputPad = outputPad;
    this.markdownTransformers = markdownTransformers;
    this.messageId = messageId;
    this.timestamp = timestamp;
    this.addChild(new Spacer(1));
    this.box = new Box(1, 1, (text) => currentTheme().bg("customMessageBg", text));
    this.rebuild();
  }

  setExpanded(expanded) {
    if (this._expanded === expanded) return;
    this._expanded = expanded;
    this.rebuild();
  }

  setOutputPad(outputPad) {
    if (this.outputPad === outputPad) return;
    this.outputPad = outputPad;
    this.rebuild();
  }

  invalidate() {
    super.invalidate();
    this.rebuild();
  }

  /** The renderer's component, or undefined when there is none or it failed (then the default box shows). */
  renderedByExtension() {
    if (!this.customRenderer) return undefined;
    try {
      const options = { expanded: this._expanded, outputPad: this.outputPad, keyText, keyHint };
      return this.customRenderer(this.message, options, currentTheme()) || undefined;
    } catch {
      return undefined;
    }
  }

  rebuild() {
    if (this.customComponent) {
      this.removeChild(this.customComponent);
      this.customComponent = undefined;
    }
    this.removeChild(this.box);

    const custom = this.renderedByExtension();
    if (custom) {
      this.customComponent = custom;
      this.addChild(custom);
      return;
    }

    this.addChild(this.box);
    this.box.clear();
    this.box.setPaddingX(this.outputPad);
    const theme = currentTheme();
    this.box.addChild(new Text(theme.fg("customMessageLabel", `\x1b[1m[${this.message.customType}]\x1b[22m`), 0, 0));
    this.box.addChild(new Spacer(1));
    const transform = createMarkdownTransform("custom", () => false, this.markdownTransformers, this.messageId, this.timestamp);
    this.box.addChild(
      new Markdown(messageText(this.message.content), 0, 0, this.markdownTheme, { color: (text) => currentTheme().fg("customMessageText", text) }, { transform }),
    );
  }
}
