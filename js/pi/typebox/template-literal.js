// TemplateLiteral types: a sequence of types (literal text, string, number,
// unions of literals, other template literals…) encoded as one anchored
// regular expression. The string form `a${string}b` is read with Script's
// TypeScript type syntax inside `${…}`. Both defer while a part is a
// reference.

import { BigIntPattern, IntegerPattern, Literal, NeverPattern, NumberPattern, StringPattern, Union } from "../typebox.js";
import { Deferred } from "./deferred.js";
import { EvaluateEnum } from "./evaluate.js";
import { CanInstantiate, instantiate } from "./instantiate.js";
import { isKind, updateSchema } from "./schema-object.js";
import { templateTypes } from "./script.js";
import { TemplateLiteralCreate } from "./template-pattern.js";

export function TemplateLiteralDeferred(types, options = {}) {
  return Deferred("TemplateLiteral", [types], options);
}

export function IsTemplateLiteralDeferred(value) {
  return typeof value === "object" && value !== null && "action" in value && value.action === "TemplateLiteral";
}

// --- Encoding types into a pattern -------------------------------------------------------

// A part TypeBox cannot spell (null, symbol, objects…) stands for no string
// at all: it turns the whole sequence it is in into the never pattern.
function encodePart(type) {
  if (isKind(type, "Enum")) return encodePart(EvaluateEnum(type.enum));
  if (isKind(type, "Integer")) return IntegerPattern;
  if (isKind(type, "Literal")) return `${type.const}`;
  if (isKind(type, "BigInt")) return BigIntPattern;
  if (isKind(type, "Boolean")) return encodePart(Union([Literal("false"), Literal("true")]));
  if (isKind(type, "Number")) return NumberPattern;
  if (isKind(type, "String")) return StringPattern;
  if (isKind(type, "TemplateLiteral")) return type.pattern.slice(1, type.pattern.length - 1);
  if (IsTemplateLiteralDeferred(type)) return encodePart(TemplateLiteralAction(type.parameters[0], {}));
  if (isKind(type, "Union")) return `(${type.anyOf.map((member) => encodePart(member) ?? NeverPattern).join("|")})`;
  return null;
}

function encodeSequence(types) {
  const parts = [];
  for (const type of types) {
    const part = encodePart(type);
    if (part === null) return NeverPattern;
    parts.push(part);
  }
  return parts.join("");
}

/** The TemplateLiteral type whose pattern spells the types in sequence. */
export function TemplateLiteralEncode(types) {
  return TemplateLiteralCreate(`^${encodeSequence(types)}$`);
}

export function TemplateLiteralAction(types, options) {
  return CanInstantiate(types) ? updateSchema(TemplateLiteralEncode(types), {}, options) : TemplateLiteralDeferred(types, options);
}
export function TemplateLiteralInstantiate(context, state, types, options) {
  return TemplateLiteralAction(
    types.map((type) => instantiate(context, state, type)),
    options,
  );
}

/** The types a template string (without its backquotes) is made of. */
export function ParseTemplateIntoTypes(template) {
  const parsed = templateTypes(`\`${template}\``);
  // TypeBox treats a template it cannot read as an internal error.
  if (parsed === undefined) throw new Error("Unreachable");
  return parsed[0];
}

export function TemplateLiteralFromTypes(types) {
  return TemplateLiteralAction(types, {});
}
export function TemplateLiteralFromString(template) {
  return TemplateLiteralFromTypes(ParseTemplateIntoTypes(template));
}

export function TemplateLiteral(input, options = {}) {
  const type = typeof input === "string" ? TemplateLiteralFromString(input) : TemplateLiteralFromTypes(input);
  return updateSchema(type, {}, options);
}
