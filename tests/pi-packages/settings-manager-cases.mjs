// Cases of pi-coding-agent's SettingsManager for the pi package case table
// (pi-packages-cases.mjs): defaults, migrations, merging the global and
// project files, what setters write back (only the fields they changed),
// trust, reloads, load and lock errors. File cases work in a fresh temp
// directory; the environment variables the getters read are cleared around
// every case. Results are reduced as in session-manager-cases.mjs.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { stabilizer } from "./session-manager-cases.mjs";

const ENV_NAMES = ["PI_CODING_AGENT_DIR", "VISUAL", "EDITOR", "PI_CLEAR_ON_SHRINK", "PI_HARDWARE_CURSOR"];

/** Every getter that takes no arguments, by name. */
const GETTERS = [
  "getSettings",
  "getGlobalSettings",
  "getProjectSettings",
  "isProjectTrusted",
  "getLastChangelogVersion",
  "getSessionDir",
  "getDefaultProvider",
  "getDefaultModel",
  "getSteeringMode",
  "getFollowUpMode",
  "getThemeSetting",
  "getTheme",
  "getDefaultThinkingLevel",
  "getAllModelThinkingLevels",
  "getTransport",
  "getSessionShareDestination",
  "getCompactionEnabled",
  "getCompactionReserveTokens",
  "getCompactionKeepRecentTokens",
  "getCompactionSettings",
  "getBranchSummarySettings",
  "getBranchSummarySkipPrompt",
  "getRetryEnabled",
  "getRetrySettings",
  "getHttpIdleTimeoutMs",
  "getCacheWarmingMode",
  "getProviderRetrySettings",
  "getWebSocketConnectTimeoutMs",
  "getHideThinkingBlock",
  "getShowCacheMissNotices",
  "getExternalEditorCommand",
  "getShellPath",
  "getQuietStartup",
  "getDefaultProjectTrust",
  "getShellCommandPrefix",
  "getNpmCommand",
  "getCollapseChangelog",
  "getEnableInstallTelemetry",
  "getEnableAnalytics",
  "getTrackingId",
  "getPackages",
  "getExtensionPaths",
  "getSkillPaths",
  "getPromptTemplatePaths",
  "getThemePaths",
  "getEnableSkillCommands",
  "getThinkingBudgets",
  "getTerminalCapabilityOverrides",
  "getShowImages",
  "getImageWidthCells",
  "getClearOnShrink",
  "getShowTerminalProgress",
  "getTuiMode",
  "getFullscreenExitOutput",
  "getFullscreenScrollbar",
  "getFullscreenCopyOnSelect",
  "getFullscreenWheelScrollLines",
  "getImageAutoResize",
  "getBlockImages",
  "getEnabledModels",
  "getDefaultTools",
  "getDoubleEscapeAction",
  "getTreeFilterMode",
  "getShowHardwareCursor",
  "getEditorPaddingX",
  "getOutputPad",
  "getAutocompleteMaxVisible",
  "getCodeBlockIndent",
  "getMermaidRenderingMode",
  "getWarnings",
];

function attempt(run) {
  try {
    return run();
  } catch (error) {
    return { threw: error?.message ?? String(error) };
  }
}

const readAll = (sm) => Object.fromEntries(GETTERS.map((name) => [name, attempt(() => sm[name]())]));
const errorsOf = (sm) => sm.drainErrors().map(({ error, ...rest }) => ({ ...rest, error: { name: error.name, message: error.message } }));

