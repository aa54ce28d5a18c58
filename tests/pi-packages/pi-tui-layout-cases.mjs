// Cases for pi-tui's layout and input pieces: program-status reports,
// compositing one line over another, stacks, scroll views, mouse regions
// and the stdin buffer. Run by runCases in pi-tui-cases.mjs, so the
// recorder and both differentials see them.

const ESC = "\x1b";
const red = (s) => `${ESC}[31m${s}${ESC}[39m`;
const link = (url, s) => `${ESC}]8;;${url}\x07${s}${ESC}]8;;\x07`;

function capture(fn) {
  try {
    const value = fn();
    return value === undefined ? { undefined: true } : { value };
  } catch (err) {
    return { error: String(err?.message ?? err) };
  }
}

function programStatusCases(tui, needs) {
  const STATUSES = {
    idle: { state: "idle" },
    working: { state: "working", app: "pi" },
    blocked: { state: "blocked", kind: "permission", app: "pi-agent_1.0+x" },
    blockedNoKind: { state: "blocked", kind: "" },
    kindNotBlocked: { state: "working", kind: "input" },
    done: { state: "done", message: "All tests passed" },
    failed: { state: "failed", message: "  build failed\nsee log\t(exit 2)  " },
    appWithSpace: { state: "idle", app: "my app" },
    appTooLong: { state: "idle", app: "a".repeat(33) },
    appLongest: { state: "idle", app: "a".repeat(32) },
    appEmpty: { state: "idle", app: "" },
    appNumber: { state: "idle", app: 123 },
    appUnicode: { state: "idle", app: "pï" },
    messageEmpty: { state: "working", message: "" },
    messageBlank: { state: "working", message: " \n\t " },
    messageControls: { state: "working", message: "a\x1b[31mred\x07\x9bend" },
    messageUnicode: { state: "working", message: "日本語 😀 café" },
    messageLong: { state: "working", message: "x".repeat(3000) },
    messageMultibyte: { state: "working", message: "€".repeat(1000) },
    messageEmojiAtLimit: { state: "working", message: `${"y".repeat(2046)}😀z` },
    messageLoneSurrogate: { state: "working", message: "a\ud800b" },
    messageSurrogatesAtLimit: { state: "working", message: `${"y".repeat(2045)}\ud800\ud800` },
    unknownState: { state: "sleeping", message: "zz" },
    noState: { message: "hi" },
  };
  for (const [name, status] of Object.entries(STATUSES)) {
    needs(["formatProgramStatus"], `formatProgramStatus/${name}`, () => capture(() => tui.formatProgramStatus(status)));
  }
}

function terminalSessionCases(tui, needs) {
  needs(["isAppleTerminalSession"], "isAppleTerminalSession", () => {
    const saved = process.env.TERM_PROGRAM;
    const out = {};
    try {
      for (const program of ["Apple_Terminal", "iTerm.app", undefined]) {
        if (program === undefined) delete process.env.TERM_PROGRAM;
        else process.env.TERM_PROGRAM = program;
        // pi asks on macOS only; elsewhere the answer is always false.
        out[String(program)] = capture(() => tui.isAppleTerminalSession() === (process.platform === "darwin" && program === "Apple_Terminal"));
      }
    } finally {
      if (saved === undefined) delete process.env.TERM_PROGRAM;
      else process.env.TERM_PROGRAM = saved;
    }
    return out;
  });
  const VIEWPORT = Symbol.for("@earendil-works/pi-tui/viewport");
  const TUIS = {
    plain: {},
    marked: { [VIEWPORT]: true },
    markedTruthy: { [VIEWPORT]: 1 },
    markedFalse: { [VIEWPORT]: false },
    otherSymbol: { [Symbol("@earendil-works/pi-tui/viewport")]: true },
    string: "tui",
    null: null,
    undefined: undefined,
  };
  for (const [name, candidate] of Object.entries(TUIS)) {
    needs(["isViewportTUI"], `isViewportTUI/${name}`, () => capture(() => tui.isViewportTUI(candidate)));
  }
}

