// Terminal cell widths, counted the way pi-tui counts them: per grapheme
// cluster, wide for East Asian Wide/Fullwidth and RGI emoji, nothing for
// escape sequences, three cells for a tab.
import { escapeLength } from "./ansi.js";
import {
  EMOJI,
  EMOJI_MODIFIER_BASE,
  EMOJI_PRESENTATION,
  FORMAT,
  MARK,
  TERMINAL_SPACING,
  WIDE,
  ZERO_WIDTH,
  graphemes,
  props,
} from "./unicode.js";

export const TAB_WIDTH = 3;

const NON_PRINTING = ZERO_WIDTH | FORMAT | MARK;

function codePoints(cluster) {
  const out = [];
  for (const ch of cluster) out.push(ch.codePointAt(0));
  return out;
}

// The engine's own RGI_Emoji set where it has one (both Node and QuickJS-ng
// do); otherwise the shapes that make up RGI emoji, from the property table.
const nativeRgi = (() => {
  try {
    return new RegExp("^\\p{RGI_Emoji}$", "v");
  } catch {
    return null;
  }
})();

function isKeycapBase(cp) {
  return cp === 0x23 || cp === 0x2a || (cp >= 0x30 && cp <= 0x39);
}

function isEmojiElement(cps, i) {
  // One element of a ZWJ sequence; returns the index after it, or -1.
  const cp = cps[i];
  const p = props(cp);
  if (!(p & EMOJI) || isKeycapBase(cp)) return -1;
  let j = i + 1;
  if (cps[j] === 0xfe0f) j++;
  else if (p & EMOJI_MODIFIER_BASE && cps[j] >= 0x1f3fb && cps[j] <= 0x1f3ff) j++;
  else if (!(p & EMOJI_PRESENTATION)) return -1;
  return j;
}

function shapedLikeRgi(cluster) {
  const cps = codePoints(cluster);
  if (cps.length === 3 && isKeycapBase(cps[0]) && cps[1] === 0xfe0f && cps[2] === 0x20e3) return true;
  if (cps.length === 2 && cps[0] >= 0x1f1e6 && cps[0] <= 0x1f1ff && cps[1] >= 0x1f1e6 && cps[1] <= 0x1f1ff) return true;
  if (cps[0] === 0x1f3f4 && cps.length > 2 && cps[cps.length - 1] === 0xe007f) {
    return cps.slice(1, -1).every((cp) => cp >= 0xe0020 && cp <= 0xe007e);
  }
  let i = 0;
  for (;;) {
    i = isEmojiElement(cps, i);
    if (i < 0) return false;
    if (i === cps.length) return true;
    if (cps[i] !== 0x200d) return false;
    i++;
  }
}

const isRgiEmoji = nativeRgi ? (cluster) => nativeRgi.test(cluster) : shapedLikeRgi;

// A cheap gate before the RGI test: every RGI emoji starts in these blocks,
// carries VS16, or is a multi-unit sequence.
function couldBeEmoji(cluster) {
  const cp = cluster.codePointAt(0);
  return (
    (cp >= 0x1f000 && cp <= 0x1fbff) ||
    (cp >= 0x2300 && cp <= 0x23ff) ||
    (cp >= 0x2600 && cp <= 0x27bf) ||
    (cp >= 0x2b50 && cp <= 0x2b55) ||
    cluster.includes("\ufe0f") ||
    cluster.length > 2
  );
}

function eastAsian(cp) {
  return props(cp) & WIDE ? 2 : 1;
}

function clusterWidth(cluster) {
  const cps = codePoints(cluster);
  if (cps.every((cp) => props(cp) & TERMINAL_SPACING)) return cps.length;
  if (cps.every((cp) => props(cp) & (ZERO_WIDTH | MARK))) return 0;
  if (couldBeEmoji(cluster) && isRgiEmoji(cluster)) return 2;
  let start = 0;
  while (start < cps.length && props(cps[start]) & NON_PRINTING) start++;
  if (start === cps.length) return 0;
  const base = cps[start];
  // Lone regional indicators are drawn wide by most terminals.
  if (base >= 0x1f1e6 && base <= 0x1f1ff) return 2;
  let width = eastAsian(base);
  // A cluster can hold further code points that terminals give cells to:
  // spacing marks, a letter after a mark (Indic conjuncts), halfwidth and
  // fullwidth forms, Thai/Lao AM.
  let afterMark = false;
  for (let i = start + 1; i < cps.length; i++) {
    const cp = cps[i];
    const p = props(cp);
    if (p & TERMINAL_SPACING) {
      width += 1;
      afterMark = false;
    } else if (p & MARK) {
      afterMark = true;
    } else if (!(p & NON_PRINTING)) {
      if (afterMark || (cp >= 0xff00 && cp <= 0xffef)) width += eastAsian(cp);
      else if (cp === 0x0e33 || cp === 0x0eb3) width += 1;
      afterMark = false;
    }
  }
  return width;
}

const singleUnitWidths = new Map();

/** Cells taken by one grapheme cluster (a tab counts three). */
export function graphemeWidth(cluster) {
  if (cluster.length !== 1) return clusterWidth(cluster);
  const code = cluster.charCodeAt(0);
  if (code >= 0x20 && code < 0x7f) return 1;
  if (code === 0x09) return TAB_WIDTH;
  let width = singleUnitWidths.get(code);
  if (width === undefined) {
    width = clusterWidth(cluster);
    singleUnitWidths.set(code, width);
  }
  return width;
}

/** Whether every unit of `str` is printable ASCII. */
export function isPrintableAscii(str) {
  for (let i = 0; i < str.length; i++) {
    const code = str.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return true;
}

// Width of printable ASCII, tabs and escapes without allocating, or -1.
function simpleWidth(str) {
  let width = 0;
  for (let i = 0; i < str.length; ) {
    const code = str.charCodeAt(i);
    if (code >= 0x20 && code <= 0x7e) {
      width++;
      i++;
    } else if (code === 0x09) {
      width += TAB_WIDTH;
      i++;
    } else if (code === 0x1b) {
      const len = escapeLength(str, i);
      if (len === 0) return -1;
      i += len;
    } else {
      return -1;
    }
  }
  return width;
}

const CACHE_SIZE = 512;
const cache = new Map();

/** Columns `str` takes in a terminal. */
export function visibleWidth(str) {
  if (str.length === 0) return 0;
  const simple = simpleWidth(str);
  if (simple !== -1) return simple;
  const cached = cache.get(str);
  if (cached !== undefined) return cached;
  // Escapes are removed before clustering, so a mark after a colour code
  // still joins the character before it.
  let clean = str.includes("\t") ? str.replace(/\t/g, "   ") : str;
  if (clean.includes("\x1b")) {
    let out = "";
    let from = 0;
    for (let i = clean.indexOf("\x1b"); i !== -1; i = clean.indexOf("\x1b", i)) {
      const len = escapeLength(clean, i);
      if (len > 0) {
        out += clean.slice(from, i);
        i += len;
        from = i;
      } else {
        i++;
      }
    }
    clean = out + clean.slice(from);
  }
  let width = 0;
  for (const g of graphemes(clean)) width += graphemeWidth(g);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value);
  cache.set(str, width);
  return width;
}
