// The shared case table for the pi package goldens: TypeBox's builders and
// Value/Compile functions, pi-ai's tool argument validation, and
// pi-coding-agent's pure helpers. tests/reference/record-pi-packages.mjs runs
// it against the real packages; pi-packages-differential.mjs against pihost's
// js/pi. Each case returns plain data (or throws); `serialize` turns results
// into JSON that shows TypeBox's hidden `~` marks and thrown errors.

/** 32-bit FNV-1a over UTF-16 units, as 8 hex digits: enough to tell long outputs apart. */
export function fingerprint(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** JSON text of a result, with non-enumerable keys as "!key" and non-JSON values named. */
export function serialize(value) {
  return JSON.stringify(value, function (_key, item) {
    if (item === undefined) return "<undefined>";
    if (typeof item === "bigint") return `${item}n`;
    if (typeof item === "function") return "<function>";
    if (typeof item === "symbol") return "<symbol>";
    if (typeof item === "number" && !Number.isFinite(item)) return String(item);
    if (item instanceof Error) return { error: item.name, message: item.message };
    if (item && typeof item === "object" && !Array.isArray(item)) {
      const out = {};
      for (const key of Reflect.ownKeys(item)) {
        const descriptor = Object.getOwnPropertyDescriptor(item, key);
        out[(descriptor.enumerable ? "" : "!") + String(key)] = item[key];
      }
      return out;
    }
    return item;
  });
}

/** Runs one case: its value, or the error it throws, as data. */
export async function runCase(run) {
  try {
    return { value: JSON.parse(serialize(await run())) };
  } catch (error) {
    return { thrown: { name: error?.name, message: String(error?.message ?? error) } };
  }
}

/**
 * The cases, built from the module namespaces: `typebox` ("typebox"),
 * `value` ("typebox/value"), `compile` ("typebox/compile"), `ai`
 * (pi-ai) and `agent` (pi-coding-agent).
 */
export function buildCases({ typebox, value, compile, ai, agent }) {
  const T = typebox.Type;
  const { Value } = value;
  const cases = [];
  const add = (name, run) => cases.push({ name, run });

  // --- Builders --------------------------------------------------------------
  const O = () => T.Object({ a: T.String(), b: T.Optional(T.Number()) }, { description: "obj" });
  const builders = {
    string: () => T.String({ description: "d", minLength: 1 }),
    number: () => T.Number({ minimum: 0 }),
    integer: () => T.Integer(),
    boolean: () => T.Boolean(),
    null: () => T.Null(),
    any: () => T.Any(),
    unknown: () => T.Unknown({ description: "u" }),
    literalString: () => T.Literal("x", { description: "d" }),
    literalNumber: () => T.Literal(3),
    literalBoolean: () => T.Literal(true),
    literalBad: () => T.Literal(undefined),
    union: () => T.Union([T.Literal("a"), T.Literal("b")], { description: "u" }),
    unionOne: () => T.Union([T.String()]),
    array: () => T.Array(T.String(), { minItems: 1 }),
    enumArray: () => T.Enum(["a", "b"]),
    enumObject: () => T.Enum({ A: "a", B: 1 }),
    enumTs: () => T.Enum({ 0: "A", 1: "B", A: 0, B: 1 }),
    recordString: () => T.Record(T.String(), T.Number()),
    recordNumber: () => T.Record(T.Number(), T.Number()),
    recordInteger: () => T.Record(T.Integer(), T.Number()),
    recordUnion: () => T.Record(T.Union([T.Literal("a"), T.Literal("b")]), T.Number()),
    recordLiteral: () => T.Record(T.Literal("k"), T.String()),
    recordTemplate: () => T.Record(T.TemplateLiteral("x${string}"), T.String()),
    recordOptions: () => T.Record(T.String(), T.String(), { description: "r" }),
    object: O,
    objectEmpty: () => T.Object({}),
    objectClosed: () => T.Object({ a: T.String() }, { additionalProperties: false }),
    objectReadonlyOptional: () => T.Object({ a: T.Readonly(T.Optional(T.String())) }),
    optional: () => T.Optional(T.String()),
    readonly: () => T.Readonly(T.String()),
    optionalTwice: () => T.Optional(T.Optional(T.String())),
    unsafe: () => T.Unsafe({ type: "string", enum: ["a"] }),
    tuple: () => T.Tuple([T.String(), T.Number()]),
    tupleEmpty: () => T.Tuple([]),
    tupleOptions: () => T.Tuple([T.String()], { description: "x" }),
    partial: () => T.Partial(O()),
    partialOptions: () => T.Partial(O(), { title: "t" }),
    required: () => T.Required(O(), { title: "r" }),
    requiredPartial: () => T.Required(T.Partial(O())),
    pick: () => T.Pick(O(), ["a"]),
    pickOptions: () => T.Pick(O(), ["a"], { title: "p" }),
    pickUnion: () => T.Pick(O(), T.Union([T.Literal("a")])),
    pickKeyOf: () => T.Pick(O(), T.KeyOf(O())),
    omit: () => T.Omit(O(), ["a"]),
    omitMissing: () => T.Omit(O(), ["zz"]),
    omitOptions: () => T.Omit(O(), ["a"], { title: "o" }),
    partialIntersect: () => T.Partial(T.Intersect([T.Object({ a: T.String() }), T.Object({ b: T.String() })])),
    intersect: () => T.Intersect([O(), T.Object({ c: T.Boolean() })]),
    intersectOptions: () => T.Intersect([T.Object({ a: T.String() }), T.Object({ b: T.String() })], { description: "i" }),
    evaluate: () => T.Evaluate(T.Intersect([T.Object({ a: T.String() }), T.Object({ a: T.Number(), c: T.Optional(T.String()) })])),
    evaluateSame: () => T.Evaluate(T.Intersect([T.Object({ a: T.String() }), T.Object({ a: T.String(), b: T.Number() })])),
    keyOf: () => T.KeyOf(O()),
    keyOfOne: () => T.KeyOf(T.Object({ a: T.String() })),
    keyOfEmpty: () => T.KeyOf(T.Object({})),
    keyOfRecord: () => T.KeyOf(T.Record(T.String(), T.Number())),
    ref: () => T.Ref("Foo"),
    refOptions: () => T.Ref("A", { description: "d" }),
    void: () => T.Void(),
    undefined: () => T.Undefined(),
    never: () => T.Never(),
    bigint: () => T.BigInt(),
    symbol: () => T.Symbol(),
    templateString: () => T.TemplateLiteral("on${string}"),
    templateDot: () => T.TemplateLiteral("a.b${string}"),
    templateNumberBoolean: () => T.TemplateLiteral("x${number}y${boolean}"),
    templateInteger: () => T.TemplateLiteral("n${integer}"),
    templateArray: () => T.TemplateLiteral([T.Literal("x"), T.String(), T.Number()]),
    templateUnion: () => T.TemplateLiteral([T.Literal("a"), T.Union([T.Literal("b"), T.Literal("c")])]),
    cyclic: () => T.Cyclic({ Node: T.Object({ id: T.String(), nodes: T.Array(T.Ref("Node")) }) }, "Node"),
    guards: () => [
      T.IsString(T.String()),
      T.IsObject(O()),
      T.IsKind(O(), "Object"),
      T.IsOptional(T.Optional(T.String())),
      T.IsOptional(T.String()),
      T.IsSchema({}),
      T.IsSchema(1),
      typebox.IsUnion(T.Union([])),
      typebox.IsLiteral(T.String()),
    ],
    typeboxNamedExports: () => [typebox.Object === T.Object, typeof typebox.Tuple, typeof typebox.default.String],
  };
  for (const [name, build] of Object.entries(builders)) add(`builder ${name}`, build);

  // --- Value.Check / Errors over valid and invalid values ----------------------
  const tool = () =>
    T.Object({
      path: T.String({ description: "Path", minLength: 1 }),
      offset: T.Optional(T.Integer({ minimum: 1 })),
      mode: T.Union([T.Literal("text"), T.Literal("binary")]),
      tags: T.Optional(T.Array(T.String(), { maxItems: 2 })),
    });
  const checks = {
    tool: [tool, [{ path: "a", mode: "text" }, { path: "", mode: "video", offset: 0.5, tags: ["a", "b", 3] }, {}, null, [], "x", { path: "a", mode: "text", offset: undefined }]],
    closed: [() => T.Object({ a: T.String() }, { additionalProperties: false }), [{ a: "x" }, { a: "x", b: 1, c: 2 }, { b: 1 }]],
    additionalSchema: [() => T.Object({ a: T.String() }, { additionalProperties: T.Number() }), [{ a: "x", b: 1 }, { a: "x", b: "y" }]],
    many: [() => T.Object({ a: T.String(), b: T.String(), c: T.String(), d: T.String(), e: T.String(), f: T.String(), g: T.String(), h: T.String(), i: T.String(), j: T.String() }), [Object.fromEntries("abcdefghij".split("").map((k) => [k, 1])), {}]],
    string: [() => T.String({ minLength: 2, maxLength: 4, pattern: "^[a-z]+$" }), ["ab", "a", "abcdef", "AB", 1, "👍👍"]],
    format: [() => T.String({ format: "email" }), ["a@b.co", "nope", 1]],
    formats: [() => T.Object({ d: T.Optional(T.String({ format: "date" })), t: T.Optional(T.String({ format: "date-time" })), u: T.Optional(T.String({ format: "uuid" })), i: T.Optional(T.String({ format: "ipv4" })), r: T.Optional(T.String({ format: "uri" })) }), [{ d: "2024-02-29", t: "2024-01-01T10:00:00Z", u: "123e4567-e89b-12d3-a456-426614174000", i: "10.0.0.1", r: "https://x.y/z" }, { d: "2023-02-29", t: "2024-01-01 25:00", u: "x", i: "256.1.1.1", r: "no scheme" }]],
    number: [() => T.Number({ minimum: 1, maximum: 10, multipleOf: 0.5 }), [1, 0, 11, 1.25, "1", NaN, Infinity]],
    exclusive: [() => T.Integer({ exclusiveMinimum: 0, exclusiveMaximum: 5 }), [1, 0, 5, 2.5]],
    literal: [() => T.Literal("x"), ["x", "y", 1]],
    enum: [() => T.Enum(["a", "b", 1]), ["a", 1, "c", null]],
    union: [() => T.Union([T.String(), T.Number()]), ["a", 1, true, null]],
    unionObjects: [() => T.Union([T.Object({ kind: T.Literal("a"), x: T.String() }), T.Object({ kind: T.Literal("b"), y: T.Number() })]), [{ kind: "a", x: "s" }, { kind: "b", y: "s" }, { kind: "c" }]],
    array: [() => T.Array(T.Integer(), { minItems: 1, maxItems: 3, uniqueItems: true }), [[1], [], [1, 1], [1, 2, 3, 4], [1.5], "x"]],
    tuple: [() => T.Tuple([T.String(), T.Number()]), [["a", 1], ["a"], ["a", 1, 2], [1, "a"]]],
    record: [() => T.Record(T.String(), T.Number()), [{ a: 1 }, { a: "x", b: 2 }, []]],
    recordNumber: [() => T.Record(T.Number(), T.String()), [{ 1: "a" }, { 1: 2 }, { x: 1 }]],
    intersect: [() => T.Intersect([T.Object({ a: T.String() }), T.Object({ b: T.Number() })]), [{ a: "x", b: 1 }, { a: 1 }, {}]],
    nullable: [() => T.Union([T.String(), T.Null()]), [null, "x", 1]],
    optionalUndefined: [() => T.Object({ a: T.Optional(T.String()), b: T.String() }), [{ b: "x", a: undefined }, { b: undefined }]],
    booleanSchema: [() => T.Object({ a: T.Boolean() }), [{ a: true }, { a: "true" }]],
    never: [() => T.Never(), [1]],
    undefinedType: [() => T.Undefined(), [undefined, null]],
    voidType: [() => T.Void(), [undefined, 1]],
    bigint: [() => T.BigInt({ minimum: 1n }), [1n, 0n, 1]],
    any: [() => T.Any(), [1, null, undefined]],
    refContext: [() => T.Ref("Foo"), ["x", 1]],
    cyclic: [() => T.Cyclic({ Node: T.Object({ id: T.String(), nodes: T.Array(T.Ref("Node")) }) }, "Node"), [{ id: "a", nodes: [{ id: "b", nodes: [] }] }, { id: "a", nodes: [{ id: 1, nodes: [] }] }]],
    jsonSchema: [() => ({ type: "object", properties: { n: { type: ["integer", "null"] }, s: { type: "string", enum: ["x", "y"] }, not: { not: { type: "string" } }, one: { oneOf: [{ type: "number" }, { type: "integer" }] } }, required: ["n"] }), [{ n: 1, s: "x", not: 1, one: 1.5 }, { n: "1", s: "z", not: "s", one: 1 }, { n: null }]],
    ifThen: [() => ({ if: { type: "string" }, then: { minLength: 2 }, else: { type: "number" } }), ["ab", "a", 1, true]],
    dependent: [() => ({ type: "object", dependentRequired: { a: ["b"] }, minProperties: 1, maxProperties: 2 }), [{ a: 1, b: 2 }, { a: 1 }, {}, { a: 1, b: 2, c: 3 }]],
    contains: [() => ({ type: "array", contains: { type: "string" } }), [["a"], [1]]],
    propertyNames: [() => ({ type: "object", propertyNames: { pattern: "^[a-z]+$" } }), [{ ab: 1 }, { A: 1, b: 2 }]],
    nestedUnions: [() => T.Array(T.Union([T.Object({ a: T.Union([T.Literal(1), T.Literal(2)]) }), T.String()])), [[{ a: 1 }, "x"], [{ a: 3 }, 1, { b: 1 }, null]]],
    closedMany: [() => T.Object({ a: T.String() }, { additionalProperties: false }), [Object.fromEntries("abcdefghijkl".split("").map((k) => [k, 1]))]],
    patternProperties: [() => ({ type: "object", patternProperties: { "^s_": { type: "string" }, "^n_": { type: "number" } }, additionalProperties: false }), [{ s_a: "x", n_b: 1 }, { s_a: 1, n_b: "x", other: true }]],
    graphemes: [() => T.String({ maxLength: 2 }), ["e\u0301e\u0301", "👨‍👩‍👧👍", "abc"]],
    allOfClosed: [() => T.Intersect([T.Object({ a: T.String() }), T.Object({ b: T.String() }, { additionalProperties: false })]), [{ a: "x", b: "y" }]],
  };
  for (const [name, [schema, values]] of Object.entries(checks)) {
    values.forEach((item, index) => {
      const context = name === "refContext" ? { Foo: T.String() } : {};
      add(`Value.Check ${name} #${index}`, () => Value.Check(context, schema(), item));
      add(`Value.Errors ${name} #${index}`, () => [...Value.Errors(context, schema(), item)]);
      add(`Compile ${name} #${index}`, () => {
        const validator = compile.Compile(context, schema());
        return [validator.Check(item), validator.Errors(item)];
      });
    });
  }

  // --- Value operations -----------------------------------------------------------
  const converts = {
    number: [() => T.Number(), ["42", "x", true, null, "", "1e3", 7n]],
    integer: [() => T.Integer(), ["3.7", 3.7, "true"]],
    string: [() => T.String(), [1, true, null, undefined, {}]],
    boolean: [() => T.Boolean(), ["true", "FALSE", "1", 0, 2, "yes"]],
    null: [() => T.Null(), ["null", "", 0, "x"]],
    literal: [() => T.Literal(1), ["1", "2"]],
    literalBool: [() => T.Literal(true), ["true", 1]],
    union: [() => T.Union([T.Number(), T.Boolean()]), ["1", "true", "x"]],
    array: [() => T.Array(T.Number()), ["1", ["1", "2"], 5]],
    object: [() => T.Object({ n: T.Number(), b: T.Optional(T.Boolean()), s: T.String() }), [{ n: "1", b: "false", s: 2, extra: "3" }]],
    tuple: [() => T.Tuple([T.Number(), T.String()]), [["1", 2], "1"]],
    record: [() => T.Record(T.String(), T.Integer()), [{ a: "1.5" }]],
    enum: [() => T.Enum([1, 2]), ["2", "3"]],
  };
  for (const [name, [schema, values]] of Object.entries(converts)) {
    values.forEach((item, index) => add(`Value.Convert ${name} #${index}`, () => Value.Convert(schema(), item)));
  }
  const creates = {
    object: () => T.Object({ a: T.String(), b: T.Optional(T.Number()), c: T.Array(T.Boolean()), d: T.Union([T.Literal("x"), T.Null()]) }),
    defaults: () => T.Object({ a: T.String({ default: "hi" }), n: T.Number({ minimum: 5 }), i: T.Integer({ exclusiveMinimum: 2 }) }),
    string: () => T.String({ minLength: 3 }),
    pattern: () => T.String({ pattern: "x" }),
    tuple: () => T.Tuple([T.String(), T.Number()]),
    enum: () => T.Enum(["b", "a"]),
    never: () => T.Never(),
    record: () => T.Record(T.String(), T.Number()),
    unique: () => T.Array(T.String(), { uniqueItems: true }),
    arrayMin: () => T.Array(T.Literal(1), { minItems: 2 }),
    null: () => T.Null(),
    bigint: () => T.BigInt(),
    intersect: () => T.Intersect([T.Object({ a: T.String() }), T.Object({ b: T.Number() })]),
  };
  for (const [name, schema] of Object.entries(creates)) add(`Value.Create ${name}`, () => Value.Create(schema()));
  const defaulted = T.Object({
    a: T.String({ default: "x" }),
    b: T.Optional(T.Number({ default: 3 })),
    c: T.Optional(T.String()),
    nested: T.Object({ d: T.Boolean({ default: true }) }, { default: {} }),
    list: T.Array(T.Object({ e: T.Number({ default: 1 }) })),
  });
  add("Value.Default object", () => Value.Default(defaulted, { list: [{}, { e: 5 }] }));
  add("Value.Default existing", () => Value.Default(defaulted, { a: "given", b: 9, nested: { d: false }, list: [] }));
  add("Value.Default primitive", () => Value.Default(T.Number({ default: 5 }), undefined));
  add("Value.Default union", () => Value.Default(T.Union([T.Object({ x: T.Number({ default: 1 }) }), T.String()]), {}));
  add("Value.Clean object", () => Value.Clean(T.Object({ a: T.String(), o: T.Object({ b: T.Number() }) }), { a: "x", z: 1, o: { b: 1, y: 2 } }));
  add("Value.Clean additional", () => Value.Clean(T.Object({ a: T.String() }, { additionalProperties: T.Number() }), { a: "x", n: 1, s: "s" }));
  add("Value.Clean tuple", () => Value.Clean(T.Tuple([T.Number()]), [1, 2, 3]));
  add("Value.Clean union", () => Value.Clean(T.Union([T.Object({ a: T.String() }), T.Object({ b: T.Number() })]), { b: 1, c: 2 }));
  add("Value.Clean record", () => Value.Clean(T.Record(T.Number(), T.String()), { 1: "a", x: "b" }));
  add("Value.Clone", () => {
    const source = { a: [1, { b: 2 }], d: new Date(0) };
    const copy = Value.Clone(source);
    return [copy, copy !== source, copy.a !== source.a, copy.a[1] !== source.a[1]];
  });
  add("Value.Equal", () => [Value.Equal({ a: [1, 2] }, { a: [1, 2] }), Value.Equal({ a: 1 }, { a: 1, b: 2 }), Value.Equal([1], [1, 2]), Value.Equal(null, null), Value.Equal(NaN, NaN)]);
  add("Value.Parse valid", () => Value.Parse(T.Object({ a: T.Number() }), { a: 1 }));
  add("Value.Parse invalid", () => Value.Parse(T.Object({ a: T.Number() }), { a: "1" }));
  add("Value.Parse error cause", () => {
    try {
      Value.Parse(T.Number(), "x");
    } catch (error) {
      return [error.constructor.name, error.message, error.cause];
    }
  });
  add("Value.Assert", () => {
    try {
      Value.Assert(T.String(), 1);
    } catch (error) {
      return [error.constructor.name, error.message, error.cause];
    }
  });
  add("Value keys", () => ["Check", "Errors", "Convert", "Create", "Default", "Clean", "Clone", "Equal", "Parse", "Assert"].map((key) => typeof Value[key]));
  add("Compile methods", () => {
    const validator = compile.Compile(T.Object({ a: T.Number() }));
    return [typeof compile.default, validator instanceof compile.Validator, validator.Parse({ a: 1 }), validator.Create(), validator.Convert({ a: "2" })];
  });

  // --- Tool argument validation (pi-ai) ------------------------------------------
  const readTool = {
    name: "read",
    parameters: T.Object({
      path: T.String({ minLength: 1 }),
      offset: T.Optional(T.Integer({ minimum: 1 })),
      limit: T.Optional(T.Number()),
      mode: T.Optional(T.Union([T.Literal("text"), T.Literal("binary")])),
      flags: T.Optional(T.Array(T.String())),
      strict: T.Optional(T.Boolean()),
    }),
  };
  const closedTool = {
    name: "edit",
    parameters: {
      type: "object",
      properties: {
        edits: { type: "array", items: { type: "object", properties: { oldText: { type: "string" }, newText: { type: "string" } }, required: ["oldText", "newText"], additionalProperties: false } },
        when: { type: "string", format: "date" },
        size: { type: ["integer", "null"] },
        color: { type: "string", enum: ["red", "green"] },
        kind: { const: "x" },
        score: { type: "number", maximum: 10, exclusiveMinimum: 0, multipleOf: 0.1 },
        "a/b": { type: "string" },
      },
      required: ["edits"],
      additionalProperties: false,
    },
  };
  const tagged = {
    name: "shape",
    parameters: T.Object({
      shape: T.Union([T.Object({ kind: T.Literal("circle"), r: T.Number() }), T.Object({ kind: T.Literal("square"), side: T.Number() })]),
    }),
  };
  const refTool = { name: "ref", parameters: { type: "object", properties: { x: { $ref: "#/$defs/X" }, y: { $ref: "#/$defs/Missing" } }, $defs: { X: { type: "integer" } } } };
  const toolCalls = [
    [readTool, { path: "a.txt" }],
    [readTool, { path: "a.txt", offset: "10", limit: "2.5", strict: "true", flags: "x", mode: "text" }],
    [readTool, { path: "a.txt", offset: null, limit: null }],
    [readTool, { path: "", offset: "ten", mode: "video" }],
    [readTool, {}],
    [readTool, { path: 5, offset: 0 }],
    [readTool, { path: "a", offset: 1.5, strict: "maybe" }],
    [closedTool, { edits: [{ oldText: "a", newText: "b" }] }],
    [closedTool, { edits: [{ oldText: "a" }], extra: 1 }],
    [closedTool, { edits: { oldText: "a", newText: "b", note: 1 }, size: "3", color: "blue", kind: "y", score: 0.35, "a/b": 1 }],
    [closedTool, { edits: [], when: "2024-13-01", size: null, score: 11 }],
    [closedTool, { edits: [], score: 0 }],
    [tagged, { shape: { kind: "circle", r: "2" } }],
    [tagged, { shape: { kind: "triangle" } }],
    [tagged, { shape: { kind: "square", side: "x" } }],
    [tagged, { shape: "round" }],
    [refTool, { x: "4" }],
    [refTool, { x: "a" }],
    [refTool, { y: 1 }],
    [{ name: "union", parameters: T.Object({ v: T.Union([T.Object({ a: T.String(), b: T.Number() }), T.Object({ c: T.Boolean() })]) }) }, { v: { a: "x", b: "nope" } }],
    [{ name: "union", parameters: T.Object({ v: T.Union([T.Number(), T.Boolean()]) }) }, { v: "true" }],
    [{ name: "union", parameters: T.Object({ v: T.Union([T.Number(), T.Boolean()]) }) }, { v: "maybe" }],
    [{ name: "nested", parameters: T.Object({ list: T.Array(T.Object({ n: T.Integer(), o: T.Optional(T.String()) })) }) }, { list: { n: "2", o: null } }],
    [{ name: "nested", parameters: T.Object({ list: T.Array(T.Object({ n: T.Integer(), o: T.Optional(T.String()) })) }) }, { list: [{ n: "x" }, { n: 1, o: 2 }, "s"] }],
    [{ name: "nullable", parameters: { type: "object", properties: { a: { type: ["string", "null"] }, b: { type: "boolean" }, c: { type: "null" } } } }, { a: null, b: null, c: "" }],
    [{ name: "record", parameters: T.Object({ env: T.Record(T.String(), T.String()) }) }, { env: { A: 1, B: true, C: null } }],
    [{ name: "strict", parameters: T.Object({ n: T.Number() }, { additionalProperties: false }) }, { n: "", x: 1, y: 2 }],
    [{ name: "enum", parameters: T.Object({ e: T.Enum([1, 2, "3"]) }) }, { e: "2" }],
    [{ name: "pattern", parameters: T.Object({ id: T.String({ pattern: "^[a-z]+$", maxLength: 3 }) }) }, { id: "ABCD" }],
    [{ name: "tuple", parameters: T.Object({ t: T.Tuple([T.Number(), T.Boolean()]) }) }, { t: ["1", "false"] }],
    [{ name: "tuple", parameters: T.Object({ t: T.Tuple([T.Number(), T.Boolean()]) }) }, { t: ["1"] }],
    [{ name: "any", parameters: T.Object({ a: T.Any(), u: T.Unknown() }) }, { a: null }],
  ];
  toolCalls.forEach(([toolDef, args], index) => {
    add(`validateToolArguments ${toolDef.name} #${index}`, () => {
      const call = { type: "toolCall", id: "c1", name: toolDef.name, arguments: args };
      const result = ai.validateToolArguments(toolDef, call);
      return { result, unchanged: JSON.stringify(call.arguments) === JSON.stringify(args) };
    });
  });
  add("validateToolArguments argumentsError", () => ai.validateToolArguments(readTool, { name: "read", arguments: {}, argumentsError: "Unexpected token" }));
  add("validateToolCall found", () => ai.validateToolCall([closedTool, readTool], { name: "read", arguments: { path: "x" } }));
  add("validateToolCall missing", () => ai.validateToolCall([readTool], { name: "nope", arguments: {} }));
  add("StringEnum", () => ai.StringEnum(["a", "b"], { description: "d", default: "a" }));

  // --- pi-coding-agent helpers ----------------------------------------------------
  add("constants", () => [agent.DEFAULT_MAX_BYTES, agent.DEFAULT_MAX_LINES]);
  const texts = {
    empty: "",
    short: "a\nb\nc",
    trailingNewline: "a\nb\n",
    manyLines: Array.from({ length: 30 }, (_, i) => `line ${i}`).join("\n"),
    wide: "x".repeat(120),
    multibyte: "é€😀\n".repeat(10),
    longLast: "short\n" + "y".repeat(50),
    longFirst: "z".repeat(50) + "\nshort",
  };
  const limits = [{}, { maxLines: 5 }, { maxBytes: 20 }, { maxLines: 3, maxBytes: 40 }, { maxBytes: 7 }];
  for (const [name, text] of Object.entries(texts)) {
    limits.forEach((options, index) => {
      add(`truncateHead ${name} #${index}`, () => agent.truncateHead(text, options));
      add(`truncateTail ${name} #${index}`, () => agent.truncateTail(text, options));
    });
  }
  add("truncateLine", () => [agent.truncateLine("abc"), agent.truncateLine("x".repeat(600)), agent.truncateLine("abcdef", 3), agent.truncateLine("a😀b", 2)]);
  add("formatSize", () => [0, 1, 1023, 1024, 1536, 1024 * 1024 - 1, 1024 * 1024, 5.5 * 1024 * 1024, 1e12].map(agent.formatSize));
  add("formatReadLineRange", () => [
    agent.formatReadLineRange(undefined, undefined),
    agent.formatReadLineRange(5, undefined),
    agent.formatReadLineRange(5, 10),
    agent.formatReadLineRange("5", "2"),
    agent.formatReadLineRange(null, 3),
    agent.formatReadLineRange("x", 3),
    agent.formatReadLineRange(1, 0),
    agent.formatReadLineRange(1, "y"),
  ]);
  const frontmatters = {
    none: "# Title\nbody",
    simple: "---\nname: my-skill\ndescription: Does things\n---\n\n# Body\n",
    types: "---\ncount: 3\nratio: 1.5\nenabled: true\noff: False\nnothing: ~\nempty:\nquoted: \"a: b\"\nsingle: 'it''s'\nhex: 0x1F\n---\nbody",
    lists: "---\ntags:\n  - a\n  - b\nflow: [x, 'y', 3]\nmap: {a: 1, b: two}\nitems:\n- name: n1\n  value: 1\n- name: n2\n---\n",
    nested: "---\nouter:\n  inner:\n    deep: yes\n  other: 2\nafter: 1\n---\nrest",
    blocks: "---\nliteral: |\n  line one\n  line two\nfolded: >\n  folded one\n  folded two\n\n  para\nstrip: |-\n  no newline\nafter: done\n---\n",
    comments: "---\n# a comment\nkey: value # trailing\nurl: http://x.y/#frag\n---\nbody",
    crlf: "---\r\nname: x\r\n---\r\nbody\r\n",
    bom: "\ufeff---\nname: bom\n---\nb",
    unclosed: "---\nname: x\nbody",
    emptyBlock: "---\n---\nbody",
    multiline: "---\ndescription: first line\n  continues here\nname: x\n---\n",
    escapes: "---\ntext: \"tab\\tnew\\nline \\u00e9\"\n---\n",
    skill: "---\nname: pdf-tools\ndescription: >-\n  Extract text and tables\n  from PDF files.\nallowed-tools: [read, bash]\nmetadata:\n  version: \"1.0\"\n  authors:\n    - Ann\n    - Bob\ndisable-model-invocation: true\n---\n# PDF\n\nUse it.\n",
    keep: "---\ntext: |+\n  kept\n\nnext: 1\n---\n",
    dashes: "---\nlist:\n- -1\n- - nested\n  - two\nneg: -5\ndate: 2024-01-02\nver: 1.2.3\ncolon: a:b\n---\n",
    quotedKey: "---\n\"my key\": 1\n'other': two\n---\n",

  };
  for (const [name, text] of Object.entries(frontmatters)) {
    add(`parseFrontmatter ${name}`, () => agent.parseFrontmatter(text));
    add(`stripFrontmatter ${name}`, () => agent.stripFrontmatter(text));
  }
  // The yaml package's messages (with a source excerpt) are its own; only the error kind is compared.
  add("parseFrontmatter invalid", () => {
    try {
      return agent.parseFrontmatter("---\nkey: [unclosed\n---\nbody");
    } catch (error) {
      return { thrown: error.name };
    }
  });
  const messages = [
    { role: "user", content: "Hello", timestamp: 1 },
    { role: "user", content: [{ type: "text", text: "a" }, { type: "image", data: "x", mimeType: "image/png" }, { type: "text", text: "b" }], timestamp: 2 },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "hmm" },
        { type: "text", text: "Let me look" },
        { type: "toolCall", id: "t1", name: "read", arguments: { path: "a.txt", offset: 2 } },
        { type: "toolCall", id: "t2", name: "ls", arguments: {} },
      ],
      timestamp: 3,
    },
    { role: "toolResult", toolCallId: "t1", toolName: "read", content: [{ type: "text", text: "r".repeat(2100) }], isError: false, timestamp: 4 },
    { role: "assistant", content: [{ type: "toolCall", id: "t3", name: "bash", arguments: { command: "ls -la" } }], timestamp: 5 },
    { role: "toolResult", toolCallId: "t3", toolName: "bash", content: [], isError: false, timestamp: 6 },
    { role: "bashExecution", command: "ls", output: "a\nb", exitCode: 0, cancelled: false, truncated: false, timestamp: 7 },
    { role: "bashExecution", command: "false", output: "", exitCode: 1, cancelled: false, truncated: true, fullOutputPath: "/tmp/out", timestamp: 8 },
    { role: "bashExecution", command: "sleep", output: "x", exitCode: null, cancelled: true, truncated: false, timestamp: 9 },
    { role: "bashExecution", command: "secret", output: "x", exitCode: 0, cancelled: false, truncated: false, excludeFromContext: true, timestamp: 10 },
    { role: "custom", customType: "note", content: "custom text", display: true, timestamp: 11 },
    { role: "custom", customType: "note", content: [{ type: "text", text: "blocks" }], display: false, timestamp: 12 },
    { role: "branchSummary", summary: "branch sum", fromId: "x", timestamp: 13 },
    { role: "compactionSummary", summary: "compact sum", tokensBefore: 100, timestamp: 14 },
    { role: "system", content: "sys", timestamp: 15 },
    { role: "mystery", timestamp: 16 },
  ];
  add("convertToLlm", () => agent.convertToLlm(messages));
  add("convertToLlm identity", () => {
    const converted = agent.convertToLlm(messages);
    return [converted[0] === messages[0], converted[2] === messages[2]];
  });
  add("serializeConversation", () => agent.serializeConversation(messages));
  add("serializeConversation converted", () => agent.serializeConversation(agent.convertToLlm(messages)));
  add("estimateTokens", () => messages.slice(0, 15).map((message) => agent.estimateTokens(message)));
  add("calculateContextTokens", () => [agent.calculateContextTokens({ totalTokens: 10, input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }), agent.calculateContextTokens({ totalTokens: 0, input: 1, output: 2, cacheRead: 3, cacheWrite: 4 })]);
  add("getLastAssistantUsage", () => {
    const usage = (n) => ({ input: n, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: n });
    return agent.getLastAssistantUsage([
      { type: "message", message: { role: "assistant", content: [], usage: usage(5), stopReason: "stop" } },
      { type: "message", message: { role: "assistant", content: [], usage: usage(7), stopReason: "error" } },
      { type: "message", message: { role: "assistant", content: [], usage: usage(0), stopReason: "stop" } },
      { type: "custom", message: { role: "assistant", usage: usage(9) } },
    ]);
  });
  add("shouldCompact", () => [
    agent.shouldCompact(900, 1000, { enabled: true, reserveTokens: 200 }),
    agent.shouldCompact(700, 1000, { enabled: true, reserveTokens: 200 }),
    agent.shouldCompact(900, 1000, { enabled: false, reserveTokens: 200 }),
  ]);
  const event = (toolName) => ({ type: "tool_result", toolName, toolCallId: "x", input: {}, content: [], isError: false });
  add("type guards", () =>
    ["bash", "powershell", "read", "edit", "write", "grep", "find", "ls", "other"].map((name) => [
      agent.isBashToolResult(event(name)),
      agent.isPowerShellToolResult(event(name)),
      agent.isReadToolResult(event(name)),
      agent.isEditToolResult(event(name)),
      agent.isWriteToolResult(event(name)),
      agent.isGrepToolResult(event(name)),
      agent.isFindToolResult(event(name)),
      agent.isLsToolResult(event(name)),
      agent.isToolCallEventType("bash", event(name)),
    ]),
  );
  add("defineTool", () => {
    const toolDef = { name: "t", parameters: T.Object({}) };
    return [agent.defineTool(toolDef) === toolDef];
  });
  add("withFileMutationQueue order", async () => {
    const log = [];
    const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    const path = "/nonexistent-pihost-dir/file.txt";
    const runs = [
      agent.withFileMutationQueue(path, async () => {
        log.push("a-start");
        await pause(20);
        log.push("a-end");
        return "a";
      }),
      agent.withFileMutationQueue(path, async () => {
        log.push("b-start");
        log.push("b-end");
        return "b";
      }),
      agent.withFileMutationQueue("/nonexistent-pihost-dir/other.txt", async () => {
        log.push("c");
        return "c";
      }),
    ];
    const results = await Promise.all(runs);
    return { results, log };
  });
  add("withFileMutationQueue error", async () => {
    const path = "/nonexistent-pihost-dir/err.txt";
    const failed = agent.withFileMutationQueue(path, async () => {
      throw new Error("boom");
    });
    const after = agent.withFileMutationQueue(path, async () => "after");
    return [await failed.catch((error) => error.message), await after];
  });
  return cases;
}
