// How pi checks a model's tool call arguments before a tool runs (pi-ai's
// validateToolArguments/validateToolCall): the arguments are coerced towards
// the tool's JSON Schema first (models send "42" for 42, one value for a
// list, null for an omitted option), then checked; a failure throws pi's
// "Validation failed for tool …" text with one line per error, each naming
// the dotted path and pi-schema's short message ("missing", "unknown field",
// "expected integer, got string").

import { SchemaChecker, codePointCount, deepEqual, isSchemaNode, matchesType, patternRegExp } from "../pi/typebox/check.js";
import { Converter } from "../pi/typebox/convert.js";
import { compileCheck } from "./compiled-check.js";
import { testFormat } from "../pi/typebox/formats.js";
import {
  ArrayIsArray,
  ArrayPrototypeFilter,
  ArrayPrototypeFind,
  ArrayPrototypeIncludes,
  ArrayPrototypeIndexOf,
  ArrayPrototypeJoin,
  ArrayPrototypeMap,
  ArrayPrototypeSlice,
  ArrayPrototypeSome,
  ArrayPrototypeEvery,
  ArrayPushAll,
  JSONStringify,
  NumberIsFinite,
  NumberIsInteger,
  ObjectHasOwn,
  ObjectKeys,
  ObjectValues,
  SafeSet,
  SafeWeakMap,
  StringPrototypeReplace,
  StringPrototypeSlice,
  StringPrototypeSplit,
  StringPrototypeTrim,
  StructuredClone,
} from "./primordials.js";

/** `items` with each item replaced by `map(item, index)`; `items` itself when nothing changed. */
function mapItems(items, map) {
  let out;
  for (let index = 0; index < items.length; index++) {
    const next = map(items[index], index);
    if (next === items[index]) continue;
    out ??= ArrayPrototypeSlice(items);
    out[index] = next;
  }
  return out ?? items;
}

/** `[key, value]` of an object's own enumerable string keys, in order (Object.entries). */
function entriesOf(object) {
  const keys = ObjectKeys(object);
  const entries = [];
  for (let index = 0; index < keys.length; index++) entries[index] = [keys[index], object[keys[index]]];
  return entries;
}

function isRecord(value) {
  return typeof value === "object" && value !== null && !ArrayIsArray(value) && !(value instanceof Uint8Array);
}

function pointer(path, key) {
  return `${path}/${StringPrototypeReplace(StringPrototypeReplace(String(key), /~/g, "~0"), /\//g, "~1")}`;
}

function typeName(value) {
  if (value === null) return "null";
  if (ArrayIsArray(value)) return "array";
  if (value instanceof Uint8Array) return "bytes";
  if (typeof value === "number" && NumberIsInteger(value)) return "integer";
  if (typeof value === "number" && !NumberIsFinite(value)) return String(value);
  return typeof value;
}

// Long enums are cut so a message stays readable.
const LISTED_VALUES = 20;

function listValues(values) {
  if (values.length <= LISTED_VALUES) return JSONStringify(values);
  const listed = JSONStringify(ArrayPrototypeSlice(values, 0, LISTED_VALUES));
  return `${StringPrototypeSlice(listed, 0, -1)}, ... and ${values.length - LISTED_VALUES} more]`;
}

function containsMessage(min, max) {
  if (max === Infinity) return `expected at least ${min} matching ${min === 1 ? "item" : "items"}`;
  if (min === 0) return `expected at most ${max} matching ${max === 1 ? "item" : "items"}`;
  return `expected between ${min} and ${max} matching items`;
}

function isBound(value) {
  return typeof value === "number" || typeof value === "bigint";
}

/** Explains why a value failed: each failing keyword at the value it failed on. */
class Explainer {
  constructor(checker) {
    this.checker = checker;
  }

  ok(node, value) {
    return this.checker.check(node, value);
  }

  errors(schema, value) {
    const out = [];
    this.walk(schema, value, "", out);
    if (out.length === 0) out[out.length] = { path: "", keyword: "schema", message: "invalid" };
    return out;
  }

