// Segmenting and wrapping for the multi-line Editor. Large pastes are shown as
// markers such as "[paste #1 +20 lines]"; while their paste is still known the
// editor treats a marker as one unbreakable unit for the cursor, deletion and
// word moves, so the helpers here merge a marker's pieces into one segment.
import { graphemes } from "../unicode.js";
import { visibleWidth } from "../width.js";
import { isWhitespaceChar, segmentWords } from "../words.js";

export const PASTE_MARKER_PATTERN = /\[paste #(\d+)( (\+\d+ lines|\d+ chars))?\]/g;
const WHOLE_MARKER = /^\[paste #(\d+)( (\+\d+ lines|\d+ chars))?\]$/;

// Scripts that may break between any two characters, like spaces elsewhere.
const CJK_BREAK = /[\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}\p{Script_Extensions=Hangul}\p{Script_Extensions=Bopomofo}]/u;

/** The marker's paste id when `segment` is exactly one marker. */
export function markerId(segment) {
  const m = WHOLE_MARKER.exec(segment);
  return m ? Number(m[1]) : undefined;
}

export function isPasteMarker(segment) {
  return segment.length >= 10 && WHOLE_MARKER.test(segment);
}

function graphemeSegments(text) {
  const out = [];
  let index = 0;
  for (const segment of graphemes(text)) {
    out.push({ segment, index });
    index += segment.length;
  }
  return out;
}

/**
 * `text` as [{ segment, index, isWordLike? }] by grapheme or by word, each
 * marker of a paste in `pasteIds` folded into a single segment.
 */
export function segmentText(text, kind, pasteIds) {
  const base = kind === "word" ? segmentWords(text) : graphemeSegments(text);
  if (pasteIds.size === 0 || !text.includes("[paste #")) return base;
  const spans = [];
  for (const m of text.matchAll(PASTE_MARKER_PATTERN)) {
    if (pasteIds.has(Number.parseInt(m[1], 10))) spans.push({ start: m.index, end: m.index + m[0].length });
  }
  if (spans.length === 0) return base;
  const out = [];
  let k = 0;
  for (const seg of base) {
    while (k < spans.length && spans[k].end <= seg.index) k++;
    const span = spans[k];
    if (span && seg.index >= span.start && seg.index < span.end) {
      // Pieces after the first are swallowed by the merged segment.
      if (seg.index === span.start) out.push({ segment: text.slice(span.start, span.end), index: span.start });
    } else {
      out.push(seg);
    }
  }
  return out;
}

/**
 * A logical line cut into chunks no wider than `maxWidth`, breaking after
 * spaces (or between CJK characters) when it can and mid-word when it must.
 * Chunks keep their source offsets; trailing spaces stay on the line they
 * follow.
 */
export function wordWrapLine(line, maxWidth, segments) {
  if (!line || maxWidth <= 0) return [{ text: "", startIndex: 0, endIndex: 0 }];
  if (visibleWidth(line) <= maxWidth) return [{ text: line, startIndex: 0, endIndex: line.length }];
  const segs = segments ?? graphemeSegments(line);
  const chunks = [];
  const cut = (start, end) => chunks.push({ text: line.slice(start, end), startIndex: start, endIndex: end });
  let start = 0;
  let width = 0;
  // Where the current chunk may break, and the width up to that point.
  let breakAt = -1;
  let breakWidth = 0;
  for (let i = 0; i < segs.length; i++) {
    const { segment, index } = segs[i];
    const w = visibleWidth(segment);
    const marker = isPasteMarker(segment);
    const space = !marker && isWhitespaceChar(segment);
    if (width + w > maxWidth) {
      if (breakAt >= 0 && width - breakWidth + w <= maxWidth) {
        cut(start, breakAt);
        start = breakAt;
        width -= breakWidth;
      } else if (start < index) {
        cut(start, index);
        start = index;
        width = 0;
      }
      breakAt = -1;
    }
    if (w > maxWidth) {
      // A marker wider than the line is split for display only.
      const pieces = wordWrapLine(segment, maxWidth);
      for (const piece of pieces.slice(0, -1)) cut(index + piece.startIndex, index + piece.endIndex);
      const last = pieces[pieces.length - 1];
      start = index + last.startIndex;
      width = visibleWidth(last.text);
      breakAt = -1;
      continue;
    }
    width += w;
    const next = segs[i + 1];
    if (!next) continue;
    const nextMarker = isPasteMarker(next.segment);
    if (space && (nextMarker || !isWhitespaceChar(next.segment))) {
      breakAt = next.index;
      breakWidth = width;
    } else if (!space && !isWhitespaceChar(next.segment)) {
      if ((!marker && CJK_BREAK.test(segment)) || (!nextMarker && CJK_BREAK.test(next.segment))) {
        breakAt = next.index;
        breakWidth = width;
      }
    }
  }
  cut(start, line.length);
  return chunks;
}
