// pi-schema compiles a tool's schema into a check function once; pihost's
// SchemaChecker interprets the schema on every call, reading every keyword
// of every node (a few µs a node on this engine). This compiles the nodes
// built only of common keywords into closures that do exactly what
// SchemaChecker.check does for them in pi-schema's flavour; any other node
// is checked by SchemaChecker itself. As pi-schema, it reads the schema
// once: a schema changed after its first check is not seen.

import { codePointCount, deepEqual, hasKey, isHole, isSchemaNode, patternRegExp, typeMatches } from "../pi/typebox/check.js";
import { testFormat } from "../pi/typebox/formats.js";
import { ArrayIsArray, ObjectHasOwn, ObjectKeys, SafeMap } from "./primordials.js";

/** Keywords SchemaChecker reads that are not compiled here: a node with any of them is left to it. */
const INTERPRETED = [
  "dependencies",
  "dependentRequired",
  "dependentSchemas",
  "patternProperties",
  "propertyNames",
  "minProperties",
  "maxProperties",
  "prefixItems",
  "additionalItems",
  "uniqueItems",
  "contains",
  "minContains",
  "maxContains",
  "multipleOf",
  "$ref",
  "if",
  "then",
  "else",
  "not",
  "allOf",
  "anyOf",
  "oneOf",
];

const always = () => true;
const never = () => false;

function compilable(node) {
  for (let index = 0; index < INTERPRETED.length; index++) if (node[INTERPRETED[index]] !== undefined) return false;
  if (ObjectHasOwn(node, "const") || "~refine" in node) return false;
  if (node.type !== undefined && typeof node.type !== "string") return false;
  if (ArrayIsArray(node.items)) return false;
  return node.pattern === undefined || typeof node.pattern === "string";
}

function numberOrUndefined(value) {
  return typeof value === "number" ? value : undefined;
}

function boundOrUndefined(value) {
  return typeof value === "number" || typeof value === "bigint" ? value : undefined;
}

/** `(value) => boolean`: `checker.check(schema, value)` for a pi-schema checker. */
export function compileCheck(schema, checker) {
  return compileNode(schema, checker, new SafeMap());
}

function compileNode(node, checker, compiled) {
  if (node === true) return always;
  if (node === false) return never;
  if (!isSchemaNode(node)) return always;
  if (!compilable(node)) return (value) => checker.check(node, value);
  const known = compiled.get(node);
  if (known !== undefined) return known;
  // A node reached again through itself calls the closure made below.
  let check;
  compiled.set(node, (value) => check(value));

  const type = node.type;
  const properties = isSchemaNode(node.properties) ? node.properties : undefined;
  const names = properties === undefined ? [] : ObjectKeys(properties);
  const propertyChecks = [];
  for (let index = 0; index < names.length; index++) propertyChecks[index] = compileNode(properties[names[index]], checker, compiled);
  const required = ArrayIsArray(node.required) ? node.required : undefined;
  // What pi-schema's `present` asks of a required key whose value is undefined.
  const requiredChecks = [];
  if (required !== undefined) {
    for (let index = 0; index < required.length; index++) {
      if (isHole(required, index)) continue;
      const property = properties === undefined ? undefined : properties[required[index]];
      requiredChecks[requiredChecks.length] = {
        key: required[index],
        ifUndefined: property === undefined ? never : compileNode(property, checker, compiled),
      };
    }
  }
  const additional = node.additionalProperties;
  const additionalCheck = additional === undefined || additional === true ? undefined : compileNode(additional, checker, compiled);
  const itemCheck = node.items === undefined ? undefined : compileNode(node.items, checker, compiled);
  const minItems = numberOrUndefined(node.minItems);
  const maxItems = numberOrUndefined(node.maxItems);
  const minLength = numberOrUndefined(node.minLength);
  const maxLength = numberOrUndefined(node.maxLength);
  const pattern = typeof node.pattern === "string" ? node.pattern : undefined;
  const format = typeof node.format === "string" ? node.format : undefined;
  const minimum = boundOrUndefined(node.minimum);
  const maximum = boundOrUndefined(node.maximum);
  const exclusiveMinimum = boundOrUndefined(node.exclusiveMinimum);
  const exclusiveMaximum = boundOrUndefined(node.exclusiveMaximum);
  const options = ArrayIsArray(node.enum) ? node.enum : undefined;

  const checkObject = (value) => {
    const keys = ObjectKeys(value);
    for (let index = 0; index < requiredChecks.length; index++) {
      const { key, ifUndefined } = requiredChecks[index];
      if (!ObjectHasOwn(value, key)) return false;
      if (value[key] === undefined && !ifUndefined(undefined)) return false;
    }
    if (additionalCheck !== undefined) {
      for (let index = 0; index < keys.length; index++) {
        const key = keys[index];
        if (!(properties !== undefined && ObjectHasOwn(properties, key)) && !additionalCheck(value[key])) return false;
      }
    }
    for (let index = 0; index < names.length; index++) {
      const key = names[index];
      if (!hasKey(value, key)) continue;
      const item = value[key];
      // pi-schema takes a property set to undefined as absent.
      if (item !== undefined && !propertyChecks[index](item)) return false;
    }
    return true;
  };
  const checkArray = (value) => {
    if (itemCheck !== undefined) {
      for (let index = 0; index < value.length; index++) if (!itemCheck(value[index])) return false;
    }
    if (minItems !== undefined && value.length < minItems) return false;
    return maxItems === undefined || value.length <= maxItems;
  };
  const checkString = (value) => {
    if (minLength !== undefined && codePointCount(value) < minLength) return false;
    if (maxLength !== undefined && codePointCount(value) > maxLength) return false;
    if (pattern !== undefined && !patternRegExp(pattern).test(value)) return false;
    return format === undefined || testFormat(format, value);
  };
  const checkNumber = (value) => {
    if (minimum !== undefined && value < minimum) return false;
    if (maximum !== undefined && value > maximum) return false;
    if (exclusiveMinimum !== undefined && value <= exclusiveMinimum) return false;
    return exclusiveMaximum === undefined || value < exclusiveMaximum;
  };
  check = (value) => {
    if (type !== undefined && !typeMatches(type, value, false)) return false;
    if (typeof value === "object" && value !== null) {
      if (!(ArrayIsArray(value) ? checkArray(value) : checkObject(value))) return false;
    } else if (typeof value === "string") {
      if (!checkString(value)) return false;
    } else if ((typeof value === "number" || typeof value === "bigint") && !checkNumber(value)) {
      return false;
    }
    if (options !== undefined) {
      let found = false;
      for (let index = 0; index < options.length && !found; index++) {
        if (isHole(options, index)) continue;
        found = deepEqual(value, options[index]);
      }
      if (!found) return false;
    }
    return true;
  };
  return check;
}