  walk(node, value, path, out) {
    if (node === true) return;
    if (node === false) {
      out[out.length] = { path, keyword: "false", message: "no value is allowed here" };
      return;
    }
    if (!isSchemaNode(node) || this.ok(node, value)) return;
    const push = (keyword, message, at = path) => {
      out[out.length] = { path: at, keyword, message };
    };
    if (node.type !== undefined && !matchesType(node, value, false)) {
      const types = ArrayIsArray(node.type) ? node.type : [node.type];
      push("type", `expected ${ArrayPrototypeJoin(types, " or ")}, got ${typeName(value)}`);
      return;
    }
    if (ArrayIsArray(node.enum) && !ArrayPrototypeSome(node.enum, (option) => deepEqual(value, option))) push("enum", `expected one of ${listValues(node.enum)}`);
    if (ObjectHasOwn(node, "const") && !deepEqual(value, node.const)) push("const", `expected ${JSONStringify(node.const)}`);
    if (typeof value === "string") this.walkString(node, value, push);
    if (typeof value === "number" || typeof value === "bigint") this.walkNumber(node, value, push);
    if (isRecord(value)) this.walkObject(node, value, path, out, push);
    if (ArrayIsArray(value)) this.walkArray(node, value, path, out, push);
    if (ArrayIsArray(node.allOf)) for (let index = 0; index < node.allOf.length; index++) this.walk(node.allOf[index], value, path, out);
    if (ArrayIsArray(node.anyOf)) this.walkUnion(node.anyOf, value, path, out, false);
    if (ArrayIsArray(node.oneOf)) this.walkUnion(node.oneOf, value, path, out, true);
    if (node.not !== undefined && this.ok(node.not, value)) push("not", "must not match the schema in not");
    if (node.if !== undefined) {
      const branch = this.ok(node.if, value) ? node.then : node.else;
      if (branch !== undefined) this.walk(branch, value, path, out);
    }
    if (typeof node.$ref === "string") {
      const target = this.checker.resolve(node.$ref);
      if (target === undefined) out[out.length] = { path, keyword: "$ref", message: `unresolved reference ${node.$ref}` };
      else this.walk(target, value, path, out);
    }
  }

  walkString(node, value, push) {
    const length = codePointCount(value);
    if (typeof node.minLength === "number" && length < node.minLength) push("minLength", `expected at least ${node.minLength} characters`);
    if (typeof node.maxLength === "number" && length > node.maxLength) push("maxLength", `expected at most ${node.maxLength} characters`);
    if (typeof node.pattern === "string" && !patternRegExp(node.pattern).test(value)) push("pattern", `expected to match ${node.pattern}`);
    if (typeof node.format === "string" && !testFormat(node.format, value)) push("format", `expected format ${node.format}`);
  }

  walkNumber(node, value, push) {
    const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = node;
    if (isBound(minimum) && value < minimum) push("minimum", `expected >= ${minimum}`);
    if (isBound(maximum) && value > maximum) push("maximum", `expected <= ${maximum}`);
    if (isBound(exclusiveMinimum) && value <= exclusiveMinimum) push("exclusiveMinimum", `expected > ${exclusiveMinimum}`);
    if (isBound(exclusiveMaximum) && value >= exclusiveMaximum) push("exclusiveMaximum", `expected < ${exclusiveMaximum}`);
    if (isBound(multipleOf) && !this.checker.multipleOf(value, multipleOf)) push("multipleOf", `expected a multiple of ${multipleOf}`);
  }

