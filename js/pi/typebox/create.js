// Value.Create, Value.Default and Value.Clean: the TypeBox operations that
// build or repair a value from a type by its kind. Default and Clean modify
// the value they are given, as TypeBox's do.

import { SchemaChecker, isObjectValue, isPlainRecord, kindOf, patternRegExp } from "./check.js";
import { clone } from "./clone.js";
import { Evaluate } from "./evaluate.js";
import { Instantiate } from "./instantiate.js";
import { updateSchema } from "./schema-object.js";
import { TemplateLiteralDecode } from "./template-pattern.js";

export class CreateError extends Error {
  constructor(type, message) {
    super(message);
    this.type = type;
  }
}

function withDefs(context, type) {
  return { ...context, ...type.$defs };
}

function hasDefault(type) {
  return isObjectValue(type) && Object.hasOwn(type, "default");
}

function numberStart(type) {
  if (typeof type.exclusiveMinimum === "number") return type.exclusiveMinimum + 1;
  return typeof type.minimum === "number" ? type.minimum : 0;
}

export function create(context, type) {
  if (hasDefault(type)) {
    if (typeof type.default === "function") return type.default(type);
    return isObjectValue(type.default) ? clone(type.default) : type.default;
  }
  switch (kindOf(type)) {
    case "Array":
      if (type.uniqueItems === true) throw new CreateError(type, "Arrays with uniqueItems constraints must specify a default annotation");
      return globalThis.Array.from({ length: type.minItems ?? 0 }, () => create(context, type.items));
    case "BigInt":
      if (type.exclusiveMinimum !== undefined) return BigInt(type.exclusiveMinimum) + 1n;
      return type.minimum !== undefined ? BigInt(type.minimum) : 0n;
    case "Boolean":
      return false;
    case "Cyclic":
      return create(withDefs(context, type), { $ref: type.$ref });
    case "Enum":
      return type.enum[0];
    case "Integer":
    case "Number":
      return numberStart(type);
    case "Intersect":
      // Created from the intersection's evaluated form: merged objects, narrowed types.
      return create(context, Evaluate(Instantiate(context, type)));
    case "Function": {
      const returned = create(context, type.returnType);
      return () => returned;
    }
    case "Constructor": {
      const instance = create(context, type.instanceType);
      return class {
        constructor() {
          Object.assign(this, instance);
        }
      };
    }
    case "TemplateLiteral": {
      const decoded = TemplateLiteralDecode(type.pattern);
      if (kindOf(decoded) === "String") throw new CreateError(type, "Unable to create TemplateLiteral due to infinite type expansion");
      return create(context, decoded);
    }
    case "Literal":
      return type.const;
    case "Never":
      throw new CreateError(type, "Cannot create TNever types");
    case "Null":
      return null;
    case "Object":
      return Object.fromEntries((type.required ?? []).map((key) => [key, create(context, type.properties[key])]));
    case "Record":
      if (typeof type.minProperties === "number") throw new CreateError(type, "Record with the minProperties constraint must have a default annotation");
      return {};
    case "Ref":
      if (!Object.hasOwn(context, type.$ref)) throw new CreateError(type, "Unable to deref Ref");
      return create(context, context[type.$ref]);
    case "String":
      if (type.pattern !== undefined || type.format !== undefined) throw Error("Strings with format or pattern constraints must specify default");
      return "".padEnd(type.minLength ?? 0);
    case "Symbol":
      return Symbol();
    case "Tuple":
      return globalThis.Array.from({ length: type.minItems }, (_, index) => create(context, type.items[index]));
    case "Union":
      if (type.anyOf.length === 0) throw Error("Unable to create Union with no variants");
      return create(context, type.anyOf[0]);
    default:
      return undefined;
  }
}

function check(context, type, value) {
  return new SchemaChecker(type, { context }).check(type, value);
}

function recordPattern(type) {
  return patternRegExp(Object.keys(type.patternProperties)[0] ?? "^.*$");
}

function recordValue(type) {
  return Object.values(type.patternProperties)[0];
}

