// The inputs pi-coding-agent's UI exports are recorded and compared on: the
// theme (ctx.ui.theme and the Theme class), the pi-tui themes derived from
// it, key hints, borders and the bordered loader. The recorder
// (tests/reference/record-ui.mjs, real pi), the Node differential
// (tests/pi-packages/ui-differential.mjs) and the in-pihost replay
// (tests/pi-packages/in-pihost.ts) all call runCases, so they cannot drift.
//
// The theme is pi's "dark" theme in truecolor: the harness sets
// PI_TRUE_COLOR=1 before the theme is made and passes the theme instance
// (pi's global theme, or pihost's) as `theme`; without one the theme-object
// cases are reported missing.

import { addDialogComponentCases } from "./dialog-component-cases.mjs";
import { addMessageComponentCases } from "./message-component-cases.mjs";
import { addSelectorComponentCases } from "./selector-component-cases.mjs";

const ESC = "\x1b";

/** Every theme token, foreground ones first (pi's ThemeColor and ThemeBg names). */
export const FG_TOKENS = [
  "accent", "border", "borderAccent", "borderMuted", "success", "error", "warning", "muted", "dim", "text",
  "thinkingText", "scrollbarTrack", "scrollbarThumb", "searchMatchText", "userMessageText", "customMessageText",
  "customMessageLabel", "toolTitle", "toolOutput", "mdHeading", "mdLink", "mdLinkUrl", "mdCode", "mdCodeBlock",
  "mdCodeBlockBorder", "mdQuote", "mdQuoteBorder", "mdHr", "mdListBullet", "toolDiffAdded", "toolDiffRemoved",
  "toolDiffContext", "syntaxComment", "syntaxKeyword", "syntaxFunction", "syntaxVariable", "syntaxString",
  "syntaxNumber", "syntaxType", "syntaxOperator", "syntaxPunctuation", "thinkingOff", "thinkingMinimal",
  "thinkingLow", "thinkingMedium", "thinkingHigh", "thinkingXhigh", "thinkingMax", "bashMode",
];
export const BG_TOKENS = ["selectedBg", "searchMatchBg", "userMessageBg", "customMessageBg", "toolPendingBg", "toolSuccessBg", "toolErrorBg"];

// A theme built by hand, one colour syntax after another, to check parsing and both colour modes.
const COLOR_VALUES = [
  "#ff0000", "#0f0", "#123456", "okhsl(20 99% 63%)", "okhsl(229 8% 53%)", "okhsl(159 59% 67%)", "okhsl(0 0% 50%)",
  "oklch(70% 0.1 250)", "oklch(0.9 0.3 150)", "oklch(50% 0.05 20)", 0, 7, 15, 16, 100, 196, 231, 244, "",
  "#808080", "#7f7f86", "okhsl(295 50% 67%)", "okhsl(83 88% 67%)", "okhsl(233 41% 24%)",
];
function customColors() {
  const fg = {};
  const bg = {};
  FG_TOKENS.forEach((token, i) => {
    if (token !== "scrollbarTrack" && token !== "thinkingMax") fg[token] = COLOR_VALUES[i % COLOR_VALUES.length];
  });
  BG_TOKENS.forEach((token, i) => {
    if (token !== "searchMatchBg") bg[token] = COLOR_VALUES[(i * 5 + 3) % COLOR_VALUES.length];
  });
  return { fg, bg };
}

const TEXTS = {
  plain: "hello",
  empty: "",
  multiline: "one\ntwo\r\nthree",
  nestedBold: `a ${ESC}[1mb${ESC}[22m c`,
  nestedAll: `${ESC}[3mi${ESC}[23m ${ESC}[4mu${ESC}[24m ${ESC}[7mv${ESC}[27m ${ESC}[9ms${ESC}[29m`,
  coloured: `${ESC}[31mred${ESC}[39m`,
};

const MARKDOWN_DOCS = {
  everything:
    "# Title\n\nSome **bold**, *italic*, ~~struck~~ and `code` with a [link](https://pi.dev).\n\n## List\n\n- one\n- two\n  1. nested\n\n> quoted *text*\n\n---\n\n```\nplain code\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |",
  headings: "# One\n## Two\n### Three with `code`",
  unknownLanguage: "```nosuchlanguage\nlet x = 1;\n```\n\ntext",
  quoteStyles: "> a quote with **bold** and `code` that wraps at narrow widths\n> - and a list",
};

