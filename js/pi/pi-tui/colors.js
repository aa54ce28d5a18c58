// pi-tui's colour values and what themes do with them: build and parse
// colours (256-colour indexes, sRGB, OKLCH, OKHSL), convert between them,
// mix them, and turn them into SGR sequences for a 256-colour or truecolor
// terminal. Colours are frozen plain objects tagged by `kind`, so that a
// theme can hand the same value to several components safely.
import { linearSrgbToRgb, okhslToRgb, oklabToLinearSrgb, rgbToOkhsl, rgbToOklab } from "./oklab.js";

function assertFinite(value, name) {
  if (!Number.isFinite(value)) throw new Error(`${name} must be finite`);
}

function assertUnitRange(value, name) {
  if (value < 0 || value > 1) throw new Error(`${name} must be between 0 and 1: ${value}`);
}

/** Any angle in degrees, as 0 <= h < 360. */
const wrapDegrees = (degrees) => ((degrees % 360) + 360) % 360;

/** Angle of (a, b) in degrees, 0 <= h < 360. */
const degreesOf = (a, b) => ((Math.atan2(b, a) * 180) / Math.PI + 360) % 360;

/** One of the terminal's 256 palette entries. */
export function indexedColor(index) {
  if (!Number.isInteger(index) || index < 0 || index > 255) {
    throw new Error(`ANSI color index must be an integer from 0 to 255: ${index}`);
  }
  return Object.freeze({ kind: "indexed", index });
}

/** sRGB, channels 0-255; fractions are kept (mixing makes them) and rounded on output. */
export function rgbColor(r, g, b) {
  const channels = { r, g, b };
  for (const name of ["r", "g", "b"]) {
    const value = channels[name];
    assertFinite(value, name);
    if (value < 0 || value > 255) throw new Error(`${name} must be between 0 and 255: ${value}`);
  }
  return Object.freeze({ kind: "rgb", r, g, b });
}

/** OKLCH: lightness 0-1, chroma >= 0 (unbounded; mapped into sRGB on output), hue in degrees. */
export function oklchColor(l, c, h) {
  assertFinite(l, "l");
  assertFinite(c, "c");
  assertFinite(h, "h");
  assertUnitRange(l, "l");
  if (c < 0) throw new Error(`c must not be negative: ${c}`);
  return Object.freeze({ kind: "oklch", l, c, h: wrapDegrees(h) });
}

/**
 * OKHSL (hue in degrees, saturation and lightness 0-1), stored as the sRGB
 * colour it names. Its saturation is a share of the most the sRGB gamut
 * allows at that hue and lightness, so equal values look equally vivid.
 */
export function okhslColor(h, s, l) {
  assertFinite(h, "h");
  assertFinite(s, "s");
  assertFinite(l, "l");
  assertUnitRange(s, "s");
  assertUnitRange(l, "l");
  const { r, g, b } = okhslToRgb(h, s, l);
  return rgbColor(r, g, b);
}

export function colorToOkhsl(color) {
  return rgbToOkhsl(colorToRgb(color));
}

// CSS-like numbers: sign, digits with an optional fraction (or a bare
// fraction), optional exponent. The patterns are case-insensitive, so
// `OKLCH(`, `1E3` and `DEG` pass too.
const NUMBER = String.raw`[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?`;
const HEX_SYNTAX = /^#([\da-f]{3}|[\da-f]{6})$/i;
// oklch(L[%] C H[deg])
const OKLCH_SYNTAX = new RegExp(String.raw`^oklch\(\s*(${NUMBER})(%)?\s+(${NUMBER})\s+(${NUMBER})(?:deg)?\s*\)$`, "i");
// okhsl(H[deg] S[%] L[%])
const OKHSL_SYNTAX = new RegExp(String.raw`^okhsl\(\s*(${NUMBER})(?:deg)?\s+(${NUMBER})(%)?\s+(${NUMBER})(%)?\s*\)$`, "i");

/** A percentage sign divides by 100. */
const fractionOf = (number, percent) => Number.parseFloat(number) / (percent ? 100 : 1);

/**
 * A colour as theme files write it: a palette index (number), `#rgb`,
 * `#rrggbb`, `oklch(...)` or `okhsl(...)`. Anything else throws.
 */