function compositeCases(tui, needs) {
  const BASES = {
    empty: "",
    ascii: "The quick brown fox jumps over the lazy dog",
    short: "abc",
    styled: `${ESC}[1;31mbold red${ESC}[0m normal ${ESC}[4munderlined text here${ESC}[24m end`,
    colorAcross: `${ESC}[32mgreen all the way across the line${ESC}[39m`,
    cjk: "日本語のテキストです日本語",
    emoji: "😀😁😂🤣😃😄😅😆 grin",
    link: `see ${link("https://pi.dev", red("the docs here"))} now and later`,
    cursor: `ab${ESC}_pi:c\x07cdefghijklmnop`,
    tab: "a\tb\tc\td\te",
    combining: "e\u0301e\u0301 cafe\u0301 cafe\u0301 cafe\u0301",
    kittyImage: `${ESC}_Ga=T,f=100;AAAA${ESC}\\`,
    itermImage: `  ${ESC}]1337;File=inline=1:AAAA\x07`,
    bg: `${ESC}[44m blue background line ${ESC}[49m`,
  };
  const OVERLAYS = {
    plain: "OVERLAY",
    styled: red("red overlay text"),
    cjk: "中文字符",
    empty: "",
    link: link("https://example.com", "lnk"),
    wide: "ｗｉｄｅ",
  };
  const PLACES = [
    [0, 5, 20],
    [3, 4, 20],
    [5, 10, 12],
    [10, 5, 10],
    [2, 3, 5],
    [0, 0, 10],
    [7, 6, 30],
    [1, 2, 3],
    [4, 7, 50],
    [15, 3, 25],
  ];
  for (const [baseName, base] of Object.entries(BASES)) {
    for (const [overlayName, overlay] of Object.entries(OVERLAYS)) {
      needs(["compositeTuiLine"], `compositeTuiLine/${baseName}/${overlayName}`, () =>
        PLACES.map(([start, width, total]) => capture(() => tui.compositeTuiLine(base, overlay, start, width, total))),
      );
    }
  }
}

// Components that log every width they are rendered at.
function block(name, lines, log) {
  return {
    render(width) {
      log.push(`${name}@${width}`);
      return lines;
    },
  };
}

function bar(name, length, log) {
  return {
    render(width) {
      log.push(`${name}@${width}`);
      return [name[0].repeat(Math.min(width, length))];
    },
  };
}

function paragraph(tui, name, text, log) {
  return {
    render(width) {
      log.push(`${name}@${width}`);
      return tui.wrapTextWithAnsi(text, width);
    },
  };
}

