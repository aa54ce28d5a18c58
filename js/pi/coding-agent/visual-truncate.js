// Long tool output shown collapsed: limited by the lines it takes on screen
// once wrapped, so one long line (minified JSON) cannot fill the terminal.
import { Text } from "../pi-tui/components/text.js";

/**
 * The first or last `maxVisualLines` lines of `text` as a Text component
 * renders it at `width`, and how many were left out.
 */
export function truncateToVisualLines(text, maxVisualLines, width, paddingX = 0, keep = "end") {
  if (!text) return { visualLines: [], skippedCount: 0 };
  const lines = new Text(text, paddingX, 0).render(width);
  if (lines.length <= maxVisualLines) return { visualLines: lines, skippedCount: 0 };
  const visualLines = keep === "start" ? lines.slice(0, maxVisualLines) : lines.slice(-maxVisualLines);
  return { visualLines, skippedCount: lines.length - maxVisualLines };
}
