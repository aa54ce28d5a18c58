// The user's message: Markdown on the user-message background, kept as
// typed (list numbers and backslash escapes), between prompt marks.
import { Container } from "../../pi-tui/components/container.js";
import { Markdown } from "../../pi-tui/components/markdown.js";
import { currentTheme, getMarkdownTheme } from "../ui/theme.js";
import { createMarkdownTransform } from "./markdown-transform.js";
import { withPromptZone } from "./prompt-zones.js";

export class UserMessageComponent extends Container {
  constructor(text, markdownTheme = getMarkdownTheme(), outputPad = 1, markdownTransformers = [], messageId, timestamp) {
    super();
    this.text = text;
    this.markdownTheme = markdownTheme;
    this.outputPad = outputPad;
    this.markdownTransformers = markdownTransformers;
    this.messageId = messageId;
    this.timestamp = timestamp;
    this.rebuild();
  }

  setOutputPad(padding) {
    this.outputPad = padding;
    this.rebuild();
  }

  rebuild() {
    this.clear();
    // The Markdown fills its own background, so no Box is needed around it.
    const style = {
      color: (text) => currentTheme().fg("userMessageText", text),
      bgColor: (text) => currentTheme().bg("userMessageBg", text),
    };
    this.addChild(
      new Markdown(this.text, this.outputPad, 1, this.markdownTheme, style, {
        preserveOrderedListMarkers: true,
        preserveBackslashEscapes: true,
        transform: createMarkdownTransform("user", () => false, this.markdownTransformers, this.messageId, this.timestamp),
      }),
    );
  }

  render(width) {
    return withPromptZone(this, super.render(width));
  }
}
