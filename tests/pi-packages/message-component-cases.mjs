// Cases of the components pi-coding-agent gives extensions to show
// conversation items (user and assistant messages, tool and bash runs,
// custom messages, branch/compaction summaries, skill blocks) and its
// footer, for the UI case table (ui-cases.mjs): the lines they render at
// several widths, first as made and then after each state change.

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
 * At each width, a fresh component from `make()` rendered as made and
 * after each `[label, change]` step. `cleanup` stops what the component
 * left running (a spinner).
 */
function renders(make, steps = [], cleanup = () => {}) {
  const out = {};
  for (const width of WIDTHS) {
    out[width] = capture(() => {
      const component = make();
      try {
        const frames = [["made", [...component.render(width)]]];
        for (const [label, change] of steps) {
          change(component);
          frames.push([label, [...component.render(width)]]);
        }
        return frames;
      } finally {
        cleanup(component);
      }
    });
  }
  return out;
}

const ui = { requestRender: () => {} };

/** A transformer that shows what it was told, and two that must be ignored. */
const TRANSFORMERS = [
  (markdown, context) => `${markdown}\n\n*${context.messageType} ${context.isStreaming} ${context.availableWidth} ${context.messageId} ${context.timestamp}*`,
  () => {
    throw new Error("broken transformer");
  },
  () => 42,
];

const assistant = (content, extra = {}) => ({
  role: "assistant",
  content,
  api: "x",
  provider: "x",
  model: "m",
  usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
  stopReason: "stop",
  timestamp: 1,
  ...extra,
});
const text = (value) => ({ type: "text", text: value });
const thinking = (value) => ({ type: "thinking", thinking: value });
const toolCall = { type: "toolCall", id: "c1", name: "read", arguments: { path: "a.txt" } };

const SUMMARY = "## Goal\nFix the **parser**\n\n- one\n- two with a longer line that wraps at narrow widths";

/** Adds the cases through `needs(names, id, run)`; `agent` is pi-coding-agent, `tui` pi-tui. */
export function addMessageComponentCases(needs, { agent, tui }) {
  addUserCases(needs, agent);
  addAssistantCases(needs, agent);
  addCollapsibleCases(needs, agent);
  addCustomMessageCases(needs, agent, tui);
  addBashCases(needs, agent);
  addToolExecutionCases(needs, agent, tui);
  addFooterCases(needs, agent);
}

function addUserCases(needs, agent) {
  const USER_TEXTS = {
    plain: "hello there",
    markdown: "Please **fix** `parse()`:\n\n3. third\n4. fourth\n\n> quoted",
    escapes: "a \\* b \\_c\\_ and 1\\. not a list",
    long: "A long request that goes on and on so that it has to wrap over several lines at every width we try here.",
    empty: "",
    blank: "   \n  ",
  };
  for (const [name, value] of Object.entries(USER_TEXTS)) {
    needs(["UserMessageComponent"], `UserMessageComponent/${name}`, () => renders(() => new agent.UserMessageComponent(value)));
  }
  needs(["UserMessageComponent"], "UserMessageComponent/paddingAndTransformers", () =>
    renders(() => new agent.UserMessageComponent("with *options*", undefined, 0, TRANSFORMERS, "msg-1", 1234), [
      ["setOutputPad(3)", (c) => c.setOutputPad(3)],
      ["renderedAgain", () => {}],
    ]),
  );
}

