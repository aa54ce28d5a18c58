// Cases for TypeBox's Value.Hash, Value.Diff/Patch and Value.Pointer: the
// structural hash's hex digits, the edits between two values and the values
// they rebuild, and JSON Pointer reads and writes. Shared by the recorder and
// the differential like the rest of pi-packages-cases.mjs.

function caught(run) {
  try {
    return { returned: run() };
  } catch (error) {
    return { error: error.constructor.name, message: error.message };
  }
}

export function addTypeboxValueDeltaCases(add, { value }) {
  const { Value } = value;

  const hashed = {
    primitives: [0, -0, 1, 1.5, NaN, Infinity, "", "abc", "é😀", true, false, null, undefined, 0n, 123456789n, -1n],
    structures: [[], [1, 2], [[1], [2]], {}, { a: 1, b: 2 }, { b: 2, a: 1 }, { a: [1, { b: "x" }] }, { a: undefined }],
    // Not a Map: its hash covers Map.prototype's methods, which differ by
    // engine (QuickJS has getOrInsert); a Set's are the same in both.
    objects: [new Date(0), /ab+c/gi, new Uint8Array([1, 2, 3]), new Float32Array([1.5]), new Set([1]), Object.create(null)],
    boxed: [new globalThis.Number(3), new globalThis.String("s"), new globalThis.Boolean(true)],
  };
  for (const [name, values] of Object.entries(hashed)) add(`Value.Hash ${name}`, () => values.map((item) => Value.Hash(item)));
  add("Value.Hash key order", () => Value.Hash({ a: 1, b: [2, 3] }) === Value.Hash({ b: [2, 3], a: 1 }));
  add("Value.Hash class instance", () => {
    class Point {
      constructor() {
        this.x = 1;
      }
      get y() {
        return 2;
      }
    }
    return Value.Hash(new Point());
  });

  const pairs = {
    same: [{ a: 1 }, { a: 1 }],
    primitive: [1, 2],
    primitiveSame: ["x", "x"],
    rootType: [{ a: 1 }, [1]],
    nested: [{ a: { b: 1, c: [1, 2, 3] }, d: "x" }, { a: { b: 2, c: [1, 5] }, e: true }],
    arrayGrow: [[1], [1, 2, 3]],
    arrayShrink: [[1, 2, 3, 4], [1]],
    arrayToObject: [{ a: [1] }, { a: { 0: 1 } }],
    objectToNull: [{ a: { b: 1 } }, { a: null }],
    nullToObject: [null, { a: 1 }],
    keysWithSlash: [{ "a/b": 1, "c~d": 2 }, { "a/b": 3, "c~d": 4 }],
    typed: [new Uint8Array([1, 2]), new Uint8Array([1, 3])],
    typedOther: [new Uint8Array([1, 2]), new Int8Array([1, 2])],
    nan: [{ n: NaN }, { n: NaN }],
    undefinedValue: [{ a: undefined }, {}],
    dates: [{ d: new Date(0) }, { d: new Date(1) }],
  };
  for (const [name, [left, right]] of Object.entries(pairs)) {
    add(`Value.Diff ${name}`, () => Value.Diff(left, right));
    add(`Value.Patch ${name}`, () => {
      const patched = Value.Patch(left, Value.Diff(left, right));
      return [patched, Value.Equal(patched, right)];
    });
  }
  add("Value.Diff symbol keys", () => caught(() => Value.Diff({ [Symbol("s")]: 1 }, { a: 1 })));
  add("Value.Patch empty", () => {
    const source = { a: [1] };
    const patched = Value.Patch(source, []);
    return [patched, patched !== source, patched.a !== source.a];
  });
  add("Value.Patch root", () => Value.Patch({ a: 1 }, [{ type: "update", path: "", value: [1, 2] }, { type: "insert", path: "/x", value: 1 }]));
  add("Value.Patch keeps input", () => {
    const source = { a: { b: 1 } };
    Value.Patch(source, [{ type: "update", path: "/a/b", value: 2 }, { type: "delete", path: "/a" }]);
    return source;
  });
  add("Value.Patch bad path", () => caught(() => Value.Patch({ a: 1 }, [{ type: "update", path: "/x/y", value: 1 }])));
  add("Value.Patch unsafe", () => caught(() => Value.Patch({}, [{ type: "insert", path: "/__proto__/x", value: 1 }])));
  add("delta edit types", () => [value.Insert, value.Update, value.Delete, value.Edit]);
  add("delta edit check", () => [
    Value.Check(value.Edit, { type: "insert", path: "/a", value: 1 }),
    Value.Check(value.Edit, { type: "delete", path: "/a" }),
    Value.Check(value.Edit, { type: "remove", path: "/a" }),
  ]);

  const { Pointer } = value;
  const doc = () => ({ a: { b: [10, 20, { c: "x" }] }, "s/t": { "u~v": 1 }, e: null, "": 5 });
  add("Pointer.Indices", () => ["", "/", "/a/b/0", "a/b", "/s~1t/u~0v", "//x", "/~01"].map((pointer) => Pointer.Indices(pointer)));
  add("Pointer.Get", () => ["", "/a", "/a/b/1", "/a/b/2/c", "/s~1t/u~0v", "/missing/x", "/e/x", "/", "/a/b/length", "/__proto__"].map((pointer) => Pointer.Get(doc(), pointer)));
  add("Pointer.Has", () => ["", "/a", "/a/b/5", "/a/b/2/c", "/s~1t/u~0v", "/e", "/e/x", "/toString", "/a/b/length", "/__proto__"].map((pointer) => Pointer.Has(doc(), pointer)));
  add("Pointer.Set", () => {
    const target = doc();
    const returned = Pointer.Set(target, "/a/b/0", 99);
    Pointer.Set(target, "/new", { n: 1 });
    Pointer.Set(target, "/a/b/5", "far");
    return [returned === target, target];
  });
  add("Pointer.Set errors", () => [
    caught(() => Pointer.Set(doc(), "", 1)),
    caught(() => Pointer.Set(doc(), "/missing/x", 1)),
    caught(() => Pointer.Set(doc(), "/constructor/x", 1)),
    caught(() => Pointer.Set(doc(), "/e/x", 1)),
  ]);
  add("Pointer.Delete", () => {
    const target = doc();
    Pointer.Delete(target, "/a/b/0");
    Pointer.Delete(target, "/s~1t");
    Pointer.Delete(target, "/nothing");
    Pointer.Delete(target, "/a/b/x");
    return target;
  });
  add("Pointer.Delete errors", () => [caught(() => Pointer.Delete(doc(), "")), caught(() => Pointer.Delete(doc(), "/q/r"))]);
  add("Pipeline", () => {
    const steps = value.Pipeline([(context, type, item) => [context, type.type, item], (context, _type, item) => [...item, Object.keys(context)]]);
    return [steps({ A: 1 }, { type: "string" }, "v"), steps({ type: "number" }, 1), caught(() => steps(1))];
  });
  add("Value delta keys", () => ["Diff", "Patch", "Hash", "Pointer"].map((key) => typeof Value[key]));
}
