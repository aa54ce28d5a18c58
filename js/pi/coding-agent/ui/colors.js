// Theme colours: parsing "#rrggbb", "okhsl(h s% l%)", "oklch(l c h)" and
// palette indices, and the escape codes that select them in truecolor or
// 256-colour terminals. OKHSL and Oklab are Björn Ottosson's colour spaces
// (https://bottosson.github.io/posts/colorpicker/); the conversion below
// follows his published derivation, with his fitted constants.
import { hostEnv } from "../../host-env.js";

// Oklab <-> linear sRGB, through the cube roots of LMS cone responses.
// Double-precision matrices (Ottosson's later, more exact derivation), so
// channels round the same way pi's do.
const LAB_TO_LMS = [
  [1, 0.3963377773761749, 0.2158037573099136],
  [1, -0.1055613458156586, -0.0638541728258133],
  [1, -0.0894841775298119, -1.2914855480194092],
];
const LMS_TO_RGB = [
  [4.0767416360759583, -3.3077115392580629, 0.2309699031821043],
  [-1.2684379732850315, 2.6097573492876882, -0.341319376002657],
  [-0.0041960761386756, -0.7034186179359362, 1.7076146940746117],
];
const RGB_TO_LMS = [
  [0.4122214694707629, 0.5363325372617349, 0.0514459932675022],
  [0.2119034958178251, 0.6806995506452344, 0.1073969535369405],
  [0.0883024591900564, 0.2817188391361215, 0.6299787016738222],
];
const LMS_TO_LAB = [
  [0.210454268309314, 0.793617774702305, -0.0040720430116193],
  [1.9779985324311684, -2.42859224204858, 0.450593709617411],
  [0.0259040424655478, 0.7827717124575296, -0.8086757549230774],
];

const apply = (matrix, v) => matrix.map((row) => row[0] * v[0] + row[1] * v[1] + row[2] * v[2]);

function labToLinear(lab) {
  return apply(LMS_TO_RGB, apply(LAB_TO_LMS, lab).map((x) => x * x * x));
}

function linearToLab(rgb) {
  return apply(LMS_TO_LAB, apply(RGB_TO_LMS, rgb).map(Math.cbrt));
}

const encode = (x) => (x > 0.0031308 ? 1.055 * x ** (1 / 2.4) - 0.055 : 12.92 * x);
const decode = (x) => (x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);

/** Linear sRGB to 0-255 channels, clipped and rounded. */
function toChannels(linear) {
  const [r, g, b] = linear.map((x) => Math.round(Math.min(1, Math.max(0, encode(x))) * 255));
  return { r, g, b };
}

// OKHSL lightness is a "toe" remapping of Oklab's, so that equal steps look equal.
const TOE_K1 = 0.206;
const TOE_K2 = 0.03;
const TOE_K3 = (1 + TOE_K1) / (1 + TOE_K2);
const toeInverse = (x) => (x * x + TOE_K1 * x) / (TOE_K3 * (x + TOE_K2));

/** Chroma direction (a, b) in terms of the cube-root LMS components. */
const lmsDirection = (a, b) => LAB_TO_LMS.map((row) => row[1] * a + row[2] * b);

/** Highest C/L inside sRGB along hue (a, b): Ottosson's polynomial estimate, refined by one Halley step. */
function maxSaturation(a, b) {
  let k;
  let weights;
  if (-1.8817031 * a - 0.80936501 * b > 1) {
    k = [1.19086277, 1.76576728, 0.59662641, 0.75515197, 0.56771245];
    weights = LMS_TO_RGB[0];
  } else if (1.8144408 * a - 1.19445267 * b > 1) {
    // pi-tui's fit for the green edge; with it the rounded channels agree with pi's everywhere.
    k = [0.73956515, -0.45954404, 0.08285427, 0.12541073, -0.14503204];
    weights = LMS_TO_RGB[1];
  } else {
    k = [1.35733652, -0.00915799, -1.1513021, -0.50559606, 0.00692167];
    weights = LMS_TO_RGB[2];
  }
  const s = k[0] + k[1] * a + k[2] * b + k[3] * a * a + k[4] * a * b;
  const dir = lmsDirection(a, b);
  let f = 0;
  let f1 = 0;
  let f2 = 0;
  for (let i = 0; i < 3; i++) {
    const base = 1 + s * dir[i];
    f += weights[i] * base ** 3;
    f1 += weights[i] * 3 * dir[i] * base ** 2;
    f2 += weights[i] * 6 * dir[i] ** 2 * base;
  }
  return s - (f * f1) / (f1 * f1 - 0.5 * f * f2);
}

