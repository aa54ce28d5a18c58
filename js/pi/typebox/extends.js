// TypeBox's structural `extends` relation (TypeScript's `L extends R`): the
// answer is a result object, not a boolean, because a check can also bind
// `infer` names (carried in `inferred`) and because `any` on the left makes
// the answer "both" (ExtendsUnion), as it does for TypeScript's conditionals.

import { Any, Array as ArrayType, Intersect, Literal, Object as ObjectType, Record, Tuple, Union, Unknown } from "../typebox.js";
import { Constructor, Function as FunctionType } from "./callable.js";
import { EvaluateEnum, EvaluateIntersect, EvaluateTemplateLiteral } from "./evaluate.js";
import { instantiateElements } from "./instantiate.js";
import { IsInfer, IsRest } from "./instructions.js";
import { RecordKey, RecordValue } from "./options.js";
import { ExtendsFalse, ExtendsTrue, ExtendsUnion, IsExtendsTrueLike, Match } from "./extends-result.js";
import { isKind } from "./schema-object.js";
import * as ExtendsResult from "./extends-result.js";

export { ExtendsResult };

function merged(left, right) {
  return { ...left, ...right };
}

// --- Inference -----------------------------------------------------------------

function inferrable(name, type) {
  return { name, type };
}

// A rest element left after spreading is `...infer R` or `...Ref`; TypeBox
// treats reaching the latter here as an internal error.
function restInferrable(type) {
  if (!IsRest(type)) return undefined;
  if (!IsInfer(type.items)) throw new Error("Unreachable");
  const bound = type.items.extends;
  if (isKind(bound, "Array")) return inferrable(type.items.name, bound.items);
  if (isKind(bound, "Unknown")) return inferrable(type.items.name, bound);
  return undefined;
}

function plainInferrable(type) {
  return IsInfer(type) ? inferrable(type.name, type.extends) : undefined;
}

/** The members that each extend the bound, or undefined when one does not. */
function membersExtending(members, bound) {
  for (const member of members) {
    if (!IsExtendsTrueLike(extendsLeft({}, member, bound))) return undefined;
  }
  return members;
}

function inferAs(build) {
  return (inferred, name, members, bound) => {
    const matched = membersExtending(members, bound);
    return matched === undefined ? ExtendsFalse() : ExtendsTrue(merged(inferred, { [name]: build(matched) }));
  };
}
const inferTuple = inferAs((members) => Tuple(members));
const inferUnion = inferAs((members) => Union(members));

// --- Right-hand side: what a left type that matched nothing specific may still extend

function extendsRight(inferred, left, right) {
  if (isKind(right, "Any") || isKind(right, "Unknown")) return ExtendsTrue(inferred);
  if (isKind(right, "Dependent")) {
    return Match(
      extendsLeft(inferred, left, right.if),
      (bound) => Match(extendsLeft(bound, left, right.then), ExtendsTrue, ExtendsFalse),
      () => Match(extendsLeft(inferred, left, right.else), ExtendsTrue, ExtendsFalse),
    );
  }
  if (isKind(right, "Enum")) return extendsLeft(inferred, left, EvaluateEnum(right.enum));
  if (IsInfer(right)) {
    return Match(
      extendsLeft(inferred, left, right.extends),
      (bound) => ExtendsTrue(merged(merged(inferred, bound), { [right.name]: left })),
      ExtendsFalse,
    );
  }
  if (isKind(right, "Intersect")) {
    let current = inferred;
    for (const member of right.allOf) {
      const result = extendsLeft(current, left, member);
      if (!IsExtendsTrueLike(result)) return ExtendsFalse();
      current = result.inferred;
    }
    return ExtendsTrue(current);
  }
  if (isKind(right, "TemplateLiteral")) return extendsLeft(inferred, left, EvaluateTemplateLiteral(right.pattern));
  if (isKind(right, "Union")) {
    for (const member of right.anyOf) {
      const result = extendsLeft(inferred, left, member);
      if (IsExtendsTrueLike(result)) return ExtendsTrue(result.inferred);
    }
    return ExtendsFalse();
  }
  return ExtendsFalse();
}