function stackCases(tui, needs) {
  const CHILDREN = {
    two: (log) => [bar("alpha", 6, log), bar("beta", 4, log)],
    three: (log) => [bar("alpha", 3, log), block("b", ["b1", "b2", "b3"], log), bar("cc", 10, log)],
    tall: (log) => [block("x", ["x1"], log), block("y", ["y1", "y2", "y3", "y4"], log), block("z", ["z1", "z2"], log)],
    styled: (log) => [block("s", [red("red part"), `${ESC}[1mbold${ESC}[22m`], log), paragraph(tui, "p", "some words that wrap nicely", log)],
    grow: (log) => [{ component: bar("a", 2, log), grow: 1 }, { component: bar("b", 2, log), grow: 2 }, bar("c", 2, log)],
    basis: (log) => [
      { component: bar("a", 20, log), basis: 5 },
      { component: bar("b", 20, log), basis: "auto", maxSize: 4 },
      { component: bar("c", 1, log), minSize: 3 },
    ],
    shrink: (log) => [
      { component: paragraph(tui, "p", "a fairly long paragraph of words", log), shrink: 1 },
      { component: bar("fixed", 8, log), shrink: 0 },
      { component: paragraph(tui, "q", "another run of some text", log), shrink: 2, minSize: 4 },
    ],
    visible: (log) => [
      { component: bar("wide", 6, log), visible: (viewport) => viewport.width >= 20 },
      bar("always", 5, log),
      { component: bar("never", 5, log), visible: () => false },
    ],
    oddOptions: (log) => [
      { component: bar("a", 4, log), grow: 1.7, shrink: -3, minSize: 2.9, maxSize: Infinity },
      { component: bar("b", 4, log), grow: NaN, basis: 2.5 },
      { component: bar("c", 4, log), basis: "50%" },
    ],
    empty: () => [],
  };
  const OPTIONS = {
    plain: undefined,
    gap1: { gap: 1 },
    gap3: { gap: 3 },
    center: { align: "center" },
    end: { align: "end" },
    start: { align: "start", gap: 1.5 },
    badGap: { gap: -2 },
  };
  const WIDTHS = [1, 5, 12, 20, 40];
  for (const kind of ["HStack", "VStack"]) {
    for (const [childName, makeChildren] of Object.entries(CHILDREN)) {
      for (const [optionName, options] of Object.entries(OPTIONS)) {
        needs([kind], `${kind}/${childName}/${optionName}`, () => {
          const out = {};
          for (const width of WIDTHS) {
            out[width] = capture(() => {
              const log = [];
              const stack = new tui[kind](makeChildren(log), options);
              const lines = [...stack.render(width)];
              return { lines, log, children: stack.children.length };
            });
          }
          return out;
        });
      }
    }
    needs([kind], `${kind}/editing`, () =>
      capture(() => {
        const log = [];
        const stack = new tui[kind]();
        const a = bar("a", 3, log);
        const b = bar("b", 3, log);
        const steps = [];
        stack.addChild(a);
        stack.addChild(b, { grow: 1 });
        steps.push(stack.render(10));
        stack.removeChild(a);
        steps.push(stack.render(10));
        stack.removeChild(a);
        stack.clear();
        steps.push(stack.render(10), stack.children.length);
        stack.addChild(a, { basis: 2 });
        steps.push(stack.render(10));
        return { steps, log };
      }),
    );
  }
}