  walkObject(node, value, path, out, push) {
    const properties = isSchemaNode(node.properties) ? node.properties : {};
    const required = ArrayIsArray(node.required) ? node.required : [];
    for (let index = 0; index < required.length; index++) {
      const key = required[index];
      if (typeof key === "string" && !this.checker.present(node, value, key)) push("required", "missing", pointer(path, key));
    }
    const declared = ObjectKeys(properties);
    for (let index = 0; index < declared.length; index++) {
      const key = declared[index];
      if (ObjectHasOwn(value, key) && value[key] !== undefined) this.walk(properties[key], value[key], pointer(path, key), out);
    }
    const patterns = isSchemaNode(node.patternProperties) ? entriesOf(node.patternProperties) : [];
    const keys = ObjectKeys(value);
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index];
      let matched = ObjectHasOwn(properties, key);
      for (let pattern = 0; pattern < patterns.length; pattern++) {
        if (!patternRegExp(patterns[pattern][0]).test(key)) continue;
        matched = true;
        this.walk(patterns[pattern][1], value[key], pointer(path, key), out);
      }
      if (!matched && node.additionalProperties !== undefined) {
        if (node.additionalProperties === false) push("additionalProperties", "unknown field", pointer(path, key));
        else this.walk(node.additionalProperties, value[key], pointer(path, key), out);
      }
      if (node.propertyNames !== undefined && !this.ok(node.propertyNames, key)) push("propertyNames", "invalid property name", pointer(path, key));
    }
    const count = ObjectKeys(value).length;
    if (typeof node.minProperties === "number" && count < node.minProperties) push("minProperties", `expected at least ${node.minProperties} properties`);
    if (typeof node.maxProperties === "number" && count > node.maxProperties) push("maxProperties", `expected at most ${node.maxProperties} properties`);
    const dependencies = {
      ...(isSchemaNode(node.dependentRequired) ? node.dependentRequired : {}),
      ...(isSchemaNode(node.dependencies) ? node.dependencies : {}),
    };
    const dependent = entriesOf(dependencies);
    for (let index = 0; index < dependent.length; index++) {
      const key = dependent[index][0];
      const dependency = dependent[index][1];
      if (!ObjectHasOwn(value, key)) continue;
      if (!ArrayIsArray(dependency)) {
        this.walk(dependency, value, path, out);
        continue;
      }
      for (let name = 0; name < dependency.length; name++) {
        if (!ObjectHasOwn(value, dependency[name])) push("dependentRequired", `required when ${key} is present`, pointer(path, dependency[name]));
      }
    }
    if (isSchemaNode(node.dependentSchemas)) {
      const schemas = entriesOf(node.dependentSchemas);
      for (let index = 0; index < schemas.length; index++) {
        if (ObjectHasOwn(value, schemas[index][0])) this.walk(schemas[index][1], value, path, out);
      }
    }
  }

  walkArray(node, value, path, out, push) {
    const tuple = ArrayIsArray(node.items);
    const prefix = tuple ? node.items : ArrayIsArray(node.prefixItems) ? node.prefixItems : [];
    const rest = tuple ? node.additionalItems : node.items;
    for (let index = 0; index < value.length; index++) {
      const schema = index < prefix.length ? prefix[index] : rest;
      if (schema !== undefined) this.walk(schema, value[index], `${path}/${index}`, out);
    }
    if (typeof node.minItems === "number" && value.length < node.minItems) push("minItems", `expected at least ${node.minItems} items`);
    if (typeof node.maxItems === "number" && value.length > node.maxItems) push("maxItems", `expected at most ${node.maxItems} items`);
    if (node.uniqueItems === true && !this.checker.checkArray({ uniqueItems: true }, value)) push("uniqueItems", "expected unique items");
    if (node.contains !== undefined) {
      const min = typeof node.minContains === "number" ? node.minContains : 1;
      const max = typeof node.maxContains === "number" ? node.maxContains : Infinity;
      const count = ArrayPrototypeFilter(value, (item) => this.ok(node.contains, item)).length;
      if (count < min || count > max) push("contains", containsMessage(min, max));
    }
  }

  resolved(branch) {
    return isSchemaNode(branch) && typeof branch.$ref === "string" ? this.checker.resolve(branch.$ref) : branch;
  }

  /** A property every branch pins to a distinct primitive `const`: the union's tag. */
  tagOf(branches) {
    const resolved = ArrayPrototypeMap(branches, (branch) => this.resolved(branch));
    const first = resolved[0];
    if (!isSchemaNode(first) || !isSchemaNode(first.properties)) return undefined;
    const keys = ObjectKeys(first.properties);
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index];
      const values = ArrayPrototypeMap(resolved, (schema) => {
        const tag = isSchemaNode(schema) && isSchemaNode(schema.properties) ? schema.properties[key] : undefined;
        return isSchemaNode(tag) ? tag.const : undefined;
      });
      const primitive = ArrayPrototypeEvery(values, (item) => item !== undefined && (typeof item !== "object" || item === null));
      if (primitive && new SafeSet(values).size === values.length) return { key, values };
    }
    return undefined;
  }

  declaredKeys(branch, value) {
    const node = this.resolved(branch);
    const properties = isSchemaNode(node) && isSchemaNode(node.properties) ? node.properties : {};
    return ArrayPrototypeFilter(ObjectKeys(value), (key) => ObjectHasOwn(properties, key)).length;
  }

  // A failed union blames one branch: the one its tag selects, else the one
  // declaring most of the object's keys, else the one failing deepest.
  walkUnion(branches, value, path, out, exactlyOne) {
    const matches = ArrayPrototypeFilter(branches, (branch) => this.ok(branch, value)).length;
    if (matches === 1 || (!exactlyOne && matches > 0)) return;
    const keyword = exactlyOne ? "oneOf" : "anyOf";
    if (matches > 1) {
      out[out.length] = { path, keyword, message: "matches more than one alternative" };
      return;
    }
    const tag = this.tagOf(branches);
    if (tag !== undefined && isRecord(value)) {
      const index = ArrayPrototypeIndexOf(tag.values, value[tag.key]);
      if (index < 0) out[out.length] = { path: pointer(path, tag.key), keyword, message: `expected one of ${listValues(tag.values)}` };
      else this.walk(branches[index], value, path, out);
      return;
    }
    let best;
    for (let index = 0; index < branches.length; index++) {
      const branch = branches[index];
      const errors = [];
      this.walk(branch, value, path, errors);
      if (errors.length === 0) continue;
      const declared = isRecord(value) ? this.declaredKeys(branch, value) : 0;
      if (best === undefined || declared > best.declared || (declared === best.declared && errors[0].path.length > best.errors[0].path.length)) {
        best = { errors, declared };
      }
    }
    ArrayPushAll(out, best?.errors ?? [{ path, keyword, message: "matches no alternative" }]);
  }
}

