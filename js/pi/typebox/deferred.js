// TypeBox's deferred actions: an action whose operand is still a `$ref`
// cannot be computed yet, so it is recorded as a Deferred type that names the
// action, its operands and its options, to be computed once the reference
// can be resolved.

import { createSchema, isKind } from "./schema-object.js";

export function Deferred(action, parameters, options) {
  return createSchema({ "~kind": "Deferred" }, { type: "deferred", action, parameters, options }, {});
}

export function IsDeferred(value) {
  return isKind(value, "Deferred");
}

/** Whether every operand is concrete; TypeBox looks only at the operands themselves, not inside them. */
export function canCompute(types) {
  return types.every((type) => !isKind(type, "Ref"));
}
