// The TypeBox builders extensions use for tool parameters, producing the same
// JSON Schema objects as typebox 1.x (pi 1.6.0's), including its
// non-enumerable `~kind`/`~optional`/`~readonly` marks that code can observe.
// Builders not listed here throw "not implemented yet" when called.

// The builders below are named after the globals they shadow (Object, String,
// Array…), as TypeBox's are, so the real ones are reached through these.
const JsObject = globalThis.Object;
const JsArray = globalThis.Array;

function mark(schema, key, value) {
  JsObject.defineProperty(schema, key, { value, writable: true, enumerable: false, configurable: true });
  return schema;
}

function create(kind, base, options) {
  return mark({ ...base, ...options }, "~kind", kind);
}

function cloneWithMarks(schema) {
  const copy = { ...schema };
  for (const key of JsObject.getOwnPropertyNames(schema)) {
    if (key.startsWith("~")) mark(copy, key, schema[key]);
  }
  return copy;
}

export function String(options) {
  return create("String", { type: "string" }, options);
}
export function Number(options) {
  return create("Number", { type: "number" }, options);
}
export function Integer(options) {
  return create("Integer", { type: "integer" }, options);
}
export function Boolean(options) {
  return create("Boolean", { type: "boolean" }, options);
}
export function Null(options) {
  return create("Null", { type: "null" }, options);
}
export function Any(options) {
  return create("Any", {}, options);
}
export function Unknown(options) {
  return create("Unknown", {}, options);
}
export function Literal(value, options) {
  return create("Literal", { type: typeof value, const: value }, options);
}
export function Union(anyOf, options) {
  return create("Union", { anyOf }, options);
}
export function Array(items, options) {
  return create("Array", { type: "array", items }, options);
}
export function Enum(values, options) {
  const list = JsArray.isArray(values) ? values : JsObject.values(values);
  return create("Enum", { enum: list }, options);
}
export function Record(_key, value, options) {
  return create("Record", { type: "object", patternProperties: { "^.*$": value } }, options);
}
export function Object(properties, options) {
  const required = JsObject.keys(properties).filter((key) => properties[key]["~optional"] !== true);
  const base = required.length > 0 ? { type: "object", required, properties } : { type: "object", properties };
  return create("Object", base, options);
}
export function Optional(schema) {
  return mark(cloneWithMarks(schema), "~optional", true);
}
export function Readonly(schema) {
  return mark(cloneWithMarks(schema), "~readonly", true);
}
export function Unsafe(schema) {
  return mark({ ...schema }, "~unsafe", undefined);
}

const builders = {
  String,
  Number,
  Integer,
  Boolean,
  Null,
  Any,
  Unknown,
  Literal,
  Union,
  Array,
  Enum,
  Record,
  Object,
  Optional,
  Readonly,
  Unsafe,
};

export const Type = new Proxy(builders, {
  get(target, key) {
    if (key in target || typeof key !== "string") return target[key];
    return function notImplemented() {
      throw new Error(`pihost: typebox.Type.${key} is not implemented yet`);
    };
  },
});

export default Type;
