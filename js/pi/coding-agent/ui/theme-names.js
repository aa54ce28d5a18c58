// The names of the themes pi offers: "system" (made for the terminal, so it
// has no file) first, then pi's bundled themes and the user's theme files
// in <agent dir>/themes, alphabetically. Only the names: pihost draws with
// the dark theme, and the caller decides what choosing a name does.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { getAgentDir } from "../agent-dir.js";

const SYSTEM_THEME_NAME = "system";
const BUILTIN_THEME_NAMES = ["dark", "light"];

/** The `name` of each readable theme file in the user's themes folder; pi skips a file it cannot load. */
function customThemeNames() {
  const folder = join(getAgentDir(), "themes");
  if (!existsSync(folder)) return [];
  const names = [];
  for (const file of readdirSync(folder)) {
    if (!file.endsWith(".json")) continue;
    try {
      const text = readFileSync(join(folder, file), "utf8");
      const json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
      if (typeof json?.name === "string" && json.name && json.colors && typeof json.colors === "object") names.push(json.name);
    } catch {
      // An unreadable theme file is left out of the list, as pi leaves it out.
    }
  }
  return names;
}

export function getAvailableThemes() {
  const names = [];
  for (const name of [SYSTEM_THEME_NAME, ...BUILTIN_THEME_NAMES, ...customThemeNames()]) {
    if (!names.includes(name)) names.push(name);
  }
  return names.sort((a, b) => (a === SYSTEM_THEME_NAME ? -1 : b === SYSTEM_THEME_NAME ? 1 : a.localeCompare(b)));
}
