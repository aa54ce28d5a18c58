// Cases of pi-coding-agent's summary calls for the pi-packages case table:
// generateSummary / generateSummaryWithUsage, compact and
// generateBranchSummary, answered by pi-ai's faux provider. Each case keeps
// what the model was sent (the transcript and the request options, as the
// provider saw them or as a session stream function got them) next to what
// came back, including the failures: errors, aborts, truncated and
// tool-calling replies, nothing to summarize. Clocks, abort signals and the
// random routing ids are reduced to checks.

const API = "pihost-golden-compaction";
const ONE_CHUNK = { min: 1_000_000, max: 1_000_000 };
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function stable(value) {
  return JSON.parse(
    JSON.stringify(value, (key, item) => {
      if (key === "timestamp") return typeof item === "number" ? "<number>" : item;
      if (key === "sessionId" && typeof item === "string" && UUID_V7.test(item)) return "<uuidv7>";
      if (key === "signal" && item !== undefined) return item?.aborted ? "<aborted signal>" : "<signal>";
      if (item === undefined) return "<undefined>";
      if (typeof item === "function") return "<function>";
      return item;
    }),
  );
}

async function settled(promise) {
  try {
    return { value: stable(await promise) };
  } catch (error) {
    return { thrown: { name: error?.name, message: error?.message } };
  }
}

/**
 * Runs `run(model, seen)` with a faux provider registered whose replies are
 * `replies` (a reply is a message or, for a text, a string); `seen` gets each
 * request the provider answered.
 */
async function withFaux(ai, replies, run, { model: modelOverrides = {} } = {}) {
  const faux = ai.registerFauxProvider({ api: API, provider: "golden", tokenSize: ONE_CHUNK });
  const seen = [];
  try {
    faux.setResponses(
      replies.map((reply) => (context, options) => {
        seen.push({ context: stable(context), optionKeys: Object.keys(options ?? {}), options: stable(options) });
        return typeof reply === "string" ? ai.fauxAssistantMessage(reply, { timestamp: 1 }) : reply;
      }),
    );
    const model = { ...faux.getModel(), ...modelOverrides };
    const result = await settled(run(model));
    return { result, seen, unanswered: faux.getPendingResponseCount() };
  } finally {
    faux.unregister();
  }
}

/** A session stream function that records what it is asked and replies with `replies` in turn. */
function recordingStreamFn(replies) {
  const asked = [];
  const streamFn = async (model, context, options) => {
    asked.push({ model: model.id, context: stable(context), optionKeys: Object.keys(options), options: stable(options) });
    const reply = replies.shift();
    return { result: async () => reply };
  };
  return { streamFn, asked };
}

const usage = (input, output, extra = {}) => ({
  input,
  output,
  cacheRead: 1,
  cacheWrite: 2,
  totalTokens: input + output + 3,
  cost: { input: 0.5, output: 0.25, cacheRead: 0, cacheWrite: 0, total: 0.75, ...extra.cost },
  ...extra.tokens,
});

const reply = (content, extra = {}) => ({
  role: "assistant",
  content: typeof content === "string" ? [{ type: "text", text: content }] : content,
  api: "x",
  provider: "x",
  model: "x",
  usage: usage(10, 5),
  stopReason: "stop",
  timestamp: 1,
  ...extra,
});

const LONG_OUTPUT = `${"line of output\n".repeat(200)}end`;

