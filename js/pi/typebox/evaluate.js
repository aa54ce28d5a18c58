// TypeBox's type evaluation: unions and intersections reduced the way
// TypeScript displays them. An intersection is distributed over its union
// members and each pair narrowed (objects and tuples merge, a type inside
// another keeps the narrower one, disjoint types give never); a union is
// broadened (members inside another member are dropped, never disappears,
// any and unknown swallow everything).

import { Literal, Never, Object as ObjectType, Union } from "../typebox.js";
import { ExcludeOperation } from "./conditional.js";
import { Extends } from "./extends.js";
import { IsExtendsFalse, IsExtendsTrueLike } from "./extends-result.js";
import { Deferred } from "./deferred.js";
import { instantiate } from "./instantiate.js";
import { AddOptional, AddReadonly, RemoveOptional, RemoveReadonly } from "./modifiers.js";
import { actionResult, isKind } from "./schema-object.js";
import { TemplateLiteralDecode } from "./template-pattern.js";

export const CompareResultEqual = 0;
export const CompareResultDisjoint = 1;
export const CompareResultLeftInside = 2;
export const CompareResultRightInside = 3;

/** How two types relate as sets: equal, one inside the other, or disjoint. */
export function Compare(left, right) {
  const leftInRight = Extends({}, left, right);
  const rightInLeft = Extends({}, right, left);
  if (IsExtendsTrueLike(leftInRight) && IsExtendsTrueLike(rightInLeft)) return CompareResultEqual;
  if (IsExtendsTrueLike(leftInRight) && IsExtendsFalse(rightInLeft)) return CompareResultLeftInside;
  if (IsExtendsFalse(leftInRight) && IsExtendsTrueLike(rightInLeft)) return CompareResultRightInside;
  return CompareResultDisjoint;
}

/** Union members in place of their unions, recursively. */
export function Flatten(types) {
  return types.flatMap((type) => (isKind(type, "Union") ? Flatten(type.anyOf) : [type]));
}

// Adds a type to a set of non-overlapping types: when the set already covers
// it the set is unchanged; members it covers make way for it.
function broadenInto(type, set) {
  const kept = [];
  for (const member of set) {
    const relation = Compare(type, member);
    if (relation === CompareResultLeftInside || relation === CompareResultEqual) return set;
    if (relation === CompareResultDisjoint) kept.push(member);
  }
  return [...kept, type];
}

/** The broadest types of a set: the most general one, or the disjoint ones left. */
export function Broaden(types) {
  let result = [];
  for (const type of types) {
    const evaluated = EvaluateType(type);
    if (isKind(evaluated, "Any") || isKind(evaluated, "Unknown")) return Flatten([evaluated]);
    if (isKind(evaluated, "Never")) continue;
    // Objects are kept as they are: comparing them would be too costly.
    result = isKind(evaluated, "Object") ? [...result, evaluated] : broadenInto(evaluated, result);
  }
  return Flatten(result);
}

export function CanComposite(type) {
  return isKind(type, "Object") || isKind(type, "Tuple");
}

function compositeProperty(left, right) {
  const readonly = left["~readonly"] === true && right["~readonly"] === true;
  const optional = left["~optional"] === true && right["~optional"] === true;
  const property = RemoveReadonly(RemoveOptional(EvaluateIntersect([left, right])));
  const withOptional = optional ? AddOptional(property) : property;
  return readonly ? AddReadonly(withOptional) : withOptional;
}

function tupleProperties(items) {
  const properties = {};
  items.forEach((item, index) => (properties[index] = item));
  return properties;
}

function compositeParts(type) {
  if (isKind(type, "Object")) return type.properties;
  if (isKind(type, "Tuple")) return tupleProperties(type.items);
  return {};
}

/** Two object-like types merged into one object, shared properties intersected. */
export function Composite(left, right) {
  const leftProperties = compositeParts(left);
  const rightProperties = compositeParts(right);
  const keys = new Set([...Object.getOwnPropertyNames(leftProperties), ...Object.getOwnPropertyNames(rightProperties)]);
  const properties = {};
  for (const key of keys) {
    const inLeft = key in leftProperties;
    const inRight = key in rightProperties;
    properties[key] = inLeft && inRight ? compositeProperty(leftProperties[key], rightProperties[key]) : inLeft ? leftProperties[key] : inRight ? rightProperties[key] : Never();
  }
  return ObjectType(properties);
}