function addAssistantCases(needs, agent) {
  const MESSAGES = {
    text: assistant([text("  The answer is **42**.  ")]),
    thinkingThenText: assistant([thinking("Let me think."), thinking("  "), thinking("More thought."), text("Done.")]),
    twoThinkingRuns: assistant([thinking("first run"), text("middle"), thinking("second run"), text("end")]),
    onlyThinking: assistant([thinking("just thinking")]),
    blankBlocks: assistant([text("   "), thinking(" ")]),
    withToolCall: assistant([text("Reading."), toolCall], { stopReason: "error", errorMessage: "tool failed" }),
    truncated: assistant([text("cut"), toolCall], { stopReason: "length" }),
    abortedDefault: assistant([text("partial")], { stopReason: "aborted", errorMessage: "Request was aborted" }),
    abortedOwn: assistant([], { stopReason: "aborted", errorMessage: "Stopped by the user" }),
    abortedNoMessage: assistant([], { stopReason: "aborted" }),
    error: assistant([text("so far")], { stopReason: "error", errorMessage: "rate limited" }),
    errorNoMessage: assistant([], { stopReason: "error" }),
  };
  for (const [name, message] of Object.entries(MESSAGES)) {
    needs(["AssistantMessageComponent"], `AssistantMessageComponent/${name}`, () => renders(() => new agent.AssistantMessageComponent(message)));
  }
  needs(["AssistantMessageComponent"], "AssistantMessageComponent/hiddenThinking", () =>
    renders(() => new agent.AssistantMessageComponent(MESSAGES.twoThinkingRuns, true), [
      ["setHiddenThinkingLabel(Pondering)", (c) => c.setHiddenThinkingLabel("Pondering")],
      ["setHiddenThinkingLabel(blank)", (c) => c.setHiddenThinkingLabel("  ")],
      ["setHideThinkingBlock(false)", (c) => c.setHideThinkingBlock(false)],
    ]),
  );
  needs(["AssistantMessageComponent"], "AssistantMessageComponent/updates", () =>
    renders(() => new agent.AssistantMessageComponent(undefined, false, undefined, "Thinking...", 1, TRANSFORMERS, "a-1", 99), [
      ["streaming", (c) => c.updateContent(assistant([thinking("hmm"), text("Partial answ")]), true)],
      ["final", (c) => c.updateContent(assistant([thinking("hmm"), text("Partial answer, now complete.")]), false)],
      ["setOutputPad(0)", (c) => c.setOutputPad(0)],
      ["invalidate", (c) => c.invalidate()],
      ["toolCall", (c) => c.updateContent(assistant([text("Now a tool."), toolCall], { stopReason: "toolUse" }))],
    ]),
  );
}

function addCollapsibleCases(needs, agent) {
  const steps = [
    ["setExpanded(true)", (c) => c.setExpanded(true)],
    ["setOutputPad(3)", (c) => c.setOutputPad(3)],
    ["invalidate", (c) => c.invalidate()],
    ["setExpanded(false)", (c) => c.setExpanded(false)],
  ];
  const branch = { role: "branchSummary", summary: SUMMARY, fromId: "b1", timestamp: 1 };
  needs(["BranchSummaryMessageComponent"], "BranchSummaryMessageComponent/default", () =>
    renders(() => new agent.BranchSummaryMessageComponent(branch), steps),
  );
  needs(["BranchSummaryMessageComponent"], "BranchSummaryMessageComponent/transformers", () =>
    renders(() => new agent.BranchSummaryMessageComponent(branch, undefined, 0, TRANSFORMERS, "m-2", 5), steps.slice(0, 1)),
  );
  for (const tokensBefore of [0, 999, 1234, 1234567, 12345.6789]) {
    const compaction = { role: "compactionSummary", summary: SUMMARY, tokensBefore, timestamp: 1 };
    needs(["CompactionSummaryMessageComponent"], `CompactionSummaryMessageComponent/${tokensBefore}`, () =>
      renders(() => new agent.CompactionSummaryMessageComponent(compaction), steps),
    );
  }
  needs(["CompactionSummaryMessageComponent"], "CompactionSummaryMessageComponent/transformers", () =>
    renders(
      () => new agent.CompactionSummaryMessageComponent({ role: "compactionSummary", summary: "short", tokensBefore: 5000, timestamp: 1 }, undefined, 2, TRANSFORMERS, "m-3", 6),
      steps.slice(0, 1),
    ),
  );
  const skill = { name: "pdf-tools", location: "/skills/pdf/SKILL.md", content: "# PDF tools\n\nUse `pdftotext` to extract text." };
  needs(["SkillInvocationMessageComponent"], "SkillInvocationMessageComponent/default", () =>
    renders(() => new agent.SkillInvocationMessageComponent(skill), steps),
  );
  needs(["SkillInvocationMessageComponent"], "SkillInvocationMessageComponent/transformers", () =>
    renders(() => new agent.SkillInvocationMessageComponent(skill, undefined, 1, TRANSFORMERS, "m-4", 7), steps.slice(0, 1)),
  );
}

