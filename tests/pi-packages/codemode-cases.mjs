// Cases of pi-coding-agent's built-in codemode extension
// (createCodemodeExtension) for the pi package case table
// (pi-packages-cases.mjs). The factory runs against a recording
// ExtensionAPI; scripts run through the registered tool's execute() with a
// ctx whose tools are recording fakes (ctx.executeTool answers from a table,
// with fixed delays). What would differ between runs is shown as a
// placeholder: wall times (<t>), call durations (<ms>), the docs path
// (<docs>), a script's time limit to the nearest 100 ms, and the temp files codemode writes (<output>.txt, <output>.png,
// whose contents are checked and then removed). The only timing the cases
// depend on is the timeout of the scripts that run out of time.

import fs from "node:fs";

const OUTPUT_FILE = /(?:[/\\][^\s"'`()]*?)?[/\\]pi-codemode-[0-9a-f]{16}(\.[A-Za-z0-9]+)/g;
const DOCS_PATH = /[^\s"'`]*[/\\]docs[/\\]codemode\.md/g;
const WALL_TIME = /Wall time \d+\.\d seconds/g;
// A script's time limit is its deadline less the wait for a worker slot,
// which is a few milliseconds on a busy machine: shown to the nearest 100 ms.
const SCRIPT_TIMEOUT = /Execution timed out after (\d+) ms/g;
const ANSI = /\x1b\[[0-9;]*m/g;

const PNG_1X1 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const GIF_1X1 = "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7";

/** Replaces what differs between runs; files codemode wrote are read (then removed) and shown by size. */
function stabilize(value, files = []) {
  const text = (item) =>
    item
      .replace(OUTPUT_FILE, (path, extension) => {
        if (!files.some((file) => file.path === path)) {
          let size = null;
          try {
            size = fs.statSync(path).size;
            fs.rmSync(path, { force: true });
          } catch {}
          files.push({ path, size });
        }
        return `<output>${extension}`;
      })
      .replace(DOCS_PATH, "<docs>/codemode.md")
      .replace(WALL_TIME, "Wall time <t> seconds")
      .replace(SCRIPT_TIMEOUT, (_match, ms) => `Execution timed out after ~${Math.round(Number(ms) / 100) * 100} ms`);
  const walk = (item, key) => {
    if (typeof item === "string") return text(item);
    if (typeof item === "number" && key === "durationMs") return "<ms>";
    if (typeof item === "function") return "<function>";
    if (item instanceof Error) return { error: item.name, message: text(item.message) };
    if (Array.isArray(item)) return item.map((entry) => walk(entry));
    if (item && typeof item === "object") {
      const out = {};
      for (const [name, entry] of Object.entries(item)) out[name] = walk(entry, name);
      return out;
    }
    return item;
  };
  const stable = walk(value);
  return files.length > 0 ? { ...stable, outputFiles: files.map((file) => file.size) } : stable;
}

/** A pi ExtensionAPI that records registrations and appended entries. */
function recordingPi({ settings = {}, allTools = [] } = {}) {
  const registered = [];
  const entries = [];
  return {
    registered,
    entries,
    pi: {
      registerTool: (tool) => registered.push(tool),
      appendEntry: (customType, data) => entries.push({ customType, data }),
      getAllTools: () => allTools,
      getSettings: () => settings,
    },
  };
}

const object = (properties, required = Object.keys(properties), extra = {}) => ({ type: "object", properties, required, ...extra });

// --- Tools the scripts call -------------------------------------------------

const SCRIPT_TOOLS = [
  { name: "read", description: "Read a file.", parameters: object({ path: { type: "string", description: "File path" } }) },
  {
    name: "bash",
    description: "Run a command.",
    parameters: object({ command: { type: "string" } }),
    outputSchema: object({ output: { type: "string" }, exit_code: { type: "number" } }, ["output", "exit_code"]),
  },
  { name: "fail", description: "Always fails.", parameters: object({}) },
  { name: "slow", description: "Never answers.", parameters: object({}) },
  { name: "mcp__dev-radius__search", description: "Search files near the cursor.", parameters: object({ query: { type: "string" } }) },
  { name: "mcp__dev-radius__open", description: "Open a file in the editor.", parameters: object({ path: { type: "string" } }) },
  { name: "mcp__github__list_issues", description: "List issues of a GitHub repository.", parameters: object({ repo: { type: "string" } }) },
  {
    name: "mcp__github__status",
    description: "Structured status.",
    parameters: object({}),
    outputSchema: object({ ok: { type: "boolean" } }),
  },
  { name: "delete", description: "A tool named like a keyword.", parameters: object({ id: { type: "string" } }) },
  { name: "codemode", description: "The codemode tool itself.", parameters: object({ code: { type: "string" } }) },
];

const NAMESPACES = {
  "mcp__dev-radius__search": { name: "dev-radius", description: "Files around the cursor", aliases: ["radius"] },
  "mcp__dev-radius__open": { name: "dev-radius", description: "Files around the cursor", aliases: ["radius"] },
  mcp__github__list_issues: { name: "github", description: "GitHub API", instructions: "Use for repositories." },
  mcp__github__status: { name: "github", description: "GitHub API", instructions: "Use for repositories." },
};

const ALL_TOOLS = SCRIPT_TOOLS.map((tool) => ({
  ...tool,
  promptGuidelines: tool.name === "read" ? ["Use read to view files.", "  "] : undefined,
  ...(NAMESPACES[tool.name] ? { namespace: NAMESPACES[tool.name] } : {}),
}));

/** What the fake executeTool answers, by tool name. */
function answer(name, args, signal) {
  switch (name) {
    case "read":
      return { result: { content: [{ type: "text", text: `contents of ${args.path}` }] }, isError: false, delay: args.path === "b.txt" ? 1 : 5 };
    case "bash":
      return {
        result: { content: [{ type: "text", text: "ignored" }], structuredContent: { output: `ran ${args.command}`, exit_code: 0 } },
        isError: false,
        delay: 2,
      };
    case "fail":
      return { result: { content: [{ type: "text", text: "permission denied\nby policy" }] }, isError: true, delay: 1 };
    case "mcp__github__status":
      return { result: { content: [], structuredContent: { ok: false } }, isError: true, delay: 1 };
    case "slow":
      return { never: true };
    default:
      return { result: { content: [{ type: "text", text: `${name} ${JSON.stringify(args)}` }] }, isError: false, delay: 1 };
  }
}

/** A ctx whose executeTool records each call and answers from {@link answer}. */
function recordingCtx({ branch = [], tools = SCRIPT_TOOLS, models, onSlow } = {}) {
  const calls = [];
  let count = 0;
  return {
    calls,
    ctx: {
      tools,
      sessionManager: { getBranch: () => branch },
      ...(models ? { modelRegistry: models } : {}),
      executeTool: async (name, args, options) => {
        calls.push({ name, args, hasSignal: options?.signal instanceof AbortSignal });
        const id = `parent/${++count}`;
        const reply = answer(name, args, options?.signal);
        if (reply.never) {
          onSlow?.();
          return new Promise(() => {});
        }
        await new Promise((resolve) => setTimeout(resolve, reply.delay));
        return { toolCall: { type: "toolCall", id, name, arguments: args }, result: reply.result, isError: reply.isError };
      },
    },
  };
}

/** A model registry with one classifier, one image model and one chat model. */
function fakeModels() {
  const catalog = {
    classifier: [{ type: "classifier", provider: "typesafe", id: "jev-latest", name: "Jev", api: "typesafe", input: ["text"], headers: { secret: "x" } }],
    image: [{ type: "image", provider: "openrouter", id: "painter", name: "Painter", api: "openrouter", input: ["text"] }],
    chat: [{ provider: "anthropic", id: "claude", name: "Claude", api: "anthropic-messages", input: ["text"] }],
  };
  const usage = (total) => ({ input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total } });
  const seen = [];
  return {
    seen,
    getModelsOfType: (type, provider) => catalog[type].filter((model) => !provider || model.provider === provider),
    getAvailableOfType: async (type, provider, options) => {
      seen.push(["getAvailableOfType", type, provider ?? null, options?.signal instanceof AbortSignal]);
      return catalog[type].filter((model) => !provider || model.provider === provider);
    },
    getModelOfType: (type, provider, id) => catalog[type].find((model) => model.provider === provider && model.id === id),
    classify: async (model, context) => {
      seen.push(["classify", model.id, Object.keys(context.questions)]);
      if (context.state.fail) return { provider: model.provider, model: model.id, answers: {}, stopReason: "error", errorMessage: "provider down" };
      return { provider: model.provider, model: model.id, answers: { mood: { type: "bool", probability: 0.75 } }, usage: usage(0.00042), stopReason: "stop" };
    },
    generateImages: async (model) => {
      seen.push(["generateImages", model.id]);
      return { provider: model.provider, model: model.id, output: [{ type: "image", data: GIF_1X1, mimeType: "image/gif" }], usage: usage(0.04), stopReason: "stop" };
    },
  };
}

export function addCodemodeCases(add, agent) {
  // Where the export is a stub there is nothing to check.
  const factory = agent.createCodemodeExtension;
  if (typeof factory !== "function" || factory[Symbol.for("pihost.notImplemented")]) return;
  /** The codemode tool as the factory registers it. */
  const registerCodemode = (options, piOptions) => {
    const recording = recordingPi(piOptions);
    agent.createCodemodeExtension(options)(recording.pi);
    return { ...recording, tool: recording.registered[0] };
  };

  // --- Registration -----------------------------------------------------------

  add("createCodemodeExtension: registers codemode, inactive", () => {
    const recording = recordingPi();
    const factory = agent.createCodemodeExtension();
    const returned = factory(recording.pi);
    const [tool] = recording.registered;
    return stabilize({ factoryType: typeof factory, returned, count: recording.registered.length, keys: Object.keys(tool), tool });
  });

  add("createCodemodeExtension: models false leaves models out of the description", () => {
    const { tool } = registerCodemode({ models: false });
    return stabilize({ description: tool.description });
  });

  add("codemode: reachesTools", () => {
    const { tool } = registerCodemode();
    const inputs = [
      { code: "await tools.mcp__docs__search({ q: 1 })" },
      { code: 'tools["mcp__docs__" + name]({})' },
      { code: "const all = ALL_TOOLS.length" },
      { code: "await searchTools('x')" },
      { code: "describeToolX()" },
      { code: "" },
      { code: 5 },
      {},
    ];
    return inputs.map((input) => tool.reachesTools(input));
  });

  // --- prepareLoadout: the description and mode -------------------------------

  const LOADOUT_TOOLS = [
    { name: "read", exposure: "direct", guidelines: ["Use read to view files.", "  ", " Prefer ranges. "] },
    {
      name: "bash",
      exposure: "direct",
      outputSchema: {
        type: "object",
        properties: { output: { type: "string" }, exit_code: { type: "number" }, full_output_path: { type: "string" } },
        required: ["output", "exit_code"],
      },
    },
    { name: "codemode", exposure: "model-only" },
    { name: "mcp__github__list_issues", exposure: "deferred", namespace: { name: "github", description: "GitHub API" } },
    {
      name: "mcp__docs__search",
      exposure: "codemode",
      namespace: { name: "docs", description: "  Project documentation  " },
      outputSchema: {
        $ref: "#/$defs/Result",
        $defs: {
          Result: { type: "object", properties: { hits: { type: "array", items: { $ref: "#/$defs/Hit" } }, meta: { $ref: "#/$defs/Meta" } }, required: ["hits"] },
          Hit: { type: "object", properties: { title: { type: "string" } } },
          Meta: { type: "object", properties: { kind: { const: "search" }, total: { type: "number" } } },
        },
      },
    },
    { name: "mcp__docs__fetch", exposure: "codemode", namespace: { name: "docs", description: "Project documentation" } },
    { name: "mcp__apps__launch", exposure: "codemode", namespace: { name: "apps" } },
    { name: "dev-radius", exposure: "codemode" },
    { name: "delete", exposure: "codemode" },
    {
      name: "status",
      exposure: "direct",
      outputSchema: { anyOf: [object({ ok: { const: true }, value: { type: "string" } }), object({ ok: { const: false }, error: { type: "string" } })] },
    },
    { name: "weird", exposure: "direct", outputSchema: { type: "array", items: { type: "number" } } },
    {
      name: "big",
      exposure: "direct",
      outputSchema: object({ a: { type: "string", description: "The first\nfield" }, b: { type: "number", minimum: 1 } }, ["a"], { additionalProperties: false }),
      outputSchemaAsUnion: true,
    },
  ];

  const loadoutTool = (spec) => ({
    name: spec.name,
    description: `The ${spec.name} tool.\n`,
    parameters: object({ path: { type: "string", description: `Path for ${spec.name}` } }, []),
    ...(spec.outputSchema ? { outputSchema: spec.outputSchema } : {}),
  });

  /** Runs the registered tool's prepareLoadout over a loadout with `active` declared. */
  const prepare = (options, piOptions, active = ["read", "bash", "codemode", "status", "weird", "big"]) => {
    const { tool } = registerCodemode(options, piOptions);
    const registeredTools = LOADOUT_TOOLS.map(loadoutTool);
    const byName = new Map(LOADOUT_TOOLS.map((spec) => [spec.name, spec]));
    const declared = registeredTools.filter((item) => active.includes(item.name));
    const callable = registeredTools.filter((item) => {
      const exposure = byName.get(item.name).exposure;
      return exposure === "codemode" || exposure === "deferred" || (exposure === "direct" && active.includes(item.name));
    });
    const loadout = {
      declared,
      callable,
      registered: registeredTools,
      getExposure: (name) => byName.get(name)?.exposure ?? "direct",
      getNamespace: (name) => byName.get(name)?.namespace,
      getPromptGuidelines: (name) => byName.get(name)?.guidelines ?? [],
    };
    return stabilize(tool.prepareLoadout(loadout));
  };

  add("codemode prepareLoadout: default mode on, default budget", () => prepare());
  add("codemode prepareLoadout: mode only from settings", () => prepare(undefined, { settings: { codemode: { mode: "only" } } }));
  add("codemode prepareLoadout: unknown mode setting means on", () => prepare(undefined, { settings: { codemode: { mode: "sometimes", inlineBudget: -1 } } }));
  add("codemode prepareLoadout: inlineBudget 0 lists no tools", () => prepare(undefined, { settings: { codemode: { inlineBudget: 0 } } }));
  add("codemode prepareLoadout: inlineBudget 120 lists some tools", () =>
    prepare(undefined, { settings: { codemode: { mode: "only", inlineBudget: 120 } } }),
  );
  add("codemode prepareLoadout: inlineBudget not a number uses the default", () =>
    prepare(undefined, { settings: { codemode: { inlineBudget: "10" } } }),
  );
  add("codemode prepareLoadout: options override the settings", () =>
    prepare({ mode: "only", inlineBudget: 90, models: false }, { settings: { codemode: { mode: "on", inlineBudget: 5000 } } }),
  );
  add("codemode prepareLoadout: nothing else callable", () => prepare(undefined, undefined, ["codemode"]));

  // --- Declarations of schemas ------------------------------------------------

  const SCHEMAS = {
    "nested objects": object({
      user: object({ name: { type: "string" }, address: object({ city: { type: "string" }, zip: { type: "string" } }, ["city"]) }, ["name"]),
      tags: { type: "array", items: { type: "string" } },
    }, ["user"]),
    "enums and consts": object({
      mode: { type: "string", enum: ["fast", "slow"], description: "How fast" },
      level: { enum: [1, 2, null] },
      kind: { const: "fixed" },
      mixed: { enum: [] },
    }, ["mode"]),
    "optional and descriptions": object({
      path: { type: "string", description: "  The file.\nRelative to cwd.  " },
      "odd-key": { type: "boolean" },
      limit: { type: "integer", minimum: 1, maximum: 100, default: 20, description: "Lines" },
      old: { type: "string", deprecated: true },
    }, ["path"]),
    "refs and defs": {
      type: "object",
      properties: { item: { $ref: "#/$defs/Item" }, again: { $ref: "#/$defs/Item" }, missing: { $ref: "#/$defs/Nope" }, remote: { $ref: "https://x/y.json" } },
      required: ["item"],
      $defs: { Item: { type: "object", properties: { id: { type: "string" }, child: { $ref: "#/$defs/Item" } } } },
    },
    "definitions and escapes": {
      type: "object",
      properties: { a: { $ref: "#/definitions/A~1B" }, b: { $ref: "#/definitions/C%20D" }, c: { $ref: "#" } },
      definitions: { "A/B": { type: "number" }, "C D": { type: "string" } },
    },
    "arrays and tuples": object({
      list: { type: "array", items: { type: "number" }, minItems: 1, maxItems: 3, uniqueItems: true },
      tuple: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }] },
      old: { type: "array", items: [{ type: "boolean" }] },
      bare: { type: "array" },
      implied: { items: { type: "string" } },
    }, []),
    "unions and intersections": object({
      either: { anyOf: [{ type: "string" }, { type: "number" }] },
      one: { oneOf: [{ type: "string" }, { type: "null" }], maxLength: 5 },
      nullable: { anyOf: [{ type: "integer", minimum: 0, exclusiveMaximum: 10 }, { type: "null" }], minimum: 2 },
      both: { allOf: [object({ a: { type: "string" } }), object({ b: { anyOf: [{ type: "string" }, { type: "number" }] } })] },
      pair: { allOf: [{ anyOf: [{ type: "string" }, { type: "number" }] }, { type: "string" }] },
      vague: { allOf: [{}, true] },
      multi: { type: ["string", "null"] },
      anything: { anyOf: [{ type: "string" }, {}] },
    }, []),
    "records and open objects": object({
      map: { type: "object", additionalProperties: { type: "number" } },
      open: { type: "object", additionalProperties: true },
      empty: { type: "object" },
      closed: { type: "object", properties: {}, additionalProperties: false },
      implied: { required: ["x"] },
    }, []),
    "constraints": object({
      draft4: { type: "number", minimum: 1, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: true },
      pattern: { type: "string", pattern: "^[a-z]+$", format: "email", minLength: 2 },
      multiple: { type: "number", multipleOf: 0.5 },
      longDefault: { type: "string", default: "x".repeat(100) },
      lineBreak: { type: "string", default: "a\nb" },
    }, []),
    "booleans and odd values": { type: "object", properties: { yes: true, no: false, weird: null, text: "string" } },
    "not an object": "nope",
    "empty schema": {},
  };

  /** The catalog section of one tool whose parameters (and output) are `schema`. */
  const declarationOf = (schema, outputSchema) => {
    const { tool } = registerCodemode({ mode: "only", inlineBudget: 1e9 });
    const subject = { name: "subject", description: "A subject.", parameters: schema, ...(outputSchema !== undefined ? { outputSchema } : {}) };
    const loadout = {
      declared: [subject],
      callable: [subject],
      registered: [subject],
      getExposure: () => "direct",
      getNamespace: () => undefined,
      getPromptGuidelines: () => [],
    };
    const description = tool.prepareLoadout(loadout).descriptions.codemode;
    return description.slice(description.indexOf("Nested tools:"));
  };

  for (const [name, schema] of Object.entries(SCHEMAS)) {
    add(`codemode declarations: ${name}`, () => ({ input: declarationOf(schema), output: declarationOf(object({}), schema) }));
  }
  add("codemode declarations: a long input type becomes unknown", () => {
    const properties = {};
    for (let index = 0; index < 300; index++) properties[`field_${index}`] = { type: "string", description: `Field number ${index}`, minLength: 1 };
    const untagged = declarationOf(object(properties));
    const bare = {};
    for (let index = 0; index < 900; index++) bare[`f${index}_${"x".repeat(10)}`] = { type: "string" };
    return { untaggedLength: untagged.length, hasTags: untagged.includes("@minLength"), start: untagged.slice(0, 200), unknown: declarationOf(object(bare)) };
  });
  add("codemode declarations: many shared refs stop expanding", () => {
    const properties = {};
    for (let index = 0; index < 40; index++) properties[`p${String(index).padStart(2, "0")}`] = { $ref: "#/$defs/Shared" };
    return declarationOf({ type: "object", properties, $defs: { Shared: { type: "string" } } });
  });

  add("codemode declarations: identifiers of odd tool names", () => {
    const { tool } = registerCodemode({ mode: "only", inlineBudget: 1e9 });
    const names = ["mcp__server__tool", "my-tool", "delete", "9lives", "with space", "$dollar", "ünïcode", "emoji😀name", "", "a.b"];
    const tools = names.map((name) => ({ name, description: `Tool ${name}`, parameters: object({}) }));
    const loadout = {
      declared: [],
      callable: tools,
      registered: tools,
      getExposure: () => "codemode",
      getNamespace: () => undefined,
      getPromptGuidelines: () => [],
    };
    const description = tool.prepareLoadout(loadout).descriptions.codemode;
    return description.slice(description.indexOf("Nested tools:"));
  });

  // --- Running scripts ------------------------------------------------------

  /** Runs `code` through the registered tool with a recording ctx. */
  const run = async (code, { options, piOptions, ctxOptions, signal, withoutCtx } = {}) => {
    const { tool, entries } = registerCodemode(options, { allTools: ALL_TOOLS, ...piOptions });
    const { ctx, calls } = recordingCtx(ctxOptions);
    const updates = [];
    try {
      const result = await tool.execute("call-1", { code }, signal, (update) => updates.push(update), withoutCtx ? undefined : ctx);
      return stabilize({ result, calls, entries, updates: updates.length, firstUpdate: updates[0] });
    } catch (error) {
      return stabilize({ threw: error, calls, entries });
    }
  };

  const scripts = {
    "returns a value": "return { answer: 42, list: [1, 'two'] }",
    "returns a string": "return 'plain text'",
    "returns nothing": "const x = 1;",
    "returns undefined explicitly": "return undefined",
    "text, console and return": "text('first'); console.log('log', 1, { a: [1] }, null, undefined, NaN); console.error(new Error('shown')); text({ b: 2 }); return 'last'",
    "console only": "console.info('a'); console.warn('b'); console.debug('c')",
    "empty text items": "text(''); text(''); text('x')",
    "two tools in sequence": "const a = await tools.read({ path: 'a.txt' });\nconst b = await tools.read({ path: a + '.bak' });\nreturn [a, b]",
    "two tools in parallel": "const [a, b] = await Promise.all([tools.read({ path: 'a.txt' }), tools.read({ path: 'b.txt' })]);\nreturn a + ' | ' + b",
    "tool with output schema": "return await tools.bash({ command: 'ls' })",
    "raw names and identifiers": "return [await tools['mcp__dev-radius__search']({ query: 'q' }), await tools.mcp__dev_radius__search({ query: 'r' }), await tools.delete({ id: '1' })]",
    "a tool that fails": "return await tools.fail({})",
    "a failing tool caught": "try { await tools.fail({}) } catch (error) { return [error instanceof Error, error.message, error.name] }",
    "structured error result resolves": "return await tools.mcp__github__status({})",
    "allSettled keeps the successes": "const results = await Promise.allSettled([tools.fail({}), tools.read({ path: 'a.txt' })]);\nreturn results.map((r) => r.status)",
    "an unknown tool": "await tools.nosuch({})",
    "an unknown tool close to one": "await tools.dev_radius_search({})",
    "in checks do not throw": "return ['read' in tools, 'nosuch' in tools, typeof tools.then, typeof tools.toString]",
    "codemode cannot call itself": "return typeof tools.codemode",
    "throws an error": "const x = 1;\nthrow new TypeError('bad input: ' + x)",
    "throws a string": "throw 'just a string'",
    "throws an object": "throw { code: 7 }",
    "custom error class": "class MyError extends Error { constructor(m) { super(m); this.name = 'MyError'; } }\nthrow new MyError('custom')",
    "a syntax error": "const = 1",
    "a syntax error on line 3": "const a = 1;\nconst b = 2;\nlet let = 3;",
    "stalled promise": "await new Promise(() => {})",
    "exit ends the script": "text('before'); exit(); text('after')",
    "exit caught keeps success": "try { exit() } catch {} text('ignored'); return 'also ignored'",
    "return value that is not JSON": "const a = {}; a.self = a; return a",
    "return a function": "return () => 1",
    "built-ins are frozen": "Array.prototype.extra = 1; text(String([].extra));\nconst o = {}; o.toString = () => 'own'; text(String(o));\nJSON = null; text(typeof JSON);\nclass E extends Error { constructor() { super('m'); this.name = 'E'; } }\nreturn [new E().name, Object.isFrozen(Math), Object.isFrozen(Object.getPrototypeOf([][Symbol.iterator]()))]",
    "Object.prototype assignment throws": "Object.prototype.toString = () => 'x'",
    "no timers or node": "return [typeof setTimeout, typeof require, typeof process, typeof fetch, typeof console.log, Object.keys(console)]",
    "ALL_TOOLS": "return ALL_TOOLS.map((tool) => tool.name)",
    "ALL_TOOLS descriptions": "return ALL_TOOLS.find((tool) => tool.name === 'read').description",
    "searchTools": "return (await searchTools('issues github')).map((t) => t.name)",
    "searchTools with namespace and limit": "return [(await searchTools('file', { namespace: 'radius' })).map((t) => t.name), (await searchTools('file', { limit: 1 })).map((t) => t.name), await searchTools('zzz')]",
    "searchTools bad arguments": "const out = [];\nfor (const args of [[1], ['x', { limit: 0 }], ['x', { limit: 1.5 }], ['x', { namespace: 3 }]]) { try { await searchTools(...args) } catch (e) { out.push(e.message) } }\nreturn out",
    "describeTool": "return [await describeTool('mcp__dev_radius__search'), await describeTool('read'), await describeTool('nosuch')]",
    "describeTool bad argument": "await describeTool(5)",
    "describeNamespace": "return [await describeNamespace('dev_radius'), await describeNamespace('radius'), await describeNamespace('github'), await describeNamespace('nosuch')]",
    "describeNamespace bad argument": "await describeNamespace()",
    "store and load": "store('count', 1); store('list', [1, 2]); store('gone', undefined); store('count', 2); return [load('count'), load('list'), load('nothing')]",
    "store errors": "const out = [];\nfor (const f of [() => store(1, 1), () => load(null), () => store('f', () => 1), () => store('big', 'x'.repeat(300000)), () => { const a = {}; a.a = a; store('cyc', a) }]) { try { f() } catch (e) { out.push(e.name + ': ' + e.message) } }\nreturn out",
    "store is full": "const chunk = 'y'.repeat(200000);\nlet message;\ntry { for (let i = 0; i < 10; i++) store('k' + i, chunk) } catch (e) { message = e.message }\nfor (let i = 0; i < 10; i++) store('k' + i, undefined);\nstore('small', 'fits again');\nreturn message",
    "failed script keeps no writes": "store('kept', 1); throw new Error('after store')",
    "exit keeps writes": "store('early', true); exit()",
    "output over the budget goes to a file": "// @options: {\"max_output_tokens\": 20}\nfor (let i = 0; i < 30; i++) console.log('line ' + i);\nreturn 'done'",
    "max_output_tokens 0": "// @options: {\"max_output_tokens\": 0}\nreturn 'abc'",
    "images": `image('data:image/png;base64,${PNG_1X1}'); image({ type: 'image', data: '${PNG_1X1}', mimeType: 'image/jpeg' }); image({ image_url: 'data:image/gif;base64,${GIF_1X1}' }); text('after')`,
    "image errors": "const out = [];\nfor (const v of [null, 'http://x/y.png', 'data:image/png,abc', 'data:;base64,abc', 'data:;base64,QUJD', { type: 'text' }, { type: 'image' }, { image_url: 3 }, '', {}]) { try { image(v) } catch (e) { out.push(e.message) } }\nreturn out",
    "timeout while computing": "// @options: {\"timeout_ms\": 1000}\ntext('started');\nwhile (true) {}",
    "timeout while spinning on promises": "// @options: {\"timeout_ms\": 1000}\nwhile (true) await null",
    "timeout while a tool runs": "// @options: {\"timeout_ms\": 1000}\nawait tools.read({ path: 'a.txt' });\nawait tools.slow({})",
    "try cannot catch the timeout": "// @options: {\"timeout_ms\": 1000}\ntry { while (true) {} } catch (e) { text('caught') }\nreturn 'after'",
    "options: bad JSON": "// @options: {nope}\nreturn 1",
    "options: not an object": "// @options: [1]\nreturn 1",
    "options: empty": "// @options:\nreturn 1",
    "options: unknown field": "// @options: {\"timeout\": 1}\nreturn 1",
    "options: bad max_output_tokens": "// @options: {\"max_output_tokens\": -1}\nreturn 1",
    "options: bad timeout_ms": "// @options: {\"timeout_ms\": 0}\nreturn 1",
    "options: timeout too large": "// @options: {\"timeout_ms\": 2147483648}\nreturn 1",
    "options: only the options line": "  // @options: {}",
    "options: not first": "return 1\n  // @options: {}",
    "options: CRLF": "// @options: {\"max_output_tokens\": 100}\r\nreturn 'crlf'",
    "empty input": "   \n ",
    "output limit": "text('kept');\ntry { text('x'.repeat(16777216)) } catch (e) { console.log('caught ' + e.name) }\ntext('not kept')",
    "models catalog": "return [await models.getModelsOfType('classifier'), await models.getAvailableOfType('image', 'openrouter'), await models.getModelOfType('chat', 'anthropic', 'claude'), await models.getModelOfType('image', 'nope', 'x')]",
    "models errors": "const out = [];\nfor (const f of [() => models.getModelsOfType('video'), () => models.getModelsOfType('chat', 5), () => models.getModelOfType('chat', 'anthropic/claude'), () => models.classify(undefined, {}), () => models.classify({ provider: 'openrouter', id: 'painter' }, {}), () => models.classify({ provider: 'x', id: 'y' }, {}), () => models.classify({ provider: 'typesafe', id: 'jev-latest' }, { state: {}, questions: { q: { type: 'score', instructions: 'i', criteria: [] } } }), () => models.generateImages({ provider: 'openrouter', id: 'painter' }, { prompt: 'x' }), () => models.nosuch()]) { try { await f() } catch (e) { out.push(e.message) } }\nreturn out",
    "models classify and generate": "const jev = await models.getModelOfType('classifier', 'typesafe', 'jev-latest');\nconst q = { mood: { type: 'bool', instructions: 'Happy?', criteria: { true: 'yes', false: 'no' } } };\nconst [a, b] = await Promise.all([models.classify(jev, { state: { text: 'hi' }, questions: q }), models.classify(jev, { state: { fail: true }, questions: q })]);\nconst painted = await models.generateImages({ provider: 'openrouter', id: 'painter', baseUrl: 'http://evil' }, { input: [{ type: 'text', text: 'a fox' }] });\nreturn [a.answers, b.errorMessage, painted.output.length]",
  };
  for (const [name, code] of Object.entries(scripts)) {
    const needsModels = name.startsWith("models");
    add(`codemode script: ${name}`, () => run(code, needsModels ? { ctxOptions: { models: fakeModels() } } : {}));
  }

  add("codemode script: generated images shown", async () => {
    const models = fakeModels();
    const out = await run("const r = await models.generateImages({ provider: 'openrouter', id: 'painter' }, { input: [{ type: 'text', text: 'x' }] });\nimage(r.output[0])", { ctxOptions: { models } });
    return { out, seen: models.seen };
  });
  add("codemode script: models off", () => run("return typeof models", { options: { models: false }, ctxOptions: { models: fakeModels() } }));
  add("codemode script: without a ctx", () => run("store('x', 1); return [ALL_TOOLS.length, load('x'), typeof searchTools, typeof models]", { withoutCtx: true }));
  add("codemode script: load sees the branch's store entries", () =>
    run("return [load('a'), load('b'), load('c'), load('d')]", {
      ctxOptions: {
        branch: [
          { type: "custom", customType: "codemode-store", data: { set: { a: 1, b: { deep: true } }, delete: [] } },
          { type: "message", customType: "codemode-store", data: { set: { c: "not custom" }, delete: [] } },
          { type: "custom", customType: "other", data: { set: { c: "other type" }, delete: [] } },
          { type: "custom", customType: "codemode-store", data: { set: { d: "malformed" } } },
          { type: "custom", customType: "codemode-store", data: { set: { a: 2 }, delete: ["b", "a"] } },
        ],
      },
    }),
  );
  // The call's signal is aborted as the script calls the tool that never answers.
  add("codemode script: aborted while a tool runs", async () => {
    const controller = new AbortController();
    const onSlow = () => controller.abort(new Error("stopped by the user"));
    return run("await tools.read({ path: 'a.txt' });\nawait tools.slow({})", { signal: controller.signal, ctxOptions: { onSlow } });
  });
  add("codemode script: aborted without a reason", async () => {
    const controller = new AbortController();
    const onSlow = () => controller.abort("not an error");
    return run("await tools.slow({})", { signal: controller.signal, ctxOptions: { onSlow } });
  });
  add("codemode script: aborted before it starts", () => {
    const controller = new AbortController();
    controller.abort(new Error("already stopped"));
    return run("return 1", { signal: controller.signal });
  });
  // --- Worker slots: PI_CODEMODE_MAX_WORKERS scripts run at once ------------

  /**
   * Runs scripts side by side with `workers` slots: the first holds its slot
   * on `slow` until `release()`; `next` get their turn (or not) meanwhile.
   * Each result is reported with the order in which the scripts finished.
   */
  const withWorkerSlots = async (workers, run) => {
    const previous = process.env.PI_CODEMODE_MAX_WORKERS;
    process.env.PI_CODEMODE_MAX_WORKERS = String(workers);
    try {
      return await run();
    } finally {
      if (previous === undefined) delete process.env.PI_CODEMODE_MAX_WORKERS;
      else process.env.PI_CODEMODE_MAX_WORKERS = previous;
    }
  };
  const holdingSlot = () => {
    const controller = new AbortController();
    let holding;
    const started = new Promise((resolve) => {
      holding = resolve;
    });
    const first = run("text('first runs'); await tools.slow({})", { signal: controller.signal, ctxOptions: { onSlow: () => holding() } });
    return { first, started, release: () => controller.abort(new Error("released")) };
  };
  const finishing = (order, label, promise) =>
    promise.then((value) => {
      order.push(label);
      return value;
    });

  add("codemode workers: a script waits for the one slot, then runs", () =>
    withWorkerSlots(1, async () => {
      const order = [];
      const { first, started, release } = holdingSlot();
      await started;
      const second = finishing(order, "second", run("return 'second ran'"));
      await new Promise((resolve) => setTimeout(resolve, 50));
      order.push("released");
      release();
      const results = await Promise.all([finishing(order, "first", first), second]);
      return { order, results };
    }),
  );
  add("codemode workers: the wait counts toward the script's timeout", () =>
    withWorkerSlots(1, async () => {
      const { first, started, release } = holdingSlot();
      await started;
      const waiting = await run("// @options: {\"timeout_ms\": 100}\nreturn 'never'");
      release();
      return { waiting, first: await first };
    }),
  );
  add("codemode workers: aborted while waiting for a slot", () =>
    withWorkerSlots(1, async () => {
      const { first, started, release } = holdingSlot();
      await started;
      const controller = new AbortController();
      const waiting = run("return 'never'", { signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, 30));
      controller.abort(new Error("user gave up"));
      const result = await waiting;
      release();
      return { waiting: result, first: await first };
    }),
  );
  add("codemode workers: two slots run two scripts at once", () =>
    withWorkerSlots(2, async () => {
      const { first, started, release } = holdingSlot();
      await started;
      const second = await run("return 'beside the first'");
      release();
      return { second, first: await first };
    }),
  );

  add("codemode script: guidelines reach ALL_TOOLS", () => run("return describeTool('read')"));
  add("codemode script: updates while running", async () => {
    const { tool } = registerCodemode(undefined, { allTools: ALL_TOOLS });
    const { ctx } = recordingCtx();
    const updates = [];
    await tool.execute("call-2", { code: "await tools.read({ path: 'a.txt' }); await tools.fail({}).catch(() => {})" }, undefined, (update) => updates.push(update), ctx);
    return stabilize(updates);
  });

  // --- Renderers --------------------------------------------------------------

  const theme = {
    fg: (color, text) => `<${color}>${text}</${color}>`,
    bold: (text) => `<b>${text}</b>`,
  };
  const context = (extra = {}) => ({
    state: {},
    lastComponent: undefined,
    expanded: false,
    executionStarted: false,
    argsComplete: true,
    isError: false,
    showImages: false,
    invalidate: () => {},
    ...extra,
  });
  const lines = (component, widths = [60, 24]) =>
    Object.fromEntries(widths.map((width) => [width, component.render(width).map((line) => line.replace(ANSI, "").trimEnd())]));

  const renderCall = (args, extra) => {
    agent.initTheme("dark");
    const { tool } = registerCodemode();
    return lines(tool.renderCall(args, theme, context(extra)));
  };
  add("codemode renderCall: a short script", () => renderCall({ code: "const a = await tools.read({ path: 'a.txt' });\n\treturn a;\r\n\n" }));
  add("codemode renderCall: a long script collapsed and expanded", () => {
    const code = Array.from({ length: 14 }, (_, index) => `console.log(${index}); // a comment that is long enough to wrap`).join("\n");
    return { collapsed: renderCall({ code }), expanded: renderCall({ code }, { expanded: true }) };
  });
  add("codemode renderCall: no code, invalid code", () => ({ none: renderCall({}), empty: renderCall({ code: "" }), invalid: renderCall({ code: 42 }), missing: renderCall(undefined) }));

  const renderResult = (result, options, extra) => {
    agent.initTheme("dark");
    const { tool } = registerCodemode();
    return lines(tool.renderResult(result, { expanded: false, isPartial: false, ...options }, theme, context(extra)));
  };
  const call = (id, name, status, extra = {}) => ({ id, name, args: `{"path":"${name}.txt"}`, status, ...extra });
  add("codemode renderResult: calls and output", () =>
    renderResult(
      {
        content: [
          { type: "text", text: "Script completed\nWall time 0.3 seconds\nOutput:\n" },
          { type: "text", text: "first line\n\tindented\nthird" },
        ],
        details: { calls: [call("a", "read", "ok", { durationMs: 12.4 }), call("b", "fail", "error", { durationMs: 1500, error: "denied\nby policy" }), call("c", "slow", "cancelled")] },
      },
      {},
      { durationMs: 2345 },
    ),
  );
  add("codemode renderResult: expanded with an error", () =>
    renderResult(
      {
        content: [
          { type: "text", text: "Script failed\nWall time 12.0 seconds\nOutput:\n" },
          { type: "text", text: "Script error:\nError: boom\n\nTool calls made before the failure (they are not undone): fail (error)" },
        ],
        details: { calls: [call("b", "fail", "error", { durationMs: 999.6, error: "denied\nby policy", args: "x".repeat(120) })] },
      },
      { expanded: true },
      { isError: true, durationMs: 65000 },
    ),
  );
  add("codemode renderResult: many calls collapsed, model costs", () => {
    const calls = Array.from({ length: 11 }, (_, index) => call(`id${index}`, `tool${index}`, index % 2 ? "ok" : "running", { args: index === 3 ? "y".repeat(100) : "{}" }));
    calls.push({ id: "m1", name: "models.classify", args: "typesafe/jev-latest", status: "ok", durationMs: 300, cost: 0.00042 });
    calls.push({ id: "m2", name: "models.generateImages", args: "openrouter/painter", status: "ok", durationMs: 2000, cost: 0.04 });
    const result = { content: [{ type: "text", text: "Script completed\nWall time 1.0 seconds\nOutput:\n" }], details: { calls } };
    return { collapsed: renderResult(result), expanded: renderResult(result, { expanded: true }) };
  });
  add("codemode renderResult: partial, no header, long output, full output file", () => ({
    partial: renderResult({ content: [], details: { calls: [call("a", "read", "running")] } }, { isPartial: true }),
    noHeader: renderResult({ content: [{ type: "text", text: "@options must be a JSON object" }] }, {}, { isError: true }),
    long: renderResult(
      {
        content: [
          { type: "text", text: "Script completed\nWall time 1.0 seconds\nOutput:\n" },
          { type: "text", text: Array.from({ length: 9 }, (_, index) => `output line ${index}`).join("\n") },
          { type: "image", data: PNG_1X1, mimeType: "image/png" },
        ],
        details: { calls: [], fullOutputPath: "/tmp/pi-codemode-full.txt" },
      },
      {},
    ),
  }));
}
