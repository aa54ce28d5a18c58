// The TypeBox builders extensions use for tool parameters, producing the same
// JSON Schema objects as typebox 1.x (pi 1.6.0's), including its
// non-enumerable `~kind`/`~optional`/`~readonly` marks that code can observe.
// Builders not listed here throw "not implemented yet" when called.

import { Constructor, ConstructorParameters, Function as FunctionType, InstanceType, IsConstructor, IsFunction, Parameters, ReturnType } from "./typebox/callable.js";
import { Codec, Decode, DecodeBuilder, Encode, EncodeBuilder, IsCodec } from "./typebox/codec.js";
import { Dependent, Generic, Identifier, Infer, IsCall, IsDependent, IsGeneric, IsIdentifier, IsInfer, IsParameter, IsRest, IsThis, Parameter, Rest, This } from "./typebox/instructions.js";
import { Call } from "./typebox/call.js";
import { Conditional, Exclude, Extract, NonNullable } from "./typebox/conditional.js";
import { Evaluate } from "./typebox/evaluate.js";
import { Extends, ExtendsResult } from "./typebox/extends.js";
import { Interface, Mapped, Module } from "./typebox/declarations.js";
import { Index, KeyOf } from "./typebox/indexed.js";
import { updateSchema } from "./typebox/schema-object.js";
import { Script } from "./typebox/script.js";
import { TemplateLiteral } from "./typebox/template-literal.js";
import { Omit, Partial, Pick, Record, Required } from "./typebox/objects.js";
import { Instantiate } from "./typebox/instantiate.js";
import { Capitalize, Lowercase, Uncapitalize, Uppercase } from "./typebox/intrinsics.js";
import { Immutable, IsImmutable, ReadonlyObject, ReadonlyType, With } from "./typebox/modifiers.js";
import { RecordKey, RecordPattern, RecordValue } from "./typebox/options.js";
import { IsRefine, Refine } from "./typebox/refine.js";

// The builders below are named after the globals they shadow (Object, String,
// Array…), as TypeBox's are, so the real ones are reached through these.
const JsObject = globalThis.Object;
const JsArray = globalThis.Array;

function mark(schema, key, value) {
  JsObject.defineProperty(schema, key, { value, writable: true, enumerable: false, configurable: true });
  return schema;
}

// Options land before the kind mark (the key order is observable through
// Object.keys/Reflect.ownKeys); derived types (Record, Pick…) are copies
// updated with their options, which puts the options after it.
function create(kind, base, options) {
  return mark({ ...base, ...options }, "~kind", kind);
}


export const NumberPattern = "-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?";
export const IntegerPattern = "-?(?:0|[1-9][0-9]*)";
export const StringPattern = ".*";
export const BigIntPattern = "-?(?:0|[1-9][0-9]*)n";
export const NeverPattern = "(?!)";
export const IntegerKey = `^${IntegerPattern}$`;
export const NumberKey = `^${NumberPattern}$`;
export const StringKey = `^${StringPattern}$`;

export function String(options) {
  return create("String", { type: "string" }, options);
}
export function Number(options) {
  return create("Number", { type: "number" }, options);
}
export function Integer(options) {
  return create("Integer", { type: "integer" }, options);
}
export function Boolean(options) {
  return create("Boolean", { type: "boolean" }, options);
}
export function Null(options) {
  return create("Null", { type: "null" }, options);
}
export function BigInt(options) {
  return create("BigInt", { type: "bigint" }, options);
}
export function Symbol(options) {
  return create("Symbol", { type: "symbol" }, options);
}
export function Undefined(options) {
  return create("Undefined", { type: "undefined" }, options);
}
export function Void(options) {
  return create("Void", { type: "void" }, options);
}
export function Never(options) {
  return create("Never", { not: {} }, options);
}
export function Any(options) {
  return create("Any", {}, options);
}
export function Unknown(options) {
  return create("Unknown", {}, options);
}

