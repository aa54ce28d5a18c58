// Björn Ottosson's Oklab and OKHSL colour spaces against sRGB
// (https://bottosson.github.io/posts/oklab/ and .../colorpicker/): the maths
// under colors.js's OKLCH, OKHSL and colour mixing. Themes compare colours
// exactly, so every expression keeps the operation order pi-tui computes
// in; a reordered sum or a `x * x * x` for `x ** 3` changes the last bits.

/** 3x3 matrix times vector, each row summed left to right. */
const applyMatrix = (matrix, [x, y, z]) => matrix.map((row) => row[0] * x + row[1] * y + row[2] * z);

// Linear sRGB -> cone responses (LMS), and cube-rooted LMS -> Oklab.
const SRGB_TO_CONES = [
  [0.4122214694707629, 0.5363325372617349, 0.0514459932675022],
  [0.2119034958178251, 0.6806995506452344, 0.1073969535369405],
  [0.0883024591900564, 0.2817188391361215, 0.6299787016738222],
];
const CONES_TO_OKLAB = [
  [0.210454268309314, 0.793617774702305, -0.0040720430116193],
  [1.9779985324311684, -2.42859224204858, 0.450593709617411],
  [0.0259040424655478, 0.7827717124575296, -0.8086757549230774],
];
// And back: Oklab -> cube-rooted LMS -> linear sRGB.
const OKLAB_TO_CONES = [
  [1, 0.3963377773761749, 0.2158037573099136],
  [1, -0.1055613458156586, -0.0638541728258133],
  [1, -0.0894841775298119, -1.2914855480194092],
];
const CONES_TO_SRGB = [
  [4.0767416360759583, -3.3077115392580629, 0.2309699031821043],
  [-1.2684379732850315, 2.6097573492876882, -0.341319376002657],
  [-0.0041960761386756, -0.7034186179359362, 1.7076146940746117],
];

// Ottosson's fit of the largest in-gamut saturation per hue. Each sRGB
// channel owns the hues where it clips first: `side` tells whether (a, b)
// lies there (side·(a, b) > 1), `fit` is the polynomial k0..k4 for it. The
// last channel takes whatever the first two do not.
const SATURATION_LIMITS = [
  { side: [-1.8817031, -0.80936501], fit: [1.19086277, 1.76576728, 0.59662641, 0.75515197, 0.56771245] },
  { side: [1.8144408, -1.19445267], fit: [0.73956515, -0.45954404, 0.08285427, 0.12541073, -0.14503204] },
  { side: [0.13110758, 1.81333971], fit: [1.35733652, -0.00915799, -1.1513021, -0.50559606, 0.00692167] },
];

// OKHSL's lightness is Oklab's with a toe that makes dark steps even.
const TOE_K1 = 0.206;
const TOE_K2 = 0.03;
const TOE_K3 = (1 + TOE_K1) / (1 + TOE_K2);

/** Oklab L to OKHSL lightness (the toe). */
export const oklabToOkhslLightness = (lightness) =>
  0.5 *
  (TOE_K3 * lightness -
    TOE_K1 +
    Math.sqrt((TOE_K3 * lightness - TOE_K1) ** 2 + 4 * TOE_K2 * TOE_K3 * lightness));

/** OKHSL lightness back to Oklab L. */
const okhslToOklabLightness = (lightness) =>
  (lightness * lightness + TOE_K1 * lightness) / (TOE_K3 * (lightness + TOE_K2));

/** sRGB gamma encoding of one channel, 0-1 in and out. */
const encodeSrgb = (linear) => (linear > 0.0031308 ? 1.055 * linear ** (1 / 2.4) - 0.055 : 12.92 * linear);

/** sRGB gamma decoding of one channel, 0-1 in and out. */
const decodeSrgb = (encoded) => (encoded <= 0.04045 ? encoded / 12.92 : ((encoded + 0.055) / 1.055) ** 2.4);

/** Oklab [L, a, b] to linear sRGB [r, g, b]; may fall outside 0-1. */
export function oklabToLinearSrgb(lab) {
  const cones = applyMatrix(OKLAB_TO_CONES, lab).map((root) => root ** 3);
  return applyMatrix(CONES_TO_SRGB, cones);
}