const KEY_IDS = [
  "tui.select.cancel", "tui.select.confirm", "tui.select.up", "tui.editor.cursorLeft", "tui.input.submit",
  "tui.editor.deleteWordBackward", "tui.input.newLine", "no.such.binding",
];

const PATHS = [
  "src/index.ts", "a/b/App.TSX", "main.rs", "script.py", "Makefile", "build.makefile", "styles.scss", "x.yml", "noext",
  "archive.tar.gz", "file.", ".bashrc", "dir.with.dots/readme.md", "main.tf", "query.graphql", "x.unknownext",
];

const SELECT_ITEMS = [
  { value: "alpha", label: "Alpha", description: "The first letter" },
  { value: "beta", label: "Beta", description: "Second letter" },
  { value: "gamma", label: "Gamma" },
  { value: "delta", label: "Delta", description: "Fourth" },
];

function capture(fn) {
  try {
    const value = fn();
    return value === undefined ? { undefined: true } : { value };
  } catch (err) {
    return { error: String(err?.message ?? err) };
  }
}

/**
 * Runs every case and returns { id: result }. `agent` is pi-coding-agent as
 * extensions import it, `tui` is pi-tui, `theme` the current theme object
 * (ctx.ui.theme). Names a module lacks come out as { missing: name }.
 */