export class InvalidLiteralValue extends Error {
  constructor(value) {
    super("Invalid Literal value");
    // A fixed cause, as TypeBox's: neither writable nor configurable.
    JsObject.defineProperty(this, "cause", { value: { value }, writable: false, enumerable: false, configurable: false });
  }
}

export function IsLiteralValue(value) {
  return ["string", "number", "boolean", "bigint"].includes(typeof value);
}

export function LiteralTypeName(value) {
  if (!IsLiteralValue(value)) throw new InvalidLiteralValue(value);
  return typeof value;
}

export function Literal(value, options) {
  return create("Literal", { type: LiteralTypeName(value), const: value }, options);
}
export function Union(anyOf, options) {
  return create("Union", { anyOf }, options);
}
export function Intersect(allOf, options) {
  return create("Intersect", { allOf }, options);
}
export function Array(items, options) {
  return create("Array", { type: "array", items }, options);
}
export function Tuple(items, options) {
  return create("Tuple", { type: "array", additionalItems: false, items, minItems: items.length }, options);
}
export function Ref(ref, options) {
  return create("Ref", { $ref: ref }, options);
}

/** A TypeScript enum object lists each numeric member twice (name→value, value→name); keep the values. */
function enumValues(values) {
  if (JsArray.isArray(values)) return values;
  return JsObject.keys(values)
    .filter((key) => !/^(0|[1-9][0-9]*)$/.test(key))
    .map((key) => values[key]);
}

export function IsEnumValue(value) {
  return typeof value === "string" || typeof value === "number";
}
export function IsTypeScriptEnumLike(value) {
  return typeof value === "object" && value !== null && !JsArray.isArray(value);
}
// TypeBox keeps the keys that are not numbers, by isNaN, so "" and " " go too.
export function TypeScriptEnumToEnumValues(value) {
  return JsObject.getOwnPropertyNames(value)
    .filter((key) => globalThis.isNaN(key))
    .map((key) => value[key]);
}

export function Enum(values, options) {
  return create("Enum", { enum: enumValues(values) }, options);
}

export function Object(properties, options) {
  const required = JsObject.keys(properties).filter((key) => properties[key]["~optional"] !== true);
  const base = required.length > 0 ? { type: "object", required, properties } : { type: "object", properties };
  return create("Object", base, options);
}

// Modifiers and the unsafe mark go on a copy that keeps every key where it
// was, hidden marks included, as TypeBox's updates do.
export function Optional(schema) {
  return updateSchema(schema, { "~optional": true });
}
export function Readonly(schema) {
  return updateSchema(schema, { "~readonly": true });
}
export function Unsafe(schema) {
  return updateSchema(schema, { "~unsafe": null });
}

export function Cyclic(defs, ref, options) {
  const $defs = {};
  // Each definition carries its name as $id, which Ajv-style resolvers need.
  for (const key of JsObject.getOwnPropertyNames(defs)) $defs[key] = updateSchema(defs[key], {}, { $id: key });
  return create("Cyclic", { $defs, $ref: ref }, options);
}

