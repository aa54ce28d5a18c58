// Constrained sampling of tool arguments: whether a tool's JSON schema goes
// to the provider in strict mode (and in which strict form), and which
// sessions fell back to non-strict after Claude rejected their strict tools.
import { registerSessionResourceCleanup } from "../session-resources.js";

class UnsupportedStrictSchema extends Error {}

// Keywords outside the strict subset every provider shares.
const UNSUPPORTED_KEYS = [
  "$ref",
  "$defs",
  "definitions",
  "allOf",
  "oneOf",
  "patternProperties",
  "dependentSchemas",
  "dependencies",
  "unevaluatedProperties",
  "propertyNames",
  "contains",
  "prefixItems",
  "not",
  "if",
  "then",
  "else",
];

const isSchemaObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);

function isStructured(schema) {
  if (!isSchemaObject(schema)) return false;
  const types = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type : [];
  return types.includes("object") || types.includes("array") || schema.properties !== undefined || schema.items !== undefined;
}

function allowsNull(schema) {
  if (!isSchemaObject(schema)) return false;
  if (schema.type === "null" || (Array.isArray(schema.type) && schema.type.includes("null"))) return true;
  if (schema.const === null || (Array.isArray(schema.enum) && schema.enum.includes(null))) return true;
  return Array.isArray(schema.anyOf) && schema.anyOf.some(allowsNull);
}

function makeNodeStrict(schema, isUnsupportedKeyword) {
  if (!isSchemaObject(schema)) throw new UnsupportedStrictSchema("boolean schemas are unsupported");
  for (const key of UNSUPPORTED_KEYS) {
    if (schema[key] !== undefined) throw new UnsupportedStrictSchema(`${key} schemas are unsupported`);
  }
  if (isUnsupportedKeyword) {
    for (const [key, value] of Object.entries(schema)) {
      if (isUnsupportedKeyword(key, value)) throw new UnsupportedStrictSchema(`${key}: ${JSON.stringify(value)} is unsupported`);
    }
  }
  // Strict mode needs a type on every node; a bare enum counts, a bare const does not.
  if (schema.type === undefined && schema.anyOf === undefined && schema.enum === undefined) {
    throw new UnsupportedStrictSchema("schemas without a type are unsupported");
  }
  if (schema.anyOf !== undefined) {
    if (!Array.isArray(schema.anyOf) || schema.anyOf.length === 0) {
      throw new UnsupportedStrictSchema("anyOf must contain at least one schema");
    }
    for (const variant of schema.anyOf) {
      if (isStructured(variant)) throw new UnsupportedStrictSchema("object and array unions are unsupported");
      makeNodeStrict(variant, isUnsupportedKeyword);
    }
  }
  if (schema.items !== undefined) {
    if (Array.isArray(schema.items)) throw new UnsupportedStrictSchema("tuple schemas are unsupported");
    makeNodeStrict(schema.items, isUnsupportedKeyword);
  }
  const isObject = schema.type === "object";
  if (schema.properties !== undefined && !isObject) throw new UnsupportedStrictSchema("properties require type object");
  if (!isObject) return;
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) {
    throw new UnsupportedStrictSchema("schema-valued or true additionalProperties is unsupported");
  }
  if (schema.properties !== undefined && !isSchemaObject(schema.properties)) {
    throw new UnsupportedStrictSchema("object properties must be a schema map");
  }
  if (schema.required !== undefined && (!Array.isArray(schema.required) || schema.required.some((key) => typeof key !== "string"))) {
    throw new UnsupportedStrictSchema("object required must be a string array");
  }
  const properties = schema.properties ?? {};
  const names = Object.keys(properties);
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  if ([...required].some((key) => !names.includes(key))) throw new UnsupportedStrictSchema("required contains an unknown property");
  for (const [key, property] of Object.entries(properties)) {
    makeNodeStrict(property, isUnsupportedKeyword);
    // Strict mode requires every property; optional ones become nullable instead.
    if (!required.has(key) && !allowsNull(property)) properties[key] = { anyOf: [property, { type: "null" }] };
  }
  schema.required = names;
  schema.additionalProperties = false;
}

/** A copy of `schema` in the strict subset; throws UnsupportedStrictSchema when it cannot be. */
export function makeStrictJsonSchema(schema, isUnsupportedKeyword) {
  const copy = structuredClone(schema);
  if (!isSchemaObject(copy)) throw new UnsupportedStrictSchema("root schema must have type object");
  makeNodeStrict(copy, isUnsupportedKeyword);
  if (copy.type !== "object") throw new UnsupportedStrictSchema("root schema must have type object");
  return copy;
}

/** A tool that wants strict sampling only where it is possible. */
export function prefersJsonSchemaStrictSampling(tool) {
  const config = tool.constrainedSampling;
  return !!config && config.type === "json_schema" && config.strict === "prefer";
}

export function getJsonSchemaToolParameters(tool, strict) {
  return strict === true ? makeStrictJsonSchema(tool.parameters) : tool.parameters;
}

/** true when the tool goes strict; undefined when not; throws when it requires strict and cannot have it. */
export function resolveJsonSchemaStrictSampling(tool, supportsStrictMode, isUnsupportedKeyword) {
  const config = tool.constrainedSampling;
  if (!config || config.type !== "json_schema") return undefined;
  if (supportsStrictMode) {
    try {
      makeStrictJsonSchema(tool.parameters, isUnsupportedKeyword);
      return true;
    } catch (error) {
      if (!(error instanceof UnsupportedStrictSchema)) throw error;
      if (config.strict !== "require") return undefined;
      throw new Error(`Tool "${tool.name}" requires JSON-schema constrained sampling, but ${error.message}.`);
    }
  }
  if (config.strict === "require") {
    throw new Error(`Tool "${tool.name}" requires JSON-schema constrained sampling, but strict tools are unsupported.`);
  }
  return undefined;
}

// How Claude says a request's strict tools exceed its limits (20 strict
// tools, 16 optional or union parameters across them).
const STRICT_LIMIT_MESSAGES = [
  "The compiled grammar is too large",
  "Too many strict tools (",
  "Schemas contains too many parameters with union types (",
];

export function isStrictToolLimitErrorMessage(message) {
  return STRICT_LIMIT_MESSAGES.some((text) => message.includes(text));
}

// Sessions over the limits send "prefer" tools non-strict from then on:
// retrying strict would repeat the rejection and rewrite the cached tools.
const sessionsOverLimits = new Set();
const MAX_SESSIONS_OVER_LIMITS = 10_000;
let cleanupRegistered = false;

function registerCleanup() {
  if (cleanupRegistered) return;
  cleanupRegistered = true;
  registerSessionResourceCleanup((sessionId) => {
    if (sessionId) sessionsOverLimits.delete(sessionId);
    else sessionsOverLimits.clear();
  });
}

export function markStrictToolLimitsExceeded(sessionId) {
  if (sessionId === undefined) return;
  registerCleanup();
  sessionsOverLimits.add(sessionId);
  if (sessionsOverLimits.size > MAX_SESSIONS_OVER_LIMITS) sessionsOverLimits.delete(sessionsOverLimits.values().next().value);
}

export function hasExceededStrictToolLimits(sessionId) {
  return sessionId !== undefined && sessionsOverLimits.has(sessionId);
}
