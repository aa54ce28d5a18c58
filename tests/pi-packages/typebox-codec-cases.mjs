// Cases for TypeBox's codecs and refinements at work: Value.Decode/Encode
// through nested codecs, their errors, HasCodec, compiled validators, and
// Value.Check/Errors with `Type.Refine` checks. Shared by the recorder and
// the differential like the rest of pi-packages-cases.mjs.

function caught(run) {
  try {
    return { returned: run() };
  } catch (error) {
    return { error: error.constructor.name, message: error.message, cause: error.cause };
  }
}

export function addTypeboxCodecCases(add, { typebox, value, compile }) {
  const T = typebox.Type;
  const { Value } = value;
  const NumberFromString = () =>
    T.Codec(T.String({ pattern: "^[0-9]+$" }))
      .Decode((text) => globalThis.Number(text))
      .Encode((number) => globalThis.String(number));
  const DateFromNumber = () =>
    T.Codec(T.Number())
      .Decode((ms) => new Date(ms).toISOString())
      .Encode((iso) => Date.parse(iso));
  const Shape = () =>
    T.Object({
      id: NumberFromString(),
      when: T.Optional(DateFromNumber()),
      tags: T.Array(NumberFromString()),
      pair: T.Tuple([NumberFromString(), T.String()]),
      map: T.Record(T.String(), NumberFromString()),
    });
  const Wrapped = () =>
    T.Codec(T.Object({ n: NumberFromString() }))
      .Decode((object) => ({ ...object, decoded: true }))
      .Encode((object) => ({ n: object.n }));

  const cases = {
    decodeLeaf: () => Value.Decode(NumberFromString(), "42"),
    encodeLeaf: () => Value.Encode(NumberFromString(), 42),
    decodeNested: () => Value.Decode(Shape(), { id: "1", when: 0, tags: ["2", "3"], pair: ["4", "x"], map: { a: "5" } }),
    encodeNested: () => Value.Encode(Shape(), { id: 1, when: "1970-01-01T00:00:00.000Z", tags: [2], pair: [4, "x"], map: { a: 5 } }),
    decodeOptionalMissing: () => Value.Decode(Shape(), { id: "1", tags: [], pair: ["0", ""], map: {} }),
    decodeOuterCodec: () => Value.Decode(Wrapped(), { n: "7" }),
    encodeOuterCodec: () => Value.Encode(Wrapped(), { n: 7, decoded: true }),
    decodeInvalid: () => caught(() => Value.Decode(NumberFromString(), "x1")),
    decodeInvalidObject: () => caught(() => Value.Decode(Shape(), { id: 1, tags: "no" })),
    encodeInvalid: () => caught(() => Value.Encode(T.Codec(T.String()).Decode((s) => s).Encode((n) => n * 2), 3)),
    decodeConverts: () => Value.Decode(T.Object({ n: T.Number(), s: T.Codec(T.Number()).Decode((n) => n + 1).Encode((n) => n - 1) }), { n: "3", s: "4", extra: 1 }),
    decodeDefaults: () => Value.Decode(T.Object({ a: T.String({ default: "d" }), b: NumberFromString() }), { b: "9" }),
    decodeNoCodec: () => Value.Decode(T.Object({ a: T.String() }), { a: "x" }),
    decodeOnlyEncode: () => caught(() => Value.Encode(T.Decode(T.String(), (s) => s.length), 3)),
    encodeOnlyDecode: () => caught(() => Value.Decode(T.Encode(T.Number(), (n) => String(n)), 3)),
    decodeDoesNotMutate: () => {
      const input = { id: "1", tags: ["2"], pair: ["3", "y"], map: {} };
      const output = Value.Decode(Shape(), input);
      return [input, output];
    },
    decodeUnion: () => [Value.Decode(T.Union([NumberFromString(), T.Boolean()]), "5"), Value.Decode(T.Union([NumberFromString(), T.Boolean()]), true)],
    encodeUnion: () => [Value.Encode(T.Union([T.Null(), NumberFromString()]), 5), Value.Encode(T.Union([T.Null(), NumberFromString()]), null)],
    decodeRef: () => Value.Decode({ N: NumberFromString() }, T.Object({ a: T.Ref("N") }), { a: "12" }),
    encodeRef: () => Value.Encode({ N: NumberFromString() }, T.Object({ a: T.Ref("N") }), { a: 12 }),
    decodeCyclic: () =>
      Value.Decode(T.Cyclic({ Node: T.Object({ v: NumberFromString(), next: T.Optional(T.Ref("Node")) }) }, "Node"), { v: "1", next: { v: "2" } }),
    decodeIntersect: () => Value.Decode(T.Intersect([T.Object({ a: NumberFromString() }), T.Object({ b: T.String() })]), { a: "1", b: "x" }),
    decodeUnsafe: () => value.DecodeUnsafe({}, NumberFromString(), "nope"),
    encodeUnsafe: () => value.EncodeUnsafe({}, NumberFromString(), 3),
    decodeArgs: () => caught(() => Value.Decode(T.String())),
    hasCodec: () => [
      Value.HasCodec(T.String()),
      Value.HasCodec(NumberFromString()),
      Value.HasCodec(Shape()),
      Value.HasCodec(T.Object({ a: T.Array(T.Union([T.Null(), T.Tuple([T.String(), NumberFromString()])])) })),
      Value.HasCodec({ N: NumberFromString() }, T.Ref("N")),
      Value.HasCodec(T.Ref("N")),
      Value.HasCodec(T.Cyclic({ A: T.Object({ a: T.Optional(T.Ref("A")) }) }, "A")),
      Value.HasCodec(T.Record(T.String(), DateFromNumber())),
    ],
    isOptionalUndefined: () => [
      value.IsOptionalUndefined(T.Optional(T.String()), "a", { a: undefined }),
      value.IsOptionalUndefined(T.String(), "a", { a: undefined }),
      value.IsOptionalUndefined(T.Optional(T.String()), "a", { a: "x" }),
    ],
    compiledDecode: () => {
      const validator = compile.Compile(Shape());
      return [validator.Decode({ id: "3", tags: [], pair: ["1", "p"], map: { k: "2" } }), validator.Encode({ id: 3, tags: [1], pair: [1, "p"], map: {} })];
    },
    compiledDecodeInvalid: () => caught(() => compile.Compile(NumberFromString()).Decode("z")),
    compiledNoCodec: () => [compile.Compile(T.Number()).Decode(1), caught(() => compile.Compile(T.Number()).Encode("1"))],
    errorClasses: () => [new value.DecodeError(1, []) instanceof value.AssertError, new value.EncodeError(1, []).message, Object.keys(new value.DecodeError(1, []))],
  };

  const Positive = () => T.Refine(T.Number(), (n) => n > 0, (n) => `${n} is not positive`);
  const Even = () => T.Refine(Positive(), (n) => n % 2 === 0);
  const refines = {
    positive: [Positive, [1, 0, "x"]],
    even: [Even, [2, 3, -1, -2]],
    inObject: [() => T.Object({ n: Even(), s: T.Refine(T.String({ minLength: 1 }), (s) => s.trim() === s, () => "untrimmed") }), [{ n: 2, s: "a" }, { n: 3, s: " a" }, { n: "x", s: "" }]],
    onObject: [() => T.Refine(T.Object({ min: T.Number(), max: T.Number() }), (o) => o.min <= o.max, () => "min above max"), [{ min: 1, max: 2 }, { min: 3, max: 2 }, { min: "a", max: 2 }]],
    inUnion: [() => T.Union([Even(), T.String()]), [4, 5, "s"]],
  };
  for (const [name, [schema, values]] of Object.entries(refines)) {
    values.forEach((item, index) => {
      add(`Refine Check ${name} #${index}`, () => Value.Check(schema(), item));
      add(`Refine Errors ${name} #${index}`, () => [...Value.Errors(schema(), item)]);
      add(`Refine Compile ${name} #${index}`, () => {
        const validator = compile.Compile(schema());
        return [validator.Check(item), validator.Errors(item)];
      });
    });
  }
  add("Refine Parse", () => caught(() => Value.Parse(Positive(), -5)));
  for (const [name, run] of Object.entries(cases)) add(`codec ${name}`, run);
}
