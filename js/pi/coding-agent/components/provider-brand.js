// Animated names for the preferred partner providers in selectors (the
// selected row only): Radius shimmers in its logo colours, OpenRouter
// glows in its brand colour.
import { foregroundAnsi, mixColors, parseColor } from "../../pi-tui/colors.js";
import { currentTheme } from "../ui/theme.js";

export const RADIUS_PROVIDER_ID = "radius";

/** Preferred partner providers, most preferred first. */
const PREFERRED_PROVIDER_IDS = [RADIUS_PROVIDER_ID, "openrouter"];

export const isPreferredProvider = (providerId) => PREFERRED_PROVIDER_IDS.includes(providerId);

// Colours are parsed on first use: nothing runs at import.
let palette;
function colors() {
  palette ??= {
    // The Radius logo's colours, in the order they stream across the name.
    radius: ["#4d9abf", "#83ccd2", "#f1be57", "#f09082"].map(parseColor),
    // Lime reads on dark backgrounds only; light themes get violet.
    openRouter: {
      dark: { base: parseColor("#c6f243"), peak: parseColor("#efffb0") },
      light: { base: parseColor("#5d32e1"), peak: parseColor("#8f6bff") },
    },
  };
  return palette;
}

const CHARS_PER_COLOR = 4;
const CHARS_PER_SECOND = 10;
const GLOW_PERIOD_MS = 2400;
const ANIMATION_FRAME_MS = 50;

/** `text` in bands of the Radius colours flowing left to right, `elapsedMs` into the animation. */
function radiusShimmer(text, elapsedMs) {
  const mode = currentTheme().getColorMode();
  const bands = colors().radius;
  const cycle = bands.length * CHARS_PER_COLOR;
  const offset = (elapsedMs / 1000) * CHARS_PER_SECOND;
  let out = "";
  let index = 0;
  for (const char of text) {
    const position = (((index - offset) % cycle) + cycle) % cycle;
    const band = Math.floor(position / CHARS_PER_COLOR);
    const t = position / CHARS_PER_COLOR - band;
    // Smoothstep: each band stays recognisable while it blends into the next.
    const amount = t * t * (3 - 2 * t);
    out += foregroundAnsi(mixColors(bands[band], bands[(band + 1) % bands.length], amount, "srgb"), mode) + char;
    index++;
  }
  return `${out}\x1b[39m`;
}

/** `text` in OpenRouter's colour, brightening and dimming over GLOW_PERIOD_MS. */
function openRouterGlow(text, elapsedMs) {
  const theme = currentTheme();
  const { base, peak } = colors().openRouter[theme.appearance];
  const amount = (1 - Math.cos((2 * Math.PI * elapsedMs) / GLOW_PERIOD_MS)) / 2;
  return `${foregroundAnsi(mixColors(base, peak, amount, "oklch"), theme.getColorMode())}${text}\x1b[39m`;
}

/** The animated style `(text, elapsedMs) => string` of a provider's name, if it has one. */
export function getProviderBrandStyle(providerId) {
  if (providerId === RADIUS_PROVIDER_ID) return radiusShimmer;
  if (providerId === "openrouter") return openRouterGlow;
  return undefined;
}

/** Asks `tui` for a frame every ANIMATION_FRAME_MS while `isAnimating()`; returns the stop function. */
export function startBrandAnimation(tui, isAnimating) {
  const timer = setInterval(() => {
    if (isAnimating()) tui.requestRender();
  }, ANIMATION_FRAME_MS);
  // The animation alone must not keep the process alive.
  timer?.unref?.();
  return () => clearInterval(timer);
}
