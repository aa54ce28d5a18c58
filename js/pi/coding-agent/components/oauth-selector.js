// The provider picker of /login and /logout: providers filtered as the
// user types, eight rows around the selection, each with how it is
// configured (and, when both kinds are listed, whether it takes an API key
// or an account).
import { Container } from "../../pi-tui/components/container.js";
import { Input } from "../../pi-tui/components/input.js";
import { Spacer, TruncatedText } from "../../pi-tui/components/text.js";
import { fuzzyFilter } from "../../pi-tui/fuzzy.js";
import { getKeybindings, getSelectPageIndex } from "../../pi-tui/keybindings.js";
import { DynamicBorder } from "../ui/dynamic-border.js";
import { currentTheme } from "../ui/theme.js";
import { getProviderBrandStyle, isPreferredProvider, startBrandAnimation } from "./provider-brand.js";

const MAX_VISIBLE = 8;
// A status source made only of environment variable names ("A_KEY, B_KEY").
const ENV_VARIABLE_LIST = /^[A-Z][A-Z0-9_]*(?:, [A-Z][A-Z0-9_]*)*$/;

const now = () => globalThis.performance?.now() ?? Date.now();

export function formatAuthSelectorProviderType(authType, subscription) {
  if (authType === "api_key") return "API key";
  return subscription === false ? "account" : "subscription";
}

/** The themed suffix saying whether and how a provider is configured, e.g. " ✓ configured". */
export function formatAuthSelectorProviderStatus(provider) {
  const theme = currentTheme();
  if (!provider.status) return theme.fg("muted", " • not configured");
  if (provider.status.type !== provider.authType) {
    const label = `${formatAuthSelectorProviderType(provider.status.type, provider.subscription)} configured`;
    return theme.fg("muted", " • ") + theme.fg("warning", label);
  }
  const { source } = provider.status;
  if (!source || source === "OAuth" || source === "stored credential") return theme.fg("success", " ✓ configured");
  return theme.fg("success", ` ✓ ${ENV_VARIABLE_LIST.test(source) ? `env: ${source}` : source}`);
}

export class OAuthSelectorComponent extends Container {
  /** With `tui`, the selected row of a partner provider shows its animated brand style. */
  constructor(mode, providers, onSelect, onCancel, initialSearchInput, tui) {
    super();
    const theme = currentTheme();
    this.capturesViewportInput = true;
    this._focused = false;
    this.mode = mode;
    this.allProviders = providers;
    this.filteredProviders = providers;
    this.selectedIndex = 0;
    this.showAuthTypeLabels = new Set(providers.map((provider) => provider.authType)).size > 1;
    this.onSelectCallback = onSelect;
    this.onCancelCallback = onCancel;
    this.animationStart = now();
    this.stopAnimation = undefined;
    this.addChild(new DynamicBorder());
    this.addChild(new Spacer(1));
    const title = mode === "login" ? "Select provider to configure:" : "Select provider to logout:";
    this.addChild(new TruncatedText(theme.fg("accent", theme.bold(title)), 1, 0));
    this.addChild(new Spacer(1));
    this.searchInput = new Input();
    if (initialSearchInput) this.searchInput.setValue(initialSearchInput);
    this.searchInput.onSubmit = () => this.selectCurrent();
    this.addChild(this.searchInput);
    this.addChild(new Spacer(1));
    this.listContainer = new Container();
    this.addChild(this.listContainer);
    this.addChild(new Spacer(1));
    this.addChild(new DynamicBorder());
    this.filterProviders(initialSearchInput ?? "");
    if (tui) this.stopAnimation = startBrandAnimation(tui, () => this.getSelectedBrandStyle() !== undefined);
  }

  get focused() {
    return this._focused;
  }

  set focused(value) {
    this._focused = value;
    this.searchInput.focused = value;
  }

  render(width) {
    // The rows are styled text: an animated one is rebuilt for every frame.
    if (this.stopAnimation && this.getSelectedBrandStyle()) this.updateList();
    return super.render(width);
  }

