// Type.Script: types written in TypeScript's type syntax, read as TypeBox
// reads them. The reader is a recursive descent over the same grammar
// TypeBox defines (ordered alternatives, the first that fits wins, trailing
// text is ignored); computed parts (`keyof`, `T[K]`, conditionals, mapped
// types, utility calls) come out as deferred actions, and Script then
// instantiates the result against the given context. A script that does not
// read gives never.

import {
  Any,
  Array as ArrayType,
  BigInt as BigIntType,
  Boolean as BooleanType,
  Constructor,
  Dependent,
  Function as FunctionType,
  Generic,
  Identifier,
  Infer,
  Integer,
  IntegerKey,
  Intersect,
  Literal,
  Never,
  Null,
  Number as NumberType,
  NumberKey,
  Object as ObjectType,
  Parameter,
  Ref,
  Rest,
  String as StringType,
  StringKey,
  Symbol as SymbolType,
  This,
  Tuple,
  Undefined,
  Union,
  Unknown,
  Void,
} from "../typebox.js";
import { Deferred } from "./deferred.js";
import { CallConstruct } from "./instructions.js";
import { State, instantiate } from "./instantiate.js";
import { isKind, updateSchema } from "./schema-object.js";

// --- Tokens ------------------------------------------------------------------------------

function skipComments(input, skip) {
  if (input.startsWith("/*")) {
    const end = input.indexOf("*/", 2);
    return skip(end === -1 ? "" : input.slice(end + 2));
  }
  if (input.startsWith("//")) {
    const end = input.indexOf("\n", 2);
    return skip(end === -1 ? "" : input.slice(end));
  }
  return input;
}

/** Whitespace (newlines included) and comments before a token. */
function skipBlanks(input) {
  return skipComments(input.trimStart(), skipBlanks);
}

/** Whitespace and comments up to a newline, for tokens that are newlines. */
function skipInline(input) {
  return skipComments(input.replace(/^[ \t\r\f\v]+/, ""), skipInline);
}

