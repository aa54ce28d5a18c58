// What the model reads about codemode: the tool's own description (how
// scripts work, their globals, and a catalog of the tools they can call,
// grouped by namespace and cut to a token budget), and, in mode "on", a line
// on every declared tool saying how a script calls it and what it gets back.
import { piPackageDir } from "../system-prompt.js";
import { renderToolOutputType, renderToolSample, resolveSchemaRef } from "./declarations.js";
import { toCodemodeIdentifier } from "./identifiers.js";

export const CODEMODE_TOOL_NAME = "codemode";
/** pi's default `codemode.inlineBudget`, in estimated tokens. */
export const DEFAULT_CODEMODE_INLINE_BUDGET = 3000;
export const DEFAULT_CODEMODE_MODE = "on";

const CHARS_PER_TOKEN = 4;
// What a tool without an output schema resolves to in a script: its text.
const TEXT_OUTPUT_SCHEMA = { type: "string" };

/** The reference for scripts (globals, results, store, models, limits), in pi's docs. */
export function codemodeDocsPath() {
  return `${piPackageDir()}/docs/codemode.md`;
}

const INTRO = `Run JavaScript that calls other tools. The input is raw JavaScript (not JSON, no code fence), run as an async function body in a QuickJS sandbox: top-level \`await\` and \`return\` work. No Node, file system, network, or timers.
- \`await tools.<name>({ ...args })\` resolves to a string, or an object if the tool's declaration says so, and rejects with an Error on failure. A tool whose declaration returns an object resolves on failure too when it returned that object; check its fields. Calls still running when the script ends are cancelled.
- Optional first line: \`// @options: {"max_output_tokens": 10000, "timeout_ms": 60000}\``;

function globalsSection(models) {
  const lines = [
    "Globals:",
    "- `text(value)`, `image(dataUrlOrImageBlock)`, `console.log(...)`, and top-level `return` add output; `exit()` ends the script. With several text items, each starts with a `==> text N/M <==` line, and `console` lines follow the other output in one `<console_output>` block. `image()` also saves the image to a temp file and the result names its path.",
    "- `store(key, value)` and `load(key)` keep JSON values across codemode calls.",
    "- `ALL_TOOLS`, `await searchTools(query, { limit?, namespace? })`, `await describeTool(name)`, `await describeNamespace(name)`: find unlisted tools, such as MCP tools.",
  ];
  if (models) lines.push(`- \`models\`: classifiers and image generation. Read ${codemodeDocsPath()} first.`);
  return lines.join("\n");
}

/** Every tool but codemode itself: scripts must not start scripts. */
export function getCodemodeCallableTools(tools) {
  return tools.filter((tool) => tool.name !== CODEMODE_TOOL_NAME);
}

/**
 * A tool as scripts see it. Its prompt guidelines follow the description,
 * since the system prompt only carries them for declared tools.
 */
export function toCodemodeDeclaration(tool, guidelines = []) {
  const bullets = [];
  for (const guideline of guidelines) if (guideline.trim()) bullets.push(`- ${guideline.trim()}`);
  return {
    name: tool.name,
    description: bullets.length === 0 ? tool.description : `${tool.description.trim()}\n\n${bullets.join("\n")}`,
    inputSchema: tool.parameters,
    outputSchema: tool.outputSchema ?? TEXT_OUTPUT_SCHEMA,
  };
}

function catalogEntry(declaration) {
  const id = toCodemodeIdentifier(declaration.name);
  const heading = id === declaration.name ? `### \`${id}\`` : `### \`${id}\` (\`${declaration.name}\`)`;
  const section = `${heading}\n${renderToolSample(declaration).trim()}`;
  return { name: declaration.name, section, cost: Math.ceil(section.length / CHARS_PER_TOKEN) };
}

/**
 * The names of the catalog entries that fit `budget`. Round by round, each
 * group still in play (tools without a namespace first, then namespaces by
 * name) places its cheapest remaining entry, or leaves the game when that
 * does not fit: every namespace shows some tools before any shows all.
 */
function entriesWithinBudget(groups, budget) {
  const chosen = new Set();
  if (budget === undefined) {
    for (const group of groups) for (const entry of group.entries) chosen.add(entry.name);
    return chosen;
  }
  let left = budget;
  let playing = groups.map((group) => [...group.entries].sort((a, b) => a.cost - b.cost)).filter((queue) => queue.length > 0);
  while (playing.length > 0) {
    const next = [];
    for (const queue of playing) {
      if (queue[0].cost > left) continue;
      const entry = queue.shift();
      left -= entry.cost;
      chosen.add(entry.name);
      if (queue.length > 0) next.push(queue);
    }
    playing = next;
  }
  return chosen;
}

/**
 * The codemode tool's description for the tools a script may call. Deferred
 * tools are left out entirely, so MCP servers connecting late do not change
 * it; the rest are listed by namespace within `inlineBudget`.
 */
export function createCodemodeDescription(tools, options = {}) {
  const declarations = getCodemodeCallableTools(tools)
    .filter((tool) => !options.deferred?.has(tool.name))
    .map((tool) => toCodemodeDeclaration(tool, options.guidelines?.get(tool.name)));
  const groups = new Map([["", { namespace: undefined, entries: [] }]]);
  for (const declaration of declarations) {
    const namespace = options.namespaces?.get(declaration.name);
    const key = namespace ? `ns:${namespace.name}` : "";
    if (!groups.has(key)) groups.set(key, { namespace, entries: [] });
    groups.get(key).entries.push(catalogEntry(declaration));
  }
  const ordered = [...groups.values()].sort((a, b) => {
    if (a.namespace === undefined) return -1;
    if (b.namespace === undefined) return 1;
    return a.namespace.name.localeCompare(b.namespace.name);
  });
  const shown = entriesWithinBudget(ordered, options.inlineBudget);

  const parts = [INTRO, globalsSection(options.models === true)];
  if (declarations.length > 0) {
    const catalog = ["Nested tools:"];
    for (const { namespace, entries } of ordered) {
      const visible = entries.filter((entry) => shown.has(entry.name));
      if (namespace) {
        // Only the budget hides tools here; deferred ones were never counted.
        let listing = "";
        if (visible.length === 0) listing = " (tools not listed)";
        else if (visible.length < entries.length) listing = " (some tools not listed)";
        const about = namespace.description?.trim();
        catalog.push(`## ${namespace.name}${listing}${about ? `\n${about}` : ""}`);
      }
      for (const entry of visible) catalog.push(entry.section);
    }
    parts.push(catalog.join("\n\n"));
  }
  return parts.join("\n\n");
}