/** Fills in `default` annotations where the value is missing them. */
export function applyDefaults(context, type, value) {
  let current = value;
  if (hasDefault(type) && current === undefined) {
    current = typeof type.default === "function" ? type.default() : clone(type.default);
  }
  switch (kindOf(type)) {
    case "Array":
      if (Array.isArray(current)) for (let i = 0; i < current.length; i++) current[i] = applyDefaults(context, type.items, current[i]);
      return current;
    case "Tuple":
      if (Array.isArray(current)) type.items.forEach((item, i) => (current[i] = applyDefaults(context, item, current[i])));
      return current;
    case "Cyclic":
      return applyDefaults(withDefs(context, type), { $ref: type.$ref }, current);
    case "Ref":
      return Object.hasOwn(context, type.$ref) ? applyDefaults(context, context[type.$ref], current) : current;
    case "Intersect":
      return type.allOf.reduce((next, member) => applyDefaults(context, member, next), current);
    case "Object": {
      if (!isObjectValue(current)) return current;
      const known = Object.keys(type.properties);
      for (const key of known) {
        const property = type.properties[key];
        const next = applyDefaults(context, property, current[key]);
        if (next === undefined && (property["~optional"] === true || !hasDefault(property))) continue;
        current[key] = next;
      }
      if (isObjectValue(type.additionalProperties)) {
        for (const key of Object.getOwnPropertyNames(current)) {
          if (!known.includes(key)) current[key] = applyDefaults(context, type.additionalProperties, current[key]);
        }
      }
      return current;
    }
    case "Record": {
      if (!isObjectValue(current)) return current;
      const pattern = recordPattern(type);
      const item = recordValue(type);
      for (const key of Object.getOwnPropertyNames(current)) {
        if (pattern.test(key) && hasDefault(item)) current[key] = applyDefaults(context, item, current[key]);
      }
      return current;
    }
    case "Union":
      for (const branch of type.anyOf) {
        const result = applyDefaults(context, branch, clone(current));
        if (check(context, branch, result)) return result;
      }
      return current;
    default:
      return current;
  }
}

function keepsUnknown(context, additional, item) {
  return additional === true || (isObjectValue(additional) && check(context, additional, item));
}

/** Removes properties and tuple items the type does not describe. */
export function clean(context, type, value) {
  switch (kindOf(type)) {
    case "Array":
      return Array.isArray(value) ? value.map((item) => clean(context, type.items, item)) : value;
    case "Tuple": {
      if (!Array.isArray(value)) return value;
      const length = Math.min(value.length, type.items.length);
      for (let i = 0; i < length; i++) value[i] = clean(context, type.items[i], value[i]);
      return value.length > length ? value.slice(0, length) : value;
    }
    case "Cyclic":
      return clean(withDefs(context, type), { $ref: type.$ref }, value);
    case "Ref":
      return Object.hasOwn(context, type.$ref) ? clean(context, context[type.$ref], value) : value;
    case "Intersect": {
      // Cleaned as its evaluated form, unevaluatedProperties read as additionalProperties.
      const evaluated = Evaluate(Instantiate(context, type));
      const extra = Object.hasOwn(type, "unevaluatedProperties") ? { additionalProperties: type.unevaluatedProperties } : {};
      return clean(context, kindOf(evaluated) === "Object" ? updateSchema(evaluated, {}, extra) : evaluated, value);
    }
    case "Object": {
      if (!isPlainRecord(value)) return value;
      for (const key of Object.getOwnPropertyNames(value)) {
        if (Object.hasOwn(type.properties ?? {}, key)) value[key] = clean(context, type.properties[key], value[key]);
        else if (keepsUnknown(context, type.additionalProperties, value[key])) value[key] = clean(context, type.additionalProperties, value[key]);
        else delete value[key];
      }
      return value;
    }
    case "Record": {
      if (!isObjectValue(value)) return value;
      const pattern = recordPattern(type);
      for (const key of Object.getOwnPropertyNames(value)) {
        if (pattern.test(key)) value[key] = clean(context, recordValue(type), value[key]);
        else if (keepsUnknown(context, type.additionalProperties, value[key])) value[key] = clean(context, type.additionalProperties, value[key]);
        else delete value[key];
      }
      return value;
    }
    case "Union":
      for (const branch of type.anyOf) {
        const result = clean(context, branch, clone(value));
        if (check(context, branch, result)) return result;
      }
      return value;
    default:
      return value;
  }
}
