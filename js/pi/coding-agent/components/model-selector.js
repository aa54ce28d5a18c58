// The /model picker: the models of configured providers (or the session's
// scoped ones, Tab switching), filtered as the user types, ten rows around
// the selection. It shows the runtime's snapshot at once and refreshes the
// catalogs behind it.
import { modelsAreEqual } from "../../ai/model-kinds.js";
import { Container } from "../../pi-tui/components/container.js";
import { Input } from "../../pi-tui/components/input.js";
import { Spacer, Text } from "../../pi-tui/components/text.js";
import { fuzzyFilter } from "../../pi-tui/fuzzy.js";
import { getKeybindings, getSelectPageIndex } from "../../pi-tui/keybindings.js";
import { refreshModelCatalogs } from "../model-catalog-refresh.js";
import { getDistinctModelName, getModelSelectorSearchText } from "../model-search.js";
import { DynamicBorder } from "../ui/dynamic-border.js";
import { keyDisplayText, keyHint } from "../ui/keybinding-hints.js";
import { currentTheme } from "../ui/theme.js";

const MAX_VISIBLE = 10;
const REFRESH_TIMEOUT_MS = 15_000;
const TIMED_OUT = "Model refresh timed out; showing cached models.";

const toItem = (model) => ({ provider: model.provider, id: model.id, model });
const itemKey = (item) => `${item.provider}\0${item.id}`;

function refreshErrorMessage(errors) {
  const providers = [...errors.keys()];
  if (providers.length === 1) return `Could not refresh ${providers[0]}; showing cached models.`;
  return `Could not refresh ${providers.length} model catalogs (${providers.join(", ")}); showing cached models.`;
}

export class ModelSelectorComponent extends Container {
  constructor(tui, currentModel, modelRuntime, scopedModels, onSelect, onCancel, initialSearchInput, onSelectAsDefault, defaultModel) {
    super();
    const theme = currentTheme();
    this.capturesViewportInput = true;
    this._focused = false;
    this.tui = tui;
    this.currentModel = currentModel;
    this.modelRuntime = modelRuntime;
    this.scopedModels = scopedModels;
    this.defaultModel = defaultModel;
    this.scope = scopedModels.length > 0 ? "scoped" : "all";
    this.onSelectCallback = onSelect;
    this.onSelectAsDefaultCallback = onSelectAsDefault;
    this.onCancelCallback = onCancel;
    this.allModels = [];
    this.scopedModelItems = [];
    this.activeModels = [];
    this.filteredModels = [];
    this.selectedIndex = 0;
    this.errorMessage = undefined;
    this.refreshStatusMessage = "Refreshing model catalogs…";
    this.refreshStatusSuccess = false;
    this.refreshAbortController = new AbortController();
    this.refreshTimeout = undefined;
    this.closed = false;
    this.scopeText = undefined;
    this.scopeHintText = undefined;

    this.addChild(new DynamicBorder());
    this.addChild(new Spacer(1));
    if (scopedModels.length > 0) {
      this.scopeText = new Text(this.getScopeText(), 0, 0);
      this.addChild(this.scopeText);
      this.scopeHintText = new Text(this.getScopeHintText(), 0, 0);
      this.addChild(this.scopeHintText);
    } else {
      this.addChild(new Text(theme.fg("warning", "Only showing models from configured providers. Use /login to add providers."), 0, 0));
    }
    this.addChild(new Spacer(1));
    this.searchInput = new Input();
    if (initialSearchInput) this.searchInput.setValue(initialSearchInput);
    // Enter in the search takes the highlighted row, the best match while filtering.
    this.searchInput.onSubmit = () => {
      const item = this.filteredModels[this.selectedIndex];
      if (item) this.handleSelect(item.model);
    };
    this.addChild(this.searchInput);
    this.addChild(new Spacer(1));
    this.listContainer = new Container();
    this.addChild(this.listContainer);
    this.addChild(new Spacer(1));
    if (this.onSelectAsDefaultCallback) {
      const hint = `  ${keyDisplayText("tui.select.confirm")} to select · ${keyDisplayText("app.models.save")} to set as default · ${keyDisplayText("tui.select.cancel")} to cancel`;
      this.addChild(new Text(theme.fg("dim", hint), 0, 0));
    }
    this.addChild(new DynamicBorder());

    this.loadModelsFromSnapshot();
    if (initialSearchInput) this.filterModels(initialSearchInput);
    else this.updateList();
    this.tui.requestRender();
    void this.refreshModels();
  }

  get focused() {
    return this._focused;
  }

  // The search input shows the terminal cursor (for IME) only while the picker has the focus.
  set focused(value) {
    this._focused = value;
    this.searchInput.focused = value;
  }

