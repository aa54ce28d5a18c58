// Whether a value matches a JSON Schema, the way TypeBox 1.x's Value.Check
// decides it (and pi-schema's check, which differs only in counting string
// length by code points instead of graphemes and in failing unknown `type`
// names). Errors are explained elsewhere; this is the yes/no walk both use.

import { testFormat } from "./formats.js";
import {
  ArrayIsArray,
  ArrayPrototypeEvery,
  ArrayPrototypeFilter,
  ArrayPrototypeIncludes,
  ArrayPrototypeSome,
  NumberIsFinite,
  NumberIsInteger,
  ObjectGetOwnPropertyNames,
  ObjectHasOwn,
  ObjectKeys,
  SafeMap,
} from "../../runtime/primordials.js";
import { graphemes } from "../pi-tui/unicode.js";

export function isObjectValue(value) {
  return typeof value === "object" && value !== null;
}

export function isPlainRecord(value) {
  return isObjectValue(value) && !ArrayIsArray(value);
}

/** Whether a schema carries TypeBox refinements (`Type.Refine`), checks written as functions. */
export function hasRefinements(schema) {
  return "~refine" in schema && ArrayIsArray(schema["~refine"]) && ArrayPrototypeEvery(schema["~refine"], (item) => isObjectValue(item) && typeof item.check === "function" && typeof item.error === "function");
}

export function isSchemaNode(value) {
  return typeof value === "object" && value !== null && !ArrayIsArray(value);
}

/** JSON equality as `const`, `enum` and `uniqueItems` compare (TypeBox's Value.Equal). */
export function deepEqual(left, right) {
  if (ArrayIsArray(left)) {
    return ArrayIsArray(right) && left.length === right.length && ArrayPrototypeEvery(left, (item, index) => deepEqual(item, right[index]));
  }
  if (isObjectValue(left)) {
    if (!isObjectValue(right) || ArrayIsArray(right)) return false;
    const keys = ObjectGetOwnPropertyNames(left);
    return keys.length === ObjectGetOwnPropertyNames(right).length && ArrayPrototypeEvery(keys, (key) => deepEqual(left[key], right[key]));
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
  if (!NumberIsFinite(value)) return true;
  if (NumberIsInteger(value) && (1 / divisor) % 1 === 0) return true;
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
    if ((typeof value === "number" && !NumberIsInteger(value)) || (typeof divisor === "number" && !NumberIsInteger(divisor))) return false;
    const big = BigInt(divisor);
    return big !== 0n && BigInt(value) % big === 0n;
  }
  const quotient = value / divisor;
  if (NumberIsInteger(quotient)) return true;
  if (!NumberIsFinite(quotient)) return value % divisor === 0;
  const [vc, ve] = decimal(value);
  const [dc, de] = decimal(divisor);
  return ve <= de ? (vc * 10n ** BigInt(de - ve)) % dc === 0n : vc % (dc * 10n ** BigInt(ve - de)) === 0n;
}

const regexCache = new SafeMap();

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

