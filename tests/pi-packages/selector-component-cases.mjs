// Cases of pi-coding-agent's pickers and the login dialog, for the UI case
// table (ui-cases.mjs): the lines they render at several widths after each
// state change and key, and what their callbacks heard. Everything they
// would reach outside (a browser, the clipboard, model catalogs) is kept
// out: login URLs that are not web URLs are never opened, and the model
// runtime is a stand-in whose refresh stays pending.

const WIDTHS = [12, 40, 80];
const UP = "\x1b[A";
const DOWN = "\x1b[B";
const ENTER = "\r";
const ESCAPE = "\x1b";
const TAB = "\t";
const PAGE_DOWN = "\x1b[6~";
const PAGE_UP = "\x1b[5~";
const LEFT = "\x1b[D";
const BACKSPACE = "\x7f";

function capture(fn) {
  try {
    const value = fn();
    return value === undefined ? { undefined: true } : { value };
  } catch (err) {
    return { error: String(err?.message ?? err) };
  }
}

/**
 * At each width, a fresh component from `make(log)` rendered as made and
 * after each step: a key string (given to `keyTarget(component)`) or a
 * [label, (component, log) => void] pair.
 */
function stepped(make, steps, { keyTarget = (component) => component, focus = false } = {}) {
  const out = {};
  for (const width of WIDTHS) {
    out[width] = capture(() => {
      const log = [];
      const component = make(log);
      try {
        if (focus) component.focused = true;
        const frames = [["made", [...component.render(width)]]];
        for (const step of steps) {
          if (typeof step === "string") {
            keyTarget(component).handleInput(step);
            frames.push([JSON.stringify(step), [...component.render(width)]]);
          } else {
            const [label, act] = step;
            act(component, log);
            frames.push([label, [...component.render(width)]]);
          }
        }
        // A copy: entries that settle later must not change a result already taken.
        return { frames, log: [...log] };
      } finally {
        component.dispose?.();
      }
    });
  }
  return out;
}

function model(provider, id, name) {
  return { provider, id, name, api: "openai-completions", baseUrl: "https://example.invalid", reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 128000, maxTokens: 4096 };
}

const MODELS = [
  model("openai", "gpt-5", "GPT-5"),
  model("anthropic", "claude-sonnet-4-5", "Claude Sonnet 4.5"),
  model("openrouter", "openai/gpt-5", "GPT-5 via proxy [rasmus@openrouter]"),
  model("google", "gemini-2.5-pro", "Gemini 2.5 Pro"),
  model("anthropic", "claude-opus-4-1", "Claude Opus 4.1"),
  model("mistral", "mistral-small-2603", "Mistral Small 4"),
  model("xai", "grok-4", "Grok 4"),
  model("groq", "llama-3.3-70b", "Llama 3.3 70B Versatile"),
  model("openai", "gpt-5-mini", "GPT-5 mini"),
  model("zai", "glm-4.6", "GLM 4.6"),
  model("deepseek", "deepseek-chat", "DeepSeek V3.1 (Chat)"),
  model("amazon-bedrock", "eu.anthropic.claude-sonnet-4-5-20250929-v1:0", "Claude Sonnet 4.5 (EU)"),
  model("cerebras", "qwen-3-coder", ""),
];

/** A model runtime as the picker uses it; its catalog refresh never settles, so the snapshot is what shows. */
function standInRuntime(models, log) {
  return {
    getAvailableSnapshot: () => models,
    getModel: (provider, id) => models.find((m) => m.provider === provider && m.id === id),
    getError: () => undefined,
    refresh: ({ signal }) => {
      log.push(["refresh", signal.aborted]);
      return new Promise(() => {});
    },
  };
}

/** Adds the cases through `needs(names, id, run)`; `agent` is pi-coding-agent, `tui` pi-tui. */
export function addSelectorComponentCases(needs, { agent, tui }) {
  addThemeSelectorCases(needs, agent);
  addLoginDialogCases(needs, agent);
  addModelSelectorCases(needs, agent);
  addSettingsSelectorCases(needs, agent, tui);
  addSessionSelectorCases(needs, agent, tui);
  addTreeSelectorCases(needs, agent, tui);
}

function addThemeSelectorCases(needs, agent) {
  const make = (current) => (log) =>
    new agent.ThemeSelectorComponent(current, (name) => log.push(["select", name]), () => log.push(["cancel"]), (name) => log.push(["preview", name]));
  const toList = { keyTarget: (selector) => selector.getSelectList() };
  needs(["ThemeSelectorComponent"], "ThemeSelectorComponent/dark", () => stepped(make("dark"), [DOWN, DOWN, UP, UP, UP, ENTER, ESCAPE], toList));
  needs(["ThemeSelectorComponent"], "ThemeSelectorComponent/unknownCurrent", () => stepped(make("solarized"), [UP, "x", ENTER], toList));
  needs(["ThemeSelectorComponent"], "ThemeSelectorComponent/system", () =>
    stepped(make("system"), [["selected", (selector, log) => log.push(["item", selector.getSelectList().getSelectedItem()])]]),
  );
}

