// TypeScript's conditional types as TypeBox computes them: `L extends R ? T : F`
// (with `infer` names bound in T), and the distributive helpers built on the
// same check: Exclude, Extract and NonNullable. Each defers while an operand
// is still a reference.

import { Null, Undefined, Union } from "../typebox.js";
import { Deferred } from "./deferred.js";
import { EvaluateType, EvaluateUnion } from "./evaluate.js";
import { Extends } from "./extends.js";
import { IsExtendsTrue, IsExtendsTrueLike, IsExtendsUnion } from "./extends-result.js";
import { CanInstantiate, State, instantiate } from "./instantiate.js";
import { actionResult, isKind } from "./schema-object.js";

function conditionalOperation(context, state, left, right, whenTrue, whenFalse) {
  const result = Extends(context, left, right);
  if (IsExtendsUnion(result)) return Union([instantiate(result.inferred, state, whenTrue), instantiate(context, state, whenFalse)]);
  if (IsExtendsTrue(result)) return instantiate(result.inferred, state, whenTrue);
  return instantiate(context, state, whenFalse);
}

export function ConditionalDeferred(left, right, whenTrue, whenFalse, options = {}) {
  return Deferred("Conditional", [left, right, whenTrue, whenFalse], options);
}
export function ConditionalAction(context, state, left, right, whenTrue, whenFalse, options) {
  if (!CanInstantiate([left, right])) return ConditionalDeferred(left, right, whenTrue, whenFalse, options);
  return actionResult(conditionalOperation(context, state, left, right, whenTrue, whenFalse), options);
}
export function ConditionalInstantiate(context, state, left, right, whenTrue, whenFalse, options) {
  return ConditionalAction(context, state, instantiate(context, state, left), instantiate(context, state, right), whenTrue, whenFalse, options);
}
export function Conditional(left, right, whenTrue, whenFalse, options = {}) {
  return ConditionalAction({}, State([], []), left, right, whenTrue, whenFalse, options);
}

// Exclude and Extract keep the members of the (evaluated) left union that do,
// or do not, extend the right type.
function filterMembers(left, right, keepExtending) {
  const evaluated = EvaluateType(left);
  const members = isKind(evaluated, "Union") ? evaluated.anyOf : [evaluated];
  return EvaluateUnion(members.filter((member) => IsExtendsTrueLike(Extends({}, member, right)) === keepExtending));
}

export function ExcludeOperation(left, right) {
  return filterMembers(left, right, false);
}
export function ExtractOperation(left, right) {
  return filterMembers(left, right, true);
}

export function ExcludeDeferred(left, right, options = {}) {
  return Deferred("Exclude", [left, right], options);
}
export function ExcludeAction(left, right, options) {
  return CanInstantiate([left, right]) ? actionResult(ExcludeOperation(left, right), options) : ExcludeDeferred(left, right, options);
}
export function ExcludeInstantiate(context, state, left, right, options) {
  return ExcludeAction(instantiate(context, state, left), instantiate(context, state, right), options);
}
export function Exclude(left, right, options = {}) {
  return ExcludeAction(left, right, options);
}

export function ExtractDeferred(left, right, options = {}) {
  return Deferred("Extract", [left, right], options);
}
export function ExtractAction(left, right, options) {
  return CanInstantiate([left, right]) ? actionResult(ExtractOperation(left, right), options) : ExtractDeferred(left, right, options);
}
export function ExtractInstantiate(context, state, left, right, options) {
  return ExtractAction(instantiate(context, state, left), instantiate(context, state, right), options);
}
export function Extract(left, right, options = {}) {
  return ExtractAction(left, right, options);
}

export function NonNullableDeferred(type, options = {}) {
  return Deferred("NonNullable", [type], options);
}
export function NonNullableAction(type, options) {
  if (!CanInstantiate([type])) return NonNullableDeferred(type, options);
  return actionResult(ExcludeAction(type, Union([Null(), Undefined()]), {}), options);
}
export function NonNullableInstantiate(context, state, type, options) {
  return NonNullableAction(instantiate(context, state, type), options);
}
export function NonNullable(type, options = {}) {
  return NonNullableAction(type, options);
}
