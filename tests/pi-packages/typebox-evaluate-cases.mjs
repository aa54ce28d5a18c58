// Cases for TypeBox's type computations: the `extends` relation and its
// results, conditional types, Exclude/Extract/NonNullable, evaluation of
// unions and intersections (Compare, Broaden, Narrow, Composite…), template
// literal patterns read back into types, and instantiation of deferred
// actions. Each computed schema is also checked against values with
// Value.Check/Errors/Parse and a compiled validator. Shared by the recorder
// and the differential like the rest of pi-packages-cases.mjs.

function caught(run) {
  try {
    return run();
  } catch (error) {
    return { error: error?.constructor?.name, message: String(error?.message ?? error) };
  }
}

export function addTypeboxEvaluateCases(add, { typebox, value, compile }) {
  const T = typebox.Type;
  const { Value } = value;
  const R = typebox.ExtendsResult;

  // Each result is shown with the kind of answer, so a case reads at a glance.
  const answer = (result) => [R.IsExtendsTrue(result) ? "true" : R.IsExtendsUnion(result) ? "union" : R.IsExtendsFalse(result) ? "false" : "?", result];
  const ext = (left, right) => answer(T.Extends({}, left, right));

  const O = (extra = {}) => T.Object({ a: T.String(), b: T.Optional(T.Number()), ...extra });
  const extendsPairs = {
    stringString: () => ext(T.String(), T.String()),
    stringNumber: () => ext(T.String(), T.Number()),
    integerNumber: () => ext(T.Integer(), T.Number()),
    numberInteger: () => ext(T.Number(), T.Integer()),
    literalString: () => ext(T.Literal("a"), T.String()),
    literalLiteral: () => [ext(T.Literal("a"), T.Literal("a")), ext(T.Literal("a"), T.Literal("b")), ext(T.Literal(1), T.Literal("1"))],
    literalKinds: () => [ext(T.Literal(1), T.Number()), ext(T.Literal(true), T.Boolean()), ext(T.Literal(1n), T.BigInt()), ext(T.Literal(1), T.String())],
    literalUnion: () => ext(T.Literal("b"), T.Union([T.Literal("a"), T.Literal("b")])),
    anyLeft: () => [ext(T.Any(), T.String()), ext(T.Any(), T.Any()), ext(T.Any(), T.Unknown())],
    unknownLeft: () => [ext(T.Unknown(), T.String()), ext(T.Unknown(), T.Any()), ext(T.Unknown(), T.Unknown())],
    neverLeft: () => [ext(T.Never(), T.String()), ext(T.Never(), T.Never())],
    toTop: () => [ext(T.String(), T.Unknown()), ext(T.Object({}), T.Any()), ext(T.Null(), T.Never())],
    nullUndefinedVoid: () => [ext(T.Null(), T.Null()), ext(T.Undefined(), T.Void()), ext(T.Void(), T.Undefined()), ext(T.Undefined(), T.Undefined()), ext(T.Null(), T.Undefined())],
    symbolBigIntBoolean: () => [ext(T.Symbol(), T.Symbol()), ext(T.BigInt(), T.BigInt()), ext(T.Boolean(), T.Boolean()), ext(T.Boolean(), T.Literal(true))],
    unionLeft: () => [ext(T.Union([T.String(), T.Number()]), T.Union([T.Number(), T.String(), T.Null()])), ext(T.Union([T.String(), T.Number()]), T.String())],
    unionRight: () => ext(T.Number(), T.Union([T.String(), T.Number()])),
    intersectRight: () => [ext(T.Literal("x"), T.Intersect([T.String(), T.Literal("x")])), ext(T.String(), T.Intersect([T.String(), T.Literal("x")]))],
    intersectLeft: () => ext(T.Intersect([O(), T.Object({ c: T.Boolean() })]), T.Object({ c: T.Boolean() })),
    arrays: () => [ext(T.Array(T.Literal("a")), T.Array(T.String())), ext(T.Array(T.String()), T.Array(T.Number())), ext(T.Array(T.String()), T.String())],
    immutableArrays: () => [
      ext(T.Immutable(T.Array(T.String())), T.Array(T.String())),
      ext(T.Array(T.String()), T.Immutable(T.Array(T.String()))),
      ext(T.Immutable(T.Array(T.String())), T.Immutable(T.Array(T.String()))),
    ],
    objects: () => [
      ext(O({ c: T.Null() }), O()),
      ext(O(), O({ c: T.Null() })),
      ext(O(), T.Object({ a: T.String(), z: T.Optional(T.Null()) })),
      ext(T.Object({ a: T.Optional(T.String()) }), T.Object({ a: T.String() })),
      ext(T.Object({ a: T.Literal("x") }), T.Object({ a: T.String() })),
    ],
    objectToRecord: () => [ext(T.Object({ a: T.Number(), b: T.Integer() }), T.Record(T.String(), T.Number())), ext(T.Object({ a: T.String() }), T.Record(T.String(), T.Number()))],
    records: () => [
      ext(T.Record(T.String(), T.Integer()), T.Record(T.String(), T.Number())),
      ext(T.Record(T.String(), T.Number()), T.Object({})),
      ext(T.Record(T.String(), T.Number()), T.Object({ a: T.Number() })),
      ext(T.Record(T.String(), T.Number()), T.String()),
    ],
    tuples: () => [
      ext(T.Tuple([T.String(), T.Number()]), T.Tuple([T.String(), T.Number()])),
      ext(T.Tuple([T.String()]), T.Tuple([T.String(), T.Number()])),
      ext(T.Tuple([T.String(), T.Number()]), T.Array(T.Union([T.String(), T.Number()]))),
      ext(T.Tuple([T.String(), T.Number()]), T.Array(T.String())),
      ext(T.Tuple([]), T.Array(T.Never())),
    ],
    functions: () => [
      ext(T.Function([T.String()], T.Number()), T.Function([T.String()], T.Number())),
      ext(T.Function([T.String()], T.Number()), T.Function([T.Literal("a")], T.Void())),
      ext(T.Function([T.Literal("a")], T.Number()), T.Function([T.String()], T.Number())),
      ext(T.Function([], T.Number()), T.Function([T.String()], T.Number())),
      ext(T.Function([T.String()], T.Number()), T.Function([], T.Number())),
      ext(T.Function([T.Optional(T.String())], T.Number()), T.Function([], T.Number())),
      ext(T.Function([], T.Number()), T.Constructor([], T.Number())),
      ext(T.Constructor([], T.Object({})), T.Constructor([], T.Object({}))),
    ],
    enums: () => [ext(T.Enum(["a", "b"]), T.String()), ext(T.Literal("a"), T.Enum(["a", "b"])), ext(T.Enum(["a", 1]), T.String())],
    templateLiterals: () => [
      ext(T.TemplateLiteral([T.Literal("a"), T.Union([T.Literal("b"), T.Literal("c")])]), T.String()),
      ext(T.Literal("ab"), T.TemplateLiteral([T.Literal("a"), T.Union([T.Literal("b"), T.Literal("c")])])),
      ext(T.Literal("ax"), T.TemplateLiteral([T.Literal("a"), T.Union([T.Literal("b"), T.Literal("c")])])),
      ext(T.TemplateLiteral("x${string}"), T.String()),
    ],
    cyclic: () => [
      ext(T.Cyclic({ Node: T.Object({ id: T.String(), next: T.Optional(T.Ref("Node")) }) }, "Node"), T.Object({ id: T.String() })),
      ext(T.Cyclic({ A: T.String() }, "B"), T.String()),
    ],
    unsafe: () => [ext(T.Unsafe({ type: "string" }), T.String()), ext(T.String(), T.Unsafe({ type: "number" }))],
    dependent: () => [ext(T.Dependent(T.String(), T.Literal("a"), T.Number()), T.Literal("a")), ext(T.String(), T.Dependent(T.String(), T.String(), T.Number()))],
    refNeverExtends: () => ext(T.Ref("A"), T.Ref("A")),
    notASchema: () => ext({}, T.String()),
  };
  for (const [name, run] of Object.entries(extendsPairs)) add(`typebox extends ${name}`, run);

  const inferCases = {
    inferString: () => answer(T.Extends({}, T.String(), T.Infer("X"))),
    inferBounded: () => [answer(T.Extends({}, T.Literal(1), T.Infer("X", T.Number()))), answer(T.Extends({}, T.String(), T.Infer("X", T.Number())))],
    inferProperty: () => answer(T.Extends({}, T.Object({ a: T.String(), b: T.Number() }), T.Object({ a: T.Infer("A"), b: T.Infer("B") }))),
    inferOptionalMissing: () => answer(T.Extends({}, T.Object({}), T.Object({ a: T.Optional(T.Infer("A", T.Number())) }))),
    inferArray: () => answer(T.Extends({}, T.Array(T.Boolean()), T.Array(T.Infer("E")))),
    inferTupleRest: () => answer(T.Extends({}, T.Tuple([T.String(), T.Number(), T.Boolean()]), T.Tuple([T.Infer("H"), T.Rest(T.Infer("R"))]))),
    inferTupleLeadingRest: () => answer(T.Extends({}, T.Tuple([T.String(), T.Number(), T.Boolean()]), T.Tuple([T.Rest(T.Infer("R")), T.Infer("L")]))),
    inferTupleToArray: () => answer(T.Extends({}, T.Tuple([T.String(), T.Literal("x")]), T.Array(T.Infer("E", T.String())))),
    inferUnion: () => answer(T.Extends({}, T.Union([T.Literal(1), T.Literal(2)]), T.Infer("U", T.Number()))),
    inferReturn: () => answer(T.Extends({}, T.Function([T.String()], T.Number()), T.Function([T.Infer("P")], T.Infer("R")))),
    inferRecord: () => answer(T.Extends({}, T.Object({ a: T.Number(), b: T.String() }), T.Record(T.String(), T.Infer("V")))),
    inferNeverProperty: () => answer(T.Extends({}, T.Object({ a: T.String() }), T.Object({ a: T.Infer("A", T.Never()) }))),
    restOfReference: () => [
      caught(() => answer(T.Extends({}, T.Tuple([T.String()]), T.Tuple([T.Rest(T.Ref("R"))])))),
      caught(() => answer(T.Extends({}, T.Tuple([T.String()]), T.Tuple([T.String(), T.Rest(T.Ref("R"))])))),
      answer(T.Extends({}, T.Tuple([T.String(), T.Null()]), T.Tuple([T.String(), T.Rest(T.Infer("R", T.Array(T.Null())))]))),
      answer(T.Extends({}, T.Tuple([T.String()]), T.Tuple([T.Rest(T.Infer("R", T.String()))]))),
    ],
    contextKept: () => answer(T.Extends({ Outer: T.Null() }, T.String(), T.Infer("X"))),
    resultHelpers: () => [
      R.ExtendsTrue({ a: 1 }),
      R.ExtendsFalse(),
      R.ExtendsUnion({}),
      R.IsExtendsTrueLike(R.ExtendsUnion({})),
      R.IsExtendsTrueLike(R.ExtendsFalse()),
      R.IsExtendsTrue({ "~kind": "ExtendsTrue" }),
      R.Match(R.ExtendsTrue({ x: 1 }), (inferred) => ["yes", inferred], () => "no"),
      R.Match(R.ExtendsFalse(), () => "yes", () => "no"),
      Object.keys(R),
    ],
  };
  for (const [name, run] of Object.entries(inferCases)) add(`typebox extends ${name}`, run);

  // Computed schemas: shown, then used to validate a few values.
  const probe = (type, values) => {
    const validator = compile.Compile(type);
    return {
      type,
      values: values.map((item) => ({
        check: Value.Check(type, item),
        errors: [...Value.Errors(type, item)].map(({ keyword, instancePath, message }) => ({ keyword, instancePath, message })),
        parse: caught(() => ({ parsed: Value.Parse(type, item) })),
        compiled: validator.Check(item),
      })),
    };
  };
  const computed = {
    conditionalTrue: [() => T.Conditional(T.Literal("a"), T.String(), T.Literal(1), T.Literal(2)), [1, 2]],
    conditionalFalse: [() => T.Conditional(T.Number(), T.String(), T.Literal(1), T.Literal(2), { description: "c" }), [1, 2]],
    conditionalAny: [() => T.Conditional(T.Any(), T.String(), T.Number(), T.Boolean()), [1, true, "x"]],
    conditionalInfer: [() => T.Conditional(T.Array(T.Number({ minimum: 2 })), T.Array(T.Infer("E")), T.Ref("E"), T.Never()), [1, 2, "x"]],
    conditionalInferObject: [
      () => T.Conditional(T.Object({ id: T.Integer(), name: T.String() }), T.Object({ id: T.Infer("I") }), T.Object({ key: T.Ref("I") }), T.Null()),
      [{ key: 1 }, { key: 1.5 }, null],
    ],
    conditionalInferReturn: [() => T.Conditional(T.Function([], T.Union([T.String(), T.Null()])), T.Function([], T.Infer("R")), T.Array(T.Ref("R")), T.Never()), [["a", null], [1]]],
    conditionalInferTuple: [() => T.Conditional(T.Tuple([T.String(), T.Number(), T.Boolean()]), T.Tuple([T.Infer("H"), T.Rest(T.Infer("R"))]), T.Ref("R"), T.Never()), [[1, true], ["a"]]],
    conditionalDeferred: [() => T.Conditional(T.Ref("A"), T.String(), T.Number(), T.Boolean(), { title: "d" }), [1]],
    conditionalRightRef: [() => T.Conditional(T.String(), T.Ref("B"), T.Number(), T.Boolean()), [1]],
    conditionalOptional: [() => T.Conditional(T.String(), T.String(), T.Optional(T.Number()), T.Boolean()), [1]],
    exclude: [() => T.Exclude(T.Union([T.Literal("a"), T.Literal("b"), T.Number()]), T.String()), [1, "a"]],
    excludeLiteral: [() => T.Exclude(T.Union([T.Literal("a"), T.Literal("b"), T.Literal("c")]), T.Literal("b"), { description: "x" }), ["a", "b", "c"]],
    excludeAll: [() => T.Exclude(T.String(), T.String()), ["a"]],
    excludeOne: [() => T.Exclude(T.Union([T.String(), T.Null()]), T.Null()), ["a", null]],
    excludeEnum: [() => T.Exclude(T.Enum(["a", "b", 1]), T.Number()), ["a", 1]],
    excludeDeferred: [() => T.Exclude(T.Ref("A"), T.String()), ["a"]],
    extract: [() => T.Extract(T.Union([T.Literal("a"), T.Literal("b"), T.Number()]), T.String()), ["a", 1]],
    extractNone: [() => T.Extract(T.Union([T.Number(), T.Boolean()]), T.String(), { title: "n" }), [1]],
    extractObjects: [() => T.Extract(T.Union([T.Object({ kind: T.Literal("a") }), T.Object({ kind: T.Literal("b"), x: T.Number() })]), T.Object({ kind: T.Literal("b") })), [{ kind: "b", x: 1 }, { kind: "a" }]],
    extractDeferred: [() => T.Extract(T.String(), T.Ref("S"), { description: "d" }), ["a"]],
    nonNullable: [() => T.NonNullable(T.Union([T.String(), T.Null(), T.Undefined()])), ["a", null, undefined]],
    nonNullableOptions: [() => T.NonNullable(T.Union([T.Number(), T.Null()]), { description: "nn" }), [1, null]],
    nonNullablePlain: [() => T.NonNullable(T.String({ minLength: 1 })), ["", "a"]],
    nonNullableNull: [() => T.NonNullable(T.Null()), [null]],
    nonNullableDeferred: [() => T.NonNullable(T.Ref("A")), [null]],
    evaluateIntersectObjects: [() => T.Evaluate(T.Intersect([T.Object({ a: T.String() }), T.Object({ b: T.Number() })])), [{ a: "x", b: 1 }, { a: "x" }]],
    evaluateIntersectShared: [
      () => T.Evaluate(T.Intersect([T.Object({ a: T.String(), o: T.Optional(T.Number()) }), T.Object({ a: T.Literal("x"), o: T.Optional(T.Integer()) })])),
      [{ a: "x" }, { a: "y" }, { a: "x", o: 1.5 }],
    ],
    evaluateIntersectDisjoint: [() => T.Evaluate(T.Intersect([T.String(), T.Number()])), ["a"]],
    evaluateIntersectUnion: [() => T.Evaluate(T.Intersect([T.Union([T.String(), T.Number()]), T.Union([T.Number(), T.Boolean()])])), [1, "a"]],
    evaluateIntersectLiteral: [() => T.Evaluate(T.Intersect([T.String(), T.Literal("x")]), { title: "e" }), ["x", "y"]],
    evaluateUnionBroaden: [() => T.Evaluate(T.Union([T.Literal("a"), T.String(), T.Literal(1), T.Number(), T.Never()])), ["z", 2, true]],
    evaluateUnionAny: [() => T.Evaluate(T.Union([T.String(), T.Any(), T.Number()])), [null]],
    evaluateUnionSingle: [() => T.Evaluate(T.Union([T.Literal("a"), T.Literal("a")])), ["a"]],
    evaluateUnionObjects: [() => T.Evaluate(T.Union([T.Object({ a: T.String() }), T.Object({ a: T.String() })])), [{ a: "x" }]],
    evaluateEnum: [() => T.Evaluate(T.Enum(["a", "b", 1])), ["a", 2]],
    evaluateTemplate: [() => T.Evaluate(T.TemplateLiteral([T.Literal("on"), T.Union([T.Literal("Click"), T.Literal("Key")])])), ["onClick", "onKey", "on"]],
    evaluateTemplateInfinite: [() => T.Evaluate(T.TemplateLiteral("id-${number}")), ["id-1", 1]],
    evaluateDependent: [() => T.Evaluate(T.Dependent(T.Union([T.Literal("a"), T.Number()]), T.Literal("a"), T.Union([T.Literal("a"), T.Boolean()]))), ["a", true, 1]],
    evaluatePlain: [() => T.Evaluate(T.String(), { description: "plain" }), ["a"]],
    evaluateTupleObject: [() => T.Evaluate(T.Intersect([T.Tuple([T.String()]), T.Object({ x: T.Number() })])), [{ 0: "a", x: 1 }]],
    indexProperty: [() => T.Index(T.Object({ a: T.String(), b: T.Number() }), T.Literal("a")), ["x", 1]],
    indexKeys: [() => T.Index(T.Object({ a: T.String(), b: T.Number(), c: T.Null() }), ["a", "b"], { description: "i" }), ["x", 1, null]],
    indexUnionKey: [() => T.Index(T.Object({ a: T.Literal("x"), b: T.String() }), T.Union([T.Literal("a"), T.Literal("b")])), ["x", "y"]],
    indexMissing: [() => T.Index(T.Object({ a: T.String() }), T.Literal("z")), ["x"]],
    indexNumberOnObject: [() => T.Index(T.Object({ 0: T.String(), 1: T.Boolean(), x: T.Null() }), T.Number()), ["a", true, null]],
    indexArray: [() => T.Index(T.Array(T.String({ minLength: 2 })), T.Number()), ["ab", "a"]],
    indexArrayLiteral: [() => T.Index(T.Array(T.Boolean()), T.Literal("3")), [true]],
    indexArrayLength: [() => T.Index(T.Array(T.Boolean()), T.Literal("length")), [1]],
    indexArrayString: [() => T.Index(T.Array(T.Boolean()), T.String()), [true]],
    indexTuple: [() => T.Index(T.Tuple([T.String(), T.Number(), T.Null()]), T.Literal(1)), [1, "a"]],
    indexTupleUnion: [() => T.Index(T.Tuple([T.String(), T.Number(), T.Null()]), T.Union([T.Literal(0), T.Literal("2")])), ["a", null, 1]],
    indexTupleNumber: [() => T.Index(T.Tuple([T.String(), T.Number()]), T.Number()), ["a", 1, null]],
    indexTupleLength: [() => T.Index(T.Tuple([T.String(), T.Number()]), T.Literal("length")), [2]],
    indexIntersect: [() => T.Index(T.Intersect([T.Object({ a: T.String() }), T.Object({ a: T.Literal("q"), b: T.Null() })]), T.Literal("a")), ["q", "r"]],
    indexUnionObjects: [() => T.Index(T.Union([T.Object({ a: T.String(), b: T.Null() }), T.Object({ a: T.Number() })]), T.Literal("a")), ["x", 1, null]],
    indexUnionNotShared: [() => T.Index(T.Union([T.Object({ a: T.String(), b: T.Null() }), T.Object({ a: T.Number() })]), T.Literal("b")), [null]],
    indexTemplateKey: [() => T.Index(T.Object({ ka: T.String(), kb: T.Number(), c: T.Null() }), T.TemplateLiteral([T.Literal("k"), T.Union([T.Literal("a"), T.Literal("b")])])), ["x", 1, null]],
    indexEnumKey: [() => T.Index(T.Object({ a: T.String(), b: T.Number() }), T.Enum(["a", "b"])), ["x", 1]],
    indexCyclic: [() => T.Index(T.Cyclic({ Node: T.Object({ id: T.String(), next: T.Ref("Node") }) }, "Node"), T.Literal("id")), ["x"]],
    indexThis: [() => T.Index(T.Object({ self: T.Array(T.This()), n: T.Number() }), T.Literal("self")), [[{ self: [], n: 1 }], [1]]],
    indexDeferred: [() => T.Index(T.Ref("A"), T.Literal("a"), { title: "d" }), [1]],
    indexString: [() => T.Index(T.String(), T.Literal("length")), [1]],
    keyOfObject: [() => T.KeyOf(T.Object({ a: T.String(), 0: T.Null(), b: T.Number() })), ["a", 0, "0", "c"]],
    keyOfSingle: [() => T.KeyOf(T.Object({ only: T.String() }), { description: "k" }), ["only"]],
    keyOfEmpty: [() => T.KeyOf(T.Object({})), ["a"]],
    keyOfArray: [() => T.KeyOf(T.Array(T.String())), [1, "1"]],
    keyOfTuple: [() => T.KeyOf(T.Tuple([T.String(), T.Number()])), [0, 1, 2]],
    keyOfAny: [() => T.KeyOf(T.Any()), ["a", 1]],
    keyOfRecord: [() => T.KeyOf(T.Record(T.Integer(), T.String())), [1, 1.5]],
    keyOfRecordTemplate: [() => T.KeyOf(T.Record(T.TemplateLiteral("id-${number}"), T.String())), ["id-1", "x"]],
    keyOfIntersect: [() => T.KeyOf(T.Intersect([T.Object({ a: T.String() }), T.Object({ b: T.Number() })])), ["a", "b", "c"]],
    keyOfUnion: [() => T.KeyOf(T.Union([T.Object({ a: T.String(), b: T.Null() }), T.Object({ a: T.Number(), c: T.Null() })])), ["a", "b"]],
    keyOfString: [() => T.KeyOf(T.String()), ["a"]],
    keyOfDeferred: [() => T.KeyOf(T.Ref("A"), { title: "k" }), ["a"]],
    pickUnion: [() => T.Pick(T.Union([T.Object({ a: T.String(), b: T.Null() }), T.Object({ a: T.Number(), c: T.Null() })]), ["a", "b"]), [{ a: 1 }, { a: "x" }, {}]],
    pickIntersect: [() => T.Pick(T.Intersect([T.Object({ a: T.String() }), T.Object({ b: T.Number(), c: T.Null() })]), T.Union([T.Literal("a"), T.Literal("c")]), { title: "p" }), [{ a: "x", c: null }, { a: "x" }]],
    pickTuple: [() => T.Pick(T.Tuple([T.String(), T.Number()]), [1]), [{ 1: 2 }, { 1: "x" }]],
    pickTemplate: [() => T.Pick(T.Object({ ka: T.String(), kb: T.Number(), c: T.Null() }), T.TemplateLiteral("k${string}")), [{}]],
    pickDeferred: [() => T.Pick(T.Ref("A"), ["a"], { title: "d" }), [{}]],
    omitUnion: [() => T.Omit(T.Union([T.Object({ a: T.String(), b: T.Null() }), T.Object({ a: T.Number(), b: T.Null() })]), ["b"]), [{ a: 1 }, { a: true }]],
    omitIntersect: [() => T.Omit(T.Intersect([T.Object({ a: T.String() }), T.Object({ b: T.Number() })]), T.Literal("a"), { description: "o" }), [{ b: 1 }, {}]],
    omitDeferred: [() => T.Omit(T.Object({ a: T.String() }), T.Ref("K")), [{}]],
    partialUnion: [() => T.Partial(T.Union([T.Object({ a: T.String() }), T.Object({ b: T.Number() })])), [{}, { a: 1 }]],
    partialIntersect: [() => T.Partial(T.Intersect([T.Object({ a: T.String() }), T.Object({ b: T.Number() })]), { title: "p" }), [{}, { b: "x" }]],
    partialCyclic: [() => T.Partial(T.Cyclic({ Node: T.Object({ id: T.String(), next: T.Ref("Node") }) }, "Node")), [{}, { next: { id: 1 } }]],
    partialString: [() => T.Partial(T.String()), [{}, "x"]],
    partialDeferred: [() => T.Partial(T.Ref("A"), { title: "d" }), [{}]],
    requiredUnion: [() => T.Required(T.Union([T.Object({ a: T.Optional(T.String()) }), T.Object({ b: T.Optional(T.Number()) })])), [{}, { a: "x" }]],
    requiredDependent: [() => T.Required(T.Dependent(T.Object({ a: T.Optional(T.String()) }), T.Object({ b: T.Optional(T.Null()) }), T.Object({}))), [{ a: "x", b: null }, {}]],
    requiredDeferred: [() => T.Required(T.Ref("A")), [{}]],
    recordBoolean: [() => T.Record(T.Boolean(), T.Number()), [{ true: 1, false: 2 }, { true: 1 }]],
    recordLiteralNumber: [() => T.Record(T.Literal(1), T.String(), { description: "r" }), [{ 1: "a" }, {}]],
    recordLiteralTrue: [() => T.Record(T.Literal(true), T.String()), [{ true: "a" }]],
    recordUnionLiterals: [() => T.Record(T.Union([T.Literal("a"), T.Literal(2), T.Literal(true)]), T.Null()), [{ a: null, 2: null }, { a: null }]],
    recordUnionString: [() => T.Record(T.Union([T.Literal("a"), T.String()]), T.Null()), [{ x: null }]],
    recordEnum: [() => T.Record(T.Enum(["x", "y"]), T.Number()), [{ x: 1, y: 2 }, { x: 1 }]],
    recordAny: [() => T.Record(T.Any(), T.Number()), [{ x: 1 }]],
    recordStringPattern: [() => T.Record(T.String({ pattern: "^k" }), T.Number()), [{ k1: 1, z: "s" }, { k1: "x" }]],
    recordStringRegExp: [() => T.Record(T.String({ pattern: /^r/ }), T.Number()), [{ r: 1 }]],
    recordTemplateFinite: [() => T.Record(T.TemplateLiteral([T.Literal("k"), T.Union([T.Literal("1"), T.Literal("2")])]), T.Boolean()), [{ k1: true, k2: false }, { k1: true }]],
    recordTemplateInfinite: [() => T.Record(T.TemplateLiteral("k${number}"), T.Boolean()), [{ k1: true }, { k1: 1 }]],
    recordIntersectKey: [() => T.Record(T.Intersect([T.String(), T.Literal("z")]), T.Boolean()), [{ z: true }, {}]],
    recordNull: [() => T.Record(T.Null(), T.Boolean()), [{}]],
    recordDeferred: [() => T.Record(T.Ref("K"), T.Boolean(), { title: "d" }), [{}]],
    interface: [() => T.Interface([T.Object({ a: T.String() }), T.Object({ b: T.Number() })], { c: T.Optional(T.Boolean()) }, { title: "I" }), [{ a: "x", b: 1 }, { a: "x" }, { a: "x", b: 1, c: 1 }]],
    interfaceNone: [() => T.Interface([], { a: T.String() }), [{ a: "x" }, {}]],
    interfaceOverride: [() => T.Interface([T.Object({ a: T.String() })], { a: T.Literal("x") }), [{ a: "x" }, { a: "y" }]],
    interfaceDeferred: [() => T.Interface([T.Ref("Base")], { a: T.String() }, { description: "d" }), [{}]],
    mapped: [() => T.Mapped(T.Identifier("K"), T.Union([T.Literal("a"), T.Literal("b")]), T.Ref("K"), T.Array(T.Ref("K"))), [{ a: ["a"], b: ["b"] }, { a: ["b"], b: ["b"] }]],
    mappedRename: [
      () => T.Mapped(T.Identifier("K"), T.Union([T.Literal("x"), T.Literal("y")]), T.TemplateLiteral([T.Literal("get_"), T.Ref("K")]), T.Function([], T.Ref("K")), { title: "m" }),
      [{}],
    ],
    mappedKeyOf: [() => T.Mapped(T.Identifier("K"), T.KeyOf(T.Object({ a: T.String(), b: T.Number() })), T.Ref("K"), T.Boolean()), [{ a: true, b: false }, { a: 1 }]],
    mappedNumbers: [() => T.Mapped(T.Identifier("K"), T.Union([T.Literal(1), T.Literal(2)]), T.Ref("K"), T.Null()), [{ 1: null, 2: null }]],
    mappedEnum: [() => T.Mapped(T.Identifier("K"), T.Enum(["p", "q"]), T.Ref("K"), T.Optional(T.String())), [{}, { p: 1 }]],
    mappedStringKey: [() => T.Mapped(T.Identifier("K"), T.String(), T.Ref("K"), T.Number()), [{}]],
    mappedDropKey: [() => T.Mapped(T.Identifier("K"), T.Union([T.Literal("a"), T.Literal("b")]), T.Conditional(T.Ref("K"), T.Literal("a"), T.Never(), T.Ref("K")), T.Number()), [{ b: 1 }, {}]],
    mappedDeferred: [() => T.Mapped(T.Identifier("K"), T.Ref("Keys"), T.Ref("K"), T.Number()), [{}]],
    templateString: [() => T.TemplateLiteral("id-${number}"), ["id-1", "id-x"]],
    templateKeywords: [() => T.TemplateLiteral("${string}:${integer}:${boolean}:${bigint}:${null}"), ["a:1:true:2n:", "a:1:true:2n:null"]],
    templateLiterals: [() => T.TemplateLiteral("v${1}-${'a'|'b'}-${true}-${2n}-${1.5}", { description: "t" }), ["v1-a-true-2-1.5", "v1-c-true-2-1.5"]],
    templateUnionKeywords: [() => T.TemplateLiteral("${'x' | number}px"), ["xpx", "12px", "px"]],
    templateNested: [() => T.TemplateLiteral("a${`b${'c'|'d'}`}e"), ["abce", "abde", "abe"]],
    templateParens: [() => T.TemplateLiteral("${('a'|'b') | 'c'}"), ["a", "c", "d"]],
    templateIntersect: [() => T.TemplateLiteral("${string & 'x'}"), ["x"]],
    templateNoInterpolation: [() => T.TemplateLiteral("plain text"), ["plain text", "other"]],
    templateEmpty: [() => T.TemplateLiteral(""), ["", "a"]],
    templateReference: [() => T.TemplateLiteral("pre-${Name}"), ["pre-x"]],
    templateTypes: [() => T.TemplateLiteral([T.Literal("on"), T.Union([T.Literal("A"), T.Literal("B")]), T.Number(), T.Enum(["x", 1])]), ["onA1x", "onB2.5x1", "onC1x"]],
    templateTypesMixed: [() => T.TemplateLiteral([T.BigInt(), T.Boolean(), T.Integer(), T.String(), T.Null(), T.TemplateLiteral("(${string})")], { title: "m" }), ["1ntrue2a"]],
    templateTypesRef: [() => T.TemplateLiteral([T.Literal("a"), T.Ref("B")]), ["a"]],
    templateTypesDeferredPart: [() => T.TemplateLiteral([T.Literal("a"), typebox.TemplateLiteralDeferred([T.Literal("b"), T.Number()])]), ["ab1"]],
    templateBadSyntax: [() => T.TemplateLiteral("${stringy}"), ["x"]],
    templateUnclosed: [() => T.TemplateLiteral("${string"), ["x"]],
    evaluateReadonly: [() => T.Evaluate(T.Intersect([T.Object({ a: T.Readonly(T.Optional(T.String())) }), T.Object({ a: T.Readonly(T.Optional(T.String())) })])), [{}]],
  };
  for (const [name, [build, values]] of Object.entries(computed)) add(`typebox computed ${name}`, () => probe(build(), values));

  const engine = {
    compare: () => [
      typebox.Compare(T.String(), T.String()),
      typebox.Compare(T.Literal("a"), T.String()),
      typebox.Compare(T.String(), T.Literal("a")),
      typebox.Compare(T.String(), T.Number()),
      [typebox.CompareResultEqual, typebox.CompareResultDisjoint, typebox.CompareResultLeftInside, typebox.CompareResultRightInside],
    ],
    flatten: () => typebox.Flatten([T.String(), T.Union([T.Number(), T.Union([T.Null()])]), T.Boolean()]),
    broaden: () => [
      typebox.Broaden([T.Literal("a"), T.String(), T.Number()]),
      typebox.Broaden([T.String(), T.Literal("a")]),
      typebox.Broaden([T.Never(), T.Unknown(), T.String()]),
      typebox.Broaden([T.Object({}), T.Object({})]),
      typebox.Broaden([]),
    ],
    narrow: () => [
      typebox.Narrow(T.String(), T.Literal("a")),
      typebox.Narrow(T.Literal("a"), T.String()),
      typebox.Narrow(T.String(), T.Number()),
      typebox.Narrow(T.Unknown(), T.String()),
      typebox.Narrow(T.Any(), T.String()),
      typebox.Narrow(T.String(), T.Never()),
      typebox.Narrow(T.Object({ a: T.String() }), T.Number()),
      typebox.Narrow(T.Number(), T.Tuple([T.String()])),
    ],
    composite: () => [
      typebox.Composite(T.Object({ a: T.String(), b: T.Number() }), T.Object({ b: T.Integer(), c: T.Null() })),
      typebox.Composite(T.Tuple([T.String(), T.Number()]), T.Object({ x: T.Boolean() })),
      typebox.Composite(T.String(), T.Object({ x: T.Boolean() })),
      typebox.CanComposite(T.Object({})),
      typebox.CanComposite(T.Tuple([])),
      typebox.CanComposite(T.Array(T.String())),
    ],
    distribute: () => [
      typebox.Distribute([T.Union([T.Literal("a"), T.Literal("b")]), T.String()]),
      typebox.Distribute([T.Object({ a: T.String() }), T.Object({ b: T.String() })]),
      typebox.Distribute([]),
    ],
    evaluateHelpers: () => [
      typebox.EvaluateUnionFast([]),
      typebox.EvaluateUnionFast([T.String()]),
      typebox.EvaluateUnionFast([T.String(), T.String()]),
      typebox.EvaluateUnion([T.Literal(1), T.Integer()]),
      typebox.EvaluateIntersect([T.Integer(), T.Number()]),
      typebox.EvaluateEnum(["x", 2]),
      typebox.EvaluateTemplateLiteral("^(a|b)c$"),
      typebox.EvaluateType(T.Union([T.Literal(true), T.Boolean()])),
      typebox.EvaluateDependent(T.String(), T.Literal("x"), T.Number()),
      typebox.EvaluateAction(T.Union([T.Null(), T.Null()]), { title: "t" }),
      typebox.EvaluateDeferred(T.Ref("A"), { title: "d" }),
    ],
    patterns: () =>
      ["^abc$", "^a(b|c)d$", "^.*$", "^x-?(?:0|[1-9][0-9]*)$", "^(?:0|[1-9][0-9]*)$", "^n-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?$", "^-?(?:0|[1-9][0-9]*)n$", "^(?!)$", "^a|b$", "^((a|b)|c)$", "abc", "^abc", "^$", "^ .*$", "^(a|)$", "^x(y$"].map((pattern) => [
        pattern,
        typebox.ParsePatternIntoTypes(pattern),
        typebox.IsTemplateLiteralPattern(pattern),
        typebox.TemplateLiteralDecodeUnsafe(pattern),
        typebox.TemplateLiteralDecode(pattern),
      ]),
    finite: () => [
      typebox.IsTemplateLiteralFinite([T.Literal("a"), T.Union([T.Literal("b"), T.Literal(1)])]),
      typebox.IsTemplateLiteralFinite([T.Literal("a"), T.String()]),
      typebox.IsTemplateLiteralFinite([]),
      typebox.IsTemplateLiteralFinite([T.Union([])]),
      typebox.TemplateLiteralCreate("^x$"),
    ],
    recordPatternToType: () => [typebox.RecordPatternToType("^(a|b)$"), typebox.RecordKey(T.Record(T.TemplateLiteral("k${number}"), T.String()))],
    cyclicExtends: () => [
      typebox.CyclicExtends(T.Cyclic({ Node: T.Object({ id: T.String(), nodes: T.Array(T.Ref("Node"), { minItems: 1 }) }) }, "Node")),
      typebox.CyclicExtends(T.Cyclic({ A: T.Union([T.Ref("B"), T.Tuple([T.Ref("A")]), T.Record(T.String(), T.Ref("A"))]) }, "A")),
      typebox.CyclicExtends(T.Cyclic({}, "Missing")),
    ],
    actionForms: () => [
      typebox.ConditionalDeferred(T.String(), T.Number(), T.Null(), T.Boolean()),
      typebox.ConditionalAction({}, { callstack: [], visited: [] }, T.String(), T.String(), T.Null(), T.Boolean(), { title: "a" }),
      typebox.ExcludeDeferred(T.String(), T.Null(), { title: "e" }),
      typebox.ExcludeAction(T.Union([T.String(), T.Null()]), T.Null(), {}),
      typebox.ExtractDeferred(T.String(), T.Null()),
      typebox.ExtractAction(T.Union([T.String(), T.Null()]), T.Null(), { description: "x" }),
      typebox.NonNullableDeferred(T.String(), { title: "n" }),
      typebox.NonNullableAction(T.Union([T.String(), T.Null()]), {}),
      typebox.IsDeferred(typebox.ExcludeDeferred(T.String(), T.Null())),
    ],
    instantiate: () => [
      T.Instantiate({ A: T.String() }, T.Ref("A")),
      T.Instantiate({ A: T.String() }, T.Object({ a: T.Optional(T.Ref("A")), b: T.Array(T.Ref("A")) }, { title: "o" })),
      T.Instantiate({ A: T.Number() }, T.Tuple([T.Ref("A"), T.Rest(T.Tuple([T.Ref("A"), T.Null()]))])),
      T.Instantiate({ A: T.Null() }, T.Union([T.Ref("A"), T.Ref("B")], { description: "u" })),
      T.Instantiate({ A: T.Literal("x") }, T.Intersect([T.Ref("A")])),
      T.Instantiate({ A: T.Literal("x") }, T.Function([T.Ref("A")], T.Ref("A"))),
      T.Instantiate({ A: T.Literal("x") }, T.Record(T.String(), T.Ref("A"))),
      T.Instantiate({ A: T.Ref("A") }, T.Ref("A")),
      T.Instantiate({}, T.Tuple([T.Rest(T.String())])),
    ],
    instantiateDeferred: () => [
      T.Instantiate({ A: T.Union([T.String(), T.Null()]) }, T.NonNullable(T.Ref("A"))),
      T.Instantiate({ A: T.Union([T.Literal("a"), T.Literal("b")]) }, T.Exclude(T.Ref("A"), T.Literal("a"), { title: "ex" })),
      T.Instantiate({ A: T.Union([T.Literal("a"), T.Number()]) }, T.Extract(T.Ref("A"), T.Number())),
      T.Instantiate({ A: T.Literal("a") }, T.Conditional(T.Ref("A"), T.String(), T.Literal("yes"), T.Literal("no"))),
      T.Instantiate({ A: T.Literal("a") }, T.Capitalize(T.Ref("A"))),
      T.Instantiate({ F: T.Function([], T.String()) }, T.ReturnType(T.Ref("F"), { title: "r" })),
      T.Instantiate({ A: T.String() }, T.With(T.Ref("A"), { description: "w" })),
      T.Instantiate({ A: T.Intersect([T.Object({ a: T.String() }), T.Object({ b: T.Null() })]) }, typebox.EvaluateDeferred(T.Ref("A"))),
      T.Instantiate({ A: T.String() }, typebox.AddOptionalDeferred(T.Ref("A"))),
      T.Instantiate({}, typebox.Deferred("Unknown", [T.String()], { a: 1 })),
    ],
    instantiateForms: () => {
      const state = { callstack: [], visited: [] };
      const context = { A: T.Literal("hello"), F: T.Function([T.String()], T.Null()), C: T.Constructor([T.Number()], T.Object({})), O: T.Object({ a: T.String() }) };
      return [
        typebox.CapitalizeInstantiate(context, state, T.Ref("A"), {}),
        typebox.UppercaseInstantiate(context, state, T.Ref("A"), { title: "u" }),
        typebox.LowercaseInstantiate(context, state, T.Literal("ABC"), {}),
        typebox.UncapitalizeInstantiate(context, state, T.Literal("ABC"), {}),
        typebox.ReturnTypeInstantiate(context, state, T.Ref("F")),
        typebox.ParametersInstantiate(context, state, T.Ref("F"), {}),
        typebox.InstanceTypeInstantiate(context, state, T.Ref("C"), {}),
        typebox.ConstructorParametersInstantiate(context, state, T.Ref("C"), {}),
        typebox.ReadonlyObjectInstantiate(context, state, T.Ref("O"), {}),
        typebox.WithInstantiate(context, state, T.Ref("A"), { description: "w" }),
        typebox.RefInstantiate(context, state, T.Ref("A"), "A"),
        typebox.RefInstantiate(context, { callstack: [], visited: ["A"] }, T.Ref("A"), "A"),
        typebox.RefInstantiate(context, state, T.Ref("Z"), "Z"),
        typebox.ConditionalInstantiate(context, state, T.Ref("A"), T.String(), T.Literal(1), T.Literal(2), {}),
        typebox.ExcludeInstantiate(context, state, T.Ref("A"), T.String(), {}),
        typebox.ExtractInstantiate(context, state, T.Ref("A"), T.String(), {}),
        typebox.NonNullableInstantiate(context, state, T.Ref("A"), {}),
        typebox.EvaluateInstantiate(context, state, T.Union([T.Ref("A"), T.String()]), {}),
      ];
    },
    indexHelpers: () => [
      typebox.ConvertToIntegerKey("12"),
      typebox.ConvertToIntegerKey("012"),
      typebox.ConvertToIntegerKey("-1"),
      typebox.ConvertToIntegerKey(3),
      typebox.ConvertToIntegerKey("x"),
      typebox.KeysToIndexer(["a", 1, true, null, {}]),
      typebox.KeysToIndexer([]),
      typebox.PropertyKeys({ b: 1, a: 2, 1: 3 }),
      typebox.PropertyValues({ b: 1, a: 2, 1: 3 }),
      typebox.CyclicTarget({ A: T.Ref("B"), B: T.String() }, "A"),
      typebox.CyclicTarget({}, "A"),
      typebox.CollapseToObject(T.Union([T.Object({ a: T.String(), b: T.Null() }), T.Tuple([T.String()])])),
      typebox.CollapseToObject(T.Intersect([T.Object({ a: T.String() }), T.Object({ a: T.Literal("z"), b: T.Null() })])),
      typebox.CollapseToObject(T.Dependent(T.Object({ a: T.String() }), T.Object({ b: T.Null() }), T.Object({ c: T.Null() }))),
      typebox.CollapseToObject(T.String()),
      caught(() => typebox.CollapseToObject(T.Union([]))),
      typebox.IndexDeferred(T.String(), T.Literal("a")),
      typebox.IndexAction(T.Object({ a: T.Null() }), T.Literal("a"), { title: "t" }),
      typebox.KeyOfDeferred(T.String()),
      typebox.KeyOfAction(T.Object({ a: T.Null() }), {}),
    ],
    indexInstantiate: () => {
      const state = { callstack: [], visited: [] };
      const context = { O: T.Object({ a: T.String(), b: T.Number() }), K: T.Literal("b") };
      return [
        typebox.IndexInstantiate(context, state, T.Ref("O"), T.Ref("K"), {}),
        typebox.KeyOfInstantiate(context, state, T.Ref("O"), { title: "k" }),
        T.Instantiate(context, T.Index(T.Ref("O"), T.Literal("a"))),
        T.Instantiate(context, T.KeyOf(T.Ref("O"))),
      ];
    },
    objectInstantiate: () => {
      const context = { O: T.Object({ a: T.String(), b: T.Optional(T.Number()) }), K: T.Literal("a") };
      return [
        T.Instantiate(context, T.Pick(T.Ref("O"), T.Ref("K"))),
        T.Instantiate(context, T.Omit(T.Ref("O"), ["a"], { title: "o" })),
        T.Instantiate(context, T.Partial(T.Ref("O"))),
        T.Instantiate(context, T.Required(T.Ref("O"))),
        T.Instantiate(context, T.Record(T.Ref("K"), T.Ref("O"))),
        typebox.RequiredArray({ a: T.String(), b: T.Optional(T.Number()), c: T.Null() }),
        typebox.RequiredArray({}),
        [typebox.IntegerKey, typebox.NumberKey, typebox.StringKey, typebox.BigIntPattern, typebox.NeverPattern],
      ];
    },
    module: () => {
      const module = T.Module({
        Id: T.String({ format: "uuid" }),
        User: T.Object({ id: T.Ref("Id"), name: T.String() }),
        Node: T.Object({ id: T.Ref("Id"), children: T.Array(T.Ref("Node")) }),
        Admin: T.Interface([T.Ref("User")], { level: T.Integer() }),
        Keys: T.KeyOf(T.Ref("User")),
      }, { description: "ignored?" });
      const id = "123e4567-e89b-12d3-a456-426614174000";
      return [
        module,
        Value.Check(module.Node, { id, children: [{ id, children: [] }] }),
        Value.Check(module.Node, { id, children: [{ id: "x", children: [] }] }),
        Value.Check(module.Admin, { id, name: "a", level: 1 }),
        Value.Check(module.Admin, { id, name: "a" }),
      ];
    },
    moduleMutual: () => T.Module({ A: T.Object({ b: T.Optional(T.Ref("B")) }), B: T.Object({ a: T.Optional(T.Ref("A")) }), C: T.Array(T.Ref("A")) }),
    moduleCyclicInterface: () => T.Module({ Tree: T.Interface([], { kids: T.Array(T.Ref("Tree")) }), Base: T.Object({ x: T.Number() }), Leaf: T.Interface([T.Ref("Base")], { self: T.Optional(T.Ref("Leaf")) }) }),
    moduleDeferred: () => typebox.ModuleDeferred({ A: T.String() }, { title: "m" }),
    moduleInstantiate: () => typebox.ModuleInstantiate({ Outer: T.Null() }, { callstack: [], visited: [] }, { A: T.Ref("Outer") }, {}),
    cyclicHelpers: () => {
      const context = { A: T.Object({ b: T.Ref("B") }), B: T.Array(T.Ref("A")), C: T.String(), D: T.Ref("C"), E: T.Union([T.Ref("E"), T.Null()]) };
      return [
        typebox.CyclicCandidates(context),
        typebox.CyclicCheck(["A"], context, context.A),
        typebox.CyclicCheck(["D"], context, context.D),
        typebox.CyclicCheck([], context, T.Record(T.String(), T.Ref("E"))),
        typebox.CyclicDependencies(context, "A", context.A),
        typebox.CyclicDependencies(context, "D", context.D),
        caught(() => typebox.CyclicDependencies(context, "X", T.Ref("Missing"))),
        typebox.InstantiateCyclic(context, "A", context.A),
        typebox.InstantiateCyclic({ I: T.Interface([T.Ref("C")], { n: T.Ref("I") }), C: T.Object({ c: T.Null() }) }, "I", T.Interface([T.Ref("C")], { n: T.Ref("I") })),
        typebox.IsInterfaceDeferred(T.Interface([T.Ref("A")], {})),
        typebox.IsInterfaceDeferred(T.Object({})),
        typebox.IsInterfaceDeferred({ action: "Interface" }),
      ];
    },
    declarationForms: () => {
      const state = { callstack: [], visited: [] };
      return [
        typebox.InterfaceDeferred([T.Ref("A")], { a: T.String() }, { title: "i" }),
        typebox.InterfaceAction([T.Object({ a: T.String() })], { b: T.Null() }, { description: "d" }),
        typebox.InterfaceInstantiate({ A: T.Object({ a: T.String() }) }, state, [T.Ref("A")], { b: T.Ref("A") }, {}),
        typebox.MappedDeferred(T.Identifier("K"), T.String(), T.Ref("K"), T.Null()),
        typebox.MappedAction({ V: T.Boolean() }, state, T.Identifier("K"), T.Literal("a"), T.Ref("K"), T.Ref("V"), {}),
        typebox.MappedInstantiate({ Keys: T.Union([T.Literal("a"), T.Literal("b")]) }, state, T.Identifier("K"), T.Ref("Keys"), T.Ref("K"), T.Null(), { title: "m" }),
        T.Instantiate({ Base: T.Object({ x: T.Null() }) }, T.Interface([T.Ref("Base")], { y: T.Null() })),
        T.Instantiate({ Keys: T.Literal("k") }, T.Mapped(T.Identifier("K"), T.Ref("Keys"), T.Ref("K"), T.Null())),
      ];
    },
    readonlyObjectMore: () => [
      T.ReadonlyObject(T.Cyclic({ Node: T.Object({ id: T.String(), next: T.Array(T.Ref("Node")) }), Other: T.Null() }, "Node")),
      T.ReadonlyObject(T.Dependent(T.Object({ a: T.String() }), T.Object({ b: T.Number() }), T.Object({ c: T.Null() })), { title: "d" }),
      T.ReadonlyObject(T.Cyclic({ A: T.Ref("B"), B: T.Tuple([T.String()]) }, "A")),
      T.ReadonlyObject(T.Intersect([T.Object({ a: T.String() }), T.Array(T.Null())])),
    ],
    intrinsicTemplates: () => [
      T.Uppercase(T.TemplateLiteral("${'a'|'b'}-x")),
      T.Capitalize(T.TemplateLiteral([T.Literal("on"), T.Union([T.Literal("click"), T.Literal("key")])]), { title: "c" }),
      T.Lowercase(T.TemplateLiteral("ID-${number}")),
      T.Uncapitalize(T.Union([T.TemplateLiteral("A${'B'|'C'}"), T.Literal("Dd")])),
      T.Script("Uppercase<`x${number}`>"),
    ],
    templateForms: () => [
      typebox.ParseTemplateIntoTypes("a${string}b"),
      typebox.ParseTemplateIntoTypes(""),
      typebox.ParseTemplateIntoTypes("${number}${'x'}"),
      typebox.TemplateLiteralEncode([T.Literal("a"), T.Union([T.Literal("b"), T.Union([T.Literal("c"), T.Number()])]), T.Symbol()]),
      T.TemplateLiteral([T.Literal("a")], { title: "a" }),
      T.TemplateLiteral([T.Ref("A")], { title: "d" }),
      typebox.TemplateLiteralEncode([T.Union([T.Null(), T.Literal("n")]), T.Literal("!")]),
      typebox.TemplateLiteralEncode([]),
      typebox.TemplateLiteralDeferred([T.String()]),
      typebox.TemplateLiteralFromTypes([T.String(), T.Literal("!")]),
      typebox.TemplateLiteralFromString("x${number}"),
      T.Instantiate({ A: T.Literal("q") }, T.TemplateLiteral([T.Ref("A"), T.Literal("!")], { title: "i" })),
      T.Instantiate({ N: T.Union([T.Literal("a"), T.Literal("b")]) }, T.TemplateLiteral("k-${N}")),
      typebox.IsTemplateLiteralDeferred(T.TemplateLiteral([T.Ref("A")])),
      typebox.IsTemplateLiteralDeferred(T.TemplateLiteral([T.String()])),
      T.Evaluate(T.TemplateLiteral("${'a'|'b'}${1|2}")),
    ],
    call: () => {
      const ArrayOf = T.Generic([T.Parameter("T")], T.Array(T.Ref("T")));
      const Pair = T.Generic([T.Parameter("A", T.String()), T.Parameter("B", T.Unknown(), T.Null())], T.Tuple([T.Ref("A"), T.Ref("B")]));
      const IsText = T.Generic([T.Parameter("T")], T.Conditional(T.Ref("T"), T.String(), T.Literal("yes"), T.Literal("no")));
      const Boxed = T.Generic([T.Parameter("O")], T.Mapped(T.Identifier("K"), T.KeyOf(T.Ref("O")), T.Ref("K"), T.Array(T.Index(T.Ref("O"), T.Ref("K")))));
      const context = { ArrayOf, Pair, IsText, Alias: T.Ref("ArrayOf") };
      return [
        T.Call(ArrayOf, [T.String()]),
        T.Call(Pair, [T.Literal("x")]),
        T.Call(Pair, [T.Literal("x"), T.Number(), T.Boolean()]),
        caught(() => T.Call(Pair, [T.Number()])),
        T.Call(IsText, [T.Union([T.String(), T.Number(), T.Literal("s")])]),
        T.Call(IsText, [T.Enum(["a", 1])]),
        T.Call(Boxed, [T.Object({ a: T.String(), b: T.Number() })]),
        T.Call(T.String(), [T.Number()]),
        T.Call(T.Ref("Missing"), [T.Number()]),
        T.Instantiate(context, typebox.CallConstruct(T.Ref("ArrayOf"), [T.Boolean()])),
        T.Instantiate(context, typebox.CallConstruct(T.Ref("Alias"), [T.Null()])),
        T.Instantiate(context, T.Object({ list: T.Optional(typebox.CallConstruct(T.Ref("Pair"), [T.Literal("k")])) })),
        T.Call(T.Generic([T.Parameter("T")], T.Ref("T")), []),
        T.Call(T.Generic([T.Parameter("T", T.Number())], T.Ref("T")), [T.Infer("X")]),
      ];
    },
    typeNamespace: () => [typeof T.Extends, typeof T.Conditional, typeof T.Exclude, typeof T.Extract, typeof T.NonNullable, typeof T.Instantiate, T.ExtendsResult === typebox.ExtendsResult],
  };
  for (const [name, run] of Object.entries(engine)) add(`typebox engine ${name}`, run);

  // Matrices: every pair of a varied set of types through the relation and
  // the operations built on it, one case per left-hand type.
  const samples = () => ({
    any: T.Any(),
    unknown: T.Unknown(),
    never: T.Never(),
    string: T.String(),
    number: T.Number(),
    integer: T.Integer(),
    boolean: T.Boolean(),
    null: T.Null(),
    undefined: T.Undefined(),
    void: T.Void(),
    bigint: T.BigInt(),
    symbol: T.Symbol(),
    litA: T.Literal("a"),
    lit1: T.Literal(1),
    litTrue: T.Literal(true),
    union: T.Union([T.Literal("a"), T.Number()]),
    unionWide: T.Union([T.String(), T.Number(), T.Null()]),
    intersect: T.Intersect([T.Object({ a: T.String() }), T.Object({ b: T.Number() })]),
    objA: T.Object({ a: T.String() }),
    objAOpt: T.Object({ a: T.Optional(T.String()) }),
    objEmpty: T.Object({}),
    array: T.Array(T.String()),
    tuple: T.Tuple([T.String(), T.Number()]),
    record: T.Record(T.String(), T.Number()),
    enum: T.Enum(["a", "b"]),
    template: T.TemplateLiteral("a${number}"),
    fn: T.Function([T.String()], T.Number()),
    ctor: T.Constructor([], T.Object({})),
  });
  const sampleNames = Object.keys(samples());
  for (const left of sampleNames) {
    add(`typebox matrix ${left}`, () => {
      const types = samples();
      const row = {};
      for (const right of sampleNames) {
        const result = T.Extends({}, types[left], types[right]);
        row[right] = {
          extends: R.IsExtendsUnion(result) ? "union" : R.IsExtendsTrue(result) ? "true" : "false",
          compare: typebox.Compare(types[left], types[right]),
          exclude: T.Exclude(types[left], types[right]),
          extract: T.Extract(types[left], types[right]),
          intersect: T.Evaluate(T.Intersect([types[left], types[right]])),
          union: T.Evaluate(T.Union([types[left], types[right]])),
        };
      }
      return row;
    });
  }

  // Value.Repair: each value repaired (or the error it throws), then re-checked.
  const repair = (type, values, context) =>
    values.map((item) =>
      caught(() => {
        const repaired = context === undefined ? Value.Repair(type, item) : Value.Repair(context, type, item);
        return { repaired, check: context === undefined ? Value.Check(type, repaired) : Value.Check(context, type, repaired), same: repaired === item };
      }),
    );
  const Tool = () =>
    T.Object({
      path: T.String({ minLength: 1 }),
      mode: T.Union([T.Literal("text"), T.Literal("binary")]),
      offset: T.Optional(T.Integer({ minimum: 0 })),
      tags: T.Array(T.String(), { maxItems: 2 }),
    });
  const repairs = {
    object: () => repair(Tool(), [{ path: "a", mode: "text", tags: [] }, {}, { path: 1, mode: "video", offset: "3", tags: ["a", "b", "c"], extra: true }, null, "x", [], { path: "p", mode: "binary", offset: undefined, tags: [1] }]),
    objectAdditional: () => repair(T.Object({ a: T.Number() }, { additionalProperties: T.Boolean() }), [{ a: "1", b: "true", c: 0 }, { a: 1, b: 2 }]),
    objectClosed: () => repair(T.Object({ a: T.Number() }, { additionalProperties: false }), [{ a: 1, b: 2 }]),
    primitives: () => [
      repair(T.String(), ["a", 1, null, undefined, true]),
      repair(T.Number({ minimum: 5 }), [6, "7", "x", 1, undefined]),
      repair(T.Integer(), [1.5, "2", true]),
      repair(T.Boolean(), ["true", 0, "x"]),
      repair(T.Null(), [null, "null", 0]),
      repair(T.Literal("on"), ["on", "off", 1]),
      repair(T.Undefined(), [undefined, 1]),
      repair(T.BigInt(), [1, "2", 3n]),
    ],
    arrays: () => [
      repair(T.Array(T.Number(), { minItems: 2 }), [[1], ["1", "x"], "x", undefined, [1, 2, "3"]]),
      repair(T.Array(T.Number(), { maxItems: 1 }), [[1, 2, 3]]),
      repair(T.Array(T.Number(), { uniqueItems: true }), [[1, 1, 2], [1, "1"]]),
      repair(T.Array(T.Literal(1), { uniqueItems: true, minItems: 2, default: [1, 1] }), [[1, 1]]),
    ],
    tuples: () => repair(T.Tuple([T.String(), T.Number()]), [["a", 1], ["a"], [1, "2", 3], "x", {}]),
    records: () => [
      repair(T.Record(T.String(), T.Number()), [{ a: 1 }, { a: "2", b: "x" }, [], null]),
      repair(T.Record(T.Integer(), T.Boolean()), [{ 1: "true", x: 1 }]),
      repair(T.Record(T.Integer(), T.Boolean(), { additionalProperties: T.String() }), [{ 1: "true", x: 1 }]),
    ],
    unions: () => [
      repair(T.Union([T.String(), T.Number()]), ["a", 1, true, null]),
      repair(
        T.Union([T.Object({ kind: T.Literal("a"), x: T.String() }), T.Object({ kind: T.Literal("b"), y: T.Number() })]),
        [{ kind: "b", y: "2" }, { kind: "a" }, { y: 1 }, 5, { kind: "b", x: "s" }],
      ),
      repair(T.Union([T.Number(), T.String()], { default: "d" }), [true]),
      repair(T.Union([T.Union([T.Literal(1), T.Literal(2)]), T.Null()]), ["2", "x"]),
    ],
    enums: () => repair(T.Enum(["a", "b"]), ["a", "c", 1]),
    intersect: () => repair(T.Intersect([T.Object({ a: T.String() }), T.Object({ b: T.Number() })]), [{ a: "x", b: 1 }, { a: 1 }, null]),
    templateLiteral: () => [repair(T.TemplateLiteral([T.Literal("on"), T.Union([T.Literal("A"), T.Literal("B")])]), ["onA", "onC", 1]), repair(T.TemplateLiteral("id-${number}"), ["id-1", "x"])],
    refs: () => [
      repair(T.Ref("N"), [1, "2", "x"], { N: T.Number() }),
      repair(T.Ref("Missing"), [1]),
      repair(T.Object({ n: T.Ref("N") }), [{ n: "3" }], { N: T.Number() }),
    ],
    defaults: () => repair(T.Object({ a: T.String({ default: "dflt" }), b: T.Optional(T.Number({ default: 3 })) }), [{}, { b: "x" }]),
    notRepairable: () => [
      repair(T.Never(), [1]),
      repair(T.Function([], T.Void()), [() => 1]),
      repair(T.String(), [new Date(0), new Map(), () => 1, new Uint8Array(1)]),
      caught(() => Value.Repair(T.String())),
    ],
    refined: () => repair(T.Refine(T.Number({ default: 10 }), (n) => n > 5), [7, 3, "8", "x"]),
    unscoredUnion: () => repair(T.Union([T.Array(T.String()), T.Object({ a: T.String() })]), [{ a: 1 }, [1]]),
    format: () => repair(T.String({ format: "email", default: "a@b.co" }), ["x", 1]),
  };
  for (const [name, run] of Object.entries(repairs)) add(`typebox repair ${name}`, run);

  const creates = {
    function: () => {
      const made = Value.Create(T.Function([T.String()], T.Object({ n: T.Number({ minimum: 2 }) })));
      return [typeof made, made()];
    },
    constructor: () => {
      const Made = Value.Create(T.Constructor([], T.Object({ a: T.String({ default: "x" }), b: T.Boolean() })));
      return [typeof Made, { ...new Made() }];
    },
    templateFinite: () => Value.Create(T.TemplateLiteral([T.Union([T.Literal("b"), T.Literal("a")]), T.Literal("!")])),
    templateInfinite: () => caught(() => Value.Create(T.TemplateLiteral("id-${number}"))),
    intersectObjects: () => Value.Create(T.Intersect([T.Object({ a: T.String() }), T.Object({ b: T.Number({ minimum: 3 }), c: T.Optional(T.Null()) })])),
    intersectNarrow: () => Value.Create(T.Intersect([T.String(), T.Literal("lit")])),
    intersectRef: () => Value.Create({ A: T.Object({ a: T.Integer() }) }, T.Intersect([T.Ref("A"), T.Object({ b: T.Boolean() })])),
    intersectDisjoint: () => caught(() => Value.Create(T.Intersect([T.String(), T.Number()]))),
    repairCyclicRef: () => {
      const Node = T.Cyclic({ N: T.Object({ v: T.Intersect([T.Any(), T.Null()]), n: T.Optional(T.Ref("N")) }), M: T.String() }, "N");
      return [caught(() => Value.Repair({ R: Node }, T.Ref("R"), { a: 1 })), Value.Create({ R: Node }, T.Ref("R"))];
    },
  };
  for (const [name, run] of Object.entries(creates)) add(`typebox create ${name}`, run);

  // How references resolve: context names first, a cyclic type reached
  // through the context without its own definitions, the last of
  // duplicate $ids, and an unresolvable reference as the false schema.
  const references = {
    cyclicThroughContext: () => {
      const Node = T.Cyclic({ N: T.Object({ id: T.String(), n: T.Optional(T.Ref("N")) }) }, "N");
      const Text = T.Cyclic({ N: T.String() }, "N");
      return [
        Value.Check({ R: Node }, T.Ref("R"), { id: "a" }),
        Value.Check({ R: Text }, T.Ref("R"), "a"),
        Value.Check({ R: Text, N: T.String() }, T.Ref("R"), "a"),
        Value.Check({ R: Text }, T.Object({ x: T.Ref("R") }), { x: "a" }),
        Value.Check({}, T.Object({ x: Text }), { x: "a" }),
        Value.Check({ N: T.Number() }, Text, "a"),
        Value.Check({ N: T.Number() }, Text, 1),
        [...Value.Errors({ R: Text }, T.Ref("R"), "a")],
        compile.Compile({ R: Text }, T.Ref("R")).Check("a"),
      ];
    },
    unresolved: () => [[...Value.Errors(T.Ref("X"), 1)], [...Value.Errors(T.Object({ a: T.Ref("Q") }), { a: 1 })], Value.Check(T.Ref("X"), 1)],
    duplicateIds: () => {
      const schemas = [
        { type: "object", properties: { a: { $id: "A", type: "string" }, b: { $id: "A", type: "number" }, c: { $ref: "A" } } },
        { $defs: { A: { $id: "A", type: "string" } }, type: "object", properties: { x: { $ref: "A" }, y: { $id: "A", type: "number" } } },
        { anyOf: [{ $id: "A", type: "string" }, { $id: "A", type: "number" }], $ref: "A" },
      ];
      const values = [{ a: "s", b: 1, c: "s" }, { a: "s", b: 1, c: 1 }, { x: "s", y: 1 }, { x: 1, y: 1 }, "s", 1];
      return schemas.map((schema) => values.map((item) => Value.Check(schema, item)));
    },
    nestedCyclic: () => {
      const Inner = T.Cyclic({ N: T.Object({ k: T.Literal("a") }) }, "N");
      const Outer = T.Cyclic({ N: T.Object({ v: T.Boolean(), m: T.Optional(T.Ref("M")) }), M: Inner }, "N");
      return [Value.Check(Outer, { v: true }), Value.Check(Outer, { k: "a" }), [...Value.Errors(Outer, { v: true })].map(({ keyword, instancePath }) => [keyword, instancePath])];
    },
  };
  for (const [name, run] of Object.entries(references)) add(`typebox refs ${name}`, run);

  const converts = {
    void: () => [null, "", "0", "null", "Undefined", 0, 0n, false, 1, "x"].map((item) => Value.Convert(T.Void(), item)),
    unionToUndefined: () => [0, "null", 1, "true"].map((item) => Value.Convert(T.Union([T.Undefined(), T.Literal(true)]), item)),
    unionVoidFirst: () => [null, "1", 2].map((item) => Value.Convert(T.Union([T.Void(), T.Integer()]), item)),
  };
  for (const [name, run] of Object.entries(converts)) add(`typebox convert ${name}`, run);

  const cleans = {
    intersectObjects: () => Value.Clean(T.Intersect([T.Object({ a: T.String() }), T.Object({ b: T.Number() })]), { a: "x", b: 1, c: 2 }),
    intersectUnevaluated: () => Value.Clean(T.Intersect([T.Object({ a: T.String() }), T.Object({ b: T.Number() })], { unevaluatedProperties: T.Boolean() }), { a: "x", c: true, d: 1 }),
    intersectNever: () => Value.Clean(T.Intersect([T.Never(), T.Array(T.Never())]), { a: false, b: undefined }),
    intersectNested: () => Value.Clean(T.Intersect([T.Object({ o: T.Object({ x: T.Null() }) }), T.Object({ o: T.Object({ y: T.Null() }) })]), { o: { x: null, y: null, z: null }, p: 1 }),
    intersectRef: () => Value.Clean({ A: T.Object({ a: T.String() }) }, T.Intersect([T.Ref("A"), T.Object({ b: T.Null() })]), { a: "x", b: null, c: 1 }),
  };
  for (const [name, run] of Object.entries(cleans)) add(`typebox clean ${name}`, run);

  const valueHelpers = {
    scoreSelect: () => [
      value.UnionScoreSelect({}, T.Union([T.Object({ kind: T.Literal("a") }), T.Object({ kind: T.Literal("b"), n: T.Number() })]), { kind: "b" }),
      value.UnionScoreSelect({}, T.Union([T.String(), T.Number()]), 1),
      value.UnionScoreSelect({ B: T.Object({ b: T.Number() }) }, T.Union([T.Object({ a: T.Number() }), T.Ref("B")]), { b: 1 }),
      caught(() => value.UnionScoreSelect({}, T.Union([T.Ref("Z")]), 1)),
    ],
    prioritySort: () => [
      value.UnionPrioritySort(T.Union([T.String(), T.Literal("a"), T.Number(), T.Literal(1)], { description: "u" })),
      value.UnionPrioritySort(T.Object({ a: T.Union([T.Any(), T.Null()]), b: T.Optional(T.Array(T.Union([T.Number(), T.Integer()]), { minItems: 1 })) }, { title: "o" })),
      value.UnionPrioritySort(T.Record(T.String(), T.Union([T.Boolean(), T.Literal(true)]))),
      value.UnionPrioritySort(T.Tuple([T.Union([T.Unknown(), T.String()])])),
      value.UnionPrioritySort(T.Intersect([T.Union([T.String(), T.Literal("x")])])),
    ],
    priority: () => [
      typebox.Priority([T.String(), T.Literal("a"), T.Number(), T.Integer(), T.Literal(1)]),
      typebox.Priority([T.Unknown(), T.Null(), T.Any()]),
      typebox.Priority([]),
    ],
    parser: () => [
      caught(() => value.Parser({}, T.Object({ a: T.Number({ default: 1 }), b: T.String() }), { b: 2, c: 3 })),
      caught(() => value.Parser({}, T.Object({ a: T.Number() }), { a: "x" })),
      caught(() => value.Parser(T.Number(), "4")),
      caught(() => value.Parser(T.Number())),
    ],
  };
  for (const [name, run] of Object.entries(valueHelpers)) add(`typebox value ${name}`, run);
}