/** A conversation touching every message kind a summary transcript handles. */
function conversation() {
  return [
    { role: "user", content: "Please fix the parser in src/parse.ts", timestamp: 1 },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Look at the file first." },
        { type: "text", text: "Reading the parser." },
        { type: "toolCall", id: "c1", name: "read", arguments: { path: "src/parse.ts" } },
        { type: "toolCall", id: "c2", name: "grep", arguments: { pattern: "parse(", path: "src", limit: 5 } },
      ],
      api: "x",
      provider: "x",
      model: "m",
      usage: usage(100, 20),
      stopReason: "toolUse",
      timestamp: 2,
    },
    { role: "toolResult", toolCallId: "c1", toolName: "read", content: [{ type: "text", text: LONG_OUTPUT }], isError: false, timestamp: 3 },
    { role: "toolResult", toolCallId: "c2", toolName: "grep", content: [{ type: "text", text: "src/a.ts:1: parse(x)" }], isError: false, timestamp: 4 },
    { role: "bashExecution", command: "npm test", output: "1 failing", exitCode: 1, cancelled: false, truncated: false, timestamp: 5 },
    { role: "bashExecution", command: "ls secret", output: "hidden", exitCode: 0, cancelled: false, truncated: false, excludeFromContext: true, timestamp: 6 },
    { role: "custom", customType: "note", content: "Remember the style guide", display: true, timestamp: 7 },
    { role: "branchSummary", summary: "Explored a rewrite", fromId: "b1", timestamp: 8 },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Fixing." },
        { type: "toolCall", id: "c3", name: "edit", arguments: { path: "src/parse.ts", edits: [] } },
        { type: "toolCall", id: "c4", name: "write", arguments: { path: "src/new.ts", content: "x" } },
      ],
      api: "x",
      provider: "x",
      model: "m",
      usage: usage(200, 30),
      stopReason: "toolUse",
      timestamp: 9,
    },
  ];
}

function fileOps({ read = [], written = [], edited = [] } = {}) {
  return { read: new Set(read), written: new Set(written), edited: new Set(edited) };
}

function preparation(overrides = {}) {
  return {
    firstKeptEntryId: "kept-1",
    messagesToSummarize: conversation().slice(0, 4),
    turnPrefixMessages: [],
    isSplitTurn: false,
    tokensBefore: 1234,
    previousSummary: undefined,
    fileOps: fileOps({ read: ["src/parse.ts", "README.md"], edited: ["src/parse.ts"], written: ["b.txt"] }),
    settings: { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 },
    ...overrides,
  };
}

/** Adds the cases through `add(name, run)`; `ai` is pi-ai, `agent` pi-coding-agent. */
export function addCompactionSummaryCases(add, ai, agent) {
  addGenerateSummaryCases(add, ai, agent);
  addCompactCases(add, ai, agent);
  addBranchSummaryCases(add, ai, agent);
}

