// Cases for Type.Script, TypeBox's reader of TypeScript type syntax: the
// schema each script gives (deferred parts instantiated), with a few values
// checked against it, plus scripts that read only in part or not at all.
// Shared by the recorder and the differential like pi-packages-cases.mjs.

export function addTypeboxScriptCases(add, { typebox, value }) {
  const T = typebox.Type;
  const { Value } = value;
  const script = (text, values = [], context) => () => {
    const type = context === undefined ? T.Script(text) : T.Script(context, text);
    return { type, checks: values.map((item) => Value.Check(type, item)) };
  };

  const scripts = {
    keywords: script("string", ["a", 1]),
    allKeywords: () => ["string", "number", "boolean", "undefined", "null", "integer", "bigint", "unknown", "any", "object", "never", "symbol", "void", "this"].map((text) => T.Script(text)),
    literals: () => ["'a'", '"b"', "1", "-2.5", ".5", "1_000", "10n", "-3n", "true", "false", "0123", "1.", "'line\nbreak'"].map((text) => T.Script(text)),
    union: script("string | number | null", ["a", 1, null, true]),
    unionLeadingPipe: script("| 'a' | 'b'", ["a", "c"]),
    unionParens: () => [T.Script("('a' | 'b') | 'c'"), T.Script("'a' | ('b' | 'c')"), T.Script("(string)")],
    intersect: script("{ a: string } & { b: number }", [{ a: "x", b: 1 }, { a: "x" }]),
    intersectUnion: () => T.Script("{ a: string } & { b: number } | { c: null } & { d: 1 }"),
    object: script("{ a: string, b?: number; readonly c: boolean\n readonly d?: null }", [{ a: "x", c: true }, { a: "x" }]),
    objectEmpty: script("{}", [{}, 1]),
    objectKeys: () => T.Script("{ 1: string, 'quoted key': number, \"dq\": null, $id: boolean, _x: any }"),
    objectIndex: script("{ a: string, [key: string]: string | number }", [{ a: "x", b: 1 }, { a: "x", b: true }]),
    objectIndexKinds: () => [T.Script("{ [k: number]: string }"), T.Script("{ [k: integer]: string }"), T.Script("{ [k: symbol]: string }"), T.Script("{ [k: boolean]: string }")],
    objectNested: script("{ user: { name: string, tags: string[] }, items: Array<{ id: integer }> }", [{ user: { name: "a", tags: [] }, items: [{ id: 1 }] }, { user: { name: 1, tags: [] }, items: [] }]),
    objectTrailing: () => [T.Script("{ a: string, }"), T.Script("{ a: string; }"), T.Script("{\n  a: string\n  b: number\n}")],
    objectComments: () => T.Script("{ /* note */ a: string // trailing\n b: number }"),
    readonlyKeyQuirk: () => T.Script("{ readonlyName: string }"),
    array: script("string[]", [["a"], [1]]),
    arrayNested: () => [T.Script("number[][]"), T.Script("(string | number)[]"), T.Script("Array<string>")],
    readonlyArray: () => T.Script("readonly string[]"),
    tuple: script("[string, number?, ...boolean[]]", [["a", 1], ["a"]]),
    tupleNamed: () => [T.Script("[name: string, age?: number]"), T.Script("[a: readonly string[], b?: readonly number[]]"), T.Script("[readonly string[]?]"), T.Script("[]"), T.Script("[string,]")],
    tupleSpread: () => [T.Script("[...[string, number], boolean]"), T.Script("[...rest: string[]]")],
    functionType: () => [T.Script("(a: string, b?: number) => boolean"), T.Script("() => void"), T.Script("(...args: string[]) => void"), T.Script("(a: readonly string[]) => void")],
    constructorType: () => [T.Script("new (a: string) => { x: number }"), T.Script("new () => object")],
    indexed: () => [T.Script("{ a: string, b: number }['a']"), T.Script("{ a: string, b: number }['a' | 'b']"), T.Script("[string, number][0]"), T.Script("string[][number]")],
    keyOf: () => [T.Script("keyof { a: string, b: number }"), T.Script("keyof string[]"), T.Script("keyof [1, 2]")],
    conditional: () => [T.Script("string extends number ? 1 : 2"), T.Script("'a' extends string ? 'yes' : 'no'"), T.Script("[1, 2] extends [infer A, infer B] ? { a: A, b: B } : never")],
    inferExtends: () => T.Script("{ x: 1 } extends { x: infer X extends number } ? X : never"),
    mapped: () => [
      T.Script("{ [K in 'a' | 'b']: K }"),
      T.Script("{ readonly [K in 'a' | 'b']?: number }"),
      T.Script("{ -readonly [K in 'a']-?: string; }"),
      T.Script("{ +readonly [K in 'x' as `get_${K}`]+?: K }"),
      T.Script("{ [K in keyof { a: 1, b: 2 }]: K[] }"),
    ],
    templates: () => [T.Script("`id-${number}`"), T.Script("`${'a' | 'b'}-${1 | 2}`"), T.Script("`plain`"), T.Script("`${string}`")],
    dependent: () => [T.Script("if string then 'a' else number"), T.Script("if string then 'a'")],
    utilities: () => [
      T.Script("Partial<{ a: string }>"),
      T.Script("Required<{ a?: string }>"),
      T.Script("Pick<{ a: string, b: number }, 'a'>"),
      T.Script("Omit<{ a: string, b: number }, 'a'>"),
      T.Script("Record<'x' | 'y', number>"),
      T.Script("Record<string, boolean>"),
      T.Script("Exclude<'a' | 'b' | 1, string>"),
      T.Script("Extract<'a' | 'b' | 1, string>"),
      T.Script("NonNullable<string | null | undefined>"),
      T.Script("ReturnType<() => string>"),
      T.Script("Parameters<(a: string, b: number) => void>"),
      T.Script("InstanceType<new () => { a: 1 }>"),
      T.Script("ConstructorParameters<new (a: string) => {}>"),
      T.Script("Uppercase<'abc'>"),
      T.Script("Lowercase<'ABC'>"),
      T.Script("Capitalize<'abc'>"),
      T.Script("Uncapitalize<'ABC'>"),
      T.Script("Readonly<{ a: string }>"),
      T.Script("KeyOf<{ a: string }>"),
      T.Script("Index<{ a: string }, 'a'>"),
      T.Script("Evaluate<{ a: string } & { b: number }>"),
    ],
    with: () => [
      T.Script("string with { minLength: 1, maxLength: 10, format: 'email' }"),
      T.Script("number with { minimum: -1.5, default: 10n, examples: [1, 2, true, null, undefined], nested: { a: 'b' } }"),
      T.Script("{ a: string with { description: \"name\" } } with { additionalProperties: false }"),
      T.Script("string with {}"),
    ],
    withChecked: script("{ name: string with { minLength: 2 } } with { additionalProperties: false }", [{ name: "ab" }, { name: "a" }, { name: "ab", x: 1 }]),
    references: () => [T.Script("Foo"), T.Script("Foo[]"), T.Script("Foo<string>")],
    context: () => {
      const User = T.Object({ id: T.String(), age: T.Number() });
      return [T.Script({ User }, "User"), T.Script({ User }, "Partial<User>"), T.Script({ User }, "keyof User"), T.Script({ User }, "User['id'][]"), T.Script({ User }, "{ owner: User, others?: User[] }", { title: "t" })];
    },
    contextChecked: script("{ user: User, role: 'admin' | 'user' }", [{ user: { id: "1" }, role: "admin" }, { user: {}, role: "admin" }], { User: T.Object({ id: T.String() }) }),
    options: () => [T.Script("string", { description: "d" }), T.Script({}, "number", { minimum: 1 })],
    generic: () => [T.Script("<T> = T[]"), T.Script("<T extends string = 'x', U = number> = [T, U]"), T.Script("<T extends object> = keyof T")],
    genericCall: () => {
      const Box = T.Script("<T> = { value: T }");
      return [T.Script({ Box }, "Box<string>"), T.Script({ Box }, "Box<Box<number>>"), T.Script({ Box }, "Box<string | number>")];
    },
    module: () =>
      T.Script(`
        export type Id = string
        type User = { id: Id, name: string }
        interface Admin extends User { level: number }
        type Node = { id: Id; children: Node[] };
        interface Paged<T> { items: T[], total: integer }
        type Pair<A, B = A> = [A, B]
      `),
    moduleChecked: () => {
      const module = T.Script("type Node = { id: string, children: Node[] }\ntype Root = { root: Node }");
      return [module, Value.Check(module.Root, { root: { id: "a", children: [{ id: "b", children: [] }] } }), Value.Check(module.Root, { root: { id: "a", children: [{ id: 1, children: [] }] } })];
    },
    moduleSemicolons: () => [T.Script("type A = string; type B = number; type C = null"), T.Script("type A = string;\ntype B = number;\n"), T.Script("interface I { a: string }")],
    interfaceIndex: () => T.Script("interface Map { [key: string]: number; size: integer }"),
    interfaceGenericHeritage: () => T.Script("interface Base<T> { value: T }\ninterface Named extends Base<string> { name: string }"),
    partialReads: () => [T.Script("string extra tokens"), T.Script("(string) => void"), T.Script("stringy"), T.Script("number[")],
    failures: () => [T.Script(""), T.Script("{"), T.Script("???"), T.Script("[string"), T.Script("'unterminated")],
    badArguments: () => {
      try {
        return T.Script();
      } catch (error) {
        return error.message;
      }
    },
    templateLiteralSyntax: () => [T.TemplateLiteral("${{ a: string }}"), T.TemplateLiteral("${string[]}"), T.TemplateLiteral("${keyof { a: 1, b: 2 }}"), T.TemplateLiteral("x${Uppercase<'a'>}")],
  };
  for (const [name, run] of Object.entries(scripts)) add(`typebox script ${name}`, run);
}