// --- What a script call resolves to, in one line -----------------------------

/** Follows a chain of local `$ref`s; remote, missing and cyclic ones stop at the schema holding them. */
function dereference(schema, root) {
  const visited = new Set();
  let current = schema;
  while (typeof current === "object" && current !== null && !visited.has(current) && typeof current.$ref === "string") {
    const target = resolveSchemaRef(current.$ref, root);
    if (target === undefined) break;
    visited.add(current);
    current = target;
  }
  return current;
}

/**
 * `{ output, exit_code, full_output_path? }`: an object schema's field names,
 * with the fields of object fields `depth` levels down and the value of
 * `const` fields (`{ action: "start", id }`). Undefined for other schemas.
 */
function fieldList(schema, root, depth) {
  const object = dereference(schema, root);
  if (typeof object !== "object" || object === null) return undefined;
  const { type, properties, required } = object;
  if (type !== "object" || typeof properties !== "object" || properties === null) return undefined;
  const requiredNames = new Set(Array.isArray(required) ? required : []);
  const fields = Object.entries(properties).map(([name, field]) => {
    const constant = dereference(field, root)?.const;
    let detail;
    if (constant !== undefined) detail = JSON.stringify(constant);
    else if (depth > 0) detail = fieldList(field, root, depth - 1);
    return `${name}${requiredNames.has(name) ? "" : "?"}${detail ? `: ${detail}` : ""}`;
  });
  return `{ ${fields.join(", ")} }`;
}

/** The field lists of an `anyOf`/`oneOf` of objects, joined by ` | `. */
function variantFieldLists(schema, root) {
  const union = dereference(schema, root);
  if (typeof union !== "object" || union === null) return undefined;
  const variants = union.anyOf ?? union.oneOf;
  if (!Array.isArray(variants) || variants.length === 0) return undefined;
  const lists = variants.map((variant) => fieldList(variant, root, 0));
  return lists.includes(undefined) ? undefined : lists.join(" | ");
}

/**
 * `a string`, a field list, a one-line type, or, for a long type, a pointer
 * to describeTool(): the full type would ride along with every request.
 */
function resultSummary(name, schema) {
  const type = renderToolOutputType(schema);
  if (type === "string") return "a string";
  const fields = schema === undefined ? undefined : (fieldList(schema, schema, 1) ?? variantFieldLists(schema, schema));
  if (fields) return `\`${fields}\``;
  if (!type.includes("\n")) return `\`${type}\``;
  return `a value; \`await describeTool(${JSON.stringify(name)})\` shows its type`;
}

/** A declared tool's description plus how a script calls it; its parameters are declared already. */
function withScriptCallNote(tool) {
  const summary = resultSummary(tool.name, toCodemodeDeclaration(tool).outputSchema);
  return `${tool.description.trim()}\n\nCodemode: \`tools.${toCodemodeIdentifier(tool.name)}(args)\` resolves to ${summary}.`;
}

/**
 * The codemode tool's `prepareLoadout` hook. Mode "on" keeps direct tools
 * declared, notes on each how scripts call it, and lists the other callable
 * tools in codemode's catalog; mode "only" lists every callable tool there
 * and hides the declarations of active direct tools. The catalog depends on
 * exposure, not on what is active, so a tool_search load does not change
 * codemode's description.
 */
export function prepareCodemodeLoadout(loadout, options = {}) {
  const mode = options.getMode?.() ?? DEFAULT_CODEMODE_MODE;
  const isDirect = (tool) => loadout.getExposure(tool.name) === "direct";
  const callable = getCodemodeCallableTools(loadout.callable);
  const callableNames = new Set(callable.map((tool) => tool.name));
  const descriptions = {};
  if (mode === "on") {
    for (const tool of loadout.declared) if (callableNames.has(tool.name)) descriptions[tool.name] = withScriptCallNote(tool);
  }
  const listed = mode === "only" ? callable : callable.filter((tool) => !isDirect(tool));
  const namespaces = new Map();
  for (const tool of listed) {
    const namespace = loadout.getNamespace(tool.name);
    if (namespace) namespaces.set(tool.name, namespace);
  }
  descriptions[CODEMODE_TOOL_NAME] = createCodemodeDescription(listed, {
    models: options.models === true,
    namespaces,
    guidelines: new Map(listed.map((tool) => [tool.name, loadout.getPromptGuidelines(tool.name)])),
    deferred: new Set(listed.filter((tool) => loadout.getExposure(tool.name) === "deferred").map((tool) => tool.name)),
    inlineBudget: options.getInlineBudget?.() ?? DEFAULT_CODEMODE_INLINE_BUDGET,
  });
  const declaredNames = new Set(loadout.declared.map((tool) => tool.name));
  const hiddenDeclarations =
    mode === "only" ? callable.filter((tool) => isDirect(tool) && declaredNames.has(tool.name)).map((tool) => tool.name) : [];
  return { descriptions, hiddenDeclarations };
}
