// The answers of TypeBox's `extends` check, exported as the ExtendsResult
// namespace: true (with the names `infer` bound), false, or "union" when the
// left side is `any` and a conditional takes both branches.

import { createSchema } from "./schema-object.js";

function isResult(value, kind) {
  return typeof value === "object" && value !== null && value["~kind"] === kind;
}
function hasInferred(value) {
  return "inferred" in value && typeof value.inferred === "object" && value.inferred !== null;
}

export function ExtendsUnion(inferred) {
  return createSchema({ "~kind": "ExtendsUnion" }, { inferred }, {});
}
export function ExtendsTrue(inferred) {
  return createSchema({ "~kind": "ExtendsTrue" }, { inferred }, {});
}
export function ExtendsFalse() {
  return createSchema({ "~kind": "ExtendsFalse" }, {}, {});
}
export function IsExtendsUnion(value) {
  return isResult(value, "ExtendsUnion") && hasInferred(value);
}
export function IsExtendsTrue(value) {
  return isResult(value, "ExtendsTrue") && hasInferred(value);
}
export function IsExtendsFalse(value) {
  return isResult(value, "ExtendsFalse");
}
export function IsExtendsTrueLike(value) {
  return IsExtendsUnion(value) || IsExtendsTrue(value);
}
export function Match(result, onTrue, onFalse) {
  return IsExtendsTrueLike(result) ? onTrue(result.inferred) : onFalse();
}