  /** Stops the brand animation. */
  dispose() {
    this.stopAnimation?.();
    this.stopAnimation = undefined;
  }

  getSelectedBrandStyle() {
    const provider = this.filteredProviders[this.selectedIndex];
    return provider && getProviderBrandStyle(provider.id);
  }

  selectCurrent() {
    const provider = this.filteredProviders[this.selectedIndex];
    if (provider) this.onSelectCallback(provider.id, provider.authType);
  }

  filterProviders(query) {
    this.filteredProviders = query
      ? fuzzyFilter(this.allProviders, query, (provider) => `${provider.name} ${provider.id} ${provider.authType} ${provider.method?.name ?? ""}`)
      : this.allProviders;
    // A query puts the best match, the top row, under the selection.
    this.selectedIndex = query ? 0 : Math.min(this.selectedIndex, Math.max(0, this.filteredProviders.length - 1));
    this.updateList();
  }

  providerRow(provider, selected) {
    const theme = currentTheme();
    // U+2726 is one column wide in every terminal, unlike star emoji.
    const partner = isPreferredProvider(provider.id) ? theme.fg("muted", " ✦") : "";
    const authType = this.showAuthTypeLabels ? theme.fg("muted", ` [${formatAuthSelectorProviderType(provider.authType, provider.subscription)}]`) : "";
    const suffix = partner + authType + formatAuthSelectorProviderStatus(provider);
    if (!selected) return `  ${theme.fg("text", provider.name)}${suffix}`;
    const brand = this.stopAnimation && getProviderBrandStyle(provider.id);
    const name = brand ? brand(provider.name, now() - this.animationStart) : theme.fg("accent", provider.name);
    return theme.fg("accent", "→ ") + name + suffix;
  }

  updateList() {
    const theme = currentTheme();
    const count = this.filteredProviders.length;
    this.listContainer.clear();
    const start = Math.max(0, Math.min(this.selectedIndex - Math.floor(MAX_VISIBLE / 2), count - MAX_VISIBLE));
    const end = Math.min(start + MAX_VISIBLE, count);
    for (let i = start; i < end; i++) {
      const provider = this.filteredProviders[i];
      if (provider) this.listContainer.addChild(new TruncatedText(this.providerRow(provider, i === this.selectedIndex), 1, 0));
    }
    if (start > 0 || end < count) {
      this.listContainer.addChild(new TruncatedText(theme.fg("muted", `  (${this.selectedIndex + 1}/${count})`), 1, 0));
    }
    if (count === 0) {
      let message = "No matching providers";
      if (this.allProviders.length === 0) message = this.mode === "login" ? "No providers available" : "No providers logged in. Use /login first.";
      this.listContainer.addChild(new TruncatedText(theme.fg("muted", `  ${message}`), 1, 0));
    }
  }

  handleInput(keyData) {
    const keys = getKeybindings();
    const count = this.filteredProviders.length;
    const pageIndex = getSelectPageIndex(keys, keyData, this.selectedIndex, count, MAX_VISIBLE);
    if (keys.matches(keyData, "tui.select.up")) {
      if (count === 0) return;
      this.selectedIndex = Math.max(0, this.selectedIndex - 1);
      this.updateList();
    } else if (keys.matches(keyData, "tui.select.down")) {
      if (count === 0) return;
      this.selectedIndex = Math.min(count - 1, this.selectedIndex + 1);
      this.updateList();
    } else if (pageIndex !== undefined) {
      if (count === 0) return;
      this.selectedIndex = pageIndex;
      this.updateList();
    } else if (keys.matches(keyData, "tui.select.confirm")) {
      this.selectCurrent();
    } else if (keys.matches(keyData, "tui.select.cancel")) {
      this.onCancelCallback();
    } else {
      // Only a changed query refilters: cursor keys in the input keep the selection.
      const before = this.searchInput.getValue();
      this.searchInput.handleInput(keyData);
      const query = this.searchInput.getValue();
      if (query !== before) this.filterProviders(query);
    }
  }
}
