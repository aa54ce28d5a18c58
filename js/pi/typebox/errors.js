// TypeBox 1.x's validation errors: `{ keyword, schemaPath, instancePath,
// params, message }`, in the order its walk reports them and capped as it
// caps them (8 per context), with its en_US messages.

import { SchemaChecker, deepEqual, hasRefinements, isPlainRecord, isSchemaNode, patternRegExp } from "./check.js";

const MAX_ERRORS = 8;

class Collector {
  constructor() {
    this.errors = [];
  }
  full() {
    return this.errors.length >= MAX_ERRORS;
  }
  add(error) {
    if (!this.full()) this.errors.push(error);
    return false;
  }
}

function message(error) {
  const { params } = error;
  switch (error.keyword) {
    case "additionalProperties":
      return "must not have additional properties";
    case "anyOf":
      return "must match a schema in anyOf";
    case "boolean":
      return "schema is false";
    case "const":
      return "must be equal to constant";
    case "contains":
      return "must contain at least 1 valid item";
    case "dependencies":
    case "dependentRequired":
      return `must have properties ${params.dependencies.join(", ")} when property ${params.property} is present`;
    case "enum":
      return "must be equal to one of the allowed values";
    case "exclusiveMaximum":
    case "exclusiveMinimum":
    case "maximum":
    case "minimum":
      return `must be ${params.comparison} ${params.limit}`;
    case "format":
      return `must match format "${params.format}"`;
    case "if":
      return `must match "${params.failingKeyword}" schema`;
    case "maxItems":
      return `must not have more than ${params.limit} items`;
    case "maxLength":
      return `must not have more than ${params.limit} characters`;
    case "maxProperties":
      return `must not have more than ${params.limit} properties`;
    case "minItems":
      return `must not have fewer than ${params.limit} items`;
    case "minLength":
      return `must not have fewer than ${params.limit} characters`;
    case "minProperties":
      return `must not have fewer than ${params.limit} properties`;
    case "multipleOf":
      return `must be multiple of ${params.multipleOf}`;
    case "not":
      return "must not be valid";
    case "oneOf":
      return "must match exactly one schema in oneOf";
    case "pattern":
      return `must match pattern "${params.pattern}"`;
    case "propertyNames":
      return `property names ${params.propertyNames.join(", ")} are invalid`;
    case "required":
      return `must have required properties ${params.requiredProperties.join(", ")}`;
    case "type":
      return typeof params.type === "string" ? `must be ${params.type}` : `must be either ${params.type.join(" or ")}`;
    case "uniqueItems":
      return "must not have duplicate items";
    case "~refine":
      return params.message;
    default:
      return "an unknown validation error occurred";
  }
}

// Every keyword of a schema is explained, even after one fails, so a value
// can collect several errors at one place (a wrong type and a wrong const).
class Explainer {
  constructor(checker) {
    this.checker = checker;
  }

  walk(out, schemaPath, instancePath, schema, value) {
    if (out.full()) return false;
    const at = (keyword, params) => out.add({ keyword, schemaPath, instancePath, params });
    if (typeof schema === "boolean") return schema || at("boolean", {});
    if (!isSchemaNode(schema)) return true;
    const c = this.checker;
    let ok = true;
    const run = (result) => {
      ok = result && ok;
    };
    if (schema.type !== undefined) run(c.check({ type: schema.type }, value) || at("type", { type: schema.type }));
    if (isPlainRecord(value)) this.walkObject(out, schemaPath, instancePath, schema, value, run, at);
    if (Array.isArray(value)) this.walkArray(out, schemaPath, instancePath, schema, value, run, at);
    if (typeof value === "string") {
      if (typeof schema.maxLength === "number") run(c.stringLength(value) <= schema.maxLength || at("maxLength", { limit: schema.maxLength }));
      if (typeof schema.minLength === "number") run(c.stringLength(value) >= schema.minLength || at("minLength", { limit: schema.minLength }));
      if (typeof schema.format === "string") run(c.checkString({ format: schema.format }, value) || at("format", { format: schema.format }));
      if (schema.pattern !== undefined) run(c.checkString({ pattern: schema.pattern }, value) || at("pattern", { pattern: schema.pattern }));
    }
    if (c.isNumeric(value)) {
      const bound = (limit) => typeof limit === "number" || typeof limit === "bigint";
      if (bound(schema.exclusiveMaximum)) run(value < schema.exclusiveMaximum || at("exclusiveMaximum", { comparison: "<", limit: schema.exclusiveMaximum }));
      if (bound(schema.exclusiveMinimum)) run(value > schema.exclusiveMinimum || at("exclusiveMinimum", { comparison: ">", limit: schema.exclusiveMinimum }));
      if (bound(schema.maximum)) run(value <= schema.maximum || at("maximum", { comparison: "<=", limit: schema.maximum }));
      if (bound(schema.minimum)) run(value >= schema.minimum || at("minimum", { comparison: ">=", limit: schema.minimum }));
      if (bound(schema.multipleOf)) run(c.multipleOf(value, schema.multipleOf) || at("multipleOf", { multipleOf: schema.multipleOf }));
    }
    if (typeof schema.$ref === "string") run(this.walkRef(out, instancePath, schema.$ref, value));
    if (Object.hasOwn(schema, "const")) run(deepEqual(value, schema.const) || at("const", { allowedValue: schema.const }));
    if (Array.isArray(schema.enum)) run(schema.enum.some((option) => deepEqual(value, option)) || at("enum", { allowedValues: schema.enum }));
    if (schema.if !== undefined) run(this.walkIf(out, schemaPath, instancePath, schema, value, at));
    if (schema.not !== undefined) run(!c.check(schema.not, value) || at("not", {}));
    if (Array.isArray(schema.allOf)) run(this.walkBranches(out, `${schemaPath}/allOf`, instancePath, schema.allOf, value, "allOf", at));
    if (Array.isArray(schema.anyOf)) run(this.walkBranches(out, `${schemaPath}/anyOf`, instancePath, schema.anyOf, value, "anyOf", at));
    if (Array.isArray(schema.oneOf)) run(this.walkBranches(out, `${schemaPath}/oneOf`, instancePath, schema.oneOf, value, "oneOf", at));
    // Refinements are only asked once everything else holds; each failing one reports its own message.
    if (ok && hasRefinements(schema)) {
      schema["~refine"].forEach((refinement, index) => run(refinement.check(value) || at("~refine", { index, message: refinement.error(value) })));
    }
    return ok;
  }