// Coercion runs three passes: optional nulls dropped, TypeBox's conversions,
// then Ajv-style primitive coercion by `type` for what is left.
class Coercer {
  constructor(checker) {
    this.checker = checker;
    this.converter = new Converter(checker);
  }

  passes(node, value) {
    try {
      return this.checker.check(node, value);
    } catch {
      return false;
    }
  }

  coerce(schema, value) {
    return this.coerceTypes(this.converter.convert(schema, this.dropOptionalNulls(schema, value)), schema);
  }

  dropOptionalNulls(schema, value) {
    if (!isSchemaNode(schema)) return value;
    if (ArrayIsArray(value)) {
      return mapItems(value, (item, index) => {
        const itemSchema = itemSchemaAt(schema, index);
        return itemSchema === undefined ? item : this.dropOptionalNulls(itemSchema, item);
      });
    }
    if (typeof value !== "object" || value === null) return value;
    const properties = isSchemaNode(schema.properties) ? schema.properties : {};
    const patterns = isSchemaNode(schema.patternProperties) ? entriesOf(schema.patternProperties) : [];
    const additional = isSchemaNode(schema.additionalProperties) ? schema.additionalProperties : undefined;
    if (patterns.length === 0 && additional === undefined && !isSchemaNode(schema.properties)) return value;
    const required = new SafeSet(ArrayIsArray(schema.required) ? schema.required : []);
    let out;
    const set = (key, next) => {
      if (next === (out ?? value)[key]) return;
      out ??= { ...value };
      out[key] = next;
    };
    const declared = entriesOf(properties);
    for (let index = 0; index < declared.length; index++) {
      const key = declared[index][0];
      const property = declared[index][1];
      if (!ObjectHasOwn(value, key)) continue;
      const isRef = isSchemaNode(property) && typeof property.$ref === "string";
      if (value[key] === null && !required.has(key) && !isRef && !this.passes(property, null)) {
        out ??= { ...value };
        delete out[key];
        continue;
      }
      set(key, this.dropOptionalNulls(property, value[key]));
    }
    if (patterns.length > 0 || additional !== undefined) {
      const keys = ObjectKeys(value);
      for (let index = 0; index < keys.length; index++) {
        const key = keys[index];
        let matched = ObjectHasOwn(properties, key);
        for (let pattern = 0; pattern < patterns.length; pattern++) {
          if (!patternRegExp(patterns[pattern][0]).test(key)) continue;
          matched = true;
          set(key, this.dropOptionalNulls(patterns[pattern][1], (out ?? value)[key]));
        }
        if (!matched && additional !== undefined) set(key, this.dropOptionalNulls(additional, value[key]));
      }
    }
    return out ?? value;
  }

