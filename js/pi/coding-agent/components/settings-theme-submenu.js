// The Theme submenu of /settings: one theme for every terminal, or
// "automatic" with a theme for light terminals and one for dark ones
// (stored as "light/dark"). Every move is previewed; leaving without
// applying previews the setting it started from.
import { Container } from "../../pi-tui/components/container.js";
import { SettingsList } from "../../pi-tui/components/settings-list.js";
import { Spacer, Text } from "../../pi-tui/components/text.js";
import { parseAutoThemeSetting, SYSTEM_THEME_NAME } from "../settings-choices.js";
import { currentTheme, getSettingsListTheme } from "../ui/theme.js";
import { SelectSubmenu } from "./settings-submenu.js";

// The value of the "automatic" row; no theme name can contain it.
const AUTOMATIC_VALUE = "/";

function themeItems(names, selected) {
  return names.map((name) => ({
    value: name,
    label: `${name === selected ? "✓ " : "  "}${name}`,
    ...(name === SYSTEM_THEME_NAME ? { description: "Theme created from your terminal's colors" } : {}),
  }));
}

/** The single-theme list: system, then automatic, then the other themes. */
function singleModeItems(names, selected) {
  const items = themeItems(names, selected);
  const systemAt = items.findIndex((item) => item.value === SYSTEM_THEME_NAME);
  const system = systemAt === -1 ? [] : items.splice(systemAt, 1);
  const automatic = { value: AUTOMATIC_VALUE, label: "  automatic", description: "Use separate themes for light and dark terminal appearance" };
  return [...system, automatic, ...items];
}

function availableOr(names, preferred, fallback) {
  if (preferred && names.includes(preferred)) return preferred;
  if (names.includes(fallback)) return fallback;
  return names[0] ?? fallback;
}

export class ThemeSubmenu extends Container {
  constructor(currentThemeSetting, terminalTheme, availableThemes, callbacks, onDone) {
    super();
    this.callbacks = callbacks;
    this.availableThemes = availableThemes;
    this.terminalTheme = terminalTheme;
    this.onDone = onDone;
    this.originalThemeSetting = currentThemeSetting;
    this.inputComponent = undefined;
    const automatic = parseAutoThemeSetting(currentThemeSetting);
    const fixedTheme = automatic || currentThemeSetting.includes("/") ? undefined : currentThemeSetting;
    // Automatic mode starts from the pair in the setting, else the fixed theme for both.
    const startTheme = availableOr(availableThemes, fixedTheme, SYSTEM_THEME_NAME);
    this.lightTheme = automatic?.lightTheme ?? startTheme;
    this.darkTheme = automatic?.darkTheme ?? startTheme;
    this.mode = automatic ? "automatic" : "single";
    this.singleTheme = availableOr(availableThemes, fixedTheme ?? (automatic ? this.getActiveAutomaticTheme() : undefined), SYSTEM_THEME_NAME);
    if (this.mode === "automatic") this.showAutomaticMenu();
    else this.showSingleMenu();
  }

  handleInput(data) {
    this.inputComponent?.handleInput?.(data);
  }

  setContent(shown, takesInput = shown) {
    this.clear();
    this.addChild(shown);
    this.inputComponent = takesInput;
  }

  preview(setting) {
    this.callbacks.onThemePreview?.(setting);
  }

  showSingleMenu() {
    this.mode = "single";
    const onSelect = (value) => {
      if (value === AUTOMATIC_VALUE) {
        this.mode = "automatic";
        this.preview(this.getThemeSetting());
        this.showAutomaticMenu();
        return;
      }
      this.singleTheme = value;
      this.apply(value);
    };
    const onMove = (value) => this.preview(value === AUTOMATIC_VALUE ? this.getAutomaticThemeSetting() : value);
    this.setContent(
      new SelectSubmenu(
        "Theme",
        "Select a theme, or choose automatic to follow terminal appearance.",
        singleModeItems(this.availableThemes, this.singleTheme),
        this.singleTheme,
        onSelect,
        () => this.cancel(),
        onMove,
      ),
    );
  }

  showAutomaticMenu() {
    const theme = currentTheme();
    this.mode = "automatic";
    const content = new Container();
    content.addChild(new Text(theme.bold(theme.fg("accent", "Automatic Theme")), 0, 0));
    content.addChild(new Spacer(1));
    content.addChild(new Text(theme.fg("muted", "Choose themes for terminal light and dark appearance."), 0, 0));
    content.addChild(new Text(theme.fg("muted", "Light/dark detection requires terminal support."), 0, 0));
    content.addChild(new Spacer(1));
    const themeRow = (id, label, appearance, field) => ({
      id,
      label,
      description: `Theme to use in automatic mode when the terminal is ${appearance}`,
      currentValue: this[field],
      submenu: (currentValue, done) =>
        this.createThemeSelect(`${label.split(" ")[0]} Theme`, `Select the theme to use for ${appearance} terminal appearance`, currentValue, done, (value) => {
          this[field] = value;
          this.preview(this.getThemeSetting());
          done(value);
        }),
    });
    const items = [
      themeRow("light-theme", "Light theme", "light", "lightTheme"),
      themeRow("dark-theme", "Dark theme", "dark", "darkTheme"),
      { id: "apply", label: "Apply", description: "Save and go back", currentValue: "save and go back", values: ["save and go back"] },
      { id: "single-mode", label: "Change mode", description: "Switch to one theme for light and dark", currentValue: "switch to single theme", values: ["switch to single theme"] },
    ];
    const onChange = (id) => {
      if (id === "single-mode") {
        this.mode = "single";
        this.singleTheme = this.getActiveAutomaticTheme();
        this.preview(this.singleTheme);
        this.showSingleMenu();
      } else if (id === "apply") this.apply(this.getAutomaticThemeSetting());
    };
    const list = new SettingsList(items, Math.min(items.length, 10), getSettingsListTheme(), onChange, () => this.cancel());
    content.addChild(list);
    this.setContent(content, list);
  }

  createThemeSelect(title, description, currentValue, done, onSelect) {
    const onBack = () => {
      this.preview(this.getThemeSetting());
      done();
    };
    return new SelectSubmenu(title, description, themeItems(this.availableThemes, currentValue), currentValue, onSelect, onBack, (value) => this.preview(value));
  }

  getThemeSetting() {
    return this.mode === "automatic" ? this.getAutomaticThemeSetting() : this.singleTheme;
  }

  getActiveAutomaticTheme() {
    return this.terminalTheme === "light" ? this.lightTheme : this.darkTheme;
  }

  getAutomaticThemeSetting() {
    return `${this.lightTheme}/${this.darkTheme}`;
  }

  apply(themeSetting) {
    this.onDone(themeSetting);
  }

  cancel() {
    this.preview(this.originalThemeSetting);
    this.onDone();
  }
}