function addLoginDialogCases(needs, agent) {
  const make = (...rest) => (log) => {
    const tui = { requestRender: () => log.push(["render"]) };
    return new agent.LoginDialogComponent(tui, ...rest.map((arg) => (arg === "ON_COMPLETE" ? (ok, message) => log.push(["complete", ok, message]) : arg)));
  };
  // The answer settles after the run (results are taken synchronously); the frames show what was typed.
  const ask = (label, call) => [label, (dialog) => void call(dialog).catch(() => {})];
  needs(["LoginDialogComponent"], "LoginDialogComponent/titles", () => ({
    id: stepped(make("anthropic", "ON_COMPLETE"), []),
    named: stepped(make("anthropic", "ON_COMPLETE", "Anthropic"), []),
    emptyName: stepped(make("openai", "ON_COMPLETE", ""), []),
    titled: stepped(make("openai", "ON_COMPLETE", "OpenAI", "Sign in to OpenAI (ChatGPT Plus/Pro)"), []),
  }));
  needs(["LoginDialogComponent"], "LoginDialogComponent/authAndPrompt", () =>
    stepped(make("radius", "ON_COMPLETE", "Radius"), [
      ["showAuth", (dialog) => dialog.showAuth("radius-app://authorize?client=pi&state=abc", "Complete login in your browser, then paste the code.")],
      ask("showPrompt", (dialog) => dialog.showPrompt("Paste the authorization code:", "abc#def")),
      "c", "o", "d", "e", LEFT, BACKSPACE, ENTER,
      ["showProgress", (dialog) => dialog.showProgress("Exchanging code for tokens...")],
      ["showWaiting", (dialog) => dialog.showWaiting("Waiting for authorization...")],
    ], { focus: true }),
  );
  needs(["LoginDialogComponent"], "LoginDialogComponent/manualThenCancel", () =>
    stepped(make("openai", "ON_COMPLETE", "OpenAI"), [
      ["showAuth", (dialog) => dialog.showAuth("not a url\x1b[31m at all")],
      ask("showManualInput", (dialog) => dialog.showManualInput("Paste the redirect URL here:")),
      "h", "t",
      ["signal", (dialog, log) => log.push(["aborted", dialog.signal.aborted])],
      ESCAPE,
      ["signal", (dialog, log) => log.push(["aborted", dialog.signal.aborted])],
    ]),
  );
  needs(["LoginDialogComponent"], "LoginDialogComponent/infoAndDetails", () =>
    stepped(make("custom", "ON_COMPLETE"), [
      ["showInfo", (dialog) => dialog.showInfo("Get a key from the dashboard.", [{ label: "Dashboard", url: "https://example.com/keys?x=1 y" }, { url: "ftp://files.example.com/x" }, { url: "bad\x07url" }])],
      ["showInfoClose", (dialog) => dialog.showInfo("Nothing else to do.", [], true)],
      ["showDetails", (dialog) => dialog.showDetails(["Account: someone@example.com", "Plan: Pro"])],
      ["showProgress", (dialog) => dialog.showProgress("Almost there")],
      "\x03",
    ]),
  );
  const device = (extra) => ({ verificationUri: "https://github.com/login/device", userCode: "ABCD-1234", ...extra });
  needs(["LoginDialogComponent"], "LoginDialogComponent/deviceCode", () => ({
    actions: stepped(make("github-copilot", "ON_COMPLETE", "GitHub Copilot"), [
      ["both", (dialog) => dialog.showDeviceCode(device())],
      ["browserOnly", (dialog) => dialog.showDeviceCode(device({ copyCodeOnConfirm: false }))],
      ["copyOnly", (dialog) => dialog.showDeviceCode(device({ openBrowserOnConfirm: false, verificationUri: "example.com/device" }))],
      // Unfocused, Enter is the input's: the action stays.
      ENTER,
      ["none", (dialog) => dialog.showDeviceCode(device({ openBrowserOnConfirm: false, copyCodeOnConfirm: false }))],
      ["prompt", (dialog) => { dialog.showDeviceCode(device()); dialog.showPrompt("Enterprise domain?").catch(() => {}); }],
    ]),
    afterCancel: stepped(make("github-copilot", "ON_COMPLETE"), [
      ESCAPE,
      ["showDeviceCode", (dialog) => dialog.showDeviceCode(device())],
    ]),
  }));
}