// Kind guards: TypeBox tells schemas apart by their `~kind` mark.
export function IsSchema(value) {
  return typeof value === "object" && value !== null;
}
export function IsKind(value, kind) {
  return IsSchema(value) && value["~kind"] === kind;
}
export function IsOptional(value) {
  return IsSchema(value) && "~optional" in value;
}
export function IsReadonly(value) {
  return IsSchema(value) && "~readonly" in value;
}
export function IsUnsafe(value) {
  return IsSchema(value) && !JsArray.isArray(value) && "~unsafe" in value && value["~unsafe"] === null;
}
const kindGuard = (kind) => (value) => IsKind(value, kind);
export const IsAny = kindGuard("Any");
export const IsArray = kindGuard("Array");
export const IsBigInt = kindGuard("BigInt");
export const IsBoolean = kindGuard("Boolean");
export const IsCyclic = kindGuard("Cyclic");
export const IsEnum = kindGuard("Enum");
export const IsInteger = kindGuard("Integer");
export const IsIntersect = kindGuard("Intersect");
export const IsLiteral = kindGuard("Literal");
export const IsNever = kindGuard("Never");
export const IsNull = kindGuard("Null");
export const IsNumber = kindGuard("Number");
export const IsObject = kindGuard("Object");
export const IsRecord = kindGuard("Record");
export const IsRef = kindGuard("Ref");
export const IsString = kindGuard("String");
export const IsSymbol = kindGuard("Symbol");
export const IsTemplateLiteral = kindGuard("TemplateLiteral");
export const IsTuple = kindGuard("Tuple");
export const IsUndefined = kindGuard("Undefined");
export const IsUnion = kindGuard("Union");
export const IsUnknown = kindGuard("Unknown");
export const IsVoid = kindGuard("Void");
const literalGuard = (type) => (value) => IsLiteral(value) && typeof value.const === type;
export const IsLiteralBigInt = literalGuard("bigint");
export const IsLiteralBoolean = literalGuard("boolean");
export const IsLiteralNumber = literalGuard("number");
export const IsLiteralString = literalGuard("string");

export { Array as _Array_, Object as _Object_ };
export * from "./typebox/callable.js";
export * from "./typebox/codec.js";
export { Call } from "./typebox/call.js";
export { Script } from "./typebox/script.js";
export {
  Conditional,
  ConditionalAction,
  ConditionalDeferred,
  ConditionalInstantiate,
  Exclude,
  ExcludeAction,
  ExcludeDeferred,
  ExcludeInstantiate,
  Extract,
  ExtractAction,
  ExtractDeferred,
  ExtractInstantiate,
  NonNullable,
  NonNullableAction,
  NonNullableDeferred,
  NonNullableInstantiate,
} from "./typebox/conditional.js";
export {
  Broaden,
  CanComposite,
  Compare,
  CompareResultDisjoint,
  CompareResultEqual,
  CompareResultLeftInside,
  CompareResultRightInside,
  Composite,
  Distribute,
  Evaluate,
  EvaluateAction,
  EvaluateDeferred,
  EvaluateDependent,
  EvaluateEnum,
  EvaluateInstantiate,
  EvaluateIntersect,
  EvaluateTemplateLiteral,
  EvaluateType,
  EvaluateUnion,
  EvaluateUnionFast,
  Flatten,
  Narrow,
  Priority,
} from "./typebox/evaluate.js";
export { CyclicCandidates, CyclicCheck, CyclicDependencies, InstantiateCyclic, IsInterfaceDeferred } from "./typebox/cyclic.js";
export {
  Interface,
  InterfaceAction,
  InterfaceDeferred,
  InterfaceInstantiate,
  Mapped,
  MappedAction,
  MappedDeferred,
  MappedInstantiate,
  Module,
  ModuleDeferred,
  ModuleInstantiate,
} from "./typebox/declarations.js";
export { CyclicExtends, Extends, ExtendsResult } from "./typebox/extends.js";
export {
  Omit,
  OmitAction,
  OmitDeferred,
  OmitInstantiate,
  Partial,
  PartialAction,
  PartialDeferred,
  PartialInstantiate,
  Pick,
  PickAction,
  PickDeferred,
  PickInstantiate,
  Record,
  RecordAction,
  RecordDeferred,
  RecordInstantiate,
  Required,
  RequiredAction,
  RequiredArray,
  RequiredDeferred,
  RequiredInstantiate,
} from "./typebox/objects.js";
export {
  CollapseToObject,
  ConvertToIntegerKey,
  CyclicTarget,
  Index,
  IndexAction,
  IndexDeferred,
  IndexInstantiate,
  KeyOf,
  KeyOfAction,
  KeyOfDeferred,
  KeyOfInstantiate,
  KeysToIndexer,
  PropertyKeys,
  PropertyValues,
} from "./typebox/indexed.js";
export {
  CapitalizeInstantiate,
  ConstructorParametersInstantiate,
  InstanceTypeInstantiate,
  Instantiate,
  LowercaseInstantiate,
  ParametersInstantiate,
  ReadonlyObjectInstantiate,
  RefInstantiate,
  ReturnTypeInstantiate,
  UncapitalizeInstantiate,
  UppercaseInstantiate,
  WithInstantiate,
} from "./typebox/instantiate.js";
export {
  IsTemplateLiteralDeferred,
  ParseTemplateIntoTypes,
  TemplateLiteral,
  TemplateLiteralDeferred,
  TemplateLiteralEncode,
  TemplateLiteralFromString,
  TemplateLiteralFromTypes,
} from "./typebox/template-literal.js";
export {
  IsTemplateLiteralFinite,
  IsTemplateLiteralPattern,
  ParsePatternIntoTypes,
  TemplateLiteralCreate,
  TemplateLiteralDecode,
  TemplateLiteralDecodeUnsafe,
} from "./typebox/template-pattern.js";
export { Deferred, IsDeferred } from "./typebox/deferred.js";
export * from "./typebox/instructions.js";
export * from "./typebox/intrinsics.js";
export * from "./typebox/modifiers.js";
export * from "./typebox/options.js";
export * from "./typebox/refine.js";

