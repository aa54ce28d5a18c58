// Value.Decode and Value.Encode: run the `~codec` functions a type carries.
// Decoding checks the wire value first (after TypeBox's usual default,
// convert and clean steps) and then runs codecs from the inside out, so an
// object's codec sees its properties already decoded. Encoding runs them
// from the outside in and checks the result last.

import { AssertError } from "./value-errors.js";
import { SchemaChecker, deepEqual, isObjectValue, isPlainRecord } from "./check.js";
import { clone } from "./clone.js";
import { IsCodec } from "./codec.js";
import { applyDefaults, clean } from "./create.js";
import { Converter } from "./convert.js";
import { schemaErrors } from "./errors.js";
import { isKind } from "./schema-object.js";

export class DecodeError extends AssertError {
  constructor(value, errors) {
    super("Decode", value, errors);
  }
}

export class EncodeError extends AssertError {
  constructor(value, errors) {
    super("Encode", value, errors);
  }
}

function check(context, type, value) {
  return new SchemaChecker(type, { context }).check(type, value);
}

function runCodec(direction, type, value) {
  if (!IsCodec(type)) return value;
  return direction === "Decode" ? type["~codec"].decode(value) : type["~codec"].encode(value);
}

function recordEntry(type) {
  const [pattern] = Object.getOwnPropertyNames(type.patternProperties);
  return [new RegExp(pattern), type.patternProperties[pattern]];
}

/** Whether an optional property is undefined, which TypeBox cannot tell apart from a missing one. */
export function IsOptionalUndefined(property, key, value) {
  return typeof property === "object" && property !== null && "~optional" in property && value[key] === undefined;
}

function skipsProperty(property, key, value) {
  return !(key in value) || IsOptionalUndefined(property, key, value);
}

// Each container walks its members on the value (decoding) or on what its own
// codec made of the value (encoding); `inner` is that member walk.
function container(direction, type, value, isShape, inner, keepGivenValue = false) {
  if (direction === "Decode") {
    if (!isShape(value)) return value;
    inner(value);
    return runCodec(direction, type, value);
  }
  const exterior = runCodec(direction, type, value);
  if (!isShape(exterior)) return keepGivenValue ? value : exterior;
  inner(exterior);
  return exterior;
}

function walk(direction, context, type, value) {
  if (isKind(type, "Array")) {
    return container(direction, type, value, Array.isArray, (items) => {
      for (let i = 0; i < items.length; i++) items[i] = walk(direction, context, type.items, items[i]);
    });
  }
  if (isKind(type, "Tuple")) {
    // TypeBox hands back the value it was given when a tuple's codec encodes it to something else than an array.
    return container(direction, type, value, Array.isArray, (items) => {
      for (let i = 0; i < Math.min(type.items.length, items.length); i++) items[i] = walk(direction, context, type.items[i], items[i]);
    }, true);
  }
  if (isKind(type, "Object")) {
    return container(direction, type, value, isPlainRecord, (object) => {
      for (const key of Object.getOwnPropertyNames(type.properties)) {
        if (!skipsProperty(type.properties[key], key, object)) object[key] = walk(direction, context, type.properties[key], object[key]);
      }
    });
  }
  if (isKind(type, "Record")) {
    const [pattern, item] = recordEntry(type);
    return container(direction, type, value, isPlainRecord, (object) => {
      for (const key of Object.getOwnPropertyNames(object)) if (pattern.test(key)) object[key] = walk(direction, context, item, object[key]);
    });
  }
  if (isKind(type, "Cyclic")) {
    const inner = walk(direction, { ...context, ...type.$defs }, { $ref: type.$ref, "~kind": "Ref" }, value);
    return runCodec(direction, type, inner);
  }
  if (isKind(type, "Ref")) {
    const resolve = (current) => (Object.hasOwn(context, type.$ref) ? walk(direction, context, context[type.$ref], current) : current);
    return direction === "Decode" ? runCodec(direction, type, resolve(value)) : resolve(runCodec(direction, type, value));
  }
  if (isKind(type, "Union")) return walkUnion(direction, context, type, value);
  if (isKind(type, "Intersect")) return walkIntersect(direction, context, type, value);
  return runCodec(direction, type, value);
}

function walkUnion(direction, context, type, value) {
  if (direction === "Decode") {
    for (const variant of type.anyOf) {
      if (check(context, variant, value)) return runCodec(direction, type, walk(direction, context, variant, value));
    }
    return value;
  }
  const exterior = runCodec(direction, type, value);
  for (const variant of type.anyOf) {
    const encoded = walk(direction, context, variant, clone(exterior));
    if (check(context, variant, encoded)) return encoded;
  }
  return exterior;
}

// Each member decodes its own cleaned copy; object results merge, otherwise
// the first result a codec changed wins.
function walkIntersect(direction, context, type, value) {
  if (type.allOf.length === 0) return runCodec(direction, type, value);
  const exterior = direction === "Decode" ? value : runCodec(direction, type, value);
  const results = type.allOf.map((member) => walk(direction, context, member, clean({}, member, clone(exterior))));
  const merged = results.every(isObjectValue)
    ? results.reduce((all, result) => ({ ...all, ...result }), {})
    : (results.find((result) => !deepEqual(exterior, result)) ?? exterior);
  return direction === "Decode" ? runCodec(direction, type, merged) : merged;
}

function assertMatches(ErrorClass, context, type, value) {
  if (!check(context, type, value)) throw new ErrorClass(value, schemaErrors(context, type, value));
  return value;
}

function prepare(context, type, value) {
  const converted = new Converter(new SchemaChecker(type, { context })).convert(type, applyDefaults(context, type, value));
  return clean(context, type, converted);
}

export function DecodeUnsafe(context, type, value) {
  return walk("Decode", context, type, value);
}

export function EncodeUnsafe(context, type, value) {
  return walk("Encode", context, type, value);
}

export function decode(context, type, value) {
  const checked = assertMatches(DecodeError, context, type, prepare(context, type, clone(value)));
  return DecodeUnsafe(context, type, checked);
}

export function encode(context, type, value) {
  const encoded = EncodeUnsafe(context, type, clone(value));
  return assertMatches(EncodeError, context, type, prepare(context, type, encoded));
}

const visitedRefs = new Set();

function hasCodec(context, type) {
  if (IsCodec(type)) return true;
  if (isKind(type, "Array")) return hasCodec(context, type.items);
  if (isKind(type, "Cyclic")) return hasCodec({ ...context, ...type.$defs }, { $ref: type.$ref, "~kind": "Ref" });
  if (isKind(type, "Intersect")) return type.allOf.some((member) => hasCodec(context, member));
  if (isKind(type, "Union")) return type.anyOf.some((member) => hasCodec(context, member));
  if (isKind(type, "Tuple")) return type.items.some((member) => hasCodec(context, member));
  if (isKind(type, "Object")) return Object.getOwnPropertyNames(type.properties).some((key) => hasCodec(context, type.properties[key]));
  if (isKind(type, "Record")) return hasCodec(context, recordEntry(type)[1]);
  if (isKind(type, "Ref")) {
    // A reference seen before in this walk adds nothing new (and may be cyclic).
    if (visitedRefs.has(type.$ref)) return false;
    visitedRefs.add(type.$ref);
    return Object.hasOwn(context, type.$ref) && hasCodec(context, context[type.$ref]);
  }
  return false;
}

export function HasCodec(...args) {
  if (args.length !== 1 && args.length !== 2) throw Error("Invalid Arguments");
  const [context, type] = args.length === 2 ? args : [{}, args[0]];
  visitedRefs.clear();
  return hasCodec(context, type);
}