export function addSettingsManagerCases(add, agent) {
  const { SettingsManager } = agent;

  /** Runs `run(tmp)` with the getters' environment cleared and a fresh temp directory. */
  const isolated = (run, env = {}) => async () => {
    const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pihost-settings-")));
    const saved = Object.fromEntries(ENV_NAMES.map((name) => [name, process.env[name]]));
    for (const name of ENV_NAMES) delete process.env[name];
    process.env.PI_CODING_AGENT_DIR = path.join(tmp, "agent");
    Object.assign(process.env, env);
    try {
      return stabilizer(tmp)(await run(tmp));
    } finally {
      for (const name of ENV_NAMES) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  };
  const write = (file, value) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
    return file;
  };
  const read = (file) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : null);

  add("SettingsManager inMemory defaults", isolated(() => readAll(SettingsManager.inMemory())));
  add("SettingsManager defaults from the environment", isolated(() => readAll(SettingsManager.inMemory()), { EDITOR: "vim", PI_CLEAR_ON_SHRINK: "1", PI_HARDWARE_CURSOR: "1" }));
  add("SettingsManager VISUAL wins over EDITOR", isolated(() => SettingsManager.inMemory({ externalEditor: "  " }).getExternalEditorCommand(), { EDITOR: "vim", VISUAL: "code -w" }));

  const everything = {
    lastChangelogVersion: "1.2.3",
    extensionChangelogVersions: { ext: "0.1" },
    sessionDir: "~/sessions",
    defaultProvider: "anthropic",
    defaultModel: "claude",
    steeringMode: "all",
    followUpMode: "",
    theme: "dark",
    defaultThinkingLevel: "high",
    modelThinkingLevels: { "a/b": "low" },
    transport: "sse",
    sessionShareDestination: "radius",
    compaction: { enabled: false, reserveTokens: 100, keepRecentTokens: 200, modelOverrides: { "p/m": { reserveTokens: 5 }, "p/bad": 3, "p/neg": { keepRecentTokens: -1 } } },
    branchSummary: { reserveTokens: 10, skipPrompt: true },
    retry: { enabled: false, maxRetries: 9, baseDelayMs: 1, maxAgentDelayMs: 2, provider: { timeoutMs: 3, maxRetries: 4, maxRetryDelayMs: 5 } },
    httpIdleTimeoutMs: " 1500.7 ",
    cacheWarming: "streaming",
    websocketConnectTimeoutMs: "disabled",
    hideThinkingBlock: true,
    showCacheMissNotices: true,
    externalEditor: "emacs",
    shellPath: "file:///bin/zsh",
    quietStartup: "header",
    defaultProjectTrust: "always",
    shellCommandPrefix: "set -e",
    npmCommand: ["pnpm"],
    collapseChangelog: true,
    enableInstallTelemetry: false,
    enableAnalytics: true,
    trackingId: "t",
    packages: ["npm:x"],
    extensions: ["./e.ts"],
    skills: ["./skills"],
    prompts: ["./prompts"],
    themes: ["./themes"],
    enableSkillCommands: false,
    thinkingBudgets: { low: 1 },
    terminal: { images: false, trueColor: true, hyperlinks: "yes", showImages: false, imageWidthCells: 0.5, clearOnShrink: false, showTerminalProgress: true },
    tuiMode: "regular",
    fullscreenExitOutput: "resume-hint",
    fullscreenScrollbar: "hidden",
    fullscreenCopyOnSelect: false,
    fullscreenWheelScrollLines: 500,
    images: { autoResize: false, blockImages: true },
    enabledModels: ["a/*"],
    defaultTools: ["+grep", "-edit", 5],
    doubleEscapeAction: "fork",
    treeFilterMode: "user-only",
    showHardwareCursor: false,
    editorPaddingX: 2,
    outputPad: 0,
    autocompleteMaxVisible: 7,
    markdown: { codeBlockIndent: "\t", mermaid: "off" },
    warnings: { anthropicExtraUsage: false },
  };
  add("SettingsManager inMemory with every setting", isolated(() => readAll(SettingsManager.inMemory(everything))));
  add("SettingsManager getters with arguments", isolated(() => {
    const sm = SettingsManager.inMemory(everything);
    return {
      changelog: [sm.getExtensionChangelogVersion("ext"), sm.getExtensionChangelogVersion("none")],
      thinking: [sm.getModelThinkingLevel("a", "b"), sm.getModelThinkingLevel("a", "c")],
      compaction: [{ provider: "p", id: "m" }, { provider: "p", id: "bad" }, { provider: "p", id: "neg" }, { provider: "q", id: "m" }].map((model) => attempt(() => sm.getCompactionSettings(model))),
    };
  }));
  const oddValues = {
    theme: "./themes/mine.json",
    sessionShareDestination: "gist",
    compaction: { reserveTokens: 1.5 },
    httpIdleTimeoutMs: "soon",
    websocketConnectTimeoutMs: -5,
    quietStartup: "yes",
    defaultProjectTrust: "sometimes",
    terminal: { images: "kitty", imageWidthCells: "wide" },
    tuiMode: "fullscreen",
    fullscreenScrollbar: "never",
    fullscreenWheelScrollLines: 0.2,
    defaultTools: ["+grep", "-read"],
    treeFilterMode: "bogus",
    outputPad: 3,
    markdown: { mermaid: "final" },
    cacheWarming: "always",
    steeringMode: null,
    shellPath: "",
  };
  add("SettingsManager inMemory with odd values", isolated(() => readAll(SettingsManager.inMemory(oddValues))));
  add("SettingsManager defaultTools shapes", isolated(() =>
    [["read", "+grep", "-read"], [], ["-bash", "+bash", "+", "-"], "read", { a: 1 }, [1, 2], ["grep"]].map((defaultTools) => SettingsManager.inMemory({ defaultTools }).getDefaultTools()),
  ));
  add("SettingsManager migrates old settings", isolated(() =>
    [
      { queueMode: "all" },
      { queueMode: "all", steeringMode: "one-at-a-time" },
      { websockets: true },
      { websockets: false, transport: "auto" },
      { websockets: "yes" },
      { skills: { enableSkillCommands: false, customDirectories: ["./s"] } },
      { skills: { customDirectories: [] }, enableSkillCommands: true },
      { skills: ["./kept"] },
      { retry: { maxDelayMs: 5, provider: { maxRetries: 2 } } },
      { retry: { maxDelayMs: 5, provider: { maxRetryDelayMs: 9 } } },
      { retry: { maxDelayMs: "5" } },
      { retry: { maxDelayMs: 5, provider: "x" } },
    ].map((settings) => SettingsManager.inMemory(settings).getSettings()),
  ));

  add("SettingsManager setters", isolated(async () => {
    const sm = SettingsManager.inMemory({ terminal: { showImages: false }, compaction: 0, markdown: "" });
    const calls = [
      ["setLastChangelogVersion", "2.0"],
      ["setExtensionChangelogVersion", "ext", "1"],
      ["setDefaultProvider", "openai"],
      ["setDefaultModel", "gpt"],
      ["setDefaultModelAndProvider", "google", "gemini"],
      ["setSteeringMode", "all"],
      ["setFollowUpMode", "all"],
      ["setTheme", "light"],
      ["setDefaultThinkingLevel", "low"],
      ["setModelThinkingLevel", "a", "b", "high"],
      ["setModelThinkingLevel", "a", "c", "low"],
      ["removeModelThinkingLevel", "a", "b"],
      ["setTransport", "websocket"],
      ["setSessionShareDestination", "gist"],
      ["setCompactionEnabled", false],
      ["setRetryEnabled", false],
      ["setHttpIdleTimeoutMs", 1234.9],
      ["setHttpIdleTimeoutMs", -1],
      ["setHttpIdleTimeoutMs", Infinity],
      ["setCacheWarmingMode", "off"],
      ["setHideThinkingBlock", true],
      ["setShowCacheMissNotices", true],
      ["setShellPath", "/bin/fish"],
      ["setQuietStartup", true],
      ["setDefaultProjectTrust", "never"],
      ["setShellCommandPrefix", "source ~/.env"],
      ["setNpmCommand", ["bun"]],
      ["setNpmCommand", undefined],
      ["setCollapseChangelog", true],
      ["setEnableInstallTelemetry", false],
      ["setPackages", ["npm:a"]],
      ["setExtensionPaths", ["./x"]],
      ["setSkillPaths", ["./s"]],
      ["setPromptTemplatePaths", ["./p"]],
      ["setThemePaths", ["./t"]],
      ["setEnableSkillCommands", false],
      ["setShowImages", true],
      ["setImageWidthCells", 0.4],
      ["setClearOnShrink", true],
      ["setShowTerminalProgress", true],
      ["setTuiMode", "regular"],
      ["setFullscreenExitOutput", "resume-hint"],
      ["setFullscreenScrollbar", "always"],
      ["setFullscreenCopyOnSelect", false],
      ["setFullscreenWheelScrollLines", 0],
      ["setFullscreenWheelScrollLines", "auto"],
      ["setImageAutoResize", false],
      ["setBlockImages", true],
      ["setEnabledModels", ["x/*"]],
      ["setDoubleEscapeAction", "none"],
      ["setTreeFilterMode", "all"],
      ["setShowHardwareCursor", true],
      ["setEditorPaddingX", 9],
      ["setOutputPad", 0],
      ["setAutocompleteMaxVisible", 1],
      ["setMermaidRenderingMode", "final"],
      ["setWarnings", { anthropicExtraUsage: false }],
    ];
    const results = calls.map(([name, ...args]) => [name, attempt(() => sm[name](...args))]);
    sm.removeModelThinkingLevel("a", "c");
    sm.removeModelThinkingLevel("a", "c");
    await sm.flush();
    return { results, global: sm.getGlobalSettings(), all: readAll(sm), errors: errorsOf(sm) };
  }));
  add("SettingsManager analytics and device ids", isolated(async () => {
    const sm = SettingsManager.inMemory();
    const device = sm.getOrCreateDeviceId();
    const again = sm.getOrCreateDeviceId() === device;
    sm.setEnableAnalytics(false);
    const offTracking = sm.getTrackingId();
    sm.setEnableAnalytics(true);
    const tracking = sm.getTrackingId();
    sm.setEnableAnalytics(true);
    return { device, again, offTracking, tracking, kept: sm.getTrackingId() === tracking, global: sm.getGlobalSettings() };
  }));
  add("SettingsManager applyOverrides", isolated(() => {
    const sm = SettingsManager.inMemory({ compaction: { enabled: true, reserveTokens: 1 }, defaultTools: ["read"], theme: "dark" });
    sm.applyOverrides({ compaction: { reserveTokens: 2 }, defaultTools: ["+grep"], theme: undefined, packages: ["npm:o"] });
    const overridden = { settings: sm.getSettings(), global: sm.getGlobalSettings(), tools: sm.getDefaultTools() };
    sm.setTheme("light");
    return { overridden, afterSet: sm.getSettings() };
  }));

  // --- Files ------------------------------------------------------------------------------

  const project = (tmp) => path.join(tmp, "project");
  const globalFile = (tmp) => path.join(tmp, "agent/settings.json");
  const projectFile = (tmp) => path.join(tmp, "project/.pi/settings.json");

  add("SettingsManager create merges global and project files", isolated((tmp) => {
    write(globalFile(tmp), { theme: "dark", compaction: { enabled: false, reserveTokens: 1 }, defaultTools: ["read", "bash"], packages: ["npm:g"] });
    write(projectFile(tmp), `\uFEFF${JSON.stringify({ compaction: { reserveTokens: 2 }, defaultTools: ["+grep", "-bash"], packages: ["npm:p"], queueMode: "all" })}`);
    const sm = SettingsManager.create(project(tmp));
    const untrusted = SettingsManager.create(project(tmp), undefined, { projectTrusted: false });
    return {
      settings: sm.getSettings(),
      project: sm.getProjectSettings(),
      tools: sm.getDefaultTools(),
      untrusted: { settings: untrusted.getSettings(), trusted: untrusted.isProjectTrusted() },
      explicitAgentDir: SettingsManager.create(project(tmp), path.join(tmp, "elsewhere")).getSettings(),
      created: fs.readdirSync(tmp).sort(),
    };
  }));
  add("SettingsManager writes only what changed", isolated(async (tmp) => {
    write(globalFile(tmp), { theme: "dark", terminal: { showImages: false, imageWidthCells: 10 }, packages: ["npm:g"] });
    const sm = SettingsManager.create(project(tmp));
    // Another pi changes the file meanwhile: its changes to other fields survive.
    write(globalFile(tmp), { theme: "solarized", terminal: { imageWidthCells: 20 }, extra: true });
    sm.setShowImages(true);
    sm.setDefaultModel("m");
    const pending = read(globalFile(tmp));
    await sm.flush();
    return { pending, written: read(globalFile(tmp)), settings: sm.getSettings(), lock: fs.existsSync(`${globalFile(tmp)}.lock`) };
  }));
  add("SettingsManager writes a new global file", isolated(async (tmp) => {
    const sm = SettingsManager.create(project(tmp));
    const before = fs.existsSync(path.join(tmp, "agent"));
    sm.setTheme("light");
    await sm.flush();
    return { before, written: read(globalFile(tmp)), agentDir: fs.readdirSync(path.join(tmp, "agent")) };
  }));
  add("SettingsManager project settings and trust", isolated(async (tmp) => {
    write(projectFile(tmp), { skills: ["./old"], theme: "p" });
    const sm = SettingsManager.create(project(tmp), undefined, { projectTrusted: false });
    const refused = attempt(() => sm.setProjectSkillPaths(["./new"]));
    sm.setProjectTrusted(true);
    const trusted = sm.getSettings();
    sm.setProjectSkillPaths(["./new"]);
    sm.setProjectPackages(["npm:p"]);
    sm.setProjectExtensionPaths(["./e"]);
    sm.setProjectPromptTemplatePaths(["./p"]);
    sm.setProjectThemePaths(["./t"]);
    await sm.flush();
    const written = read(projectFile(tmp));
    sm.setProjectTrusted(false);
    const distrusted = { settings: sm.getSettings(), project: sm.getProjectSettings() };
    sm.setProjectTrusted(false);
    return { refused, trusted, written, distrusted, errors: errorsOf(sm) };
  }));
  add("SettingsManager broken files are reported and never written", isolated(async (tmp) => {
    write(globalFile(tmp), "{ not json");
    write(projectFile(tmp), "[1, 2]");
    const sm = SettingsManager.create(project(tmp));
    const loaded = { settings: sm.getSettings(), errors: errorsOf(sm) };
    sm.setTheme("light");
    await sm.flush();
    const afterSet = { file: read(globalFile(tmp)), settings: sm.getSettings(), errors: errorsOf(sm) };
    write(globalFile(tmp), { theme: "fixed" });
    await sm.reload();
    const reloaded = { settings: sm.getSettings(), errors: errorsOf(sm) };
    write(globalFile(tmp), "null");
    await sm.reload();
    return { loaded, afterSet, reloaded, brokenAgain: { settings: sm.getSettings(), errors: errorsOf(sm) } };
  }));
  add("SettingsManager reload", isolated(async (tmp) => {
    write(globalFile(tmp), { theme: "dark" });
    const sm = SettingsManager.create(project(tmp));
    sm.applyOverrides({ theme: "override" });
    sm.setDefaultModel("m");
    write(projectFile(tmp), { theme: "project" });
    await sm.reload();
    return { settings: sm.getSettings(), file: read(globalFile(tmp)) };
  }));
  add("SettingsManager waits for a held lock", isolated(async (tmp) => {
    write(globalFile(tmp), { theme: "dark" });
    fs.mkdirSync(`${globalFile(tmp)}.lock`);
    const sm = SettingsManager.create(project(tmp));
    const loadErrors = errorsOf(sm).map((error) => [error.scope, error.error.message]);
    fs.rmdirSync(`${globalFile(tmp)}.lock`);
    const stale = `${globalFile(tmp)}.lock`;
    fs.mkdirSync(stale);
    fs.utimesSync(stale, new Date(0), new Date(0));
    // The first manager never writes: its global file failed to load.
    sm.setTheme("light");
    await sm.flush();
    const unwritten = read(globalFile(tmp));
    // A lock this old was left by a crashed process and is taken over.
    const second = SettingsManager.create(project(tmp));
    second.setTheme("blue");
    await second.flush();
    return { loadErrors, settings: sm.getSettings(), unwritten, written: read(globalFile(tmp)), lockLeft: fs.existsSync(stale), errors: [...errorsOf(sm), ...errorsOf(second)] };
  }));
  add("SettingsManager fromStorage", isolated(async () => {
    const log = [];
    const texts = { global: JSON.stringify({ theme: "g" }), project: "" };
    const storage = {
      withLock(scope, fn) {
        const next = fn(texts[scope]);
        log.push([scope, next === undefined ? "read" : "write"]);
        if (next !== undefined) texts[scope] = next;
      },
    };
    const sm = SettingsManager.fromStorage(storage);
    sm.setProjectPackages(["npm:x"]);
    sm.setTheme("h");
    await sm.flush();
    const failing = SettingsManager.fromStorage({
      withLock(scope) {
        throw new Error(`no ${scope}`);
      },
    });
    return { log, texts, failing: errorsOf(failing) };
  }));
}