// --- Left-hand side by kind ---------------------------------------------------------

/** A primitive kind extends the same kind (and the kinds listed as wider); anything else goes right. */
function primitive(...wider) {
  return (inferred, left, right) => (wider.some((kind) => isKind(right, kind)) ? ExtendsTrue(inferred) : extendsRight(inferred, left, right));
}

function topLike(inferred, left, right, otherwise) {
  if (IsInfer(right)) return extendsRight(inferred, left, right);
  if (isKind(right, "Any") || isKind(right, "Unknown")) return ExtendsTrue(inferred);
  return otherwise();
}

function extendsLiteral(inferred, left, right) {
  const value = left.const;
  const widerKind = { bigint: "BigInt", boolean: "Boolean", number: "Number", string: "String" }[typeof value];
  if (widerKind === undefined) throw new Error("pihost: typebox Extends reached a Literal of an unknown value type");
  if (isKind(right, "Literal")) return value === right.const ? ExtendsTrue(inferred) : ExtendsFalse();
  if (isKind(right, widerKind)) return ExtendsTrue(inferred);
  return extendsRight(inferred, Literal(value), right);
}

// An immutable (readonly) array does not extend a mutable one; everything else may.
function extendsArray(inferred, left, right) {
  if (!isKind(right, "Array")) return extendsRight(inferred, left, right);
  if ("~immutable" in left && !("~immutable" in right)) return ExtendsFalse();
  return extendsLeft(inferred, left.items, right.items);
}

function extendsParameters(inferred, left, right) {
  if (left.length === 0) return ExtendsTrue(inferred);
  const [head, ...leftRest] = left;
  if (right.length === 0) return head["~optional"] === true ? ExtendsTrue(inferred) : ExtendsFalse();
  const [other, ...rightRest] = right;
  if (head["~optional"] !== true && other["~optional"] === true) return ExtendsFalse();
  // Parameters are contravariant: the right one must extend the left one, unless it infers.
  const result = IsInfer(other) ? extendsLeft(inferred, head, other) : extendsLeft(inferred, other, head);
  return Match(result, (bound) => extendsParameters(bound, leftRest, rightRest), ExtendsFalse);
}

function extendsReturn(inferred, left, right) {
  return isKind(right, "Void") ? ExtendsTrue(inferred) : extendsLeft(inferred, left, right);
}

function extendsCallable(kind, resultKey) {
  return (inferred, left, right) => {
    if (isKind(right, "Any") || isKind(right, "Unknown")) return ExtendsTrue(inferred);
    if (!isKind(right, kind)) return ExtendsFalse();
    return Match(extendsParameters(inferred, left.parameters, right.parameters), (bound) => extendsReturn(bound, left[resultKey], right[resultKey]), ExtendsFalse);
  };
}

function extendsProperty(left, right) {
  if (IsInfer(right) && isKind(right.extends, "Never")) return ExtendsFalse();
  return Match(
    extendsLeft({}, left, right),
    (bound) => (left["~optional"] === true && right["~optional"] !== true ? ExtendsFalse() : ExtendsTrue(bound)),
    ExtendsFalse,
  );
}

// Each property is checked on its own (an inferred name inside a property
// shadows an outer one); a property missing on the left is fine when optional.
function extendsProperties(inferred, left, right) {
  const results = [];
  for (const key of Object.getOwnPropertyNames(right)) {
    if (key in left) results.push(extendsProperty(left[key], right[key]));
    else if (right[key]["~optional"] !== true) results.push(ExtendsFalse());
    else if (IsInfer(right[key])) results.push(ExtendsTrue(merged(inferred, { [right[key].name]: right[key].extends })));
    else results.push(ExtendsTrue(inferred));
  }
  if (!results.every(IsExtendsTrueLike)) return ExtendsFalse();
  const gathered = results.reduce((all, result) => ({ ...all, ...result.inferred }), {});
  return ExtendsTrue(merged(inferred, gathered));
}

