// What scripts (and the model writing them) are told about a tool: its
// JSON Schemas rendered as TypeScript. Schemas come from extensions and MCP
// servers, so anything unexpected renders as `unknown` rather than failing,
// and output stays bounded: shared `$ref` definitions expand a limited number
// of times, and an input type that grows too long is retried without its
// constraint comments, then given up as `unknown`.
import { localSchemaTarget } from "../tool-search.js";
import { toCodemodeIdentifier } from "./identifiers.js";

/** The longest rendered input type, in characters, before it becomes `unknown`. */
export const DEFAULT_INPUT_SCHEMA_MAX_CHARS = 16_000;

const REF_EXPANSION_LIMIT = 32;
const INDENT = "  ";
const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
// Ends a `//` comment, so it may not appear inside one.
const LINE_BREAKS = /[\r\n\u2028\u2029]/g;
const LONGEST_TAG = 80;

// Schema keywords TypeScript cannot say, shown as `@keyword value` comments,
// in this order. The bounds hold together, so only the tightest one is shown.
const TAGGED_KEYWORDS = [
  "minimum",
  "exclusiveMinimum",
  "maximum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minItems",
  "maxItems",
];
const TIGHTEST = {
  minimum: Math.max,
  exclusiveMinimum: Math.max,
  minLength: Math.max,
  minItems: Math.max,
  maximum: Math.min,
  exclusiveMaximum: Math.min,
  maxLength: Math.min,
  maxItems: Math.min,
};

const isPlainObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The subschema a local reference (`#`, `#/$defs/Item`) points at in `root`:
 * undefined for remote references and for pointers that name nothing.
 */
export function resolveSchemaRef(ref, root) {
  return localSchemaTarget(ref, root);
}

/** `a | b` of distinct types; any `unknown` swallows the rest, none is `never`. */
function unionOf(types) {
  const distinct = [...new Set(types)];
  if (distinct.includes("unknown")) return "unknown";
  return distinct.length === 0 ? "never" : distinct.join(" | ");
}