  coerceTypes(value, schema) {
    if (!isSchemaNode(schema)) return value;
    let next = value;
    if (ArrayIsArray(schema.allOf)) for (let index = 0; index < schema.allOf.length; index++) next = this.coerceTypes(next, schema.allOf[index]);
    if (ArrayIsArray(schema.anyOf)) next = this.coerceUnion(next, schema.anyOf);
    if (ArrayIsArray(schema.oneOf)) next = this.coerceUnion(next, schema.oneOf);
    const types =
      typeof schema.type === "string"
        ? [schema.type]
        : ArrayIsArray(schema.type)
          ? ArrayPrototypeFilter(schema.type, (type) => typeof type === "string")
          : [];
    const alreadyOne =
      types.length > 1 && ArrayPrototypeSome(types, (type) => matchesType({ type }, next, false) && (type !== "object" || isObjectLike(next)));
    if (types.length > 0 && !alreadyOne) {
      for (let index = 0; index < types.length; index++) {
        const candidate = coercePrimitive(next, types[index]);
        if (candidate !== next) {
          next = candidate;
          break;
        }
      }
    }
    if (ArrayPrototypeIncludes(types, "object") && isObjectLike(next)) next = this.coerceProperties(next, schema);
    if (ArrayPrototypeIncludes(types, "array") && ArrayIsArray(next)) {
      next = mapItems(next, (item, index) => {
        const itemSchema = itemSchemaAt(schema, index);
        return isSchemaNode(itemSchema) ? this.coerceTypes(item, itemSchema) : item;
      });
    }
    return next;
  }

  coerceUnion(value, branches) {
    if (ArrayPrototypeSome(branches, (branch) => this.passes(branch, value))) return value;
    for (let index = 0; index < branches.length; index++) {
      const coerced = this.coerceTypes(value, branches[index]);
      if (this.passes(branches[index], coerced)) return coerced;
    }
    return value;
  }

  coerceProperties(value, schema) {
    const properties = isSchemaNode(schema.properties) ? schema.properties : {};
    const patterns = isSchemaNode(schema.patternProperties) ? entriesOf(schema.patternProperties) : [];
    const additional = isSchemaNode(schema.additionalProperties) ? schema.additionalProperties : undefined;
    let out;
    const set = (key, next) => {
      if (next === (out ?? value)[key]) return;
      out ??= { ...value };
      out[key] = next;
    };
    const declared = entriesOf(properties);
    for (let index = 0; index < declared.length; index++) {
      const key = declared[index][0];
      if (key in value) set(key, this.coerceTypes(value[key], declared[index][1]));
    }
    const keys = ObjectKeys(value);
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index];
      let matched = ObjectHasOwn(properties, key);
      for (let pattern = 0; pattern < patterns.length; pattern++) {
        if (!patternRegExp(patterns[pattern][0]).test(key)) continue;
        matched = true;
        set(key, this.coerceTypes((out ?? value)[key], patterns[pattern][1]));
      }
      if (!matched && additional !== undefined) set(key, this.coerceTypes(value[key], additional));
    }
    return out ?? value;
  }
}

