// The keybindings the /resume picker reads itself when its caller passes
// none: pi's interface keys with the picker's named-session toggle, bound
// as the user's keybindings.json says (pi reads the same file). Only that
// one of pi's app keybindings is read through these; the others come from
// the shared keybindings.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { KeybindingsManager, TUI_KEYBINDINGS } from "../../pi-tui/keybindings.js";
import { getAgentDir } from "../agent-dir.js";

const NAMED_FILTER = "app.session.toggleNamedFilter";
// The name the binding had before pi namespaced its keybindings; still read.
const LEGACY_NAMED_FILTER = "toggleSessionNamedFilter";

const isKeyList = (value) => typeof value === "string" || (Array.isArray(value) && value.every((key) => typeof key === "string"));

/** The user's binding for the toggle from <agent dir>/keybindings.json; none when absent, unreadable or malformed. */
function userNamedFilterBinding() {
  const path = join(getAgentDir(), "keybindings.json");
  if (!existsSync(path)) return {};
  let config;
  try {
    const text = readFileSync(path, "utf8");
    config = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    // pi ignores a keybindings file it cannot parse.
    return {};
  }
  if (typeof config !== "object" || config === null) return {};
  const value = Object.hasOwn(config, NAMED_FILTER) ? config[NAMED_FILTER] : config[LEGACY_NAMED_FILTER];
  return isKeyList(value) ? { [NAMED_FILTER]: value } : {};
}

export function sessionSelectorKeybindings() {
  const definitions = { ...TUI_KEYBINDINGS, [NAMED_FILTER]: { defaultKeys: "ctrl+n", description: "Toggle named session filter" } };
  return new KeybindingsManager(definitions, userNamedFilterBinding());
}
