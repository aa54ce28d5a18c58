// pi's built-in `tool_search` extension: a BM25 ranking over the metadata of
// tools the model has not been given yet (exposure "codemode" or "deferred"),
// whose best matches it activates so they are declared from the next model
// call on. Activation goes through setActiveTools, so it is an ordinary tool
// change the session records.
import { Type } from "../typebox.js";
import { segmentWords } from "../pi-tui/words.js";

export const TOOL_SEARCH_TOOL_NAME = "tool_search";
export const DEFAULT_TOOL_SEARCH_LIMIT = 8;

const TOOL_SEARCH_DESCRIPTION =
  "# Tool discovery\n\nSearches over deferred tool metadata with BM25 and exposes matching tools for the next model call.\n\n" +
  `Some of the tools, such as tools of MCP servers, may not have been provided to you upfront, and you should use this tool (\`${TOOL_SEARCH_TOOL_NAME}\`) to search for the required tools. For MCP tool discovery, always use \`${TOOL_SEARCH_TOOL_NAME}\`.`;

const STOP_WORDS = new Set(
  "a an and are as at be by for from in is it of on or that the this to with".split(" "),
);

// A name term weighs more than any count of mentions in the description
// (whose BM25 part tops out at k1 + 1); namespace text is shared by all of a
// server's tools, so it helps find the server more than the tool.
const NAME_WEIGHT = 3;
const NAMESPACE_WEIGHT = 0.5;
const BM25_K1 = 1.2;
const BM25_B = 0.75;

/** Drops the common English plural endings, so `issues` finds `issue`. */
function singular(term) {
  if (term.length > 4 && term.endsWith("ies")) return `${term.slice(0, -3)}y`;
  if (term.length > 4 && /(?:ches|shes|sses|xes|zes)$/.test(term)) return term.slice(0, -2);
  if (term.length > 3 && term.endsWith("s") && !term.endsWith("ss")) return term.slice(0, -1);
  return term;
}

/** Search terms: words split at camelCase boundaries, lowercased, stop words out, ASCII words singular. */
function searchTerms(text) {
  const plain = text
    .normalize("NFC")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, " ");
  // Text in scripts written without spaces needs word segmentation; ASCII
  // already splits at the spaces put in above.
  const words = /^[a-z0-9 ]*$/.test(plain)
    ? plain.split(" ")
    : segmentWords(plain).map((segment) => (segment.isWordLike ? segment.segment : ""));
  const terms = [];
  for (const word of words) {
    if (word === "" || STOP_WORDS.has(word)) continue;
    terms.push(/^[a-z0-9]+$/.test(word) ? singular(word) : word);
  }
  return terms;
}

function isPlainObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The subschema a local JSON pointer (`#`, `#/$defs/Item`) names in `root`, if any. */
export function localSchemaTarget(ref, root) {
  if (ref !== "#" && !ref.startsWith("#/")) return undefined;
  let node = root;
  for (const rawSegment of ref.slice(2).split("/")) {
    if (rawSegment === "") continue;
    let key;
    try {
      key = decodeURIComponent(rawSegment);
    } catch {
      return undefined;
    }
    key = key.replaceAll("~1", "/").replaceAll("~0", "~");
    if (!isPlainObject(node) || !(key in node)) return undefined;
    node = node[key];
  }
  if (typeof node === "boolean") return node;
  return isPlainObject(node) ? node : undefined;
}

/** Collects a schema's descriptions and property names; each referenced subschema is read once. */
function collectSchemaText(schema, root, parts, visited) {
  if (!isPlainObject(schema)) return;
  if (typeof schema.$ref === "string") {
    const target = localSchemaTarget(schema.$ref, root);
    if (isPlainObject(target) && !visited.has(target)) {
      visited.add(target);
      collectSchemaText(target, root, parts, visited);
    }
  }
  if (typeof schema.description === "string") parts.push(schema.description);
  if (isPlainObject(schema.properties)) {
    for (const [propertyName, property] of Object.entries(schema.properties)) {
      parts.push(propertyName);
      collectSchemaText(property, root, parts, visited);
    }
  }
  collectSchemaText(schema.items, root, parts, visited);
  for (const combinator of ["anyOf", "oneOf", "allOf"]) {
    if (!Array.isArray(schema[combinator])) continue;
    for (const variant of schema[combinator]) collectSchemaText(variant, root, parts, visited);
  }
}

export function searchDocument(tool) {
  const parts = [tool.description];
  collectSchemaText(tool.parameters, tool.parameters, parts, new Set([tool.parameters]));
  const namespace = tool.namespace;
  return {
    name: tool.name,
    text: parts.filter((part) => part.trim()).join(" "),
    namespaceText: namespace ? [namespace.name, namespace.description ?? "", namespace.instructions ?? ""].join(" ") : "",
  };
}

/** A name as a script identifier would spell it, so `dev-radius` equals `dev_radius`. */
function identifierForm(name) {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_$]/g, "_");
}