/** The most saturated colour of the hue: its Oklab lightness and chroma. */
function findCusp(a, b) {
  const s = maxSaturation(a, b);
  const rgb = labToLinear([1, s * a, s * b]);
  const l = Math.cbrt(1 / Math.max(...rgb));
  return { l, c: l * s };
}

/** Largest chroma at lightness `l` along hue (a, b) that stays in sRGB. */
function maxChroma(a, b, l, cusp) {
  if (l <= cusp.l) return (cusp.c * l) / cusp.l;
  // Above the cusp the gamut edge is curved: start from the straight line to white and take one Halley step per channel.
  let t = (cusp.c * (l - 1)) / (cusp.l - 1);
  const dir = lmsDirection(a, b);
  const lms = dir.map((d) => l + t * d);
  const cube = lms.map((x) => x ** 3);
  const d1 = lms.map((x, i) => 3 * dir[i] * x * x);
  const d2 = lms.map((x, i) => 6 * dir[i] * dir[i] * x);
  let step = Number.MAX_VALUE;
  for (const row of LMS_TO_RGB) {
    const f = row[0] * cube[0] + row[1] * cube[1] + row[2] * cube[2] - 1;
    const f1 = row[0] * d1[0] + row[1] * d1[1] + row[2] * d1[2];
    const f2 = row[0] * d2[0] + row[1] * d2[1] + row[2] * d2[2];
    const u = f1 / (f1 * f1 - 0.5 * f * f2);
    if (u >= 0) step = Math.min(step, -f * u);
  }
  t += step;
  return t;
}

function midSaturation(a, b) {
  const s =
    0.11516993 +
    1 /
      (7.4477897 +
        4.1590124 * b +
        a * (-2.19557347 + 1.75198401 * b + a * (-2.13704948 - 10.02301043 * b + a * (-4.24894561 + 5.38770819 * b + 4.69891013 * a))));
  const t =
    0.11239642 +
    1 /
      (1.6132032 -
        0.68124379 * b +
        a * (0.40370612 + 0.90148123 * b + a * (-0.27087943 + 0.6122399 * b + a * (0.00299215 - 0.45399568 * b - 0.14661872 * a))));
  return { s, t };
}

/** OKHSL (hue in degrees, saturation and lightness 0-1) to 0-255 sRGB channels. */
export function okhslToRgb(hue, saturation, lightness) {
  const l = toeInverse(lightness);
  if (!(l > 0 && l < 1) || saturation <= 0) return toChannels(labToLinear([l, 0, 0]));
  const turn = (((hue % 360) + 360) % 360) / 360;
  const a = Math.cos(2 * Math.PI * turn);
  const b = Math.sin(2 * Math.PI * turn);
  const cusp = findCusp(a, b);
  const cMax = maxChroma(a, b, l, cusp);
  const scale = cMax / Math.min(l * (cusp.c / cusp.l), (1 - l) * (cusp.c / (1 - cusp.l)));
  const mid = midSaturation(a, b);
  const cMid = 0.9 * scale * Math.sqrt(Math.sqrt(1 / (1 / (l * mid.s) ** 4 + 1 / ((1 - l) * mid.t) ** 4)));
  const c0 = Math.sqrt(1 / (1 / (l * 0.4) ** 2 + 1 / ((1 - l) * 0.8) ** 2));
  // Saturation 0.8 lands on cMid, 1 on the gamut edge; each stretch is a rational curve through its ends.
  let chroma;
  if (saturation < 0.8) {
    const t = 1.25 * saturation;
    const k1 = 0.8 * c0;
    chroma = (t * k1) / (1 - (1 - k1 / cMid) * t);
  } else {
    const t = (saturation - 0.8) / 0.2;
    const k1 = (0.2 * cMid * cMid * 1.25 * 1.25) / c0;
    chroma = cMid + (t * k1) / (1 - (1 - k1 / (cMax - cMid)) * t);
  }
  return toChannels(labToLinear([l, chroma * a, chroma * b]));
}

