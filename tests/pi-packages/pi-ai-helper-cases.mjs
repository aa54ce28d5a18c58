// Cases of pi-ai's pure helpers for the pi-ai case table (pi-ai-cases.mjs):
// diagnostics, tool declarations, system-message updates and the faux
// message builders. Stacks, clocks and random ids are reduced to checks in
// the case, so the results are the same anywhere.

/** What a call returned, or the name of what it threw (engines word messages differently). */
function outcome(run) {
  try {
    const value = run();
    return value === undefined ? "<undefined>" : value;
  } catch (error) {
    return { thrown: error?.name };
  }
}

/** Adds the cases to the table through `add(name, run)`; `ai` is the pi-ai root. */
export function addHelperCases(add, ai) {
  addDiagnosticCases(add, ai);
  addToolDeclarationCases(add, ai);
  addSystemUpdateCases(add, ai);
  addFauxCases(add, ai);
}

// --- diagnostics -----------------------------------------------------------

function thrownValues() {
  const withCode = (code) => Object.assign(new Error("coded"), { code });
  const nameless = new Error("");
  nameless.name = "";
  const renamed = new RangeError("out");
  renamed.name = "Custom";
  class HttpError extends Error {
    constructor(message, status) {
      super(message);
      this.name = "HttpError";
      this.status = status;
    }
  }
  return [
    ["error", new Error("boom")],
    ["emptyMessage", new Error("")],
    ["typeErrorEmpty", new TypeError("")],
    ["nameless", nameless],
    ["renamed", renamed],
    ["subclass", new HttpError("bad gateway", 502)],
    ["errorPrototypeObject", Object.create(Error.prototype)],
    ["stringCode", withCode("ENOENT")],
    ["numberCode", withCode(429)],
    ["objectCode", withCode({ value: 1 })],
    ["bigintCode", withCode(5n)],
    ["nullCode", withCode(null)],
    ["aggregate", new AggregateError([new Error("inner")], "many")],
    ["string", "plain text"],
    ["emptyString", ""],
    ["number", 42],
    ["null", null],
    ["undefined", undefined],
    ["object", { message: "looks like an error", name: "Fake" }],
    ["array", [1, "two"]],
    ["symbol", Symbol("thrown")],
  ];
}

/** extractDiagnosticError's result with the stack reduced to whether it starts with the error's header line. */
function withoutStack(extracted, error) {
  if (!("stack" in extracted)) return extracted;
  const header = String(error.stack ?? "").split("\n")[0];
  return { ...extracted, stack: typeof extracted.stack === "string" ? `<stack from ${header}>` : extracted.stack };
}

function addDiagnosticCases(add, ai) {
  add("diagnostics.formatThrownValue", () => thrownValues().map(([label, value]) => [label, ai.formatThrownValue(value)]));
  add("diagnostics.extractDiagnosticError", () =>
    thrownValues().map(([label, value]) => {
      const extracted = ai.extractDiagnosticError(value);
      return [label, Object.keys(extracted), withoutStack(extracted, value)];
    }),
  );
  add("diagnostics.createAssistantMessageDiagnostic", () => {
    const before = Date.now();
    const made = [
      ai.createAssistantMessageDiagnostic("provider_error", Object.assign(new Error("upstream"), { code: "E_UP" }), { status: 500 }),
      ai.createAssistantMessageDiagnostic("hook_error", "said no"),
      ai.createAssistantMessageDiagnostic(undefined, undefined, undefined),
    ];
    const after = Date.now();
    return made.map((diagnostic) => ({
      keys: Object.keys(diagnostic),
      timely: diagnostic.timestamp >= before && diagnostic.timestamp <= after,
      type: diagnostic.type,
      error: { ...diagnostic.error, stack: typeof diagnostic.error.stack },
      details: diagnostic.details,
    }));
  });
  add("diagnostics.appendAssistantMessageDiagnostic", () => {
    const message = { role: "assistant", content: [] };
    const first = { type: "a" };
    const second = { type: "b" };
    ai.appendAssistantMessageDiagnostic(message, first);
    const afterFirst = message.diagnostics;
    const returned = ai.appendAssistantMessageDiagnostic(message, second);
    return {
      returned: returned === undefined,
      types: message.diagnostics.map((diagnostic) => diagnostic.type),
      newArray: afterFirst !== message.diagnostics,
      earlierUntouched: afterFirst.length,
      sameObjects: message.diagnostics[0] === first && message.diagnostics[1] === second,
      keys: Object.keys(message),
    };
  });
}

// --- tool declarations --------------------------------------------------------

