// Theme colours come from pi-tui's colour values and escape codes
// (js/pi/pi-tui/colors.js), as pi's theme takes them; what the theme adds
// is how it picks the colour mode when nothing chose one.
import { hostEnv } from "../../host-env.js";
import { backgroundAnsi, foregroundAnsi } from "../../pi-tui/colors.js";

export { colorToOklch, parseColor, rgbColor } from "../../pi-tui/colors.js";

/** SGR that selects `color` as foreground (or background) in the given mode ("truecolor" or "256color"). */
export function colorAnsi(color, mode, background = false) {
  return background ? backgroundAnsi(color, mode) : foregroundAnsi(color, mode);
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
