// TypeBox's Value.Convert rules: turn a loosely typed value into the one a
// schema most likely meant ("42" → 42 for a number, a single value → a
// one-item array, the first union branch a value converts into). pi-schema
// runs the same rules as the second pass of its coercion, so both use this.
// Conversion never modifies its input: changed objects and arrays are copies.

import { isPlainRecord, isSchemaNode, patternRegExp } from "./check.js";

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);

function isFiniteNumber(value) {
  return typeof value === "number" && Number.isFinite(value);
}

// Each `to*` returns `{ value }` when the input converts, else undefined.
function toBigIntFromString(text) {
  if (/^-?(0|[1-9]\d*)n$/.test(text)) return BigInt(text.slice(0, -1));
  if (/^-?(0|[1-9]\d*)\.\d+$/.test(text)) return BigInt(text.split(".")[0]);
  if (/^-?(0|[1-9]\d*)$/.test(text)) return BigInt(text);
  return undefined;
}

function toString(value) {
  if (typeof value === "string") return { value };
  if (typeof value === "bigint" || typeof value === "boolean" || isFiniteNumber(value)) return { value: String(value) };
  if (value === null) return { value: "null" };
  if (value === undefined) return { value: "" };
  return undefined;
}

function toNumber(value) {
  if (isFiniteNumber(value)) return { value };
  if (typeof value === "boolean") return { value: value ? 1 : 0 };
  if (typeof value === "bigint") return value <= MAX_SAFE && value >= MIN_SAFE ? { value: Number(value) } : undefined;
  if (value === null || value === undefined) return { value: 0 };
  if (typeof value !== "string") return undefined;
  const parsed = +value;
  if (Number.isFinite(parsed)) return { value: parsed };
  const lower = value.toLowerCase();
  if (lower === "true") return { value: 1 };
  if (lower === "false") return { value: 0 };
  const big = toBigIntFromString(value);
  return big !== undefined && big <= MAX_SAFE && big >= MIN_SAFE ? { value: Number(big) } : undefined;
}

function toBoolean(value) {
  if (typeof value === "boolean") return { value };
  if (typeof value === "bigint") return value === 0n ? { value: false } : value === 1n ? { value: true } : undefined;
  if (isFiniteNumber(value)) return value === 0 ? { value: false } : value === 1 ? { value: true } : undefined;
  if (value === null || value === undefined) return { value: false };
  if (typeof value !== "string") return undefined;
  const lower = value.toLowerCase();
  if (lower === "true" || value === "1") return { value: true };
  if (lower === "false" || value === "0") return { value: false };
  return undefined;
}

function isNullish(text) {
  const lower = text.toLowerCase();
  return lower === "undefined" || lower === "null" || text === "" || text === "0";
}

function toNull(value) {
  if (value === null || value === undefined || value === 0n || value === false || value === 0) return { value: null };
  return typeof value === "string" && isNullish(value) ? { value: null } : undefined;
}

function toUndefined(value) {
  if (value === null || value === undefined || value === 0n || value === false || value === 0) return { value: undefined };
  return typeof value === "string" && isNullish(value) ? { value: undefined } : undefined;
}

function toBigInt(value) {
  if (typeof value === "bigint") return { value };
  if (typeof value === "boolean") return { value: value ? 1n : 0n };
  if (isFiniteNumber(value)) return { value: BigInt(Math.trunc(value)) };
  if (value === null || value === undefined) return { value: 0n };
  if (typeof value !== "string") return undefined;
  const big = toBigIntFromString(value);
  if (big !== undefined) return { value: big };
  const lower = value.toLowerCase();
  return lower === "true" ? { value: 1n } : lower === "false" ? { value: 0n } : undefined;
}

const CONVERTERS = { string: toString, number: toNumber, boolean: toBoolean, bigint: toBigInt };

/** A literal taken from a value of another type that converts to exactly it. */
function convertLiteral(literal, value) {
  if (literal === value) return value;
  const convert = CONVERTERS[typeof literal];
  const result = convert?.(value);
  return result !== undefined && result.value === literal ? result.value : value;
}

function orSame(result, value) {
  return result === undefined ? value : result.value;
}

/** `items` mapped by `map`; the same array when nothing changes. */
export function mapItems(items, map) {
  let out;
  for (let index = 0; index < items.length; index++) {
    const next = map(items[index], index);
    if (next === items[index]) continue;
    out ??= items.slice();
    out[index] = next;
  }
  return out ?? items;
}

/**
 * Converts values for one schema. `checker` (a SchemaChecker over the same
 * root) resolves `$ref`s and decides which union branch a value fits.
 */
export class Converter {
  constructor(checker) {
    this.checker = checker;
    // (node, value) pairs being converted through a `$ref` or an array wrap:
    // a recursive schema meeting a value no branch takes would loop forever.
    this.entered = [];
  }

