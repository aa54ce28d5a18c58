// The /settings screen: every setting as a row whose value cycles (or opens
// a submenu), searchable, each change reported to the caller's callback for
// it. The rows show the `config` the caller passes; nothing is stored here.
import { getSupportedThinkingLevels } from "../../ai/model-kinds.js";
import { getCapabilities } from "../../pi-tui/capabilities.js";
import { Container } from "../../pi-tui/components/container.js";
import { SettingsList } from "../../pi-tui/components/settings-list.js";
import { CACHE_WARMING_MODES, DEFAULT_WARNINGS, formatHttpIdleTimeoutMs, HTTP_IDLE_TIMEOUT_CHOICES } from "../settings-choices.js";
import { DynamicBorder } from "../ui/dynamic-border.js";
import { keyDisplayText } from "../ui/keybinding-hints.js";
import { currentTheme, getSettingsListTheme } from "../ui/theme.js";
import { ThemeSubmenu } from "./settings-theme-submenu.js";
import { SteppedSubmenu } from "./settings-submenu.js";

const MODEL_PICKER_LAYOUT = { minPrimaryColumnWidth: 12, maxPrimaryColumnWidth: 46 };
const VISIBLE_ROWS = 10;
const THINKING_DESCRIPTIONS = {
  off: "No reasoning",
  minimal: "Very brief reasoning (~1k tokens)",
  low: "Light reasoning (~2k tokens)",
  medium: "Moderate reasoning (~8k tokens)",
  high: "Deep reasoning (~16k tokens)",
  xhigh: "Extra-high reasoning (~32k tokens)",
  max: "Maximum reasoning",
};
const PROJECT_TRUST_LABELS = { ask: "Ask", always: "Always trust", never: "Never trust" };
// The level step's row that removes a model's override; no level is named so.
const CLEAR_OVERRIDE = "__clear__";
const BOOLEAN_VALUES = ["true", "false"];

const modelKey = (model) => `${model.provider}/${model.id}`;
const onOff = (value) => (value ? "true" : "false");

function overridesSummary(overrides) {
  const count = Object.keys(overrides).length;
  return count === 0 ? "none" : `${count} configured`;
}

function toggle(id, label, description, value) {
  return { id, label, description, currentValue: onOff(value), values: BOOLEAN_VALUES };
}

function choice(id, label, description, currentValue, values) {
  return { id, label, description, currentValue, values };
}

/** The Warnings submenu: one toggle per warning. */
class WarningSettingsSubmenu extends Container {
  constructor(warnings, onChange, onCancel) {
    super();
    this.state = { ...warnings };
    const items = [
      toggle(
        "anthropic-extra-usage",
        "Anthropic extra usage",
        "Warn when Anthropic subscription auth may use paid extra usage",
        this.state.anthropicExtraUsage ?? DEFAULT_WARNINGS.anthropicExtraUsage,
      ),
    ];
    const changed = (id, value) => {
      if (id !== "anthropic-extra-usage") return;
      this.state = { ...this.state, anthropicExtraUsage: value === "true" };
      onChange({ ...this.state });
    };
    this.settingsList = new SettingsList(items, Math.min(items.length, VISIBLE_ROWS), getSettingsListTheme(), changed, onCancel);
    this.addChild(this.settingsList);
  }

  handleInput(data) {
    this.settingsList.handleInput(data);
  }
}

