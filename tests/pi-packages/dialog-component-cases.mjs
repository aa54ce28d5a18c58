// Cases of the dialogs pi-coding-agent gives extensions (input, select,
// editor) and the pickers built the same way (thinking level, show images,
// fork from message), for the UI case table (ui-cases.mjs): the lines they
// render at several widths as keys arrive, and what their callbacks heard.

const WIDTHS = [12, 40, 80];

function capture(fn) {
  try {
    const value = fn();
    return value === undefined ? { undefined: true } : { value };
  } catch (err) {
    return { error: String(err?.message ?? err) };
  }
}

/**
 * At each width, a fresh dialog from `make(log)` rendered as made and after
 * each key of `keys` (given to `keyTarget(dialog)`, the part that has the
 * focus), with what its callbacks logged.
 */
function typed(make, keys, { focus = false, keyTarget = (dialog) => dialog } = {}) {
  const out = {};
  for (const width of WIDTHS) {
    out[width] = capture(() => {
      const log = [];
      const dialog = make(log);
      try {
        if (focus) dialog.focused = true;
        const frames = [["made", [...dialog.render(width)]]];
        for (const key of keys) {
          keyTarget(dialog).handleInput(key);
          frames.push([JSON.stringify(key), [...dialog.render(width)]]);
        }
        return { frames, log };
      } finally {
        dialog.dispose?.();
      }
    });
  }
  return out;
}

const UP = "\x1b[A";
const DOWN = "\x1b[B";
const ENTER = "\r";
const ESCAPE = "\x1b";
const PAGE_DOWN = "\x1b[6~";