  loadModelsFromSnapshot() {
    this.allModels = this.sortModels(this.modelRuntime.getAvailableSnapshot().map(toItem));
    // A scoped model is shown as the runtime knows it now, when it still does.
    this.scopedModels = this.scopedModels.map((scoped) => {
      const fresh = this.modelRuntime.getModel(scoped.model.provider, scoped.model.id);
      return fresh ? { ...scoped, model: fresh } : scoped;
    });
    this.scopedModelItems = this.scopedModels.map((scoped) => toItem(scoped.model));
    this.activeModels = this.scope === "scoped" ? this.scopedModelItems : this.allModels;
    this.filteredModels = this.activeModels;
    const currentIndex = this.filteredModels.findIndex((item) => modelsAreEqual(this.currentModel, item.model));
    this.selectedIndex = currentIndex >= 0 ? currentIndex : Math.min(this.selectedIndex, Math.max(0, this.filteredModels.length - 1));
  }

  async refreshModels() {
    let timedOut = false;
    this.refreshTimeout = setTimeout(() => {
      timedOut = true;
      this.refreshAbortController.abort();
    }, REFRESH_TIMEOUT_MS);
    try {
      const result = await refreshModelCatalogs(this.modelRuntime, this.refreshAbortController.signal);
      if (this.closed) return;
      this.refreshStatusMessage = "";
      if (result.aborted && timedOut) this.errorMessage = TIMED_OUT;
      else if (result.errors.size > 0) this.errorMessage = refreshErrorMessage(result.errors);
      else {
        this.errorMessage = this.modelRuntime.getError();
        if (!this.errorMessage) {
          this.refreshStatusMessage = "Model catalogs refreshed.";
          this.refreshStatusSuccess = true;
        }
      }
      // The user may have moved while the refresh ran, and fresh catalogs can shift the rows.
      const selectedModel = this.filteredModels[this.selectedIndex]?.model;
      this.loadModelsFromSnapshot();
      this.filterModels(this.searchInput.getValue(), selectedModel);
      this.tui.requestRender();
    } catch (error) {
      if (this.closed) return;
      this.refreshStatusMessage = "";
      this.errorMessage = timedOut ? TIMED_OUT : `Could not refresh model catalogs: ${error instanceof Error ? error.message : String(error)}`;
      this.updateList();
      this.tui.requestRender();
    } finally {
      if (this.refreshTimeout) clearTimeout(this.refreshTimeout);
    }
  }

  /** Stops the refresh; the picker is done. */
  dispose() {
    if (this.closed) return;
    this.closed = true;
    if (this.refreshTimeout) clearTimeout(this.refreshTimeout);
    this.refreshAbortController.abort();
  }

  /** The current model first, then the default one, then by provider. */
  sortModels(items) {
    const rank = (item) => (modelsAreEqual(this.currentModel, item.model) ? 0 : this.isDefaultModel(item.model) ? 1 : 2);
    return [...items].sort((a, b) => rank(a) - rank(b) || a.provider.localeCompare(b.provider));
  }

  getScopeText() {
    const theme = currentTheme();
    const scopeWord = (scope) => theme.fg(this.scope === scope ? "accent" : "muted", scope);
    return `${theme.fg("muted", "Scope: ")}${scopeWord("all")}${theme.fg("muted", " | ")}${scopeWord("scoped")}`;
  }

  getScopeHintText() {
    return keyHint("tui.input.tab", "scope") + currentTheme().fg("muted", " (all/scoped)");
  }

  isDefaultModel(model) {
    return this.defaultModel?.provider === model.provider && this.defaultModel.id === model.id;
  }

  /** A query that starts the word "default" puts the default model on top. */
  isDefaultSearch(query) {
    const normalized = query.trim().toLowerCase();
    return normalized.length > 0 && "default".startsWith(normalized);
  }

  setScope(scope) {
    if (this.scope === scope) return;
    this.scope = scope;
    this.activeModels = scope === "scoped" ? this.scopedModelItems : this.allModels;
    const currentIndex = this.activeModels.findIndex((item) => modelsAreEqual(this.currentModel, item.model));
    this.selectedIndex = currentIndex >= 0 ? currentIndex : 0;
    this.filterModels(this.searchInput.getValue());
    this.scopeText?.setText(this.getScopeText());
  }

  filterModels(query, preferredModel) {
    if (!query) this.filteredModels = this.activeModels;
    else {
      const matches = fuzzyFilter(this.activeModels, query, (item) => {
        const searchText = getModelSelectorSearchText({ id: item.id, provider: item.provider, name: item.model.name });
        return `${searchText}${this.isDefaultModel(item.model) ? " default" : ""}`;
      });
      if (this.isDefaultSearch(query)) {
        const defaults = this.activeModels.filter((item) => this.isDefaultModel(item.model));
        const defaultKeys = new Set(defaults.map(itemKey));
        this.filteredModels = [...defaults, ...matches.filter((item) => !defaultKeys.has(itemKey(item)))];
      } else this.filteredModels = matches;
    }
    // The preferred model stays selected while listed; a new query highlights the best match; a
    // cleared one keeps the position, within the restored list.
    const preferredIndex = preferredModel ? this.filteredModels.findIndex((item) => modelsAreEqual(preferredModel, item.model)) : -1;
    if (preferredIndex >= 0) this.selectedIndex = preferredIndex;
    else this.selectedIndex = query ? 0 : Math.min(this.selectedIndex, Math.max(0, this.filteredModels.length - 1));
    this.updateList();
  }

