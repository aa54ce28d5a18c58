// Value.Clone: a deep copy of plain data, also of Map, Set, Date and typed
// arrays (which structuredClone handles but plain spreading does not).
// Class instances are shared, not copied, as TypeBox shares them.

function isClassInstance(value) {
  const proto = Object.getPrototypeOf(value);
  return proto !== null && proto !== Object.prototype && typeof proto.constructor === "function" && proto.constructor.name !== "Object";
}

export function clone(value) {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(clone);
  if (value instanceof Date) return new Date(value.getTime());
  if (value instanceof Map) return new Map([...value].map(([key, item]) => [clone(key), clone(item)]));
  if (value instanceof Set) return new Set([...value].map(clone));
  if (ArrayBuffer.isView(value)) return value.slice();
  if (isClassInstance(value)) return value;
  const copy = {};
  for (const key of Object.getOwnPropertyNames(value)) copy[key] = clone(value[key]);
  for (const key of Object.getOwnPropertySymbols(value)) copy[key] = clone(value[key]);
  return copy;
}