function addToolDeclarationCases(add, ai) {
  const { Type } = ai;
  const typed = () =>
    Type.Object({
      path: Type.String({ description: "File to read" }),
      limit: Type.Optional(Type.Number({ minimum: 1 })),
      mode: ai.StringEnum(["fast", "slow"], { description: "How" }),
    });
  const tool = (name, description = `${name} tool`, parameters = { type: "object", properties: {} }, extra = {}) => ({
    name,
    description,
    parameters,
    ...extra,
  });
  add("toolDeclarations.toToolDeclaration", () =>
    [
      tool("read", "Read a file", typed(), { label: "Read", execute: () => 1, promptSnippet: "r" }),
      tool("plain", "Plain", { type: "object", properties: { a: { type: "string", default: undefined } }, required: undefined }),
      tool("strict", "Strict", { type: "object" }, { constrainedSampling: true }),
      tool("loose", "Loose", { type: "object" }, { constrainedSampling: false }),
      tool("undefinedSampling", "U", { type: "object" }, { constrainedSampling: undefined }),
      { parameters: { type: "object" }, name: "noDescription" },
      { name: "dateParameter", description: "d", parameters: { when: new Date(0), list: [undefined, () => 1] } },
    ].map((given) => {
      const declaration = ai.toToolDeclaration(given);
      return { keys: Object.keys(declaration), declaration, parametersCopied: declaration.parameters !== given.parameters };
    }),
  );
  add("toolDeclarations.toToolDeclaration.withoutParameters", () => outcome(() => ai.toToolDeclaration({ name: "x", description: "y" })));
  add("toolDeclarations.declarationsEqual", () => {
    const base = tool("read", "Read", { type: "object", properties: { a: { type: "string" } } });
    const pairs = {
      same: [base, tool("read", "Read", { type: "object", properties: { a: { type: "string" } } })],
      extraFields: [base, { ...base, label: "R", execute() {} }],
      otherDescription: [base, { ...base, description: "Read!" }],
      otherName: [base, { ...base, name: "read2" }],
      keyOrder: [base, tool("read", "Read", { properties: { a: { type: "string" } }, type: "object" })],
      samplingUndefinedVsAbsent: [base, { ...base, constrainedSampling: undefined }],
      samplingFalseVsAbsent: [base, { ...base, constrainedSampling: false }],
      typeboxVsPlain: [tool("t", "T", typed()), tool("t", "T", JSON.parse(JSON.stringify(typed())))],
      undefinedPropertyVsAbsent: [
        tool("u", "U", { type: "object", description: undefined }),
        tool("u", "U", { type: "object" }),
      ],
    };
    return Object.fromEntries(Object.entries(pairs).map(([label, [left, right]]) => [label, ai.declarationsEqual(left, right)]));
  });
  add("toolDeclarations.getToolStateChanges", () => {
    const a = tool("a");
    const b = tool("b");
    const c = tool("c");
    const changedB = tool("b", "b changed");
    const d = tool("d", "d tool", typed(), { execute: () => 0 });
    return [
      ai.getToolStateChanges([], []),
      ai.getToolStateChanges([], [a, b]),
      ai.getToolStateChanges([a, b], []),
      ai.getToolStateChanges([a, b, c], [c, changedB, d]),
      ai.getToolStateChanges([a, b], [b, a]),
      ai.getToolStateChanges([a, a], [a]),
      ai.getToolStateChanges([a], [a, tool("a", "second a")]),
      ai.getToolStateChanges([{ ...a, label: "x" }], [{ ...a, execute() {} }]),
    ];
  });
  const system = (extra, timestamp = 0) => ({ role: "system", content: "", ...extra, timestamp });
  const user = (extra = {}) => ({ role: "user", content: "hi", ...extra, timestamp: 1 });
  const a = tool("a");
  const a2 = tool("a", "a redefined");
  const b = tool("b");
  const transcripts = {
    empty: [],
    noSystem: [user(), user()],
    onlyAdditions: [system({ toolsAdded: [a] }), user(), system({ toolsAdded: [b] })],
    sameAddedTwice: [system({ toolsAdded: [a] }), system({ toolsAdded: [tool("a")] })],
    redefined: [system({ toolsAdded: [a] }), user(), system({ toolsAdded: [a2] })],
    redefinedInOneMessage: [system({ toolsAdded: [a, b, a2] })],
    removal: [system({ toolsAdded: [a, b] }), system({ toolsRemoved: [{ name: "a" }] })],
    emptyRemoval: [system({ toolsAdded: [a], toolsRemoved: [] })],
    removedThenReadded: [system({ toolsAdded: [a] }), system({ toolsRemoved: [{ name: "a" }] }), system({ toolsAdded: [a] })],
    removedThenRedefined: [system({ toolsAdded: [a] }), system({ toolsRemoved: [{ name: "a" }] }), system({ toolsAdded: [a2] })],
    nonSystemDeltasIgnored: [user({ toolsAdded: [a] }), user({ toolsAdded: [a2], toolsRemoved: [{ name: "a" }] }), system({ toolsAdded: [b] })],
    removalOfUnknown: [system({ toolsRemoved: [{ name: "never" }] })],
  };
  for (const [label, messages] of Object.entries(transcripts)) {
    add(`toolDeclarations.transcript.${label}`, () => ({
      declared: ai.getDeclaredTools(messages).map((declared) => declared.description),
      declaredSameObjects: ai.getDeclaredTools(messages).every((declared) => messages.some((message) => message.toolsAdded?.includes(declared))),
      redefinitions: ai.hasToolRedefinitions(messages),
      nonAdditive: ai.hasNonAdditiveToolChanges(messages),
    }));
  }
}

