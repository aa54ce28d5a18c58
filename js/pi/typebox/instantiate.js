// TypeBox's instantiation: a type is rebuilt with the names in a context
// substituted for the `Ref`s that mention them, and deferred actions whose
// operands have become concrete are computed. Conditional types use it to
// build their branches with the names `infer` bound.

import { Array as ArrayType, Intersect, Never, Object as ObjectType, Tuple, Union } from "../typebox.js";
import { CallInstantiate } from "./call.js";
import { Constructor, ConstructorParametersAction, Function as FunctionType, InstanceTypeAction, ParametersAction, ReturnTypeAction } from "./callable.js";
import { ConditionalAction, ExcludeAction, ExtractAction, NonNullableAction } from "./conditional.js";
import { Deferred } from "./deferred.js";
import { EvaluateAction } from "./evaluate.js";
import { InterfaceInstantiate, MappedInstantiate, ModuleInstantiate } from "./declarations.js";
import { IndexInstantiate, KeyOfInstantiate } from "./indexed.js";
import { Dependent, DependentOptions, IsInfer, IsRest, Rest } from "./instructions.js";
import { CapitalizeAction, LowercaseAction, UncapitalizeAction, UppercaseAction } from "./intrinsics.js";
import {
  AddImmutable,
  AddOptional,
  AddReadonly,
  ReadonlyObjectAction,
  RemoveImmutable,
  RemoveOptional,
  RemoveReadonly,
  WithAction,
} from "./modifiers.js";
import { OmitInstantiate, PartialInstantiate, PickInstantiate, RecordInstantiate, RequiredInstantiate } from "./objects.js";
import { ArrayOptions, IntersectOptions, ObjectOptions, RecordFromPattern, RecordPattern, RecordValue, TupleOptions, UnionOptions } from "./options.js";
import { discardKeys, isKind } from "./schema-object.js";
import { TemplateLiteralInstantiate } from "./template-literal.js";

export function State(callstack, visited) {
  return { callstack, visited };
}

/** Whether no operand is still a reference (only the operands, not inside them). */
export function CanInstantiate(types) {
  return types.every((type) => !isKind(type, "Ref"));
}

export function RefInstantiate(context, state, type, ref) {
  if (state.visited.includes(ref) || !(ref in context)) return type;
  return instantiate(context, State(state.callstack, [...state.visited, ref]), context[ref]);
}

// `...T` in a list spreads a tuple's elements; an unresolved one stays and
// anything else cannot be spread (never).
function spreadRest(types) {
  return types.flatMap((type) => {
    if (!IsRest(type)) return [type];
    if (isKind(type.items, "Tuple")) return spreadRest(type.items.items);
    if (IsInfer(type.items) || isKind(type.items, "Ref")) return [type];
    return [Never()];
  });
}

function instantiateAll(context, state, types) {
  return types.map((type) => instantiate(context, state, type));
}

function instantiateElementsIn(context, state, types) {
  return spreadRest(instantiateAll(context, state, types));
}

/** A tuple's elements instantiated in a fresh state, rest elements spread. */
export function instantiateElements(context, types) {
  return instantiateElementsIn(context, State([], []), types);
}

function instantiateProperties(context, state, properties) {
  const result = {};
  for (const key of Object.getOwnPropertyNames(properties)) result[key] = instantiate(context, state, properties[key]);
  return result;
}

function callableOptions(type, structural) {
  return discardKeys(type, ["~kind", "type", "parameters", structural]);
}

function instantiateImmediate(context, state, type) {
  const walk = (inner) => instantiate(context, state, inner);
  switch (typeof type === "object" && type !== null ? type["~kind"] : undefined) {
    case "Ref":
      return RefInstantiate(context, state, type, type.$ref);
    case "Array":
      return ArrayType(walk(type.items), ArrayOptions(type));
    case "Call":
      return CallInstantiate(context, state, type.target, type.arguments);
    case "Constructor":
      return Constructor(instantiateAll(context, state, type.parameters), walk(type.instanceType), callableOptions(type, "instanceType"));
    case "Function":
      return FunctionType(instantiateAll(context, state, type.parameters), walk(type.returnType), callableOptions(type, "returnType"));
    case "Dependent":
      return Dependent(walk(type.if), walk(type.then), walk(type.else), DependentOptions(type));
    case "Intersect":
      return Intersect(instantiateAll(context, state, type.allOf), IntersectOptions(type));
    case "Object":
      return ObjectType(instantiateProperties(context, state, type.properties), ObjectOptions(type));
    case "Record":
      return RecordFromPattern(RecordPattern(type), walk(RecordValue(type)));
    case "Rest":
      return Rest(walk(type.items));
    case "Tuple":
      return Tuple(instantiateElementsIn(context, state, type.items), TupleOptions(type));
    case "Union":
      return Union(instantiateAll(context, state, type.anyOf), UnionOptions(type));
    default:
      return type;
  }
}

