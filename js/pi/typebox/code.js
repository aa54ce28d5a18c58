// typebox/compile's Code(type): the text of a standalone ES module that
// exports `Check(value)` and `SetExternal(external)`, for a build step to
// write to a file. TypeBox generates a specialised check function; pihost has
// no code generation of its own, so its module carries the schema and checks
// with `typebox/value`'s Value.Check, which is the same predicate. The module
// imports nothing but `typebox/value`, so it runs under pihost and under the
// real TypeBox alike.
//
// The schema goes into the text as a literal when it is plain data (TypeBox
// marks kinds with non-enumerable `~` properties, which the literal keeps).
// A schema holding anything a literal cannot carry (a refinement's or a
// codec's functions, a cycle) travels as External's variables, as TypeBox's
// own functions do: the caller hands `External` to the module's SetExternal.

const EXTERNAL_IDENTIFIER = "External";

/** Creates a standalone ESM validation module for the given type. */
export function Code(...args) {
  // Value.Check is called with the arguments Code was: TypeBox's checks differ between the two forms (a refinement counts only without a context).
  const withContext = args.length >= 2;
  const [context, type] = withContext ? args : [{}, args[0]];
  const literal = new LiteralWriter();
  const contextText = literal.write(context);
  const typeText = literal.write(type);
  const inline = contextText !== undefined && typeText !== undefined;
  const lines = [
    `import { Value } from "typebox/value"`,
    ...declaration(`let ${EXTERNAL_IDENTIFIER} = []`),
    ...declaration(`export function SetExternal(external) { ${EXTERNAL_IDENTIFIER} = external.variables }`),
  ];
  if (inline) {
    if (literal.usesHidden) lines.push(...declaration(HIDDEN_HELPER));
    lines.push(...declaration(`const context = ${contextText}`), ...declaration(`const type = ${typeText}`));
    lines.push(...declaration(`export function Check(value) { return Value.Check(${withContext ? "context, " : ""}type, value) }`));
  } else {
    lines.push(
      ...declaration(
        `export function Check(value) { return Value.Check(${withContext ? `${EXTERNAL_IDENTIFIER}[0], ` : ""}${EXTERNAL_IDENTIFIER}[1], value) }`,
      ),
    );
  }
  return {
    External: { identifier: EXTERNAL_IDENTIFIER, variables: inline ? [] : [context, type] },
    Code: lines.join("\n"),
  };
}

function declaration(text) {
  return ["", "// @ts-ignore", text];
}

// Restores the non-enumerable properties TypeBox keeps its kinds in, with
// the attributes TypeBox gives them.
const HIDDEN_HELPER =
  "function hidden(object, properties) { for (const key of Object.keys(properties)) Object.defineProperty(object, key, { value: properties[key], writable: true, enumerable: false, configurable: true }); return object }";

/** JavaScript source text for plain data; undefined for anything else. */
class LiteralWriter {
  usesHidden = false;
  #open = new Set();

  write(value) {
    switch (typeof value) {
      case "string":
        return JSON.stringify(value);
      case "boolean":
        return String(value);
      case "bigint":
        return `${value}n`;
      case "undefined":
        return "undefined";
      case "number":
        return Object.is(value, -0) ? "-0" : String(value);
      case "object":
        if (value === null) return "null";
        if (this.#open.has(value)) return undefined;
        this.#open.add(value);
        try {
          return Array.isArray(value) ? this.#array(value) : this.#object(value);
        } finally {
          this.#open.delete(value);
        }
      default:
        return undefined;
    }
  }

  #array(array) {
    if (Object.getPrototypeOf(array) !== Array.prototype) return undefined;
    const keys = Reflect.ownKeys(array);
    if (keys.length !== array.length + 1) return undefined;
    const items = [];
    for (let index = 0; index < array.length; index++) {
      if (!Object.hasOwn(array, index)) return undefined;
      const item = this.write(array[index]);
      if (item === undefined) return undefined;
      items.push(item);
    }
    return `[${items.join(", ")}]`;
  }

  #object(object) {
    const prototype = Object.getPrototypeOf(object);
    if (prototype !== Object.prototype && prototype !== null) return undefined;
    const shown = [];
    const hidden = [];
    for (const key of Reflect.ownKeys(object)) {
      if (typeof key !== "string") return undefined;
      const descriptor = Object.getOwnPropertyDescriptor(object, key);
      if (!("value" in descriptor) || !descriptor.writable || !descriptor.configurable) return undefined;
      const text = this.write(descriptor.value);
      if (text === undefined) return undefined;
      // A quoted "__proto__" in a literal would set the prototype; a computed key defines it.
      const name = key === "__proto__" ? `["__proto__"]` : JSON.stringify(key);
      (descriptor.enumerable ? shown : hidden).push(`${name}: ${text}`);
    }
    const body = `{${shown.join(", ")}}`;
    const literal = prototype === null ? `Object.assign(Object.create(null), ${body})` : body;
    if (hidden.length === 0) return literal;
    this.usesHidden = true;
    return `hidden(${literal}, {${hidden.join(", ")}})`;
  }
}
