// Tool wrapping (W1): a registered tool runs with a context made for each
// call by `ctxFactory`, never with one shared context.
import { ArrayPrototypeIncludes, SafeSet } from "./primordials.js";

/** The agent-facing form of a tool definition. */
export function wrapToolDefinition(definition, ctxFactory) {
  return {
    name: definition.name,
    label: definition.label,
    description: definition.description,
    parameters: definition.parameters,
    outputSchema: definition.outputSchema,
    constrainedSampling: definition.constrainedSampling,
    prepareArguments: definition.prepareArguments,
    executionMode: definition.executionMode,
    execute: (toolCallId, params, signal, onUpdate, ctx) =>
      definition.execute(toolCallId, params, signal, onUpdate, ctx ?? ctxFactory?.(toolCallId, signal)),
  };
}

/**
 * pi's wrapper of an extension's registered tool: a context per call (W1)
 * and, kept from pi 0.82 (W2), when every tool active before the call is
 * still active after it, the names the call activated are merged into the
 * result's `addedToolNames`.
 */
export function wrapRegisteredTool(registeredTool, runner) {
  const tool = wrapToolDefinition(registeredTool.definition, (toolCallId, signal) =>
    runner.createToolContext(toolCallId, signal),
  );
  const execute = tool.execute;
  return {
    ...tool,
    execute: async (toolCallId, params, signal, onUpdate) => {
      // Before a host is bound there is no active tool set to compare.
      const activeBefore = runner.isBound ? runner.getActiveTools() : undefined;
      const result = await execute(toolCallId, params, signal, onUpdate);
      if (activeBefore === undefined) return result;
      const activeAfter = runner.getActiveTools();
      if (activeAfter.length === 0 || sameNames(activeBefore, activeAfter)) return result;
      for (let index = 0; index < activeBefore.length; index++) {
        if (!ArrayPrototypeIncludes(activeAfter, activeBefore[index])) return result;
      }
      const before = new SafeSet(activeBefore);
      const added = [];
      for (let index = 0; index < activeAfter.length; index++) {
        if (!before.has(activeAfter[index])) added[added.length] = activeAfter[index];
      }
      if (added.length === 0) return result;
      // The names already in the result first, then the new ones, each once.
      const names = new SafeSet(result.addedToolNames ?? []);
      for (let index = 0; index < added.length; index++) names.add(added[index]);
      const addedToolNames = [];
      for (const name of names) addedToolNames[addedToolNames.length] = name;
      return { ...result, addedToolNames };
    },
  };
}

/** Whether two name lists are equal item by item: the common case, when a call changed no active tool. */
function sameNames(left, right) {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
  return true;
}