function addGenerateSummaryCases(add, ai, agent) {
  const summarize = (model, overrides = {}) => {
    const args = {
      messages: conversation(),
      reserveTokens: 999,
      apiKey: undefined,
      headers: undefined,
      signal: undefined,
      customInstructions: undefined,
      previousSummary: undefined,
      thinkingLevel: undefined,
      streamFn: undefined,
      env: undefined,
      retry: undefined,
      callbacks: undefined,
      sessionId: undefined,
      ...overrides,
    };
    const call = overrides.withUsage ? agent.generateSummaryWithUsage : agent.generateSummary;
    return call(args.messages, model, args.reserveTokens, args.apiKey, args.headers, args.signal, args.customInstructions, args.previousSummary, args.thinkingLevel, args.streamFn, args.env, args.retry, args.callbacks, args.sessionId);
  };

  add("generateSummary.initial", () => withFaux(ai, ["## Goal\nFix the parser"], (model) => summarize(model)));
  add("generateSummary.withUsage", () =>
    withFaux(ai, ["summary text"], (model) => summarize(model, { withUsage: true })),
  );
  add("generateSummary.updateWithFocusAndReasoning", () =>
    withFaux(
      ai,
      ["updated"],
      (model) =>
        summarize(model, {
          withUsage: true,
          previousSummary: "## Goal\nOld goal",
          customInstructions: "the tests",
          thinkingLevel: "high",
          apiKey: "key-1",
          headers: { "x-a": "1" },
          env: { A: "b" },
          sessionId: "session-7",
        }),
      { model: { reasoning: true } },
    ),
  );
  add("generateSummary.thinkingOffOrNonReasoning", async () => ({
    off: await withFaux(ai, ["a"], (model) => summarize(model, { thinkingLevel: "off" }), { model: { reasoning: true } }),
    nonReasoning: await withFaux(ai, ["b"], (model) => summarize(model, { thinkingLevel: "high" })),
  }));
  add("generateSummary.emptyConversation", () => withFaux(ai, ["nothing"], (model) => summarize(model, { messages: [] })));
  add("generateSummary.multipleTextBlocks", () =>
    withFaux(ai, [reply([{ type: "thinking", thinking: "hm" }, { type: "text", text: "one" }, { type: "text", text: "two" }])], (model) =>
      summarize(model, { withUsage: true }),
    ),
  );
  add("generateSummary.modelError", () =>
    withFaux(ai, [reply("", { stopReason: "error", errorMessage: "upstream down" })], (model) => summarize(model)),
  );
  add("generateSummary.modelErrorWithoutMessage", () =>
    withFaux(ai, [reply("", { stopReason: "error" })], (model) => summarize(model)),
  );
  add("generateSummary.noResponseQueued", () => withFaux(ai, [], (model) => summarize(model)));
  add("generateSummary.tokenCap", () => withFaux(ai, [reply("partial", { stopReason: "length" })], (model) => summarize(model)));
  add("generateSummary.toolCall", () =>
    withFaux(ai, [reply([{ type: "toolCall", id: "t", name: "read", arguments: { path: "x" } }], { stopReason: "toolUse" })], (model) =>
      summarize(model),
    ),
  );
  add("generateSummary.aborted", () => {
    const controller = new AbortController();
    controller.abort();
    return withFaux(ai, ["never"], (model) => summarize(model, { withUsage: true, signal: controller.signal }));
  });
  add("generateSummary.streamFn", async () => {
    const { streamFn, asked } = recordingStreamFn([reply("from the session stream")]);
    const faux = await withFaux(ai, [], (model) => summarize(model, { withUsage: true, streamFn, apiKey: "k", sessionId: "s-1" }));
    return { ...faux, asked };
  });
  add("generateSummary.retriedAfterTransientError", async () => {
    const events = [];
    const callbacks = {
      onRetryScheduled: (attempt, max, delay, message) => events.push(["scheduled", attempt, max, delay, message]),
      onRetryAttemptStart: () => events.push(["attempt"]),
      onRetryFinished: (succeeded, attempt, message) => events.push(["finished", succeeded, attempt, message]),
    };
    const retry = { enabled: true, maxRetries: 2, baseDelayMs: 1 };
    const outcome = await withFaux(ai, [reply("", { stopReason: "error", errorMessage: "terminated" }), "after retry"], (model) =>
      summarize(model, { retry, callbacks }),
    );
    return { ...outcome, events };
  });
}

