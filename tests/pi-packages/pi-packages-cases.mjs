// The shared case table for the pi package goldens: TypeBox's builders and
// Value/Compile functions, pi-ai's tool argument validation, and
// pi-coding-agent's pure helpers. tests/reference/record-pi-packages.mjs runs
// it against the real packages; pi-packages-differential.mjs against pihost's
// js/pi. Each case returns plain data (or throws); `serialize` turns results
// into JSON that shows TypeBox's hidden `~` marks and thrown errors. Cases
// that read files (skills) build their tree in a fresh temp directory and
// show its path as <tmp>; random ids are renamed in order of appearance.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  addAgentSessionCases,
  addAgentSessionRuntimeCases,
  addModelRegistryCases,
  addModelResolverCases,
  addTrustAndCredentialCases,
} from "./agent-session-cases.mjs";
import { addBuiltinExtensionCases } from "./builtin-extension-cases.mjs";
import { addCodemodeCases } from "./codemode-cases.mjs";
import { addCodingAgentHelperCases } from "./coding-agent-helper-cases.mjs";
import { addCompactionSummaryCases } from "./compaction-summary-cases.mjs";
import { addExportCoverageCases } from "./export-coverage-cases.mjs";
import { addMcpExtensionCases } from "./mcp-extension-cases.mjs";
import { addPowerShellCases } from "./powershell-cases.mjs";
import { addModelRuntimeCases } from "./model-runtime-cases.mjs";
import { addPackageManagerCases } from "./package-manager-cases.mjs";
import { addResourceLoaderCases } from "./resource-loader-cases.mjs";
import { addSessionManagerCases } from "./session-manager-cases.mjs";
import { addSettingsManagerCases } from "./settings-manager-cases.mjs";
import { addTypeboxCodecCases } from "./typebox-codec-cases.mjs";
import { addTypeboxEvaluateCases } from "./typebox-evaluate-cases.mjs";
import { addTypeboxScriptCases } from "./typebox-script-cases.mjs";
import { addTypeboxTypeCases } from "./typebox-type-cases.mjs";
import { addTypeboxValueDeltaCases } from "./typebox-value-delta-cases.mjs";

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
export function buildCases({ typebox, value, compile, ai, agent, importCode }) {
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
  addTypeboxTypeCases(add, { typebox, value });
  addTypeboxCodecCases(add, { typebox, value, compile });
  addTypeboxValueDeltaCases(add, { value });
  addTypeboxEvaluateCases(add, { typebox, value, compile });
  addTypeboxScriptCases(add, { typebox, value });

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
    refined: [() => T.Refine(T.Object({ low: T.Number(), high: T.Number() }), (range) => range.low <= range.high, "low above high"), [{ low: 1, high: 2 }, { low: 3, high: 2 }, { low: "1", high: 2 }]],
    refinedNumber: [() => T.Refine(T.Number(), (count) => count > 1), [2, 1, "2"]],
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
      // Code's module text differs from TypeBox's (pihost generates no check functions); what it checks may not.
      add(`Code ${name} #${index}`, async () => {
        const { External, Code } = name === "refContext" ? compile.Code(context, schema()) : compile.Code(schema());
        const module = await importCode(Code);
        if (External.variables.length > 0) module.SetExternal(External);
        return [module.Check(item), External.identifier, Object.keys(module).sort()];
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
    // Values the schema already takes, where coercion could still change
    // them (pihost checks such values first where it cannot).
    [{ name: "untyped-items", parameters: { type: "object", properties: { l: { items: { type: "string" } } } } }, { l: "x" }],
    [{ name: "untyped-items", parameters: { type: "object", properties: { l: { items: { type: "string" } } } } }, { l: ["x"] }],
    [{ name: "union-valid", parameters: T.Object({ v: T.Union([T.Number(), T.String()]) }) }, { v: "42" }],
    [{ name: "union-valid", parameters: T.Object({ v: T.Union([T.Boolean(), T.String()]) }) }, { v: "true" }],
    [{ name: "object-enum", parameters: { type: "object", properties: { e: { enum: [{ a: 1 }, "b"] } } } }, { e: { a: 1 } }],
    [{ name: "object-const", parameters: { type: "object", properties: { k: { const: { a: [1] } } } } }, { k: { a: [1] } }],
    [{ name: "type-list", parameters: { type: "object", properties: { a: { type: ["string", "number"] } } } }, { a: "1" }],
    [{ name: "intersect", parameters: T.Intersect([T.Object({ a: T.String() }), T.Object({ b: T.Number() })]) }, { a: "1", b: 2 }],
    [{ name: "ref-valid", parameters: { type: "object", properties: { x: { $ref: "#/$defs/X" } }, $defs: { X: { type: "string" } } } }, { x: "4" }],
    [{ name: "optional-null", parameters: T.Object({ a: T.Optional(T.Union([T.String(), T.Null()])), b: T.Optional(T.String()) }) }, { a: null }],
    [{ name: "defaults", parameters: { type: "object", properties: { a: { type: "string", default: "x" }, n: { type: "integer", default: 1 } } } }, {}],
    [{ name: "additional", parameters: { type: "object", additionalProperties: { type: "number" }, patternProperties: { "^s": { type: "string" } } } }, { x: 1, s1: "a" }],
    [{ name: "prefix", parameters: { type: "object", properties: { t: { type: "array", prefixItems: [{ type: "number" }], items: { type: "string" } } } } }, { t: [1, "a"] }],
    // The keywords pihost compiles (src: js/runtime/compiled-check.js), each passing and failing.
    ...((bounds) => [
      [bounds, { n: 1, s: "ab", l: ["x"], e: "b", d: "2024-01-31", p: "abc" }],
      [bounds, { n: 0, s: "abcdef", l: [], e: "z", d: "2024-02-30", p: "ABC" }],
      [bounds, { n: 10, s: "a", l: ["x", "y", "z", "w"], e: 2, p: "" }],
      [bounds, { n: Infinity, s: "🎉🎉", l: ["x", 1] }],
      [bounds, { n: undefined, s: undefined, l: undefined }],
    ])({
      name: "bounds",
      parameters: {
        type: "object",
        required: ["n"],
        additionalProperties: false,
        properties: {
          n: { type: "number", exclusiveMinimum: 0, maximum: 10 },
          s: { type: "string", minLength: 2, maxLength: 3 },
          l: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 3 },
          e: { enum: ["a", "b", 2] },
          d: { type: "string", format: "date" },
          p: { type: "string", pattern: "^[a-z]+$" },
        },
      },
    }),
    ...((open) => [
      [open, { a: 1, extra: "x", more: 2 }],
      [open, { a: 1, extra: 3 }],
      [open, { a: undefined }],
      [open, {}],
      [open, { a: 1, nested: { k: [1, 2] } }],
      [open, { a: 1, nested: { k: [1, "2"] } }],
    ])({
      name: "open",
      parameters: {
        type: "object",
        required: ["a"],
        properties: { a: { type: "integer", minimum: 1 }, nested: { type: "object", properties: { k: { type: "array", items: { type: "integer" } } }, required: ["k"] } },
        additionalProperties: { type: ["string", "object"] },
      },
    }),
    [{ name: "valid-all", parameters: T.Object({ n: T.Integer(), f: T.Number(), s: T.String(), b: T.Boolean(), l: T.Array(T.String()), o: T.Object({ z: T.Null() }) }) }, { n: 3, f: -0, s: "s", b: false, l: ["a"], o: { z: null } }],
  ];
  toolCalls.forEach(([toolDef, args], index) => {
    add(`validateToolArguments ${toolDef.name} #${index}`, () => {
      const call = { type: "toolCall", id: "c1", name: toolDef.name, arguments: args };
      const result = ai.validateToolArguments(toolDef, call);
      return { result, unchanged: JSON.stringify(call.arguments) === JSON.stringify(args), copied: result !== call.arguments };
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
  add("parseFrontmatter colons in plain values", () =>
    ["k: a: b", "k: a:b", "k: a :b", "k: 'a: b'", "k: a\n  b: c", "k: a:", "- a: b: c", "k: [a: b]", "k: a #x: y", "k: http://x", "k: a\tb: c", "k: >\n  a: b", "description: Use it: now"].map((yaml) => {
      try {
        return agent.parseFrontmatter(`---\n${yaml}\n---\nbody`).frontmatter;
      } catch (error) {
        return { thrown: error.name };
      }
    }),
  );
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
        // Long enough for the other two calls to register (each resolves
        // its path first, a file-system call) on a loaded machine.
        await pause(250);
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
  // --- Session files ----------------------------------------------------------------
  const at = (second) => `2025-01-02T03:04:${String(second).padStart(2, "0")}.000Z`;
  const ms = (second) => Date.parse(at(second));
  const usage = (tokens) => ({ input: tokens, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: tokens + 10, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } });
  const userEntry = (id, parentId, second, content) => ({ type: "message", id, parentId, timestamp: at(second), message: { role: "user", content, timestamp: ms(second) } });
  const assistantEntry = (id, parentId, second, content, extra = {}) => ({
    type: "message",
    id,
    parentId,
    timestamp: at(second),
    message: { role: "assistant", content, api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5", usage: usage(100 * second), stopReason: "stop", timestamp: ms(second), ...extra },
  });
  const toolResultEntry = (id, parentId, second, toolCallId, toolName, text) => ({
    type: "message",
    id,
    parentId,
    timestamp: at(second),
    message: { role: "toolResult", toolCallId, toolName, content: [{ type: "text", text }], isError: false, timestamp: ms(second) },
  });
  const call = (id, name, args) => ({ type: "toolCall", id, name, arguments: args });
  // A v3 session with a compaction, a branch that came back with a summary, and bookkeeping entries.
  const treeEntries = [
    { type: "session", version: 3, id: "0193a1b2-0000-7000-8000-000000000001", timestamp: at(0), cwd: "/work/project" },
    userEntry("u1", null, 1, "Read src/app.ts and fix the bug"),
    assistantEntry("a1", "u1", 2, [{ type: "thinking", thinking: "Let me look." }, { type: "text", text: "Reading it." }, call("c1", "read", { path: "src/app.ts" })], { stopReason: "toolUse" }),
    toolResultEntry("t1", "a1", 3, "c1", "read", "export const x = 1;\n".repeat(40)),
    { type: "thinking_level_change", id: "k1", parentId: "t1", timestamp: at(4), thinkingLevel: "high" },
    assistantEntry("a2", "k1", 5, [call("c2", "edit", { path: "src/app.ts", edits: [{ oldText: "1", newText: "2" }] })], { stopReason: "toolUse" }),
    toolResultEntry("t2", "a2", 6, "c2", "edit", "Successfully replaced 1 block(s) in src/app.ts."),
    { type: "model_change", id: "m1", parentId: "t2", timestamp: at(7), provider: "openai", modelId: "gpt-5" },
    { type: "custom", id: "x1", parentId: "m1", timestamp: at(8), customType: "todo-state", data: { open: 2 } },
    { type: "label", id: "l1", parentId: "x1", timestamp: at(9), targetId: "a1", label: "before edit" },
    { type: "custom_message", id: "cm1", parentId: "l1", timestamp: at(10), customType: "reminder", content: "Run the tests", display: true, details: { source: "ext" } },
    userEntry("u2", "cm1", 11, [{ type: "text", text: "Now add tests" }, { type: "image", data: "aGVsbG8=", mimeType: "image/png" }]),
    assistantEntry("a3", "u2", 12, [{ type: "text", text: "Adding tests." }, call("c3", "write", { path: "test/app.test.ts", content: "test('x', () => {});\n" })], { stopReason: "toolUse" }),
    toolResultEntry("t3", "a3", 13, "c3", "write", "Wrote 21 bytes"),
    { type: "compaction", id: "cp1", parentId: "t3", timestamp: at(14), summary: "## Goal\nFix the bug and add tests.", firstKeptEntryId: "a2", tokensBefore: 4321, details: { readFiles: ["src/app.ts"], modifiedFiles: ["src/app.ts", "test/app.test.ts"] } },
    userEntry("u3", "cp1", 15, "Are the tests passing?"),
    assistantEntry("a4", "u3", 16, [call("c4", "bash", { command: "npm test" })], { stopReason: "toolUse" }),
    toolResultEntry("t4", "a4", 17, "c4", "bash", "1 passing"),
    assistantEntry("a5", "t4", 18, [{ type: "text", text: "All tests pass." }], { provider: "openai", model: "gpt-5" }),
    // A branch from t1: the user went back and tried another way.
    { type: "branch_summary", id: "bs1", parentId: "t1", timestamp: at(19), fromId: "a5", summary: "Tried editing src/app.ts and adding tests.", details: { readFiles: ["src/app.ts", "README.md"], modifiedFiles: ["test/app.test.ts"] } },
    userEntry("u4", "bs1", 20, "Instead, explain the code"),
    assistantEntry("a6", "u4", 21, [{ type: "text", text: "It exports x." }]),
    { type: "session_info", id: "si1", parentId: "a6", timestamp: at(22), name: "Explaining" },
    { type: "context_edit", id: "ce1", parentId: "si1", timestamp: at(23), targetId: "a6", replacement: { content: "It exports a constant." } },
    { type: "context_edit", id: "ce2", parentId: "ce1", timestamp: at(24), targetId: "u4", replacement: null },
    userEntry("u5", "ce2", 25, "Thanks"),
  ];
  const jsonl = (entries) => entries.map((entry) => JSON.stringify(entry)).join("\n");
  const sessionTexts = {
    tree: `${jsonl(treeEntries)}\n`,
    messy: `\n\n${jsonl(treeEntries.slice(0, 3))}\n   \n{"type":"message","id":"broken"\n\r\n${JSON.stringify(treeEntries[3])}\r\nnot json at all\n42\nnull\n"text"\n[1,2]\n  ${JSON.stringify(treeEntries[4])}  \n\n`,
    empty: "",
    blank: "\n \n\t\n",
    headerOnly: JSON.stringify(treeEntries[0]),
    v1: [
      { type: "session", id: "s-v1", timestamp: at(0), cwd: "/old" },
      { type: "message", timestamp: at(1), message: { role: "user", content: "hi", timestamp: ms(1) } },
      { type: "message", timestamp: at(2), message: { role: "assistant", content: [{ type: "text", text: "hello" }], provider: "anthropic", model: "claude-3-5-sonnet", usage: usage(50), stopReason: "stop", timestamp: ms(2) } },
      { type: "message", timestamp: at(3), message: { role: "hookMessage", customType: "old-hook", content: "from a hook", display: true, timestamp: ms(3) } },
      { type: "thinking_level_change", timestamp: at(4), thinkingLevel: "low" },
      { type: "compaction", timestamp: at(5), summary: "v1 summary", firstKeptEntryIndex: 2, tokensBefore: 999 },
      { type: "message", timestamp: at(6), message: { role: "user", content: "after compaction", timestamp: ms(6) } },
      { type: "compaction", timestamp: at(7), summary: "points at the header", firstKeptEntryIndex: 0, tokensBefore: 5 },
      { type: "compaction", timestamp: at(8), summary: "points ahead", firstKeptEntryIndex: 9, tokensBefore: 5 },
      { type: "message", timestamp: at(9), message: { role: "user", content: "last", timestamp: ms(9) } },
      { type: "compaction", timestamp: at(10), summary: "out of range", firstKeptEntryIndex: 99, tokensBefore: 5 },
      { type: "compaction", timestamp: at(11), summary: "index as text", firstKeptEntryIndex: "2", tokensBefore: 5 },
    ]
      .map((entry) => JSON.stringify(entry))
      .join("\n"),
    v1NoHeader: jsonl([
      { type: "message", timestamp: at(1), message: { role: "user", content: "no header", timestamp: ms(1) } },
      { type: "message", timestamp: at(2), message: { role: "hookMessage", customType: "h", content: "x", display: false, timestamp: ms(2) } },
    ]),
    v2: jsonl([
      { type: "session", version: 2, id: "s-v2", timestamp: at(0), cwd: "/v2" },
      userEntry("e1", null, 1, "v2 user"),
      { type: "message", id: "e2", parentId: "e1", timestamp: at(2), message: { role: "hookMessage", customType: "hook", content: [{ type: "text", text: "hooked" }], display: true, timestamp: ms(2) } },
      { type: "message", id: "e3", parentId: "e2", timestamp: at(3) },
      { type: "custom_message", id: "e4", parentId: "e3", timestamp: at(4), customType: "hookMessage", content: "not a role" },
    ]),
    v2Text: jsonl([{ type: "session", version: "2", id: "s", timestamp: at(0), cwd: "/" }, { type: "message", id: "e1", parentId: null, timestamp: at(1), message: { role: "hookMessage", content: "x", timestamp: 1 } }]),
    future: jsonl([{ type: "session", version: 4, id: "s", timestamp: at(0), cwd: "/" }, { type: "message", id: "e1", parentId: null, timestamp: at(1), message: { role: "hookMessage", content: "x", timestamp: 1 } }]),
  };
  // Migration hands out random 8-hex-digit ids: shown as #1, #2, … in order of first appearance.
  const stableIds = (entries) => {
    const names = new Map();
    const name = (id) => {
      if (typeof id !== "string" || !/^[0-9a-f]{8}$/.test(id) || treeEntries.some((entry) => entry.id === id)) return id;
      if (!names.has(id)) names.set(id, `#${names.size + 1}`);
      return names.get(id);
    };
    return entries.map((entry) => {
      if (!entry || typeof entry !== "object") return entry;
      const copy = { ...entry };
      for (const key of ["id", "parentId", "firstKeptEntryId"]) if (key in copy) copy[key] = name(copy[key]);
      return copy;
    });
  };
  for (const [name, text] of Object.entries(sessionTexts)) {
    add(`parseSessionEntries ${name}`, () => agent.parseSessionEntries(text));
    add(`migrateSessionEntries ${name}`, () => {
      const entries = agent.parseSessionEntries(text).filter((entry) => entry && typeof entry === "object" && !Array.isArray(entry));
      const returned = agent.migrateSessionEntries(entries);
      return { returned, entries: stableIds(entries) };
    });
  }
  add("migrateSessionEntries ids", () => {
    const entries = agent.parseSessionEntries(sessionTexts.v1);
    agent.migrateSessionEntries(entries);
    const ids = entries.slice(1).map((entry) => entry.id);
    return { shape: ids.every((id) => /^[0-9a-f]{8}$/.test(id)), distinct: new Set(ids).size === ids.length, chained: entries.slice(2).every((entry, i) => entry.parentId === ids[i]) };
  });
  add("migrateSessionEntries twice", () => {
    const entries = agent.parseSessionEntries(sessionTexts.v1);
    agent.migrateSessionEntries(entries);
    const before = JSON.stringify(entries);
    agent.migrateSessionEntries(entries);
    return JSON.stringify(entries) === before;
  });
  add("migrateSessionEntries non-object", () => agent.migrateSessionEntries([null, { type: "session", version: 1 }]));
  add("migrateSessionEntries empty list", () => {
    const entries = [];
    agent.migrateSessionEntries(entries);
    return entries;
  });

  const tree = () => agent.parseSessionEntries(sessionTexts.tree).filter((entry) => entry.type !== "session");
  add("getLatestCompactionEntry", () => [
    agent.getLatestCompactionEntry(tree())?.id,
    agent.getLatestCompactionEntry([]),
    agent.getLatestCompactionEntry(tree().slice(0, 5)),
    agent.getLatestCompactionEntry([{ type: "compaction", id: "first" }, { type: "message" }, { type: "compaction", id: "second" }, { type: "label" }]),
  ]);
  add("sessionEntryToContextMessages", () =>
    [
      ...tree(),
      { type: "message", id: "n1", message: { role: "user" } },
      { type: "message", id: "n2", message: { role: "assistant", content: null, provider: "p", model: "m" } },
      { type: "message", id: "n3", message: { role: "toolResult", toolCallId: "x" } },
      { type: "message", id: "n4", message: { role: "system" } },
      { type: "message", id: "n5", message: { role: "custom", customType: "c" } },
      { type: "message", id: "n6", message: { role: "bashExecution", command: "ls", output: "" } },
      { type: "custom_message", id: "n7", customType: "no-content", display: false },
      { type: "custom_message", id: "n8", customType: "epoch", content: [{ type: "text", text: "t" }], timestamp: 1700000000000 },
      { type: "branch_summary", id: "n9", fromId: "z", summary: "", timestamp: at(1) },
      { type: "branch_summary", id: "n10", fromId: "z", timestamp: at(1) },
      { type: "compaction", id: "n11", summary: "with system", tokensBefore: 1, timestamp: at(2), systemMessage: { role: "system", content: "You are pi.", timestamp: 0 } },
      { type: "compaction", id: "n12", summary: "bad time", tokensBefore: 1, timestamp: "yesterday" },
      { type: "usage", id: "n13", usage: usage(1) },
      { type: "mystery", id: "n14" },
    ].map((entry) => [entry.id, agent.sessionEntryToContextMessages(entry)]),
  );
  add("sessionEntryToContextMessages identity", () => {
    const entry = tree()[0];
    return [agent.sessionEntryToContextMessages(entry)[0] === entry.message];
  });
  add("sessionEntryToContextMessages no message", () => agent.sessionEntryToContextMessages({ type: "message", id: "x" }));

  const ids = (entries) => entries.map((entry) => entry.id);
  const leaves = [undefined, null, "", "u5", "a5", "t4", "u3", "cp1", "t3", "a2", "u1", "bs1", "ce1", "missing"];
  for (const leaf of leaves) {
    const label = leaf === undefined ? "default" : leaf === null ? "null" : leaf === "" ? "empty" : leaf;
    add(`buildContextEntries ${label}`, () => ids(agent.buildContextEntries(tree(), leaf)));
    add(`buildSessionContext ${label}`, () => agent.buildSessionContext(tree(), leaf));
    add(`buildSessionProjection ${label}`, () => {
      const projection = agent.buildSessionProjection(tree(), leaf);
      return { ...projection, entries: projection.entries.map((entry) => ({ source: entry.sourceEntry.id, messages: entry.messages })) };
    });
  }
  add("buildSessionContext byId", () => {
    const entries = tree();
    const byId = new Map(entries.map((entry) => [entry.id, entry]));
    // The index wins over the list: an entry only in the index is still reachable as a parent.
    byId.set("u1", { type: "message", id: "u1", parentId: null, message: { role: "user", content: "from the index", timestamp: 0 } });
    return agent.buildSessionContext(entries, "a2", byId);
  });
  add("buildSessionContext no entries", () => [agent.buildSessionContext([]), agent.buildSessionContext([], "x"), agent.buildSessionContext([], null)]);
  add("buildSessionContext migrated v1", () => {
    const entries = agent.parseSessionEntries(sessionTexts.v1);
    agent.migrateSessionEntries(entries);
    return agent.buildSessionContext(entries.slice(1));
  });
  add("buildSessionContext migrated v1 head", () => {
    const entries = agent.parseSessionEntries(sessionTexts.v1).slice(0, 7);
    agent.migrateSessionEntries(entries);
    return agent.buildSessionContext(entries);
  });
  add("buildContextEntries nested compactions", () => {
    const entries = [
      userEntry("p1", null, 1, "one"),
      { type: "message", id: "p2", parentId: "p1", timestamp: at(2), message: { role: "system", content: "sys", timestamp: ms(2) } },
      assistantEntry("p3", "p2", 3, [{ type: "text", text: "two" }]),
      { type: "compaction", id: "k1", parentId: "p3", timestamp: at(4), summary: "first", firstKeptEntryId: "p1", tokensBefore: 10 },
      userEntry("p4", "k1", 5, "three"),
      { type: "message", id: "p5", parentId: "p4", timestamp: at(6), message: { role: "system", content: "sys 2", timestamp: ms(6) } },
      { type: "compaction", id: "k2", parentId: "p5", timestamp: at(7), summary: "second", firstKeptEntryId: "p2", tokensBefore: 20, systemMessage: { role: "system", content: "sys 2", timestamp: ms(6) } },
      { type: "message", id: "p6", parentId: "k2", timestamp: at(8), message: { role: "system", content: "sys 3", timestamp: ms(8) } },
      userEntry("p7", "p6", 9, "four"),
      { type: "compaction", id: "k3", parentId: "p7", timestamp: at(10), summary: "unknown start", firstKeptEntryId: "nowhere", tokensBefore: 30 },
    ];
    const projection = (leaf) => agent.buildSessionProjection(entries, leaf);
    return {
      k2: ids(agent.buildContextEntries(entries, "p7")),
      k2Messages: projection("p7").messages,
      k2PerEntry: projection("p7").entries.map((entry) => entry.messages.length),
      k3: ids(agent.buildContextEntries(entries, "k3")),
      k3Messages: projection("k3").messages,
    };
  });
  add("buildSessionProjection context edits", () => {
    const entries = [
      userEntry("q1", null, 1, "original question"),
      assistantEntry("q2", "q1", 2, [{ type: "text", text: "original answer" }]),
      toolResultEntry("q3", "q2", 3, "c", "read", "result"),
      { type: "custom_message", id: "q4", parentId: "q3", timestamp: at(4), customType: "n", content: "custom", display: true },
      { type: "branch_summary", id: "q5", parentId: "q4", timestamp: at(5), fromId: "z", summary: "a branch" },
      { type: "context_edit", id: "e1", parentId: "q5", timestamp: at(6), targetId: "q1", replacement: { content: "edited question" } },
      { type: "context_edit", id: "e2", parentId: "e1", timestamp: at(7), targetId: "q2", replacement: { content: "edited answer" } },
      { type: "context_edit", id: "e3", parentId: "e2", timestamp: at(8), targetId: "q3", replacement: { content: [{ type: "text", text: "edited result" }] } },
      { type: "context_edit", id: "e4", parentId: "e3", timestamp: at(9), targetId: "q4", replacement: { content: "edited custom" } },
      { type: "context_edit", id: "e5", parentId: "e4", timestamp: at(10), targetId: "q5", replacement: { content: "not applied to summaries" } },
      { type: "context_edit", id: "e6", parentId: "e5", timestamp: at(11), targetId: "q2", replacement: { content: "second edit wins" } },
      { type: "context_edit", id: "e7", parentId: "e6", timestamp: at(12), targetId: "e1", replacement: null },
    ];
    const projection = agent.buildSessionProjection(entries);
    return { messages: projection.messages, untouched: projection.messages[0] === entries[0].message };
  });
  add("buildSessionProjection edit without replacement", () => {
    const entries = [userEntry("r1", null, 1, "q"), { type: "context_edit", id: "r2", parentId: "r1", timestamp: at(2), targetId: "r1" }];
    return agent.buildSessionProjection(entries).messages;
  });

  // --- Compaction cut points -------------------------------------------------------
  add("DEFAULT_COMPACTION_SETTINGS", () => agent.DEFAULT_COMPACTION_SETTINGS);
  const branch = () => {
    const entries = tree();
    const byId = new Map(entries.map((entry) => [entry.id, entry]));
    const path = [];
    for (let entry = byId.get("a5"); entry; entry = byId.get(entry.parentId)) path.unshift(entry);
    return path;
  };
  for (const [name, entries] of Object.entries({ tree: tree(), branch: branch() })) {
    add(`findTurnStartIndex ${name}`, () => entries.map((_, index) => [agent.findTurnStartIndex(entries, index, 0), agent.findTurnStartIndex(entries, index, 3)]));
    for (const keep of [0, 1, 5, 10, 20, 50, 100, 200, 400, 1000, 100000]) {
      add(`findCutPoint ${name} keep ${keep}`, () => agent.findCutPoint(entries, 0, entries.length, keep));
    }
    add(`findCutPoint ${name} windows`, () => [
      agent.findCutPoint(entries, 3, entries.length, 20),
      agent.findCutPoint(entries, 2, 4, 1),
      agent.findCutPoint(entries, 3, 4, 1),
      agent.findCutPoint(entries, 5, 5, 1),
      agent.findCutPoint(entries, 7, 11, 1),
      agent.findCutPoint(entries, 7, 11, 30),
    ]);
  }
  add("findCutPoint metadata before cut", () => {
    const entries = [
      userEntry("f1", null, 1, "x".repeat(400)),
      assistantEntry("f2", "f1", 2, [{ type: "text", text: "y".repeat(400) }]),
      { type: "thinking_level_change", id: "f3", parentId: "f2", timestamp: at(3), thinkingLevel: "low" },
      { type: "model_change", id: "f4", parentId: "f3", timestamp: at(4), provider: "p", modelId: "m" },
      { type: "label", id: "f5", parentId: "f4", timestamp: at(5), targetId: "f1", label: "l" },
      userEntry("f6", "f5", 6, "z".repeat(400)),
      assistantEntry("f7", "f6", 7, [call("c", "bash", { command: "x" })], { stopReason: "toolUse" }),
      toolResultEntry("f8", "f7", 8, "c", "bash", "w".repeat(2000)),
      { type: "compaction", id: "f9", parentId: "f8", timestamp: at(9), summary: "s".repeat(800), firstKeptEntryId: "f6", tokensBefore: 1 },
      { type: "session_info", id: "f10", parentId: "f9", timestamp: at(10), name: "n" },
      { type: "custom", id: "f11", parentId: "f10", timestamp: at(11), customType: "c", data: 1 },
      { type: "custom_message", id: "f12", parentId: "f11", timestamp: at(12), customType: "cm", content: "v".repeat(40), display: true },
      { type: "branch_summary", id: "f13", parentId: "f12", timestamp: at(13), fromId: "x", summary: "b".repeat(40) },
      { type: "message", id: "f14", parentId: "f13", timestamp: at(14), message: { role: "bashExecution", command: "ls", output: "o".repeat(40), exitCode: 0, cancelled: false, truncated: false, timestamp: ms(14) } },
    ];
    return [1, 20, 60, 400, 500, 600, 1000].map((keep) => [agent.findCutPoint(entries, 0, entries.length, keep), agent.findCutPoint(entries, 9, entries.length, keep), agent.findCutPoint(entries, 0, 9, keep)]);
  });
  add("findCutPoint only tool results", () => {
    const entries = [toolResultEntry("g1", null, 1, "c", "read", "r".repeat(100)), { type: "label", id: "g2", parentId: "g1", timestamp: at(2), targetId: "g1", label: "x" }];
    return [agent.findCutPoint(entries, 0, 2, 1), agent.findCutPoint(entries, 1, 2, 1), agent.findCutPoint([], 0, 0, 1)];
  });
  // --- Branch summaries ------------------------------------------------------------
  // The part of SessionManager that collectEntriesForBranchSummary reads.
  const sessionOver = (entries) => {
    const byId = new Map(entries.map((entry) => [entry.id, entry]));
    return {
      getEntry: (id) => byId.get(id),
      getBranch: (id) => {
        const path = [];
        for (let entry = byId.get(id); entry; entry = byId.get(entry.parentId)) path.unshift(entry);
        return path;
      },
    };
  };
  const fileOpsData = (fileOps) => Object.fromEntries(Object.entries(fileOps).map(([kind, paths]) => [kind, [...paths]]));
  const branchMoves = [
    ["a5", "u5"],
    ["u5", "a5"],
    ["a5", "t1"],
    ["a5", "a5"],
    ["t4", "a5"],
    ["a5", "u1"],
    [null, "u5"],
    [undefined, "u5"],
    ["", "u5"],
    ["a5", "missing"],
    ["missing", "u5"],
  ];
  for (const [from, to] of branchMoves) {
    add(`collectEntriesForBranchSummary ${from} to ${to}`, () => {
      const { entries, commonAncestorId } = agent.collectEntriesForBranchSummary(sessionOver(tree()), from, to);
      return { entries: ids(entries), commonAncestorId };
    });
  }
  add("collectEntriesForBranchSummary separate roots", () => {
    const entries = [userEntry("r1", null, 1, "one"), userEntry("r2", "r1", 2, "two"), userEntry("s1", null, 3, "other root"), userEntry("s2", "s1", 4, "more")];
    const { entries: collected, commonAncestorId } = agent.collectEntriesForBranchSummary(sessionOver(entries), "r2", "s2");
    return { entries: ids(collected), commonAncestorId };
  });
  add("collectEntriesForBranchSummary identity", () => {
    const entries = tree();
    const { entries: collected } = agent.collectEntriesForBranchSummary(sessionOver(entries), "a5", "u5");
    return collected.every((entry) => entries.includes(entry));
  });
  const prepared = (entries, budget) => {
    const result = budget === undefined ? agent.prepareBranchEntries(entries) : agent.prepareBranchEntries(entries, budget);
    return { ...result, fileOps: fileOpsData(result.fileOps) };
  };
  const abandoned = () => agent.collectEntriesForBranchSummary(sessionOver(tree()), "a5", "u5").entries;
  for (const budget of [undefined, 0, 1, 10, 20, 40, 60, 100, 1000]) {
    add(`prepareBranchEntries abandoned budget ${budget}`, () => prepared(abandoned(), budget));
  }
  add("prepareBranchEntries whole tree", () => prepared(tree()));
  add("prepareBranchEntries whole tree budget", () => prepared(tree(), 50));
  add("prepareBranchEntries summaries and edits", () => {
    const entries = [
      { type: "branch_summary", id: "b1", parentId: null, timestamp: at(1), fromId: "x", summary: "s".repeat(200), details: { readFiles: ["r1.ts", "shared.ts"], modifiedFiles: ["m1.ts"] } },
      { type: "branch_summary", id: "b2", parentId: "b1", timestamp: at(2), fromId: "x", summary: "by an extension", fromHook: true, details: { readFiles: ["hook.ts"], modifiedFiles: ["hook-mod.ts"] } },
      { type: "branch_summary", id: "b3", parentId: "b2", timestamp: at(3), fromId: "x", summary: "odd details", details: { readFiles: "not-a-list", modifiedFiles: null } },
      { type: "branch_summary", id: "b4", parentId: "b3", timestamp: at(4), fromId: "x", summary: "" },
      { type: "compaction", id: "k1", parentId: "b4", timestamp: at(5), summary: "c".repeat(120), firstKeptEntryId: "b1", tokensBefore: 9, systemMessage: { role: "system", content: "sys", timestamp: 0 } },
      { type: "custom_message", id: "cm1", parentId: "k1", timestamp: at(6), customType: "n", content: "custom text", display: true, details: { d: 1 } },
      userEntry("u1", "cm1", 8, "question"),
      assistantEntry("a1", "u1", 9, [
        call("c1", "read", { path: "shared.ts" }),
        call("c2", "write", { path: "new.ts", content: "x" }),
        call("c3", "edit", { path: "m1.ts", edits: [] }),
        call("c4", "read", { path: "" }),
        call("c5", "read", { path: 7 }),
        call("c6", "grep", { path: "src", pattern: "x" }),
        { type: "toolCall", id: "c7", name: "read", arguments: null },
        { type: "text", text: "done" },
      ], { stopReason: "toolUse" }),
      { type: "message", id: "t1", parentId: "a1", timestamp: at(10), message: { role: "toolResult", toolCallId: "c1", toolName: "code", content: [{ type: "text", text: "r" }], isError: false, nestedCalls: { calls: [{ name: "write", arguments: { path: "nested.ts" } }] }, timestamp: ms(10) } },
      { type: "thinking_level_change", id: "k2", parentId: "t1", timestamp: at(11), thinkingLevel: "low" },
      { type: "label", id: "l1", parentId: "k2", timestamp: at(12), targetId: "u1", label: "x" },
      { type: "context_edit", id: "e1", parentId: "l1", timestamp: at(13), targetId: "u1", replacement: { content: "edited question" } },
      { type: "context_edit", id: "e2", parentId: "e1", timestamp: at(14), targetId: "cm1", replacement: null },
      { type: "context_edit", id: "e3", parentId: "e2", timestamp: at(15), targetId: "bx", replacement: { content: "bash runs are not editable" } },
      { type: "message", id: "bx", parentId: "e3", timestamp: at(16), message: { role: "bashExecution", command: "ls", output: "a b", exitCode: 0, cancelled: false, truncated: false, timestamp: ms(16) } },
    ];
    return [undefined, 5, 40, 45, 60, 85, 100].map((budget) => prepared(entries, budget));
  });
  add("prepareBranchEntries empty", () => prepared([]));
  // Unlike the session context, a branch summary does not default missing custom content.
  add("prepareBranchEntries custom without content", () => prepared([{ type: "custom_message", id: "cm", parentId: null, timestamp: at(1), customType: "n", display: false }]));
  // --- Skills ------------------------------------------------------------------------
  add("parseSkillBlock", () =>
    [
      '<skill name="pdf-tools" location="/skills/pdf-tools/SKILL.md">\n# PDF\nUse it.\n</skill>',
      '<skill name="pdf-tools" location="/skills/pdf-tools/SKILL.md">\n# PDF\n</skill>\n\n  Extract page 2  \n',
      '<skill name="a" location="b">\n\n</skill>\n\n   ',
      '<skill name="a" location="b">\nfirst\n</skill>\nsecond\n</skill>',
      '<skill name="a" location="b">\nx\n</skill>\n\nmore\n</skill>',
      '<skill name="" location="b">\nx\n</skill>',
      '<skill name="a" location="b">x</skill>',
      'text before <skill name="a" location="b">\nx\n</skill>',
      '<skill name="a" location="b">\r\nx\r\n</skill>',
      "",
    ].map((text) => agent.parseSkillBlock(text)),
  );
  const promptSkills = [
    { name: "pdf-tools", description: "Reads <PDF> & \"scans\" 'quickly'", filePath: "/home/u/.pi/agent/skills/pdf-tools/SKILL.md", disableModelInvocation: false },
    { name: "manual", description: "Only on request", filePath: "/p/.pi/skills/manual/SKILL.md", disableModelInvocation: true },
    { name: "web", description: "Searches the web", filePath: "/p/skills/web/SKILL.md" },
  ];
  for (const tool of [undefined, "read", "bash", "indirect", ""]) {
    add(`formatSkillsForPrompt ${tool}`, () => (tool === undefined ? agent.formatSkillsForPrompt(promptSkills) : agent.formatSkillsForPrompt(promptSkills, tool)));
  }
  add("formatSkillsForPrompt none visible", () => [agent.formatSkillsForPrompt([]), agent.formatSkillsForPrompt([promptSkills[1]], "bash")]);

  // Skill trees are built in a fresh temp directory per case; its path is shown as <tmp>.
  const skill = (frontmatter, body = "# Skill\n\nSteps.\n") => `---\n${frontmatter}\n---\n${body}`;
  const skillTree = {
    "agent/skills/pdf-tools/SKILL.md": skill("name: pdf-tools\ndescription: Extract text and tables from PDF files."),
    "agent/skills/pdf-tools/reference/SKILL.md": skill("name: pdf-reference\ndescription: Never reached: its parent is a skill."),
    "agent/skills/pdf-tools/notes.md": skill("description: Not a skill: inside a skill directory."),
    "agent/skills/nested/deeper/web-search/SKILL.md": skill("description: Search the web.\nlicense: MIT"),
    "agent/skills/nested/loose.md": skill("description: Loose markdown below the top level is not a skill."),
    "agent/skills/notes.md": skill("description: A top-level markdown skill."),
    "agent/skills/readme.md": "# Just a readme\n",
    "agent/skills/Bad_Name/SKILL.md": skill("name: Bad_Name--\ndescription: Loaded with warnings."),
    "agent/skills/no-desc/SKILL.md": skill("name: no-desc"),
    "agent/skills/blank-desc/SKILL.md": skill("name: blank-desc\ndescription: '   '"),
    "agent/skills/long/SKILL.md": skill(`name: ${"l".repeat(70)}\ndescription: ${"d".repeat(1100)}`),
    "agent/skills/numbered/SKILL.md": skill("name: 42\ndescription: A numeric name falls back to the directory."),
    "agent/skills/manual/SKILL.md": skill("name: manual\ndescription: Only when asked.\ndisable-model-invocation: true"),
    "agent/skills/half-manual/SKILL.md": skill("name: half-manual\ndescription: Quoted true is not true.\ndisable-model-invocation: 'true'"),
    "agent/skills/no-frontmatter/SKILL.md": "# No frontmatter\n",
    "agent/skills/.hidden/SKILL.md": skill("name: hidden\ndescription: Hidden directories are skipped."),
    "agent/skills/node_modules/dep/SKILL.md": skill("name: dep\ndescription: Dependencies are skipped."),
    "agent/skills/.gitignore": "# build output\nignored-dir/\n*.draft.md\n!keep.draft.md\n/rooted\n\n",
    "agent/skills/ignored-dir/SKILL.md": skill("name: ignored\ndescription: Ignored by .gitignore."),
    "agent/skills/draft.draft.md": skill("description: An ignored draft."),
    "agent/skills/keep.draft.md": skill("description: A draft kept by negation."),
    "agent/skills/rooted/SKILL.md": skill("name: rooted\ndescription: Ignored through a rooted pattern."),
    "agent/skills/sub/.ignore": "private\nSKILL.MD\n",
    "agent/skills/sub/private/SKILL.md": skill("name: private\ndescription: Ignored by sub/.ignore."),
    "agent/skills/sub/public/SKILL.md": skill("name: public\ndescription: Ignored too: patterns match case-insensitively."),
    "agent/skills/sub/deep/.fdignore": "*.md\n!SKILL.md\n",
    "agent/skills/sub/deep/kept/SKILL.md": skill("name: kept\ndescription: Re-included by the nested negation."),
    "agent/skills/dup/SKILL.md": skill("name: pdf-tools\ndescription: Same name as another skill."),
    "agent/skills/glob/.gitignore": "**/tmp-*\na?c/\n[xy]z/\n",
    "agent/skills/glob/tmp-one/SKILL.md": skill("name: tmp-one\ndescription: Globbed away."),
    "agent/skills/glob/abc/SKILL.md": skill("name: abc\ndescription: Question mark."),
    "agent/skills/glob/yz/SKILL.md": skill("name: yz\ndescription: Bracket."),
    "agent/skills/glob/zz/SKILL.md": skill("name: zz\ndescription: Not matched by the bracket."),
    "agent/skills/bad-yaml/SKILL.md": "---\nname: bad-yaml\ndescription: [unclosed\n---\n",
    "agent/skills/bad-yaml.md": "---\ndescription: [unclosed\n---\n",
    "agent/skills/crlf/SKILL.md": "---\r\nname: crlf\r\ndescription: Windows line endings\r\n---\r\nbody\r\n",
    "agent/skills/escape/SKILL.md": skill("name: escape\ndescription: 'Uses <tags> & \"quotes\"'"),
    "project/.pi/skills/proj-skill/SKILL.md": skill("name: proj-skill\ndescription: A project skill."),
    "project/.pi/skills/pdf-tools/SKILL.md": skill("name: pdf-tools\ndescription: The project's pdf-tools loses to the user's."),
    "project/.pi/skills/top.md": skill("name: top\ndescription: A top-level project file."),
    "extra/one.md": skill("name: one\ndescription: A single file given as a path."),
    "extra/no-desc.md": skill("name: no-desc-file"),
    "extra/SKILL.md": skill("name: extra-declared"),
    "extra/not-md.txt": "text",
    "extra/dir/x/SKILL.md": skill("name: x\ndescription: In a directory given as a path."),
    "extra/dir/x/y/SKILL.md": skill("name: y\ndescription: Below a skill: not reached."),
  };
  const skillLinks = {
    "agent/skills/link-to-pdf": "pdf-tools",
    "agent/skills/broken-link": "does-not-exist",
    "agent/skills/link-notes.md": "notes.md",
    "extra/dir/link-to-web": "../../agent/skills/nested/deeper/web-search",
  };
  const inSkillTree = (run) => async () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pihost-skills-")));
    try {
      for (const [file, text] of Object.entries(skillTree)) {
        fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        fs.writeFileSync(path.join(root, file), text);
      }
      for (const [link, target] of Object.entries(skillLinks)) fs.symlinkSync(target, path.join(root, link));
      const result = await run(root);
      // Diagnostics quoting a YAML parser's own words differ between parsers; only their presence is compared.
      const text = JSON.stringify(result, (key, value) => (key === "message" && /line|unclosed|flow|Missing|Unexpected/i.test(value) ? "<yaml error>" : value));
      return JSON.parse(text.replaceAll(root, "<tmp>"));
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  };
  for (const source of ["user", "project", "path", "npm", undefined]) {
    add(`loadSkillsFromDir source ${source}`, inSkillTree((root) => agent.loadSkillsFromDir({ dir: path.join(root, "agent/skills"), source })));
  }
  add("loadSkillsFromDir project", inSkillTree((root) => agent.loadSkillsFromDir({ dir: path.join(root, "project/.pi/skills"), source: "project" })));
  add("loadSkillsFromDir skill root", inSkillTree((root) => agent.loadSkillsFromDir({ dir: path.join(root, "agent/skills/pdf-tools"), source: "path" })));
  add("loadSkillsFromDir nested root", inSkillTree((root) => agent.loadSkillsFromDir({ dir: path.join(root, "agent/skills/sub"), source: "path" })));
  add("loadSkillsFromDir missing and file", inSkillTree((root) => [
    agent.loadSkillsFromDir({ dir: path.join(root, "nope"), source: "user" }),
    agent.loadSkillsFromDir({ dir: path.join(root, "extra/one.md"), source: "user" }),
  ]));
  add("loadSkills defaults and paths", inSkillTree((root) =>
    agent.loadSkills({
      cwd: path.join(root, "project"),
      agentDir: path.join(root, "agent"),
      includeDefaults: true,
      skillPaths: ["../extra/one.md", `  ${path.join(root, "extra/dir")}  `, "../extra/not-md.txt", "missing-dir", "../extra/no-desc.md", "../extra/SKILL.md", path.join(root, "agent/skills/pdf-tools/SKILL.md"), "../agent/skills/link-notes.md", `file://${path.join(root, "extra/one.md")}`],
    }),
  ));
  add("loadSkills explicit paths only", inSkillTree((root) =>
    agent.loadSkills({
      cwd: path.join(root, "project"),
      agentDir: path.join(root, "agent"),
      includeDefaults: false,
      skillPaths: [path.join(root, "agent/skills/nested"), ".pi/skills", path.join(root, "agent/skills/pdf-tools/SKILL.md"), "../extra"],
    }),
  ));
  add("loadSkills nothing", inSkillTree((root) => agent.loadSkills({ cwd: path.join(root, "empty"), agentDir: path.join(root, "none"), includeDefaults: true, skillPaths: [] })));
  add("loadSkills prompt", inSkillTree((root) => agent.formatSkillsForPrompt(agent.loadSkills({ cwd: path.join(root, "project"), agentDir: path.join(root, "agent"), includeDefaults: true, skillPaths: [] }).skills)));
  // --- Patches, visual truncation, event bus ---------------------------------------
  const lines = (count, from = 1) => Array.from({ length: count }, (_, i) => `line ${i + from}`).join("\n");
  const patchPairs = {
    same: ["a\nb\n", "a\nb\n"],
    emptyToText: ["", "new\nfile\n"],
    textToEmpty: ["old\n", ""],
    oneLine: ["a\nb\nc\n", "a\nB\nc\n"],
    noFinalNewline: ["a\nb", "a\nc"],
    addFinalNewline: ["a\nb", "a\nb\n"],
    farApart: [`${lines(30)}\n`, `${lines(30).replace("line 3\n", "LINE 3\n").replace("line 27\n", "LINE 27\n")}\n`],
    close: [`${lines(20)}\n`, `${lines(20).replace("line 5\n", "five\n").replace("line 12\n", "twelve\n")}\n`],
    insertAndDelete: [`${lines(12)}\n`, `${lines(12).replace("line 2\n", "").replace("line 10\n", "line 10\ninserted\n")}\n`],
    crlf: ["a\r\nb\r\n", "a\r\nc\r\n"],
  };
  for (const [name, [oldText, newText]] of Object.entries(patchPairs)) {
    add(`generateUnifiedPatch ${name}`, () => [
      agent.generateUnifiedPatch("src/file.ts", oldText, newText),
      agent.generateUnifiedPatch("src/file.ts", oldText, newText, 1),
      agent.generateUnifiedPatch("a b/ü.txt", oldText, newText, 0),
    ]);
  }
  const visualTexts = {
    empty: "",
    short: "one\ntwo",
    long: `${"word ".repeat(40)}\nshort\n${"x".repeat(55)}\nlast`,
    styled: "\x1b[31mred text that wraps around the edge\x1b[0m\n\tindented\n",
    wide: "漢字かなカナ".repeat(6),
  };
  for (const [name, text] of Object.entries(visualTexts)) {
    add(`truncateToVisualLines ${name}`, () => [
      agent.truncateToVisualLines(text, 3, 20),
      agent.truncateToVisualLines(text, 3, 20, 1),
      agent.truncateToVisualLines(text, 2, 30, 0, "start"),
      agent.truncateToVisualLines(text, 100, 40),
      agent.truncateToVisualLines(text, 0, 20),
    ]);
  }
  add("createEventBus", async () => {
    const bus = agent.createEventBus();
    const log = [];
    const originalError = console.error;
    console.error = (...args) => log.push(["console.error", args[0], String(args[1]?.message ?? args[1])]);
    try {
      bus.on("newListener", (name) => log.push(["newListener", name]));
      bus.on("removeListener", (name) => log.push(["removeListener", name]));
      const offA = bus.on("build", (data) => log.push(["a", data]));
      bus.on("build", async (data) => {
        await null;
        log.push(["b", data]);
      });
      bus.on("build", () => {
        throw new Error("sync failure");
      });
      bus.on("build", async () => {
        throw new Error("async failure");
      });
      const offSelf = bus.on("once", (data) => {
        log.push(["once", data]);
        offSelf();
      });
      bus.on("2", (data) => log.push(["numeric channel", data]));
      log.push(["emit returns", bus.emit("build", { n: 1 })]);
      bus.emit("once", "first");
      bus.emit("once", "second");
      bus.emit("nobody", 1);
      offA();
      offA();
      bus.emit("build", { n: 2 });
      await new Promise((resolve) => setTimeout(resolve, 10));
      bus.clear();
      bus.emit("build", { n: 3 });
      bus.emit("2", "after clear");
      const thrown = [];
      for (const data of [new Error("boom"), "text", undefined, 42]) {
        try {
          bus.emit("error", data);
          thrown.push("none");
        } catch (error) {
          thrown.push([error.message, error.code]);
        }
      }
      bus.on("error", (data) => log.push(["error handled", String(data)]));
      bus.emit("error", "handled now");
      await new Promise((resolve) => setTimeout(resolve, 10));
      return { log, thrown };
    } finally {
      console.error = originalError;
    }
  });
  addSessionManagerCases(add, agent);
  addSettingsManagerCases(add, agent);
  addCodingAgentHelperCases(add, agent);
  addCompactionSummaryCases(add, ai, agent);
  addAgentSessionCases(add, { ai, agent });
  addModelRegistryCases(add, { agent });
  addModelRuntimeCases(add, { ai, agent });
  addTrustAndCredentialCases(add, { agent });
  addModelResolverCases(add, { agent });
  addAgentSessionRuntimeCases(add, { ai, agent });
  addBuiltinExtensionCases(add, agent);
  addCodemodeCases(add, agent);
  addPowerShellCases(add, agent);
  addResourceLoaderCases(add, agent);
  addPackageManagerCases(add, { agent });
  addExportCoverageCases(add, { typebox, value, agent });
  // Last: its manager case initializes the theme, which other cases must not see.
  addMcpExtensionCases(add, agent);
  return cases;
}