/** How each row's new value reaches its callback. */
function changeHandlers(callbacks) {
  const flag = (name) => (value) => callbacks[name](value === "true");
  const integer = (name) => (value) => callbacks[name](parseInt(value, 10));
  const text = (name) => (value) => callbacks[name](value);
  return {
    autocompact: flag("onAutoCompactChange"),
    "show-images": flag("onShowImagesChange"),
    "image-width-cells": integer("onImageWidthCellsChange"),
    "auto-resize-images": flag("onAutoResizeImagesChange"),
    "block-images": flag("onBlockImagesChange"),
    "skill-commands": flag("onEnableSkillCommandsChange"),
    "steering-mode": text("onSteeringModeChange"),
    "follow-up-mode": text("onFollowUpModeChange"),
    transport: text("onTransportChange"),
    "share-destination": text("onSessionShareDestinationChange"),
    "http-idle-timeout": (value) => {
      const picked = HTTP_IDLE_TIMEOUT_CHOICES.find((item) => item.label === value);
      if (picked) callbacks.onHttpIdleTimeoutMsChange(picked.timeoutMs);
    },
    "cache-warming-mode": text("onCacheWarmingModeChange"),
    "hide-thinking": flag("onHideThinkingBlockChange"),
    "mermaid-rendering": text("onMermaidRenderingModeChange"),
    "cache-miss-notices": flag("onShowCacheMissNoticesChange"),
    "collapse-changelog": flag("onCollapseChangelogChange"),
    "quiet-startup": (value) => callbacks.onQuietStartupChange(value === "header" ? "header" : value === "true"),
    "install-telemetry": flag("onEnableInstallTelemetryChange"),
    "default-project-trust": (value) => {
      const trust = Object.keys(PROJECT_TRUST_LABELS).find((key) => PROJECT_TRUST_LABELS[key] === value);
      if (trust) callbacks.onDefaultProjectTrustChange(trust);
    },
    "double-escape-action": text("onDoubleEscapeActionChange"),
    "tree-filter-mode": text("onTreeFilterModeChange"),
    "show-hardware-cursor": flag("onShowHardwareCursorChange"),
    "editor-padding": integer("onEditorPaddingXChange"),
    "output-padding": (value) => callbacks.onOutputPadChange(value === "0" ? 0 : 1),
    "autocomplete-max-visible": integer("onAutocompleteMaxVisibleChange"),
    "clear-on-shrink": flag("onClearOnShrinkChange"),
    "terminal-progress": flag("onShowTerminalProgressChange"),
    "tui-mode": text("onTuiModeChange"),
    "fullscreen-exit-output": text("onFullscreenExitOutputChange"),
    "fullscreen-scrollbar": text("onFullscreenScrollbarChange"),
    "fullscreen-copy-on-select": flag("onFullscreenCopyOnSelectChange"),
    "fullscreen-wheel-scroll-lines": (value) => callbacks.onFullscreenWheelScrollLinesChange(value === "auto" ? "auto" : parseInt(value, 10)),
    theme: text("onThemeChange"),
  };
}

/** "auto", then the usual line counts with the configured one among them, ascending. */
function wheelScrollValues(configured) {
  const counts = [...new Set([1, 2, 3, 5, 10, configured])].filter((lines) => lines !== "auto");
  return ["auto", ...counts.sort((a, b) => a - b).map(String)];
}