/** sRGB channels 0-255 to Oklab [L, a, b]. */
export function rgbToOklab({ r, g, b }) {
  const linear = [r / 255, g / 255, b / 255].map(decodeSrgb);
  return applyMatrix(CONES_TO_OKLAB, applyMatrix(SRGB_TO_CONES, linear).map(Math.cbrt));
}

/** Linear sRGB to rounded 0-255 channels; out-of-gamut channels are clipped, NaN stays NaN. */
export function linearSrgbToRgb(linear) {
  const [r, g, b] = linear.map((channel) => Math.round(Math.min(1, Math.max(0, encodeSrgb(channel))) * 255));
  return { r, g, b };
}

/** How fast each cube-rooted cone response moves per unit of chroma along hue (a, b). */
const coneSlopes = (a, b) => OKLAB_TO_CONES.map((row) => row[1] * a + row[2] * b);

/**
 * The largest chroma/lightness ratio that stays in sRGB at hue (a, b): the
 * polynomial estimate, refined by one Halley step on the clipping channel.
 */
function maxSaturation(a, b) {
  let channel = 0;
  while (channel < 2) {
    const [x, y] = SATURATION_LIMITS[channel].side;
    if (x * a + y * b > 1) break;
    channel++;
  }
  const [k0, k1, k2, k3, k4] = SATURATION_LIMITS[channel].fit;
  const weights = CONES_TO_SRGB[channel];
  const estimate = k0 + k1 * a + k2 * b + k3 * a * a + k4 * a * b;

  const slopes = coneSlopes(a, b);
  const roots = slopes.map((slope) => 1 + estimate * slope);
  const weighted = (terms) => {
    let sum = 0;
    for (let i = 0; i < 3; i++) sum = sum + weights[i] * terms[i];
    return sum;
  };
  const value = weighted(roots.map((root) => root ** 3));
  const slope1 = weighted(roots.map((root, i) => 3 * slopes[i] * root ** 2));
  const slope2 = weighted(roots.map((root, i) => 6 * slopes[i] ** 2 * root));
  return estimate - (value * slope1) / (slope1 * slope1 - 0.5 * value * slope2);
}

/** The most colourful sRGB colour of hue (a, b), as Oklab [L, C]. */
function findCusp(a, b) {
  const saturation = maxSaturation(a, b);
  const brightest = Math.max(...oklabToLinearSrgb([1, saturation * a, saturation * b]));
  const lightness = Math.cbrt(1 / brightest);
  return [lightness, lightness * saturation];
}

/** The chroma at which Oklab lightness `lightness` and hue (a, b) leaves sRGB. */
function gamutChroma(a, b, lightness, [cuspL, cuspC]) {
  // Below the cusp the gamut edge is close enough to the straight line to black.
  if (lightness <= cuspL) return (cuspC * lightness) / cuspL;

  // Above it: start on the line to white, then take one Halley step towards
  // each channel reaching 1 and keep the nearest.
  const start = (cuspC * (lightness - 1)) / (cuspL - 1);
  const slopes = coneSlopes(a, b);
  const roots = slopes.map((slope) => lightness + start * slope);
  const cones = roots.map((root) => root ** 3);
  const cones1 = roots.map((root, i) => 3 * slopes[i] * root ** 2);
  const cones2 = roots.map((root, i) => 6 * slopes[i] ** 2 * root);
  const through = (row, terms) => row[0] * terms[0] + row[1] * terms[1] + row[2] * terms[2];
  let step = Infinity;
  for (const row of CONES_TO_SRGB) {
    const value = through(row, cones) - 1;
    const slope1 = through(row, cones1);
    const slope2 = through(row, cones2);
    const u = slope1 / (slope1 * slope1 - 0.5 * value * slope2);
    // A channel moving away from 1 never limits; MAX_VALUE (not Infinity)
    // is what pi-tui puts there, and it shows if every channel does.
    step = Math.min(step, u >= 0 ? -value * u : Number.MAX_VALUE);
  }
  return start + step;
}

