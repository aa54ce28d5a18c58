// The types TypeBox uses to describe computations rather than values: generic
// parameters, `infer` and `this` placeholders, rest elements, identifiers,
// dependent (if/then/else) types and calls of generics. They carry no
// validation meaning of their own.

import { Unknown } from "../typebox.js";
import { createSchema, discardKeys, isKind } from "./schema-object.js";

// TypeBox picks an overload by argument count alone.
function byArgumentCount(args, overloads) {
  const overload = overloads[args.length];
  if (overload === undefined) throw Error("Invalid Arguments");
  return overload(...args);
}

export function Parameter(...args) {
  const [name, extendsType, equals] = byArgumentCount(args, {
    3: (name, extendsType, equals) => [name, extendsType, equals],
    2: (name, extendsType) => [name, extendsType, extendsType],
    1: (name) => [name, Unknown(), Unknown()],
  });
  return createSchema({ "~kind": "Parameter" }, { name, extends: extendsType, equals }, {});
}

export function Infer(...args) {
  const [name, extendsType] = byArgumentCount(args, {
    2: (name, extendsType) => [name, extendsType],
    1: (name) => [name, Unknown()],
  });
  return createSchema({ "~kind": "Infer" }, { type: "infer", name, extends: extendsType }, {});
}

export function Generic(parameters, expression) {
  return createSchema({ "~kind": "Generic" }, { type: "generic", parameters, expression }, {});
}

export function Identifier(name) {
  return createSchema({ "~kind": "Identifier" }, { name }, {});
}

export function This(options) {
  return createSchema({ "~kind": "This" }, { $ref: "#" }, options);
}

export function Rest(type) {
  return createSchema({ "~kind": "Rest" }, { type: "rest", items: type }, {});
}

/** A Call type as written; `Call` itself would resolve it, which needs the generic engine. */
export function CallConstruct(target, argumentTypes) {
  return createSchema({ "~kind": "Call" }, { type: "call", target, arguments: argumentTypes }, {});
}

export function Dependent(ifType, thenType, elseType, options = {}) {
  return createSchema({ "~kind": "Dependent" }, { if: ifType, then: thenType, else: elseType }, options);
}

export function DependentOptions(type) {
  return discardKeys(type, ["~kind", "if", "then", "else"]);
}

export function IsParameter(value) {
  return isKind(value, "Parameter");
}
export function IsInfer(value) {
  return isKind(value, "Infer");
}
export function IsGeneric(value) {
  return isKind(value, "Generic");
}
export function IsIdentifier(value) {
  return isKind(value, "Identifier");
}
export function IsThis(value) {
  return isKind(value, "This");
}
export function IsRest(value) {
  return isKind(value, "Rest");
}
export function IsCall(value) {
  return isKind(value, "Call");
}
export function IsDependent(value) {
  return isKind(value, "Dependent");
}