  walkRef(out, instancePath, ref, value) {
    // A reference that names nothing is the false schema, and says so.
    const target = this.checker.resolve(ref) ?? false;
    const inner = new Collector();
    const ok = this.walk(inner, "#", instancePath, target, value);
    if (!ok) for (const error of inner.errors) out.add(error);
    return ok;
  }

  walkIf(out, schemaPath, instancePath, schema, value, at) {
    const inner = new Collector();
    if (this.walk(inner, `${schemaPath}/if`, instancePath, schema.if, value)) {
      const then = schema.then ?? true;
      return this.walk(inner, `${schemaPath}/then`, instancePath, then, value) || at("if", { failingKeyword: "then" });
    }
    const otherwise = schema.else ?? true;
    return this.walk(out, `${schemaPath}/else`, instancePath, otherwise, value) || at("if", { failingKeyword: "else" });
  }

  // Each branch collects into its own context; a failed combinator passes on
  // the failed branches' errors, then adds its own (allOf has none).
  walkBranches(out, branchPath, instancePath, branches, value, keyword, at) {
    const failed = [];
    const passing = [];
    branches.forEach((branch, index) => {
      const inner = new Collector();
      if (this.walk(inner, `${branchPath}/${index}`, instancePath, branch, value)) passing.push(index);
      else failed.push(inner);
    });
    const relay = () => failed.forEach((inner) => inner.errors.forEach((error) => out.add(error)));
    if (keyword === "allOf") {
      if (failed.length === 0) return true;
      relay();
      return false;
    }
    if (keyword === "anyOf") {
      if (passing.length > 0) return true;
      relay();
      return at("anyOf", {});
    }
    if (passing.length === 1) return true;
    if (passing.length === 0) relay();
    return at("oneOf", { passingSchemas: passing });
  }