/** Adds the cases through `needs(names, id, run)`; `agent` is pi-coding-agent, `tui` pi-tui. */
export function addDialogComponentCases(needs, { agent, tui }) {
  const submit = (log) => (value) => log.push(["submit", value]);
  const cancel = (log) => () => log.push(["cancel"]);
  const quietTui = { requestRender: () => {} };

  // --- ExtensionInputComponent ---
  needs(["ExtensionInputComponent"], "ExtensionInputComponent/typing", () =>
    typed((log) => new agent.ExtensionInputComponent("Your name?", "placeholder", submit(log), cancel(log)), ["A", "d", "a", "\x7f", "a", ENTER, "\n", ESCAPE], { focus: true }),
  );
  needs(["ExtensionInputComponent"], "ExtensionInputComponent/optioned", () =>
    typed(
      (log) =>
        new agent.ExtensionInputComponent("Rename", undefined, submit(log), cancel(log), {
          description: "A new name for the session, shown in the footer",
          initialValue: "draft",
          timeout: 2500,
          tui: quietTui,
        }),
      ["!", "\x03"],
    ),
  );

  // --- ExtensionSelectorComponent ---
  const FEW = ["Apple", "Banana", "Cherry"];
  const MANY = Array.from({ length: 14 }, (_, i) => `Option number ${i + 1}`);
  needs(["ExtensionSelectorComponent"], "ExtensionSelectorComponent/few", () =>
    typed((log) => new agent.ExtensionSelectorComponent("Pick a fruit", FEW, submit(log), cancel(log)), [DOWN, "j", "j", UP, "k", "k", ENTER, "\n", "x", ESCAPE]),
  );
  needs(["ExtensionSelectorComponent"], "ExtensionSelectorComponent/scrolling", () =>
    typed(
      (log) =>
        new agent.ExtensionSelectorComponent("Choose", MANY, submit(log), cancel(log), {
          description: "Many options",
          timeout: 10_000,
          tui: quietTui,
          onToggleToolsExpanded: () => log.push(["toggle"]),
        }),
      [...Array(8).fill(DOWN), ...Array(6).fill("j"), ENTER, "\x0f"],
    ),
  );
  needs(["ExtensionSelectorComponent"], "ExtensionSelectorComponent/empty", () =>
    typed((log) => new agent.ExtensionSelectorComponent("Nothing", [], submit(log), cancel(log)), [DOWN, ENTER, ESCAPE]),
  );

  // --- ExtensionEditorComponent ---
  needs(["ExtensionEditorComponent", "tui.KeybindingsManager"], "ExtensionEditorComponent/typing", () => {
    const bindings = new tui.KeybindingsManager({ ...tui.TUI_KEYBINDINGS, "app.editor.external": { defaultKeys: "ctrl+g", description: "Open external editor" } });
    const fakeTui = { terminal: { rows: 24, columns: 80 }, requestRender: () => {}, stop: () => {}, start: () => {} };
    return typed(
      (log) =>
        new agent.ExtensionEditorComponent(fakeTui, bindings, "Edit the plan", "first line", submit(log), cancel(log), { description: "Markdown is fine" }, "true"),
      ["!", "\x1b\r", "s", "e", "c", "o", "n", "d", ENTER, ESCAPE],
      { focus: true },
    );
  });
  needs(["ExtensionEditorComponent", "tui.KeybindingsManager"], "ExtensionEditorComponent/plain", () => {
    const bindings = new tui.KeybindingsManager(tui.TUI_KEYBINDINGS);
    const fakeTui = { terminal: { rows: 24, columns: 80 }, requestRender: () => {} };
    return typed((log) => new agent.ExtensionEditorComponent(fakeTui, bindings, "Notes", undefined, submit(log), cancel(log), undefined, "true"), ["a", "\x03"]);
  });

  // --- ThinkingSelectorComponent ---
  const LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];
  needs(["ThinkingSelectorComponent"], "ThinkingSelectorComponent/navigate", () =>
    typed(
      (log) => new agent.ThinkingSelectorComponent("medium", LEVELS, submit(log), cancel(log), (level) => log.push(["default", level]), "high"),
      [DOWN, DOWN, UP, ENTER, ESCAPE],
      { focus: true },
    ),
  );
  needs(["ThinkingSelectorComponent"], "ThinkingSelectorComponent/filter", () =>
    typed(
      (log) => new agent.ThinkingSelectorComponent("off", LEVELS.slice(0, 5), submit(log), cancel(log)),
      ["h", "i", "\x1b[D", "\x7f", "\x7f", "d", "e", "e", "p", ENTER],
    ),
  );
  needs(["ThinkingSelectorComponent"], "ThinkingSelectorComponent/noMatch", () =>
    typed((log) => new agent.ThinkingSelectorComponent("low", ["low", "high"], submit(log), cancel(log)), ["z", "z", "z", ENTER, "\x7f", "\x7f", "\x7f", ENTER]),
  );

  // --- ShowImagesSelectorComponent ---
  for (const current of [true, false]) {
    needs(["ShowImagesSelectorComponent"], `ShowImagesSelectorComponent/${current}`, () =>
      typed((log) => new agent.ShowImagesSelectorComponent(current, submit(log), cancel(log)), [DOWN, ENTER, UP, ENTER, ESCAPE], {
        keyTarget: (selector) => selector.getSelectList(),
      }),
    );
  }
  needs(["ShowImagesSelectorComponent"], "ShowImagesSelectorComponent/getSelectList", () =>
    capture(() => {
      const selector = new agent.ShowImagesSelectorComponent(true, () => {}, () => {});
      return selector.getSelectList().getSelectedItem();
    }),
  );

  // --- UserMessageSelectorComponent ---
  const toList = { keyTarget: (selector) => selector.getMessageList() };
  const messages = Array.from({ length: 12 }, (_, i) => ({ id: `u${i + 1}`, text: i === 3 ? "multi\nline\n message  " : `User message number ${i + 1} with some more words to truncate` }));
  needs(["UserMessageSelectorComponent"], "UserMessageSelectorComponent/newest", () =>
    typed((log) => new agent.UserMessageSelectorComponent(messages, submit(log), cancel(log)), [DOWN, DOWN, UP, UP, PAGE_DOWN, ENTER, ESCAPE], toList),
  );
  needs(["UserMessageSelectorComponent"], "UserMessageSelectorComponent/initial", () =>
    typed((log) => new agent.UserMessageSelectorComponent(messages.slice(0, 5), submit(log), cancel(log), "u4"), [UP, UP, UP, UP, ENTER], toList),
  );
  needs(["UserMessageSelectorComponent"], "UserMessageSelectorComponent/unknownInitial", () =>
    typed((log) => new agent.UserMessageSelectorComponent(messages.slice(0, 2), submit(log), cancel(log), "nope"), [ENTER], toList),
  );
  needs(["UserMessageSelectorComponent"], "UserMessageSelectorComponent/listOnly", () =>
    capture(() => {
      const list = new agent.UserMessageSelectorComponent(messages.slice(0, 3), () => {}, () => {}).getMessageList();
      return { captures: list.capturesViewportInput, lines: list.render(30) };
    }),
  );

  // --- OAuthSelectorComponent ---
  const providers = [
    { id: "radius", name: "Radius", authType: "oauth" },
    { id: "openrouter", name: "OpenRouter", authType: "api_key", status: { type: "api_key", source: "OPENROUTER_API_KEY" } },
    { id: "anthropic", name: "Anthropic", authType: "oauth", status: { type: "oauth", source: "OAuth" }, method: { name: "Claude Pro/Max" } },
    { id: "anthropic", name: "Anthropic", authType: "api_key", status: { type: "oauth" }, subscription: false },
    { id: "openai", name: "OpenAI", authType: "api_key", status: { type: "api_key", source: "~/.config/key" } },
    { id: "google", name: "Google", authType: "oauth", subscription: false, status: { type: "api_key", source: "GEMINI_API_KEY, GOOGLE_API_KEY" } },
    { id: "mistral", name: "Mistral", authType: "api_key", status: { type: "api_key", source: "stored credential" } },
    { id: "xai", name: "xAI", authType: "api_key" },
    { id: "groq", name: "Groq", authType: "api_key", status: { type: "api_key" } },
    { id: "zai", name: "Z.ai", authType: "api_key" },
  ];
  const pick = (log) => (id, authType) => log.push(["select", id, authType]);
  needs(["OAuthSelectorComponent"], "OAuthSelectorComponent/login", () =>
    typed((log) => new agent.OAuthSelectorComponent("login", providers, pick(log), cancel(log)), [DOWN, DOWN, PAGE_DOWN, DOWN, DOWN, UP, ENTER, "\x1b[5~", ESCAPE], { focus: true }),
  );
  needs(["OAuthSelectorComponent"], "OAuthSelectorComponent/search", () =>
    typed((log) => new agent.OAuthSelectorComponent("login", providers, pick(log), cancel(log), "ant"), [DOWN, "h", "\x1b[D", "\x7f", "\x7f", "\x7f", "\x7f", "q", "q", DOWN, ENTER, "\x7f", "\x7f", ENTER]),
  );
  needs(["OAuthSelectorComponent"], "OAuthSelectorComponent/singleKind", () =>
    typed((log) => new agent.OAuthSelectorComponent("logout", providers.filter((p) => p.authType === "api_key"), pick(log), cancel(log)), [UP, ENTER]),
  );
  for (const mode of ["login", "logout"]) {
    needs(["OAuthSelectorComponent"], `OAuthSelectorComponent/empty/${mode}`, () =>
      typed((log) => new agent.OAuthSelectorComponent(mode, [], pick(log), cancel(log)), [DOWN, UP, PAGE_DOWN, ENTER, "x"]),
    );
  }

  addArminCases(needs, agent);
}

