// Value.Diff and Value.Patch: the edits (insert, update, delete at a JSON
// Pointer path) that turn one value into another, and applying them to a
// copy. Diff walks objects key by key and arrays index by index; anything
// else that differs is replaced whole.

import { Literal, Object as ObjectType, String as StringType, Union, Unknown } from "../typebox.js";
import { deepEqual } from "./check.js";
import { clone } from "./clone.js";
import * as Pointer from "./pointer.js";

export const Insert = ObjectType({ type: Literal("insert"), path: StringType(), value: Unknown() });
// TypeBox builds Update with the global Object() rather than its Object type,
// so Update is a plain record of the three property types, not an Object type.
export const Update = { type: Literal("update"), path: StringType(), value: Unknown() };
export const Delete = ObjectType({ type: Literal("delete"), path: StringType() });
export const Edit = Union([Insert, Update, Delete]);

const UNSAFE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

const update = (path, value) => ({ type: "update", path, value });
const insert = (path, value) => ({ type: "insert", path, value });
const remove = (path) => ({ type: "delete", path });

function isObjectValue(value) {
  return typeof value === "object" && value !== null;
}

function hasKey(value, key) {
  return UNSAFE_KEYS.has(key) ? Object.prototype.hasOwnProperty.call(value, key) : key in value;
}

function assertNoSymbolKeys(value) {
  if (!isObjectValue(value) || Object.getOwnPropertySymbols(value).length !== 0) throw new Error("Cannot create diffs for objects with symbols keys");
}

function* diffObject(path, left, right) {
  if (!isObjectValue(right) || Array.isArray(right)) return yield update(path, right);
  assertNoSymbolKeys(left);
  assertNoSymbolKeys(right);
  const leftKeys = Object.getOwnPropertyNames(left);
  for (const key of Object.getOwnPropertyNames(right)) {
    if (!hasKey(left, key) && !UNSAFE_KEYS.has(key)) yield insert(`${path}/${key}`, right[key]);
  }
  // TypeBox skips the shared keys only when the whole objects are equal.
  if (!deepEqual(left, right)) {
    for (const key of leftKeys) {
      if (hasKey(right, key) && !UNSAFE_KEYS.has(key)) yield* diffValue(`${path}/${key}`, left[key], right[key]);
    }
  }
  for (const key of leftKeys) {
    if (!hasKey(right, key) && !UNSAFE_KEYS.has(key)) yield remove(`${path}/${key}`);
  }
}

// Removals go from the end so each index is still right when applied in order.
function* diffArray(path, left, right) {
  if (!Array.isArray(right)) return yield update(path, right);
  for (let i = 0; i < Math.min(left.length, right.length); i++) yield* diffValue(`${path}/${i}`, left[i], right[i]);
  for (let i = left.length; i < right.length; i++) yield insert(`${path}/${i}`, right[i]);
  for (let i = left.length - 1; i >= right.length; i--) yield remove(`${path}/${i}`);
}

function* diffTypedArray(path, left, right) {
  const sameShape =
    ArrayBuffer.isView(right) && left.length === right.length && Object.getPrototypeOf(left).constructor.name === Object.getPrototypeOf(right).constructor.name;
  if (!sameShape) return yield update(path, right);
  for (let i = 0; i < left.length; i++) yield* diffValue(`${path}/${i}`, left[i], right[i]);
}

function* diffValue(path, left, right) {
  if (ArrayBuffer.isView(left)) return yield* diffTypedArray(path, left, right);
  if (Array.isArray(left)) return yield* diffArray(path, left, right);
  if (isObjectValue(left)) return yield* diffObject(path, left, right);
  if (left !== right) yield update(path, right);
}

export function Diff(current, next) {
  return [...diffValue("", current, next)];
}

export function Patch(current, edits) {
  if (edits.length > 0 && edits[0].path === "" && edits[0].type === "update") return clone(edits[0].value);
  const result = clone(current);
  for (const edit of edits) {
    if (edit.type === "insert" || edit.type === "update") Pointer.Set(result, edit.path, edit.value);
    else if (edit.type === "delete") Pointer.Delete(result, edit.path);
  }
  return result;
}