  walkObject(out, schemaPath, instancePath, schema, value, run, at) {
    const c = this.checker;
    const keys = Object.getOwnPropertyNames(value);
    if (Array.isArray(schema.required)) {
      const missing = schema.required.filter((key) => !c.present(schema, value, key));
      run(missing.length === 0 || at("required", { requiredProperties: missing }));
    }
    const additional = schema.additionalProperties;
    if (additional !== undefined && additional !== true && !(isSchemaNode(additional) && Object.keys(additional).length === 0)) {
      const rejected = [];
      for (const key of keys) {
        if (c.declared(schema, key)) continue;
        if (!this.walk(out, `${schemaPath}/additionalProperties`, `${instancePath}/${key}`, additional, value[key])) rejected.push(key);
      }
      run(rejected.length === 0 || at("additionalProperties", { additionalProperties: rejected }));
    }
    if (isSchemaNode(schema.dependencies) && keys.length > 0) {
      for (const [key, dependency] of Object.entries(schema.dependencies)) {
        if (!(key in value)) continue;
        if (Array.isArray(dependency)) {
          const satisfied = dependency.every((name) => name in value || at("dependencies", { property: key, dependencies: dependency }));
          run(satisfied);
        } else run(this.walk(out, `${schemaPath}/dependencies/${key}`, instancePath, dependency, value));
      }
    }
    if (isSchemaNode(schema.dependentRequired) && keys.length > 0) {
      for (const [key, names] of Object.entries(schema.dependentRequired)) {
        if (!(key in value)) continue;
        for (const name of names) run(name in value || at("dependentRequired", { property: key, dependencies: names }));
      }
    }
    if (isSchemaNode(schema.dependentSchemas) && keys.length > 0) {
      for (const [key, dependency] of Object.entries(schema.dependentSchemas)) {
        if (key in value) run(this.walk(out, `${schemaPath}/dependentSchemas/${key}`, instancePath, dependency, value));
      }
    }
    if (isSchemaNode(schema.patternProperties)) {
      for (const [pattern, property] of Object.entries(schema.patternProperties)) {
        const regexp = patternRegExp(pattern);
        for (const [key, item] of Object.entries(value)) {
          if (regexp.test(key)) run(this.walk(out, `${schemaPath}/patternProperties/${pattern}`, `${instancePath}/${key}`, property, item));
        }
      }
    }
    if (isSchemaNode(schema.properties)) {
      const required = Array.isArray(schema.required) ? schema.required : [];
      for (const [key, property] of Object.entries(schema.properties)) {
        if (!required.includes(key) && value[key] === undefined) continue;
        if (!(key in value)) continue;
        run(this.walk(out, `${schemaPath}/properties/${key}`, `${instancePath}/${key}`, property, value[key]));
      }
    }
    if (schema.propertyNames !== undefined) {
      const invalid = keys.filter((key) => !this.walk(out, `${schemaPath}/propertyNames`, `${instancePath}/${key}`, schema.propertyNames, key));
      run(invalid.length === 0 || at("propertyNames", { propertyNames: invalid }));
    }
    if (typeof schema.minProperties === "number") run(keys.length >= schema.minProperties || at("minProperties", { limit: schema.minProperties }));
    if (typeof schema.maxProperties === "number") run(keys.length <= schema.maxProperties || at("maxProperties", { limit: schema.maxProperties }));
  }

  walkArray(out, schemaPath, instancePath, schema, value, run, at) {
    const c = this.checker;
    if (Array.isArray(schema.items) && schema.additionalItems !== undefined) {
      // Stops at the first failing extra item, as TypeBox does.
      for (let index = schema.items.length; index < value.length; index++) {
        if (!this.walk(out, `${schemaPath}/additionalItems`, `${instancePath}/${index}`, schema.additionalItems, value[index])) {
          run(false);
          break;
        }
      }
    }
    const minContains = typeof schema.minContains === "number" ? schema.minContains : undefined;
    const matching = schema.contains === undefined ? 0 : value.filter((item) => c.check(schema.contains, item)).length;
    if (schema.contains !== undefined && minContains !== 0) run(matching > 0 || at("contains", { minContains: 1 }));
    if (Array.isArray(schema.items)) {
      schema.items.forEach((item, index) => {
        if (index < value.length) run(this.walk(out, `${schemaPath}/items/${index}`, `${instancePath}/${index}`, item, value[index]));
      });
    } else if (schema.items !== undefined) {
      const offset = Array.isArray(schema.prefixItems) ? schema.prefixItems.length : 0;
      for (let index = offset; index < value.length; index++) {
        run(this.walk(out, `${schemaPath}/items`, `${instancePath}/${index}`, schema.items, value[index]));
      }
    }
    if (schema.contains !== undefined && typeof schema.maxContains === "number") {
      run(matching <= schema.maxContains || at("contains", { minContains: minContains ?? 1, maxContains: schema.maxContains }));
    }
    if (typeof schema.maxItems === "number") run(value.length <= schema.maxItems || at("maxItems", { limit: schema.maxItems }));
    if (schema.contains !== undefined && minContains !== undefined) run(matching >= minContains || at("contains", { minContains }));
    if (typeof schema.minItems === "number") run(value.length >= schema.minItems || at("minItems", { limit: schema.minItems }));
    if (Array.isArray(schema.prefixItems) && value.length > 0) {
      schema.prefixItems.forEach((item, index) => {
        if (index < value.length) run(this.walk(out, `${schemaPath}/prefixItems/${index}`, `${instancePath}/${index}`, item, value[index]));
      });
    }
    if (schema.uniqueItems === true) {
      const duplicateItems = [];
      value.forEach((item, index) => {
        if (value.slice(0, index).some((earlier) => deepEqual(earlier, item))) duplicateItems.push(index);
      });
      run(duplicateItems.length === 0 || at("uniqueItems", { duplicateItems }));
    }
  }
}

/** TypeBox's errors for `value` against `schema` (none when it matches). */
export function schemaErrors(context, schema, value) {
  const checker = new SchemaChecker(schema, { context });
  const out = new Collector();
  new Explainer(checker).walk(out, "#", "", schema, value);
  return out.errors.map((error) => ({ ...error, message: message(error) }));
}