/** The `@integer @minimum 1 @default 20` comment of a property, or "". */
function constraintComment(property) {
  if (!isPlainObject(property)) return "";
  // A nullable property (`anyOf: [T, null]`) keeps its constraints on T; both count.
  const variants = Array.isArray(property.anyOf) ? property.anyOf : property.oneOf;
  const nonNull = Array.isArray(variants) ? variants.filter((variant) => variant?.type !== "null") : [];
  const sources = nonNull.length === 1 && isPlainObject(nonNull[0]) ? [property, nonNull[0]] : [property];
  // Draft-04 spells an exclusive bound as a boolean next to the bound itself.
  const normalized = sources.map((schema) => {
    const copy = { ...schema };
    if (schema.exclusiveMinimum === true) Object.assign(copy, { minimum: undefined, exclusiveMinimum: schema.minimum });
    if (schema.exclusiveMaximum === true) Object.assign(copy, { maximum: undefined, exclusiveMaximum: schema.maximum });
    return copy;
  });

  const tags = [];
  const integerType = (type) => type === "integer" || (Array.isArray(type) && type.includes("integer"));
  if (normalized.some((schema) => integerType(schema.type))) tags.push("@integer");
  for (const keyword of TAGGED_KEYWORDS) {
    const values = normalized.map((schema) => schema[keyword]);
    const pick = TIGHTEST[keyword];
    if (pick) {
      const bounds = values.filter((value) => typeof value === "number");
      if (bounds.length > 0) tags.push(`@${keyword} ${pick(...bounds)}`);
      continue;
    }
    for (const value of new Set(values)) {
      if (typeof value === "number" || typeof value === "string") tags.push(`@${keyword} ${value}`);
    }
  }
  if (normalized.some((schema) => schema.uniqueItems === true)) tags.push("@uniqueItems");
  // Annotations, unlike constraints, are the property's own.
  if (property.default !== undefined && property.default !== null) tags.push(`@default ${JSON.stringify(property.default)}`);
  if (property.deprecated === true) tags.push("@deprecated");
  return tags
    .filter((tag) => tag.length <= LONGEST_TAG)
    .map((tag) => tag.replace(LINE_BREAKS, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`))
    .join(" ");
}

/** Renders schemas against one root; `withTags` adds the constraint comments. */
class TypeRenderer {
  #root;
  #withTags;
  #open = new Set();
  #expansions = 0;

  constructor(root, withTags) {
    this.#root = root;
    this.#withTags = withTags;
  }

  render(schema) {
    if (schema === true) return "unknown";
    if (schema === false) return "never";
    if (!isPlainObject(schema)) return "unknown";
    if (typeof schema.$ref === "string") return this.#reference(schema.$ref);
    if ("const" in schema) return JSON.stringify(schema.const) ?? "unknown";
    if (Array.isArray(schema.enum)) return unionOf(schema.enum.map((value) => JSON.stringify(value) ?? "unknown"));
    const variants = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
    if (variants) return unionOf(variants.map((variant) => this.render(variant)));
    if (Array.isArray(schema.allOf)) {
      const parts = schema.allOf.map((part) => this.render(part)).filter((part) => part !== "unknown");
      if (parts.length === 0) return "unknown";
      return parts.map((part) => (part.includes(" | ") ? `(${part})` : part)).join(" & ");
    }
    const { type } = schema;
    if (Array.isArray(type)) return unionOf(type.map((one) => this.render({ ...schema, type: one })));
    switch (type) {
      case "string":
        return "string";
      case "number":
      case "integer":
        return "number";
      case "boolean":
        return "boolean";
      case "null":
        return "null";
      case "array":
        return this.#array(schema);
      case "object":
        return this.#object(schema);
      case undefined:
        if ("properties" in schema || "additionalProperties" in schema || "required" in schema) return this.#object(schema);
        if ("items" in schema || "prefixItems" in schema) return this.#array(schema);
        return "unknown";
      default:
        return "unknown";
    }
  }

  // Recursive references and references past the expansion limit are `unknown`.
  #reference(ref) {
    if (this.#open.has(ref) || this.#expansions >= REF_EXPANSION_LIMIT) return "unknown";
    const target = resolveSchemaRef(ref, this.#root);
    if (target === undefined) return "unknown";
    this.#expansions++;
    this.#open.add(ref);
    try {
      return this.render(target);
    } finally {
      this.#open.delete(ref);
    }
  }

  #array(schema) {
    const { items, prefixItems } = schema;
    if (items !== undefined && !Array.isArray(items)) return `Array<${this.render(items)}>`;
    const tuple = Array.isArray(prefixItems) ? prefixItems : Array.isArray(items) ? items : [];
    return tuple.length > 0 ? `[${tuple.map((item) => this.render(item)).join(", ")}]` : "unknown[]";
  }

  // Properties sorted by name; on one line unless some property has a comment.
  #object(schema) {
    const properties = isPlainObject(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const names = Object.keys(properties).sort();
    const members = names.map((name) => {
      const key = PLAIN_KEY.test(name) ? name : JSON.stringify(name);
      return `${key}${required.has(name) ? "" : "?"}: ${this.render(properties[name])};`;
    });
    const { additionalProperties: additional } = schema;
    if (additional !== undefined && additional !== false) {
      members.push(`[key: string]: ${additional === true ? "unknown" : this.render(additional)};`);
    } else if (additional === undefined && names.length === 0) {
      members.push("[key: string]: unknown;");
    }
    if (members.length === 0) return "{}";

    const comments = names.map((name) => {
      const description = properties[name]?.description;
      const lines = (typeof description === "string" ? description.trim() : "")
        .split(LINE_BREAKS)
        .map((line) => line.trim())
        .filter(Boolean);
      const tags = this.#withTags ? constraintComment(properties[name]) : "";
      return tags ? [...lines, tags] : lines;
    });
    if (comments.every((comment) => comment.length === 0)) return `{ ${members.join(" ")} }`;
    const out = ["{"];
    names.forEach((_name, index) => {
      for (const line of comments[index]) out.push(`${INDENT}// ${line}`);
      out.push(`${INDENT}${members[index].replaceAll("\n", `\n${INDENT}`)}`);
    });
    for (const member of members.slice(names.length)) out.push(`${INDENT}${member}`);
    out.push("}");
    return out.join("\n");
  }
}

/**
 * A JSON Schema as a TypeScript type. Past `maxChars` it is rendered again
 * without the constraint comments, and is `unknown` if still too long.
 */
export function schemaToType(schema, options = {}) {
  const full = new TypeRenderer(schema, true).render(schema);
  if (options.maxChars === undefined || full.length <= options.maxChars) return full;
  const bare = new TypeRenderer(schema, false).render(schema);
  return bare.length <= options.maxChars ? bare : "unknown";
}

/** What a call resolves to: the output schema's type, `unknown` without one. */
export function renderToolOutputType(schema) {
  return schema === undefined ? "unknown" : schemaToType(schema);
}

/** `name(args: T): Promise<R>;`, named as scripts call it. */
export function renderToolSignature(tool, options = {}) {
  const input =
    tool.inputSchema === undefined
      ? "unknown"
      : schemaToType(tool.inputSchema, { maxChars: options.inputMaxChars ?? DEFAULT_INPUT_SCHEMA_MAX_CHARS });
  return `${toCodemodeIdentifier(tool.name)}(args: ${input}): Promise<${renderToolOutputType(tool.outputSchema)}>;`;
}

/** A tool's description followed by its declaration: listings, `ALL_TOOLS` and `describeTool()`. */
export function renderToolSample(tool, options = {}) {
  const description = tool.description?.trim() ?? "";
  return `${description}\n\ncodemode tool declaration:\n\`\`\`ts\ndeclare const tools: { ${renderToolSignature(tool, options)} };\n\`\`\``;
}
