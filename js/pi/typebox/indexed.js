// Indexed access (`T[K]`) and `keyof T` as TypeBox computes them. Both first
// collapse unions, intersections, cyclic and dependent types into one object
// (a union keeps only the properties all members share); arrays and tuples
// are indexed by number, objects by the property keys the indexer names.

import { Array as ArrayType, Integer, Intersect, Literal, Never, Number as NumberType, Object as ObjectType, String as StringType, Symbol as SymbolType, Tuple, Union } from "../typebox.js";
import { Constructor, Function as FunctionType } from "./callable.js";
import { Deferred } from "./deferred.js";
import { EvaluateDependent, EvaluateEnum, EvaluateIntersect, EvaluateTemplateLiteral, EvaluateUnion, EvaluateUnionFast } from "./evaluate.js";
import { Extends } from "./extends.js";
import { IsExtendsTrueLike } from "./extends-result.js";
import { CanInstantiate, instantiate } from "./instantiate.js";
import { RecordKey } from "./options.js";
import { actionResult, isKind } from "./schema-object.js";

const INTEGER_KEY = /^-?(?:0|[1-9][0-9]*)$/;
const UNSIGNED_INTEGER_KEY = /^(?:0|[1-9][0-9]*)$/;

/** A key that spells a non-negative integer becomes that number, as TypeScript reads tuple keys. */
export function ConvertToIntegerKey(value) {
  const text = `${value}`;
  return UNSIGNED_INTEGER_KEY.test(text) ? globalThis.parseInt(text) : value;
}

export function PropertyKeys(properties) {
  return Object.getOwnPropertyNames(properties);
}
export function PropertyValues(properties) {
  return Object.values(properties);
}

function isLiteralValue(value) {
  return ["string", "number", "boolean", "bigint"].includes(typeof value);
}

/** Property keys as the union of their literal types (the form Index takes them in). */
export function KeysToIndexer(keys) {
  return Union(keys.filter(isLiteralValue).map((key) => Literal(key)));
}

/** The type a cyclic type's reference names, following references between definitions. */
export function CyclicTarget(defs, ref) {
  if (!(ref in defs)) return Never();
  return isKind(defs[ref], "Ref") ? CyclicTarget(defs, defs[ref].$ref) : defs[ref];
}

// --- Collapsing a type into one object's properties -------------------------------

// TypeBox asks `key in object`, except for keys that reach the prototype.
function has(object, key) {
  return key === "__proto__" || key === "constructor" || key === "prototype" ? Object.hasOwn(object, key) : key in object;
}

function intersectProperties(left, right) {
  const result = {};
  for (const key of PropertyKeys(left)) if (!has(right, key)) result[key] = left[key];
  for (const key of PropertyKeys(right)) if (!has(left, key)) result[key] = right[key];
  for (const key of PropertyKeys(left)) if (has(right, key)) result[key] = EvaluateIntersect([left[key], right[key]]);
  return result;
}

function unionProperties(left, right) {
  const result = {};
  for (const key of PropertyKeys(left)) if (key in right) result[key] = EvaluateUnion([left[key], right[key]]);
  return result;
}

function tupleAsProperties(items) {
  const properties = {};
  items.forEach((item, index) => (properties[index] = item));
  return properties;
}

function propertiesOf(type) {
  if (isKind(type, "Cyclic")) return propertiesOf(CyclicTarget(type.$defs, type.$ref));
  if (isKind(type, "Dependent")) return propertiesOf(EvaluateDependent(type.if, type.then, type.else));
  if (isKind(type, "Intersect")) return type.allOf.reduce((result, member) => intersectProperties(result, propertiesOf(member)), {});
  if (isKind(type, "Union")) {
    // TypeBox's own message for this case it deems impossible.
    if (type.anyOf.length === 0) throw new Error("Unreachable");
    return type.anyOf.slice(1).reduce((result, member) => unionProperties(result, propertiesOf(member)), propertiesOf(type.anyOf[0]));
  }
  if (isKind(type, "Tuple")) return tupleAsProperties(type.items);
  if (isKind(type, "Object")) return type.properties;
  return {};
}

/** The object a type stands for when its properties are what matter; {} when none. */
export function CollapseToObject(type) {
  return ObjectType(propertiesOf(type));
}

function needsCollapse(type) {
  return isKind(type, "Cyclic") || isKind(type, "Dependent") || isKind(type, "Intersect") || isKind(type, "Union");
}

// --- The property keys an indexer names ------------------------------------------

export function indexableKeys(type) {
  if (isKind(type, "Cyclic")) return indexableKeys(CyclicTarget(type.$defs, type.$ref));
  if (isKind(type, "Dependent")) return indexableKeys(EvaluateDependent(type.if, type.then, type.else));
  if (isKind(type, "Enum")) return indexableKeys(EvaluateEnum(type.enum));
  if (isKind(type, "Intersect")) return indexableKeys(EvaluateIntersect(type.allOf));
  if (isKind(type, "Literal")) return [`${type.const}`];
  if (isKind(type, "TemplateLiteral")) return indexableKeys(EvaluateTemplateLiteral(type.pattern));
  if (isKind(type, "Union")) return type.anyOf.flatMap(indexableKeys);
  return [];
}

