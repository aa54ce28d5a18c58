// The property modifiers as actions: optional (`?`), readonly and immutable
// (`readonly T[]`) marks added to or removed from a copy of a type, each with
// a deferred form; and ReadonlyObject (TypeScript's `Readonly<T>`) and With,
// which apply them or annotations to a whole type.

import { Array as ArrayType, Cyclic, Evaluate, Object as ObjectType, Tuple, Union } from "../typebox.js";
import { EvaluateDependent } from "./evaluate.js";
import { CyclicTarget } from "./indexed.js";
import { Deferred, canCompute } from "./deferred.js";
import { actionResult, discardKeys, isKind, updateSchema } from "./schema-object.js";

function adding(mark) {
  return (type, options) => updateSchema(updateSchema(type, { [mark]: true }, {}), {}, options);
}
function removing(mark) {
  return (type, options) => updateSchema(discardKeys(type, [mark]), {}, options);
}

const AddOptionalAction = adding("~optional");
const RemoveOptionalAction = removing("~optional");
const AddReadonlyAction = adding("~readonly");
const RemoveReadonlyAction = removing("~readonly");
const AddImmutableAction = adding("~immutable");
const RemoveImmutableAction = removing("~immutable");

export function AddOptional(type, options = {}) {
  return AddOptionalAction(type, options);
}
export function RemoveOptional(type, options = {}) {
  return RemoveOptionalAction(type, options);
}
export function AddReadonly(type, options = {}) {
  return AddReadonlyAction(type, options);
}
export function RemoveReadonly(type, options = {}) {
  return RemoveReadonlyAction(type, options);
}
export function AddImmutable(type, options = {}) {
  return AddImmutableAction(type, options);
}
export function RemoveImmutable(type, options = {}) {
  return RemoveImmutableAction(type, options);
}

export function AddOptionalDeferred(type, options = {}) {
  return Deferred("AddOptional", [type], options);
}
export function RemoveOptionalDeferred(type, options = {}) {
  return Deferred("RemoveOptional", [type], options);
}
export function AddReadonlyDeferred(type, options = {}) {
  return Deferred("AddReadonly", [type], options);
}
export function RemoveReadonlyDeferred(type, options = {}) {
  return Deferred("RemoveReadonly", [type], options);
}
export function AddImmutableDeferred(type, options = {}) {
  return Deferred("AddImmutable", [type], options);
}
export function RemoveImmutableDeferred(type, options = {}) {
  return Deferred("RemoveImmutable", [type], options);
}

export function Immutable(type) {
  return AddImmutable(type);
}
export function IsImmutable(value) {
  return typeof value === "object" && value !== null && "~immutable" in value;
}

// Readonly<T>: object properties become readonly, arrays and tuples immutable;
// unions and intersections (once merged) pass it on to their members.
function readonlyOf(type) {
  if (isKind(type, "Array")) return AddImmutable(ArrayType(type.items));
  if (isKind(type, "Tuple")) return AddImmutable(Tuple(type.items));
  if (isKind(type, "Object")) {
    const properties = {};
    for (const key of Object.getOwnPropertyNames(type.properties)) properties[key] = AddReadonly(type.properties[key]);
    return ObjectType(properties);
  }
  if (isKind(type, "Union")) return Union(type.anyOf.map(readonlyOf));
  if (isKind(type, "Intersect")) return readonlyOf(Evaluate(type));
  if (isKind(type, "Dependent")) return readonlyOf(EvaluateDependent(type.if, type.then, type.else));
  // A cyclic type gets its target declaration made readonly in place.
  if (isKind(type, "Cyclic")) return Cyclic({ ...type.$defs, [type.$ref]: readonlyOf(CyclicTarget(type.$defs, type.$ref)) }, type.$ref);
  return type;
}

export function ReadonlyObjectDeferred(type, options = {}) {
  return Deferred("ReadonlyObject", [type], options);
}
// TypeBox drops the options when it defers ReadonlyObject.
export function ReadonlyObjectAction(type, options) {
  return canCompute([type]) ? actionResult(readonlyOf(type), options) : ReadonlyObjectDeferred(type);
}
export function ReadonlyObject(type, options = {}) {
  return ReadonlyObjectAction(type, options);
}
export { ReadonlyObject as ReadonlyType };

export function WithDeferred(type, options) {
  return Deferred("With", [type, options], {});
}
export function WithAction(type, options) {
  return canCompute([type]) ? actionResult(type, options) : WithDeferred(type, options);
}
export function With(type, options) {
  return WithAction(type, options);
}