  modelRow(item, selected) {
    const theme = currentTheme();
    const cursor = selected ? theme.fg("accent", "→ ") : "  ";
    const currentMark = modelsAreEqual(this.currentModel, item.model) ? theme.fg("accent", "✓ ") : "  ";
    const id = selected ? theme.fg("accent", item.id) : item.id;
    const name = getDistinctModelName({ id: item.id, name: item.model.name });
    const nameText = name ? theme.fg("muted", ` (${name})`) : "";
    const defaultBadge = this.isDefaultModel(item.model) ? theme.fg("muted", " · default") : "";
    return `${cursor}${currentMark}${id}${nameText} ${theme.fg("muted", `[${item.provider}]`)}${defaultBadge}`;
  }

  updateList() {
    const theme = currentTheme();
    const count = this.filteredModels.length;
    this.listContainer.clear();
    const start = Math.max(0, Math.min(this.selectedIndex - Math.floor(MAX_VISIBLE / 2), count - MAX_VISIBLE));
    const end = Math.min(start + MAX_VISIBLE, count);
    for (let i = start; i < end; i++) {
      const item = this.filteredModels[i];
      if (item) this.listContainer.addChild(new Text(this.modelRow(item, i === this.selectedIndex), 0, 0));
    }
    if (start > 0 || end < count) this.listContainer.addChild(new Text(theme.fg("muted", `  (${this.selectedIndex + 1}/${count})`), 0, 0));
    if (this.errorMessage) {
      for (const line of this.errorMessage.split("\n")) this.listContainer.addChild(new Text(theme.fg("error", line), 0, 0));
    } else if (count === 0) {
      this.listContainer.addChild(new Text(theme.fg("muted", "  No matching models"), 0, 0));
    } else {
      this.listContainer.addChild(new Spacer(1));
      this.listContainer.addChild(new Text(theme.fg("muted", `  Model Name: ${this.filteredModels[this.selectedIndex].model.name}`), 0, 0));
    }
    if (this.refreshStatusMessage) {
      this.listContainer.addChild(new Spacer(1));
      this.listContainer.addChild(new Text(theme.fg(this.refreshStatusSuccess ? "success" : "muted", `  ${this.refreshStatusMessage}`), 0, 0));
    }
  }

  handleInput(keyData) {
    const keys = getKeybindings();
    const count = this.filteredModels.length;
    const pageIndex = getSelectPageIndex(keys, keyData, this.selectedIndex, count, MAX_VISIBLE);
    if (keys.matches(keyData, "tui.input.tab")) {
      if (this.scopedModelItems.length > 0) {
        this.setScope(this.scope === "all" ? "scoped" : "all");
        this.scopeHintText?.setText(this.getScopeHintText());
      }
      return;
    }
    // Up and down wrap around.
    if (keys.matches(keyData, "tui.select.up")) {
      if (count === 0) return;
      this.selectedIndex = this.selectedIndex === 0 ? count - 1 : this.selectedIndex - 1;
      this.updateList();
    } else if (keys.matches(keyData, "tui.select.down")) {
      if (count === 0) return;
      this.selectedIndex = this.selectedIndex === count - 1 ? 0 : this.selectedIndex + 1;
      this.updateList();
    } else if (pageIndex !== undefined) {
      if (count === 0) return;
      this.selectedIndex = pageIndex;
      this.updateList();
    } else if (keys.matches(keyData, "tui.select.confirm")) {
      const item = this.filteredModels[this.selectedIndex];
      if (item) this.handleSelect(item.model);
    } else if (keys.matches(keyData, "tui.select.cancel")) {
      this.dispose();
      this.onCancelCallback();
    } else if (keys.matches(keyData, "app.models.save") && this.onSelectAsDefaultCallback) {
      const item = this.filteredModels[this.selectedIndex];
      if (item) {
        this.dispose();
        this.onSelectAsDefaultCallback(item.model);
      }
    } else {
      // Only a changed query refilters: cursor keys in the input keep the selection.
      const before = this.searchInput.getValue();
      this.searchInput.handleInput(keyData);
      const query = this.searchInput.getValue();
      if (query !== before) this.filterModels(query);
    }
  }

  handleSelect(model) {
    this.dispose();
    this.onSelectCallback(model);
  }

  getSearchInput() {
    return this.searchInput;
  }
}
