// Drawing one line over another at a column, as pi-tui composites overlays
// and stacks children side by side.
import { StyleState, escapeLength, nextEscape } from "./ansi.js";
import { graphemes } from "./unicode.js";
import { graphemeWidth, visibleWidth } from "./width.js";
import { sliceByColumn, sliceWithWidth } from "./truncate.js";

// Closes every style and hyperlink, so neither side of a seam leaks into the other.
const SEGMENT_RESET = "\x1b[0m\x1b]8;;\x07";

/** Whether `line` carries a Kitty or iTerm2 image, which cannot be cut into columns. */
export function isImageLine(line) {
  return line.includes("\x1b_G") || line.includes("\x1b]1337;File=");
}

/**
 * The columns of `line` before `beforeEnd`, and the `afterLength` columns
 * from `afterStart`, each with its width. The part after starts with the
 * style in force where it begins, since the cut-out middle may have set it.
 */
function splitAround(line, beforeEnd, afterStart, afterLength, strictAfter) {
  const afterEnd = afterStart + afterLength;
  const done = (col) => (afterLength <= 0 ? col >= beforeEnd : col >= afterEnd);
  const style = new StyleState();
  let before = "";
  let beforeWidth = 0;
  let after = "";
  let afterWidth = 0;
  // Codes reach the part before only with the text they style.
  let pendingBefore = "";
  let afterStarted = false;
  let col = 0;
  let i = 0;
  while (i < line.length) {
    const length = escapeLength(line, i);
    if (length > 0) {
      const code = line.slice(i, i + length);
      style.apply(code);
      if (col < beforeEnd) pendingBefore += code;
      else if (col >= afterStart && col < afterEnd && (afterStarted || code.startsWith("\x1b_"))) after += code;
      i += length;
      continue;
    }
    let end = nextEscape(line, i + 1);
    if (end === -1) end = line.length;
    for (const cluster of graphemes(line.slice(i, end))) {
      const width = graphemeWidth(cluster);
      if (col < beforeEnd && col + width <= beforeEnd) {
        before += pendingBefore + cluster;
        pendingBefore = "";
        beforeWidth += width;
      } else if (col >= afterStart && col < afterEnd && (!strictAfter || col + width <= afterEnd)) {
        if (!afterStarted) {
          after += style.reopen();
          afterStarted = true;
        }
        after += cluster;
        afterWidth += width;
      }
      col += width;
      if (done(col)) break;
    }
    i = end;
    if (done(col)) break;
  }
  return { before, beforeWidth, after, afterWidth };
}

/**
 * `overlayLine` drawn over `baseLine` in the `overlayWidth` columns from
 * `startCol`, the result `totalWidth` columns at most. Gaps are filled with
 * spaces; lines holding images are left alone.
 */
export function compositeTuiLine(baseLine, overlayLine, startCol, overlayWidth, totalWidth) {
  if (isImageLine(baseLine)) return baseLine;
  const afterStart = startCol + overlayWidth;
  const base = splitAround(baseLine, startCol, afterStart, totalWidth - afterStart, true);
  const overlay = sliceWithWidth(overlayLine, 0, overlayWidth, true);
  const beforeWidth = Math.max(startCol, base.beforeWidth);
  const shownOverlayWidth = Math.max(overlayWidth, overlay.width);
  const afterTarget = Math.max(0, totalWidth - beforeWidth - shownOverlayWidth);
  const result =
    base.before +
    " ".repeat(Math.max(0, startCol - base.beforeWidth)) +
    SEGMENT_RESET +
    overlay.text +
    " ".repeat(Math.max(0, overlayWidth - overlay.width)) +
    SEGMENT_RESET +
    base.after +
    " ".repeat(Math.max(0, afterTarget - base.afterWidth));
  return visibleWidth(result) <= totalWidth ? result : sliceByColumn(result, 0, totalWidth, true);
}
