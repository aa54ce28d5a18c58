// Value.Repair: TypeBox's migration helper. A value that almost matches a
// type is brought into line: missing properties and elements are created,
// out-of-range arrays trimmed or padded, mismatched leaves converted or
// replaced with created values, and union members chosen by how well they
// fit. The result must then pass the type, or Repair throws.

import { Array as ArrayType, ArrayOptions, Intersect, Object as ObjectType, Record, RecordKey, RecordPattern, RecordValue, Tuple, Union } from "../typebox.js";
import { Evaluate, Flatten, Priority } from "./evaluate.js";
import { Instantiate } from "./instantiate.js";
import { IsRefine } from "./refine.js";
import { isKind } from "./schema-object.js";
import { TemplateLiteralDecode } from "./template-pattern.js";
import { Assert, Check, Clone, Convert, Create } from "./value.js";
import { Hash } from "./hash.js";

class RepairError extends Error {
  constructor(context, type, value, message) {
    super(message);
    this.context = context;
    this.type = type;
    this.value = value;
  }
}

function isObjectValue(value) {
  return typeof value === "object" && value !== null;
}

function hasKey(object, key) {
  return key === "__proto__" || key === "constructor" || key === "prototype" ? Object.hasOwn(object, key) : key in object;
}

function isSchemaLike(value) {
  return (isObjectValue(value) && !Array.isArray(value)) || typeof value === "boolean";
}

// --- Union variant choice and ordering ------------------------------------------------

function deref(context, type) {
  if (!isKind(type, "Ref")) return type;
  if (!hasKey(context, type.$ref)) throw new Error("Unable to Deref target");
  return deref(context, context[type.$ref]);
}

// Only objects can be scored: a matching literal property weighs most, then
// a property that checks, then one that is merely present.
function variantScore(context, type, value) {
  if (!isKind(type, "Object") || !isObjectValue(value)) return 0;
  const keys = Object.getOwnPropertyNames(value);
  let score = 0;
  for (const [key, property] of Object.entries(type.properties)) {
    if (isKind(property, "Literal") && property.const === value[key]) score += 100;
    if (Check(context, property, value[key])) score += 10;
    if (keys.includes(key)) score += 1;
  }
  return score;
}

/** The union member the value fits best (the first one when none scores). */
export function UnionScoreSelect(context, type, value) {
  const variants = type.anyOf.map((variant) => deref(context, variant));
  let [selected, best] = [variants[0], 0];
  for (const variant of variants) {
    const score = variantScore(context, variant, value);
    if (score > best) [selected, best] = [variant, score];
  }
  return selected;
}

// The rebuilt type keeps every key of the original it did not set itself.
function keepOriginalKeys(type, next) {
  for (const key of Object.getOwnPropertyNames(type)) {
    if (!hasKey(next, key)) next[key] = type[key];
  }
  return next;
}

function sortType(type) {
  let next;
  if (isKind(type, "Array")) next = ArrayType(sortType(type.items), ArrayOptions(type));
  else if (isKind(type, "Intersect")) next = Intersect(type.allOf.map(sortType));
  else if (isKind(type, "Union")) next = Union(Priority(type.anyOf).map(sortType));
  else if (isKind(type, "Object")) {
    const properties = {};
    for (const key of Object.getOwnPropertyNames(type.properties)) properties[key] = sortType(type.properties[key]);
    next = ObjectType(properties);
  } else if (isKind(type, "Record")) next = Record(RecordKey(type), sortType(RecordValue(type)));
  else if (isKind(type, "Tuple")) next = Tuple(type.items.map(sortType));
  else next = type;
  return keepOriginalKeys(type, next);
}

/** The type with every union's members in Priority order. */
export function UnionPrioritySort(type) {
  return sortType(type);
}

// --- Repair by kind ----------------------------------------------------------------------

function uniqueByHash(values) {
  const seen = new Set();
  return values.filter((value) => {
    const hash = Hash(value);
    if (seen.has(hash)) return false;
    seen.add(hash);
    return true;
  });
}

function repairArray(context, type, value) {
  if (Check(context, type, value)) return value;
  let items = Array.isArray(value) ? value : Create(context, type);
  if (typeof type.minItems === "number" && items.length < type.minItems) {
    items = [...items, ...Array.from({ length: type.minItems - items.length }, () => Create(context, type))];
  }
  if (typeof type.maxItems === "number" && items.length > type.maxItems) items = items.slice(0, type.maxItems);
  const repaired = items.map((item) => repairType(context, type.items, item));
  if (type.uniqueItems !== true) return repaired;
  const unique = uniqueByHash(repaired);
  if (!Check(context, type, unique)) throw new RepairError(context, type, value, "Failed to repair Array due to uniqueItems constraint");
  return unique;
}