function indexDocument(document) {
  const textCounts = new Map();
  for (const term of searchTerms(document.text)) textCounts.set(term, (textCounts.get(term) ?? 0) + 1);
  let textLength = 0;
  for (const count of textCounts.values()) textLength += count;
  const nameSegments = document.name.split("__");
  return {
    name: document.name,
    nameTerms: new Set(searchTerms(document.name)),
    localNameTerms: [...new Set(searchTerms(nameSegments[nameSegments.length - 1]))],
    textCounts,
    textLength,
    namespaceTerms: new Set(searchTerms(document.namespaceText)),
  };
}

/**
 * Ranks documents for a query: exact-name queries first (the whole name or
 * its part after a `__`), then by how many query terms a tool matches in any
 * field, then by score. Ties keep document order (the sort is stable).
 */
export function rankDocuments(query, documents, limit) {
  const queryTerms = new Set(searchTerms(query));
  if (queryTerms.size === 0 || documents.length === 0 || limit <= 0) return [];
  const indexed = documents.map(indexDocument);
  const averageLength = indexed.reduce((sum, document) => sum + document.textLength, 0) / indexed.length || 1;
  const idf = new Map();
  for (const term of queryTerms) {
    let containing = 0;
    for (const document of indexed) {
      if (document.nameTerms.has(term) || document.textCounts.has(term) || document.namespaceTerms.has(term)) containing++;
    }
    idf.set(term, Math.log(1 + (indexed.length - containing + 0.5) / (containing + 0.5)));
  }
  let wholeNameBonus = 0;
  for (const value of idf.values()) wholeNameBonus += value;
  const queryAsName = identifierForm(query);

  const matches = [];
  for (const document of indexed) {
    const lengthNorm = BM25_K1 * (1 - BM25_B + (BM25_B * document.textLength) / averageLength);
    let score = 0;
    let matchedTerms = 0;
    for (const term of queryTerms) {
      const count = document.textCounts.get(term) ?? 0;
      const weight =
        (document.nameTerms.has(term) ? NAME_WEIGHT : 0) +
        (document.namespaceTerms.has(term) ? NAMESPACE_WEIGHT : 0) +
        (count * (BM25_K1 + 1)) / (count + lengthNorm);
      if (weight > 0) matchedTerms++;
      score += idf.get(term) * weight;
    }
    if (score === 0) continue;
    const localTerms = document.localNameTerms;
    if (localTerms.length > 0 && localTerms.every((term) => queryTerms.has(term))) score += wholeNameBonus;
    const normalizedName = identifierForm(document.name);
    const exact = normalizedName === queryAsName || normalizedName.endsWith(`__${queryAsName}`);
    matches.push({ name: document.name, score, matchedTerms, exact });
  }
  matches.sort((a, b) => Number(b.exact) - Number(a.exact) || b.matchedTerms - a.matchedTerms || b.score - a.score);
  return matches.slice(0, limit);
}

/** Ranks the searchable tools not active yet, activates the matches and returns them. */
function searchAndActivate(tools, query, limit) {
  const active = tools.getActiveTools();
  const candidates = tools
    .getAllTools()
    .filter((tool) => (tool.exposure === "codemode" || tool.exposure === "deferred") && !active.includes(tool.name));
  const matches = rankDocuments(query, candidates.map(searchDocument), limit);
  if (matches.length > 0) tools.setActiveTools([...active, ...matches.map((match) => match.name)]);
  return matches.map((match) => ({
    name: match.name,
    description: candidates.find((tool) => tool.name === match.name)?.description ?? "",
  }));
}

function loadedToolsText(loaded) {
  if (loaded.length === 0) return "No matching tools found.";
  const lines = loaded.map((tool) => `- ${tool.name}: ${tool.description.trim().split(/\r?\n/)[0]}`);
  return `Loaded ${loaded.length} tool${loaded.length === 1 ? "" : "s"}. They are available from your next call:\n${lines.join("\n")}`;
}

function toolSearchDefinition(tools) {
  return {
    name: TOOL_SEARCH_TOOL_NAME,
    label: TOOL_SEARCH_TOOL_NAME,
    description: TOOL_SEARCH_DESCRIPTION,
    promptSnippet: "Search for tools that are not loaded yet and load the matches",
    parameters: Type.Object({
      query: Type.String({ description: "Search query for deferred tools." }),
      limit: Type.Optional(
        Type.Number({ description: `Maximum number of tools to return. Defaults to ${DEFAULT_TOOL_SEARCH_LIMIT}.` }),
      ),
    }),
    // It changes what the model is given, which scripts have no use for.
    exposure: "model-only",
    reachesTools: () => "all",
    async execute(_toolCallId, { query, limit }) {
      if (query.trim() === "") throw new Error("query must not be empty");
      const max = limit ?? DEFAULT_TOOL_SEARCH_LIMIT;
      if (!Number.isInteger(max) || max <= 0) throw new Error("limit must be a positive integer");
      const loaded = searchAndActivate(tools, query, max);
      return {
        content: [{ type: "text", text: loadedToolsText(loaded) }],
        details: { loaded: loaded.map((tool) => tool.name) },
      };
    },
  };
}

/** The extension factory: registers `tool_search`, inactive until something activates it. */
export function createToolSearchExtension() {
  return (pi) => {
    pi.registerTool({ ...toolSearchDefinition(pi), defaultActive: false });
  };
}
