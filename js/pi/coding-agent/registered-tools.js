// An extension's registered tools as the agent runs them: each call gets a
// context the runner makes for that call, unless the caller passes its own.
import { wrapToolDefinition } from "./tools/wrap.js";

/** The agent tool for one registered tool; contexts come from `runner.createToolContext`. */
export function wrapRegisteredTool(registeredTool, runner) {
  return wrapToolDefinition(registeredTool.definition, (toolCallId, signal) => runner.createToolContext(toolCallId, signal));
}

export function wrapRegisteredTools(registeredTools, runner) {
  return registeredTools.map((registeredTool) => wrapRegisteredTool(registeredTool, runner));
}