function addCustomMessageCases(needs, agent, tui) {
  const note = { role: "custom", customType: "note", content: "A **note** from an extension", display: true, timestamp: 1 };
  const blocks = {
    ...note,
    customType: "blocks",
    content: [text("first block"), { type: "image", mimeType: "image/png", data: "AAAA" }, text("second block")],
  };
  const steps = [
    ["setExpanded(true)", (c) => c.setExpanded(true)],
    ["setOutputPad(0)", (c) => c.setOutputPad(0)],
    ["setExpanded(false)", (c) => c.setExpanded(false)],
  ];
  needs(["CustomMessageComponent"], "CustomMessageComponent/default", () => renders(() => new agent.CustomMessageComponent(note), steps));
  needs(["CustomMessageComponent"], "CustomMessageComponent/textBlocks", () =>
    renders(() => new agent.CustomMessageComponent(blocks, undefined, undefined, 2, TRANSFORMERS, "c-1", 3), steps),
  );
  needs(["CustomMessageComponent", "tui.Text"], "CustomMessageComponent/renderer", () => {
    const seen = [];
    const renderer = (message, options, theme) => {
      seen.push({ type: message.customType, expanded: options.expanded, outputPad: options.outputPad, keyText: typeof options.keyText, keyHint: typeof options.keyHint, theme: typeof theme.fg });
      return new tui.Text(theme.fg("accent", `${message.customType}: ${options.expanded ? "expanded" : "collapsed"}`), options.outputPad, 0);
    };
    return { renders: renders(() => new agent.CustomMessageComponent(note, renderer), steps), seen };
  });
  needs(["CustomMessageComponent"], "CustomMessageComponent/rendererDeclines", () => {
    let calls = 0;
    const declines = () => {
      calls++;
      return undefined;
    };
    const throws = () => {
      calls++;
      throw new Error("renderer failed");
    };
    return {
      declines: renders(() => new agent.CustomMessageComponent(note, declines), steps),
      throws: renders(() => new agent.CustomMessageComponent(note, throws), steps),
      calls,
    };
  });
}

function addBashCases(needs, agent) {
  const stop = (c) => c.setComplete(0);
  const manyLines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n");
  needs(["BashExecutionComponent"], "BashExecutionComponent/streamed", () =>
    renders(
      () => new agent.BashExecutionComponent("ls -la"),
      [
        ["appendOutput(first)", (c) => c.appendOutput("total 8\ndrwx")],
        ["appendOutput(rest)", (c) => c.appendOutput("r-x  a\r\nfile\x1b[31m red\x1b[0m\rlast")],
        ["setComplete(0)", (c) => c.setComplete(0)],
        ["setExpanded(true)", (c) => c.setExpanded(true)],
      ],
      stop,
    ),
  );
  needs(["BashExecutionComponent"], "BashExecutionComponent/manyLines", () =>
    renders(
      () => new agent.BashExecutionComponent("seq 30", undefined, false, 2),
      [
        ["appendOutput", (c) => c.appendOutput(manyLines)],
        ["setComplete(1)", (c) => c.setComplete(1)],
        ["setExpanded(true)", (c) => c.setExpanded(true)],
        ["setOutputPad(0)", (c) => c.setOutputPad(0)],
        ["setExpanded(false)", (c) => c.setExpanded(false)],
      ],
      stop,
    ),
  );
  needs(["BashExecutionComponent"], "BashExecutionComponent/excludedAndCancelled", () =>
    renders(
      () => new agent.BashExecutionComponent("sleep 10", ui, true),
      [
        ["appendOutput", (c) => c.appendOutput("waiting...")],
        ["cancelled", (c) => c.setComplete(undefined, true)],
      ],
      stop,
    ),
  );
  needs(["BashExecutionComponent"], "BashExecutionComponent/truncated", () =>
    renders(
      () => new agent.BashExecutionComponent("cat big.log", ui),
      [
        ["noOutput", (c) => c.setComplete(null, false)],
        ["truncated", (c) => c.setComplete(0, false, { truncated: true }, "/tmp/pi-bash-1.log")],
        ["truncatedWithoutPath", (c) => c.setComplete(0, false, { truncated: true })],
      ],
      stop,
    ),
  );
  needs(["BashExecutionComponent"], "BashExecutionComponent/getters", () =>
    capture(() => {
      const component = new agent.BashExecutionComponent("echo hi", ui);
      component.appendOutput("a\nb");
      component.appendOutput("c\n");
      component.setComplete(0);
      return { output: component.getOutput(), command: component.getCommand() };
    }),
  );
}

