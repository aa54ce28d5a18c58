// Cases of the pickers and the login dialog that finish in promises: a
// model catalog refresh that settles, login answers, session loads that
// complete and a rename. Part of the UI case table: the recorder
// (tests/reference/record-ui.mjs), the Node differential and the
// in-pihost replay add these results to runCases'.

const WIDTHS = [12, 40, 80];
const ENTER = "\r";
const ESCAPE = "\x1b";
const DOWN = "\x1b[B";

async function capture(fn) {
  try {
    const value = await fn();
    return value === undefined ? { undefined: true } : { value };
  } catch (err) {
    return { error: String(err?.message ?? err) };
  }
}

/** Lets pending promise chains and zero-delay timers run. */
async function settle() {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * At each width, a fresh component from `make(log)` rendered as made and
 * after each step (a key, or [label, async (component, log) => void]),
 * letting promises settle after every step.
 */
async function steppedAsync(make, steps) {
  const out = {};
  for (const width of WIDTHS) {
    out[width] = await capture(async () => {
      const log = [];
      const component = make(log);
      try {
        await settle();
        const frames = [["made", [...component.render(width)]]];
        for (const step of steps) {
          const [label, act] = typeof step === "string" ? [JSON.stringify(step), (c) => c.handleInput(step)] : step;
          await act(component, log);
          await settle();
          frames.push([label, [...component.render(width)]]);
        }
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

/** A model runtime whose refresh settles as `outcome` says, then shows `after` as its models. */
function refreshingRuntime(before, after, outcome, log) {
  let models = before;
  return {
    getAvailableSnapshot: () => models,
    getModel: (provider, id) => models.find((m) => m.provider === provider && m.id === id),
    getError: () => outcome.error,
    refresh: async ({ signal }) => {
      log.push(["refresh", signal.aborted]);
      await null;
      models = after;
      if (outcome.reject) throw new Error(outcome.reject);
      return { aborted: false, errors: new Map(outcome.failed ?? []) };
    },
  };
}

async function modelCases(agent, results) {
  const BEFORE = [model("openai", "gpt-5", "GPT-5"), model("anthropic", "claude-opus-4-1", "Claude Opus 4.1"), model("google", "gemini-2.5-pro", "Gemini 2.5 Pro")];
  const AFTER = [model("xai", "grok-4", "Grok 4"), ...BEFORE, model("anthropic", "claude-haiku-4-5", "Claude Haiku 4.5")];
  const make = (outcome, options = {}) => (log) =>
    new agent.ModelSelectorComponent(
      { requestRender: () => log.push(["render"]) },
      options.current,
      refreshingRuntime(BEFORE, AFTER, outcome, log),
      options.scoped ?? [],
      (m) => log.push(["select", m.provider, m.id]),
      () => log.push(["cancel"]),
      options.search,
    );
  const outcomes = {
    refreshed: {},
    oneFailed: { failed: [["openrouter", new Error("x")]] },
    twoFailed: { failed: [["openrouter", new Error("x")], ["ollama", new Error("y")]] },
    runtimeError: { error: "models.json: line 3\nunexpected token" },
    rejected: { reject: "offline" },
  };
  for (const [name, outcome] of Object.entries(outcomes)) {
    results[`ModelSelectorComponent/refresh/${name}`] = await steppedAsync(make(outcome, { current: BEFORE[2] }), [DOWN, ENTER]);
  }
  // The selection moved during the refresh stays on its model; a query is kept.
  results["ModelSelectorComponent/refresh/keepsPlace"] = await steppedAsync(make({}, { search: "claude", scoped: [{ model: BEFORE[1] }] }), ["\t", ENTER]);
  // Two pickers on one runtime share its refresh.
  results["ModelSelectorComponent/refresh/shared"] = await capture(async () => {
    const log = [];
    const runtime = refreshingRuntime(BEFORE, AFTER, {}, log);
    const open = () => new agent.ModelSelectorComponent({ requestRender: () => {} }, undefined, runtime, [], () => {}, () => {});
    const first = open();
    const second = open();
    await settle();
    const lines = [first.render(60), second.render(60)];
    first.dispose();
    second.dispose();
    return { log, lines };
  });
}

async function loginCases(agent, results) {
  const make = (log) =>
    new agent.LoginDialogComponent({ requestRender: () => log.push(["render"]) }, "radius", (ok, message) => log.push(["complete", ok, message ?? null]), "Radius");
  const ask = (label, call) => [label, (dialog, log) => void call(dialog).then((answer) => log.push(["answer", answer]), (err) => log.push(["rejected", err.message]))];
  results["LoginDialogComponent/answers"] = await steppedAsync(make, [
    ask("showPrompt", (dialog) => dialog.showPrompt("API key:", "sk-...")),
    "s", "k", "1", ENTER,
    ask("showManualInput", (dialog) => dialog.showManualInput("Paste the code:")),
    ENTER, "c", ENTER,
    ask("showPromptAgain", (dialog) => dialog.showPrompt("One more?")),
    "x", ESCAPE,
    ["signal", (dialog, log) => log.push(["aborted", dialog.signal.aborted])],
  ]);
}

function sessionInfo(file, age, fields = {}) {
  const now = Date.now();
  return {
    path: `/nonexistent/pihost-sessions/${file}.jsonl`,
    id: `id-${file}`,
    cwd: "/work/project",
    firstMessage: `First message of ${file}`,
    allMessagesText: `First message of ${file}`,
    messageCount: 2,
    created: new Date(now - 100 * 86_400_000),
    modified: new Date(now - age),
    ...fields,
  };
}

async function sessionCases(agent, tui, results) {
  const names = ["SessionSelectorComponent", "tui.KeybindingsManager", "tui.setKeybindings", "tui.getKeybindings"];
  if (names.some((name) => (name.startsWith("tui.") ? tui[name.slice(4)] : agent[name]) === undefined)) {
    results["SessionSelectorComponent/async"] = { missing: names.find((name) => (name.startsWith("tui.") ? tui[name.slice(4)] : agent[name]) === undefined) };
    return;
  }
  const keys = { "app.session.rename": { defaultKeys: "ctrl+r", description: "" } };
  const shared = tui.getKeybindings();
  tui.setKeybindings(new tui.KeybindingsManager({ ...tui.TUI_KEYBINDINGS, ...keys }));
  try {
    const make = (log) => {
      // Every load hands out the sessions as they are now, so a rename shows after the reload.
      const names = new Map([["b", "Old name"]]);
      const list = () => ["a", "b", "c"].map((file, i) => sessionInfo(file, (i * 3 + 1.5) * 3_600_000, names.has(file) ? { name: names.get(file) } : {}));
      const loader = (scope) => async (onProgress, signal) => {
        log.push(["load", scope, signal.aborted]);
        await null;
        onProgress(1, 3, list().slice(0, 1));
        await null;
        return scope === "all" ? [...list(), sessionInfo("elsewhere", 40 * 86_400_000, { cwd: "/work/other" })] : list();
      };
      const rename = async (path, name) => {
        log.push(["rename", path, name]);
        names.set(path.match(/\/(\w+)\.jsonl$/)[1], name);
      };
      return new agent.SessionSelectorComponent(loader("current"), loader("all"), (p) => log.push(["select", p]), () => log.push(["cancel"]), () => log.push(["exit"]), () => log.push(["render"]), { renameSession: rename });
    };
    results["SessionSelectorComponent/async/rename"] = await steppedAsync(make, [
      DOWN, "\x12", "x", ESCAPE, "\x12", ...Array(8).fill("\x7f"), " ", ENTER, "N", "e", "w", ENTER, "\t", "\t", DOWN, ENTER,
    ]);
    results["SessionSelectorComponent/async/failingAll"] = await steppedAsync(
      (log) =>
        new agent.SessionSelectorComponent(
          async () => [sessionInfo("only", 90_000)],
          async () => {
            await null;
            throw new Error("permission denied");
          },
          () => log.push(["select"]),
          () => log.push(["cancel"]),
          () => {},
          () => {},
        ),
      ["\t", "\t", "\x12", ESCAPE],
    );
  } finally {
    tui.setKeybindings(shared);
  }
}

/** Runs every async case; `agent` is pi-coding-agent, `tui` pi-tui. Names a module lacks come out as { missing: name }. */
export async function runSelectorAsyncCases({ agent, tui }) {
  const results = {};
  if (agent.ModelSelectorComponent) await modelCases(agent, results);
  else results["ModelSelectorComponent/refresh"] = { missing: "ModelSelectorComponent" };
  if (agent.LoginDialogComponent) await loginCases(agent, results);
  else results["LoginDialogComponent/answers"] = { missing: "LoginDialogComponent" };
  await sessionCases(agent, tui, results);
  return results;
}