function repairObject(context, type, value) {
  if (Check(context, type, value)) return value;
  if (!isObjectValue(value) || Array.isArray(value)) return Create(context, type);
  const required = new Set(type.required ?? []);
  const result = {};
  for (const [key, property] of Object.entries(type.properties)) {
    if (!required.has(key) && value[key] === undefined) continue;
    result[key] = key in value ? repairType(context, property, value[key]) : Create(context, property);
  }
  const known = Object.getOwnPropertyNames(type.properties);
  if (hasKey(type, "additionalProperties") && isSchemaLike(type.additionalProperties) && isObjectValue(type.additionalProperties)) {
    for (const key of Object.getOwnPropertyNames(value)) {
      if (!known.includes(key)) result[key] = repairType(context, type.additionalProperties, value[key]);
    }
  }
  return result;
}

function repairRecord(context, type, value) {
  if (Check(context, type, value)) return value;
  if (!isObjectValue(value) || Array.isArray(value)) return Create(context, type);
  const keyPattern = new RegExp(RecordPattern(type));
  const itemType = RecordValue(type);
  const matched = new Set();
  const result = {};
  for (const [key, item] of Object.entries(value)) {
    if (!keyPattern.test(key)) continue;
    result[key] = repairType(context, itemType, item);
    matched.add(key);
  }
  if (hasKey(type, "additionalProperties") && isSchemaLike(type.additionalProperties)) {
    for (const key of Object.getOwnPropertyNames(value)) {
      if (!matched.has(key)) result[key] = repairType(context, type.additionalProperties, value[key]);
    }
  }
  return result;
}

function repairTuple(context, type, value) {
  if (Check(context, type, value)) return value;
  if (!Array.isArray(value)) return Create(context, type);
  return type.items.map((item, index) => repairType(context, item, value[index]));
}

function repairUnion(context, type, value) {
  if (Check(context, type, value)) return Clone(value);
  if (hasKey(type, "default")) return Create(context, type);
  const chosen = UnionScoreSelect(context, Union(Flatten(type.anyOf)), value);
  return repairType(context, chosen, value);
}

function repairRef(context, type, value) {
  if (!hasKey(context, type.$ref)) throw new RepairError(context, type, value, "Unable to de-reference target type");
  return repairType(context, context[type.$ref], value);
}

// Leaves: keep a matching value, else try converting it, else create one.
function repairLeaf(context, type, value) {
  if (Check(context, type, value)) return value;
  const converted = Convert(context, type, value);
  return Check(context, type, converted) ? converted : Create(context, type);
}

function isUnrepairableValue(value) {
  return value instanceof Date || value instanceof Map || value instanceof Set || ArrayBuffer.isView(value) || typeof value === "function";
}

function repairType(context, type, value) {
  if (isUnrepairableValue(value)) throw new RepairError(context, type, value, "Value is not repairable");
  if (isKind(type, "Constructor") || isKind(type, "Function") || isKind(type, "Never")) throw new RepairError(context, type, value, "Type is not repairable");
  const candidate = value === undefined && !isKind(type, "Undefined") ? Create(context, type) : value;
  let repaired;
  if (isKind(type, "Array")) repaired = repairArray(context, type, candidate);
  else if (isKind(type, "Enum")) repaired = repairType(context, Evaluate(type), candidate);
  else if (isKind(type, "Intersect")) repaired = repairType(context, Evaluate(Instantiate(context, type)), candidate);
  else if (isKind(type, "Object")) repaired = repairObject(context, type, candidate);
  else if (isKind(type, "Record")) repaired = repairRecord(context, type, candidate);
  else if (isKind(type, "Ref")) repaired = repairRef(context, type, candidate);
  else if (isKind(type, "TemplateLiteral")) repaired = repairType(context, TemplateLiteralDecode(type.pattern), candidate);
  else if (isKind(type, "Tuple")) repaired = repairTuple(context, type, candidate);
  else if (isKind(type, "Union")) repaired = repairUnion(context, type, candidate);
  else repaired = repairLeaf(context, type, candidate);
  // A refined type must also pass its refinements, or it is created afresh.
  if (IsRefine(type)) return Check(context, type, repaired) ? repaired : Create(context, type);
  return repaired;
}

/** The value brought into line with the type; throws when it cannot be. */
export function Repair(...args) {
  let context, type, value;
  if (args.length === 3) [context, type, value] = args;
  else if (args.length === 2) [context, type, value] = [{}, ...args];
  else throw Error("Invalid Arguments");
  const repaired = repairType(context, type, value);
  Assert(context, type, repaired);
  return repaired;
}