function scrollViewCases(tui, needs) {
  const state = (view, requests) => ({
    scrollTop: view.scrollTop,
    following: view.isFollowingEnd,
    viewport: view.viewportHeight,
    scrollbar: view.scrollbar,
    visible: view.isScrollbarVisible,
    active: view.isScrollbarActive,
    requests: requests.count,
  });
  // Every step: [method, ...arguments]; "layout" is updateLayout with a render counter.
  const SCRIPTS = {
    basic: [{}, ["layout", 10, 4], ["scrollBy", 3], ["scrollBy", 10], ["scrollBy", -2], ["scrollBy", -20], ["scrollBy", 0], ["scrollBy", NaN]],
    follow: [{ follow: "end" }, ["layout", 3, 5], ["layout", 10, 5], ["scrollBy", -2], ["layout", 12, 5], ["scrollToEnd"], ["layout", 15, 5]],
    followSuppressed: [
      { follow: "end" },
      ["layout", 20, 5],
      ["scrollTo", 3],
      ["scrollTo", 15, { disableFollow: true }],
      ["layout", 25, 5],
      ["scrollTo", 20],
      ["scrollTo", 20, { disableFollow: true }],
      ["layout", 30, 5],
      ["scrollToStart"],
    ],
    scrollTo: [{}, ["layout", 30, 10], ["scrollTo", 5.9], ["scrollTo", -4], ["scrollTo", 100], ["scrollTo", Infinity], ["scrollTo", NaN], ["scrollTo", "7"]],
    starts: [{ follow: "end" }, ["layout", 4, 10], ["scrollToStart"], ["layout", 40, 10], ["scrollToStart"], ["scrollToStart"], ["scrollToEnd"], ["scrollToEnd"]],
    shrinkContent: [{}, ["layout", 50, 10], ["scrollTo", 40], ["layout", 20, 10], ["layout", 5, 10], ["layout", 12.7, 3.2], ["layout", -1, -5]],
    alwaysBar: [{ scrollbar: "always" }, ["layout", 10, 4], ["layout", 10, 0], ["setScrollbar", "hidden"], ["setScrollbar", "hidden"], ["setScrollbar", "always"]],
    autoBar: [
      { scrollbar: "auto", scrollbarHideDelayMs: 60000 },
      ["layout", 10, 4],
      ["scrollBy", 1],
      ["setScrollbarActive", true],
      ["scrollBy", 1],
      ["setScrollbarActive", false],
      ["setScrollbarActive", false],
      ["layout", 3, 4],
      ["scrollBy", 1],
      ["layout", 10, 4],
      ["scrollBy", 1],
      ["setScrollbar", "hidden"],
      ["setScrollbar", "auto"],
    ],
    autoFits: [{ scrollbar: "auto" }, ["layout", 3, 4], ["scrollBy", 2], ["setScrollbarActive", true], ["setScrollbar", "always"]],
    activeThenAuto: [
      { scrollbarHideDelayMs: 60000 },
      ["layout", 10, 4],
      ["setScrollbarActive", true],
      ["setScrollbar", "auto"],
      ["setScrollbarActive", false],
      ["setScrollbar", "hidden"],
    ],
  };
  for (const [name, [options, ...steps]] of Object.entries(SCRIPTS)) {
    needs(["ScrollView", "Text"], `ScrollView/${name}`, () => {
      const requests = { count: 0 };
      const requestRender = () => requests.count++;
      const view = new tui.ScrollView(new tui.Text("content", 0, 0), options);
      const out = [state(view, requests)];
      try {
        for (const [method, ...args] of steps) {
          const result =
            method === "layout"
              ? capture(() => view.updateLayout(args[0], args[1], requestRender))
              : capture(() => view[method](...args));
          out.push({ step: [method, ...args.map(String)], result, ...state(view, requests) });
        }
      } finally {
        // A pending "auto" hide timer would keep the recorder running.
        view.setScrollbar("hidden");
      }
      return out;
    });
  }
  needs(["ScrollView", "Text"], "ScrollView/defaults", () => {
    const view = new tui.ScrollView(new tui.Text("x", 0, 0));
    return {
      followEnd: view.followEnd,
      primary: view.primary,
      overscroll: view.overscroll,
      track: view.scrollbarTrackStyle("│"),
      thumb: view.scrollbarThumbStyle("┃"),
      children: view.children.length,
      layoutNode: Object.keys(view[Symbol.for("@earendil-works/pi-tui/layout-node")]()),
    };
  });
  needs(["ScrollView", "Text"], "ScrollView/options", () => {
    const view = new tui.ScrollView(new tui.Text("x", 0, 0), { follow: "end", primary: true, overscroll: "contain" });
    return [view.followEnd, view.isFollowingEnd, view.primary, view.overscroll];
  });
  for (const axis of ["vertical", "horizontal", "both", null]) {
    needs(["ScrollView", "Text"], `ScrollView/axis/${axis}`, () =>
      capture(() => {
        new tui.ScrollView(new tui.Text("x", 0, 0), { axis });
        return "ok";
      }),
    );
  }
  needs(["ScrollView", "Text"], "ScrollView/children", () => {
    const view = new tui.ScrollView(new tui.Text("x", 0, 0));
    return [
      capture(() => view.addChild(new tui.Text("y"))),
      capture(() => view.removeChild(view.children[0])),
      capture(() => view.clear()),
      view.children.length,
    ];
  });
  for (const scrollbar of ["hidden", "auto", "always"]) {
    needs(["ScrollView", "Text"], `ScrollView/render/${scrollbar}`, () => {
      const view = new tui.ScrollView(new tui.Text("a few words to wrap around", 0, 0), { scrollbar });
      return [1, 2, 5, 10, 40].map((width) => capture(() => ({ contentWidth: view.getContentWidth(width), lines: [...view.render(width)] })));
    });
  }
}