export function typeMatches(type, value, unknownTypesPass) {
  switch (type) {
    case "object":
      return isPlainRecord(value);
    case "array":
      return ArrayIsArray(value);
    case "boolean":
      return typeof value === "boolean";
    case "integer":
      return NumberIsInteger(value);
    case "number":
      return NumberIsFinite(value);
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
  const types = ArrayIsArray(schema.type) ? schema.type : [schema.type];
  return ArrayPrototypeSome(types, (type) => typeMatches(type, value, unknownTypesPass));
}

export function hasKey(value, key) {
  return ObjectHasOwn(value, key) || (key !== "__proto__" && key !== "constructor" && key in value);
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
    this.ids = new SafeMap();
    // Only the root's own $ids resolve: TypeBox does not look inside the
    // context's schemas for them (a cyclic type reached through the context
    // cannot reach its own definitions there).
    this.index(root);
  }

  index(schema) {
    if (ArrayIsArray(schema)) {
      for (let index = 0; index < schema.length; index++) this.index(schema[index]);
      return;
    }
    if (!isSchemaNode(schema)) return;
    if (typeof schema.$id === "string") this.ids.set(schema.$id, schema);
    const keys = ObjectKeys(schema);
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index];
      if (key !== "const" && key !== "enum" && key !== "default" && key !== "examples") this.index(schema[key]);
    }
  }

  /** The schema a `$ref` names, or undefined when it names nothing. */
  resolve(ref) {
    if (ref === "#") return this.root;
    if (ref.startsWith("#/")) {
      let node = this.root;
      const segments = ref.slice(2).split("/");
      for (let index = 0; index < segments.length; index++) {
        const raw = segments[index];
        const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
        if (!isObjectValue(node) || !ObjectHasOwn(node, key)) return undefined;
        node = node[key];
      }
      return node;
    }
    if (ObjectHasOwn(this.context, ref)) return this.context[ref];
    if (this.ids.has(ref)) return this.ids.get(ref);
    const defs = this.root?.$defs ?? this.root?.definitions;
    if (isObjectValue(defs) && ObjectHasOwn(defs, ref)) return defs[ref];
    return undefined;
  }

  /** Values number keywords apply to: TypeBox skips NaN and infinities. */
  isNumeric(value) {
    return typeof value === "bigint" || (this.pi ? typeof value === "number" : NumberIsFinite(value));
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
    if (!ObjectHasOwn(value, key)) return false;
    if (value[key] !== undefined) return true;
    const property = isSchemaNode(schema.properties) ? schema.properties[key] : undefined;
    return property !== undefined && this.check(property, undefined);
  }

  // The walks below are index loops rather than every/some/filter with a
  // closure: tool arguments are checked on every call, and each closure and
  // array costs on this engine. A hole in a schema's list is skipped, as
  // those methods skip it.
  check(schema, value) {
    if (schema === true) return true;
    if (schema === false) return false;
    if (!isSchemaNode(schema)) return true;
    const type = schema.type;
    if (type !== undefined && !(typeof type === "string" ? typeMatches(type, value, !this.pi) : matchesType(schema, value, !this.pi))) return false;
    if (typeof value === "object" && value !== null) {
      if (!(ArrayIsArray(value) ? this.checkArray(schema, value) : this.checkObject(schema, value))) return false;
    } else if (typeof value === "string") {
      if (!this.checkString(schema, value)) return false;
    } else if (this.isNumeric(value) && !this.checkNumber(schema, value)) {
      return false;
    }
    if (typeof schema.$ref === "string") {
      const target = this.resolve(schema.$ref);
      if (target === undefined || !this.check(target, value)) return false;
    }
    if (ObjectHasOwn(schema, "const") && !deepEqual(value, schema.const)) return false;
    const options = schema.enum;
    if (ArrayIsArray(options)) {
      let found = false;
      for (let index = 0; index < options.length && !found; index++) {
        if (isHole(options, index)) continue;
        found = deepEqual(value, options[index]);
      }
      if (!found) return false;
    }
    if (schema.if !== undefined) {
      const branch = this.check(schema.if, value) ? schema.then : schema.else;
      if (branch !== undefined && !this.check(branch, value)) return false;
    }
    if (schema.not !== undefined && this.check(schema.not, value)) return false;
    const allOf = schema.allOf;
    if (ArrayIsArray(allOf)) {
      for (let index = 0; index < allOf.length; index++) {
        if (!isHole(allOf, index) && !this.check(allOf[index], value)) return false;
      }
    }
    const anyOf = schema.anyOf;
    if (ArrayIsArray(anyOf)) {
      let found = false;
      for (let index = 0; index < anyOf.length && !found; index++) {
        if (isHole(anyOf, index)) continue;
        found = this.check(anyOf[index], value);
      }
      if (!found) return false;
    }
    const oneOf = schema.oneOf;
    if (ArrayIsArray(oneOf)) {
      // Every branch is checked, as filter does.
      let matches = 0;
      for (let index = 0; index < oneOf.length; index++) {
        if (!isHole(oneOf, index) && this.check(oneOf[index], value)) matches++;
      }
      if (matches !== 1) return false;
    }
    if (hasRefinements(schema) && !ArrayPrototypeEvery(schema["~refine"], (refinement) => refinement.check(value))) return false;
    return true;
  }

  /** Whether `key` is covered by `properties` or `patternProperties`. */
  declared(schema, key) {
    if (isSchemaNode(schema.properties) && ObjectHasOwn(schema.properties, key)) return true;
    return isSchemaNode(schema.patternProperties) && ArrayPrototypeSome(ObjectKeys(schema.patternProperties), (pattern) => patternRegExp(pattern).test(key));
  }

  checkObject(schema, value) {
    const keys = this.pi ? ObjectKeys(value) : ObjectGetOwnPropertyNames(value);
    const required = schema.required;
    if (ArrayIsArray(required)) {
      for (let index = 0; index < required.length; index++) {
        if (!isHole(required, index) && !this.present(schema, value, required[index])) return false;
      }
    }
    if (schema.additionalProperties !== undefined && schema.additionalProperties !== true) {
      for (let index = 0; index < keys.length; index++) {
        const key = keys[index];
        if (!this.declared(schema, key) && !this.check(schema.additionalProperties, value[key])) return false;
      }
    }
    if (isSchemaNode(schema.dependencies)) {
      const dependents = ObjectKeys(schema.dependencies);
      for (let index = 0; index < dependents.length; index++) {
        const key = dependents[index];
        const dependency = schema.dependencies[key];
        if (!hasKey(value, key)) continue;
        if (ArrayIsArray(dependency) ? !ArrayPrototypeEvery(dependency, (name) => hasKey(value, name)) : !this.check(dependency, value)) return false;
      }
    }
    if (isSchemaNode(schema.dependentRequired)) {
      const dependents = ObjectKeys(schema.dependentRequired);
      for (let index = 0; index < dependents.length; index++) {
        const key = dependents[index];
        if (hasKey(value, key) && !ArrayPrototypeEvery(schema.dependentRequired[key], (name) => hasKey(value, name))) return false;
      }
    }
    if (isSchemaNode(schema.dependentSchemas)) {
      const dependents = ObjectKeys(schema.dependentSchemas);
      for (let index = 0; index < dependents.length; index++) {
        const key = dependents[index];
        if (hasKey(value, key) && !this.check(schema.dependentSchemas[key], value)) return false;
      }
    }
    if (isSchemaNode(schema.patternProperties)) {
      const patterns = ObjectKeys(schema.patternProperties);
      for (let index = 0; index < patterns.length; index++) {
        const property = schema.patternProperties[patterns[index]];
        const regexp = patternRegExp(patterns[index]);
        const valueKeys = ObjectKeys(value);
        for (let item = 0; item < valueKeys.length; item++) {
          const key = valueKeys[item];
          if (regexp.test(key) && !this.check(property, value[key])) return false;
        }
      }
    }
    const properties = schema.properties;
    if (isSchemaNode(properties)) {
      const names = ObjectKeys(properties);
      for (let index = 0; index < names.length; index++) {
        const key = names[index];
        if (!hasKey(value, key)) continue;
        const item = value[key];
        // An optional property set to undefined counts as absent, as in
        // TypeScript; pi-schema takes any property set to undefined as absent.
        if (item === undefined && (this.pi || !(ArrayIsArray(required) && ArrayPrototypeIncludes(required, key)))) continue;
        if (!this.check(properties[key], item)) return false;
      }
    }
    if (schema.propertyNames !== undefined) {
      for (let index = 0; index < keys.length; index++) if (!this.check(schema.propertyNames, keys[index])) return false;
    }
    if (typeof schema.minProperties === "number" && keys.length < schema.minProperties) return false;
    if (typeof schema.maxProperties === "number" && keys.length > schema.maxProperties) return false;
    return true;
  }

  checkArray(schema, value) {
    const tuple = ArrayIsArray(schema.items);
    const prefix = tuple ? schema.items : ArrayIsArray(schema.prefixItems) ? schema.prefixItems : [];
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
      const count = ArrayPrototypeFilter(value, (item) => this.check(schema.contains, item)).length;
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
    if (bound(schema.minimum) && value < schema.minimum) return false;
    if (bound(schema.maximum) && value > schema.maximum) return false;
    if (bound(schema.exclusiveMinimum) && value <= schema.exclusiveMinimum) return false;
    if (bound(schema.exclusiveMaximum) && value >= schema.exclusiveMaximum) return false;
    if (bound(schema.multipleOf) && !this.multipleOf(value, schema.multipleOf)) return false;
    return true;
  }
}

function bound(limit) {
  return typeof limit === "number" || typeof limit === "bigint";
}

/** Whether `list[index]` is a hole, which every/some/filter skip. */
export function isHole(list, index) {
  return list[index] === undefined && !(index in list);
}

/** A schema's TypeBox kind: its `~kind` mark, else read from plain JSON Schema. */
export function kindOf(schema) {
  if (!isSchemaNode(schema)) return undefined;
  if (typeof schema["~kind"] === "string") return schema["~kind"];
  if (typeof schema.$ref === "string") return schema.$defs ? "Cyclic" : "Ref";
  if (ObjectHasOwn(schema, "const")) return "Literal";
  if (ArrayIsArray(schema.enum)) return "Enum";
  if (ArrayIsArray(schema.anyOf)) return "Union";
  if (ArrayIsArray(schema.allOf)) return "Intersect";
  if (isSchemaNode(schema.not) && ObjectKeys(schema.not).length === 0) return "Never";
  switch (schema.type) {
    case "object":
      return schema.patternProperties !== undefined && schema.properties === undefined ? "Record" : "Object";
    case "array":
      return ArrayIsArray(schema.items) ? "Tuple" : "Array";
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
