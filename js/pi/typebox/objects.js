// The object-shaping actions as TypeBox computes them: Pick and Omit (by the
// keys an indexer names, from the type collapsed into one object), Partial
// and Required (through unions, intersections, cyclic and dependent types),
// and Record (its key type decides between an object with named properties
// and a pattern-keyed record). Each defers while its operand is a reference.

import { Cyclic, Object as ObjectType, Union } from "../typebox.js";
import { Deferred } from "./deferred.js";
import { EvaluateDependent, EvaluateEnum, EvaluateIntersect, EvaluateTemplateLiteral, Flatten } from "./evaluate.js";
import { CollapseToObject, CyclicTarget, KeysToIndexer, PropertyKeys, indexableKeys } from "./indexed.js";
import { CanInstantiate, instantiate } from "./instantiate.js";
import { AddOptional, RemoveOptional } from "./modifiers.js";
import { actionResult, createSchema, isKind } from "./schema-object.js";
import { IsTemplateLiteralFinite, ParsePatternIntoTypes } from "./template-pattern.js";

/** The keys of the properties that are not optional. */
export function RequiredArray(properties) {
  return PropertyKeys(properties).filter((key) => properties[key]["~optional"] !== true);
}

function toIndexer(indexerOrKeys) {
  return Array.isArray(indexerOrKeys) ? KeysToIndexer(indexerOrKeys) : indexerOrKeys;
}

function selectProperties(type, indexer, keep) {
  const properties = CollapseToObject(type).properties;
  const keys = indexableKeys(indexer);
  const selected = {};
  for (const key of PropertyKeys(properties)) if (keys.includes(key) === keep) selected[key] = properties[key];
  return ObjectType(selected);
}

// --- Pick / Omit ---------------------------------------------------------------------

export function PickDeferred(type, indexer, options = {}) {
  return Deferred("Pick", [type, indexer], options);
}
export function PickAction(type, indexer, options) {
  return CanInstantiate([type, indexer]) ? actionResult(selectProperties(type, indexer, true), options) : PickDeferred(type, indexer, options);
}
export function PickInstantiate(context, state, type, indexer, options) {
  return PickAction(instantiate(context, state, type), instantiate(context, state, indexer), options);
}
export function Pick(type, indexerOrKeys, options = {}) {
  return PickAction(type, toIndexer(indexerOrKeys), options);
}

export function OmitDeferred(type, indexer, options = {}) {
  return Deferred("Omit", [type, indexer], options);
}
export function OmitAction(type, indexer, options) {
  return CanInstantiate([type, indexer]) ? actionResult(selectProperties(type, indexer, false), options) : OmitDeferred(type, indexer, options);
}
export function OmitInstantiate(context, state, type, indexer, options) {
  return OmitAction(instantiate(context, state, type), instantiate(context, state, indexer), options);
}
export function Omit(type, indexerOrKeys, options = {}) {
  return OmitAction(type, toIndexer(indexerOrKeys), options);
}

// --- Partial / Required ------------------------------------------------------------------

function eachProperty(modify) {
  const apply = (type) => {
    if (isKind(type, "Cyclic")) {
      return Cyclic({ ...type.$defs, [type.$ref]: apply(CyclicTarget(type.$defs, type.$ref)) }, type.$ref);
    }
    if (isKind(type, "Dependent")) return apply(EvaluateDependent(type.if, type.then, type.else));
    if (isKind(type, "Intersect")) return apply(EvaluateIntersect(type.allOf));
    if (isKind(type, "Union")) return Union(type.anyOf.map(apply));
    if (isKind(type, "Object")) {
      const properties = {};
      for (const key of PropertyKeys(type.properties)) properties[key] = modify(type.properties[key]);
      return ObjectType(properties);
    }
    return ObjectType({});
  };
  return apply;
}

let partialOf;
let requiredOf;