export class SettingsSelectorComponent extends Container {
  constructor(config, callbacks) {
    super();
    const theme = currentTheme();
    const supportsImages = getCapabilities().images;
    let currentWarnings = { ...config.warnings };
    const thinkingOverrides = { ...config.modelThinkingLevels };
    const modelsByKey = new Map(config.availableDefaultModels.map((model) => [modelKey(model), model]));
    const defaultModelKey = modelsByKey.has(config.defaultModel) ? config.defaultModel : undefined;
    const currentModelKey = config.currentModel ? modelKey(config.currentModel) : undefined;

    // The model step lists the current model first, then the default one, then by provider.
    const modelRank = (model) => (modelKey(model) === currentModelKey ? 0 : modelKey(model) === defaultModelKey ? 1 : 2);
    const modelStep = {
      key: "model",
      title: "Per-Model Thinking Level",
      description: "Select a model to configure",
      options: () => {
        const sorted = [...config.availableDefaultModels].sort((a, b) => modelRank(a) - modelRank(b) || a.provider.localeCompare(b.provider));
        const items = sorted.map((model) => ({
          value: modelKey(model),
          label: `${model.id} ${theme.fg("muted", `[${model.provider}]`)}`,
          description: thinkingOverrides[modelKey(model)] ?? undefined,
        }));
        if (items.length === 0) items.push({ value: "__none__", label: "No models available", description: "Log in to a provider or configure an API key first" });
        return items;
      },
      preselect: () => currentModelKey ?? defaultModelKey,
      searchable: true,
      layout: MODEL_PICKER_LAYOUT,
    };
    const levelStep = {
      key: "level",
      title: (ctx) => {
        const model = modelsByKey.get(ctx.model);
        return `Thinking Level for ${model ? `${model.id} [${model.provider}]` : ctx.model}`;
      },
      description: "Select default thinking level for this model",
      options: (ctx) => {
        const model = modelsByKey.get(ctx.model);
        if (!model) return [];
        const active = thinkingOverrides[ctx.model];
        const levels = model.reasoning ? getSupportedThinkingLevels(model) : ["off"];
        const items = levels.map((level) => ({ value: level, label: `${level === active ? "✓ " : "  "}${level}`, description: THINKING_DESCRIPTIONS[level] }));
        if (active !== undefined) items.push({ value: CLEAR_OVERRIDE, label: "  (clear override)", description: `Revert to global default (${config.thinkingLevel})` });
        return items;
      },
      preselect: (ctx) => thinkingOverrides[ctx.model],
    };
    const thinkingSubmenu = (_currentValue, done) =>
      new SteppedSubmenu(
        [modelStep, levelStep],
        (selections) => {
          const model = modelsByKey.get(selections.model);
          if (!model) return;
          if (selections.level === CLEAR_OVERRIDE) {
            callbacks.onModelThinkingLevelRemove(model.provider, model.id);
            delete thinkingOverrides[selections.model];
          } else {
            callbacks.onModelThinkingLevelChange(model.provider, model.id, selections.level);
            thinkingOverrides[selections.model] = selections.level;
          }
        },
        () => done(overridesSummary(thinkingOverrides)),
        { loop: true },
      );

    const imageRows = supportsImages
      ? [
          toggle("show-images", "Show images", "Render images inline in terminal", config.showImages),
          choice("image-width-cells", "Image width", "Preferred inline image width in terminal cells", String(config.imageWidthCells), ["60", "80", "120"]),
        ]
      : [];
    const items = [
      toggle("autocompact", "Auto-compact", "Automatically compact context when it gets too large", config.autoCompact),
      ...imageRows,
      toggle("auto-resize-images", "Auto-resize images", "Resize large images to 2000x2000 max for better model compatibility", config.autoResizeImages),
      toggle("block-images", "Block images", "Prevent images from being sent to LLM providers", config.blockImages),
      toggle("skill-commands", "Skill commands", "Register skills as /skill:name commands", config.enableSkillCommands),
      toggle("show-hardware-cursor", "Show hardware cursor", "Use the terminal cursor instead of Pi's drawn cursor", config.showHardwareCursor),
      choice("editor-padding", "Editor padding", "Horizontal padding for input editor (0-3)", String(config.editorPaddingX), ["0", "1", "2", "3"]),
      choice("output-padding", "Output padding", "Horizontal padding for messages, tool output, and command output", String(config.outputPad), ["0", "1"]),
      choice("autocomplete-max-visible", "Autocomplete max items", "Max visible items in autocomplete dropdown (3-20)", String(config.autocompleteMaxVisible), ["3", "5", "7", "10", "15", "20"]),
      toggle("clear-on-shrink", "Clear on shrink", "Clear empty rows when content shrinks (may cause flicker)", config.clearOnShrink),
      toggle("terminal-progress", "Terminal progress", "Show OSC 9;4 progress indicators in the terminal tab bar", config.showTerminalProgress),
      choice(
        "steering-mode",
        "Steering mode",
        "Enter while streaming queues steering messages. 'one-at-a-time': deliver one, wait for response. 'all': deliver all at once.",
        config.steeringMode,
        ["one-at-a-time", "all"],
      ),
      choice(
        "follow-up-mode",
        "Follow-up mode",
        `${keyDisplayText("app.message.followUp")} queues follow-up messages until agent stops. 'one-at-a-time': deliver one, wait for response. 'all': deliver all at once.`,
        config.followUpMode,
        ["one-at-a-time", "all"],
      ),
      choice("transport", "Transport", "Preferred transport for providers that support multiple transports", config.transport, ["sse", "websocket", "websocket-cached", "auto"]),
      choice(
        "share-destination",
        "Session share destination",
        "Where to upload sessions with /share (auto prefers Radius when authenticated, otherwise GitHub Gist)",
        config.sessionShareDestination,
        ["auto", "gist", "radius"],
      ),
      choice(
        "http-idle-timeout",
        "HTTP idle timeout",
        "Maximum idle gap while waiting for HTTP headers or body chunks. Disable for local models that pause longer than five minutes.",
        formatHttpIdleTimeoutMs(config.httpIdleTimeoutMs),
        HTTP_IDLE_TIMEOUT_CHOICES.map((item) => item.label),
      ),
      choice(
        "cache-warming-mode",
        "Cache warming",
        "off; streaming while the agent runs; idle also between runs while continuation stays profitable",
        config.cacheWarmingMode,
        [...CACHE_WARMING_MODES],
      ),
      toggle("hide-thinking", "Hide thinking", "Hide thinking blocks in assistant responses", config.hideThinkingBlock),
      choice("mermaid-rendering", "Mermaid diagrams", "Render Mermaid code blocks as Unicode diagrams", config.mermaidRenderingMode, ["off", "final", "streaming"]),
      toggle("cache-miss-notices", "Cache miss notices", "Show transcript notices for cache costs and provider recovery diagnostics", config.showCacheMissNotices),
      toggle("collapse-changelog", "Collapse changelog", "Show condensed changelog after updates", config.collapseChangelog),
      choice(
        "quiet-startup",
        "Quiet startup",
        "Disable verbose printing at startup (header: keep only the startup header)",
        String(config.quietStartup),
        ["true", "header", "false"],
      ),
      toggle("install-telemetry", "Install telemetry", "Send an anonymous version/update ping after changelog-detected updates", config.enableInstallTelemetry),
      choice(
        "default-project-trust",
        "Default project trust",
        "Fallback behavior when no extension or saved trust decision decides project trust",
        PROJECT_TRUST_LABELS[config.defaultProjectTrust],
        Object.values(PROJECT_TRUST_LABELS),
      ),
      choice("double-escape-action", "Double-escape action", "Action when pressing Escape twice with empty editor", config.doubleEscapeAction, ["tree", "fork", "none"]),
      choice("tree-filter-mode", "Tree filter mode", "Default filter when opening /tree", config.treeFilterMode, ["default", "no-tools", "user-only", "labeled-only", "all"]),
      {
        id: "warnings",
        label: "Warnings",
        description: "Enable or disable individual warnings",
        currentValue: "configure",
        submenu: (_currentValue, done) =>
          new WarningSettingsSubmenu(
            currentWarnings,
            (warnings) => {
              currentWarnings = warnings;
              callbacks.onWarningsChange(warnings);
            },
            () => done(),
          ),
      },
      {
        id: "model-thinking",
        label: "Default thinking level per model",
        description: `Override the default thinking level for specific models. ${keyDisplayText("app.thinking.cycle")} cycles in-session.`,
        currentValue: overridesSummary(thinkingOverrides),
        submenu: thinkingSubmenu,
      },
      choice("tui-mode", "TUI mode", "Interface layout; regular mode uses the terminal's normal scrollback", config.tuiMode, ["regular", "fullscreen"]),
      choice(
        "fullscreen-exit-output",
        "Fullscreen exit output",
        "Print the transcript or only a session resume hint when exiting fullscreen mode",
        config.fullscreenExitOutput,
        ["transcript", "resume-hint"],
      ),
      choice("fullscreen-scrollbar", "Fullscreen scrollbar", "Scrollbar behavior in fullscreen mode; has no effect in regular mode", config.fullscreenScrollbar, ["auto", "always", "hidden"]),
      toggle(
        "fullscreen-copy-on-select",
        "Fullscreen copy on select",
        "Automatically copy selected text in fullscreen mode; disable to copy selections with Ctrl+X",
        config.fullscreenCopyOnSelect,
      ),
      choice(
        "fullscreen-wheel-scroll-lines",
        "Fullscreen wheel scrolling",
        "Lines per mouse-wheel event in fullscreen mode; 'auto' speeds up fast wheel spins where the terminal does not",
        String(config.fullscreenWheelScrollLines),
        wheelScrollValues(config.fullscreenWheelScrollLines),
      ),
      {
        id: "theme",
        label: "Theme",
        description: "Color theme for the interface",
        currentValue: config.currentTheme,
        submenu: (currentValue, done) => new ThemeSubmenu(currentValue, config.terminalTheme, config.availableThemes, callbacks, done),
      },
    ];

    const handlers = changeHandlers(callbacks);
    this.addChild(new DynamicBorder());
    this.settingsList = new SettingsList(items, VISIBLE_ROWS, getSettingsListTheme(), (id, value) => handlers[id]?.(value), callbacks.onCancel, {
      enableSearch: true,
    });
    this.addChild(this.settingsList);
    this.addChild(new DynamicBorder());
  }

  getSettingsList() {
    return this.settingsList;
  }
}