// --- system-message updates ---------------------------------------------------

function addSystemUpdateCases(add, ai) {
  add("renderSystemMessageUpdate", () =>
    [
      { role: "system", content: "More rules.", timestamp: 1 },
      { role: "system", content: "", timestamp: 1 },
      { role: "system", content: [{ type: "text", text: "one" }, { type: "image", data: "x", mimeType: "image/png" }, { type: "text", text: "two" }], timestamp: 1 },
      { role: "system", content: "Base", sections: { tools: "Use tools.", style: null, empty: "" }, timestamp: 1 },
      { role: "system", content: "", sections: { gone: null }, timestamp: 1 },
      { role: "system", content: [], sections: {}, timestamp: 1 },
      { role: "system", content: "x", sections: { "quoted \"name\"": "v\nw" }, timestamp: 1 },
    ].map((message) => ai.renderSystemMessageUpdate(message)),
  );
}

// --- faux messages ---------------------------------------------------------------

function addFauxCases(add, ai) {
  add("faux.blocks", () => [
    ai.fauxText("hello"),
    ai.fauxText(""),
    ai.fauxThinking("hmm"),
    ai.fauxToolCall("read", { path: "a.txt" }, { id: "call-1" }),
    ai.fauxToolCall("noargs", undefined, { id: "call-2" }),
    Object.keys(ai.fauxToolCall("read", {}, { id: "k" })),
    outcome(() => ai.fauxToolCall("read", {}, null)),
  ]);
  add("faux.toolCallIds", () => {
    const before = Date.now();
    const calls = [ai.fauxToolCall("a", {}), ai.fauxToolCall("b", {}, {}), ai.fauxToolCall("c", {}, { id: undefined })];
    const after = Date.now();
    return calls.map((call) => {
      const match = /^tool:(\d+):([0-9a-z]*)$/.exec(call.id);
      const stamp = match ? Number(match[1]) : Number.NaN;
      return { shape: match !== null, timely: stamp >= before && stamp <= after, rest: { ...call, id: "<id>" } };
    });
  });
  add("faux.assistantMessages", () => {
    const blocks = [ai.fauxThinking("t"), ai.fauxText("x")];
    const fromArray = ai.fauxAssistantMessage(blocks, { timestamp: 5 });
    const messages = [
      ai.fauxAssistantMessage("hello", { timestamp: 1 }),
      ai.fauxAssistantMessage("", { timestamp: 1 }),
      fromArray,
      ai.fauxAssistantMessage(ai.fauxToolCall("read", {}, { id: "c" }), { timestamp: 2, stopReason: "toolUse" }),
      ai.fauxAssistantMessage("x", { timestamp: 3, stopReason: "error", errorMessage: "boom", responseId: "r1", deferred: { handle: "h" } }),
      ai.fauxAssistantMessage("x", { timestamp: 4, errorMessage: undefined, responseId: undefined, deferred: false }),
      ai.fauxAssistantMessage([], { timestamp: 0 }),
    ];
    return {
      messages: messages.map((message) => ({ keys: Object.keys(message), message })),
      arrayKept: fromArray.content === blocks,
      usageShared: messages[0].usage === messages[1].usage,
    };
  });
  add("faux.assistantMessageTimestamp", () => {
    const before = Date.now();
    const message = ai.fauxAssistantMessage("now");
    const after = Date.now();
    return { timely: message.timestamp >= before && message.timestamp <= after, keys: Object.keys(message), nullOptions: outcome(() => ai.fauxAssistantMessage("x", null)) };
  });
}
