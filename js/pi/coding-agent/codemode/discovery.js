// searchTools(), describeTool() and describeNamespace(): how a script finds
// the tools the codemode description does not list (MCP tools, above all).
// They answer over the script's callable tools, ranked by the same BM25 as
// the tool_search tool.
import { DEFAULT_TOOL_SEARCH_LIMIT, rankDocuments, searchDocument } from "../tool-search.js";
import { toCodemodeIdentifier } from "./identifiers.js";

/**
 * Whether `query` names the namespace: its name or an alias, as written or
 * as the same identifier (`dev-radius` and `dev_radius` are one name).
 */
function namesNamespace(namespace, query) {
  const queryId = toCodemodeIdentifier(query);
  return [namespace.name, ...(namespace.aliases ?? [])].some((name) => name === query || toCodemodeIdentifier(name) === queryId);
}

/**
 * The three globals, spread-argument style. `samples` maps a tool name to
 * what scripts are told about it (description and declaration);
 * `namespaceOf(name)` is the tool's namespace, if any.
 */
export function createDiscoveryGlobals(tools, samples, namespaceOf = () => undefined) {
  const summary = (name) => ({ name: toCodemodeIdentifier(name), description: samples.get(name) ?? "" });

  const searchTools = ([query, options]) => {
    if (typeof query !== "string") throw new Error("searchTools() expects a query string");
    const limit = options?.limit ?? DEFAULT_TOOL_SEARCH_LIMIT;
    if (typeof limit !== "number" || !Number.isInteger(limit) || limit <= 0) {
      throw new Error("searchTools() limit must be a positive integer");
    }
    const wanted = options?.namespace;
    if (wanted !== undefined && wanted !== null && typeof wanted !== "string") {
      throw new Error("searchTools() namespace must be a string");
    }
    const documents = [];
    for (const tool of tools) {
      const namespace = namespaceOf(tool.name);
      if (wanted && (!namespace || !namesNamespace(namespace, wanted))) continue;
      documents.push(searchDocument({ name: tool.name, description: tool.description, parameters: tool.parameters, namespace }));
    }
    return rankDocuments(query, documents, limit).map((match) => summary(match.name));
  };

  const describeTool = ([name]) => {
    if (typeof name !== "string") throw new Error("describeTool() expects a tool name");
    const tool = tools.find((candidate) => candidate.name === name || toCodemodeIdentifier(candidate.name) === name);
    return tool ? samples.get(tool.name) : undefined;
  };

  const describeNamespace = ([name]) => {
    if (typeof name !== "string") throw new Error("describeNamespace() expects a namespace name");
    let namespace;
    const members = [];
    for (const tool of tools) {
      const candidate = namespaceOf(tool.name);
      if (!candidate || !namesNamespace(candidate, name)) continue;
      namespace ??= candidate;
      members.push(toCodemodeIdentifier(tool.name));
    }
    if (!namespace) return undefined;
    return {
      name: namespace.name,
      ...(namespace.description ? { description: namespace.description } : {}),
      ...(namespace.instructions ? { instructions: namespace.instructions } : {}),
      tools: members,
    };
  };

  return [
    { name: "searchTools", spread: true, execute: searchTools },
    { name: "describeTool", spread: true, execute: describeTool },
    { name: "describeNamespace", spread: true, execute: describeNamespace },
  ];
}