function mergeRecordInferred(left, right) {
  const result = { ...left };
  for (const key of Object.getOwnPropertyNames(right)) {
    if (!Object.hasOwn(left, key)) result[key] = right[key];
    else if (isKind(result[key], "Union")) result[key] = Union([...result[key].anyOf, right[key]]);
    else result[key] = Union([left[key], right[key]]);
  }
  return result;
}

function extendsObject(inferred, left, right) {
  const properties = left.properties;
  if (isKind(right, "Record")) {
    const value = RecordValue(right);
    let gathered = inferred;
    for (const key of Object.getOwnPropertyNames(properties)) {
      const result = extendsLeft({}, properties[key], value);
      if (!IsExtendsTrueLike(result)) return ExtendsFalse();
      gathered = mergeRecordInferred(gathered, result.inferred);
    }
    return ExtendsTrue(gathered);
  }
  if (isKind(right, "Object")) return extendsProperties(inferred, properties, right.properties);
  return extendsRight(inferred, ObjectType(properties), right);
}

function extendsRecord(inferred, left, right) {
  if (isKind(right, "Record")) {
    // Only the values are compared; the key types do not take part.
    return extendsLeft(inferred, RecordValue(left), RecordValue(right));
  }
  if (isKind(right, "Object")) return Object.getOwnPropertyNames(right.properties).length === 0 ? ExtendsTrue(inferred) : ExtendsFalse();
  if (isKind(right, "Any") || isKind(right, "Unknown")) return ExtendsTrue(inferred);
  return ExtendsFalse();
}

// A leading `...infer R` on the right is matched from the end, so both sides are reversed.
function tupleElements(inferred, reversed, left, right) {
  if (right.length === 0) return left.length === 0 ? ExtendsTrue(inferred) : ExtendsFalse();
  const [head, ...rightRest] = right;
  const rest = restInferrable(head);
  if (rest !== undefined) return inferTuple(inferred, rest.name, reversed ? [...left].reverse() : left, rest.type);
  if (left.length === 0) return ExtendsFalse();
  const [first, ...leftRest] = left;
  return Match(extendsLeft(inferred, first, head), (bound) => tupleElements(bound, reversed, leftRest, rightRest), ExtendsFalse);
}

function extendsTuple(inferred, left, right) {
  const elements = instantiateElements(inferred, left.items);
  if (isKind(right, "Tuple")) {
    const rightElements = instantiateElements(inferred, right.items);
    const reversed = rightElements.length > 0 && restInferrable(rightElements[0]) !== undefined;
    const order = (items) => (reversed ? [...items].reverse() : items);
    return tupleElements(inferred, reversed, order(elements), order(rightElements));
  }
  if (isKind(right, "Array")) {
    const infer = plainInferrable(right.items);
    if (infer !== undefined) return inferUnion(inferred, infer.name, elements, infer.type);
    let current = inferred;
    for (const element of elements) {
      const result = extendsLeft(current, element, right.items);
      if (!IsExtendsTrueLike(result)) return ExtendsFalse();
      current = result.inferred;
    }
    return ExtendsTrue(current);
  }
  return extendsRight(inferred, Tuple(elements), right);
}

function extendsUnionLeft(inferred, left, right) {
  const infer = plainInferrable(right);
  if (infer !== undefined) return inferUnion(inferred, infer.name, left.anyOf, infer.type);
  const targets = isKind(right, "Union") ? right.anyOf : [right];
  let current = inferred;
  // Every left member must extend some right member.
  for (const member of left.anyOf) {
    let matched;
    for (const target of targets) {
      const result = extendsLeft(current, member, target);
      if (IsExtendsTrueLike(result)) {
        matched = result.inferred;
        break;
      }
    }
    if (matched === undefined) return ExtendsFalse();
    current = matched;
  }
  return ExtendsTrue(current);
}