function addToolExecutionCases(needs, agent, tui) {
  const longResult = Array.from({ length: 14 }, (_, i) => `result line ${i + 1}`).join("\n");
  const ok = (value, extra = {}) => ({ content: [text(value)], isError: false, ...extra });
  const commonSteps = [
    ["partial", (c) => c.updateResult(ok("working\x1b[31m...\x1b[0m"), true)],
    ["result", (c) => c.updateResult(ok(longResult, { details: { n: 1 }, durationMs: 1500 }))],
    ["setExpanded(true)", (c) => c.setExpanded(true)],
    ["error", (c) => c.updateResult({ content: [text("failed:\r\n\tbad\x07 input")], isError: true })],
    ["setOutputPad(0)", (c) => c.setOutputPad(0)],
  ];
  needs(["ToolExecutionComponent"], "ToolExecutionComponent/noDefinition", () =>
    renders(() => new agent.ToolExecutionComponent("mytool", "call-1", { path: "a.txt", n: 2 }, {}, undefined, ui, "/work"), commonSteps),
  );
  const ARGS = {
    none: undefined,
    empty: {},
    object: { path: "src/a.ts", limit: 5, nested: { deep: [1, 2] }, multi: "line one\n\tline two" },
    long: { command: "x".repeat(150) },
    array: ["a", "b"],
    string: "just a string",
  };
  for (const [name, args] of Object.entries(ARGS)) {
    needs(["ToolExecutionComponent"], `ToolExecutionComponent/fallback/${name}`, () =>
      renders(() => new agent.ToolExecutionComponent("generic", "call-2", args, { showImages: false }, {}, ui, "/work"), commonSteps),
    );
  }
  needs(["ToolExecutionComponent"], "ToolExecutionComponent/imagesNotShown", () =>
    renders(() => new agent.ToolExecutionComponent("shot", "call-3", {}, { showImages: false }, {}, ui, "/work"), [
      ["withImages", (c) => c.updateResult({ content: [text("captured"), { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }, { type: "image", mimeType: "image/jpeg" }], isError: false })],
      ["onlyImage", (c) => c.updateResult({ content: [{ type: "image", mimeType: "image/gif", data: "R0lGODlh" }], isError: false })],
    ]),
  );
  needs(["ToolExecutionComponent", "tui.Text"], "ToolExecutionComponent/renderers", () => {
    const contexts = [];
    const describe = (context) => {
      const { invalidate, keyText, keyHint, lastComponent, state, ...rest } = context;
      return { ...rest, invalidate: typeof invalidate, keyText: typeof keyText, keyHint: typeof keyHint, hasLast: lastComponent !== undefined, state };
    };
    const definition = {
      renderCall: (args, theme, context) => {
        contexts.push(["call", describe(context)]);
        context.state.calls = (context.state.calls ?? 0) + 1;
        return new tui.Text(`${theme.fg("toolTitle", "call")} ${JSON.stringify(args)}`, 0, 0);
      },
      renderResult: (result, options, theme, context) => {
        contexts.push(["result", options, result, describe(context)]);
        return new tui.Text(theme.fg("toolOutput", `result ${options.expanded} ${options.isPartial}`), 0, 0);
      },
    };
    return {
      renders: renders(() => new agent.ToolExecutionComponent("custom", "call-4", { q: 1 }, { outputPad: 2 }, definition, ui, "/work"), [
        ["updateArgs", (c) => c.updateArgs({ q: 2 })],
        ["markExecutionStarted", (c) => c.markExecutionStarted()],
        ["setArgsComplete", (c) => c.setArgsComplete()],
        ...commonSteps,
      ]),
      contexts,
    };
  });
  needs(["ToolExecutionComponent"], "ToolExecutionComponent/renderersThrow", () => {
    const definition = {
      renderCall: () => {
        throw new Error("bad call renderer");
      },
      renderResult: () => {
        throw new Error("bad result renderer");
      },
    };
    return renders(() => new agent.ToolExecutionComponent("broken", "call-5", { a: 1 }, {}, definition, ui, "/work"), commonSteps);
  });
  needs(["ToolExecutionComponent", "tui.Text", "tui.Container"], "ToolExecutionComponent/selfShell", () => {
    const definition = {
      renderShell: "self",
      renderCall: (args, theme, context) => (context.argsComplete ? new tui.Text(`┌ self ${args.name}`, 0, 0) : new tui.Container()),
      renderResult: (result, options) => new tui.Text(`└ ${result.content[0].text} ${options.expanded}`, 0, 0),
    };
    return renders(() => new agent.ToolExecutionComponent("self", "call-6", { name: "x" }, {}, definition, ui, "/work"), [
      ["setArgsComplete", (c) => c.setArgsComplete()],
      ["result", (c) => c.updateResult(ok("done"))],
      ["setExpanded(true)", (c) => c.setExpanded(true)],
    ]);
  });
  needs(["ToolExecutionComponent"], "ToolExecutionComponent/textOutput", () =>
    capture(() => {
      const component = new agent.ToolExecutionComponent("t", "call-7", {}, { showImages: false }, undefined, ui, "/work");
      const before = component.getTextOutput();
      component.updateResult({ content: [text("a\x1b[1mb\x1b[0m\r\n"), text("\x00c\uFFF9d")], isError: false });
      return { before, after: component.getTextOutput() };
    }),
  );
}

