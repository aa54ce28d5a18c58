// pi's SettingsManager: the global settings (agent directory) merged with
// the project's (.pi/settings.json, only when the project is trusted), with
// pi's defaults filled in by the getters. Setters change the global layer
// and write back only the fields this session changed, merged into the file
// as it is then, so two pi processes do not undo each other's settings.
// Writes are queued: flush() waits for them; failures land in drainErrors().
import { join } from "node:path";
import { hostEnv } from "../host-env.js";
import { DEFAULT_MAX_AGENT_RETRY_DELAY_MS } from "../ai/retry.js";
import { getAgentDir } from "./agent-dir.js";
import { expandPath, resolvePath } from "./paths.js";
import { FileSettingsStorage, InMemorySettingsStorage } from "./settings-storage.js";

const DEFAULTS = {
  transport: "auto",
  sessionShareDestination: "auto",
  steeringMode: "one-at-a-time",
  followUpMode: "one-at-a-time",
  compaction: { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 },
  branchSummary: { reserveTokens: 16384, skipPrompt: false },
  retry: { enabled: true, maxRetries: 3, baseDelayMs: 2000, maxAgentDelayMs: DEFAULT_MAX_AGENT_RETRY_DELAY_MS, provider: { maxRetryDelayMs: 60000 } },
  hideThinkingBlock: false,
  showCacheMissNotices: false,
  quietStartup: false,
  defaultProjectTrust: "ask",
  collapseChangelog: false,
  enableInstallTelemetry: true,
  enableAnalytics: false,
  enableSkillCommands: true,
  terminal: { showImages: true, imageWidthCells: 60, clearOnShrink: false, showTerminalProgress: false },
  images: { autoResize: true, blockImages: false },
  doubleEscapeAction: "tree",
  treeFilterMode: "default",
  editorPaddingX: 0,
  outputPad: 1,
  autocompleteMaxVisible: 5,
  markdown: { codeBlockIndent: "  ", mermaid: "streaming" },
  cacheWarming: "idle",
  tuiMode: "fullscreen",
  fullscreenExitOutput: "transcript",
  fullscreenScrollbar: "auto",
  fullscreenCopyOnSelect: true,
  fullscreenWheelScrollLines: "auto",
};
const DEFAULT_HTTP_IDLE_TIMEOUT_MS = 300_000;
const CACHE_WARMING_MODES = ["off", "streaming", "idle"];
const TREE_FILTER_MODES = ["default", "no-tools", "user-only", "labeled-only", "all"];
const DEFAULT_TOOL_NAMES = ["read", "bash", "edit", "write"];

const isPlainObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
const stripBom = (text) => (text.startsWith("\uFEFF") ? text.slice(1) : text);
const clamp = (value, low, high) => Math.max(low, Math.min(high, Math.floor(value)));

/** `overrides` laid over `base`: objects merge key by key, anything else replaces; undefined changes nothing. */
function mergeObjects(base, overrides) {
  const merged = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    merged[key] = isPlainObject(base[key]) && isPlainObject(value) ? mergeObjects(base[key], value) : value;
  }
  return merged;
}

const isToolModifier = (entry) => typeof entry === "string" && (entry.startsWith("+") || entry.startsWith("-"));

/** `+name` adds a tool and `-name` removes one, in order; plain names are skipped. */
function applyToolModifiers(base, entries) {
  const tools = [...base];
  for (const entry of entries) {
    if (!isToolModifier(entry)) continue;
    const name = entry.slice(1);
    const index = tools.indexOf(name);
    if (entry.startsWith("+") && index === -1 && name) tools.push(name);
    else if (entry.startsWith("-") && index !== -1) tools.splice(index, 1);
  }
  return tools;
}

/** Layers merged; a defaultTools list of only +/- entries adjusts the inherited one instead of replacing it. */
function mergeSettings(base, overrides) {
  const merged = mergeObjects(base, overrides);
  const inherited = base.defaultTools;
  const own = overrides.defaultTools;
  if (own === undefined) return inherited === undefined ? merged : { ...merged, defaultTools: inherited };
  // Files are not validated: anything but two lists simply replaces.
  const adjusts = Array.isArray(inherited) && Array.isArray(own) && own.every(isToolModifier);
  return { ...merged, defaultTools: adjusts ? [...inherited, ...own] : own };
}