export function runCases({ agent, tui, theme }) {
  const results = {};
  const needs = (names, id, fn) => {
    const missing = names.find((name) => (name === "theme" ? theme === undefined : (name.startsWith("tui.") ? tui[name.slice(4)] : agent[name]) === undefined));
    results[id] = missing ? { missing } : fn();
  };

  needs(["initTheme"], "initTheme", () => capture(() => agent.initTheme("dark")));

  // The theme object.
  for (const token of FG_TOKENS) needs(["theme"], `theme/fg/${token}`, () => capture(() => theme.fg(token, "text")));
  for (const token of BG_TOKENS) needs(["theme"], `theme/bg/${token}`, () => capture(() => theme.bg(token, "text")));
  needs(["theme"], "theme/fg/unknown", () => capture(() => theme.fg("nope", "x")));
  needs(["theme"], "theme/bg/fgToken", () => capture(() => theme.bg("accent", "x")));
  for (const [name, text] of Object.entries(TEXTS)) {
    needs(["theme"], `theme/attributes/${name}`, () =>
      capture(() => ["bold", "italic", "underline", "inverse", "strikethrough"].map((attr) => theme[attr](text))),
    );
  }
  needs(["theme"], "theme/attributes/nested", () =>
    capture(() => theme.bold(`x ${theme.bold("inner")} ${theme.italic(theme.bold("both"))} y`)),
  );
  needs(["theme"], "theme/ansi", () =>
    capture(() => ({
      fg: FG_TOKENS.map((t) => theme.getFgAnsi(t)),
      bg: BG_TOKENS.map((t) => theme.getBgAnsi(t)),
      mode: theme.getColorMode(),
      name: theme.name,
      appearance: theme.appearance,
    })),
  );
  needs(["theme"], "theme/borders", () =>
    capture(() => ({
      thinking: ["off", "minimal", "low", "medium", "high", "xhigh", "max", "bogus"].map((level) => theme.getThinkingBorderColor(level)("─")),
      bash: theme.getBashModeBorderColor()("─"),
    })),
  );
  const styles = [
    { fg: "accent" },
    { bg: "selectedBg" },
    { fg: "error", bg: "toolErrorBg", bold: true },
    { bold: true, dim: true, italic: true, underline: true, inverse: true, strikethrough: true },
    { fg: "muted", dim: true },
    {},
  ];
  styles.forEach((style, i) => needs(["theme"], `theme/style/${i}`, () => capture(() => theme.style("styled", style))));
  needs(["theme"], "theme/colors", () => capture(() => theme.colors));

  // The Theme class with hand-picked colours, in both colour modes.
  for (const mode of ["truecolor", "256color"]) {
    needs(["Theme"], `Theme/${mode}`, () =>
      capture(() => {
        const { fg, bg } = customColors();
        const custom = new agent.Theme(fg, bg, mode, { name: "custom" });
        return {
          fg: FG_TOKENS.map((t) => custom.fg(t, "x")),
          bg: BG_TOKENS.map((t) => custom.bg(t, "x")),
          appearance: custom.appearance,
          colors: custom.colors,
          style: custom.style("s", { fg: "accent", bg: "selectedBg", underline: true }),
        };
      }),
    );
  }
  needs(["Theme"], "Theme/appearance", () =>
    capture(() => [
      new agent.Theme({ ...customColors().fg, text: "#ffffff" }, { ...customColors().bg, selectedBg: "#000000" }, "truecolor").appearance,
      new agent.Theme(customColors().fg, customColors().bg, "256color", { appearance: "light" }).appearance,
    ]),
  );
  needs(["Theme"], "Theme/badColor", () =>
    capture(() => new agent.Theme({ ...customColors().fg, accent: "not-a-colour" }, customColors().bg, "truecolor")),
  );
  needs(["Theme"], "Theme/missingFallback", () => {
    const { fg, bg } = customColors();
    delete fg.muted;
    return capture(() => new agent.Theme(fg, bg, "truecolor").fg("scrollbarTrack", "x"));
  });

  // Themes for pi-tui components, from the current theme.
  needs(["getMarkdownTheme"], "getMarkdownTheme/functions", () =>
    capture(() => {
      const md = agent.getMarkdownTheme();
      const out = {};
      for (const [key, fn] of Object.entries(md)) {
        if (key === "highlightCode") out[key] = fn("let a = 1;\nlet b = 2;");
        else out[key] = typeof fn === "function" ? fn("x") : fn;
      }
      return out;
    }),
  );
  for (const [name, doc] of Object.entries(MARKDOWN_DOCS)) {
    needs(["getMarkdownTheme", "tui.Markdown"], `getMarkdownTheme/render/${name}`, () =>
      capture(() => Object.fromEntries([12, 40, 80].map((w) => [w, [...new tui.Markdown(doc, 1, 0, agent.getMarkdownTheme()).render(w)]]))),
    );
  }
  needs(["getSelectListTheme", "tui.SelectList"], "getSelectListTheme", () =>
    capture(() => {
      const t = agent.getSelectListTheme();
      const list = new tui.SelectList(SELECT_ITEMS, 3, t);
      list.handleInput("\x1b[B");
      return {
        functions: Object.fromEntries(Object.entries(t).map(([k, fn]) => [k, fn("x")])),
        lines: [...list.render(40)],
      };
    }),
  );
  needs(["getSettingsListTheme", "tui.SettingsList"], "getSettingsListTheme", () =>
    capture(() => {
      const t = agent.getSettingsListTheme();
      const items = [
        { id: "a", label: "Alpha", currentValue: "on", values: ["on", "off"], description: "First setting" },
        { id: "b", label: "Beta", currentValue: "x" },
      ];
      const list = new tui.SettingsList(items, 5, t, () => {}, () => {});
      return {
        label: [t.label("l", true), t.label("l", false)],
        value: [t.value("v", true), t.value("v", false)],
        description: t.description("d"),
        cursor: t.cursor,
        hint: t.hint("h"),
        lines: [...list.render(40)],
      };
    }),
  );
  needs(["highlightCode"], "highlightCode", () =>
    capture(() => [agent.highlightCode("a\nb"), agent.highlightCode("x = 1", "nosuchlanguage"), agent.highlightCode("")]),
  );
  needs(["getLanguageFromPath"], "getLanguageFromPath", () => capture(() => PATHS.map((p) => agent.getLanguageFromPath(p) ?? null)));

  // Key hints.
  needs(["keyText"], "keyText", () => capture(() => KEY_IDS.map((id) => agent.keyText(id))));
  needs(["keyHint"], "keyHint", () => capture(() => KEY_IDS.map((id) => agent.keyHint(id, "does it"))));
  needs(["rawKeyHint"], "rawKeyHint", () =>
    capture(() => ["ctrl+c", "alt+enter/escape", "shift+tab", ""].map((key) => agent.rawKeyHint(key, "raw"))),
  );

  // Borders and the bordered loader.
  for (const width of [0, 1, 5, 40]) {
    needs(["DynamicBorder"], `DynamicBorder/default/${width}`, () => capture(() => new agent.DynamicBorder().render(width)));
    needs(["DynamicBorder"], `DynamicBorder/custom/${width}`, () => capture(() => new agent.DynamicBorder((s) => `[${s}]`).render(width)));
  }
  const loaders = { cancellable: undefined, fixed: { cancellable: false } };
  for (const [name, options] of Object.entries(loaders)) {
    for (const [script, data] of Object.entries({ none: [], escape: ["\x1b"], ctrlC: ["\x03"], other: ["x"] })) {
      needs(["BorderedLoader", "theme"], `BorderedLoader/${name}/${script}`, () =>
        capture(() => {
          const log = [];
          const tuiStub = { requestRender: () => {} };
          const loader = new agent.BorderedLoader(tuiStub, theme, "Fetching results…", options);
          loader.onAbort = () => log.push("abort");
          for (const d of data) loader.handleInput(d);
          const lines = Object.fromEntries([10, 40].map((w) => [w, [...loader.render(w)]]));
          const aborted = loader.signal.aborted;
          loader.dispose();
          return { lines, aborted, log };
        }),
      );
    }
  }

  // CustomEditor: app keys first, then pi-tui's Editor; and the example
  // editors (modal-editor, rainbow-editor, border-status-editor) in small.
  const appBindings = (user = {}) =>
    new tui.KeybindingsManager(
      {
        ...tui.TUI_KEYBINDINGS,
        "app.interrupt": { defaultKeys: "escape", description: "Cancel or abort" },
        "app.clear": { defaultKeys: "ctrl+c", description: "Clear editor" },
        "app.exit": { defaultKeys: "ctrl+d", description: "Exit when editor is empty" },
        "app.thinking.cycle": { defaultKeys: "shift+tab", description: "Cycle thinking level" },
        "app.model.cycleForward": { defaultKeys: "ctrl+p", description: "Cycle to next model" },
        "app.editor.external": { defaultKeys: "ctrl+g", description: "Open external editor" },
        "app.clipboard.pasteImage": { defaultKeys: "ctrl+v", description: "Paste image" },
      },
      user,
    );
  const editorTheme = () => ({ borderColor: (s) => theme.fg("borderMuted", s), selectList: agent.getSelectListTheme() });
  const fakeTui = (log, rows = 24) => ({ terminal: { rows, columns: 80 }, requestRender: () => log.push("render") });
  const wire = (editor, log, handlers) => {
    editor.onChange = (t) => log.push(`change:${t}`);
    editor.onSubmit = (t) => log.push(`submit:${t}`);
    if (handlers.includes("escape")) editor.onEscape = () => log.push("onEscape");
    if (handlers.includes("ctrlD")) editor.onCtrlD = () => log.push("onCtrlD");
    if (handlers.includes("paste")) editor.onPasteImage = () => log.push("pasteImage");
    if (handlers.includes("shortcut")) editor.onExtensionShortcut = (d) => (d === "\x1bx" ? (log.push("shortcut"), true) : false);
    if (handlers.includes("actions")) {
      for (const action of ["app.interrupt", "app.exit", "app.clear", "app.thinking.cycle", "app.model.cycleForward", "app.editor.external"]) {
        editor.onAction(action, () => log.push(`action:${action}`));
      }
    }
  };
  const customScripts = {
    typing: ["h", "i", " ", "\x1b[D", "X", "\r"],
    escape: ["a", "\x1b"],
    ctrlC: ["a", "\x03", "b"],
    ctrlDEmpty: ["\x04"],
    ctrlDText: ["a", "b", "\x01", "\x04"],
    appKeys: ["\x1b[Z", "\x10", "\x07", "\x16", "\x1bx", "y"],
    history: ["o", "n", "e", "\r", "\x10", "\x1b[A"],
  };
  const customVariants = {
    bare: { handlers: [] },
    actions: { handlers: ["actions"] },
    all: { handlers: ["escape", "ctrlD", "paste", "shortcut", "actions"] },
    historyKeys: { handlers: ["actions"], user: { "tui.editor.historyPrevious": "ctrl+p" } },
  };
  for (const [variant, { handlers, user }] of Object.entries(customVariants)) {
    for (const [script, data] of Object.entries(customScripts)) {
      needs(["CustomEditor", "tui.KeybindingsManager", "theme"], `CustomEditor/${variant}/${script}`, () =>
        capture(() => {
          const log = [];
          const editor = new agent.CustomEditor(fakeTui(log), editorTheme(), appBindings(user), { paddingX: 1 });
          editor.focused = true;
          wire(editor, log, handlers);
          editor.onSubmit = (t) => {
            log.push(`submit:${t}`);
            editor.addToHistory(t);
          };
          editor.render(30);
          for (const d of data) {
            editor.handleInput(d);
            editor.render(30);
          }
          return { lines: editor.render(30), text: editor.getText(), cursor: editor.getCursor(), log };
        }),
      );
    }
  }
  const indicator = {
    renderInBorder: (w) => theme.fg("accent", `⠋ Working… (${w})`),
    renderSpinnerInBorder: () => theme.fg("accent", "⠋"),
  };
  const emptyIndicator = { renderInBorder: () => "", renderSpinnerInBorder: () => "" };
  const statusCases = {
    none: { embed: true },
    notEmbedded: { embed: false, indicator },
    embedded: { embed: true, indicator },
    empty: { embed: true, indicator: emptyIndicator },
    scrolled: { embed: true, indicator, text: Array.from({ length: 12 }, (_, i) => `row ${i}`).join("\n"), keys: ["\x1b[A", "\x1b[A", "\x1b[A", "\x1b[A", "\x1b[A", "\x1b[A", "\x1b[A", "\x1b[A"] },
  };
  for (const [name, c] of Object.entries(statusCases)) {
    needs(["CustomEditor", "tui.KeybindingsManager", "theme"], `CustomEditor/status/${name}`, () =>
      capture(() => {
        const out = {};
        for (const width of [0, 3, 8, 12, 20, 28, 40, 80]) {
          const log = [];
          const editor = new agent.CustomEditor(fakeTui(log, 10), editorTheme(), appBindings(), { embedWorkingStatus: c.embed });
          if (c.indicator) editor.setWorkingStatusIndicator(c.indicator);
          if (c.text) editor.setText(c.text);
          editor.render(Math.max(1, width));
          for (const key of c.keys ?? []) {
            editor.handleInput(key);
            editor.render(Math.max(1, width));
          }
          out[width] = editor.render(width);
        }
        return out;
      }),
    );
  }

  // The examples' editors, as extensions write them.
  const exampleEditors = () => {
    const NORMAL = { h: "\x1b[D", j: "\x1b[B", k: "\x1b[A", l: "\x1b[C", 0: "\x01", $: "\x05", x: "\x1b[3~", i: null, a: null };
    class ModalEditor extends agent.CustomEditor {
      mode = "insert";
      handleInput(data) {
        if (tui.matchesKey(data, "escape")) {
          if (this.mode === "insert") this.mode = "normal";
          else super.handleInput(data);
          return;
        }
        if (this.mode === "insert") return super.handleInput(data);
        if (data in NORMAL) {
          if (data === "i") this.mode = "insert";
          else if (data === "a") {
            this.mode = "insert";
            super.handleInput("\x1b[C");
          } else if (NORMAL[data]) super.handleInput(NORMAL[data]);
          return;
        }
        if (data.length === 1 && data.charCodeAt(0) >= 32) return;
        super.handleInput(data);
      }
      render(width) {
        const lines = super.render(width);
        const label = this.mode === "normal" ? " NORMAL " : " INSERT ";
        const last = lines.length - 1;
        if (tui.visibleWidth(lines[last]) >= label.length) lines[last] = tui.truncateToWidth(lines[last], width - label.length, "") + label;
        return lines;
      }
    }
    class RainbowEditor extends agent.CustomEditor {
      render(width) {
        return super.render(width).map((line) =>
          line.replace(/ultrathink/gi, (m) => [...m].map((c, i) => `\x1b[38;5;${196 + (i % 6)}m${c}`).join("") + "\x1b[0m"),
        );
      }
    }
    const fit = (left, right, width, border) => {
      if (width <= 0) return "";
      if (width === 1) return border("─");
      let l = left;
      let r = right;
      while (2 + tui.visibleWidth(l) + tui.visibleWidth(r) + 3 > width && tui.visibleWidth(r) > 0) r = tui.truncateToWidth(r, Math.max(0, tui.visibleWidth(r) - 1), "");
      while (2 + tui.visibleWidth(l) + tui.visibleWidth(r) + 3 > width && tui.visibleWidth(l) > 0) l = tui.truncateToWidth(l, Math.max(0, tui.visibleWidth(l) - 1), "");
      const gap = Math.max(0, width - 2 - tui.visibleWidth(l) - tui.visibleWidth(r));
      return `${border("─")}${l}${border("─".repeat(gap))}${r}${border("─")}`;
    };
    class BorderStatusEditor extends agent.CustomEditor {
      constructor(t, th, kb) {
        super(t, th, kb, { paddingX: 0 });
      }
      render(width) {
        const lines = super.render(width);
        const border = (text) => this.borderColor(text);
        lines[0] = fit(theme.fg("accent", " ⠋ "), "", width, border);
        lines[lines.length - 1] = fit(theme.fg("muted", " anthropic/claude · high "), theme.fg("muted", " ctx 12%/200k · ~/src (main) "), width, border);
        return lines;
      }
    }
    return { ModalEditor, RainbowEditor, BorderStatusEditor };
  };
  // Diffs as the edit tool shows them; one line replaced by one line gets its changed words inverted.
  const DIFFS = {
    empty: "",
    context: "  1 const a = 1;\n  2 const b = 2;",
    oneLineChange: " 1 function f() {\n-2   return a + b;\n+2   return a - b;\n 3 }",
    indentChange: "-4 \tif (x) {\n+4     if (y) {",
    leadingInsert: "-1     foo(bar)\n+1     await foo(bar, baz)",
    wholeLine: "-7 alpha beta\n+7 gamma delta epsilon",
    whitespaceOnly: "-3 a  b\n+3 a b",
    punctuation: "-9 x.y(z);\n+9 x?.y(z, w);",
    unicode: "-1 café résumé naïve\n+1 cafe résumé naive ✓",
    multiLine: "-1 one\n-2 two\n+1 uno\n+2 dos\n+3 tres",
    removedOnly: "-5 gone\n-6 also gone\n 7 kept",
    addedOnly: "+5 new\n+6\tnew too",
    addedBeforeRemoved: "+1 first\n-1 second",
    ellipsis: " 10 a\n    ...\n 40 b",
    unnumbered: "- plain removed\n+ plain added",
    noSpace: "-1x\n+1y",
    wideNumbers: "-1234 old value\n+1234 new value\n 1235 tail",
    emptyContent: "-3 \n+3 x",
  };
  for (const [name, text] of Object.entries(DIFFS)) {
    needs(["renderDiff"], `renderDiff/${name}`, () => capture(() => agent.renderDiff(text)));
  }
  needs(["renderDiff", "generateDiffString"], "renderDiff/fromEditDiff", () =>
    capture(() => {
      const before = "const x = 1;\nfunction add(a, b) {\n\treturn a + b;\n}\n// end\n";
      const after = "const x = 2;\nfunction add(a, b, c) {\n\treturn a + b + c;\n}\n// the end\nexport { add };\n";
      return agent.renderDiff(agent.generateDiffString(before, after).diff, { filePath: "x.js" });
    }),
  );
  const exampleScripts = {
    ModalEditor: ["a", "b", "c", "\x1b", "h", "h", "x", "q", "0", "i", "Z", "\x1b", "$", "a", "!", "\x1b", "\x1b", "\x03"],
    RainbowEditor: [..."think ultrathink now", "\x1b[D", "\x1b[D"],
    BorderStatusEditor: [..."hello", "\r", "x"],
  };
  for (const [name, data] of Object.entries(exampleScripts)) {
    needs(["CustomEditor", "tui.KeybindingsManager", "theme"], `CustomEditor/example/${name}`, () =>
      capture(() => {
        const out = {};
        for (const width of [5, 20, 40, 80]) {
          const log = [];
          const editor = new (exampleEditors()[name])(fakeTui(log), editorTheme(), appBindings());
          editor.focused = true;
          wire(editor, log, ["actions"]);
          editor.render(width);
          for (const d of data) {
            editor.handleInput(d);
            editor.render(width);
          }
          out[width] = { lines: editor.render(width), text: editor.getText(), cursor: editor.getCursor(), log };
        }
        return out;
      }),
    );
  }
  addMessageComponentCases(needs, { agent, tui });
  addDialogComponentCases(needs, { agent, tui });
  addSelectorComponentCases(needs, { agent, tui });
  return results;
}