  passes(node, value) {
    try {
      return this.checker.check(node, value);
    } catch {
      return false;
    }
  }

  reenter(node, value) {
    for (const [seenNode, seenValue] of this.entered) {
      if (seenNode === node && Object.is(seenValue, value)) return value;
    }
    this.entered.push([node, value]);
    try {
      return this.convert(node, value);
    } finally {
      this.entered.pop();
    }
  }

  convert(node, value) {
    if (!isSchemaNode(node)) return value;
    if (typeof node.$ref === "string") {
      const target = this.checker.resolve(node.$ref);
      return isSchemaNode(target) ? this.reenter(target, value) : value;
    }
    if (Object.hasOwn(node, "const")) return convertLiteral(node.const, value);
    if (Array.isArray(node.enum)) return this.convertEnum(node, value);
    if (Array.isArray(node.anyOf)) return this.convertUnion(node, node.anyOf, value);
    if (Array.isArray(node.oneOf)) return this.convertUnion(node, node.oneOf, value);
    if (Array.isArray(node.allOf)) {
      const next = node.allOf.reduce((current, member) => this.convert(member, current), value);
      return this.convertMembers(node, next);
    }
    switch (node.type) {
      case "string":
        return orSame(toString(value), value);
      case "number":
        return orSame(toNumber(value), value);
      case "integer": {
        const result = toNumber(value);
        return result === undefined ? value : Math.trunc(result.value);
      }
      case "boolean":
        return orSame(toBoolean(value), value);
      case "null":
        return orSame(toNull(value), value);
      case "bigint":
        return orSame(toBigInt(value), value);
      case "undefined":
      case "void":
        return orSame(toUndefined(value), value);
      case "array":
        return this.convertArray(node, value);
      case "object":
        return this.convertObject(node, value);
      case undefined:
        if (node.properties !== undefined || node.patternProperties !== undefined) return this.convertObject(node, value);
        if (node.items !== undefined || node.prefixItems !== undefined) return this.convertArray(node, value);
        return value;
      default:
        return value;
    }
  }

  convertEnum(node, value) {
    if (node.enum.some((member) => member === value)) return value;
    for (const member of node.enum) {
      const candidate = convertLiteral(member, value);
      if (candidate !== value && this.passes(node, candidate)) return candidate;
    }
    return value;
  }

  // A value one branch takes stays; else the first branch's conversion the
  // whole union takes.
  convertUnion(node, branches, value) {
    if (branches.some((branch) => this.passes(branch, value))) return this.convertMembers(node, value);
    for (const branch of branches) {
      const candidate = this.convertMembers(node, this.convert(branch, value));
      // TypeBox takes the first passing conversion, but one to undefined
      // reads as "none found" there, so the value stays as it was.
      if (this.passes(node, candidate)) return candidate === undefined ? this.convertMembers(node, value) : candidate;
    }
    return this.convertMembers(node, value);
  }

  /** Properties a union or intersection node declares beside its branches. */
  convertMembers(node, value) {
    const declares = node.properties !== undefined || node.patternProperties !== undefined || node.additionalProperties !== undefined;
    return declares ? this.convertObject(node, value) : value;
  }

  convertArray(node, value) {
    const prefix = Array.isArray(node.items) ? node.items : Array.isArray(node.prefixItems) ? node.prefixItems : undefined;
    if (prefix !== undefined) {
      // A tuple converts its items and never wraps a single value.
      if (!Array.isArray(value)) return value;
      const rest = Array.isArray(node.items) ? undefined : node.items;
      return mapItems(value, (item, index) => {
        const schema = index < prefix.length ? prefix[index] : rest;
        return schema === undefined ? item : this.convert(schema, item);
      });
    }
    if (Array.isArray(value)) return node.items === undefined ? value : mapItems(value, (item) => this.convert(node.items, item));
    return [isSchemaNode(node.items) ? this.reenter(node.items, value) : value];
  }

  convertObject(node, value) {
    if (!isPlainRecord(value)) return value;
    const properties = isSchemaNode(node.properties) ? node.properties : {};
    const patterns = isSchemaNode(node.patternProperties)
      ? Object.entries(node.patternProperties).map(([pattern, schema]) => [patternRegExp(pattern), schema])
      : [];
    const additional = isSchemaNode(node.additionalProperties) ? node.additionalProperties : undefined;
    let out;
    for (const key of Object.keys(value)) {
      if (value[key] === undefined) continue;
      let next = value[key];
      let matched = Object.hasOwn(properties, key);
      if (matched) next = this.convert(properties[key], next);
      for (const [regexp, schema] of patterns) {
        if (!regexp.test(key)) continue;
        matched = true;
        next = this.convert(schema, next);
      }
      if (!matched && additional !== undefined) next = this.convert(additional, next);
      if (next !== value[key]) {
        out ??= { ...value };
        out[key] = next;
      }
    }
    return out ?? value;
  }
}