// A rebuilt type gets back the modifiers the original carried.
function withModifiers(original, rebuilt) {
  if (typeof original !== "object" || original === null) return rebuilt;
  const optional = "~optional" in original ? AddOptional(rebuilt) : rebuilt;
  const readonly = "~readonly" in original ? AddReadonly(optional) : optional;
  return "~immutable" in original ? AddImmutable(readonly) : readonly;
}

function unary(action) {
  return (context, state, [type], options) => action(instantiate(context, state, type), options);
}
function binary(action) {
  return (context, state, [left, right], options) => action(instantiate(context, state, left), instantiate(context, state, right), options);
}

// Each deferred action, by name, as its operands instantiated then the action
// applied. Built on first use: importing this module should cost nothing.
let deferredActions;
function deferredActionTable() {
  deferredActions ??= {
    AddImmutable: unary(AddImmutable),
    AddOptional: unary(AddOptional),
    AddReadonly: unary(AddReadonly),
    Capitalize: unary(CapitalizeAction),
    Conditional: (context, state, [left, right, whenTrue, whenFalse], options) =>
      ConditionalAction(context, state, instantiate(context, state, left), instantiate(context, state, right), whenTrue, whenFalse, options),
    ConstructorParameters: unary(ConstructorParametersAction),
    Evaluate: unary(EvaluateAction),
    Exclude: binary(ExcludeAction),
    Extract: binary(ExtractAction),
    Index: (context, state, [type, indexer], options) => IndexInstantiate(context, state, type, indexer, options),
    InstanceType: unary(InstanceTypeAction),
    Interface: (context, state, [heritage, properties], options) => InterfaceInstantiate(context, state, heritage, properties, options),
    KeyOf: (context, state, [type], options) => KeyOfInstantiate(context, state, type, options),
    Lowercase: unary(LowercaseAction),
    Mapped: (context, state, [identifier, type, as, property], options) => MappedInstantiate(context, state, identifier, type, as, property, options),
    Module: (context, state, [declarations], options) => ModuleInstantiate(context, state, declarations, options),
    NonNullable: unary(NonNullableAction),
    Omit: (context, state, [type, indexer], options) => OmitInstantiate(context, state, type, indexer, options),
    Parameters: unary(ParametersAction),
    Partial: (context, state, [type], options) => PartialInstantiate(context, state, type, options),
    Pick: (context, state, [type, indexer], options) => PickInstantiate(context, state, type, indexer, options),
    ReadonlyObject: unary(ReadonlyObjectAction),
    Record: (context, state, [key, value], options) => RecordInstantiate(context, state, key, value, options),
    RemoveImmutable: unary(RemoveImmutable),
    RemoveOptional: unary(RemoveOptional),
    RemoveReadonly: unary(RemoveReadonly),
    Required: (context, state, [type], options) => RequiredInstantiate(context, state, type, options),
    ReturnType: unary(ReturnTypeAction),
    TemplateLiteral: (context, state, [types], options) => TemplateLiteralInstantiate(context, state, types, options),
    Uncapitalize: unary(UncapitalizeAction),
    Uppercase: unary(UppercaseAction),
    With: (context, state, [type, options]) => WithAction(instantiate(context, state, type), options),
  };
  return deferredActions;
}

// An action TypeBox does not know stays deferred, as it does there.
function instantiateDeferred(context, state, type) {
  const { action, parameters, options } = type;
  const table = deferredActionTable();
  if (Object.hasOwn(table, action)) return table[action](context, state, parameters, options);
  return Deferred(action, parameters, options);
}

export function instantiate(context, state, type) {
  if (isKind(type, "Deferred")) return instantiateDeferred(context, state, type);
  return withModifiers(type, instantiateImmediate(context, state, type));
}

/** Instantiates a type's computed parts with the names in `context`. */
export function Instantiate(context, type) {
  return instantiate(context, State([], []), type);
}

export function CapitalizeInstantiate(context, state, type, options) {
  return CapitalizeAction(instantiate(context, state, type), options);
}
export function LowercaseInstantiate(context, state, type, options) {
  return LowercaseAction(instantiate(context, state, type), options);
}
export function UncapitalizeInstantiate(context, state, type, options) {
  return UncapitalizeAction(instantiate(context, state, type), options);
}
export function UppercaseInstantiate(context, state, type, options) {
  return UppercaseAction(instantiate(context, state, type), options);
}
export function ConstructorParametersInstantiate(context, state, type, options) {
  return ConstructorParametersAction(instantiate(context, state, type), options);
}
export function InstanceTypeInstantiate(context, state, type, options) {
  return InstanceTypeAction(instantiate(context, state, type), options);
}
export function ParametersInstantiate(context, state, type, options) {
  return ParametersAction(instantiate(context, state, type), options);
}
export function ReadonlyObjectInstantiate(context, state, type, options) {
  return ReadonlyObjectAction(instantiate(context, state, type), options);
}
export function ReturnTypeInstantiate(context, state, type, options = {}) {
  return ReturnTypeAction(instantiate(context, state, type), options);
}
export function WithInstantiate(context, state, type, options) {
  return WithAction(instantiate(context, state, type), options);
}
