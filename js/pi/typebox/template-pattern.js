// Reading a TemplateLiteral's regular expression back into the types it was
// built from: literal text, `(a|b)` groups, and the fixed sub-patterns that
// stand for string, number, integer, bigint and never. A pattern whose types
// are all literals (or groups of them) names a finite set of strings, which
// TypeBox then treats as a union of string literals.

import { BigInt as BigIntType, Integer, Literal, Never, Number as NumberType, String as StringType, Union } from "../typebox.js";
import { createSchema, isKind } from "./schema-object.js";

// The same texts typebox.js exports; repeated because this module is loaded
// while typebox.js itself is still being evaluated.
const BIGINT_PATTERN = "-?(?:0|[1-9][0-9]*)n";
const NUMBER_PATTERN = "-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?";
const INTEGER_PATTERN = "-?(?:0|[1-9][0-9]*)";
const NEVER_PATTERN = "(?!)";

// TypeBox reads patterns with its TypeScript-syntax tokenizer: a fixed token
// is looked for after skipping whitespace and comments, free text is not.
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

const TEXT_ENDS = [BIGINT_PATTERN, ".*", NUMBER_PATTERN, INTEGER_PATTERN, NEVER_PATTERN, "(", ")", "$", "|"];

function text(input) {
  for (let end = 0; end < input.length; end++) {
    if (TEXT_ENDS.some((sentinel) => input.startsWith(sentinel, end))) {
      return end === 0 ? undefined : [Literal(input.slice(0, end)), input.slice(end)];
    }
  }
  return undefined;
}

const FIXED = [
  [BIGINT_PATTERN, () => BigIntType()],
  [".*", () => StringType()],
  [NUMBER_PATTERN, () => NumberType()],
  [INTEGER_PATTERN, () => Integer()],
  [NEVER_PATTERN, () => Never()],
];

function base(input) {
  for (const [pattern, build] of FIXED) {
    const rest = token(pattern, input);
    if (rest !== undefined) return [build(), rest];
  }
  const group = parseGroup(input);
  return group ?? text(input);
}

function parseGroup(input) {
  const afterOpen = token("(", input);
  if (afterOpen === undefined) return undefined;
  const [members, rest] = body(afterOpen);
  const afterClose = token(")", rest);
  return afterClose === undefined ? undefined : [Union(members), afterClose];
}

function term(input) {
  const first = base(input);
  if (first === undefined) return undefined;
  const [following, rest] = body(first[1]);
  return [[first[0], ...following], rest];
}

// A body always parses, possibly to nothing; `a|b` lists the alternatives
// side by side, which a group then turns into a union.
function body(input) {
  const head = term(input);
  if (head === undefined) return [[], input];
  const afterBar = token("|", head[1]);
  if (afterBar !== undefined) {
    const [tail, rest] = body(afterBar);
    return [[...head[0], ...tail], rest];
  }
  return head;
}

/** The types a template literal pattern is made of; [] when it is not one. */
export function ParsePatternIntoTypes(pattern) {
  const afterStart = token("^", pattern);
  if (afterStart === undefined) return [];
  const [types, rest] = body(afterStart);
  return token("$", rest) === undefined ? [] : types;
}

export function IsTemplateLiteralPattern(pattern) {
  return ParsePatternIntoTypes(pattern).length > 0;
}

function isFiniteType(type) {
  if (isKind(type, "Literal")) return true;
  return isKind(type, "Union") && IsTemplateLiteralFinite(type.anyOf);
}

/** Whether the types can only spell out finitely many strings. */
export function IsTemplateLiteralFinite(types) {
  return types.length > 0 && types.every(isFiniteType);
}

export function TemplateLiteralCreate(pattern) {
  return createSchema({ "~kind": "TemplateLiteral" }, { type: "string", pattern }, {});
}

// Every string the finite types spell, in order: each part multiplies the
// strings so far by its alternatives.
function spellings(prefixes, type) {
  if (isKind(type, "Union")) return type.anyOf.flatMap((member) => spellings(prefixes, member));
  if (!isKind(type, "Literal")) throw new Error("pihost: typebox template literal decoding reached a non-literal part");
  return prefixes.length === 0 ? [`${type.const}`] : prefixes.map((prefix) => `${prefix}${type.const}`);
}

function decodeFinite(types) {
  if (types.length === 1 && isKind(types[0], "Literal")) return types[0];
  const strings = types.reduce((prefixes, type) => spellings(prefixes, type), []);
  return Union(strings.map((value) => Literal(value)));
}

/** The type a pattern stands for; an infinite one stays a TemplateLiteral. */
export function TemplateLiteralDecodeUnsafe(pattern) {
  const types = ParsePatternIntoTypes(pattern);
  if (types.length === 0) return StringType();
  return IsTemplateLiteralFinite(types) ? decodeFinite(types) : TemplateLiteralCreate(pattern);
}

/** As TemplateLiteralDecodeUnsafe, but an infinite pattern is just a string. */
export function TemplateLiteralDecode(pattern) {
  const decoded = TemplateLiteralDecodeUnsafe(pattern);
  return isKind(decoded, "TemplateLiteral") ? StringType() : decoded;
}
