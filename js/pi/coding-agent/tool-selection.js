// Tool selections as pi's `tools` option and `defaultTools` setting take
// them: exact names and `*` patterns, or only `+name` / `-name` entries that
// change the default selection.

export const DEFAULT_TOOL_NAMES = ["read", "bash", "edit", "write"];

export function isToolModifier(entry) {
  return typeof entry === "string" && (entry.startsWith("+") || entry.startsWith("-"));
}

/** What is wrong with a tool list, or undefined when it is valid. */
export function getToolListError(entries) {
  const modifiers = entries.filter(isToolModifier);
  if (modifiers.length === 0) return undefined;
  if (modifiers.length < entries.length) return "tool names cannot be mixed with +name or -name entries";
  const pattern = modifiers.find((entry) => entry.includes("*"));
  return pattern ? `+name and -name entries take exact tool names, not patterns: ${pattern}` : undefined;
}

/** `base` with the `+name` entries added and the `-name` entries removed, in order. */
export function applyToolModifiers(base, entries) {
  const tools = [...base];
  for (const entry of entries) {
    if (!isToolModifier(entry)) continue;
    const name = entry.slice(1);
    const index = tools.indexOf(name);
    if (entry.startsWith("+") && index === -1 && name) tools.push(name);
    else if (entry.startsWith("-") && index !== -1) tools.splice(index, 1);
  }
  return tools;
}

function patternRegExp(pattern) {
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}$`);
}

/** Whether a tool name is one of the entries or matches one of their patterns. */
export function createToolNameMatcher(entries) {
  const names = new Set(entries.filter((entry) => !entry.includes("*")));
  const patterns = entries.filter((entry) => entry.includes("*")).map(patternRegExp);
  return (name) => names.has(name) || patterns.some((pattern) => pattern.test(name));
}
