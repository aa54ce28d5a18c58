// How pi checks a model's tool call arguments before a tool runs (pi-ai's
// validateToolArguments/validateToolCall): the arguments are coerced towards
// the tool's JSON Schema first (models send "42" for 42, one value for a
// list, null for an omitted option), then checked; a failure throws pi's
// "Validation failed for tool …" text with one line per error, each naming
// the dotted path and pi-schema's short message ("missing", "unknown field",
// "expected integer, got string").

import { SchemaChecker, codePointCount, deepEqual, isSchemaNode, matchesType, patternRegExp } from "../pi/typebox/check.js";
import { mapItems, Converter } from "../pi/typebox/convert.js";
import { testFormat } from "../pi/typebox/formats.js";

function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

function pointer(path, key) {
  return `${path}/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

function typeName(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (value instanceof Uint8Array) return "bytes";
  if (typeof value === "number" && Number.isInteger(value)) return "integer";
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  return typeof value;
}

// Long enums are cut so a message stays readable.
const LISTED_VALUES = 20;

function listValues(values) {
  if (values.length <= LISTED_VALUES) return JSON.stringify(values);
  const listed = JSON.stringify(values.slice(0, LISTED_VALUES));
  return `${listed.slice(0, -1)}, ... and ${values.length - LISTED_VALUES} more]`;
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
    if (out.length === 0) out.push({ path: "", keyword: "schema", message: "invalid" });
    return out;
  }

  walk(node, value, path, out) {
    if (node === true) return;
    if (node === false) {
      out.push({ path, keyword: "false", message: "no value is allowed here" });
      return;
    }
    if (!isSchemaNode(node) || this.ok(node, value)) return;
    const push = (keyword, message, at = path) => out.push({ path: at, keyword, message });
    if (node.type !== undefined && !matchesType(node, value, false)) {
      const types = Array.isArray(node.type) ? node.type : [node.type];
      push("type", `expected ${types.join(" or ")}, got ${typeName(value)}`);
      return;
    }
    if (Array.isArray(node.enum) && !node.enum.some((option) => deepEqual(value, option))) push("enum", `expected one of ${listValues(node.enum)}`);
    if (Object.hasOwn(node, "const") && !deepEqual(value, node.const)) push("const", `expected ${JSON.stringify(node.const)}`);
    if (typeof value === "string") this.walkString(node, value, push);
    if (typeof value === "number" || typeof value === "bigint") this.walkNumber(node, value, push);
    if (isRecord(value)) this.walkObject(node, value, path, out, push);
    if (Array.isArray(value)) this.walkArray(node, value, path, out, push);
    if (Array.isArray(node.allOf)) for (const member of node.allOf) this.walk(member, value, path, out);
    if (Array.isArray(node.anyOf)) this.walkUnion(node.anyOf, value, path, out, false);
    if (Array.isArray(node.oneOf)) this.walkUnion(node.oneOf, value, path, out, true);
    if (node.not !== undefined && this.ok(node.not, value)) push("not", "must not match the schema in not");
    if (node.if !== undefined) {
      const branch = this.ok(node.if, value) ? node.then : node.else;
      if (branch !== undefined) this.walk(branch, value, path, out);
    }
    if (typeof node.$ref === "string") {
      const target = this.checker.resolve(node.$ref);
      if (target === undefined) out.push({ path, keyword: "$ref", message: `unresolved reference ${node.$ref}` });
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
    for (const key of Array.isArray(node.required) ? node.required : []) {
      if (typeof key === "string" && !this.checker.present(node, value, key)) push("required", "missing", pointer(path, key));
    }
    for (const key of Object.keys(properties)) {
      if (Object.hasOwn(value, key) && value[key] !== undefined) this.walk(properties[key], value[key], pointer(path, key), out);
    }
    const patterns = isSchemaNode(node.patternProperties) ? Object.entries(node.patternProperties) : [];
    for (const key of Object.keys(value)) {
      let matched = Object.hasOwn(properties, key);
      for (const [pattern, schema] of patterns) {
        if (!patternRegExp(pattern).test(key)) continue;
        matched = true;
        this.walk(schema, value[key], pointer(path, key), out);
      }
      if (!matched && node.additionalProperties !== undefined) {
        if (node.additionalProperties === false) push("additionalProperties", "unknown field", pointer(path, key));
        else this.walk(node.additionalProperties, value[key], pointer(path, key), out);
      }
      if (node.propertyNames !== undefined && !this.ok(node.propertyNames, key)) push("propertyNames", "invalid property name", pointer(path, key));
    }
    const count = Object.keys(value).length;
    if (typeof node.minProperties === "number" && count < node.minProperties) push("minProperties", `expected at least ${node.minProperties} properties`);
    if (typeof node.maxProperties === "number" && count > node.maxProperties) push("maxProperties", `expected at most ${node.maxProperties} properties`);
    const dependencies = {
      ...(isSchemaNode(node.dependentRequired) ? node.dependentRequired : {}),
      ...(isSchemaNode(node.dependencies) ? node.dependencies : {}),
    };
    for (const [key, dependency] of Object.entries(dependencies)) {
      if (!Object.hasOwn(value, key)) continue;
      if (!Array.isArray(dependency)) this.walk(dependency, value, path, out);
      else for (const name of dependency) if (!Object.hasOwn(value, name)) push("dependentRequired", `required when ${key} is present`, pointer(path, name));
    }
    if (isSchemaNode(node.dependentSchemas)) {
      for (const [key, schema] of Object.entries(node.dependentSchemas)) if (Object.hasOwn(value, key)) this.walk(schema, value, path, out);
    }
  }

  walkArray(node, value, path, out, push) {
    const tuple = Array.isArray(node.items);
    const prefix = tuple ? node.items : Array.isArray(node.prefixItems) ? node.prefixItems : [];
    const rest = tuple ? node.additionalItems : node.items;
    value.forEach((item, index) => {
      const schema = index < prefix.length ? prefix[index] : rest;
      if (schema !== undefined) this.walk(schema, item, `${path}/${index}`, out);
    });
    if (typeof node.minItems === "number" && value.length < node.minItems) push("minItems", `expected at least ${node.minItems} items`);
    if (typeof node.maxItems === "number" && value.length > node.maxItems) push("maxItems", `expected at most ${node.maxItems} items`);
    if (node.uniqueItems === true && !this.checker.checkArray({ uniqueItems: true }, value)) push("uniqueItems", "expected unique items");
    if (node.contains !== undefined) {
      const min = typeof node.minContains === "number" ? node.minContains : 1;
      const max = typeof node.maxContains === "number" ? node.maxContains : Infinity;
      const count = value.filter((item) => this.ok(node.contains, item)).length;
      if (count < min || count > max) push("contains", containsMessage(min, max));
    }
  }

  resolved(branch) {
    return isSchemaNode(branch) && typeof branch.$ref === "string" ? this.checker.resolve(branch.$ref) : branch;
  }

  /** A property every branch pins to a distinct primitive `const`: the union's tag. */
  tagOf(branches) {
    const resolved = branches.map((branch) => this.resolved(branch));
    const first = resolved[0];
    if (!isSchemaNode(first) || !isSchemaNode(first.properties)) return undefined;
    for (const key of Object.keys(first.properties)) {
      const values = resolved.map((schema) => {
        const tag = isSchemaNode(schema) && isSchemaNode(schema.properties) ? schema.properties[key] : undefined;
        return isSchemaNode(tag) ? tag.const : undefined;
      });
      const primitive = values.every((item) => item !== undefined && (typeof item !== "object" || item === null));
      if (primitive && new Set(values).size === values.length) return { key, values };
    }
    return undefined;
  }

  declaredKeys(branch, value) {
    const node = this.resolved(branch);
    const properties = isSchemaNode(node) && isSchemaNode(node.properties) ? node.properties : {};
    return Object.keys(value).filter((key) => Object.hasOwn(properties, key)).length;
  }

  // A failed union blames one branch: the one its tag selects, else the one
  // declaring most of the object's keys, else the one failing deepest.
  walkUnion(branches, value, path, out, exactlyOne) {
    const matches = branches.filter((branch) => this.ok(branch, value)).length;
    if (matches === 1 || (!exactlyOne && matches > 0)) return;
    const keyword = exactlyOne ? "oneOf" : "anyOf";
    if (matches > 1) {
      out.push({ path, keyword, message: "matches more than one alternative" });
      return;
    }
    const tag = this.tagOf(branches);
    if (tag !== undefined && isRecord(value)) {
      const index = tag.values.indexOf(value[tag.key]);
      if (index < 0) out.push({ path: pointer(path, tag.key), keyword, message: `expected one of ${listValues(tag.values)}` });
      else this.walk(branches[index], value, path, out);
      return;
    }
    let best;
    for (const branch of branches) {
      const errors = [];
      this.walk(branch, value, path, errors);
      if (errors.length === 0) continue;
      const declared = isRecord(value) ? this.declaredKeys(branch, value) : 0;
      if (best === undefined || declared > best.declared || (declared === best.declared && errors[0].path.length > best.errors[0].path.length)) {
        best = { errors, declared };
      }
    }
    out.push(...(best?.errors ?? [{ path, keyword, message: "matches no alternative" }]));
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
    if (Array.isArray(value)) {
      return mapItems(value, (item, index) => {
        const itemSchema = itemSchemaAt(schema, index);
        return itemSchema === undefined ? item : this.dropOptionalNulls(itemSchema, item);
      });
    }
    if (typeof value !== "object" || value === null) return value;
    const properties = isSchemaNode(schema.properties) ? schema.properties : {};
    const patterns = isSchemaNode(schema.patternProperties) ? Object.entries(schema.patternProperties) : [];
    const additional = isSchemaNode(schema.additionalProperties) ? schema.additionalProperties : undefined;
    if (patterns.length === 0 && additional === undefined && !isSchemaNode(schema.properties)) return value;
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    let out;
    const set = (key, next) => {
      if (next === (out ?? value)[key]) return;
      out ??= { ...value };
      out[key] = next;
    };
    for (const [key, property] of Object.entries(properties)) {
      if (!Object.hasOwn(value, key)) continue;
      const isRef = isSchemaNode(property) && typeof property.$ref === "string";
      if (value[key] === null && !required.has(key) && !isRef && !this.passes(property, null)) {
        out ??= { ...value };
        delete out[key];
        continue;
      }
      set(key, this.dropOptionalNulls(property, value[key]));
    }
    if (patterns.length > 0 || additional !== undefined) {
      for (const key of Object.keys(value)) {
        let matched = Object.hasOwn(properties, key);
        for (const [pattern, item] of patterns) {
          if (!patternRegExp(pattern).test(key)) continue;
          matched = true;
          set(key, this.dropOptionalNulls(item, (out ?? value)[key]));
        }
        if (!matched && additional !== undefined) set(key, this.dropOptionalNulls(additional, value[key]));
      }
    }
    return out ?? value;
  }

  coerceTypes(value, schema) {
    if (!isSchemaNode(schema)) return value;
    let next = value;
    if (Array.isArray(schema.allOf)) for (const member of schema.allOf) next = this.coerceTypes(next, member);
    if (Array.isArray(schema.anyOf)) next = this.coerceUnion(next, schema.anyOf);
    if (Array.isArray(schema.oneOf)) next = this.coerceUnion(next, schema.oneOf);
    const types = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type.filter((type) => typeof type === "string") : [];
    const alreadyOne = types.length > 1 && types.some((type) => matchesType({ type }, next, false) && (type !== "object" || isObjectLike(next)));
    if (types.length > 0 && !alreadyOne) {
      for (const type of types) {
        const candidate = coercePrimitive(next, type);
        if (candidate !== next) {
          next = candidate;
          break;
        }
      }
    }
    if (types.includes("object") && isObjectLike(next)) next = this.coerceProperties(next, schema);
    if (types.includes("array") && Array.isArray(next)) {
      next = mapItems(next, (item, index) => {
        const itemSchema = itemSchemaAt(schema, index);
        return isSchemaNode(itemSchema) ? this.coerceTypes(item, itemSchema) : item;
      });
    }
    return next;
  }

  coerceUnion(value, branches) {
    if (branches.some((branch) => this.passes(branch, value))) return value;
    for (const branch of branches) {
      const coerced = this.coerceTypes(value, branch);
      if (this.passes(branch, coerced)) return coerced;
    }
    return value;
  }

  coerceProperties(value, schema) {
    const properties = isSchemaNode(schema.properties) ? schema.properties : {};
    const patterns = isSchemaNode(schema.patternProperties) ? Object.entries(schema.patternProperties) : [];
    const additional = isSchemaNode(schema.additionalProperties) ? schema.additionalProperties : undefined;
    let out;
    const set = (key, next) => {
      if (next === (out ?? value)[key]) return;
      out ??= { ...value };
      out[key] = next;
    };
    for (const [key, property] of Object.entries(properties)) {
      if (key in value) set(key, this.coerceTypes(value[key], property));
    }
    for (const key of Object.keys(value)) {
      let matched = Object.hasOwn(properties, key);
      for (const [pattern, item] of patterns) {
        if (!patternRegExp(pattern).test(key)) continue;
        matched = true;
        set(key, this.coerceTypes((out ?? value)[key], item));
      }
      if (!matched && additional !== undefined) set(key, this.coerceTypes(value[key], additional));
    }
    return out ?? value;
  }
}

function isObjectLike(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function itemSchemaAt(schema, index) {
  if (Array.isArray(schema.items)) return schema.items[index];
  if (Array.isArray(schema.prefixItems) && index < schema.prefixItems.length) return schema.prefixItems[index];
  return schema.items;
}

function coercePrimitive(value, type) {
  switch (type) {
    case "number":
    case "integer": {
      if (value === null) return 0;
      if (typeof value === "string" && value.trim() !== "") {
        const parsed = Number(value);
        if (type === "number" ? Number.isFinite(parsed) : Number.isInteger(parsed)) return parsed;
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
  }
  check(value) {
    return this.checker.check(this.schema, value);
  }
  errors(value) {
    return this.check(value) ? [] : new Explainer(this.checker).errors(this.schema, value);
  }
  coerce(value) {
    return new Coercer(this.checker).coerce(this.schema, value);
  }
  parse(value) {
    const coerced = this.coerce(value);
    return this.check(coerced) ? { ok: true, value: coerced } : { ok: false, errors: this.errors(coerced) };
  }
}

// Tool schemas live as long as their tools; the WeakMap lets both go together.
const validators = new WeakMap();

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
  return path
    .slice(1)
    .split("/")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .join(".");
}

/** The tool call's arguments, coerced and checked against the tool's parameters; throws pi's error text. */
export function validateToolArguments(tool, toolCall) {
  if (toolCall.argumentsError) {
    throw new Error(`Invalid arguments for tool "${toolCall.name}": ${toolCall.argumentsError}`);
  }
  // A copy, so a tool that changes its arguments never changes the transcript.
  const result = validatorFor(tool.parameters).parse(structuredClone(toolCall.arguments));
  if (result.ok) return result.value;
  const lines = result.errors.map((error) => `  - ${dottedPath(error.path)}: ${error.message}`).join("\n");
  throw new Error(
    `Validation failed for tool "${toolCall.name}":\n${lines}\n\nReceived arguments:\n${JSON.stringify(toolCall.arguments, null, 2)}`,
  );
}

/** Finds the called tool by name, then validates its arguments. */
export function validateToolCall(tools, toolCall) {
  const tool = tools.find((candidate) => candidate.name === toolCall.name);
  if (!tool) throw new Error(`Tool "${toolCall.name}" not found`);
  return validateToolArguments(tool, toolCall);
}
