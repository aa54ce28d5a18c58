// TypeScript's intrinsic string types (Capitalize, Lowercase, Uncapitalize,
// Uppercase) over literal types: string literals are mapped, unions map each
// member, anything else is left as it is. Options given to the action land on
// the result, which is a fresh type (the operand's own options are not kept).

import { Literal, Union } from "../typebox.js";
import { Deferred, canCompute } from "./deferred.js";
import { EvaluateTemplateLiteral } from "./evaluate.js";
import { actionResult, isKind } from "./schema-object.js";

const capitalize = (text) => text[0].toUpperCase() + text.slice(1);
const uncapitalize = (text) => text[0].toLowerCase() + text.slice(1);
const lowercase = (text) => text.toLowerCase();
const uppercase = (text) => text.toUpperCase();

function mapLiterals(mapping, type) {
  if (isKind(type, "Literal")) return Literal(typeof type.const === "string" ? mapping(type.const) : type.const);
  if (isKind(type, "Union")) return Union(type.anyOf.map((member) => mapLiterals(mapping, member)));
  // A template literal is first expanded into the strings it can match (a
  // string, when they are endless).
  if (isKind(type, "TemplateLiteral")) return mapLiterals(mapping, EvaluateTemplateLiteral(type.pattern));
  return type;
}

function intrinsic(deferred, mapping, type, options) {
  return canCompute([type]) ? actionResult(mapLiterals(mapping, type), options) : deferred(type, options);
}

export function CapitalizeAction(type, options) {
  return intrinsic(CapitalizeDeferred, capitalize, type, options);
}
export function LowercaseAction(type, options) {
  return intrinsic(LowercaseDeferred, lowercase, type, options);
}
export function UncapitalizeAction(type, options) {
  return intrinsic(UncapitalizeDeferred, uncapitalize, type, options);
}
export function UppercaseAction(type, options) {
  return intrinsic(UppercaseDeferred, uppercase, type, options);
}

export function Capitalize(type, options = {}) {
  return CapitalizeAction(type, options);
}
export function Lowercase(type, options = {}) {
  return LowercaseAction(type, options);
}
export function Uncapitalize(type, options = {}) {
  return UncapitalizeAction(type, options);
}
export function Uppercase(type, options = {}) {
  return UppercaseAction(type, options);
}

export function CapitalizeDeferred(type, options = {}) {
  return Deferred("Capitalize", [type], options);
}
export function LowercaseDeferred(type, options = {}) {
  return Deferred("Lowercase", [type], options);
}
export function UncapitalizeDeferred(type, options = {}) {
  return Deferred("Uncapitalize", [type], options);
}
export function UppercaseDeferred(type, options = {}) {
  return Deferred("Uppercase", [type], options);
}
