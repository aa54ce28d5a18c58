// A horizontal rule across the whole width.
import { currentTheme } from "./theme.js";

export class DynamicBorder {
  constructor(color = (text) => currentTheme().fg("border", text)) {
    this.color = color;
  }

  invalidate() {}

  render(width) {
    return [this.color("─".repeat(Math.max(1, width)))];
  }
}