function isObjectLike(value) {
  return typeof value === "object" && value !== null && !ArrayIsArray(value);
}

function itemSchemaAt(schema, index) {
  if (ArrayIsArray(schema.items)) return schema.items[index];
  if (ArrayIsArray(schema.prefixItems) && index < schema.prefixItems.length) return schema.prefixItems[index];
  return schema.items;
}

function coercePrimitive(value, type) {
  switch (type) {
    case "number":
    case "integer": {
      if (value === null) return 0;
      if (typeof value === "string" && StringPrototypeTrim(value) !== "") {
        const parsed = Number(value);
        if (type === "number" ? NumberIsFinite(parsed) : NumberIsInteger(parsed)) return parsed;
      }
      if (typeof value === "boolean") return value ? 1 : 0;
      return value;
    }
    case "boolean":
      if (value === null) return false;
      if (value === "true" || value === 1) return true;
      if (value === "false" || value === 0) return false;
      return value;
    case "string":
      if (value === null) return "";
      if (typeof value === "number" || typeof value === "boolean") return String(value);
      return value;
    case "null":
      return value === "" || value === 0 || value === false ? null : value;
    default:
      return value;
  }
}

/** A tool schema compiled once: check, errors, coerce and parse, as pi-schema's validator. */
export class ArgumentsValidator {
  constructor(schema) {
    this.schema = schema;
    this.checker = new SchemaChecker(schema, { flavour: "pi-schema" });
    this.keepsValidValues = coercionKeepsValidValues(schema);
    this.coercer = undefined;
    this.compiledCheck = undefined;
  }
  check(value) {
    // Compiled on the first check, as pi-schema compiles on the first validation.
    this.compiledCheck ??= compileCheck(this.schema, this.checker);
    return this.compiledCheck(value);
  }
  errors(value) {
    return this.check(value) ? [] : new Explainer(this.checker).errors(this.schema, value);
  }
  coerce(value) {
    // One coercer for the schema, as pi-schema keeps; a coercion that runs
    // inside another (a refinement validating again) gets its own, whose
    // converter's stack of entered nodes is empty.
    this.coercer ??= new Coercer(this.checker);
    const coercer = this.coercer.converter.entered.length === 0 ? this.coercer : new Coercer(this.checker);
    return coercer.coerce(this.schema, value);
  }
  parse(value) {
    // Coercion then check, as pi-schema; a value the schema already takes
    // skips the coercion where it would give that value back unchanged.
    if (this.keepsValidValues && this.check(value)) return { ok: true, value };
    const coerced = this.coerce(value);
    return this.check(coerced) ? { ok: true, value: coerced } : { ok: false, errors: this.errors(coerced) };
  }
}

/** The `type`s whose conversions and primitive coercions give a value of that type back as it is. */
const KEEPING_TYPES = new SafeSet(["string", "number", "integer", "boolean", "null", "object", "array"]);

/**
 * Whether coercing any value `schema` accepts gives that same value back,
 * so that parse may check first. Reads only the keywords the three passes
 * read (Coercer, Converter): a `$ref` or `allOf`, a list of types, an
 * untyped `items` (which wraps a lone value in an array), an object `const`
 * or `enum` member (replaced by the schema's own), or a refinement anywhere
 * (extension code, called once per check) make it answer no.
 */
function coercionKeepsValidValues(schema) {
  return !hasRefinementAnywhere(schema, new SafeSet()) && keepsValidValues(schema, new SafeSet());
}

function hasRefinementAnywhere(node, seen) {
  if (typeof node !== "object" || node === null || seen.has(node)) return false;
  seen.add(node);
  if (!ArrayIsArray(node) && "~refine" in node) return true;
  const keys = ObjectKeys(node);
  for (let index = 0; index < keys.length; index++) if (hasRefinementAnywhere(node[keys[index]], seen)) return true;
  return false;
}

function isPrimitive(value) {
  return value === null || (typeof value !== "object" && typeof value !== "function");
}

