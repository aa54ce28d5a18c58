// How TypeBox 1.x builds and changes schema objects: its marks (`~kind`,
// `~optional`, `~codec`…) are non-enumerable own properties, and every change
// works on a copy that keeps each property's position and enumerability, since
// both are observable through Reflect.ownKeys and property descriptors.

export function mark(schema, key, value) {
  Object.defineProperty(schema, key, { value, writable: true, enumerable: false, configurable: true });
  return schema;
}

/** A new schema: its enumerable keys, then the options, then the hidden marks. */
export function createSchema(hidden, base, options) {
  const schema = { ...base, ...options };
  for (const key of Object.keys(hidden)) mark(schema, key, hidden[key]);
  return schema;
}

/** A copy of a schema, keeping hidden marks hidden; copies nested schemas too. */
export function copySchema(value) {
  if (Array.isArray(value)) return value.map(copySchema);
  if (typeof value !== "object" || value === null) return value;
  const proto = Object.getPrototypeOf(value);
  if (proto !== null && proto !== Object.prototype) return value;
  const copy = {};
  for (const key of Object.getOwnPropertyNames(value)) {
    if (key === "__proto__" || key === "constructor" || key === "prototype") continue;
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    descriptor.value = copySchema(descriptor.value);
    Object.defineProperty(copy, key, descriptor);
  }
  return copy;
}

/** A copy with hidden marks set and enumerable keys set; existing keys keep their place. */
export function updateSchema(schema, hidden, options = {}) {
  const copy = copySchema(schema);
  for (const key of Object.keys(hidden)) mark(copy, key, hidden[key]);
  for (const key of Object.keys(options ?? {})) {
    Object.defineProperty(copy, key, { value: options[key], writable: true, enumerable: true, configurable: true });
  }
  return copy;
}

/**
 * The type an action computed, with the action's options on it. TypeBox's
 * actions take their options as given (the builders default them to {}):
 * an action called without any fails as TypeBox's does, reading their keys.
 */
export function actionResult(type, options) {
  Object.keys(options);
  return updateSchema(type, {}, options);
}

/** A copy without the given keys. */
export function discardKeys(schema, keys) {
  const copy = {};
  for (const key of Object.getOwnPropertyNames(schema)) {
    if (keys.includes(key)) continue;
    const descriptor = Object.getOwnPropertyDescriptor(schema, key);
    descriptor.value = copySchema(descriptor.value);
    Object.defineProperty(copy, key, descriptor);
  }
  return copy;
}

export function isKind(value, kind) {
  return typeof value === "object" && value !== null && "~kind" in value && value["~kind"] === kind;
}