function addModelSelectorCases(needs, agent) {
  const make = ({ current, scoped = [], search, asDefault = false, defaultModel, models = MODELS } = {}) => (log) => {
    const tui = { requestRender: () => log.push(["render"]) };
    return new agent.ModelSelectorComponent(
      tui,
      current,
      standInRuntime(models, log),
      scoped,
      (m) => log.push(["select", m.provider, m.id]),
      () => log.push(["cancel"]),
      search,
      asDefault ? (m) => log.push(["default", m.provider, m.id]) : undefined,
      defaultModel,
    );
  };
  needs(["ModelSelectorComponent"], "ModelSelectorComponent/browse", () =>
    stepped(make({ current: MODELS[3] }), [DOWN, DOWN, UP, UP, UP, PAGE_DOWN, PAGE_DOWN, PAGE_UP, ENTER, ESCAPE], { focus: true }),
  );
  needs(["ModelSelectorComponent"], "ModelSelectorComponent/search", () =>
    stepped(make({ current: MODELS[0], defaultModel: { provider: "anthropic", id: "claude-opus-4-1" }, asDefault: true }), [
      "g", "p", "t", DOWN, LEFT, BACKSPACE, BACKSPACE, BACKSPACE, "d", "e", "f", BACKSPACE, BACKSPACE, BACKSPACE, "z", "z", "q", DOWN, ENTER, TAB,
    ]),
  );
  needs(["ModelSelectorComponent"], "ModelSelectorComponent/initialSearch", () =>
    stepped(make({ search: "claude", current: MODELS[1] }), [DOWN, ENTER]),
  );
  needs(["ModelSelectorComponent"], "ModelSelectorComponent/scoped", () =>
    stepped(
      make({
        current: MODELS[4],
        scoped: [{ model: MODELS[4], thinkingLevel: "high" }, { model: model("openai", "gpt-5", "stale copy") }, { model: model("gone", "old-model", "Old") }],
      }),
      [DOWN, TAB, DOWN, "g", "p", TAB, BACKSPACE, BACKSPACE, TAB, UP, ENTER],
    ),
  );
  needs(["ModelSelectorComponent"], "ModelSelectorComponent/empty", () =>
    stepped(make({ models: [], asDefault: true }), [DOWN, UP, PAGE_DOWN, ENTER, TAB, "x", ESCAPE]),
  );
  needs(["ModelSelectorComponent"], "ModelSelectorComponent/searchInput", () =>
    capture(() => {
      const log = [];
      const selector = make({ search: "grok" })(log);
      selector.focused = true;
      const input = selector.getSearchInput();
      const result = { value: input.getValue(), inputFocused: input.focused, captures: selector.capturesViewportInput };
      input.onSubmit?.();
      selector.dispose();
      selector.dispose();
      return { ...result, log };
    }),
  );
}

/** Callbacks that log every call by name, whatever the name. */
function loggingCallbacks(log) {
  return new Proxy({}, { get: (_target, name) => (typeof name === "string" ? (...args) => log.push([name, ...args]) : undefined) });
}

const REASONING = { ...model("anthropic", "claude-opus-4-1", "Claude Opus 4.1"), api: "anthropic-messages", reasoning: true };
const SETTINGS_MODELS = [
  MODELS[0],
  REASONING,
  { ...model("openai", "o4-mini", "o4-mini"), reasoning: true, thinkingLevelMap: { minimal: null, xhigh: "high" } },
  MODELS[3],
  MODELS[6],
];

function settingsConfig(overrides = {}) {
  return {
    autoCompact: true,
    showImages: true,
    imageWidthCells: 60,
    autoResizeImages: true,
    blockImages: false,
    enableSkillCommands: true,
    steeringMode: "one-at-a-time",
    followUpMode: "all",
    transport: "sse",
    sessionShareDestination: "auto",
    httpIdleTimeoutMs: 300_000,
    cacheWarmingMode: "idle",
    thinkingLevel: "medium",
    availableThinkingLevels: ["off", "low", "medium", "high"],
    currentTheme: "dark",
    availableThemes: ["system", "dark", "light", "nord"],
    terminalTheme: "dark",
    hideThinkingBlock: false,
    mermaidRenderingMode: "streaming",
    showCacheMissNotices: true,
    collapseChangelog: false,
    quietStartup: false,
    enableInstallTelemetry: true,
    defaultProjectTrust: "ask",
    doubleEscapeAction: "tree",
    treeFilterMode: "default",
    showHardwareCursor: false,
    editorPaddingX: 0,
    outputPad: 1,
    autocompleteMaxVisible: 5,
    clearOnShrink: false,
    showTerminalProgress: false,
    warnings: {},
    modelThinkingLevels: { "openai/gpt-5": "high" },
    availableDefaultModels: SETTINGS_MODELS,
    defaultModel: "anthropic/claude-opus-4-1",
    currentModel: MODELS[6],
    tuiMode: "fullscreen",
    fullscreenExitOutput: "transcript",
    fullscreenScrollbar: "auto",
    fullscreenCopyOnSelect: true,
    fullscreenWheelScrollLines: "auto",
    ...overrides,
  };
}