/** Milliseconds from a number or numeric string ("disabled" is 0); undefined when unusable. */
function parseTimeoutMs(value) {
  if (typeof value === "string") {
    const text = value.trim();
    if (text.toLowerCase() === "disabled") return 0;
    return text.length === 0 ? undefined : parseTimeoutMs(Number(text));
  }
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;
}

function timeoutSetting(value, name) {
  const timeoutMs = parseTimeoutMs(value);
  if (timeoutMs === undefined && value !== undefined) throw new Error(`Invalid ${name} setting: ${String(value)}`);
  return timeoutMs;
}

// pi's settings code meets a malformed file with V8's own errors; these
// give the same texts on QuickJS, so extensions read what pi would say.
function assertCanSearch(settings) {
  if (settings === null || (typeof settings !== "object" && typeof settings !== "function")) {
    throw new TypeError(`Cannot use 'in' operator to search for 'queueMode' in ${String(settings)}`);
  }
}

function setProperty(target, key, value) {
  if (target !== null && typeof target !== "object" && typeof target !== "function") {
    throw new TypeError(`Cannot create property '${key}' on ${typeof target} '${String(target)}'`);
  }
  target[key] = value;
}

/** Older settings shapes brought up to date, in place. */
function migrateSettings(settings) {
  assertCanSearch(settings);
  if ("queueMode" in settings && !("steeringMode" in settings)) {
    settings.steeringMode = settings.queueMode;
    delete settings.queueMode;
  }
  if (!("transport" in settings) && typeof settings.websockets === "boolean") {
    settings.transport = settings.websockets ? "websocket" : "sse";
    delete settings.websockets;
  }
  // skills was once { enableSkillCommands, customDirectories }.
  if ("skills" in settings && isPlainObject(settings.skills)) {
    const old = settings.skills;
    if (old.enableSkillCommands !== undefined && settings.enableSkillCommands === undefined) settings.enableSkillCommands = old.enableSkillCommands;
    if (Array.isArray(old.customDirectories) && old.customDirectories.length > 0) settings.skills = old.customDirectories;
    else delete settings.skills;
  }
  // retry.maxDelayMs became retry.provider.maxRetryDelayMs.
  if ("retry" in settings && isPlainObject(settings.retry)) {
    const retry = settings.retry;
    const provider = typeof retry.provider === "object" && retry.provider !== null ? retry.provider : undefined;
    if (typeof retry.maxDelayMs === "number" && (provider?.maxRetryDelayMs === undefined || provider?.maxRetryDelayMs === null)) {
      retry.provider = { ...(provider ?? {}), maxRetryDelayMs: retry.maxDelayMs };
    }
    delete retry.maxDelayMs;
  }
  return settings;
}

function loadScope(storage, scope, projectTrusted = true) {
  if (scope === "project" && !projectTrusted) return {};
  let text;
  storage.withLock(scope, (current) => {
    text = current;
    return undefined;
  });
  return text ? migrateSettings(JSON.parse(stripBom(text))) : {};
}

/** loadScope, with a file that fails to parse read as empty and its error returned. */
function tryLoadScope(storage, scope, projectTrusted) {
  try {
    return { settings: loadScope(storage, scope, projectTrusted), error: null };
  } catch (error) {
    return { settings: {}, error };
  }
}

function settingsError(scope, error, path) {
  return { scope, ...(path ? { path } : {}), error: error instanceof Error ? error : new Error(String(error)) };
}

/** Which top-level fields (and which keys of object fields) this session changed in one scope. */
class ChangedFields {
  fields = new Set();
  nested = new Map();

  mark(field, key) {
    this.fields.add(field);
    if (!key) return;
    if (!this.nested.has(field)) this.nested.set(field, new Set());
    this.nested.get(field).add(key);
  }

  clear() {
    this.fields.clear();
    this.nested.clear();
  }

  copy() {
    const copy = new ChangedFields();
    copy.fields = new Set(this.fields);
    for (const [field, keys] of this.nested) copy.nested.set(field, new Set(keys));
    return copy;
  }
}

export class SettingsManager {
  #storage;
  #global;
  #project;
  #effective;
  #projectTrusted;
  #changed = { global: new ChangedFields(), project: new ChangedFields() };
  // A file that failed to load is never written: saving would replace what the user has to fix.
  #loadErrors;
  #writes = Promise.resolve();
  #errors;
  #paths;

