// TemplateLiteral types: a sequence of types (literal text, string, number,
// unions of literals, other template literals…) encoded as one anchored
// regular expression. The string form `a${string}b` is read with TypeScript
// type syntax inside `${…}`; pihost reads the part of that syntax templates
// use (keywords, literals, names, unions, intersections, parentheses, nested
// templates) and says so for anything else. Both defer while a part is a
// reference.

import { BigIntPattern, IntegerPattern, Literal, NeverPattern, NumberPattern, Ref, StringPattern, Union } from "../typebox.js";
import {
  Any,
  BigInt as BigIntType,
  Boolean as BooleanType,
  Integer,
  Intersect,
  Never,
  Null,
  Number as NumberType,
  Object as ObjectType,
  String as StringType,
  Symbol as SymbolType,
  Undefined,
  Unknown,
  Void,
} from "../typebox.js";
import { Deferred } from "./deferred.js";
import { EvaluateEnum } from "./evaluate.js";
import { This } from "./instructions.js";
import { CanInstantiate, instantiate } from "./instantiate.js";
import { isKind, updateSchema } from "./schema-object.js";
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

// --- Reading the string form -----------------------------------------------------------

class TemplateSyntaxUnsupported extends Error {}

function skipBlanks(input) {
  const trimmed = input.trimStart();
  if (trimmed.startsWith("/*")) {
    const end = trimmed.indexOf("*/", 2);
    return skipBlanks(end === -1 ? "" : trimmed.slice(end + 2));
  }
  if (trimmed.startsWith("//")) {
    const end = trimmed.indexOf("\n", 2);
    return skipBlanks(end === -1 ? "" : trimmed.slice(end));
  }
  return trimmed;
}

function token(text, input) {
  const rest = skipBlanks(input);
  return rest.startsWith(text) ? rest.slice(text.length) : undefined;
}

const KEYWORDS = [
  ["string", () => StringType()],
  ["number", () => NumberType()],
  ["boolean", () => BooleanType()],
  ["undefined", () => Undefined()],
  ["null", () => Null()],
  ["integer", () => Integer()],
  ["bigint", () => BigIntType()],
  ["unknown", () => Unknown()],
  ["any", () => Any()],
  ["object", () => ObjectType({})],
  ["never", () => Never()],
  ["symbol", () => SymbolType()],
  ["void", () => Void()],
  ["this", () => This()],
];

const NUMBER_TOKEN = /^-?(?:(?:0|[1-9][0-9_]*)(?:\.[0-9_]+)?|\.[0-9_]+)/;
const BIGINT_TOKEN = /^-?(?:0|[1-9][0-9_]*)n/;
const IDENT_TOKEN = /^[A-Za-z_$][A-Za-z0-9_$]*/;

function unsupported(input) {
  throw new TemplateSyntaxUnsupported(`pihost: typebox TemplateLiteral type syntax at "${input.slice(0, 20)}" is not implemented yet`);
}

function parseBase(input) {
  const afterOpen = token("(", input);
  if (afterOpen !== undefined) {
    const inner = parseType(afterOpen);
    const afterClose = inner && token(")", inner[1]);
    if (afterClose !== undefined) return [inner[0], afterClose];
  }
  for (const [word, build] of KEYWORDS) {
    const rest = token(word, input);
    if (rest !== undefined) return [build(), rest];
  }
  const text = skipBlanks(input);
  const bigint = BIGINT_TOKEN.exec(text);
  if (bigint) return [Literal(globalThis.BigInt(bigint[0].slice(0, -1).replaceAll("_", ""))), text.slice(bigint[0].length)];
  for (const word of ["true", "false"]) {
    const rest = token(word, input);
    if (rest !== undefined) return [Literal(word === "true"), rest];
  }
  const number = NUMBER_TOKEN.exec(text);
  if (number) {
    const digits = number[0].replaceAll("_", "");
    return [Literal(globalThis.parseFloat(digits.startsWith(".") || digits.startsWith("-.") ? digits.replace(".", "0.") : digits)), text.slice(number[0].length)];
  }
  if (text.startsWith("'") || text.startsWith('"')) {
    const end = text.indexOf(text[0], 1);
    if (end === -1) return undefined;
    return [Literal(text.slice(1, end)), text.slice(end + 1)];
  }
  if (text.startsWith("`")) {
    const nested = parseTemplate(text);
    if (nested === undefined) return undefined;
    return [TemplateLiteralDeferred(nested[0]), nested[1]];
  }
  if (text.startsWith("{") || text.startsWith("[") || text.startsWith("(") || text.startsWith("new ") || text.startsWith("<")) unsupported(text);
  const ident = IDENT_TOKEN.exec(text);
  if (ident) {
    if (/^\s*[<(]/.test(text.slice(ident[0].length))) unsupported(text);
    return [Ref(ident[0]), text.slice(ident[0].length)];
  }
  return undefined;
}

function parseFactor(input) {
  if (/^keyof\b/.test(skipBlanks(input))) unsupported(skipBlanks(input));
  const base = parseBase(input);
  if (base === undefined) return undefined;
  const rest = skipBlanks(base[1]);
  if (rest.startsWith("[") || /^(extends|with)\b/.test(rest)) unsupported(rest);
  return base;
}

// `a | b | c` and `a & b` group to the right, with a right-hand union or
// intersection spread into the new one (TypeBox's reading of the chain).
function parseChain(input, operator, parseOperand, build, isSame) {
  const left = parseOperand(input);
  if (left === undefined) return undefined;
  const afterOperator = token(operator, left[1]);
  if (afterOperator === undefined) return left;
  const right = parseChain(afterOperator, operator, parseOperand, build, isSame);
  if (right === undefined) return left;
  const members = isSame(right[0]) ? [left[0], ...(operator === "|" ? right[0].anyOf : right[0].allOf)] : [left[0], right[0]];
  return [build(members), right[1]];
}

function parseTerm(input) {
  return parseChain(input, "&", parseFactor, (members) => Intersect(members), (type) => isKind(type, "Intersect"));
}

function parseType(input) {
  const text = skipBlanks(input);
  if (/^(infer|readonly)\b/.test(text)) unsupported(text);
  const start = text.startsWith("|") ? text.slice(1) : text;
  return parseChain(start, "|", parseTerm, (members) => Union(members), (type) => isKind(type, "Union"));
}

function spanUntilInterpolation(input) {
  let end = 0;
  while (end < input.length && !input.startsWith("${", end) && input[end] !== "`") end++;
  return end < input.length ? [Literal(input.slice(0, end)), input.slice(end)] : undefined;
}

function parseBody(input) {
  const span = spanUntilInterpolation(input);
  if (span === undefined) return undefined;
  const afterOpen = token("${", span[1]);
  if (afterOpen !== undefined) {
    const inner = parseType(afterOpen);
    const afterClose = inner && token("}", inner[1]);
    const rest = afterClose !== undefined ? parseBody(afterClose) : undefined;
    if (rest !== undefined) return [[span[0], inner[0], ...rest[0]], rest[1]];
  }
  return [[span[0]], span[1]];
}

function parseTemplate(input) {
  const afterOpen = token("`", input);
  if (afterOpen === undefined) return undefined;
  const body = parseBody(afterOpen);
  const afterClose = body && token("`", body[1]);
  return afterClose === undefined ? undefined : [body[0], afterClose];
}

/** The types a template string (without its backquotes) is made of. */
export function ParseTemplateIntoTypes(template) {
  const parsed = parseTemplate(`\`${template}\``);
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