export function parseColor(value) {
  if (typeof value === "number") return indexedColor(value);

  const hex = HEX_SYNTAX.exec(value);
  if (hex) {
    const digits = hex[1];
    const short = digits.length === 3;
    const channel = (i) => Number.parseInt(short ? digits[i] + digits[i] : digits.slice(i * 2, i * 2 + 2), 16);
    return rgbColor(channel(0), channel(1), channel(2));
  }
  const oklch = OKLCH_SYNTAX.exec(value);
  if (oklch) {
    const [, lightness, percent, chroma, hue] = oklch;
    return oklchColor(fractionOf(lightness, percent), Number.parseFloat(chroma), Number.parseFloat(hue));
  }
  const okhsl = OKHSL_SYNTAX.exec(value);
  if (okhsl) {
    const [, hue, saturation, saturationPercent, lightness, lightnessPercent] = okhsl;
    return okhslColor(
      Number.parseFloat(hue),
      fractionOf(saturation, saturationPercent),
      fractionOf(lightness, lightnessPercent),
    );
  }
  throw new Error(`Invalid color value: ${value}`);
}

// The xterm palette: 16 system colours, a 6x6x6 cube, 24 greys.
const SYSTEM_COLORS = [
  [0, 0, 0], [128, 0, 0], [0, 128, 0], [128, 128, 0],
  [0, 0, 128], [128, 0, 128], [0, 128, 128], [192, 192, 192],
  [128, 128, 128], [255, 0, 0], [0, 255, 0], [255, 255, 0],
  [0, 0, 255], [255, 0, 255], [0, 255, 255], [255, 255, 255],
].map(([r, g, b]) => ({ r, g, b }));
const CUBE_LEVELS = [0, 95, 135, 175, 215, 255];
const GREY_LEVELS = Array.from({ length: 24 }, (_, step) => 8 + step * 10);

/**
 * A palette entry's sRGB. Indexes are not checked here: a hand-made colour
 * object with a bad index gets the same odd answer it gets from pi-tui
 * (an empty object, undefined channels or a grey beyond white).
 */
function paletteRgb(index) {
  if (index < 16) return { ...SYSTEM_COLORS[index] };
  if (index < 232) {
    const cube = index - 16;
    return { r: CUBE_LEVELS[Math.floor(cube / 36)], g: CUBE_LEVELS[Math.floor((cube % 36) / 6)], b: CUBE_LEVELS[cube % 6] };
  }
  const grey = 8 + (index - 232) * 10;
  return { r: grey, g: grey, b: grey };
}

// Slack for the rounding error of the Oklab round trip at the gamut edge.
const GAMUT_SLACK = 1e-7;
const inSrgbGamut = (linear) => linear.every((channel) => channel >= -GAMUT_SLACK && channel <= 1 + GAMUT_SLACK);

/**
 * OKLCH to sRGB. A colour outside sRGB keeps its lightness and hue and loses
 * chroma (20 halvings of the interval) until it fits.
 */