  // Private in pi: use create, fromStorage or inMemory.
  constructor(storage, global, project, loadErrors, errors, projectTrusted, paths) {
    this.#storage = storage;
    this.#global = global;
    this.#project = project;
    this.#loadErrors = loadErrors;
    this.#errors = errors;
    this.#projectTrusted = projectTrusted;
    this.#paths = paths;
    this.#effective = mergeSettings(global, project);
  }

  /** Settings from `agentDir`/settings.json and `cwd`/.pi/settings.json. */
  static create(cwd, agentDir = getAgentDir(), options = {}) {
    const resolvedCwd = resolvePath(cwd);
    const resolvedAgentDir = resolvePath(agentDir);
    return SettingsManager.#fromStorage(new FileSettingsStorage(resolvedCwd, resolvedAgentDir), options, {
      global: join(resolvedAgentDir, "settings.json"),
      project: join(resolvedCwd, ".pi", "settings.json"),
    });
  }

  /** Settings kept by any `{ withLock(scope, fn) }` storage. */
  static fromStorage(storage, options = {}) {
    return SettingsManager.#fromStorage(storage, options, {});
  }

  /** Settings that start as `settings` (global) and are never written to disk. */
  static inMemory(settings = {}, options = {}) {
    const storage = new InMemorySettingsStorage();
    const initial = migrateSettings(structuredClone(settings));
    storage.withLock("global", () => JSON.stringify(initial, null, 2));
    return SettingsManager.fromStorage(storage, options);
  }

  static #fromStorage(storage, options, paths) {
    const projectTrusted = options.projectTrusted ?? true;
    const global = tryLoadScope(storage, "global");
    const project = tryLoadScope(storage, "project", projectTrusted);
    const errors = [];
    if (global.error) errors.push(settingsError("global", global.error, paths.global));
    if (project.error) errors.push(settingsError("project", project.error, paths.project));
    const loadErrors = { global: global.error, project: project.error };
    return new SettingsManager(storage, global.settings, project.settings, loadErrors, errors, projectTrusted, paths);
  }

  #remerge() {
    this.#effective = mergeSettings(this.#global, this.#project);
  }

  #recordError(scope, error) {
    this.#errors.push(settingsError(scope, error, this.#paths[scope]));
  }

  /** The effective settings (a copy). */
  getSettings() {
    return structuredClone(this.#effective);
  }

  getGlobalSettings() {
    return structuredClone(this.#global);
  }

  getProjectSettings() {
    return structuredClone(this.#project);
  }

  isProjectTrusted() {
    return this.#projectTrusted;
  }

  /** Trusting a project loads its settings; distrusting drops them. */
  setProjectTrusted(trusted) {
    if (this.#projectTrusted === trusted) return;
    this.#projectTrusted = trusted;
    this.#changed.project.clear();
    if (!trusted) {
      this.#project = {};
      this.#loadErrors.project = null;
    } else {
      const project = tryLoadScope(this.#storage, "project", trusted);
      this.#project = project.settings;
      this.#loadErrors.project = project.error;
      if (project.error) this.#recordError("project", project.error);
    }
    this.#remerge();
  }

  /** Reads both files again once pending writes are done; a file that fails keeps its last good settings. */
  async reload() {
    await this.#writes;
    const global = tryLoadScope(this.#storage, "global");
    if (global.error) this.#recordError("global", global.error);
    else this.#global = global.settings;
    this.#loadErrors.global = global.error;
    this.#changed.global.clear();
    this.#changed.project.clear();
    const project = tryLoadScope(this.#storage, "project", this.#projectTrusted);
    if (project.error) this.#recordError("project", project.error);
    else this.#project = project.settings;
    this.#loadErrors.project = project.error;
    this.#remerge();
  }

  /** Lays `overrides` over the effective settings for this process only (until the next change). */
  applyOverrides(overrides) {
    this.#effective = mergeSettings(this.#effective, overrides);
  }

  #assertProjectWritable() {
    if (!this.#projectTrusted) throw new Error("Project is not trusted; refusing to write project settings");
  }

  #enqueueWrite(scope, write) {
    this.#writes = this.#writes
      .then(() => {
        if (scope === "project") this.#assertProjectWritable();
        write();
        this.#changed[scope].clear();
      })
      .catch((error) => this.#recordError(scope, error));
  }

  /** Writes the changed fields of `snapshot` into the scope's file as it is now, keeping everything else there. */
  #persist(scope, snapshot, changed) {
    this.#storage.withLock(scope, (current) => {
      const onDisk = current ? migrateSettings(JSON.parse(stripBom(current))) : {};
      const next = { ...onDisk };
      for (const field of changed.fields) {
        const value = snapshot[field];
        if (changed.nested.has(field) && typeof value === "object" && value !== null) {
          const nested = { ...(onDisk[field] ?? {}) };
          for (const key of changed.nested.get(field)) nested[key] = value[key];
          next[field] = nested;
        } else {
          next[field] = value;
        }
      }
      return JSON.stringify(next, null, 2);
    });
  }

  #save() {
    this.#remerge();
    if (this.#loadErrors.global) return;
    const snapshot = structuredClone(this.#global);
    const changed = this.#changed.global.copy();
    this.#enqueueWrite("global", () => this.#persist("global", snapshot, changed));
  }

  #saveProject(settings) {
    this.#assertProjectWritable();
    this.#project = structuredClone(settings);
    this.#remerge();
    if (this.#loadErrors.project) return;
    const snapshot = structuredClone(this.#project);
    const changed = this.#changed.project.copy();
    this.#enqueueWrite("project", () => this.#persist("project", snapshot, changed));
  }

  #updateProject(field, value) {
    this.#assertProjectWritable();
    const project = structuredClone(this.#project);
    project[field] = value;
    this.#changed.project.mark(field);
    this.#saveProject(project);
  }

  /** Sets a global field and saves it. */
  #set(field, value) {
    this.#global[field] = value;
    this.#changed.global.mark(field);
    this.#save();
  }

  /** Sets one key of a global object field (created when missing) and saves just that key. */
  #setNested(field, key, value) {
    if (!this.#global[field]) this.#global[field] = {};
    this.#global[field][key] = value;
    this.#changed.global.mark(field, key);
    this.#save();
  }

  /** Waits for queued writes. */
  async flush() {
    await this.#writes;
  }

  /** Load and write errors so far (each { scope, path?, error }), forgetting them. */
  drainErrors() {
    const drained = this.#errors;
    this.#errors = [];
    return drained;
  }

  // --- Getters and setters ----------------------------------------------------------------

  getLastChangelogVersion() {
    return this.#effective.lastChangelogVersion;
  }

  setLastChangelogVersion(version) {
    this.#set("lastChangelogVersion", version);
  }

  getExtensionChangelogVersion(key) {
    return this.#effective.extensionChangelogVersions?.[key];
  }

  setExtensionChangelogVersion(key, version) {
    this.#global.extensionChangelogVersions = { ...(this.#global.extensionChangelogVersions ?? {}), [key]: version };
    this.#changed.global.mark("extensionChangelogVersions", key);
    this.#save();
  }

  getSessionDir() {
    const sessionDir = this.#effective.sessionDir;
    return sessionDir ? expandPath(sessionDir) : sessionDir;
  }

  getDefaultProvider() {
    return this.#effective.defaultProvider;
  }

  getDefaultModel() {
    return this.#effective.defaultModel;
  }

  setDefaultProvider(provider) {
    this.#set("defaultProvider", provider);
  }

  setDefaultModel(modelId) {
    this.#set("defaultModel", modelId);
  }

  setDefaultModelAndProvider(provider, modelId) {
    this.#global.defaultProvider = provider;
    this.#global.defaultModel = modelId;
    this.#changed.global.mark("defaultProvider");
    this.#changed.global.mark("defaultModel");
    this.#save();
  }

  getSteeringMode() {
    return this.#effective.steeringMode || DEFAULTS.steeringMode;
  }

  setSteeringMode(mode) {
    this.#set("steeringMode", mode);
  }

  getFollowUpMode() {
    return this.#effective.followUpMode || DEFAULTS.followUpMode;
  }

  setFollowUpMode(mode) {
    this.#set("followUpMode", mode);
  }

  getThemeSetting() {
    const theme = this.#effective.theme;
    return typeof theme === "string" ? theme : undefined;
  }

  /** The theme's name; a path to a theme file is not one. */
  getTheme() {
    const theme = this.getThemeSetting();
    return theme?.includes("/") ? undefined : theme;
  }

  setTheme(theme) {
    this.#set("theme", theme);
  }

  getDefaultThinkingLevel() {
    return this.#effective.defaultThinkingLevel;
  }

  setDefaultThinkingLevel(level) {
    this.#set("defaultThinkingLevel", level);
  }

  getModelThinkingLevel(provider, modelId) {
    return this.#effective.modelThinkingLevels?.[`${provider}/${modelId}`];
  }

  getAllModelThinkingLevels() {
    return { ...(this.#effective.modelThinkingLevels ?? {}) };
  }

  setModelThinkingLevel(provider, modelId, level) {
    if (!this.#global.modelThinkingLevels) this.#global.modelThinkingLevels = {};
    this.#global.modelThinkingLevels[`${provider}/${modelId}`] = level;
    this.#changed.global.mark("modelThinkingLevels");
    this.#save();
  }

  removeModelThinkingLevel(provider, modelId) {
    const levels = this.#global.modelThinkingLevels;
    if (!levels) return;
    delete levels[`${provider}/${modelId}`];
    if (Object.keys(levels).length === 0) delete this.#global.modelThinkingLevels;
    this.#changed.global.mark("modelThinkingLevels");
    this.#save();
  }

  getTransport() {
    return this.#effective.transport ?? DEFAULTS.transport;
  }

  setTransport(transport) {
    this.#set("transport", transport);
  }

  getSessionShareDestination() {
    const destination = this.#effective.sessionShareDestination;
    return destination === "gist" || destination === "radius" ? destination : DEFAULTS.sessionShareDestination;
  }

  setSessionShareDestination(destination) {
    this.#set("sessionShareDestination", destination);
  }

  getCompactionEnabled() {
    return this.#effective.compaction?.enabled ?? DEFAULTS.compaction.enabled;
  }

  setCompactionEnabled(enabled) {
    this.#setNested("compaction", "enabled", enabled);
  }

  /** A compaction token budget: the model's override, else the setting, else pi's default; invalid values throw. */
  #compactionTokens(field, model) {
    const compaction = this.#effective.compaction;
    const isCount = (value) => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
    const ordinary = compaction?.[field];
    if (ordinary !== undefined && !isCount(ordinary)) {
      throw new Error(`Invalid compaction.${field} setting: ${String(ordinary)}. Expected a non-negative safe integer.`);
    }
    const modelKey = model ? `${model.provider}/${model.id}` : undefined;
    const entry = modelKey !== undefined ? compaction?.modelOverrides?.[modelKey] : undefined;
    if (entry !== undefined && !isPlainObject(entry)) {
      throw new Error(`Invalid compaction.modelOverrides["${modelKey}"] setting: ${String(entry)}. Expected an object.`);
    }
    const override = entry?.[field];
    if (override !== undefined && !isCount(override)) {
      throw new Error(`Invalid compaction.modelOverrides["${modelKey}"].${field} setting: ${String(override)}. Expected a non-negative safe integer.`);
    }
    return override ?? ordinary ?? DEFAULTS.compaction[field];
  }

  getCompactionReserveTokens(model) {
    return this.#compactionTokens("reserveTokens", model);
  }

  getCompactionKeepRecentTokens(model) {
    return this.#compactionTokens("keepRecentTokens", model);
  }

  getCompactionSettings(model) {
    return { enabled: this.getCompactionEnabled(), reserveTokens: this.getCompactionReserveTokens(model), keepRecentTokens: this.getCompactionKeepRecentTokens(model) };
  }

  getBranchSummarySettings() {
    return { reserveTokens: this.#effective.branchSummary?.reserveTokens ?? DEFAULTS.branchSummary.reserveTokens, skipPrompt: this.getBranchSummarySkipPrompt() };
  }

  getBranchSummarySkipPrompt() {
    return this.#effective.branchSummary?.skipPrompt ?? DEFAULTS.branchSummary.skipPrompt;
  }

  getRetryEnabled() {
    return this.#effective.retry?.enabled ?? DEFAULTS.retry.enabled;
  }

  setRetryEnabled(enabled) {
    this.#setNested("retry", "enabled", enabled);
  }

  getRetrySettings() {
    const retry = this.#effective.retry;
    return {
      enabled: this.getRetryEnabled(),
      maxRetries: retry?.maxRetries ?? DEFAULTS.retry.maxRetries,
      baseDelayMs: retry?.baseDelayMs ?? DEFAULTS.retry.baseDelayMs,
      maxAgentDelayMs: retry?.maxAgentDelayMs ?? DEFAULTS.retry.maxAgentDelayMs,
    };
  }

  getHttpIdleTimeoutMs() {
    return timeoutSetting(this.#effective.httpIdleTimeoutMs, "httpIdleTimeoutMs") ?? DEFAULT_HTTP_IDLE_TIMEOUT_MS;
  }

  setHttpIdleTimeoutMs(timeoutMs) {
    if (!Number.isFinite(timeoutMs) || timeoutMs < 0) throw new Error(`Invalid httpIdleTimeoutMs setting: ${String(timeoutMs)}`);
    this.#set("httpIdleTimeoutMs", Math.floor(timeoutMs));
  }

  /** Only the global settings count: a project must not turn on warming, which costs money. */
  getCacheWarmingMode() {
    const mode = this.#global.cacheWarming;
    return mode !== undefined && CACHE_WARMING_MODES.includes(mode) ? mode : DEFAULTS.cacheWarming;
  }

  setCacheWarmingMode(mode) {
    this.#set("cacheWarming", mode);
  }

  getProviderRetrySettings() {
    const provider = this.#effective.retry?.provider;
    return { timeoutMs: provider?.timeoutMs, maxRetries: provider?.maxRetries, maxRetryDelayMs: provider?.maxRetryDelayMs ?? DEFAULTS.retry.provider.maxRetryDelayMs };
  }

  getWebSocketConnectTimeoutMs() {
    return timeoutSetting(this.#effective.websocketConnectTimeoutMs, "websocketConnectTimeoutMs");
  }

  getHideThinkingBlock() {
    return this.#effective.hideThinkingBlock ?? DEFAULTS.hideThinkingBlock;
  }

  getShowCacheMissNotices() {
    return this.#effective.showCacheMissNotices ?? DEFAULTS.showCacheMissNotices;
  }

  /** The configured editor, else $VISUAL or $EDITOR, else the platform's plain one. */
  getExternalEditorCommand() {
    const configured = this.#effective.externalEditor;
    if (typeof configured === "string" && configured.trim() !== "") return configured;
    const env = hostEnv();
    const fromEnv = env.VISUAL || env.EDITOR;
    if (fromEnv) return fromEnv;
    return globalThis.process?.platform === "win32" ? "notepad" : "nano";
  }

  setHideThinkingBlock(hide) {
    this.#set("hideThinkingBlock", hide);
  }

  setShowCacheMissNotices(show) {
    this.#set("showCacheMissNotices", show);
  }

  getShellPath() {
    const shellPath = this.#effective.shellPath;
    return shellPath ? expandPath(shellPath) : shellPath;
  }

  setShellPath(path) {
    this.#set("shellPath", path);
  }

  getQuietStartup() {
    const value = this.#effective.quietStartup;
    return value === true || value === "header" ? value : DEFAULTS.quietStartup;
  }

  setQuietStartup(quiet) {
    this.#set("quietStartup", quiet);
  }

  /** Only the global settings count: a project cannot vouch for itself. */
  getDefaultProjectTrust() {
    const value = this.#global.defaultProjectTrust;
    return value === "always" || value === "never" ? value : DEFAULTS.defaultProjectTrust;
  }

  setDefaultProjectTrust(defaultProjectTrust) {
    this.#set("defaultProjectTrust", defaultProjectTrust);
  }

  getShellCommandPrefix() {
    return this.#effective.shellCommandPrefix;
  }

  setShellCommandPrefix(prefix) {
    this.#set("shellCommandPrefix", prefix);
  }

  getNpmCommand() {
    return this.#effective.npmCommand ? [...this.#effective.npmCommand] : undefined;
  }

  setNpmCommand(command) {
    this.#set("npmCommand", command ? [...command] : undefined);
  }

  getCollapseChangelog() {
    return this.#effective.collapseChangelog ?? DEFAULTS.collapseChangelog;
  }

  setCollapseChangelog(collapse) {
    this.#set("collapseChangelog", collapse);
  }

  getEnableInstallTelemetry() {
    return this.#effective.enableInstallTelemetry ?? DEFAULTS.enableInstallTelemetry;
  }

  setEnableInstallTelemetry(enabled) {
    this.#set("enableInstallTelemetry", enabled);
  }

  getEnableAnalytics() {
    return this.#effective.enableAnalytics ?? DEFAULTS.enableAnalytics;
  }

  getTrackingId() {
    return this.#effective.trackingId;
  }

  /** Turning analytics on gives this install a tracking id, once. */
  setEnableAnalytics(enabled) {
    this.#global.enableAnalytics = enabled;
    this.#changed.global.mark("enableAnalytics");
    if (enabled && !this.#global.trackingId) {
      this.#global.trackingId = globalThis.crypto.randomUUID();
      this.#changed.global.mark("trackingId");
    }
    this.#save();
  }

  getOrCreateDeviceId() {
    if (!this.#global.deviceId) this.#set("deviceId", globalThis.crypto.randomUUID());
    return this.#global.deviceId;
  }

  getPackages() {
    return [...(this.#effective.packages ?? [])];
  }

  setPackages(packages) {
    this.#set("packages", packages);
  }

  setProjectPackages(packages) {
    this.#updateProject("packages", packages);
  }

  getExtensionPaths() {
    return [...(this.#effective.extensions ?? [])];
  }

  setExtensionPaths(paths) {
    this.#set("extensions", paths);
  }

  setProjectExtensionPaths(paths) {
    this.#updateProject("extensions", paths);
  }

  getSkillPaths() {
    return [...(this.#effective.skills ?? [])];
  }

  setSkillPaths(paths) {
    this.#set("skills", paths);
  }

  setProjectSkillPaths(paths) {
    this.#updateProject("skills", paths);
  }

  getPromptTemplatePaths() {
    return [...(this.#effective.prompts ?? [])];
  }

  setPromptTemplatePaths(paths) {
    this.#set("prompts", paths);
  }

  setProjectPromptTemplatePaths(paths) {
    this.#updateProject("prompts", paths);
  }

  getThemePaths() {
    return [...(this.#effective.themes ?? [])];
  }

  setThemePaths(paths) {
    this.#set("themes", paths);
  }

  setProjectThemePaths(paths) {
    this.#updateProject("themes", paths);
  }

  getEnableSkillCommands() {
    return this.#effective.enableSkillCommands ?? DEFAULTS.enableSkillCommands;
  }

  setEnableSkillCommands(enabled) {
    this.#set("enableSkillCommands", enabled);
  }

  getThinkingBudgets() {
    return this.#effective.thinkingBudgets;
  }

  /** What the settings force about the terminal (images false means "no images": null). */
  getTerminalCapabilityOverrides() {
    const terminal = this.#effective.terminal;
    const images = terminal?.images;
    return {
      ...(images === "kitty" || images === "iterm2" ? { images } : images === false ? { images: null } : {}),
      ...(typeof terminal?.trueColor === "boolean" ? { trueColor: terminal.trueColor } : {}),
      ...(typeof terminal?.hyperlinks === "boolean" ? { hyperlinks: terminal.hyperlinks } : {}),
    };
  }

  getShowImages() {
    return this.#effective.terminal?.showImages ?? DEFAULTS.terminal.showImages;
  }

  setShowImages(show) {
    this.#setNested("terminal", "showImages", show);
  }

  getImageWidthCells() {
    const width = this.#effective.terminal?.imageWidthCells;
    if (typeof width !== "number" || !Number.isFinite(width)) return DEFAULTS.terminal.imageWidthCells;
    return Math.max(1, Math.floor(width));
  }

  setImageWidthCells(width) {
    this.#setNested("terminal", "imageWidthCells", Math.max(1, Math.floor(width)));
  }

  /** The setting, else PI_CLEAR_ON_SHRINK=1, else off. */
  getClearOnShrink() {
    const setting = this.#effective.terminal?.clearOnShrink;
    if (setting !== undefined) return setting;
    if (hostEnv().PI_CLEAR_ON_SHRINK === "1") return true;
    return DEFAULTS.terminal.clearOnShrink;
  }

  setClearOnShrink(enabled) {
    this.#setNested("terminal", "clearOnShrink", enabled);
  }

  getShowTerminalProgress() {
    return this.#effective.terminal?.showTerminalProgress ?? DEFAULTS.terminal.showTerminalProgress;
  }

  setShowTerminalProgress(enabled) {
    this.#setNested("terminal", "showTerminalProgress", enabled);
  }

  getTuiMode() {
    return this.#effective.tuiMode === "regular" ? "regular" : DEFAULTS.tuiMode;
  }

  setTuiMode(mode) {
    this.#set("tuiMode", mode);
  }

  getFullscreenExitOutput() {
    return this.#effective.fullscreenExitOutput === "resume-hint" ? "resume-hint" : DEFAULTS.fullscreenExitOutput;
  }

  setFullscreenExitOutput(output) {
    this.#set("fullscreenExitOutput", output);
  }

  getFullscreenScrollbar() {
    const mode = this.#effective.fullscreenScrollbar;
    return mode === "always" || mode === "hidden" ? mode : DEFAULTS.fullscreenScrollbar;
  }

  setFullscreenScrollbar(mode) {
    this.#set("fullscreenScrollbar", mode);
  }

  getFullscreenCopyOnSelect() {
    return this.#effective.fullscreenCopyOnSelect ?? DEFAULTS.fullscreenCopyOnSelect;
  }

  setFullscreenCopyOnSelect(enabled) {
    this.#set("fullscreenCopyOnSelect", enabled);
  }

  getFullscreenWheelScrollLines() {
    const lines = this.#effective.fullscreenWheelScrollLines;
    return typeof lines === "number" && Number.isFinite(lines) ? clamp(lines, 1, 100) : DEFAULTS.fullscreenWheelScrollLines;
  }

  setFullscreenWheelScrollLines(lines) {
    this.#set("fullscreenWheelScrollLines", lines === "auto" ? lines : clamp(lines, 1, 100));
  }

  getImageAutoResize() {
    return this.#effective.images?.autoResize ?? DEFAULTS.images.autoResize;
  }

  setImageAutoResize(enabled) {
    this.#setNested("images", "autoResize", enabled);
  }

  getBlockImages() {
    return this.#effective.images?.blockImages ?? DEFAULTS.images.blockImages;
  }

  setBlockImages(blocked) {
    this.#setNested("images", "blockImages", blocked);
  }

  getEnabledModels() {
    return this.#effective.enabledModels;
  }

  /** The tools enabled at start: plain names replace pi's defaults, then +name/-name adjust them. */
  getDefaultTools() {
    const tools = this.#effective.defaultTools;
    if (tools === undefined) return undefined;
    const entries = Array.isArray(tools) ? tools.filter((tool) => typeof tool === "string") : [];
    const plain = entries.filter((entry) => !isToolModifier(entry));
    return applyToolModifiers(plain.length > 0 || entries.length === 0 ? plain : DEFAULT_TOOL_NAMES, entries);
  }

  setEnabledModels(patterns) {
    this.#set("enabledModels", patterns);
  }

  getDoubleEscapeAction() {
    return this.#effective.doubleEscapeAction ?? DEFAULTS.doubleEscapeAction;
  }

  setDoubleEscapeAction(action) {
    this.#set("doubleEscapeAction", action);
  }

  getTreeFilterMode() {
    const mode = this.#effective.treeFilterMode;
    return mode && TREE_FILTER_MODES.includes(mode) ? mode : DEFAULTS.treeFilterMode;
  }

  setTreeFilterMode(mode) {
    this.#set("treeFilterMode", mode);
  }

  getShowHardwareCursor() {
    return this.#effective.showHardwareCursor ?? hostEnv().PI_HARDWARE_CURSOR === "1";
  }

  setShowHardwareCursor(enabled) {
    this.#set("showHardwareCursor", enabled);
  }

  getEditorPaddingX() {
    return this.#effective.editorPaddingX ?? DEFAULTS.editorPaddingX;
  }

  setEditorPaddingX(padding) {
    this.#set("editorPaddingX", clamp(padding, 0, 3));
  }

  getOutputPad() {
    return this.#effective.outputPad === 0 ? 0 : DEFAULTS.outputPad;
  }

  setOutputPad(padding) {
    this.#set("outputPad", padding);
  }

  getAutocompleteMaxVisible() {
    return this.#effective.autocompleteMaxVisible ?? DEFAULTS.autocompleteMaxVisible;
  }

  setAutocompleteMaxVisible(maxVisible) {
    this.#set("autocompleteMaxVisible", clamp(maxVisible, 3, 20));
  }

  getCodeBlockIndent() {
    return this.#effective.markdown?.codeBlockIndent ?? DEFAULTS.markdown.codeBlockIndent;
  }

  getMermaidRenderingMode() {
    const mode = this.#effective.markdown?.mermaid;
    return mode === "off" || mode === "final" ? mode : DEFAULTS.markdown.mermaid;
  }

  setMermaidRenderingMode(mode) {
    // Unlike the other object settings, only a missing (not a falsy) markdown is replaced.
    this.#global.markdown ??= {};
    setProperty(this.#global.markdown, "mermaid", mode);
    this.#changed.global.mark("markdown", "mermaid");
    this.#save();
  }

  getWarnings() {
    return { ...(this.#effective.warnings ?? {}) };
  }

  setWarnings(warnings) {
    this.#set("warnings", { ...warnings });
  }
}
