// The `codemode` tool: the model writes JavaScript that calls other tools,
// and only what the script prints reaches the model. Scripts call the
// session's nested tools (active direct tools and every codemode or deferred
// one) through `ctx.executeTool`, so validation, tool_call/tool_result hooks
// and permission checks apply as for direct calls.
import { Type } from "../../typebox.js";
import {
  CODEMODE_TOOL_NAME,
  createCodemodeDescription,
  prepareCodemodeLoadout,
} from "./description.js";
import { renderCodemodeCall, renderCodemodeResult } from "./renderer.js";
import { CODEMODE_SOURCE_GRAMMAR } from "./script-source.js";

export const codemodeSchema = Type.Object({
  code: Type.String({ description: "Raw JavaScript source." }),
});

export const codemodeToolSystemPromptContribution = {
  snippet: "Run JavaScript that calls other tools",
  guidelines: [
    "Use codemode to batch independent tool calls (Promise.allSettled), chain them, or filter large output, instead of many separate calls.",
  ],
};

// A script that mentions one of these can look tools up and then call any of them by name.
const DISCOVERY_GLOBALS = /\b(searchTools|describeNamespace|describeTool|ALL_TOOLS)\b/;

/**
 * The tools a script may reach (`reachesTools`): all of them once it uses a
 * discovery global, else the words of its source, so that both
 * `tools.mcp__docs__search` and `tools["mcp__docs__" + name]` name the
 * `mcp__docs` namespace.
 */
function scriptReach(code) {
  if (typeof code !== "string") return [];
  return DISCOVERY_GLOBALS.test(code) ? "all" : (code.match(/\w+/g) ?? []);
}

// The sandbox (the QuickJS wasm and its driver) loads with the first script, not with the extension.
let executor;
const loadExecutor = () => (executor ??= import("./execute.js"));

/**
 * `options`: appendEntry(customType, data), models (expose `models.*`),
 * getToolNamespace(name), getToolGuidelines() (a Map of name to
 * guidelines), getMode() ("on" | "only"), getInlineBudget().
 */
export function createCodemodeToolDefinition(options = {}) {
  return {
    name: CODEMODE_TOOL_NAME,
    label: CODEMODE_TOOL_NAME,
    // Replaced by the catalog of callable tools when the tool is active (prepareLoadout).
    description: createCodemodeDescription([], { models: options.models === true }),
    promptSnippet: codemodeToolSystemPromptContribution.snippet,
    promptGuidelines: [...codemodeToolSystemPromptContribution.guidelines],
    parameters: codemodeSchema,
    // Scripts must not start other scripts.
    exposure: "model-only",
    prepareLoadout: (loadout) => prepareCodemodeLoadout(loadout, options),
    reachesTools: (input) => scriptReach(input.code),
    // Capable models then write the script as raw text rather than an escaped JSON string.
    constrainedSampling: { type: "grammar", variants: { openai_lark: CODEMODE_SOURCE_GRAMMAR } },
    execute: async (toolCallId, params, signal, onUpdate, ctx) =>
      (await loadExecutor()).executeCodemode(toolCallId, params, signal, onUpdate, ctx, options),
    renderCall: renderCodemodeCall,
    renderResult: renderCodemodeResult,
  };
}
