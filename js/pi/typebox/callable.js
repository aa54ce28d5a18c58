// Function and constructor types, and the actions that take them apart as
// TypeScript's ReturnType, Parameters, InstanceType and ConstructorParameters
// do. Something that is not a function (or constructor) yields never, or an
// empty tuple for the parameter lists.

import { Never, Tuple } from "../typebox.js";
import { Deferred, canCompute } from "./deferred.js";
import { IsInfer, IsRest } from "./instructions.js";
import { actionResult, createSchema, discardKeys, isKind } from "./schema-object.js";

function FunctionType(parameters, returnType, options = {}) {
  return createSchema({ "~kind": "Function" }, { type: "function", parameters, returnType }, options);
}
export { FunctionType as Function, FunctionType as _Function_ };

export function Constructor(parameters, instanceType, options = {}) {
  return createSchema({ "~kind": "Constructor" }, { type: "constructor", parameters, instanceType }, options);
}

export function IsFunction(value) {
  return isKind(value, "Function");
}
export function IsConstructor(value) {
  return isKind(value, "Constructor");
}

export function FunctionOptions(type) {
  return discardKeys(type, ["~kind", "type", "parameters", "returnType"]);
}
export function ConstructorOptions(type) {
  return discardKeys(type, ["~kind", "type", "parameters", "instanceType"]);
}

// Rest elements spread into the list as TypeScript spreads `...T`: a rest of
// a tuple gives its items, one not yet known stays, any other cannot be
// spread (never).
function spreadRest(types) {
  return types.flatMap((type) => {
    if (!IsRest(type)) return [type];
    if (isKind(type.items, "Tuple")) return spreadRest(type.items.items);
    if (IsInfer(type.items) || isKind(type.items, "Ref")) return [type];
    return [Never()];
  });
}

function parameterTuple(parameters) {
  return Tuple(spreadRest(parameters));
}

function returnTypeOf(type) {
  return IsFunction(type) ? type.returnType : Never();
}
function instanceTypeOf(type) {
  return IsConstructor(type) ? type.instanceType : Never();
}

// Each action computes its result when its operand is concrete, and is
// deferred when the operand is still a reference.
export function ReturnTypeDeferred(type, options = {}) {
  return Deferred("ReturnType", [type], options);
}
export function ReturnTypeAction(type, options) {
  return canCompute([type]) ? actionResult(returnTypeOf(type), options) : ReturnTypeDeferred(type, options);
}
export function ReturnType(type, options = {}) {
  return ReturnTypeAction(type, options);
}

export function ParametersDeferred(type, options = {}) {
  return Deferred("Parameters", [type], options);
}
export function ParametersAction(type, options) {
  if (!canCompute([type])) return ParametersDeferred(type, options);
  return actionResult(parameterTuple(IsFunction(type) ? type.parameters : []), options);
}
export function Parameters(type, options = {}) {
  return ParametersAction(type, options);
}

export function InstanceTypeDeferred(type, options = {}) {
  return Deferred("InstanceType", [type], options);
}
export function InstanceTypeAction(type, options) {
  return canCompute([type]) ? actionResult(instanceTypeOf(type), options) : InstanceTypeDeferred(type, options);
}
export function InstanceType(type, options = {}) {
  return InstanceTypeAction(type, options);
}

export function ConstructorParametersDeferred(type, options = {}) {
  return Deferred("ConstructorParameters", [type], options);
}
export function ConstructorParametersAction(type, options) {
  if (!canCompute([type])) return ConstructorParametersDeferred(type, options);
  return actionResult(parameterTuple(IsConstructor(type) ? type.parameters : []), options);
}
export function ConstructorParameters(type, options = {}) {
  return ConstructorParametersAction(type, options);
}