function footerSession({ entries = [], model, thinkingLevel, routedModel, contextUsage, subscription = false, sessionName, cwd = "/opt/project" } = {}) {
  return {
    state: { model, thinkingLevel },
    model,
    routedModel,
    sessionManager: {
      getEntryCount: () => entries.length,
      getSessionId: () => "session-1",
      getLeafId: () => entries.at(-1)?.id ?? null,
      getEntries: () => entries,
      getCwd: () => cwd,
      getSessionName: () => sessionName,
    },
    getContextUsage: () => contextUsage,
    modelRuntime: { isUsingSubscription: () => subscription },
  };
}

function footerData({ branch, providers = 1, statuses = new Map() } = {}) {
  return { getGitBranch: () => branch, getAvailableProviderCount: () => providers, getExtensionStatuses: () => statuses };
}

function addFooterCases(needs, agent) {
  const usage = (input, output, cacheRead, cacheWrite, total) => ({ input, output, cacheRead, cacheWrite, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total } });
  const entries = [
    { type: "message", id: "1", message: { role: "user", content: "hi" } },
    { type: "message", id: "2", message: { role: "assistant", content: [], usage: usage(1200, 340, 0, 500, 0.0123) } },
    { type: "usage", id: "3", usage: usage(15000, 2000, 0, 0, 0.5) },
    { type: "message", id: "4", message: { role: "toolResult", content: [], usage: usage(10, 5, 0, 0, 0.001) } },
    { type: "compaction", id: "5", usage: usage(2_500_000, 12_000_000, 0, 0, 1) },
    { type: "branch_summary", id: "6" },
    { type: "message", id: "7", message: { role: "assistant", content: [], usage: usage(300, 20, 900, 0, 0) } },
  ];
  const model = { id: "claude-sonnet", provider: "anthropic", reasoning: true, contextWindow: 200000 };
  const FOOTERS = {
    empty: [footerSession(), footerData()],
    noUsageData: [footerSession({ model: { ...model, reasoning: false }, contextUsage: { tokens: null, contextWindow: 200000, percent: null } }), footerData()],
    full: [
      footerSession({ entries, model, thinkingLevel: "high", contextUsage: { tokens: 50000, contextWindow: 200000, percent: 25 }, sessionName: "refactor" }),
      footerData({ branch: "main", providers: 2, statuses: new Map([["zeta", "last\nstatus"], ["alpha", "first\t  status"], ["mid", "middle"]]) }),
    ],
    warning: [footerSession({ entries: entries.slice(0, 2), model, contextUsage: { tokens: 150000, contextWindow: 200000, percent: 75.25 } }), footerData()],
    error: [footerSession({ entries: entries.slice(0, 2), model, thinkingLevel: "off", contextUsage: { tokens: 190000, contextWindow: 200000, percent: 95 } }), footerData({ providers: 3 })],
    subscription: [footerSession({ model: { ...model, reasoning: false }, subscription: true }), footerData()],
    kimi: [footerSession({ model: { id: "kimi", provider: "kimi-coding", contextWindow: 9999 } }), footerData()],
    routed: [
      footerSession({ model, thinkingLevel: "low", routedModel: { model: { id: "fast-model", contextWindow: 1000 }, thinkingLevel: "minimal" } }),
      footerData({ providers: 2 }),
    ],
    routedNoLevel: [footerSession({ model, routedModel: { model: { id: "other" } } }), footerData()],
  };
  for (const [name, [session, data]] of Object.entries(FOOTERS)) {
    needs(["FooterComponent"], `FooterComponent/${name}`, () => renders(() => new agent.FooterComponent(session, data)));
  }
  needs(["FooterComponent"], "FooterComponent/stateChanges", () =>
    renders(() => new agent.FooterComponent(footerSession({ model }), footerData()), [
      ["setAutoCompactEnabled(false)", (c) => c.setAutoCompactEnabled(false)],
      ["setSession", (c) => c.setSession(FOOTERS.full[0])],
      ["invalidate", (c) => c.invalidate()],
      ["dispose", (c) => c.dispose()],
    ]),
  );
  needs(["FooterComponent"], "FooterComponent/wide", () =>
    capture(() => new agent.FooterComponent(...FOOTERS.full).render(160)),
  );
}
