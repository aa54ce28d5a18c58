// What TypeBox calls a type's options: everything but the keys that make up
// the type itself (its kind, `type`, members). They are what a rebuilt type
// carries over from the one it replaces.

import { Integer, Number, String } from "../typebox.js";
import { createSchema, discardKeys } from "./schema-object.js";
import { TemplateLiteralDecodeUnsafe } from "./template-pattern.js";

export function ArrayOptions(type) {
  return discardKeys(type, ["~kind", "type", "items"]);
}
export function CyclicOptions(type) {
  return discardKeys(type, ["~kind", "$defs", "$ref"]);
}
export function IntersectOptions(type) {
  return discardKeys(type, ["~kind", "allOf"]);
}
export function ObjectOptions(type) {
  return discardKeys(type, ["~kind", "type", "properties", "required"]);
}
export function RecordOptions(type) {
  return discardKeys(type, ["~kind", "type", "patternProperties"]);
}
export function TupleOptions(type) {
  return discardKeys(type, ["~kind", "type", "items", "minItems", "additionalItems"]);
}
export function UnionOptions(type) {
  return discardKeys(type, ["~kind", "anyOf"]);
}

// Records keep their key type as a single pattern property.
export function RecordPattern(type) {
  return Object.getOwnPropertyNames(type.patternProperties)[0];
}
export function RecordValue(type) {
  return type.patternProperties[RecordPattern(type)];
}
export function RecordFromPattern(pattern, value) {
  return createSchema({ "~kind": "Record" }, { type: "object", patternProperties: { [pattern]: value } }, {});
}
export function RecordPatternToType(pattern) {
  if (pattern === "^.*$") return String();
  if (pattern === "^-?(?:0|[1-9][0-9]*)$") return Integer();
  if (pattern === "^-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?$") return Number();
  return TemplateLiteralDecodeUnsafe(pattern);
}
export function RecordKey(type) {
  return RecordPatternToType(RecordPattern(type));
}
