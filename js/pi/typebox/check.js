// Whether a value matches a JSON Schema, the way TypeBox 1.x's Value.Check
// decides it (and pi-schema's check, which differs only in counting string
// length by code points instead of graphemes and in failing unknown `type`
// names). Errors are explained elsewhere; this is the yes/no walk both use.

import { testFormat } from "./formats.js";
import { graphemes } from "../pi-tui/unicode.js";

export function isObjectValue(value) {
  return typeof value === "object" && value !== null;
}

export function isPlainRecord(value) {
  return isObjectValue(value) && !Array.isArray(value);
}

/** Whether a schema carries TypeBox refinements (`Type.Refine`), checks written as functions. */
export function hasRefinements(schema) {
  return "~refine" in schema && Array.isArray(schema["~refine"]) && schema["~refine"].every((item) => isObjectValue(item) && typeof item.check === "function" && typeof item.error === "function");
}

export function isSchemaNode(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** JSON equality as `const`, `enum` and `uniqueItems` compare (TypeBox's Value.Equal). */
export function deepEqual(left, right) {
  if (Array.isArray(left)) {
    return Array.isArray(right) && left.length === right.length && left.every((item, index) => deepEqual(item, right[index]));
  }
  if (isObjectValue(left)) {
    if (!isObjectValue(right) || Array.isArray(right)) return false;
    const keys = Object.getOwnPropertyNames(left);
    return keys.length === Object.getOwnPropertyNames(right).length && keys.every((key) => deepEqual(left[key], right[key]));
  }
  return left === right;
}

// The engine has no Intl.Segmenter; pi-tui's splitter follows the same
// Unicode rules (checked against Node's segmenter).
export function graphemeCount(text) {
  return graphemes(text).length;
}

export function codePointCount(text) {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** TypeBox's multipleOf: exact for integers, else within a small tolerance. */
function typeboxMultipleOf(value, divisor) {
  if (typeof value === "bigint" || typeof divisor === "bigint") return BigInt(value) % BigInt(divisor) === 0n;
  if (!Number.isFinite(value)) return true;
  if (Number.isInteger(value) && (1 / divisor) % 1 === 0) return true;
  const mod = value % divisor;
  return Math.min(Math.abs(mod), Math.abs(mod - divisor), Math.abs(mod + divisor)) < 1e-10;
}

// A number's exact decimal digits and exponent, so 0.3 is a multiple of 0.1.
function decimal(value) {
  const [mantissa, exponent = "0"] = value.toExponential().split("e");
  const [whole, fraction = ""] = mantissa.split(".");
  const scale = fraction.length - Number(exponent);
  return [BigInt(whole + fraction), scale];
}

/** pi-schema's multipleOf: exact decimal arithmetic. */
export function exactMultipleOf(value, divisor) {
  if (typeof value === "bigint" || typeof divisor === "bigint") {
    if ((typeof value === "number" && !Number.isInteger(value)) || (typeof divisor === "number" && !Number.isInteger(divisor))) return false;
    const big = BigInt(divisor);
    return big !== 0n && BigInt(value) % big === 0n;
  }
  const quotient = value / divisor;
  if (Number.isInteger(quotient)) return true;
  if (!Number.isFinite(quotient)) return value % divisor === 0;
  const [vc, ve] = decimal(value);
  const [dc, de] = decimal(divisor);
  return ve <= de ? (vc * 10n ** BigInt(de - ve)) % dc === 0n : vc % (dc * 10n ** BigInt(ve - de)) === 0n;
}

const regexCache = new Map();

/** A schema pattern as a RegExp: Unicode-aware, as both validators compile them. */
export function patternRegExp(pattern) {
  let regexp = regexCache.get(pattern);
  if (regexp === undefined) {
    try {
      regexp = new RegExp(pattern, "u");
    } catch {
      regexp = new RegExp(pattern);
    }
    regexCache.set(pattern, regexp);
  }
  return regexp;
}

function typeMatches(type, value, unknownTypesPass) {
  switch (type) {
    case "object":
      return isPlainRecord(value);
    case "array":
      return Array.isArray(value);
    case "boolean":
      return typeof value === "boolean";
    case "integer":
      return Number.isInteger(value);
    case "number":
      return Number.isFinite(value);
    case "null":
      return value === null;
    case "string":
      return typeof value === "string";
    case "bigint":
      return typeof value === "bigint";
    case "symbol":
      return typeof value === "symbol";
    case "function":
      return typeof value === "function";
    case "undefined":
      return value === undefined;
    case "void":
      return unknownTypesPass ? value === undefined : false;
    default:
      return unknownTypesPass;
  }
}

export function matchesType(schema, value, unknownTypesPass = true) {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.some((type) => typeMatches(type, value, unknownTypesPass));
}

function hasKey(value, key) {
  return Object.hasOwn(value, key) || (key !== "__proto__" && key !== "constructor" && key in value);
}

/**
 * A checker over one root schema. `options.flavour` is "typebox" (default)
 * or "pi-schema"; `options.context` names extra schemas `$ref`s may reach.
 */
export class SchemaChecker {
  constructor(root, options = {}) {
    this.root = root;
    this.context = options.context ?? {};
    this.pi = options.flavour === "pi-schema";
    this.ids = new Map();
    // Only the root's own $ids resolve: TypeBox does not look inside the
    // context's schemas for them (a cyclic type reached through the context
    // cannot reach its own definitions there).
    this.index(root);
  }

  index(schema) {
    if (Array.isArray(schema)) {
      for (const item of schema) this.index(item);
      return;
    }
    if (!isSchemaNode(schema)) return;
    if (typeof schema.$id === "string") this.ids.set(schema.$id, schema);
    for (const key of Object.keys(schema)) {
      if (key !== "const" && key !== "enum" && key !== "default" && key !== "examples") this.index(schema[key]);
    }
  }

  /** The schema a `$ref` names, or undefined when it names nothing. */
  resolve(ref) {
    if (ref === "#") return this.root;
    if (ref.startsWith("#/")) {
      let node = this.root;
      for (const raw of ref.slice(2).split("/")) {
        const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
        if (!isObjectValue(node) || !Object.hasOwn(node, key)) return undefined;
        node = node[key];
      }
      return node;
    }
    if (Object.hasOwn(this.context, ref)) return this.context[ref];
    if (this.ids.has(ref)) return this.ids.get(ref);
    const defs = this.root?.$defs ?? this.root?.definitions;
    if (isObjectValue(defs) && Object.hasOwn(defs, ref)) return defs[ref];
    return undefined;
  }

  /** Values number keywords apply to: TypeBox skips NaN and infinities. */
  isNumeric(value) {
    return typeof value === "bigint" || (this.pi ? typeof value === "number" : Number.isFinite(value));
  }

  stringLength(text) {
    return this.pi ? codePointCount(text) : graphemeCount(text);
  }

  multipleOf(value, divisor) {
    return this.pi ? exactMultipleOf(value, divisor) : typeboxMultipleOf(value, divisor);
  }

  /** Whether a required key counts as present (pi-schema: undefined is missing unless the schema takes it). */
  present(schema, value, key) {
    if (!this.pi) return hasKey(value, key);
    if (!Object.hasOwn(value, key)) return false;
    if (value[key] !== undefined) return true;
    const property = isSchemaNode(schema.properties) ? schema.properties[key] : undefined;
    return property !== undefined && this.check(property, undefined);
  }

  check(schema, value) {
    if (schema === true) return true;
    if (schema === false) return false;
    if (!isSchemaNode(schema)) return true;
    if (schema.type !== undefined && !matchesType(schema, value, !this.pi)) return false;
    if (isPlainRecord(value) && !this.checkObject(schema, value)) return false;
    if (Array.isArray(value) && !this.checkArray(schema, value)) return false;
    if (typeof value === "string" && !this.checkString(schema, value)) return false;
    if (this.isNumeric(value) && !this.checkNumber(schema, value)) return false;
    if (typeof schema.$ref === "string") {
      const target = this.resolve(schema.$ref);
      if (target === undefined || !this.check(target, value)) return false;
    }
    if (Object.hasOwn(schema, "const") && !deepEqual(value, schema.const)) return false;
    if (Array.isArray(schema.enum) && !schema.enum.some((option) => deepEqual(value, option))) return false;
    if (schema.if !== undefined) {
      const branch = this.check(schema.if, value) ? schema.then : schema.else;
      if (branch !== undefined && !this.check(branch, value)) return false;
    }
    if (schema.not !== undefined && this.check(schema.not, value)) return false;
    if (Array.isArray(schema.allOf) && !schema.allOf.every((member) => this.check(member, value))) return false;
    if (Array.isArray(schema.anyOf) && !schema.anyOf.some((member) => this.check(member, value))) return false;
    if (Array.isArray(schema.oneOf) && schema.oneOf.filter((member) => this.check(member, value)).length !== 1) return false;
    if (hasRefinements(schema) && !schema["~refine"].every((refinement) => refinement.check(value))) return false;
    return true;
  }

  /** Whether `key` is covered by `properties` or `patternProperties`. */
  declared(schema, key) {
    if (isSchemaNode(schema.properties) && Object.hasOwn(schema.properties, key)) return true;
    return isSchemaNode(schema.patternProperties) && Object.keys(schema.patternProperties).some((pattern) => patternRegExp(pattern).test(key));
  }

  checkObject(schema, value) {
    const keys = this.pi ? Object.keys(value) : Object.getOwnPropertyNames(value);
    if (Array.isArray(schema.required) && !schema.required.every((key) => this.present(schema, value, key))) return false;
    if (schema.additionalProperties !== undefined && schema.additionalProperties !== true) {
      for (const key of keys) {
        if (!this.declared(schema, key) && !this.check(schema.additionalProperties, value[key])) return false;
      }
    }
    if (isSchemaNode(schema.dependencies)) {
      for (const [key, dependency] of Object.entries(schema.dependencies)) {
        if (!hasKey(value, key)) continue;
        if (Array.isArray(dependency) ? !dependency.every((name) => hasKey(value, name)) : !this.check(dependency, value)) return false;
      }
    }
    if (isSchemaNode(schema.dependentRequired)) {
      for (const [key, names] of Object.entries(schema.dependentRequired)) {
        if (hasKey(value, key) && !names.every((name) => hasKey(value, name))) return false;
      }
    }
    if (isSchemaNode(schema.dependentSchemas)) {
      for (const [key, dependency] of Object.entries(schema.dependentSchemas)) {
        if (hasKey(value, key) && !this.check(dependency, value)) return false;
      }
    }
    if (isSchemaNode(schema.patternProperties)) {
      for (const [pattern, property] of Object.entries(schema.patternProperties)) {
        const regexp = patternRegExp(pattern);
        for (const [key, item] of Object.entries(value)) {
          if (regexp.test(key) && !this.check(property, item)) return false;
        }
      }
    }
    if (isSchemaNode(schema.properties)) {
      for (const [key, property] of Object.entries(schema.properties)) {
        if (!hasKey(value, key)) continue;
        // An optional property set to undefined counts as absent, as in TypeScript.
        const required = Array.isArray(schema.required) && schema.required.includes(key);
        if (!required && value[key] === undefined) continue;
        if (this.pi && value[key] === undefined) continue;
        if (!this.check(property, value[key])) return false;
      }
    }
    if (schema.propertyNames !== undefined && !keys.every((key) => this.check(schema.propertyNames, key))) return false;
    if (typeof schema.minProperties === "number" && keys.length < schema.minProperties) return false;
    if (typeof schema.maxProperties === "number" && keys.length > schema.maxProperties) return false;
    return true;
  }

  checkArray(schema, value) {
    const tuple = Array.isArray(schema.items);
    const prefix = tuple ? schema.items : Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    const rest = tuple ? schema.additionalItems : schema.items;
    for (let index = 0; index < value.length; index++) {
      const item = index < prefix.length ? prefix[index] : rest;
      if (item !== undefined && !this.check(item, value[index])) return false;
    }
    if (typeof schema.minItems === "number" && value.length < schema.minItems) return false;
    if (typeof schema.maxItems === "number" && value.length > schema.maxItems) return false;
    if (schema.uniqueItems === true) {
      for (let i = 1; i < value.length; i++) {
        for (let j = 0; j < i; j++) if (deepEqual(value[i], value[j])) return false;
      }
    }
    if (schema.contains !== undefined) {
      const count = value.filter((item) => this.check(schema.contains, item)).length;
      const min = typeof schema.minContains === "number" ? schema.minContains : 1;
      const max = typeof schema.maxContains === "number" ? schema.maxContains : Infinity;
      if (count < min || count > max) return false;
    }
    return true;
  }

  checkString(schema, value) {
    if (typeof schema.minLength === "number" && this.stringLength(value) < schema.minLength) return false;
    if (typeof schema.maxLength === "number" && this.stringLength(value) > schema.maxLength) return false;
    if (typeof schema.pattern === "string" && !patternRegExp(schema.pattern).test(value)) return false;
    if (schema.pattern instanceof RegExp && !schema.pattern.test(value)) return false;
    if (typeof schema.format === "string" && !testFormat(schema.format, value)) return false;
    return true;
  }

  checkNumber(schema, value) {
    const bound = (limit) => typeof limit === "number" || typeof limit === "bigint";
    if (bound(schema.minimum) && value < schema.minimum) return false;
    if (bound(schema.maximum) && value > schema.maximum) return false;
    if (bound(schema.exclusiveMinimum) && value <= schema.exclusiveMinimum) return false;
    if (bound(schema.exclusiveMaximum) && value >= schema.exclusiveMaximum) return false;
    if (bound(schema.multipleOf) && !this.multipleOf(value, schema.multipleOf)) return false;
    return true;
  }
}

/** A schema's TypeBox kind: its `~kind` mark, else read from plain JSON Schema. */
export function kindOf(schema) {
  if (!isSchemaNode(schema)) return undefined;
  if (typeof schema["~kind"] === "string") return schema["~kind"];
  if (typeof schema.$ref === "string") return schema.$defs ? "Cyclic" : "Ref";
  if (Object.hasOwn(schema, "const")) return "Literal";
  if (Array.isArray(schema.enum)) return "Enum";
  if (Array.isArray(schema.anyOf)) return "Union";
  if (Array.isArray(schema.allOf)) return "Intersect";
  if (isSchemaNode(schema.not) && Object.keys(schema.not).length === 0) return "Never";
  switch (schema.type) {
    case "object":
      return schema.patternProperties !== undefined && schema.properties === undefined ? "Record" : "Object";
    case "array":
      return Array.isArray(schema.items) ? "Tuple" : "Array";
    case "string":
      return "String";
    case "number":
      return "Number";
    case "integer":
      return "Integer";
    case "boolean":
      return "Boolean";
    case "null":
      return "Null";
    case "bigint":
      return "BigInt";
    case "symbol":
      return "Symbol";
    case "undefined":
      return "Undefined";
    case "void":
      return "Void";
    default:
      return "Unknown";
  }
}
