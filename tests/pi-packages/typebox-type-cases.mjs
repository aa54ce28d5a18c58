// Cases for TypeBox's less common builders, actions and guards (function and
// constructor types, intrinsic string types, modifiers, codecs and
// refinements, generic instructions), shared by the recorder and the
// differential like the rest of pi-packages-cases.mjs. Results are the
// schemas themselves, hidden `~` marks included, or booleans for guards.

export function addTypeboxTypeCases(add, { typebox, value }) {
  const T = typebox.Type;
  const { Value } = value;
  const O = () => T.Object({ a: T.String(), b: T.Optional(T.Number()) }, { description: "obj" });
  const F = () => T.Function([T.String(), T.Optional(T.Number())], T.Boolean(), { description: "f" });
  const C = () => T.Constructor([T.String()], T.Object({ x: T.Number() }), { title: "c" });

  const builders = {
    function: F,
    functionEmpty: () => T.Function([], T.Void()),
    constructor: C,
    returnType: () => T.ReturnType(F()),
    returnTypeOptions: () => T.ReturnType(F(), { description: "r" }),
    returnTypeNotFunction: () => T.ReturnType(T.String()),
    returnTypeRef: () => T.ReturnType(T.Ref("F"), { title: "t" }),
    parameters: () => T.Parameters(F()),
    parametersOptions: () => T.Parameters(F(), { title: "p" }),
    parametersNotFunction: () => T.Parameters(T.Number()),
    parametersRest: () => T.Parameters(T.Function([T.String(), T.Rest(T.Tuple([T.Number(), T.Boolean()]))], T.Void())),
    parametersRestBad: () => T.Parameters(T.Function([T.Rest(T.String())], T.Void())),
    instanceType: () => T.InstanceType(C()),
    instanceTypeNot: () => T.InstanceType(F()),
    constructorParameters: () => T.ConstructorParameters(C(), { description: "cp" }),
    constructorParametersNot: () => T.ConstructorParameters(T.Null()),
    capitalize: () => T.Capitalize(T.Literal("hello")),
    capitalizeOptions: () => T.Capitalize(T.Literal("hello", { description: "lost" }), { title: "kept" }),
    capitalizeUnion: () => T.Capitalize(T.Union([T.Literal("ab"), T.Literal("cd"), T.Literal(1)], { description: "u" })),
    capitalizeString: () => T.Capitalize(T.String({ maxLength: 3 })),
    uncapitalize: () => T.Uncapitalize(T.Union([T.Literal("AB"), T.Literal("Cd")])),
    lowercase: () => T.Lowercase(T.Literal("HeLLo"), { description: "l" }),
    uppercase: () => T.Uppercase(T.Union([T.Literal("a"), T.Literal(true)])),
    capitalizeRef: () => T.Capitalize(T.Ref("X"), { title: "deferred" }),
    readonlyObject: () => T.ReadonlyObject(O()),
    readonlyObjectOptions: () => T.ReadonlyObject(T.Object({ a: T.String() }), { title: "ro" }),
    readonlyArray: () => T.ReadonlyObject(T.Array(T.String(), { minItems: 1 })),
    readonlyTuple: () => T.ReadonlyObject(T.Tuple([T.String()])),
    readonlyUnion: () => T.ReadonlyObject(T.Union([T.Object({ a: T.String() }), T.Array(T.Number())])),
    readonlyString: () => T.ReadonlyObject(T.String(), { description: "s" }),
    readonlyRef: () => T.ReadonlyObject(T.Ref("X"), { title: "dropped" }),
    readonlyTypeAlias: () => T.ReadonlyType === T.ReadonlyObject,
    with: () => T.With(T.String(), { description: "w", minLength: 2 }),
    withOptional: () => T.With(T.Optional(T.String({ title: "a" })), { title: "b" }),
    withRef: () => T.With(T.Ref("X"), { description: "later" }),
    immutable: () => T.Immutable(T.Array(T.String())),
    this: () => T.This({ description: "self" }),
    rest: () => T.Rest(T.Tuple([T.String()])),
    identifier: () => T.Identifier("T"),
    parameter: () => [T.Parameter("T"), T.Parameter("T", T.String()), T.Parameter("T", T.String(), T.Literal("x"))],
    parameterNoArgs: () => T.Parameter(),
    infer: () => [T.Infer("U"), T.Infer("U", T.Number())],
    generic: () => T.Generic([T.Parameter("T")], T.Array(T.Ref("T"))),
    dependent: () => T.Dependent(T.String(), T.Literal("a"), T.Number(), { description: "d" }),
    recordParts: () => {
      const record = T.Record(T.Integer(), T.String(), { description: "r" });
      return [T.RecordPattern(record), T.RecordValue(record), T.RecordKey(record), T.RecordKey(T.Record(T.String(), T.Null())), T.RecordKey(T.Record(T.Number(), T.Null()))];
    },
    refine: () => T.Refine(T.Number(), (n) => n > 0),
    refineTwice: () => {
      const type = T.Refine(T.Refine(T.String({ description: "s" }), (s) => s.length > 1, () => "too short"), (s) => s !== "no");
      return [type, type["~refine"].length, type["~refine"][0].error("x"), type["~refine"][1].error("x")];
    },
    refineBadArgs: () => T.Refine(T.String()),
    codec: () => {
      const type = T.Codec(T.String({ description: "date" }))
        .Decode((text) => `decoded:${text}`)
        .Encode((text) => `encoded:${text}`);
      return [type, typeof type["~codec"].decode, type["~codec"].decode("a"), type["~codec"].encode("b")];
    },
    codecBuilders: () => {
      const decodeBuilder = T.Codec(T.Number());
      const encodeBuilder = decodeBuilder.Decode((n) => n);
      return [decodeBuilder instanceof T.DecodeBuilder, encodeBuilder instanceof T.EncodeBuilder, Object.keys(decodeBuilder), Object.keys(encodeBuilder)];
    },
    codecChained: () => {
      const inner = T.Codec(T.String()).Decode((s) => `${s}+inner`).Encode((s) => `${s}-inner`);
      const outer = T.Codec(inner).Decode((s) => `${s}+outer`).Encode((s) => `${s}-outer`);
      return [outer["~codec"].decode("v"), outer["~codec"].encode("v")];
    },
    decodeOnly: () => {
      const type = T.Decode(T.String(), (s) => s.length);
      return [type["~codec"].decode("abc"), (() => { try { return type["~codec"].encode(3); } catch (error) { return error.message; } })()];
    },
    encodeOnly: () => {
      const type = T.Encode(T.Number(), (n) => String(n));
      return [type["~codec"].encode(3), (() => { try { return type["~codec"].decode("3"); } catch (error) { return error.message; } })()];
    },
    guardsNew: () => {
      const refined = T.Refine(T.String(), () => true);
      const codec = T.Decode(T.String(), (s) => s);
      return [
        T.IsFunction(F()), T.IsFunction(C()), T.IsConstructor(C()),
        T.IsCodec(codec), T.IsCodec(T.String()), T.IsRefine(refined), T.IsRefine(T.String()),
        T.IsImmutable(T.Immutable(T.String())), T.IsImmutable(T.String()),
        T.IsThis(T.This()), T.IsRest(T.Rest(T.String())), T.IsIdentifier(T.Identifier("x")),
        T.IsParameter(T.Parameter("x")), T.IsInfer(T.Infer("x")), T.IsGeneric(T.Generic([], T.String())),
        T.IsDependent(T.Dependent(T.String(), T.String(), T.String())), T.IsCall(T.String()),
        T.IsEnumValue("a"), T.IsEnumValue(1), T.IsEnumValue(true), T.IsEnumValue(null),
      ];
    },
    literalGuards: () => [
      typebox.IsLiteralString(T.Literal("a")), typebox.IsLiteralString(T.Literal(1)),
      typebox.IsLiteralNumber(T.Literal(1)), typebox.IsLiteralBoolean(T.Literal(false)),
      typebox.IsLiteralBigInt(T.Literal(1n)), typebox.IsLiteralBigInt(T.String()),
      typebox.IsLiteralValue("x"), typebox.IsLiteralValue(null), typebox.IsLiteralValue(2n),
      typebox.LiteralTypeName(1), typebox.LiteralTypeName(true), typebox.LiteralTypeName(1n),
    ],
    literalTypeNameBad: () => typebox.LiteralTypeName({}),
    enumHelpers: () => [
      typebox.IsTypeScriptEnumLike({ A: 1 }), typebox.IsTypeScriptEnumLike([1]), typebox.IsTypeScriptEnumLike(null),
      typebox.TypeScriptEnumToEnumValues({ 0: "A", 1: "B", A: 0, B: 1, "": "e", C: "c" }),
    ],
    deferred: () => [typebox.Deferred("Foo", [T.String()], { a: 1 }), typebox.IsDeferred(typebox.ReturnTypeDeferred(T.String()))],
    actionForms: () => [
      typebox.ReturnTypeAction(F(), { title: "a" }),
      typebox.ParametersDeferred(F()),
      typebox.InstanceTypeAction(T.Ref("C"), { title: "d" }),
      typebox.CapitalizeDeferred(T.Literal("x"), { description: "c" }),
      typebox.UppercaseAction(T.Literal("x"), {}),
      typebox.WithDeferred(T.String(), { title: "w" }),
      typebox.ReadonlyObjectDeferred(T.String()),
    ],
    modifierActions: () => [
      typebox.AddOptional(T.String(), { title: "o" }),
      typebox.RemoveOptional(T.Optional(T.String({ title: "x" }))),
      typebox.AddReadonly(T.Number()),
      typebox.RemoveReadonly(T.Readonly(T.Optional(T.Number()))),
      typebox.AddImmutable(T.Tuple([])),
      typebox.RemoveImmutable(T.Immutable(T.Array(T.Null())), { description: "m" }),
      typebox.AddOptionalDeferred(T.String()),
      typebox.RemoveImmutableDeferred(T.String(), { a: 1 }),
    ],
    callConstruct: () => typebox.CallConstruct(T.Ref("G"), [T.String()]),
    options: () => [
      typebox.ArrayOptions(T.Array(T.String(), { minItems: 1, description: "a" })),
      typebox.ObjectOptions(O()),
      typebox.TupleOptions(T.Tuple([T.String()], { title: "t" })),
      typebox.UnionOptions(T.Optional(T.Union([T.String()], { description: "u" }))),
      typebox.IntersectOptions(T.Intersect([], { title: "i" })),
      typebox.RecordOptions(T.Record(T.String(), T.Number(), { description: "r" })),
      typebox.CyclicOptions(T.Cyclic({ A: T.String() }, "A", { title: "c" })),
      typebox.FunctionOptions(F()),
      typebox.ConstructorOptions(C()),
      typebox.DependentOptions(T.Dependent(T.String(), T.String(), T.String(), { title: "d" })),
    ],
    recordFromPattern: () => typebox.RecordFromPattern("^a", T.String()),
    aliases: () => [typebox._Array_ === T.Array, typebox._Object_ === T.Object, typebox._Function_ === T.Function],
    unsafeGuard: () => [T.IsUnsafe(T.Unsafe({ type: "x" })), T.IsUnsafe(T.String())],
  };
  for (const [name, build] of Object.entries(builders)) add(`builder ${name}`, build);
}