export function PartialDeferred(type, options = {}) {
  return Deferred("Partial", [type], options);
}
export function PartialAction(type, options) {
  partialOf ??= eachProperty((property) => AddOptional(property));
  return CanInstantiate([type]) ? actionResult(partialOf(type), options) : PartialDeferred(type, options);
}
export function PartialInstantiate(context, state, type, options) {
  return PartialAction(instantiate(context, state, type), options);
}
export function Partial(type, options = {}) {
  return PartialAction(type, options);
}

export function RequiredDeferred(type, options = {}) {
  return Deferred("Required", [type], options);
}
export function RequiredAction(type, options) {
  requiredOf ??= eachProperty((property) => RemoveOptional(property));
  return CanInstantiate([type]) ? actionResult(requiredOf(type), options) : RequiredDeferred(type, options);
}
export function RequiredInstantiate(context, state, type, options) {
  return RequiredAction(instantiate(context, state, type), options);
}
export function Required(type, options = {}) {
  return RequiredAction(type, options);
}

// --- Record ---------------------------------------------------------------------------------

const INTEGER_KEY = "^-?(?:0|[1-9][0-9]*)$";
const NUMBER_KEY = "^-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?$";
const STRING_KEY = "^.*$";

function patternRecord(pattern, value) {
  return createSchema({ "~kind": "Record" }, { type: "object", patternProperties: { [pattern]: value } }, {});
}

function literalKeyObject(key, value) {
  if (typeof key === "string" || typeof key === "number") return ObjectType({ [key]: value });
  if (key === false) return ObjectType({ false: value });
  if (key === true) return ObjectType({ true: value });
  return ObjectType({});
}

// A union of keys is a string-keyed record when any member is string-like,
// else an object of its string and number literals.
function unionKeyRecord(members, value) {
  const flattened = Flatten(members);
  if (flattened.some((member) => isKind(member, "String") || isKind(member, "Number") || isKind(member, "Integer"))) return patternRecord(STRING_KEY, value);
  const properties = {};
  for (const member of flattened) {
    if (isKind(member, "Literal") && (typeof member.const === "string" || typeof member.const === "number")) properties[member.const] = value;
  }
  return ObjectType(properties);
}

// A string key with its own pattern keys the record by that pattern (TypeBox's legacy form).
function stringKeyRecord(key, value) {
  const hasPattern = "pattern" in key && (typeof key.pattern === "string" || key.pattern instanceof RegExp);
  return patternRecord(hasPattern ? key.pattern.toString() : STRING_KEY, value);
}

function templateKeyRecord(pattern, value) {
  return IsTemplateLiteralFinite(ParsePatternIntoTypes(pattern)) ? recordFromKey(EvaluateTemplateLiteral(pattern), value) : patternRecord(pattern, value);
}

function recordFromKey(key, value) {
  if (isKind(key, "Any")) return patternRecord(STRING_KEY, value);
  if (isKind(key, "Boolean")) return ObjectType({ true: value, false: value });
  if (isKind(key, "Enum")) return recordFromKey(EvaluateEnum(key.enum), value);
  if (isKind(key, "Integer")) return patternRecord(INTEGER_KEY, value);
  if (isKind(key, "Intersect")) return recordFromKey(EvaluateIntersect(key.allOf), value);
  if (isKind(key, "Literal")) return literalKeyObject(key.const, value);
  if (isKind(key, "Number")) return patternRecord(NUMBER_KEY, value);
  if (isKind(key, "Union")) return unionKeyRecord(key.anyOf, value);
  if (isKind(key, "String")) return stringKeyRecord(key, value);
  if (isKind(key, "TemplateLiteral")) return templateKeyRecord(key.pattern, value);
  return ObjectType({});
}

export function RecordDeferred(key, value, options = {}) {
  return Deferred("Record", [key, value], options);
}
export function RecordAction(key, value, options) {
  return CanInstantiate([key]) ? actionResult(recordFromKey(key, value), options) : RecordDeferred(key, value, options);
}
export function RecordInstantiate(context, state, key, value, options) {
  return RecordAction(instantiate(context, state, key), instantiate(context, state, value), options);
}
export function Record(key, value, options = {}) {
  return RecordAction(key, value, options);
}
