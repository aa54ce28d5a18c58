// typebox/value: the Value namespace extensions use to check, explain and
// repair values against TypeBox schemas (Check, Errors, Parse, Default…).
// Each function takes an optional leading context of named schemas that
// `$ref`s may reach, as TypeBox's do: (context, type, value) or (type, value).

import { SchemaChecker, deepEqual } from "./check.js";
import { Converter } from "./convert.js";
import { clone } from "./clone.js";
import { CreateError, applyDefaults, clean, create } from "./create.js";
import { schemaErrors } from "./errors.js";
import { AssertError, ParseError } from "./value-errors.js";
import { Delete, Diff, Edit, Insert, Patch, Update } from "./delta.js";
import { Hash } from "./hash.js";
import { Pipeline } from "./pipeline.js";
import { Repair, UnionPrioritySort, UnionScoreSelect } from "./repair.js";
import * as Pointer from "./pointer.js";
import { DecodeError, DecodeUnsafe, EncodeError, EncodeUnsafe, HasCodec, IsOptionalUndefined, decode, encode } from "./value-codec.js";

export { Delete, Diff, Edit, Hash, Insert, Patch, Pipeline, Pointer, Repair, UnionPrioritySort, UnionScoreSelect, Update };
export { AssertError, CreateError, DecodeError, DecodeUnsafe, EncodeError, EncodeUnsafe, HasCodec, IsOptionalUndefined, ParseError };

function contextTypeValue(args) {
  return args.length >= 3 ? [args[0], args[1], args[2]] : [{}, args[0], args[1]];
}

/** Whether the value matches the type. */
export function Check(...args) {
  const [context, type, value] = contextTypeValue(args);
  return new SchemaChecker(type, { context }).check(type, value);
}

/** The validation errors of the value, an empty array when it matches. */
export function Errors(...args) {
  const [context, type, value] = contextTypeValue(args);
  return schemaErrors(context, type, value);
}

/** Throws AssertError (with the errors as its cause) unless the value matches. */
export function Assert(...args) {
  const [context, type, value] = contextTypeValue(args);
  if (!Check(context, type, value)) throw new AssertError("Assert", value, Errors(context, type, value));
}

/** The value when it matches, else a ParseError (TypeBox's corrective parse is off by default). */
export function Parse(...args) {
  const [context, type, value] = contextTypeValue(args);
  if (Check(context, type, value)) return value;
  throw new ParseError(value, Errors(context, type, value));
}

function assertParsed(context, type, value) {
  if (!Check(context, type, value)) throw new ParseError(value, Errors(context, type, value));
  return value;
}

/** TypeBox's corrective parse: a copy given defaults, converted and cleaned, then checked. */
export const Parser = Pipeline([
  (_context, _type, value) => Clone(value),
  (context, type, value) => Default(context, type, value),
  (context, type, value) => Convert(context, type, value),
  (context, type, value) => Clean(context, type, value),
  assertParsed,
]);

/** The value converted towards the type where a reasonable conversion exists. */
export function Convert(...args) {
  const [context, type, value] = contextTypeValue(args);
  return new Converter(new SchemaChecker(type, { context })).convert(type, value);
}

/** A value of the type, from `default` annotations where present. */
export function Create(...args) {
  const [context, type] = args.length >= 2 ? args : [{}, args[0]];
  return create(context, type);
}

/** The value with missing parts filled from `default` annotations (modifies it). */
export function Default(...args) {
  const [context, type, value] = contextTypeValue(args);
  return applyDefaults(context, type, value);
}

/** The value without properties and items the type does not describe (modifies it). */
export function Clean(...args) {
  const [context, type, value] = contextTypeValue(args);
  return clean(context, type, value);
}

/** The value checked against the type, then passed through the type's codecs. */
export function Decode(...args) {
  if (args.length !== 2 && args.length !== 3) throw Error("Invalid Arguments");
  const [context, type, value] = contextTypeValue(args);
  return decode(context, type, value);
}

/** The value passed back through the type's codecs, then checked against the type. */
export function Encode(...args) {
  if (args.length !== 2 && args.length !== 3) throw Error("Invalid Arguments");
  const [context, type, value] = contextTypeValue(args);
  return encode(context, type, value);
}

export function Clone(value) {
  return clone(value);
}

export function Equal(left, right) {
  return deepEqual(left, right);
}

export const Value = { Assert, Check, Clean, Clone, Convert, Create, Decode, Default, Diff, Encode, Equal, Errors, HasCodec, Hash, Parse, Patch, Pointer, Repair };

export default Value;