function addSettingsSelectorCases(needs, agent, tui) {
  const make = (overrides) => (log) => new agent.SettingsSelectorComponent(settingsConfig(overrides), loggingCallbacks(log));
  const toList = { keyTarget: (selector) => selector.getSettingsList() };
  const DOWNS = (n) => Array(n).fill(DOWN);
  needs(["SettingsSelectorComponent"], "SettingsSelectorComponent/cycle", () =>
    stepped(make(), [ENTER, " ", DOWN, ENTER, ...DOWNS(8), " ", " ", PAGE_DOWN, ENTER, ENTER, PAGE_DOWN, " ", UP, UP, ENTER, ENTER, ENTER, ESCAPE], toList),
  );
  needs(["SettingsSelectorComponent"], "SettingsSelectorComponent/moreRows", () =>
    stepped(make({ quietStartup: "header", httpIdleTimeoutMs: 45_000, defaultProjectTrust: "never", fullscreenWheelScrollLines: 4, outputPad: 0 }), [
      ...DOWNS(14), ENTER, ENTER, DOWN, ENTER, DOWN, DOWN, DOWN, DOWN, DOWN, ENTER, ENTER, DOWN, DOWN, DOWN, DOWN, DOWN, DOWN, DOWN, DOWN, DOWN, DOWN, ENTER, ENTER, ENTER, ENTER, UP, ENTER,
    ], toList),
  );
  // A terminal that shows images adds the image rows; the detected capabilities are put back after.
  needs(["SettingsSelectorComponent", "tui.setCapabilities", "tui.getCapabilities"], "SettingsSelectorComponent/imageTerminal", () => {
    const detected = tui.getCapabilities();
    tui.setCapabilities({ ...detected, images: "kitty" });
    try {
      return stepped(make({ showImages: false, imageWidthCells: 120 }), [DOWN, ENTER, DOWN, ENTER, " ", DOWN, ENTER], toList);
    } finally {
      tui.setCapabilities(detected);
    }
  });
  needs(["SettingsSelectorComponent"], "SettingsSelectorComponent/search", () =>
    stepped(make(), ["t", "h", "e", "m", BACKSPACE, " ", "x", BACKSPACE, BACKSPACE, BACKSPACE, BACKSPACE, BACKSPACE, "z", "q", "j", ENTER, ESCAPE], toList),
  );
  needs(["SettingsSelectorComponent"], "SettingsSelectorComponent/warnings", () =>
    stepped(make({ warnings: { anthropicExtraUsage: false } }), [
      "w", "a", "r", "n", ENTER, ENTER, " ", ESCAPE, ENTER, ENTER, ESCAPE,
    ], toList),
  );
  needs(["SettingsSelectorComponent"], "SettingsSelectorComponent/modelThinking", () =>
    stepped(make(), [
      "p", "e", "r", " ", "m", "o", "d", "e", "l", ENTER,
      DOWN, ENTER, DOWN, ENTER, // o4-mini? whatever is second: pick a level
      "g", "p", "t", ENTER, UP, ENTER, // gpt-5's override: clear it
      ESCAPE, ESCAPE,
      UP, ENTER, ESCAPE, ESCAPE,
    ], toList),
  );
  needs(["SettingsSelectorComponent"], "SettingsSelectorComponent/modelThinkingEmpty", () =>
    stepped(make({ availableDefaultModels: [], currentModel: undefined, modelThinkingLevels: {} }), ["p", "e", "r", ENTER, ENTER, ESCAPE, ESCAPE], toList),
  );
  needs(["SettingsSelectorComponent"], "SettingsSelectorComponent/themeSingle", () =>
    stepped(make(), ["t", "h", "e", "m", "e", ENTER, DOWN, DOWN, UP, UP, UP, ESCAPE, ENTER, DOWN, ENTER, ENTER, UP, ENTER], toList),
  );
  needs(["SettingsSelectorComponent"], "SettingsSelectorComponent/themeAutomatic", () =>
    stepped(make({ currentTheme: "light/nord", terminalTheme: "light" }), [
      "t", "h", "e", "m", "e", ENTER, ENTER, DOWN, ENTER, DOWN, ENTER, ESCAPE, DOWN, DOWN, ENTER, ENTER, DOWN, ESCAPE,
    ], toList),
  );
  needs(["SettingsSelectorComponent"], "SettingsSelectorComponent/themeAutomaticFromSingle", () =>
    stepped(make({ currentTheme: "missing", availableThemes: ["dark", "light"] }), [
      "t", "h", "e", "m", "e", ENTER, ENTER, DOWN, DOWN, DOWN, ENTER, " ", ESCAPE, ENTER, UP, ENTER, ENTER, DOWN, DOWN, ENTER,
    ], toList),
  );
  needs(["SettingsSelectorComponent"], "SettingsSelectorComponent/themeOddSettings", () => ({
    slashes: stepped(make({ currentTheme: "a/b/c" }), ["t", "h", "e", "m", "e", ENTER, ENTER, ENTER], toList),
    blankHalf: stepped(make({ currentTheme: "light/ " }), ["t", "h", "e", "m", "e", ENTER, DOWN, ENTER], toList),
  }));
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Session list entries as SessionManager.list gives them, aged relative to now (away from unit boundaries). */
function sessionInfos() {
  const now = Date.now();
  const session = (file, fields) => ({
    path: `/nonexistent/pihost-sessions/${file}.jsonl`,
    id: `id-${file}`,
    cwd: "/work/project",
    firstMessage: `First message of ${file}`,
    allMessagesText: `First message of ${file}\nsome reply`,
    messageCount: 4,
    created: new Date(now - 500 * DAY),
    ...fields,
    modified: new Date(now - fields.age),
  });
  return [
    session("alpha", { age: 20 * 1000, name: "Fix the parser", allMessagesText: "Fix the parser\nthe tokenizer drops quotes" }),
    session("beta", { age: 5.5 * MINUTE, firstMessage: "  multi\nline\tmessage\x07 ", messageCount: 12 }),
    session("gamma", { age: 3.5 * HOUR, parentSessionPath: "/nonexistent/pihost-sessions/alpha.jsonl", firstMessage: "Forked to try another parser" }),
    session("delta", { age: 2.5 * DAY, parentSessionPath: "/nonexistent/pihost-sessions/gamma.jsonl", name: "   " }),
    session("epsilon", { age: 10.5 * DAY, parentSessionPath: "/nonexistent/pihost-sessions/alpha.jsonl", name: "Parser, second try" }),
    session("zeta", { age: 45 * DAY, cwd: "/work/other", firstMessage: "Write the release notes for the node cve fix" }),
    session("eta", { age: 400 * DAY, parentSessionPath: "/nonexistent/pihost-sessions/missing.jsonl", firstMessage: "Orphan fork", messageCount: 1 }),
    ...Array.from({ length: 9 }, (_, i) => session(`bulk${i}`, { age: (13 + i) * HOUR + 30 * MINUTE, firstMessage: `Bulk session ${i} about ${i % 2 ? "docs" : "tests"}` })),
  ];
}

/** A loader that reports its sessions in two parts and never finishes (the picker shows them while loading). */
function progressiveLoader(sessions, log, label) {
  return (onProgress, signal) => {
    log.push(["load", label, signal.aborted]);
    const half = Math.ceil(sessions.length / 2);
    onProgress(half, sessions.length, sessions.slice(0, half));
    onProgress(sessions.length, sessions.length, sessions);
    return new Promise(() => {});
  };
}

function addSessionSelectorCases(needs, agent, tui) {
  const infos = sessionInfos();
  const current = infos.filter((info) => info.cwd === "/work/project");
  const APP_KEYS = {
    "app.session.toggleNamedFilter": { defaultKeys: "ctrl+n", description: "" },
    "app.session.togglePath": { defaultKeys: "ctrl+p", description: "" },
    "app.session.toggleSort": { defaultKeys: "ctrl+s", description: "" },
    "app.session.rename": { defaultKeys: "ctrl+r", description: "" },
    "app.session.delete": { defaultKeys: "ctrl+d", description: "" },
    "app.session.deleteNoninvasive": { defaultKeys: "ctrl+backspace", description: "" },
  };
  const make = ({ currentPath, options, currentLoader, allLoader } = {}) => (log) =>
    new agent.SessionSelectorComponent(
      currentLoader ?? progressiveLoader(current, log, "current"),
      allLoader ?? progressiveLoader(infos, log, "all"),
      (path) => log.push(["select", path]),
      () => log.push(["cancel"]),
      () => log.push(["exit"]),
      () => log.push(["render"]),
      options,
      currentPath,
    );
  // With pi's app keys bound globally (as the interactive mode binds them); the shared keybindings are put back after.
  const withAppKeys = (run) => {
    const shared = tui.getKeybindings();
    tui.setKeybindings(new tui.KeybindingsManager({ ...tui.TUI_KEYBINDINGS, ...APP_KEYS }));
    try {
      return run();
    } finally {
      tui.setKeybindings(shared);
    }
  };
  const CTRL_N = "\x0e";
  const CTRL_P = "\x10";
  const CTRL_S = "\x13";
  const CTRL_D = "\x04";
  const CTRL_R = "\x12";
  const names = ["SessionSelectorComponent", "tui.KeybindingsManager", "tui.setKeybindings", "tui.getKeybindings"];
  needs(names, "SessionSelectorComponent/threaded", () =>
    stepped(make(), [DOWN, DOWN, DOWN, DOWN, PAGE_DOWN, PAGE_UP, UP, CTRL_N, DOWN, CTRL_N, ENTER], { focus: true }),
  );
  needs(names, "SessionSelectorComponent/search", () =>
    stepped(make(), ["p", "a", "r", "s", "e", "r", DOWN, LEFT, BACKSPACE, ...Array(5).fill(BACKSPACE), '"', "n", "o", "d", "e", " ", "c", "v", "e", '"', TAB, ...Array(10).fill(BACKSPACE), "r", "e", ":", "b", "u", "l", "k", "[", "3", "-", "5", "]", BACKSPACE, BACKSPACE, BACKSPACE, BACKSPACE, BACKSPACE, "(", ENTER, ESCAPE]),
  );
  needs(names, "SessionSelectorComponent/appKeys", () =>
    withAppKeys(() =>
      stepped(make({ currentPath: "/nonexistent/pihost-sessions/beta.jsonl", options: { renameSession: async () => {} } }), [
        CTRL_S, "t", "e", "s", "t", "s", CTRL_S, CTRL_S, CTRL_P, TAB, CTRL_P, DOWN, CTRL_D, "x", ESCAPE, BACKSPACE, BACKSPACE, BACKSPACE, BACKSPACE, BACKSPACE,
        CTRL_D, UP, UP, TAB, CTRL_D, DOWN, CTRL_R, ESCAPE,
      ]),
    ),
  );
  needs(names, "SessionSelectorComponent/namedOnly", () =>
    withAppKeys(() =>
      stepped(make({ options: { showRenameHint: false, keybindings: new tui.KeybindingsManager({ ...tui.TUI_KEYBINDINGS, ...APP_KEYS, "app.session.toggleNamedFilter": { defaultKeys: "ctrl+p", description: "" } }) } }), [
        CTRL_P, "z", "z", TAB, BACKSPACE, BACKSPACE, CTRL_P, TAB, ESCAPE,
      ]),
    ),
  );
  needs(names, "SessionSelectorComponent/emptyAndFailing", () => ({
    empty: stepped(make({ currentLoader: progressiveLoader([], [], "none"), allLoader: progressiveLoader([], [], "none") }), [CTRL_N, TAB, CTRL_N, TAB, ENTER, ESCAPE]),
    failing: stepped(
      make({
        currentLoader: () => {
          throw new Error("disk on fire");
        },
      }),
      [TAB, TAB, ESCAPE],
    ),
    noProgress: stepped(make({ currentLoader: () => new Promise(() => {}) }), [DOWN, TAB, ENTER]),
  }));
  needs(names, "SessionSelectorComponent/parts", () =>
    capture(() => {
      const log = [];
      const selector = make({ options: { renameSession: async () => {} } })(log);
      selector.focused = true;
      const list = selector.getSessionList();
      return { captures: selector.capturesViewportInput, listFocused: list.focused, inputFocused: list.searchInput.focused, log };
    }),
  );
}

/** A session tree as SessionManager.getTree gives it: a main line that branches, every kind of entry, and a second root. */
function sessionTree() {
  const user = (text) => ({ type: "message", message: { role: "user", content: text } });
  const assistant = (content, extra = {}) => ({ type: "message", message: { role: "assistant", content, stopReason: "stop", ...extra } });
  const call = (id, name, args) => ({ type: "toolCall", id, name, arguments: args });
  const result = (toolCallId, toolName) => ({ type: "message", message: { role: "toolResult", toolCallId, toolName, content: [{ type: "text", text: "ok" }] } });
  // [id, entry, children, label?]
  const spec = [
    "u1", user("Build a parser\nfor the config\tfiles"), [
      "a1", assistant([{ type: "text", text: "Sure, reading first." }, call("tc1", "read", { path: "/work/p/src/parser.ts", offset: 10, limit: 20 })]), [
        "t1", result("tc1", "read"), [
          "a2", assistant([call("tc2", "bash", { command: "npm test -- --watch=false --reporter=dot --bail\nsecond line here" })], { stopReason: "toolUse" }), [
            "t2", result("tc2", "bash"), [
              "mc", { type: "model_change", provider: "openai", modelId: "gpt-5" }, [
                "u2", user("Try approach A"), [
                  "a3", assistant([], { stopReason: "aborted" }), [
                    "u3", user([{ type: "text", text: "continue " }, { type: "image", data: "", mimeType: "image/png" }, { type: "text", text: "with A" }]), [],
                  ],
                ], "approach-a",
                "u4", user("Try approach B"), [
                  "a4", assistant([], { stopReason: "error", errorMessage: "rate limited\nretry later" }), [
                    "cm", { type: "custom_message", customType: "note", content: [{ type: "text", text: "remember\nthis" }], display: true }, [
                      "comp", { type: "compaction", summary: "  ", tokensBefore: 12_345, firstKeptEntryId: "u4" }, [
                        "bs", { type: "branch_summary", summary: "tried A first", fromId: "a3" }, [
                          "be", { type: "message", message: { role: "bashExecution", command: "ls -la\n/tmp", output: "", exitCode: 0 } }, [
                            "tl", { type: "thinking_level_change", thinkingLevel: "high" }, [
                              "cu", { type: "custom", customType: "state", data: {} }, [
                                "ce", { type: "context_edit", targetId: "t1", replacement: null }, [
                                  "lb", { type: "label", targetId: "u2", label: "approach-a" }, [
                                    "si", { type: "session_info", name: "My session" }, [
                                      "si2", { type: "session_info" }, [
                                        "us", { type: "usage" }, [
                                          "a5", assistant([call("tc3", "grep", { pattern: "TODO", path: "/work/p" }), call("tc4", "find", { pattern: "*.ts" }), call("tc5", "ls", {}), call("tc6", "write", { file_path: "/work/p/out.txt" }), call("tc7", "edit", { path: "/work/p/a.ts" }), call("tc8", "deploy", { target: "production", dryRun: false, reason: "release 1.2.3" })], { stopReason: "toolUse" }), [
                                            "t3", result("tc3", "grep"), [
                                              "t4", result("tc4", "find"), [
                                                "t5", result("tc5", "ls"), [
                                                  "t6", result("tc6", "write"), [
                                                    "t7", result("tc7", "edit"), [
                                                      "t8", result("tc8", "deploy"), [
                                                        "t9", result("nope", undefined), [
                                                          "u5", user("Done?"), [], "finish",
                                                        ],
                                                      ],
                                                    ],
                                                  ],
                                                ],
                                              ],
                                            ],
                                          ],
                                        ],
                                      ],
                                    ],
                                  ],
                                ],
                              ],
                            ],
                          ],
                        ],
                      ],
                    ],
                  ],
                ],
              ],
            ],
          ],
        ],
      ],
    ],
    "r2", user("Another root"), [
      "r2a", assistant([{ type: "text", text: "Second tree" }]), [],
    ],
  ];
  const LABEL_TIMES = { "approach-a": "2020-01-02T03:04:05.000Z", finish: "2020-06-07T08:09:10.000Z" };
  const build = (items, parentId) => {
    const nodes = [];
    for (let i = 0; i < items.length; ) {
      const [id, entry, children] = items.slice(i, i + 3);
      i += 3;
      const node = { entry: { ...entry, id, parentId, timestamp: "2020-01-01T00:00:00.000Z" }, children: build(children, id) };
      // A string after the children is a label when no entry follows it (else it is the next id).
      if (typeof items[i] === "string" && (i + 1 >= items.length || typeof items[i + 1] === "string")) {
        node.label = items[i];
        node.labelTimestamp = LABEL_TIMES[items[i]];
        i += 1;
      }
      nodes.push(node);
    }
    return nodes;
  };
  return build(spec, null);
}

function addTreeSelectorCases(needs, agent, tui) {
  const APP_KEYS = {
    "app.message.copy": { defaultKeys: "ctrl+x", description: "" },
    "app.tree.foldOrUp": { defaultKeys: ["ctrl+left", "alt+left"], description: "" },
    "app.tree.unfoldOrDown": { defaultKeys: ["ctrl+right", "alt+right"], description: "" },
    "app.tree.editLabel": { defaultKeys: "shift+l", description: "" },
    "app.tree.toggleLabelTimestamp": { defaultKeys: "shift+t", description: "" },
    "app.tree.filter.default": { defaultKeys: "ctrl+d", description: "" },
    "app.tree.filter.noTools": { defaultKeys: "ctrl+t", description: "" },
    "app.tree.filter.userOnly": { defaultKeys: "ctrl+u", description: "" },
    "app.tree.filter.labeledOnly": { defaultKeys: "ctrl+l", description: "" },
    "app.tree.filter.all": { defaultKeys: "ctrl+a", description: "" },
    "app.tree.filter.cycleForward": { defaultKeys: "ctrl+o", description: "" },
    "app.tree.filter.cycleBackward": { defaultKeys: "shift+ctrl+o", description: "" },
  };
  const withAppKeys = (run) => {
    const shared = tui.getKeybindings();
    tui.setKeybindings(new tui.KeybindingsManager({ ...tui.TUI_KEYBINDINGS, ...APP_KEYS }));
    try {
      return run();
    } finally {
      tui.setKeybindings(shared);
    }
  };
  // A fresh tree for every run: labels edited in one must not show in the next.
  const make = ({ leaf = "u5", height = 24, selected, filter, pick = (tree) => tree } = {}) => (log) => {
    const selector = new agent.TreeSelectorComponent(
      pick(sessionTree()),
      leaf,
      height,
      (id) => log.push(["select", id]),
      () => log.push(["cancel"]),
      (id, label) => log.push(["label", id, label ?? null]),
      selected,
      filter,
    );
    selector.onCopy = (text) => log.push(["copy", text ?? null]);
    return selector;
  };
  const CTRL = { a: "\x01", d: "\x04", l: "\x0c", o: "\x0f", t: "\x14", u: "\x15", x: "\x18", left: "\x1b[1;5D", right: "\x1b[1;5C" };
  const SHIFT_CTRL_O = "\x1b[111;6u";
  const names = ["TreeSelectorComponent", "tui.KeybindingsManager", "tui.setKeybindings", "tui.getKeybindings"];
  needs(names, "TreeSelectorComponent/plainKeys", () =>
    stepped(make(), [UP, UP, DOWN, DOWN, DOWN, LEFT, "\x1b[C", PAGE_UP, PAGE_DOWN, "a", "p", "p", BACKSPACE, "\x1b[3~", ESCAPE, ESCAPE, ENTER], { focus: true }),
  );
  needs(names, "TreeSelectorComponent/filters", () =>
    withAppKeys(() =>
      stepped(make(), [CTRL.t, CTRL.t, CTRL.u, CTRL.l, CTRL.a, CTRL.o, CTRL.o, SHIFT_CTRL_O, CTRL.d, "T", "T", "b", "a", "s", "h", CTRL.a, BACKSPACE, BACKSPACE, BACKSPACE, BACKSPACE, "z", "z", CTRL.u, ESCAPE, CTRL.x, UP, CTRL.x, ESCAPE]),
    ),
  );
  needs(names, "TreeSelectorComponent/foldAndBranches", () =>
    withAppKeys(() =>
      stepped(make({ leaf: "a2", height: 12 }), [CTRL.left, CTRL.left, CTRL.right, CTRL.right, CTRL.right, CTRL.left, "\x1b[1;3D", UP, UP, UP, CTRL.left, CTRL.right, DOWN, CTRL.left, "x", CTRL.left, ESCAPE, ENTER], { focus: true }),
    ),
  );
  needs(names, "TreeSelectorComponent/labels", () =>
    withAppKeys(() =>
      stepped(make({ selected: "u2" }), ["L", BACKSPACE, BACKSPACE, "B", ESCAPE, "L", "!", ENTER, DOWN, DOWN, "L", ...Array(20).fill(BACKSPACE), " ", ENTER, UP, UP, "L", "n", "e", "w", ENTER, CTRL.l], { focus: true }),
    ),
  );
  needs(names, "TreeSelectorComponent/initial", () => ({
    filtered: stepped(make({ selected: "t1", filter: "user-only", height: 4 }), [DOWN, ENTER]),
    unknownSelected: stepped(make({ selected: "nope", leaf: null }), [UP]),
    singleRoot: stepped(make({ pick: (tree) => tree.slice(0, 1), leaf: "a3", filter: "all" }), [UP, UP]),
    labeledOnlyEmpty: withAppKeys(() => stepped(make({ pick: (tree) => tree.slice(1), filter: "labeled-only" }), [UP, DOWN, ENTER, CTRL.x, CTRL.left, CTRL.right, CTRL.d])),
  }));
  needs(names, "TreeSelectorComponent/parts", () =>
    capture(() => {
      const log = [];
      const selector = make()(log);
      const before = selector.capturesViewportInput;
      selector.focused = true;
      const list = selector.getTreeList();
      const facts = { before, query: list.getSearchQuery(), selected: list.getSelectedNode()?.entry.id, status: list.getStatusLabels() };
      list.updateNodeLabel("r2", "tagged", "2021-03-04T05:06:07.000Z");
      list.updateNodeLabel("missing", "x");
      return { ...facts, relabeled: list.render(60), log };
    }),
  );
}
