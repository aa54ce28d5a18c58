// Key hints such as "escape cancel": the keys in the dim colour, the
// description muted. macOS calls the alt key "option".
import { getKeybindings } from "../../pi-tui/keybindings.js";
import { currentTheme } from "./theme.js";

function keyPart(part, capitalize) {
  const shown = globalThis.process?.platform === "darwin" && part.toLowerCase() === "alt" ? "option" : part;
  return capitalize ? shown.charAt(0).toUpperCase() + shown.slice(1) : shown;
}

/** "ctrl+c/escape" with each key part as the platform names it. */
export function formatKeyText(key, options = {}) {
  return key
    .split("/")
    .map((k) =>
      k
        .split("+")
        .map((part) => keyPart(part, options.capitalize))
        .join("+"),
    )
    .join("/");
}

function formatKeys(keys, options) {
  return keys.length === 0 ? "" : formatKeyText(keys.join("/"), options);
}

/** The keys bound to a keybinding id, e.g. "escape/ctrl+c". */
export function keyText(keybinding) {
  return formatKeys(getKeybindings().getKeys(keybinding), {});
}

export function keyDisplayText(keybinding) {
  return formatKeys(getKeybindings().getKeys(keybinding), { capitalize: true });
}

export function keyHint(keybinding, description) {
  const theme = currentTheme();
  return theme.fg("dim", keyText(keybinding)) + theme.fg("muted", ` ${description}`);
}

export function rawKeyHint(key, description) {
  const theme = currentTheme();
  return theme.fg("dim", formatKeyText(key)) + theme.fg("muted", ` ${description}`);
}