// `this` inside a selected property means the object it was selected from.
function expandThis(properties, type) {
  const walk = (inner) => expandThis(properties, inner);
  if (isKind(type, "Array")) return ArrayType(walk(type.items));
  if (isKind(type, "Constructor")) return Constructor(type.parameters.map(walk), walk(type.instanceType));
  if (isKind(type, "Function")) return FunctionType(type.parameters.map(walk), walk(type.returnType));
  if (isKind(type, "Tuple")) return Tuple(type.items.map(walk));
  if (isKind(type, "Union")) return Union(type.anyOf.map(walk));
  if (isKind(type, "Intersect")) return Intersect(type.allOf.map(walk));
  if (isKind(type, "This")) return ObjectType(properties);
  return type;
}

function selectProperties(properties, keys) {
  return keys.map((key) => expandThis(properties, key in properties ? properties[key] : Never()));
}

// --- Index -------------------------------------------------------------------------

// Integer-like string literals index arrays and tuples as the numbers they spell.
function numericIndexer(type) {
  if (isKind(type, "Intersect")) return Intersect(type.allOf.map(numericIndexer));
  if (isKind(type, "Union")) return Union(type.anyOf.map(numericIndexer));
  if (isKind(type, "Literal")) return Literal(ConvertToIntegerKey(type.const));
  return type;
}

function isLengthKey(indexer) {
  return isKind(indexer, "Literal") && indexer.const === "length";
}

function indexArray(items, indexer) {
  if (IsExtendsTrueLike(Extends({}, numericIndexer(indexer), NumberType()))) return items;
  return isLengthKey(indexer) ? NumberType() : Never();
}

function indexTuple(items, indexer) {
  if (isLengthKey(indexer)) return Literal(items.length);
  if (isKind(indexer, "Number") || isKind(indexer, "Integer")) return EvaluateUnionFast(items);
  const numeric = numericIndexer(indexer);
  return EvaluateUnionFast(items.filter((_, index) => IsExtendsTrueLike(Extends({}, Literal(index), numeric))));
}

function indexObject(properties, indexer) {
  const keys = isKind(indexer, "Number") ? PropertyKeys(properties).filter((key) => INTEGER_KEY.test(key)) : indexableKeys(indexer);
  return EvaluateUnion(selectProperties(properties, keys));
}

function indexType(type, indexer) {
  if (isKind(type, "Array")) return indexArray(type.items, indexer);
  if (isKind(type, "Object")) return indexObject(type.properties, indexer);
  if (isKind(type, "Tuple")) return indexTuple(type.items, indexer);
  return Never();
}

export function IndexDeferred(type, indexer, options = {}) {
  return Deferred("Index", [type, indexer], options);
}
export function IndexAction(type, indexer, options) {
  if (!CanInstantiate([type, indexer])) return IndexDeferred(type, indexer, options);
  return actionResult(indexType(needsCollapse(type) ? CollapseToObject(type) : type, indexer), options);
}
export function IndexInstantiate(context, state, type, indexer, options) {
  return IndexAction(instantiate(context, state, type), instantiate(context, state, indexer), options);
}
/** `type[indexer]`; the indexer may also be a list of property keys. */
export function Index(type, indexerOrKeys, options = {}) {
  const indexer = Array.isArray(indexerOrKeys) ? KeysToIndexer(indexerOrKeys) : indexerOrKeys;
  return IndexAction(type, indexer, options);
}

// --- KeyOf -------------------------------------------------------------------------

function keyOfType(type) {
  if (isKind(type, "Any")) return Union([NumberType(), StringType(), SymbolType()]);
  if (isKind(type, "Array")) return NumberType();
  if (isKind(type, "Object")) {
    return EvaluateUnionFast(
      PropertyKeys(type.properties).map((key) => {
        if (!isLiteralValue(key)) throw new Error("Unreachable");
        return Literal(ConvertToIntegerKey(key));
      }),
    );
  }
  if (isKind(type, "Record")) return RecordKey(type);
  if (isKind(type, "Tuple")) return EvaluateUnionFast(type.items.map((_, index) => Literal(index)));
  return Never();
}

export function KeyOfDeferred(type, options = {}) {
  return Deferred("KeyOf", [type], options);
}
export function KeyOfAction(type, options) {
  if (!CanInstantiate([type])) return KeyOfDeferred(type, options);
  return actionResult(keyOfType(needsCollapse(type) ? CollapseToObject(type) : type), options);
}
export function KeyOfInstantiate(context, state, type, options) {
  return KeyOfAction(instantiate(context, state, type), options);
}
export function KeyOf(type, options = {}) {
  return KeyOfAction(type, options);
}
