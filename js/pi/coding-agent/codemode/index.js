// pi's built-in codemode extension. It registers the `codemode` tool
// inactive: `--tools`, the defaultTools setting or setActiveTools() turn it
// on, and the MCP extension does when MCP tools are only reachable from
// scripts. `codemode.mode` and `codemode.inlineBudget` come from the
// settings on every use, unless the factory's options fix them.
import { DEFAULT_CODEMODE_MODE } from "./description.js";
import { createCodemodeToolDefinition } from "./tool-definition.js";

function modeSetting(pi) {
  return pi.getSettings().codemode?.mode === "only" ? "only" : DEFAULT_CODEMODE_MODE;
}

function inlineBudgetSetting(pi) {
  const budget = pi.getSettings().codemode?.inlineBudget;
  return typeof budget === "number" && Number.isFinite(budget) && budget >= 0 ? budget : undefined;
}

/** `options`: mode, inlineBudget (override the settings), models (default true). */
export function createCodemodeExtension(options = {}) {
  return (pi) => {
    const definition = createCodemodeToolDefinition({
      appendEntry: (customType, data) => pi.appendEntry(customType, data),
      models: options.models ?? true,
      getToolNamespace: (name) => pi.getAllTools().find((tool) => tool.name === name)?.namespace,
      getToolGuidelines: () => new Map(pi.getAllTools().map((tool) => [tool.name, tool.promptGuidelines ?? []])),
      getMode: () => options.mode ?? modeSetting(pi),
      getInlineBudget: () => options.inlineBudget ?? inlineBudgetSetting(pi),
    });
    pi.registerTool({ ...definition, defaultActive: false });
  };
}