function keepsValidValues(node, seen) {
  if (ArrayIsArray(node)) return ArrayPrototypeEvery(node, (item) => keepsValidValues(item, seen));
  if (!isSchemaNode(node) || seen.has(node)) return true;
  seen.add(node);
  if (node.$ref !== undefined || node.allOf !== undefined) return false;
  if (node.type !== undefined && !(typeof node.type === "string" && KEEPING_TYPES.has(node.type))) return false;
  if (ObjectHasOwn(node, "const") && !isPrimitive(node.const)) return false;
  if (node.enum !== undefined && !(ArrayIsArray(node.enum) && ArrayPrototypeEvery(node.enum, isPrimitive))) return false;
  const objectKeywords = node.properties !== undefined || node.patternProperties !== undefined || node.additionalProperties !== undefined;
  // A union gives back a value one of its branches takes, unless the node
  // converts beside its branches (a type, or properties of its own).
  if ((node.anyOf !== undefined || node.oneOf !== undefined) && (node.type !== undefined || objectKeywords)) return false;
  if (node.type === undefined && (node.items !== undefined || node.prefixItems !== undefined)) return false;
  const children = [node.items, node.prefixItems, node.additionalProperties];
  if (isSchemaNode(node.properties)) ArrayPushAll(children, ObjectValues(node.properties));
  if (isSchemaNode(node.patternProperties)) ArrayPushAll(children, ObjectValues(node.patternProperties));
  return ArrayPrototypeEvery(children, (child) => child === undefined || keepsValidValues(child, seen));
}

// Tool schemas live as long as their tools; the WeakMap lets both go together.
const validators = new SafeWeakMap();

function validatorFor(schema) {
  let validator = validators.get(schema);
  if (validator === undefined) {
    validator = new ArgumentsValidator(schema);
    validators.set(schema, validator);
  }
  return validator;
}

/** A JSON Pointer as the dotted path the model sees: `/edits/0/oldText` → `edits.0.oldText`. */
function dottedPath(path) {
  if (path === "") return "root";
  const segments = StringPrototypeSplit(StringPrototypeSlice(path, 1), "/");
  return ArrayPrototypeJoin(
    ArrayPrototypeMap(segments, (segment) => StringPrototypeReplace(StringPrototypeReplace(segment, /~1/g, "/"), /~0/g, "~")),
    ".",
  );
}

/** The tool call's arguments, coerced and checked against the tool's parameters; throws pi's error text. */
export function validateToolArguments(tool, toolCall) {
  return checkedArguments(tool, toolCall, true);
}

/**
 * validateToolArguments for arguments nothing else holds (read from the
 * host's JSON for this call): the copy that keeps a transcript unchanged
 * would copy what no transcript sees.
 */
export function validateOwnToolArguments(tool, toolCall) {
  return checkedArguments(tool, toolCall, false);
}

function checkedArguments(tool, toolCall, copy) {
  if (toolCall.argumentsError) {
    throw new Error(`Invalid arguments for tool "${toolCall.name}": ${toolCall.argumentsError}`);
  }
  // A copy, so a tool that changes its arguments never changes the transcript.
  const result = validatorFor(tool.parameters).parse(copy ? StructuredClone(toolCall.arguments) : toolCall.arguments);
  if (result.ok) return result.value;
  const lines = ArrayPrototypeJoin(
    ArrayPrototypeMap(result.errors, (error) => `  - ${dottedPath(error.path)}: ${error.message}`),
    "\n",
  );
  throw new Error(
    `Validation failed for tool "${toolCall.name}":\n${lines}\n\nReceived arguments:\n${JSONStringify(toolCall.arguments, null, 2)}`,
  );
}

/** Finds the called tool by name, then validates its arguments. */
export function validateToolCall(tools, toolCall) {
  const tool = ArrayPrototypeFind(tools, (candidate) => candidate.name === toolCall.name);
  if (!tool) throw new Error(`Tool "${toolCall.name}" not found`);
  return validateToolArguments(tool, toolCall);
}