const inGamut = (rgb) => rgb.every((x) => x >= -1e-7 && x <= 1 + 1e-7);

/** OKLCH to sRGB, lowering chroma (same hue and lightness) until the colour fits. */
function oklchToRgb({ l, c, h }) {
  const angle = (h * Math.PI) / 180;
  const at = (chroma) => labToLinear([l, chroma * Math.cos(angle), chroma * Math.sin(angle)]);
  const direct = at(c);
  if (inGamut(direct)) return toChannels(direct);
  let best = at(0);
  let low = 0;
  let high = c;
  for (let i = 0; i < 20; i++) {
    const chroma = (low + high) / 2;
    const candidate = at(chroma);
    if (inGamut(candidate)) {
      low = chroma;
      best = candidate;
    } else {
      high = chroma;
    }
  }
  return toChannels(best);
}

const NUMBER = String.raw`[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?`;
const OKHSL = new RegExp(`^okhsl\\(\\s*(${NUMBER})(?:deg)?\\s+(${NUMBER})(%)?\\s+(${NUMBER})(%)?\\s*\\)$`, "i");
const OKLCH = new RegExp(`^oklch\\(\\s*(${NUMBER})(%)?\\s+(${NUMBER})\\s+(${NUMBER})(?:deg)?\\s*\\)$`, "i");

export function indexedColor(index) {
  if (!Number.isInteger(index) || index < 0 || index > 255) {
    throw new Error(`ANSI color index must be an integer from 0 to 255: ${index}`);
  }
  return Object.freeze({ kind: "indexed", index });
}

export function rgbColor(r, g, b) {
  return Object.freeze({ kind: "rgb", r, g, b });
}

/** A theme colour value: a palette index, "#rgb"/"#rrggbb", okhsl(...) or oklch(...). */
export function parseColor(value) {
  if (typeof value === "number") return indexedColor(value);
  const hex = /^#([\da-f]{3}|[\da-f]{6})$/i.exec(value);
  if (hex) {
    const digits = hex[1].length === 3 ? hex[1].replace(/./g, "$&$&") : hex[1];
    return rgbColor(...[0, 2, 4].map((i) => Number.parseInt(digits.slice(i, i + 2), 16)));
  }
  const lch = OKLCH.exec(value);
  if (lch) {
    const l = Number.parseFloat(lch[1]) / (lch[2] ? 100 : 1);
    const h = Number.parseFloat(lch[4]);
    return Object.freeze({ kind: "oklch", l, c: Number.parseFloat(lch[3]), h: ((h % 360) + 360) % 360 });
  }
  const hsl = OKHSL.exec(value);
  if (hsl) {
    const s = Number.parseFloat(hsl[2]) / (hsl[3] ? 100 : 1);
    const l = Number.parseFloat(hsl[4]) / (hsl[5] ? 100 : 1);
    if (s < 0 || s > 1) throw new Error(`s must be between 0 and 1: ${s}`);
    if (l < 0 || l > 1) throw new Error(`l must be between 0 and 1: ${l}`);
    const { r, g, b } = okhslToRgb(Number.parseFloat(hsl[1]), s, l);
    return rgbColor(r, g, b);
  }
  throw new Error(`Invalid color value: ${value}`);
}

const BASIC = [
  [0, 0, 0], [128, 0, 0], [0, 128, 0], [128, 128, 0], [0, 0, 128], [128, 0, 128], [0, 128, 128], [192, 192, 192],
  [128, 128, 128], [255, 0, 0], [0, 255, 0], [255, 255, 0], [0, 0, 255], [255, 0, 255], [0, 255, 255], [255, 255, 255],
];
const CUBE = [0, 95, 135, 175, 215, 255];

export function colorToRgb(color) {
  if (color.kind === "rgb") return { r: color.r, g: color.g, b: color.b };
  if (color.kind === "oklch") return oklchToRgb(color);
  const i = color.index;
  if (i < 16) return { r: BASIC[i][0], g: BASIC[i][1], b: BASIC[i][2] };
  if (i < 232) {
    const n = i - 16;
    return { r: CUBE[Math.floor(n / 36)], g: CUBE[Math.floor(n / 6) % 6], b: CUBE[n % 6] };
  }
  const gray = 8 + (i - 232) * 10;
  return { r: gray, g: gray, b: gray };
}

