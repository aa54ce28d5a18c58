// What the terminal can show (inline images, 24-bit colour, OSC 8 links),
// guessed from the environment the way pi-tui guesses it, and the size of a
// character cell in pixels that image layout works from.
import { hostEnv } from "../host-env.js";

// pi-tui's TUI replaces these once the terminal answers its size query;
// until then images are laid out for a common 9x18 cell.
let cellDimensions = { widthPx: 9, heightPx: 18 };

let cached = null;
let overrides = {};

export function getCellDimensions() {
  return cellDimensions;
}

export function setCellDimensions(dimensions) {
  cellDimensions = dimensions;
}

/**
 * Whether tmux passes OSC 8 links on to the terminal around it. pi asks the
 * tmux client (`tmux display-message`); an extension in pihost never writes
 * to that terminal itself, pihost's front end does, so the default answer
 * is the one pi falls back to when the question fails: no. Callers that know
 * better pass their own probe.
 */
function tmuxForwardsNoHyperlinks() {
  return false;
}

const KITTY_GRAPHICS = { images: "kitty", trueColor: true, hyperlinks: true };
const ITERM2_GRAPHICS = { images: "iterm2", trueColor: true, hyperlinks: true };
const LINKS_WITHOUT_IMAGES = { images: null, trueColor: true, hyperlinks: true };
const TRUE_COLOR_ONLY = { images: null, trueColor: true, hyperlinks: false };

const lower = (value) => value?.toLowerCase() || "";

/**
 * The terminal read from its variables. The order matters: multiplexers hide
 * the terminal outside them, and terminals that host others (herdr) can
 * inherit that outer terminal's variables, so they are recognised first.
 */
function fromEnvironment(env, tmuxForwardsHyperlinks) {
  const program = lower(env.TERM_PROGRAM);
  const term = lower(env.TERM);
  const colorTerm = lower(env.COLORTERM);
  const saysTrueColor = colorTerm === "truecolor" || colorTerm === "24bit" || term.endsWith("-direct");

  // Images through a multiplexer are unreliable; tmux forwards links only
  // when configured to, screen never does.
  if (env.TMUX || term.startsWith("tmux")) {
    return { images: null, trueColor: saysTrueColor, hyperlinks: tmuxForwardsHyperlinks() };
  }
  if (term.startsWith("screen")) return { images: null, trueColor: saysTrueColor, hyperlinks: false };
  if (program === "herdr") return { images: "kitty", trueColor: saysTrueColor, hyperlinks: true };
  if (program === "rex") return KITTY_GRAPHICS;
  // Older Orca releases lack Kitty graphics and do not advertise the protocol.
  if (program === "orca" && env.ORCA_IMAGE_PROTOCOL === "kitty") return KITTY_GRAPHICS;
  if (env.KITTY_WINDOW_ID || program === "kitty") return KITTY_GRAPHICS;
  if (program === "ghostty" || term.includes("ghostty") || env.GHOSTTY_RESOURCES_DIR) return KITTY_GRAPHICS;
  if (env.WEZTERM_PANE || program === "wezterm") return KITTY_GRAPHICS;
  if (program === "warpterminal" || env.WARP_SESSION_ID || env.WARP_TERMINAL_SESSION_UUID) return KITTY_GRAPHICS;
  if (env.ITERM_SESSION_ID || program === "iterm.app") return ITERM2_GRAPHICS;
  if (env.WT_SESSION) return LINKS_WITHOUT_IMAGES;
  // Alacritty names itself only in TERM (with its terminfo installed) or ALACRITTY_WINDOW_ID.
  const alacritty = program === "alacritty" || term.startsWith("alacritty") || env.ALACRITTY_WINDOW_ID;
  if (alacritty || program === "vscode" || program === "zed") return LINKS_WITHOUT_IMAGES;
  if (lower(env.TERMINAL_EMULATOR) === "jetbrains-jediterm") return TRUE_COLOR_ONLY;
  // A Windows console has 24-bit colour even when Windows Terminal left no trace.
  if (globalThis.process?.platform === "win32") return TRUE_COLOR_ONLY;
  // A terminal that swallows OSC 8 would hide the URL of a link entirely, so
  // an unknown terminal gets the plain "text (url)" form.
  return { images: null, trueColor: saysTrueColor, hyperlinks: false };
}

/** PI_HYPERLINKS / PI_TRUE_COLOR: "1" forces on, "0" off, anything else detects. */
function forcedFlag(value) {
  if (value === "1") return true;
  if (value === "0") return false;
  return undefined;
}

/** PI_IMAGE_PROTOCOL: a protocol name forces it, "none" or "0" turns images off. */
function forcedImageProtocol(value) {
  const protocol = value?.toLowerCase();
  if (protocol === "kitty" || protocol === "iterm2") return protocol;
  if (protocol === "none" || protocol === "0") return null;
  return undefined;
}

export function detectCapabilities(tmuxForwardsHyperlinks = tmuxForwardsNoHyperlinks) {
  const env = hostEnv();
  const hyperlinks = forcedFlag(env.PI_HYPERLINKS);
  const detected = fromEnvironment(env, hyperlinks === undefined ? tmuxForwardsHyperlinks : () => hyperlinks);
  const capabilities = { ...detected };
  const images = forcedImageProtocol(env.PI_IMAGE_PROTOCOL);
  if (images !== undefined) capabilities.images = images;
  const trueColor = forcedFlag(env.PI_TRUE_COLOR);
  if (trueColor !== undefined) capabilities.trueColor = trueColor;
  if (hyperlinks !== undefined) capabilities.hyperlinks = hyperlinks;
  return capabilities;
}

/** Detected once, then kept until reset or overridden. */
export function getCapabilities() {
  if (!cached) {
    // A forced link setting also spares the tmux probe.
    const forcedLinks = overrides.hyperlinks;
    cached = {
      ...detectCapabilities(forcedLinks === undefined ? undefined : () => forcedLinks),
      ...overrides,
    };
  }
  return cached;
}

export function getTerminalColorMode(capabilities = getCapabilities()) {
  return capabilities.trueColor ? "truecolor" : "256color";
}

export function resetCapabilitiesCache() {
  cached = null;
}

/** Detection stays, these capabilities win over it; the same overrides again keep the cache. */
export function setCapabilityOverrides(next) {
  const unchanged = ["images", "trueColor", "hyperlinks"].every((name) => overrides[name] === next[name]);
  if (unchanged) return;
  overrides = { ...next };
  cached = null;
}

/** Replaces what detection found, until the next reset. */
export function setCapabilities(capabilities) {
  cached = capabilities;
}
