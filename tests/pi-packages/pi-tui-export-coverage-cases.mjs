// Cases for pi-tui exports that no other case calls by name:
// getSelectPageIndex, isFocusable, isKittyProtocolActive and
// getNativeClipboard. Run by runCases in pi-tui-cases.mjs, so the recorder
// and both differentials see them. State they touch (the Kitty protocol
// flag, DISPLAY) is put back after each case.
import { capture } from "./pi-tui-cases.mjs";

const ESC = "\x1b";

/** Like capture, an error by its class only: the engine's own words differ (docs/engine-notes.md note 37). */
function captureClass(fn) {
  try {
    const value = fn();
    return value === undefined ? { undefined: true } : { value };
  } catch (err) {
    return { error: err?.name ?? typeof err };
  }
}

/** `run()` with the Kitty protocol flag set to `active`, then put back. */
function withKitty(tui, active, run) {
  const before = tui.isKittyProtocolActive();
  tui.setKittyProtocolActive(active);
  try {
    return run();
  } finally {
    tui.setKittyProtocolActive(before);
  }
}

export function exportCoverageCases(tui, needs) {
  // --- getSelectPageIndex ------------------------------------------------------------
  const PAGE_UP = `${ESC}[5~`;
  const PAGE_DOWN = `${ESC}[6~`;
  const positions = [
    [0, 10, 5],
    [3, 10, 5],
    [8, 10, 5],
    [9, 10, 5],
    [0, 0, 5],
    [0, 1, 5],
    [4, 10, 0],
    [4, 10, 1],
    [4, 10, 100],
    [12, 10, 5],
    [-3, 10, 2],
  ];
  const pageIndexes = (keybindings, data) => positions.map(([selected, count, size]) => tui.getSelectPageIndex(keybindings, data, selected, count, size) ?? "<undefined>");
  needs(["getSelectPageIndex", "KeybindingsManager", "TUI_KEYBINDINGS", "setKittyProtocolActive"], "pi-tui exports: getSelectPageIndex with the default keys", () =>
    capture(() =>
      withKitty(tui, false, () => {
        const keybindings = new tui.KeybindingsManager(tui.TUI_KEYBINDINGS);
        return {
          pageUp: pageIndexes(keybindings, PAGE_UP),
          pageDown: pageIndexes(keybindings, PAGE_DOWN),
          otherKeys: ["x", "", `${ESC}[A`, `${ESC}[B`, "\r"].map((data) => tui.getSelectPageIndex(keybindings, data, 3, 10, 5) ?? "<undefined>"),
        };
      }),
    ),
  );
  needs(["getSelectPageIndex", "KeybindingsManager", "TUI_KEYBINDINGS", "setKittyProtocolActive"], "pi-tui exports: getSelectPageIndex with page keys rebound by the user", () =>
    capture(() =>
      withKitty(tui, false, () => {
        const keybindings = new tui.KeybindingsManager(tui.TUI_KEYBINDINGS, { "tui.select.pageUp": "ctrl+u", "tui.select.pageDown": ["ctrl+d", "pageDown"] });
        return {
          ctrlU: tui.getSelectPageIndex(keybindings, "\x15", 7, 10, 3),
          ctrlD: tui.getSelectPageIndex(keybindings, "\x04", 7, 10, 3),
          pageUpNoLonger: tui.getSelectPageIndex(keybindings, PAGE_UP, 7, 10, 3) ?? "<undefined>",
          pageDownStill: tui.getSelectPageIndex(keybindings, PAGE_DOWN, 2, 10, 3),
        };
      }),
    ),
  );
  needs(["getSelectPageIndex"], "pi-tui exports: getSelectPageIndex asks only the keybindings' matches", () =>
    capture(() => {
      const asked = [];
      const keybindings = {
        matches: (data, id) => {
          asked.push([data, id]);
          return data === "down" && id === "tui.select.pageDown";
        },
      };
      return { down: tui.getSelectPageIndex(keybindings, "down", 1, 4, 2), other: tui.getSelectPageIndex(keybindings, "other", 1, 4, 2) ?? "<undefined>", asked };
    }),
  );
  needs(["getSelectPageIndex"], "pi-tui exports: getSelectPageIndex without keybindings", () => capture(() => tui.getSelectPageIndex(undefined, PAGE_DOWN, 0, 10, 5)));

  // --- isFocusable ---------------------------------------------------------------------
  needs(["isFocusable", "Input", "Text"], "pi-tui exports: isFocusable of components and plain objects", () =>
    capture(() => ({
      input: tui.isFocusable(new tui.Input()),
      text: tui.isFocusable(new tui.Text("x")),
      focusedFalse: tui.isFocusable({ focused: false }),
      focusedUndefined: tui.isFocusable({ focused: undefined }),
      inherited: tui.isFocusable(Object.create({ focused: true })),
      empty: tui.isFocusable({}),
      null: tui.isFocusable(null),
      array: tui.isFocusable([]),
      fn: tui.isFocusable(Object.assign(() => {}, { focused: true })),
    })),
  );
  for (const [label, item] of [
    ["undefined", undefined],
    ["a string", "focused"],
    ["a number", 1],
  ]) {
    needs(["isFocusable"], `pi-tui exports: isFocusable of ${label}`, () => captureClass(() => tui.isFocusable(item)));
  }

  // --- isKittyProtocolActive ---------------------------------------------------------------
  needs(["isKittyProtocolActive", "setKittyProtocolActive"], "pi-tui exports: isKittyProtocolActive follows setKittyProtocolActive", () =>
    capture(() => {
      const before = tui.isKittyProtocolActive();
      const seen = [];
      try {
        for (const active of [true, false, true]) {
          tui.setKittyProtocolActive(active);
          seen.push(tui.isKittyProtocolActive());
        }
      } finally {
        tui.setKittyProtocolActive(before);
      }
      return { type: typeof before, seen, restored: tui.isKittyProtocolActive() === before };
    }),
  );

  // --- getNativeClipboard --------------------------------------------------------------------
  needs(["getNativeClipboard"], "pi-tui exports: getNativeClipboard in a headless process", () =>
    capture(() => {
      // Headless: no display to reach, on any platform pi-tui looks for one.
      const display = process.env.DISPLAY;
      delete process.env.DISPLAY;
      try {
        const clipboard = tui.getNativeClipboard();
        return { type: typeof clipboard, linux: process.platform === "linux" ? clipboard ?? "<undefined>" : "<not linux>" };
      } finally {
        if (display !== undefined) process.env.DISPLAY = display;
      }
    }),
  );
}