let byLeftKind;
// Built on first use, keeping start-up to definitions only.
function leftKindTable() {
  byLeftKind ??= {
  Any: (inferred, left, right) => topLike(inferred, left, right, () => ExtendsUnion(inferred)),
  Array: extendsArray,
  BigInt: primitive("BigInt"),
  Boolean: primitive("Boolean"),
  Constructor: extendsCallable("Constructor", "instanceType"),
  Dependent: (inferred, left, right) =>
    Match(extendsLeft(inferred, left.if, right), () => extendsLeft(inferred, left.then, right), () => extendsLeft(inferred, left.else, right)),
  Enum: (inferred, left, right) => extendsLeft(inferred, EvaluateEnum(left.enum), right),
  Function: extendsCallable("Function", "returnType"),
  Integer: primitive("Integer", "Number"),
  Intersect: (inferred, left, right) => extendsLeft(inferred, EvaluateIntersect(left.allOf), right),
  Literal: extendsLiteral,
  Never: (inferred, left, right) => (IsInfer(right) ? extendsRight(inferred, left, right) : ExtendsTrue(inferred)),
  Null: primitive("Null"),
  Number: primitive("Number"),
  Object: extendsObject,
  Record: extendsRecord,
  String: primitive("String"),
  Symbol: primitive("Symbol"),
  TemplateLiteral: (inferred, left, right) => extendsLeft(inferred, EvaluateTemplateLiteral(left.pattern), right),
  Tuple: extendsTuple,
  Undefined: primitive("Void", "Undefined"),
  Union: extendsUnionLeft,
  Unknown: (inferred, left, right) => topLike(inferred, left, right, () => ExtendsFalse()),
  Void: primitive("Void"),
  };
  return byLeftKind;
}

export function extendsLeft(inferred, left, right) {
  const kind = typeof left === "object" && left !== null ? left["~kind"] : undefined;
  const table = leftKindTable();
  const check = Object.hasOwn(table, kind) ? table[kind] : undefined;
  return check === undefined ? ExtendsFalse() : check(inferred, left, right);
}

// --- Cyclic types: checked structurally with their self-references as `any` -----

function anyForRefs(type) {
  const walk = anyForRefs;
  if (isKind(type, "Ref")) return Any();
  if (isKind(type, "Array")) return ArrayType(walk(type.items), enumerableOptions(type, ["type", "items"]));
  if (isKind(type, "Constructor")) return Constructor(type.parameters.map(walk), walk(type.instanceType));
  if (isKind(type, "Function")) return FunctionType(type.parameters.map(walk), walk(type.returnType));
  if (isKind(type, "Intersect")) return Intersect(type.allOf.map(walk));
  if (isKind(type, "Object")) {
    const properties = {};
    for (const key of Object.getOwnPropertyNames(type.properties)) properties[key] = walk(type.properties[key]);
    return ObjectType(properties);
  }
  if (isKind(type, "Record")) return Record(RecordKey(type), walk(RecordValue(type)));
  if (isKind(type, "Union")) return Union(type.anyOf.map(walk));
  if (isKind(type, "Tuple")) return Tuple(type.items.map(walk));
  return type;
}

// The rebuilt array keeps the options it had, but not its hidden marks.
function enumerableOptions(type, structural) {
  const options = {};
  for (const key of Object.keys(type)) if (!structural.includes(key)) options[key] = type[key];
  return options;
}

export function CyclicExtends(type) {
  return type.$ref in type.$defs ? anyForRefs(type.$defs[type.$ref]) : Unknown();
}

function canonical(type) {
  if (isKind(type, "Cyclic")) return CyclicExtends(type);
  if (typeof type === "object" && type !== null && Object.hasOwn(type, "~unsafe")) return Unknown();
  return type;
}

/** Whether `left extends right`, structurally, with `inferred` holding names bound so far. */
export function Extends(inferred, left, right) {
  return extendsLeft(inferred, canonical(left), canonical(right));
}