const builders = {
  Call,
  Capitalize,
  Codec,
  Conditional,
  Constructor,
  ConstructorParameters,
  Decode,
  DecodeBuilder,
  Dependent,
  Encode,
  EncodeBuilder,
  Exclude,
  Extends,
  ExtendsResult,
  Extract,
  Function: FunctionType,
  Generic,
  Identifier,
  Immutable,
  Index,
  Infer,
  InstanceType,
  Instantiate,
  Interface,
  Lowercase,
  Mapped,
  Module,
  NonNullable,
  Parameter,
  Parameters,
  ReadonlyObject,
  ReadonlyType,
  RecordKey,
  RecordPattern,
  RecordValue,
  Refine,
  Rest,
  ReturnType,
  Script,
  This,
  Uncapitalize,
  Uppercase,
  With,
  IsCall,
  IsCodec,
  IsConstructor,
  IsDependent,
  IsEnumValue,
  IsFunction,
  IsGeneric,
  IsIdentifier,
  IsImmutable,
  IsInfer,
  IsParameter,
  IsRefine,
  IsRest,
  IsThis,
  Any,
  Array,
  BigInt,
  Boolean,
  Cyclic,
  Enum,
  Evaluate,
  Integer,
  Intersect,
  KeyOf,
  Literal,
  Never,
  Null,
  Number,
  Object,
  Omit,
  Optional,
  Partial,
  Pick,
  Readonly,
  Record,
  Ref,
  Required,
  String,
  Symbol,
  TemplateLiteral,
  Tuple,
  Undefined,
  Union,
  Unknown,
  Unsafe,
  Void,
  IsAny,
  IsArray,
  IsBigInt,
  IsBoolean,
  IsCyclic,
  IsEnum,
  IsInteger,
  IsIntersect,
  IsKind,
  IsLiteral,
  IsNever,
  IsNull,
  IsNumber,
  IsObject,
  IsOptional,
  IsReadonly,
  IsRecord,
  IsRef,
  IsSchema,
  IsString,
  IsSymbol,
  IsTemplateLiteral,
  IsTuple,
  IsUndefined,
  IsUnion,
  IsUnknown,
  IsUnsafe,
  IsVoid,
};

// TypeBox's Type is a module namespace object: every builder pi 1.6.0's
// TypeBox has, nothing for other names, and no assignments.
JsObject.defineProperty(builders, globalThis.Symbol.toStringTag, { value: "Module" });
export const Type = JsObject.freeze(builders);

export default Type;