function mouseRegionCases(tui, needs) {
  const event = { x: 2, y: 1, screenX: 12, screenY: 6, width: 20, height: 3, action: "press", button: "left" };
  const ANSWERS = {
    none: undefined,
    nothing: {},
    handled: { handled: true },
    capture: { capture: true },
    focus: { focus: true },
    notHandled: { handled: false, cursor: "pointer" },
    forwarded: { handled: true, target: { component: "inner", originX: 0, originY: 0, width: 1, height: 1 } },
    forwardedFocus: { focus: true, target: { component: "inner", originX: 0, originY: 0, width: 1, height: 1 } },
  };
  for (const [name, answer] of Object.entries(ANSWERS)) {
    for (const withInput of [false, true]) {
      needs(["MouseRegion"], `MouseRegion/${name}${withInput ? "/input" : ""}`, () =>
        capture(() => {
          const heard = [];
          const child = {
            render: (width) => [`child@${width}`],
            handleMouse: (e) => {
              heard.push(["child", e.x, e.y]);
              return answer;
            },
            invalidate: () => heard.push(["invalidate"]),
          };
          if (withInput) child.handleInput = () => {};
          const region = new tui.MouseRegion(child, (e) => {
            heard.push(["region", e.x, e.y]);
            return { handled: true, from: "region" };
          });
          const result = region.handleMouse(event);
          region.invalidate();
          const shown = result && { ...result };
          if (shown?.target) shown.target = { ...shown.target, component: shown.target.component === child ? "<child>" : shown.target.component };
          if (shown?.focusTarget) shown.focusTarget = shown.focusTarget === child ? "<child>" : "<other>";
          return { result: shown ?? null, heard, lines: region.render(7) };
        }),
      );
    }
  }
  needs(["MouseRegion"], "MouseRegion/childWithoutMouse", () =>
    capture(() => {
      const region = new tui.MouseRegion({ render: () => ["plain"] }, (e) => ({ handled: e.y === 1 }));
      return [region.handleMouse(event), region.handleMouse({ ...event, y: 0 }), region.render(3)];
    }),
  );
}