function addCompactCases(add, ai, agent) {
  const compact = (model, prep, overrides = {}) => {
    const args = { apiKey: undefined, headers: undefined, customInstructions: undefined, signal: undefined, thinkingLevel: undefined, streamFn: undefined, env: undefined, retry: undefined, callbacks: undefined, sessionId: undefined, ...overrides };
    return agent.compact(prep, model, args.apiKey, args.headers, args.customInstructions, args.signal, args.thinkingLevel, args.streamFn, args.env, args.retry, args.callbacks, args.sessionId);
  };

  add("compact.history", () => withFaux(ai, ["## Goal\nHistory summary"], (model) => compact(model, preparation())));
  add("compact.updatesPreviousSummary", () =>
    withFaux(ai, ["merged"], (model) =>
      compact(model, preparation({ previousSummary: "## Goal\nEarlier", fileOps: fileOps() }), { customInstructions: "keep it short", sessionId: "route-1" }),
    ),
  );
  add("compact.splitTurn", () =>
    withFaux(
      ai,
      [
        reply("history part", { usage: usage(10, 5, { tokens: { reasoning: 3 } }) }),
        reply("prefix part", { usage: usage(7, 2, { tokens: { cacheWrite1h: 4 }, cost: { totalFromProvider: true } }) }),
      ],
      (model) =>
        compact(
          model,
          preparation({ isSplitTurn: true, turnPrefixMessages: conversation().slice(4, 9), messagesToSummarize: conversation().slice(0, 4) }),
          { customInstructions: "focus", thinkingLevel: "low", apiKey: "k" },
        ),
      { model: { reasoning: true } },
    ),
  );
  add("compact.splitTurnWithoutHistory", async () => ({
    withPrevious: await withFaux(ai, ["prefix only"], (model) =>
      compact(model, preparation({ isSplitTurn: true, messagesToSummarize: [], turnPrefixMessages: conversation().slice(0, 2), previousSummary: "Old summary" })),
    ),
    withoutPrevious: await withFaux(ai, ["prefix only"], (model) =>
      compact(model, preparation({ isSplitTurn: true, messagesToSummarize: [], turnPrefixMessages: conversation().slice(0, 2) })),
    ),
  }));
  add("compact.splitFlagWithoutPrefix", () =>
    withFaux(ai, ["whole"], (model) => compact(model, preparation({ isSplitTurn: true, turnPrefixMessages: [] }))),
  );
  add("compact.nothingToSummarize", () =>
    withFaux(ai, ["empty"], (model) => compact(model, preparation({ messagesToSummarize: [], fileOps: fileOps() }))),
  );
  add("compact.withoutFirstKeptEntry", () =>
    withFaux(ai, ["text"], (model) => compact(model, preparation({ firstKeptEntryId: "" }))),
  );
  add("compact.historyError", () =>
    withFaux(ai, [reply("", { stopReason: "error", errorMessage: "overloaded" })], (model) => compact(model, preparation())),
  );
  add("compact.turnPrefixErrors", async () => ({
    error: await withFaux(ai, ["history", reply("", { stopReason: "error", errorMessage: "boom" })], (model) =>
      compact(model, preparation({ isSplitTurn: true, turnPrefixMessages: conversation().slice(0, 2) })),
    ),
    tokenCap: await withFaux(ai, ["history", reply("cut", { stopReason: "length" })], (model) =>
      compact(model, preparation({ isSplitTurn: true, turnPrefixMessages: conversation().slice(0, 2) })),
    ),
    toolCall: await withFaux(ai, ["history", reply([{ type: "toolCall", id: "t", name: "ls", arguments: {} }])], (model) =>
      compact(model, preparation({ isSplitTurn: true, turnPrefixMessages: conversation().slice(0, 2) })),
    ),
  }));
  add("compact.aborted", () => {
    const controller = new AbortController();
    controller.abort();
    return withFaux(ai, ["never"], (model) => compact(model, preparation(), { signal: controller.signal }));
  });
  add("compact.streamFn", async () => {
    const { streamFn, asked } = recordingStreamFn([reply("streamed history"), reply("streamed prefix")]);
    const outcome = await withFaux(ai, [], (model) =>
      compact(model, preparation({ isSplitTurn: true, turnPrefixMessages: conversation().slice(0, 2) }), { streamFn, env: { E: "1" } }),
    );
    return { ...outcome, asked };
  });
}

/** Session entries for a branch: every entry kind a branch summary reads or skips. */
function branchEntries() {
  const [user, assistant, toolResult, , bash, , custom, , editing] = conversation();
  let parentId = null;
  const entry = (id, fields) => {
    const made = { id, parentId, timestamp: "2026-01-01T00:00:00.000Z", ...fields };
    parentId = id;
    return made;
  };
  return [
    entry("e1", { type: "compaction", summary: "Earlier compaction", firstKeptEntryId: "e0", tokensBefore: 500 }),
    entry("e2", { type: "message", message: user }),
    entry("e3", { type: "message", message: assistant }),
    entry("e4", { type: "message", message: toolResult }),
    entry("e5", { type: "label", targetId: "e2", label: "start" }),
    entry("e6", { type: "message", message: bash }),
    entry("e7", { type: "custom_message", customType: custom.customType, content: custom.content, display: true, timestamp: 7 }),
    entry("e8", { type: "branch_summary", fromId: "x", summary: "Nested branch", details: { readFiles: ["docs/a.md"], modifiedFiles: ["lib/b.ts"] } }),
    entry("e9", { type: "branch_summary", fromId: "y", summary: "Hook branch", fromHook: true, details: { readFiles: ["hook.md"] } }),
    entry("e10", { type: "thinking_level_change", thinkingLevel: "high" }),
    entry("e11", { type: "message", message: editing }),
  ];
}