function narrowByComparison(left, right) {
  const relation = Compare(left, right);
  if (relation === CompareResultLeftInside) return left;
  if (relation === CompareResultRightInside || relation === CompareResultEqual) return right;
  return Never();
}

/** The intersection of two non-union types. */
export function Narrow(left, right) {
  if (isKind(left, "Never") || isKind(left, "Any")) return left;
  if (isKind(left, "Unknown")) return right;
  if (isKind(right, "Never") || isKind(right, "Any")) return right;
  if (isKind(right, "Unknown")) return left;
  const leftComposes = CanComposite(left);
  const rightComposes = CanComposite(right);
  if (leftComposes && rightComposes) return Composite(left, right);
  if (leftComposes) return left;
  if (rightComposes) return right;
  return narrowByComparison(left, right);
}

function distributePair(left, right) {
  const evaluatedLeft = EvaluateType(left);
  const evaluatedRight = EvaluateType(right);
  const eitherUnion = isKind(evaluatedLeft, "Union") || isKind(evaluatedRight, "Union");
  return eitherUnion ? EvaluateIntersect([evaluatedLeft, evaluatedRight]) : Narrow(evaluatedLeft, evaluatedRight);
}

function distributeOne(type, distribution) {
  return distribution.length === 0 ? [type] : distribution.map((existing) => distributePair(existing, type));
}

/** An intersection's members multiplied out over the union members among them. */
export function Distribute(types, distribution = []) {
  let result = distribution;
  for (const type of types) {
    result = isKind(type, "Union") ? type.anyOf.flatMap((member) => Distribute([member], result)) : distributeOne(type, result);
  }
  return result;
}

export function EvaluateUnionFast(types) {
  if (types.length === 1) return types[0];
  if (types.length === 0) return Never();
  return Union(types);
}

export function EvaluateUnion(types) {
  return EvaluateUnionFast(Broaden(types));
}

export function EvaluateIntersect(types) {
  return EvaluateUnion(Broaden(Distribute(types)));
}

export function EvaluateEnum(values) {
  return EvaluateUnion(values.map((value) => Literal(value)));
}

export function EvaluateTemplateLiteral(pattern) {
  return EvaluateType(TemplateLiteralDecode(pattern));
}

/** `if ? then : else` as a type: (if & then) | (else minus if). */
export function EvaluateDependent(ifType, thenType, elseType) {
  return EvaluateUnion([EvaluateIntersect([ifType, thenType]), ExcludeOperation(elseType, ifType)]);
}

export function EvaluateType(type) {
  if (isKind(type, "Dependent")) return EvaluateDependent(type.if, type.then, type.else);
  if (isKind(type, "Enum")) return EvaluateEnum(type.enum);
  if (isKind(type, "Intersect")) return EvaluateIntersect(type.allOf);
  if (isKind(type, "TemplateLiteral")) return EvaluateTemplateLiteral(type.pattern);
  if (isKind(type, "Union")) return EvaluateUnion(type.anyOf);
  return type;
}

export function EvaluateAction(type, options) {
  return actionResult(EvaluateType(type), options);
}
export function EvaluateInstantiate(context, state, type, options) {
  return EvaluateAction(instantiate(context, state, type), options);
}
export function EvaluateDeferred(type, options = {}) {
  return Deferred("Evaluate", [type], options);
}
export function Evaluate(type, options = {}) {
  return EvaluateAction(type, options);
}

/** Types ordered narrowest first, so a union tries its most specific members before broader ones. */
export function Priority(types) {
  const sorted = [];
  for (const type of types) {
    // Step past the members this one is not inside of; it goes before the first it is inside of.
    let index = 0;
    while (index < sorted.length) {
      const relation = Compare(type, sorted[index]);
      if (relation !== CompareResultRightInside && relation !== CompareResultDisjoint) break;
      index++;
    }
    sorted.splice(index, 0, type);
  }
  return sorted;
}