function stdinBufferCases(tui, needs) {
  const SCRIPTS = {
    text: ["abc"],
    loneEscape: ["\x1b"],
    splitCsi: ["\x1b[", "A"],
    arrowsBatched: ["\x1b[A\x1b[B\x1bOC"],
    sgrMouse: ["\x1b[<35;20;5m"],
    sgrMouseSplit: ["\x1b", "[<35", ";20;5M"],
    sgrMouseBad: ["\x1b[<35;x;5m"],
    x10Mouse: ["\x1b[M abc"],
    x10MouseShort: ["\x1b[M a"],
    altKeys: ["\x1ba\x1bb\x1b\r"],
    doubleEscape: ["\x1b\x1b"],
    doubleEscapeKitty: ["\x1b\x1b[27;1:3u"],
    doubleEscapeOsc: ["\x1b\x1b]x"],
    ss3Split: ["\x1bO", "P"],
    paste: ["\x1b[200~hello\nworld\x1b[201~x"],
    pasteSplit: ["a\x1b[200~pa", "ste\x1b[20", "1~rest"],
    pasteAfterPartial: ["\x1b[1;5\x1b[200~p\x1b[201~"],
    pasteUnended: ["\x1b[200~never ends"],
    osc11: ["\x1b]11;rgb:0000/0000/0000\x07"],
    osc11St: ["\x1b]11;rgb:0000/", "0000/0000\x1b", "\\"],
    oscCancelled: ["\x1b]11;rgb\x18abc"],
    oscSubstituted: ["\x1b]4;1;rgb\x1aq"],
    oscInterrupted: ["\x1b]11;rgb:\x1b[A"],
    oscEscPending: ["\x1b]11;rgb:\x1b"],
    oscNotReply: ["\x1b]abc"],
    programStatusReply: ["\x1b]7501;?v=1\x1b\\"],
    xtversion: ["\x1bP>|xterm(390)\x1b\\"],
    dcsOther: ["\x1bPabc\x1b\\"],
    kittyGraphics: ["\x1b_Gi=1;OK\x1b\\"],
    kittyGraphicsPartial: ["\x1b_Gi=31,p=2;EN"],
    apcOther: ["\x1b_abc\x07"],
    kittyDuplicate: ["\x1b[97u", "a"],
    kittyDuplicateOther: ["\x1b[97u", "b"],
    kittyControl: ["\x1b[5u", "\x05"],
    kittyAlternates: ["\x1b[97:65u", "a", "a"],
    kittyModified: ["\x1b[97;5u", "a"],
    emoji: ["😀x"],
    accented: ["é"],
    empty: [""],
    emptyWithPending: ["\x1b[", ""],
    unknownEscape: ["\x1b#8"],
  };
  const run = (options, chunks) => {
    const events = [];
    const buffer = new tui.StdinBuffer(options);
    buffer.on("data", (data) => events.push(["data", data]));
    buffer.on("paste", (data) => events.push(["paste", data]));
    try {
      for (const chunk of chunks) buffer.process(typeof chunk === "function" ? chunk() : chunk);
      return { events, buffered: buffer.getBuffer(), paste: buffer.pasteMode, flushed: buffer.flush() };
    } finally {
      buffer.destroy();
    }
  };
  for (const [name, chunks] of Object.entries(SCRIPTS)) {
    needs(["StdinBuffer"], `StdinBuffer/${name}`, () => capture(() => run(undefined, chunks)));
  }
  needs(["StdinBuffer"], "StdinBuffer/buffers", () => ({
    highByte: capture(() => run(undefined, [() => Buffer.from([0xe1])])),
    highByteDel: capture(() => run(undefined, [() => Buffer.from([0xff])])),
    utf8: capture(() => run(undefined, [() => Buffer.from("héllo")])),
    twoBytes: capture(() => run(undefined, [() => Buffer.from([0x1b, 0x5b])])),
  }));
  needs(["StdinBuffer"], "StdinBuffer/options", () => {
    const plain = new tui.StdinBuffer();
    const custom = new tui.StdinBuffer({ timeout: 5, escapeTimeout: 1 });
    return [plain.timeoutMs, plain.escapeTimeoutMs, custom.timeoutMs, custom.escapeTimeoutMs];
  });
  needs(["StdinBuffer"], "StdinBuffer/clear", () => {
    const events = [];
    const buffer = new tui.StdinBuffer();
    buffer.on("data", (data) => events.push(data));
    buffer.process("\x1b[200~half a paste");
    buffer.clear();
    buffer.process("after\x1b[");
    const kept = buffer.getBuffer();
    buffer.clear();
    return { events, kept, after: buffer.getBuffer(), paste: buffer.pasteMode, flushed: buffer.flush() };
  });
  needs(["StdinBuffer"], "StdinBuffer/listeners", () => {
    const heard = [];
    const buffer = new tui.StdinBuffer();
    const onData = (data) => heard.push(`on:${data}`);
    buffer.once("data", (data) => heard.push(`once:${data}`));
    buffer.on("data", onData);
    buffer.process("ab");
    buffer.off("data", onData);
    buffer.process("c");
    return heard;
  });
}

export function layoutCases(tui, needs) {
  programStatusCases(tui, needs);
  terminalSessionCases(tui, needs);
  compositeCases(tui, needs);
  stackCases(tui, needs);
  scrollViewCases(tui, needs);
  mouseRegionCases(tui, needs);
  stdinBufferCases(tui, needs);
}
