// Virtual models as pi 1.6.0 has them: a catalog entry under a provider
// whose requests a router (the definition's `route`) sends to a physical
// model, per request. What a session branch records about them: the
// selection (a `model_change` naming the virtual model holds until the next
// one, since responses name the physical models) and the router's state
// (custom entries of VIRTUAL_MODEL_STATE_ENTRY).

export const VIRTUAL_MODEL_API = "pi-virtual";
export const VIRTUAL_MODEL_STATE_ENTRY = "pi.virtual-model-state";

const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];

export function isVirtualModel(model) {
  return model?.api === VIRTUAL_MODEL_API;
}

/** The latest assistant message that neither failed nor was aborted: its model is a physical one. */
export function findLatestResponse(messages) {
  return messages.findLast((message) => message.role === "assistant" && message.stopReason !== "error" && message.stopReason !== "aborted");
}

/** The catalog entry of a definition: no cost, no limits unless given, the thinking levels it lists. */
export function createVirtualModel(definition) {
  const levels = definition.thinkingLevels ?? ["off"];
  return {
    id: definition.id,
    name: definition.name,
    api: VIRTUAL_MODEL_API,
    provider: definition.provider,
    baseUrl: "",
    reasoning: levels.some((level) => level !== "off"),
    thinkingLevelMap: Object.fromEntries(THINKING_LEVELS.map((level) => [level, levels.includes(level) ? level : null])),
    input: definition.input ?? ["text", "image"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: definition.contextWindow ?? 0,
    maxTokens: definition.maxTokens ?? 0,
  };
}

function lastModelChange(branch, before = branch.length) {
  for (let index = before - 1; index >= 0; index--) {
    const entry = branch[index];
    if (entry.type === "model_change") return { provider: entry.provider, modelId: entry.modelId };
  }
  return undefined;
}

/**
 * The selection a branch records: its last `model_change` when nothing
 * answered after it; after a response, the response's model, unless the
 * change before it names a virtual model still in the catalog (`getModel`).
 */
export function getBranchSelection(branch, getModel) {
  for (let index = branch.length - 1; index >= 0; index--) {
    const entry = branch[index];
    if (entry.type === "model_change") return { provider: entry.provider, modelId: entry.modelId };
    if (entry.type === "message" && entry.message.role === "assistant" && !isVirtualModel(entry.message)) {
      const change = lastModelChange(branch, index);
      if (change && isVirtualModel(getModel(change.provider, change.modelId))) return change;
      return { provider: entry.message.provider, modelId: entry.message.model };
    }
  }
  return undefined;
}

/** The router state the branch stored last for one virtual model. */
export function getVirtualModelState(branch, provider, modelId) {
  for (let index = branch.length - 1; index >= 0; index--) {
    const entry = branch[index];
    if (entry.type === "custom" && entry.customType === VIRTUAL_MODEL_STATE_ENTRY && entry.data?.provider === provider && entry.data.modelId === modelId) {
      return entry.data.state;
    }
  }
  return undefined;
}