/**
 * Runs `run()` with Math.random replaced by a fixed sequence starting with
 * `first` and setInterval by a recorder, so an animation is stepped by hand.
 */
function scripted(first, run) {
  const { random } = Math;
  const { setInterval: realSetInterval, clearInterval: realClearInterval } = globalThis;
  let seed = 12345;
  let calls = 0;
  Math.random = () => {
    if (calls++ === 0) return first;
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const timers = [];
  globalThis.setInterval = (callback, ms) => {
    timers.push({ callback, ms, cleared: false });
    return timers.length;
  };
  globalThis.clearInterval = (id) => {
    if (timers[id - 1]) timers[id - 1].cleared = true;
  };
  try {
    return run(timers, () => calls);
  } finally {
    Math.random = random;
    globalThis.setInterval = realSetInterval;
    globalThis.clearInterval = realClearInterval;
  }
}

function addArminCases(needs, agent) {
  const EFFECTS = ["typewriter", "scanline", "rain", "fade", "crt", "glitch", "dissolve"];
  EFFECTS.forEach((effect, index) => {
    needs(["ArminComponent"], `ArminComponent/${effect}`, () =>
      capture(() =>
        scripted((index + 0.5) / EFFECTS.length, (timers, randomCalls) => {
          let renders = 0;
          const armin = new agent.ArminComponent({ requestRender: () => renders++ });
          const frames = { made: armin.render(40) };
          const timer = timers[0];
          let ticks = 0;
          while (!timer.cleared && ticks < 400) {
            timer.callback();
            ticks++;
            if (ticks === 3 || ticks === 10) frames[`tick${ticks}`] = [...armin.render(40)];
          }
          frames.final = [...armin.render(40)];
          frames.narrow = [...armin.render(12)];
          armin.invalidate();
          frames.invalidated = [...armin.render(12)];
          armin.dispose();
          return { frames, ms: timer.ms, ticks, renders, randomCalls: randomCalls(), timers: timers.length };
        }),
      ),
    );
  });
  needs(["ArminComponent"], "ArminComponent/dispose", () =>
    capture(() =>
      scripted(0, (timers) => {
        const armin = new agent.ArminComponent({ requestRender: () => {} });
        armin.dispose();
        armin.dispose();
        return { cleared: timers.map((timer) => timer.cleared), lines: armin.render(5).length };
      }),
    ),
  );
}