function word(text, input) {
  const rest = text.startsWith("\n") ? skipInline(input) : skipBlanks(input);
  return rest.startsWith(text) ? rest.slice(text.length) : undefined;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*/;

function ident(input) {
  const rest = skipBlanks(input);
  const match = IDENT.exec(rest);
  return match ? [match[0], rest.slice(match[0].length)] : undefined;
}

/** Digits with `_` separators allowed (and dropped). */
function digits(input) {
  const match = /^[0-9_]*/.exec(input)[0];
  return [match.replaceAll("_", ""), input.slice(match.length)];
}

function unsignedInteger(input) {
  const rest = skipBlanks(input);
  if (rest.startsWith("0")) return ["0", rest.slice(1)];
  if (!/^[1-9]/.test(rest)) return undefined;
  const [more, after] = digits(rest.slice(1));
  return [rest[0] + more, after];
}

function unsignedNumber(input) {
  const rest = skipBlanks(input);
  if (rest.startsWith(".")) {
    const [fraction, after] = digits(rest.slice(1));
    return fraction === "" ? undefined : [`0.${fraction}`, after];
  }
  const integer = unsignedInteger(rest);
  if (integer === undefined) return undefined;
  const [whole, afterWhole] = integer;
  if (!afterWhole.startsWith(".")) return integer;
  const [fraction, after] = digits(afterWhole.slice(1));
  // A dot without digits after it is still taken, as TypeBox's tokenizer does.
  return fraction === "" ? [whole, afterWhole.slice(1)] : [`${whole}.${fraction}`, after];
}

function signed(read) {
  return (input) => {
    const rest = skipBlanks(input);
    const sign = rest.startsWith("-") ? "-" : "";
    const value = read(rest.slice(sign.length));
    return value === undefined ? undefined : [`${sign}${value[0]}`, value[1]];
  };
}
const numberToken = signed(unsignedNumber);
const integerToken = signed(unsignedInteger);

function bigintToken(input) {
  const integer = integerToken(input);
  return integer !== undefined && integer[1].startsWith("n") ? [integer[0], integer[1].slice(1)] : undefined;
}

// Quoted text on one line, without escapes.
function stringToken(input) {
  const rest = skipBlanks(input);
  const quote = rest[0];
  if (quote !== "'" && quote !== '"') return undefined;
  for (let end = 1; end < rest.length; end++) {
    if (rest[end] === "\n") return undefined;
    if (rest[end] === quote) return [rest.slice(1, end), rest.slice(end + 1)];
  }
  return undefined;
}

// --- Combinators ----------------------------------------------------------------------------

/** The first reader that succeeds. */
function first(input, readers) {
  for (const read of readers) {
    const result = read(input);
    if (result !== undefined) return result;
  }
  return undefined;
}

/** `item (delimiter item)* delimiter?`, or nothing; always succeeds. */
function delimited(input, readItem, readDelimiter) {
  const head = readItem(input);
  if (head === undefined) return [[], input];
  const items = [head[0]];
  let rest = head[1];
  for (;;) {
    const afterDelimiter = readDelimiter(rest);
    const next = afterDelimiter === undefined ? undefined : readItem(afterDelimiter);
    if (next === undefined) break;
    items.push(next[0]);
    rest = next[1];
  }
  const trailing = readDelimiter(rest);
  return [items, trailing ?? rest];
}

const comma = (input) => word(",", input);

function propertyDelimiter(input) {
  for (const [mark, newline] of [[",", true], [";", true], [",", false], [";", false]]) {
    const rest = word(mark, input);
    if (rest === undefined) continue;
    if (!newline) return rest;
    const afterNewline = word("\n", rest);
    if (afterNewline !== undefined) return afterNewline;
  }
  return word("\n", input);
}

// --- Types ------------------------------------------------------------------------------------

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

function keyword(input) {
  for (const [name, build] of KEYWORDS) {
    const rest = word(name, input);
    if (rest !== undefined) return [build(), rest];
  }
  return undefined;
}

function literal(input) {
  const bigint = bigintToken(input);
  if (bigint) return [Literal(globalThis.BigInt(bigint[0])), bigint[1]];
  for (const name of ["true", "false"]) {
    const rest = word(name, input);
    if (rest !== undefined) return [Literal(name === "true"), rest];
  }
  const number = numberToken(input);
  if (number) return [Literal(globalThis.parseFloat(number[0])), number[1]];
  const text = stringToken(input);
  return text && [Literal(text[0]), text[1]];
}

// A template's text runs to the next `${` or backquote; the text itself is
// read as it is, blanks included.
function templateSpan(input) {
  let end = 0;
  while (end < input.length && !input.startsWith("${", end) && input[end] !== "`") end++;
  return end < input.length ? [Literal(input.slice(0, end)), input.slice(end)] : undefined;
}

function templateBody(input) {
  const span = templateSpan(input);
  if (span === undefined) return undefined;
  const afterOpen = word("${", span[1]);
  const inner = afterOpen === undefined ? undefined : type(afterOpen);
  const afterClose = inner === undefined ? undefined : word("}", inner[1]);
  const rest = afterClose === undefined ? undefined : templateBody(afterClose);
  return rest === undefined ? [[span[0]], span[1]] : [[span[0], inner[0], ...rest[0]], rest[1]];
}

/** A backquoted template as the sequence of its parts. */
export function templateTypes(input) {
  const afterOpen = word("`", input);
  const body = afterOpen === undefined ? undefined : templateBody(afterOpen);
  const afterClose = body === undefined ? undefined : word("`", body[1]);
  return afterClose === undefined ? undefined : [body[0], afterClose];
}

function templateLiteral(input) {
  const parts = templateTypes(input);
  return parts && [Deferred("TemplateLiteral", [parts[0]], {}), parts[1]];
}

function dependent(input) {
  const afterIf = word("if", input);
  const condition = afterIf === undefined ? undefined : type(afterIf);
  const afterThen = condition === undefined ? undefined : word("then", condition[1]);
  const consequent = afterThen === undefined ? undefined : type(afterThen);
  if (consequent === undefined) return undefined;
  const afterElse = word("else", consequent[1]);
  const alternative = afterElse === undefined ? undefined : type(afterElse);
  if (alternative !== undefined) return [Dependent(condition[0], consequent[0], alternative[0]), alternative[1]];
  return [Dependent(condition[0], consequent[0], Unknown()), consequent[1]];
}

function withModifiers(type, readonly, optional) {
  const withOptional = optional ? Deferred("AddOptional", [type], {}) : type;
  return readonly ? Deferred("AddReadonly", [withOptional], {}) : withOptional;
}

// --- Objects -------------------------------------------------------------------------------

// Functions, not tables: typebox.js's key constants are not yet set while
// this module is first evaluated.
const indexKeys = () => [
  ["integer", IntegerKey],
  ["number", NumberKey],
  ["string", StringKey],
  ["symbol", StringKey],
];

function indexKey(input) {
  const afterOpen = word("[", input);
  const name = afterOpen === undefined ? undefined : ident(afterOpen);
  const afterColon = name === undefined ? undefined : word(":", name[1]);
  if (afterColon === undefined) return undefined;
  for (const [keyType, pattern] of indexKeys()) {
    const afterKey = word(keyType, afterColon);
    if (afterKey === undefined) continue;
    const afterClose = word("]", afterKey);
    return afterClose === undefined ? undefined : [pattern, afterClose];
  }
  return undefined;
}

function propertyKey(input) {
  const number = numberToken(input);
  if (number) return number;
  return first(input, [ident, stringToken, indexKey]);
}

function optionalWord(text, input) {
  const rest = word(text, input);
  return rest === undefined ? [false, input] : [true, rest];
}

function property(input) {
  const [readonly, afterReadonly] = optionalWord("readonly", input);
  const key = propertyKey(afterReadonly);
  if (key === undefined) return undefined;
  const [optional, afterOptional] = optionalWord("?", key[1]);
  const afterColon = word(":", afterOptional);
  const value = afterColon === undefined ? undefined : type(afterColon);
  return value && [[key[0], withModifiers(value[0], readonly, optional)], value[1]];
}

const patternKeys = () => [IntegerKey, NumberKey, StringKey];

// Index signatures (`[key: string]: T`) become pattern properties.
function properties(input) {
  const afterOpen = word("{", input);
  if (afterOpen === undefined) return undefined;
  const [list, rest] = delimited(afterOpen, property, propertyDelimiter);
  const afterClose = word("}", rest);
  if (afterClose === undefined) return undefined;
  const named = {};
  const patterned = {};
  const patterns = patternKeys();
  for (const [key, value] of list) (patterns.includes(key) ? patterned : named)[key] = value;
  return [[named, patterned], afterClose];
}

function objectOptions(patterned) {
  return Object.keys(patterned).length === 0 ? {} : { patternProperties: patterned };
}

function object(input) {
  const parsed = properties(input);
  return parsed && [ObjectType(parsed[0][0], objectOptions(parsed[0][1])), parsed[1]];
}

// --- Tuples, functions, constructors ------------------------------------------------------

// `name?: readonly T` and its shorter forms, shared by tuple elements and
// parameters; `readonly` that does not lead to a type is tried as part of it.
function named(input) {
  const name = ident(input);
  if (name === undefined) return undefined;
  const [optional, afterOptional] = optionalWord("?", name[1]);
  const afterColon = word(":", afterOptional);
  if (afterColon === undefined) return undefined;
  const afterReadonly = word("readonly", afterColon);
  const readonlyValue = afterReadonly === undefined ? undefined : type(afterReadonly);
  if (readonlyValue) return [withModifiers(readonlyValue[0], true, optional), readonlyValue[1]];
  const value = type(afterColon);
  return value && [withModifiers(value[0], false, optional), value[1]];
}

function elementBase(input) {
  const named_ = named(input);
  if (named_) return named_;
  const [readonly, afterReadonly] = optionalWord("readonly", input);
  const value = type(afterReadonly);
  if (value === undefined) return undefined;
  const [optional, afterOptional] = optionalWord("?", value[1]);
  return [withModifiers(value[0], readonly, optional), afterOptional];
}

function spreadable(readBase) {
  return (input) => {
    const afterDots = word("...", input);
    if (afterDots !== undefined) {
      const base = readBase(afterDots);
      if (base) return [Rest(base[0]), base[1]];
    }
    return readBase(input);
  };
}
const element = spreadable(elementBase);
const parameter = spreadable(named);

function tuple(input) {
  const afterOpen = word("[", input);
  if (afterOpen === undefined) return undefined;
  const [elements, rest] = delimited(afterOpen, element, comma);
  const afterClose = word("]", rest);
  return afterClose === undefined ? undefined : [Tuple(elements), afterClose];
}

function signature(input) {
  const afterOpen = word("(", input);
  if (afterOpen === undefined) return undefined;
  const [parameters, rest] = delimited(afterOpen, parameter, comma);
  const afterClose = word(")", rest);
  const afterArrow = afterClose === undefined ? undefined : word("=>", afterClose);
  const result = afterArrow === undefined ? undefined : type(afterArrow);
  return result && [[parameters, result[0]], result[1]];
}

function functionType(input) {
  const parsed = signature(input);
  return parsed && [FunctionType(parsed[0][0], parsed[0][1]), parsed[1]];
}

function constructorType(input) {
  const afterNew = word("new", input);
  const parsed = afterNew === undefined ? undefined : signature(afterNew);
  return parsed && [Constructor(parsed[0][0], parsed[0][1]), parsed[1]];
}

// --- Mapped types ---------------------------------------------------------------------------

// `+mark`/`mark` adds the modifier, `-mark` removes it.
function mappedModifier(mark, input) {
  for (const [sign, change] of [["+", "add"], ["-", "remove"]]) {
    const afterSign = word(sign, input);
    const afterMark = afterSign === undefined ? undefined : word(mark, afterSign);
    if (afterMark !== undefined) return [change, afterMark];
  }
  const afterMark = word(mark, input);
  return afterMark === undefined ? ["none", input] : ["add", afterMark];
}

function applyModifier(change, add, remove, type) {
  if (change === "add") return Deferred(add, [type], {});
  if (change === "remove") return Deferred(remove, [type], {});
  return type;
}

function mapped(input) {
  const afterOpen = word("{", input);
  if (afterOpen === undefined) return undefined;
  const [readonly, afterReadonly] = mappedModifier("readonly", afterOpen);
  const afterBracket = word("[", afterReadonly);
  const name = afterBracket === undefined ? undefined : ident(afterBracket);
  const afterIn = name === undefined ? undefined : word("in", name[1]);
  const keys = afterIn === undefined ? undefined : type(afterIn);
  if (keys === undefined) return undefined;
  const afterAs = word("as", keys[1]);
  const as = afterAs === undefined ? undefined : type(afterAs);
  const afterClose = word("]", as === undefined ? keys[1] : as[1]);
  if (afterClose === undefined) return undefined;
  const [optional, afterOptional] = mappedModifier("?", afterClose);
  const afterColon = word(":", afterOptional);
  const value = afterColon === undefined ? undefined : type(afterColon);
  if (value === undefined) return undefined;
  const afterSemicolon = word(";", value[1]) ?? value[1];
  const afterEnd = word("}", afterSemicolon);
  if (afterEnd === undefined) return undefined;
  const property = applyModifier(readonly, "AddReadonly", "RemoveReadonly", applyModifier(optional, "AddOptional", "RemoveOptional", value[0]));
  return [Deferred("Mapped", [Identifier(name[0]), keys[0], as === undefined ? Ref(name[0]) : as[0], property], {}), afterEnd];
}

// --- Names and calls --------------------------------------------------------------------------

// Utility types TypeScript provides read as TypeBox's actions; any other
// generic name is a call to be resolved against the context.
const INTRINSICS = {
  Array: ([type]) => ArrayType(type),
  Capitalize: ([type]) => Deferred("Capitalize", [type], {}),
  ConstructorParameters: ([type]) => Deferred("ConstructorParameters", [type], {}),
  Evaluate: ([type]) => Deferred("Evaluate", [type], {}),
  Exclude: ([left, right]) => Deferred("Exclude", [left, right], {}),
  Extract: ([left, right]) => Deferred("Extract", [left, right], {}),
  Index: ([type, indexer]) => Deferred("Index", [type, indexer], {}),
  InstanceType: ([type]) => Deferred("InstanceType", [type], {}),
  Lowercase: ([type]) => Deferred("Lowercase", [type], {}),
  NonNullable: ([type]) => Deferred("NonNullable", [type], {}),
  Omit: ([type, indexer]) => Deferred("Omit", [type, indexer], {}),
  Parameters: ([type]) => Deferred("Parameters", [type], {}),
  Partial: ([type]) => Deferred("Partial", [type], {}),
  Pick: ([type, indexer]) => Deferred("Pick", [type, indexer], {}),
  Readonly: ([type]) => Deferred("ReadonlyObject", [type], {}),
  KeyOf: ([type]) => Deferred("KeyOf", [type], {}),
  Record: ([key, value]) => Deferred("Record", [key, value], {}),
  Required: ([type]) => Deferred("Required", [type], {}),
  ReturnType: ([type]) => Deferred("ReturnType", [type], {}),
  Uncapitalize: ([type]) => Deferred("Uncapitalize", [type], {}),
  Uppercase: ([type]) => Deferred("Uppercase", [type], {}),
};

function typeArguments(input) {
  const afterOpen = word("<", input);
  if (afterOpen === undefined) return undefined;
  const [list, rest] = delimited(afterOpen, type, comma);
  const afterClose = word(">", rest);
  return afterClose === undefined ? undefined : [list, afterClose];
}

function genericCall(input) {
  const name = ident(input);
  const args = name === undefined ? undefined : typeArguments(name[1]);
  if (args === undefined) return undefined;
  const intrinsic = Object.hasOwn(INTRINSICS, name[0]) ? INTRINSICS[name[0]] : undefined;
  return [intrinsic ? intrinsic(args[0]) : CallConstruct(Ref(name[0]), args[0]), args[1]];
}

function reference(input) {
  const name = ident(input);
  return name && [Ref(name[0]), name[1]];
}

function parenthesized(input) {
  const afterOpen = word("(", input);
  const inner = afterOpen === undefined ? undefined : type(afterOpen);
  const afterClose = inner === undefined ? undefined : word(")", inner[1]);
  return afterClose === undefined ? undefined : [inner[0], afterClose];
}

function base(input) {
  return first(input, [parenthesized, keyword, literal, templateLiteral, dependent, object, tuple, constructorType, functionType, mapped, genericCall, reference]);
}

// --- `with { … }` option values ------------------------------------------------------------

function withValue(input) {
  const bigint = bigintToken(input);
  if (bigint) return [globalThis.BigInt(bigint[0]), bigint[1]];
  const number = numberToken(input);
  if (number) return [globalThis.parseFloat(number[0]), number[1]];
  for (const [name, value] of [["true", true], ["false", false]]) {
    const rest = word(name, input);
    if (rest !== undefined) return [value, rest];
  }
  const text = stringToken(input);
  if (text) return text;
  for (const [name, value] of [["null", null], ["undefined", undefined]]) {
    const rest = word(name, input);
    if (rest !== undefined) return [value, rest];
  }
  return first(input, [withObject, withArray]);
}

function withProperty(input) {
  const key = propertyKey(input);
  const afterColon = key === undefined ? undefined : word(":", key[1]);
  const value = afterColon === undefined ? undefined : withValue(afterColon);
  return value && [[key[0], value[0]], value[1]];
}

function withObject(input) {
  const afterOpen = word("{", input);
  if (afterOpen === undefined) return undefined;
  const [list, rest] = delimited(afterOpen, withProperty, propertyDelimiter);
  const afterClose = word("}", rest);
  if (afterClose === undefined) return undefined;
  const result = {};
  for (const [key, value] of list) result[key] = value;
  return [result, afterClose];
}

function withArray(input) {
  const afterOpen = word("[", input);
  if (afterOpen === undefined) return undefined;
  const [list, rest] = delimited(afterOpen, withValue, comma);
  const afterClose = word("]", rest);
  return afterClose === undefined ? undefined : [list, afterClose];
}

// --- Expressions -------------------------------------------------------------------------------

// `T[]` is an array, `T[K]` an indexed access, applied left to right.
function indexSuffixes(type, input) {
  let current = type;
  let rest = input;
  for (;;) {
    const afterOpen = word("[", rest);
    if (afterOpen === undefined) return [current, rest];
    const indexer = type_(afterOpen);
    const afterIndexer = indexer === undefined ? undefined : word("]", indexer[1]);
    if (afterIndexer !== undefined) {
      current = Deferred("Index", [current, indexer[0]], {});
      rest = afterIndexer;
      continue;
    }
    const afterEmpty = word("]", afterOpen);
    if (afterEmpty === undefined) return [current, rest];
    current = ArrayType(current);
    rest = afterEmpty;
  }
}

function conditionalSuffix(input) {
  const afterExtends = word("extends", input);
  const right = afterExtends === undefined ? undefined : type_(afterExtends);
  const afterQuestion = right === undefined ? undefined : word("?", right[1]);
  const whenTrue = afterQuestion === undefined ? undefined : type_(afterQuestion);
  const afterColon = whenTrue === undefined ? undefined : word(":", whenTrue[1]);
  const whenFalse = afterColon === undefined ? undefined : type_(afterColon);
  return whenFalse && [[right[0], whenTrue[0], whenFalse[0]], whenFalse[1]];
}

function factor(input) {
  const [isKeyOf, afterKeyOf] = optionalWord("keyof", input);
  const head = base(afterKeyOf);
  if (head === undefined) return undefined;
  const [indexed, afterIndex] = indexSuffixes(head[0], head[1]);
  const operand = isKeyOf ? Deferred("KeyOf", [indexed], {}) : indexed;
  const conditional = conditionalSuffix(afterIndex);
  const result = conditional ? Deferred("Conditional", [operand, ...conditional[0]], {}) : operand;
  const afterConditional = conditional ? conditional[1] : afterIndex;
  const afterWith = word("with", afterConditional);
  const options = afterWith === undefined ? undefined : withObject(afterWith);
  if (options !== undefined) return [Deferred("With", [result, options[0]], {}), options[1]];
  return [result, afterConditional];
}

// `a | b | c` (and `&`) group to the right: the operator's right side, when
// it is already a union (intersection), has its members spread into the new one.
function chain(operator, readOperand, build, kind, membersOf) {
  const read = (input) => {
    const left = readOperand(input);
    if (left === undefined) return undefined;
    const afterOperator = word(operator, left[1]);
    const right = afterOperator === undefined ? undefined : read(afterOperator);
    if (right === undefined) return left;
    const members = isKind(right[0], kind) ? [left[0], ...membersOf(right[0])] : [left[0], right[0]];
    return [build(members), right[1]];
  };
  return read;
}
const term = chain("&", factor, (members) => Intersect(members), "Intersect", (type) => type.allOf);
const expression = chain("|", term, (members) => Union(members), "Union", (type) => type.anyOf);

function inferType(input) {
  const afterInfer = word("infer", input);
  const name = afterInfer === undefined ? undefined : ident(afterInfer);
  if (name === undefined) return undefined;
  const afterExtends = word("extends", name[1]);
  const bound = afterExtends === undefined ? undefined : expression(afterExtends);
  if (bound !== undefined) return [Infer(name[0], bound[0]), bound[1]];
  return [Infer(name[0], Unknown()), name[1]];
}

function type_(input) {
  const inferred = inferType(input);
  if (inferred) return inferred;
  const afterPipe = word("|", input);
  const piped = afterPipe === undefined ? undefined : expression(afterPipe);
  if (piped) return piped;
  const afterReadonly = word("readonly", input);
  const immutable = afterReadonly === undefined ? undefined : expression(afterReadonly);
  if (immutable) return [Deferred("AddImmutable", [immutable[0]], {}), immutable[1]];
  return expression(input);
}
const type = (input) => type_(input);

// --- Declarations ------------------------------------------------------------------------------

function genericParameter(input) {
  const name = ident(input);
  if (name === undefined) return undefined;
  const afterExtends = word("extends", name[1]);
  const bound = afterExtends === undefined ? undefined : type(afterExtends);
  if (bound !== undefined) {
    const afterEquals = word("=", bound[1]);
    const fallback = afterEquals === undefined ? undefined : type(afterEquals);
    if (fallback !== undefined) return [Parameter(name[0], bound[0], fallback[0]), fallback[1]];
    return [Parameter(name[0], bound[0], bound[0]), bound[1]];
  }
  const afterEquals = word("=", name[1]);
  const fallback = afterEquals === undefined ? undefined : type(afterEquals);
  if (fallback !== undefined) return [Parameter(name[0], Unknown(), fallback[0]), fallback[1]];
  return [Parameter(name[0], Unknown(), Unknown()), name[1]];
}

function genericParameters(input) {
  const afterOpen = word("<", input);
  if (afterOpen === undefined) return undefined;
  const [list, rest] = delimited(afterOpen, genericParameter, comma);
  const afterClose = word(">", rest);
  return afterClose === undefined ? undefined : [list, afterClose];
}

function heritage(input) {
  const afterExtends = word("extends", input);
  return afterExtends === undefined ? [[], input] : delimited(afterExtends, type, comma);
}

function interfaceDeclaration(input) {
  const afterKeyword = word("interface", input);
  const name = afterKeyword === undefined ? undefined : ident(afterKeyword);
  if (name === undefined) return undefined;
  const parameters = genericParameters(name[1]);
  const [bases, afterHeritage] = heritage(parameters === undefined ? name[1] : parameters[1]);
  const body = properties(afterHeritage);
  if (body === undefined) return undefined;
  const declared = Deferred("Interface", [bases, body[0][0]], objectOptions(body[0][1]));
  return [[name[0], parameters === undefined ? declared : Generic(parameters[0], declared)], body[1]];
}

function typeAliasDeclaration(input) {
  const afterKeyword = word("type", input);
  const name = afterKeyword === undefined ? undefined : ident(afterKeyword);
  if (name === undefined) return undefined;
  const parameters = genericParameters(name[1]);
  const afterEquals = word("=", parameters === undefined ? name[1] : parameters[1]);
  const value = afterEquals === undefined ? undefined : type(afterEquals);
  if (value === undefined) return undefined;
  return [[name[0], parameters === undefined ? value[0] : Generic(parameters[0], value[0])], value[1]];
}

function declaration(input) {
  const afterExport = word("export", input) ?? input;
  const declared = first(afterExport, [interfaceDeclaration, typeAliasDeclaration]);
  if (declared === undefined) return undefined;
  return [declared[0], word(";", declared[1]) ?? declared[1]];
}

function declarationDelimiter(input) {
  const afterSemicolon = word(";", input);
  if (afterSemicolon !== undefined) return word("\n", afterSemicolon) ?? afterSemicolon;
  return word("\n", input);
}

function module(input) {
  const head = declaration(input);
  if (head === undefined) return undefined;
  const [list, rest] = delimited(head[1], declaration, declarationDelimiter);
  const declarations = {};
  for (const [name, value] of [head[0], ...list]) declarations[name] = value;
  return [Deferred("Module", [declarations], {}), rest];
}

function genericType(input) {
  const parameters = genericParameters(input);
  const afterEquals = parameters === undefined ? undefined : word("=", parameters[1]);
  const value = afterEquals === undefined ? undefined : type(afterEquals);
  return value && [Generic(parameters[0], value[0]), value[1]];
}

function script(input) {
  return first(input, [module, genericType, type]);
}

// --- Script -------------------------------------------------------------------------------------

/** A type from TypeScript type syntax: Script(text), Script(context, text), with options last. */
export function Script(...args) {
  let context, text, options;
  if (args.length === 1) [context, text, options] = [{}, args[0], {}];
  else if (args.length === 2) [context, text, options] = typeof args[0] === "string" ? [{}, args[0], args[1]] : [args[0], args[1], {}];
  else if (args.length === 3) [context, text, options] = args;
  else throw Error("Invalid Arguments");
  const parsed = script(text);
  const result = parsed === undefined ? Never() : instantiate(context, State([], []), parsed[0]);
  return updateSchema(result, {}, options);
}