/**
 * OKHSL's three chroma anchors at Oklab lightness L and hue (a, b):
 * `low` shapes the curve near grey, `mid` is reached at saturation 0.8 and
 * `max` (the gamut edge) at saturation 1.
 */
function chromaAnchors(L, a, b) {
  const cusp = findCusp(a, b);
  const max = gamutChroma(a, b, L, cusp);
  const triangle = Math.min(L * (cusp[1] / cusp[0]), (1 - L) * (cusp[1] / (1 - cusp[0])));
  const scale = max / triangle;
  // Ottosson's rational fits of the saturation (S) and toe (T) at the mid point.
  const midS =
    0.11516993 +
    1 /
      (7.4477897 +
        4.1590124 * b +
        a * (-2.19557347 + 1.75198401 * b + a * (-2.13704948 - 10.02301043 * b + a * (-4.24894561 + 5.38770819 * b + 4.69891013 * a))));
  const midT =
    0.11239642 +
    1 /
      (1.6132032 -
        0.68124379 * b +
        a * (0.40370612 + 0.90148123 * b + a * (-0.27087943 + 0.6122399 * b + a * (0.00299215 - 0.45399568 * b - 0.14661872 * a))));
  const mid = 0.9 * scale * Math.sqrt(Math.sqrt(1 / (1 / (L * midS) ** 4 + 1 / ((1 - L) * midT) ** 4)));
  const low = Math.sqrt(1 / (1 / (L * 0.4) ** 2 + 1 / ((1 - L) * 0.8) ** 2));
  return { low, mid, max };
}

/**
 * OKHSL to rounded 0-255 sRGB channels, clipping what leaves the gamut.
 * Hue in degrees (any turn), saturation and lightness 0-1.
 */
export function okhslToRgb(hue, saturation, lightness) {
  const L = okhslToOklabLightness(lightness);
  let a = 0;
  let b = 0;
  // Black, white and zero saturation are grey whatever the hue.
  if (L > 0 && L < 1 && saturation > 0) {
    const turn = (2 * Math.PI * (((hue % 360) + 360) % 360)) / 360;
    const hueA = Math.cos(turn);
    const hueB = Math.sin(turn);
    const { low, mid, max } = chromaAnchors(L, hueA, hueB);
    // Two rational segments: 0 -> mid over s 0..0.8, mid -> max over 0.8..1.
    let chroma;
    if (saturation < 0.8) {
      const t = 1.25 * saturation;
      const k1 = 0.8 * low;
      chroma = (t * k1) / (1 - (1 - k1 / mid) * t);
    } else {
      const t = 5 * (saturation - 0.8);
      const k1 = (0.2 * mid ** 2 * 1.25 ** 2) / low;
      chroma = mid + (t * k1) / (1 - (1 - k1 / (max - mid)) * t);
    }
    a = chroma * hueA;
    b = chroma * hueB;
  }
  return linearSrgbToRgb(oklabToLinearSrgb([L, a, b]));
}

/** 0-255 sRGB channels to OKHSL: hue in degrees (0 for greys), saturation and lightness 0-1. */
export function rgbToOkhsl(rgb) {
  const [L, a, b] = rgbToOklab(rgb);
  const chroma = Math.hypot(a, b);
  const lightness = oklabToOkhslLightness(L);
  if (chroma < 1e-9 || lightness <= 0 || lightness >= 1) return { h: 0, s: 0, l: lightness };

  const hue = ((Math.atan2(b, a) * 180) / Math.PI + 360) % 360;
  const { low, mid, max } = chromaAnchors(L, a / chroma, b / chroma);
  // The inverse of okhslToRgb's two segments.
  let saturation;
  if (chroma < mid) {
    const k1 = 0.8 * low;
    saturation = 0.8 * (chroma / (k1 + (1 - k1 / mid) * chroma));
  } else {
    const k1 = (0.2 * mid ** 2 * 1.25 ** 2) / low;
    const past = chroma - mid;
    saturation = 0.8 + 0.2 * (past / (k1 + (1 - k1 / (max - mid)) * past));
  }
  return { h: hue, s: Math.min(1, Math.max(0, saturation)), l: lightness };
}
