// Cutting styled text to a number of columns: truncation with an ellipsis,
// and column slices.
import { escapeLength, nextEscape, openHyperlinkClose, splitEscapes } from "./ansi.js";
import { graphemes } from "./unicode.js";
import { TAB_WIDTH, graphemeWidth, isPrintableAscii, visibleWidth } from "./width.js";

const RESET = "\x1b[0m";

/**
 * Visits the visible units of `text` in order: fn(unit, width) for every
 * grapheme or tab, fn(code, -1) for every escape sequence. Graphemes are
 * clustered per run between escapes and tabs, as pi-tui does. Stops when fn
 * returns false and reports whether the walk reached the end.
 */
function walk(text, fn) {
  let i = 0;
  while (i < text.length) {
    const len = escapeLength(text, i);
    if (len > 0) {
      if (fn(text.slice(i, i + len), -1) === false) return false;
      i += len;
      continue;
    }
    if (text[i] === "\t") {
      if (fn("\t", TAB_WIDTH) === false) return false;
      i++;
      continue;
    }
    let end = i;
    while (end < text.length && text[end] !== "\t" && escapeLength(text, end) === 0) end++;
    for (const g of graphemes(text.slice(i, end))) {
      if (fn(g, graphemeWidth(g)) === false) return false;
    }
    i = end;
  }
  return true;
}

// The longest prefix of `text` that fits in `maxWidth` columns; escapes are
// kept only when visible text follows them.
function fitPrefix(text, maxWidth) {
  if (maxWidth <= 0 || text.length === 0) return { text: "", width: 0 };
  if (isPrintableAscii(text)) {
    const clipped = text.slice(0, maxWidth);
    return { text: clipped, width: clipped.length };
  }
  let out = "";
  let width = 0;
  let pending = "";
  walk(text, (unit, w) => {
    if (w < 0) {
      pending += unit;
      return true;
    }
    if (width + w > maxWidth) return false;
    out += pending + unit;
    pending = "";
    width += w;
    return true;
  });
  return { text: out, width };
}

function finish(prefix, prefixWidth, ellipsis, ellipsisWidth, maxWidth, pad) {
  let out = prefix + openHyperlinkClose(prefix) + RESET;
  if (ellipsis.length > 0) out += ellipsis + RESET;
  return pad ? out + " ".repeat(Math.max(0, maxWidth - prefixWidth - ellipsisWidth)) : out;
}

/**
 * `text` cut to `maxWidth` columns with `ellipsis` at the end when it does not
 * fit; a cut line ends with a reset (and a hyperlink close when one is open).
 * With `pad`, spaces fill the line to exactly `maxWidth`.
 */
export function truncateToWidth(text, maxWidth, ellipsis = "...", pad = false) {
  if (maxWidth <= 0) return "";
  if (text.length === 0) return pad ? " ".repeat(maxWidth) : "";
  const ellipsisWidth = visibleWidth(ellipsis);
  if (ellipsisWidth >= maxWidth) {
    const textWidth = visibleWidth(text);
    if (textWidth <= maxWidth) return pad ? text + " ".repeat(maxWidth - textWidth) : text;
    const clipped = fitPrefix(ellipsis, maxWidth);
    if (clipped.width === 0) return pad ? " ".repeat(maxWidth) : "";
    return finish("", 0, clipped.text, clipped.width, maxWidth, pad);
  }
  const target = maxWidth - ellipsisWidth;
  if (isPrintableAscii(text)) {
    if (text.length <= maxWidth) return pad ? text + " ".repeat(maxWidth - text.length) : text;
    return finish(text.slice(0, target), target, ellipsis, ellipsisWidth, maxWidth, pad);
  }
  // Keep the prefix that fits beside the ellipsis, and look on until the text
  // is known to overflow `maxWidth` (only then is the ellipsis needed).
  let kept = "";
  let keptWidth = 0;
  let pending = "";
  let keeping = true;
  let seen = 0;
  const complete = walk(text, (unit, w) => {
    if (w < 0) {
      pending += unit;
      return true;
    }
    if (keeping && keptWidth + w <= target) {
      kept += pending + unit;
      pending = "";
      keptWidth += w;
    } else {
      keeping = false;
      pending = "";
    }
    seen += w;
    return seen <= maxWidth;
  });
  if (complete) return pad ? text + " ".repeat(Math.max(0, maxWidth - seen)) : text;
  return finish(kept, keptWidth, ellipsis, ellipsisWidth, maxWidth, pad);
}

/** Columns [startCol, startCol + length) of `line`, with the text's width. */
export function sliceWithWidth(line, startCol, length, strict = false) {
  if (length <= 0) return { text: "", width: 0 };
  const endCol = startCol + length;
  let out = "";
  let width = 0;
  let col = 0;
  let pending = "";
  let i = 0;
  while (i < line.length && col < endCol) {
    const len = escapeLength(line, i);
    if (len > 0) {
      const code = line.slice(i, i + len);
      if (col >= startCol) {
        out += pending + code;
        pending = "";
      } else if (!code.startsWith("\x1b_")) {
        // Cursor markers are one-shot positions, not style to carry in.
        pending += code;
      }
      i += len;
      continue;
    }
    let end = nextEscape(line, i + 1);
    if (end === -1) end = line.length;
    const text = line.slice(i, end);
    i = end;
    if (isPrintableAscii(text)) {
      const from = Math.max(0, startCol - col);
      const to = Math.min(text.length, endCol - col);
      if (to > from) {
        out += pending + text.slice(from, to);
        pending = "";
        width += to - from;
      }
      col += text.length;
      continue;
    }
    for (const g of graphemes(text)) {
      const w = graphemeWidth(g);
      if (col >= startCol && col < endCol && (!strict || col + w <= endCol)) {
        out += pending + g;
        pending = "";
        width += w;
      }
      col += w;
      if (col >= endCol) break;
    }
  }
  return { text: out, width };
}

/** Columns [startCol, startCol + length) of `line`. */
export function sliceByColumn(line, startCol, length, strict = false) {
  return sliceWithWidth(line, startCol, length, strict).text;
}

/** The OSC 8 link target under a visible column, if any. */
export function getOsc8LinkAtColumn(line, column) {
  let url;
  let col = 0;
  for (const part of splitEscapes(line)) {
    if (part.code) {
      const m = /^\x1b\]8;[^;]*;([^\x07\x1b]*)(?:\x07|\x1b\\)$/.exec(part.code);
      if (m) url = m[1] || undefined;
      continue;
    }
    for (const g of graphemes(part.text)) {
      const w = g === "\t" ? TAB_WIDTH : graphemeWidth(g);
      if (column >= col && column < col + w) return url;
      col += w;
    }
  }
  return undefined;
}