export function colorToHex(color) {
  const { r, g, b } = colorToRgb(color);
  return `#${[r, g, b].map((x) => Math.round(x).toString(16).padStart(2, "0")).join("")}`;
}

/** Oklab lightness, chroma and hue of a colour. */
export function colorToOklch(color) {
  if (color.kind === "oklch") return { l: color.l, c: color.c, h: color.h };
  const { r, g, b } = colorToRgb(color);
  const [l, A, B] = linearToLab([r / 255, g / 255, b / 255].map(decode));
  return { l, c: Math.hypot(A, B), h: ((Math.atan2(B, A) * 180) / Math.PI + 360) % 360 };
}

function nearest(values, target) {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (Math.abs(target - values[i]) < Math.abs(target - values[best])) best = i;
  return best;
}

// Perceptual weights, so the distance counts green most and blue least.
const distance = (x, y) => (x.r - y.r) ** 2 * 0.299 + (x.g - y.g) ** 2 * 0.587 + (x.b - y.b) ** 2 * 0.114;

/** The closest of the 256 palette colours: the 6x6x6 cube, or the gray ramp for near-grays. */
function to256(rgb) {
  const [ri, gi, bi] = [rgb.r, rgb.g, rgb.b].map((x) => nearest(CUBE, x));
  const cube = { r: CUBE[ri], g: CUBE[gi], b: CUBE[bi] };
  const luma = Math.round(0.299 * rgb.r + 0.587 * rgb.g + 0.114 * rgb.b);
  const grays = Array.from({ length: 24 }, (_, i) => 8 + i * 10);
  const grayIndex = nearest(grays, luma);
  const gray = { r: grays[grayIndex], g: grays[grayIndex], b: grays[grayIndex] };
  const spread = Math.max(rgb.r, rgb.g, rgb.b) - Math.min(rgb.r, rgb.g, rgb.b);
  if (spread < 10 && distance(rgb, gray) < distance(rgb, cube)) return 232 + grayIndex;
  return 16 + 36 * ri + 6 * gi + bi;
}

/** SGR that selects `color` as foreground (or background) in the given mode ("truecolor" or "256color"). */
export function colorAnsi(color, mode, background = false) {
  const layer = background ? 48 : 38;
  if (color.kind === "indexed") return `\x1b[${layer};5;${color.index}m`;
  const rgb = colorToRgb(color);
  if (mode === "truecolor") return `\x1b[${layer};2;${Math.round(rgb.r)};${Math.round(rgb.g)};${Math.round(rgb.b)}m`;
  return `\x1b[${layer};5;${to256(rgb)}m`;
}

/** Truecolor when the terminal says so (PI_TRUE_COLOR, COLORTERM, TERM, or a terminal known to have it). */
export function detectColorMode(env = hostEnv()) {
  if (env.PI_TRUE_COLOR === "1") return "truecolor";
  if (env.PI_TRUE_COLOR === "0") return "256color";
  const colorTerm = (env.COLORTERM ?? "").toLowerCase();
  const term = (env.TERM ?? "").toLowerCase();
  const program = (env.TERM_PROGRAM ?? "").toLowerCase();
  if (colorTerm === "truecolor" || colorTerm === "24bit" || term.endsWith("-direct")) return "truecolor";
  if (env.TMUX || term.startsWith("tmux") || term.startsWith("screen")) return "256color";
  if (env.KITTY_WINDOW_ID || env.GHOSTTY_RESOURCES_DIR || env.WEZTERM_PANE || env.ITERM_SESSION_ID || env.WT_SESSION) return "truecolor";
  if (["kitty", "ghostty", "wezterm", "iterm.app", "warpterminal", "rex", "herdr"].includes(program)) return "truecolor";
  if (term === "alacritty" || env.ALACRITTY_WINDOW_ID || env.TERMINAL_EMULATOR?.toLowerCase() === "jetbrains-jediterm") return "truecolor";
  return "256color";
}
