// Components that show a piece of text.
import { truncateToWidth } from "../truncate.js";
import { wrapTextWithAnsi } from "../wrap.js";
import { applyBackgroundToLine, padLine } from "./layout.js";

/** Word-wrapped text with padding, every line filled to the width. */
export class Text {
  constructor(text = "", paddingX = 1, paddingY = 1, customBgFn) {
    this.text = text;
    this.paddingX = paddingX;
    this.paddingY = paddingY;
    this.customBgFn = customBgFn;
  }

  setText(text) {
    this.text = text;
  }

  setCustomBgFn(customBgFn) {
    this.customBgFn = customBgFn;
  }

  setPaddingX(paddingX) {
    this.paddingX = paddingX;
  }

  invalidate() {}

  render(width) {
    if (!this.text || this.text.trim() === "") return [];
    // Narrow widths shrink the padding before the content.
    const paddingX = Math.min(this.paddingX, Math.max(0, Math.floor((width - 1) / 2)));
    const contentWidth = Math.max(1, width - paddingX * 2);
    const margin = " ".repeat(paddingX);
    const fill = (line) => (this.customBgFn ? applyBackgroundToLine(line, width, this.customBgFn) : padLine(line, width));
    const body = wrapTextWithAnsi(this.text.replace(/\t/g, "   "), contentWidth).map((line) => fill(margin + line + margin));
    const blank = Array.from({ length: this.paddingY }, () => fill(" ".repeat(width)));
    const lines = [...blank, ...body, ...blank];
    return lines.length > 0 ? lines : [""];
  }
}

/** The first line of a text, cut to the width with an ellipsis. */
export class TruncatedText {
  constructor(text, paddingX = 0, paddingY = 0) {
    this.text = text;
    this.paddingX = paddingX;
    this.paddingY = paddingY;
  }

  invalidate() {}

  render(width) {
    const blank = Array.from({ length: this.paddingY }, () => " ".repeat(width));
    const available = Math.max(1, width - this.paddingX * 2);
    const newline = this.text.indexOf("\n");
    const firstLine = newline === -1 ? this.text : this.text.slice(0, newline);
    const margin = " ".repeat(this.paddingX);
    const line = padLine(margin + truncateToWidth(firstLine, available) + margin, width);
    return [...blank, line, ...blank];
  }
}

/** Empty lines. */
export class Spacer {
  constructor(lines = 1) {
    this.lines = lines;
  }

  setLines(lines) {
    this.lines = lines;
  }

  invalidate() {}

  render(_width) {
    return Array.from({ length: this.lines }, () => "");
  }
}