function oklchToRgb({ l, c, h }) {
  const radians = (h * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  const linearAt = (chroma) => oklabToLinearSrgb([l, chroma * cos, chroma * sin]);

  const exact = linearAt(c);
  if (inSrgbGamut(exact)) return linearSrgbToRgb(exact);

  // Grey always fits, and is the answer when no tried chroma does
  // (`oklch(100% 0.3 150)` is white).
  let best = linearAt(0);
  let fits = 0;
  let overflows = c;
  for (let halving = 0; halving < 20; halving++) {
    const chroma = (fits + overflows) / 2;
    const linear = linearAt(chroma);
    if (inSrgbGamut(linear)) {
      fits = chroma;
      best = linear;
    } else {
      overflows = chroma;
    }
  }
  return linearSrgbToRgb(best);
}

/** sRGB channels 0-255 (unrounded for rgb colours). */
export function colorToRgb(color) {
  if (color.kind === "indexed") return paletteRgb(color.index);
  if (color.kind === "rgb") return { r: color.r, g: color.g, b: color.b };
  if (color.kind === "oklch") return oklchToRgb(color);
  return undefined;
}

export function colorToOklch(color) {
  if (color.kind === "oklch") return { l: color.l, c: color.c, h: color.h };
  const [l, a, b] = rgbToOklab(colorToRgb(color));
  return { l, c: Math.hypot(a, b), h: degreesOf(a, b) };
}

export function colorToHex(color) {
  const { r, g, b } = colorToRgb(color);
  const hexByte = (channel) => Math.round(channel).toString(16).padStart(2, "0");
  return `#${hexByte(r)}${hexByte(g)}${hexByte(b)}`;
}

// Below this chroma a colour is grey and its hue means nothing.
const ACHROMATIC = 1e-7;

/**
 * The colour `amount` (0-1) of the way from `first` to `second`, in sRGB
 * (`"srgb"`) or, by default, in OKLCH along the shorter way round the hue
 * circle. A grey end takes the other end's hue, so mixing towards grey
 * does not sweep through unrelated hues.
 */
export function mixColors(first, second, amount, space = "oklch") {
  assertFinite(amount, "amount");
  assertUnitRange(amount, "amount");
  const lerp = (from, to) => from + (to - from) * amount;
  if (space === "srgb") {
    const from = colorToRgb(first);
    const to = colorToRgb(second);
    return rgbColor(lerp(from.r, to.r), lerp(from.g, to.g), lerp(from.b, to.b));
  }
  const from = colorToOklch(first);
  const to = colorToOklch(second);
  const fromHue = from.c < ACHROMATIC ? to.h : from.h;
  const toHue = to.c < ACHROMATIC ? fromHue : to.h;
  const turn = ((toHue - fromHue + 540) % 360) - 180;
  return oklchColor(lerp(from.l, to.l), lerp(from.c, to.c), fromHue + turn * amount);
}

/** Position of the value nearest `target`; the first wins a tie. */
function nearestIndex(values, target) {
  let best = 0;
  let bestDistance = Infinity;
  values.forEach((value, i) => {
    const distance = Math.abs(target - value);
    if (distance < bestDistance) {
      best = i;
      bestDistance = distance;
    }
  });
  return best;
}

/** Squared distance weighted by how bright each channel looks. */
function perceivedDistance(x, y) {
  const dr = x.r - y.r;
  const dg = x.g - y.g;
  const db = x.b - y.b;
  return dr * dr * 0.299 + dg * dg * 0.587 + db * db * 0.114;
}

/**
 * The 256-colour palette entry for an sRGB colour: the nearest cube colour,
 * or for near-greys the grey ramp entry when that is closer. The 16 system
 * colours are never chosen; terminals restyle them.
 */
function nearestPaletteIndex(rgb) {
  const [ri, gi, bi] = [rgb.r, rgb.g, rgb.b].map((channel) => nearestIndex(CUBE_LEVELS, channel));
  const cube = { r: CUBE_LEVELS[ri], g: CUBE_LEVELS[gi], b: CUBE_LEVELS[bi] };
  const luma = Math.round(0.299 * rgb.r + 0.587 * rgb.g + 0.114 * rgb.b);
  const greyStep = nearestIndex(GREY_LEVELS, luma);
  const greyLevel = GREY_LEVELS[greyStep];
  const grey = { r: greyLevel, g: greyLevel, b: greyLevel };
  const spread = Math.max(rgb.r, rgb.g, rgb.b) - Math.min(rgb.r, rgb.g, rgb.b);
  if (spread < 10 && perceivedDistance(rgb, grey) < perceivedDistance(rgb, cube)) return 232 + greyStep;
  return 16 + 36 * ri + 6 * gi + bi;
}

/**
 * SGR colour sequence (38 foreground, 48 background). Palette colours are
 * sent as they are; others as 24-bit in "truecolor" mode, and as the
 * nearest palette entry in any other mode.
 */
function sgrColor(color, mode, layer) {
  if (color.kind === "indexed") return `\x1b[${layer};5;${color.index}m`;
  const rgb = colorToRgb(color);
  if (mode === "truecolor") return `\x1b[${layer};2;${Math.round(rgb.r)};${Math.round(rgb.g)};${Math.round(rgb.b)}m`;
  return `\x1b[${layer};5;${nearestPaletteIndex(rgb)}m`;
}

export function foregroundAnsi(color, mode) {
  return sgrColor(color, mode, 38);
}

export function backgroundAnsi(color, mode) {
  return sgrColor(color, mode, 48);
}

/** `text` in the colours (`fg`, `bg`) and attributes of `options`. */
export function styleText(text, options, mode) {
  const fg = options.fg && foregroundAnsi(options.fg, mode);
  const bg = options.bg && backgroundAnsi(options.bg, mode);
  return styleTextWithAnsi(text, fg, bg, options);
}

// Attribute on and off sequences, in the order they are switched on. Bold
// and dim share their off sequence (22), handled separately below.
const ATTRIBUTES = [
  ["italic", "\x1b[3m", "\x1b[23m"],
  ["underline", "\x1b[4m", "\x1b[24m"],
  ["inverse", "\x1b[7m", "\x1b[27m"],
  ["strikethrough", "\x1b[9m", "\x1b[29m"],
];

/**
 * styleText() with the colour sequences already made (a theme caches
 * them); colours in `options` are not looked at. Everything is switched off
 * with its own sequence, last on first off, rather than a full reset, so
 * styling around the text survives.
 */
export function styleTextWithAnsi(text, fgAnsi, bgAnsi, options) {
  let on = "";
  let off = "";
  const add = (start, end) => {
    on += start;
    off = end + off;
  };
  if (fgAnsi) add(fgAnsi, "\x1b[39m");
  if (bgAnsi) add(bgAnsi, "\x1b[49m");
  if (options.bold) on += "\x1b[1m";
  if (options.dim) on += "\x1b[2m";
  if (options.bold || options.dim) off = `\x1b[22m${off}`;
  for (const [name, start, end] of ATTRIBUTES) if (options[name]) add(start, end);
  return `${on}${text}${off}`;
}
