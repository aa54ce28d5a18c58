// Stacking and padding rendered lines.
import { visibleWidth } from "../width.js";

/** Every child's lines at `width`, one after another. */
export function stackLines(children, width) {
  const lines = [];
  for (const child of children) for (const line of child.render(width)) lines.push(line);
  return lines;
}

/** `line` filled with spaces to `width` columns (never cut). */
export function padLine(line, width) {
  return line + " ".repeat(Math.max(0, width - visibleWidth(line)));
}

/** `line` padded to `width`, then given to `bg` so the colour spans it all. */
export function applyBackgroundToLine(line, width, bg) {
  return bg(padLine(line, width));
}