function addBranchSummaryCases(add, ai, agent) {
  const summarize = (model, entries, options = {}) => agent.generateBranchSummary(entries, { model, ...options });

  add("generateBranchSummary.basic", () => withFaux(ai, ["## Goal\nBranch goal"], (model) => summarize(model, branchEntries())));
  add("generateBranchSummary.customInstructions", async () => ({
    appended: await withFaux(ai, ["a"], (model) => summarize(model, branchEntries().slice(1, 3), { customInstructions: "the API" })),
    replaced: await withFaux(ai, ["b"], (model) =>
      summarize(model, branchEntries().slice(1, 3), { customInstructions: "Only list files.", replaceInstructions: true }),
    ),
    replaceWithoutInstructions: await withFaux(ai, ["c"], (model) => summarize(model, branchEntries().slice(1, 3), { replaceInstructions: true })),
  }));
  add("generateBranchSummary.requestOptions", () =>
    withFaux(
      ai,
      ["r"],
      (model) =>
        summarize(model, branchEntries().slice(1, 3), { apiKey: "k", headers: { h: "v" }, env: { E: "1" }, thinkingLevel: "medium", reserveTokens: 100 }),
      { model: { reasoning: true } },
    ),
  );
  add("generateBranchSummary.tokenBudget", async () => ({
    newestOnly: await withFaux(ai, ["small"], (model) => summarize(model, branchEntries(), { reserveTokens: 127_990 })),
    summaryFitsAnyway: await withFaux(ai, ["fits"], (model) => summarize(model, branchEntries().slice(0, 2), { reserveTokens: 127_985 })),
    tinyWindow: await withFaux(ai, ["tiny"], (model) => summarize(model, branchEntries(), { reserveTokens: 0 }), { model: { contextWindow: 20 } }),
    defaultWindow: await withFaux(ai, ["default"], (model) => summarize(model, branchEntries().slice(1, 3), { reserveTokens: 127_999 }), {
      model: { contextWindow: 0 },
    }),
  }));
  add("generateBranchSummary.nothingToSummarize", async () => ({
    noEntries: await withFaux(ai, ["unused"], (model) => summarize(model, [])),
    onlyMetadata: await withFaux(ai, ["unused"], (model) => summarize(model, branchEntries().slice(3, 5))),
  }));
  add("generateBranchSummary.emptyReply", () => withFaux(ai, [""], (model) => summarize(model, branchEntries().slice(1, 2))));
  add("generateBranchSummary.failures", async () => {
    const entries = branchEntries().slice(1, 3);
    const aborted = new AbortController();
    aborted.abort();
    return {
      error: await withFaux(ai, [reply("", { stopReason: "error", errorMessage: "rate limited" })], (model) => summarize(model, entries)),
      errorWithoutMessage: await withFaux(ai, [reply("", { stopReason: "error" })], (model) => summarize(model, entries)),
      noResponse: await withFaux(ai, [], (model) => summarize(model, entries)),
      tokenCap: await withFaux(ai, [reply("x", { stopReason: "length" })], (model) => summarize(model, entries)),
      toolCall: await withFaux(ai, [reply([{ type: "toolCall", id: "t", name: "ls", arguments: {} }])], (model) => summarize(model, entries)),
      aborted: await withFaux(ai, ["never"], (model) => summarize(model, entries, { signal: aborted.signal })),
    };
  });
  add("generateBranchSummary.streamFn", async () => {
    const { streamFn, asked } = recordingStreamFn([reply("streamed branch")]);
    const outcome = await withFaux(ai, [], (model) => summarize(model, branchEntries().slice(1, 3), { streamFn, apiKey: "k" }));
    return { ...outcome, asked };
  });
}
