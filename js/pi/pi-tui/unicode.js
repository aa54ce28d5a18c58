// Per-code-point properties and extended grapheme clusters (UAX #29).
// The isolate cannot count on Intl.Segmenter, so clusters are found here from
// the generated property table; the rules follow the Unicode 15.1+ text,
// including the Indic conjunct rule (GB9c) that Node's ICU applies.
import { RUNS } from "./unicode-data.js";

// Bit layout, shared with tests/reference/gen-pi-tui-unicode.mjs.
export const GCB_MASK = 0xf;
export const OTHER = 0;
export const CR = 1;
export const LF = 2;
export const CONTROL = 3;
export const EXTEND = 4;
export const ZWJ = 5;
export const RI = 6;
export const PREPEND = 7;
export const SPACING_MARK = 8;
export const L = 9;
export const V = 10;
export const T = 11;
export const LV = 12;
export const LVT = 13;
export const EXT_PICT = 1 << 4;
export const INCB_MASK = 3 << 5;
export const INCB_CONSONANT = 1 << 5;
export const INCB_LINKER = 2 << 5;
export const INCB_EXTEND = 3 << 5;
export const WIDE = 1 << 7;
export const MARK = 1 << 8;
export const TERMINAL_SPACING = 1 << 9;
export const ZERO_WIDTH = 1 << 10;
export const FORMAT = 1 << 11;
export const EMOJI = 1 << 12;
export const EMOJI_PRESENTATION = 1 << 13;
export const EMOJI_MODIFIER_BASE = 1 << 14;

// The BMP gets a flat table (every lookup in ordinary text is one index);
// astral code points, rarer, binary-search the runs.
const bmp = new Uint16Array(0x10000);
const astralStarts = [];
const astralValues = [];
{
  const runs = RUNS.split(" ");
  let start = 0;
  const starts = [];
  const values = [];
  for (const run of runs) {
    const dot = run.indexOf(".");
    start += parseInt(run.slice(0, dot), 36);
    starts.push(start);
    values.push(parseInt(run.slice(dot + 1), 36));
  }
  for (let i = 0; i < starts.length; i++) {
    const from = starts[i];
    const to = i + 1 < starts.length ? starts[i + 1] : 0x110000;
    if (from < 0x10000) bmp.fill(values[i], from, Math.min(to, 0x10000));
    if (to > 0x10000) {
      astralStarts.push(Math.max(from, 0x10000));
      astralValues.push(values[i]);
    }
  }
}

/** The property bits of a code point. */
export function props(cp) {
  if (cp < 0x10000) return bmp[cp];
  let lo = 0;
  let hi = astralStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (astralStarts[mid] <= cp) lo = mid;
    else hi = mid - 1;
  }
  return astralValues[lo];
}

function noBreakBetween(prev, cur, state) {
  const p = prev & GCB_MASK;
  const c = cur & GCB_MASK;
  if (p === CR) return c === LF;
  if (p === LF || p === CONTROL || c === CR || c === LF || c === CONTROL) return false;
  if (p === L && (c === L || c === V || c === LV || c === LVT)) return true;
  if ((p === LV || p === V) && (c === V || c === T)) return true;
  if ((p === LVT || p === T) && c === T) return true;
  if (c === EXTEND || c === ZWJ || c === SPACING_MARK || p === PREPEND) return true;
  if ((cur & INCB_MASK) === INCB_CONSONANT && state.conjunct === 2) return true;
  if (cur & EXT_PICT && state.emoji === 2) return true;
  return p === RI && c === RI && state.regional % 2 === 1;
}

// What the rules remember of the cluster so far: emoji 1 after ExtPict
// Extend*, 2 after a following ZWJ; conjunct 1 after an InCB consonant and
// extenders, 2 once a linker came; regional counts the trailing RI run.
function advance(state, cur) {
  const c = cur & GCB_MASK;
  if (cur & EXT_PICT) state.emoji = 1;
  else if (state.emoji === 1 && c === EXTEND) state.emoji = 1;
  else if (state.emoji === 1 && c === ZWJ) state.emoji = 2;
  else state.emoji = 0;
  const incb = cur & INCB_MASK;
  if (incb === INCB_CONSONANT) state.conjunct = 1;
  else if (state.conjunct > 0 && incb === INCB_LINKER) state.conjunct = 2;
  else if (state.conjunct > 0 && incb === INCB_EXTEND) state.conjunct = state.conjunct;
  else state.conjunct = 0;
  state.regional = c === RI ? state.regional + 1 : 0;
}

function codePointAt(text, i) {
  const cp = text.charCodeAt(i);
  if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
    const low = text.charCodeAt(i + 1);
    if (low >= 0xdc00 && low <= 0xdfff) return ((cp - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
  }
  return cp;
}

/** The extended grapheme clusters of `text`, in order. */
export function graphemes(text) {
  const out = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const code = text.charCodeAt(i);
    // Printable ASCII followed by ASCII (or nothing) is a cluster of its own;
    // most text never needs the table.
    if (code >= 0x20 && code < 0x7f) {
      const next = i + 1 < n ? text.charCodeAt(i + 1) : 0;
      if (next < 0x80) {
        out.push(text[i]);
        i++;
        continue;
      }
    }
    const start = i;
    let cp = codePointAt(text, i);
    let prev = props(cp);
    const state = { emoji: 0, conjunct: 0, regional: 0 };
    advance(state, prev);
    i += cp > 0xffff ? 2 : 1;
    while (i < n) {
      cp = codePointAt(text, i);
      const cur = props(cp);
      if (!noBreakBetween(prev, cur, state)) break;
      advance(state, cur);
      prev = cur;
      i += cp > 0xffff ? 2 : 1;
    }
    out.push(text.slice(start, i));
  }
  return out;
}
