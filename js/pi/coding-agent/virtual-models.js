// Virtual models as pi 1.6.0 has them: a catalog entry under a provider
// whose requests a router (the definition's `route`) sends to a physical
// model, per request, and the router's state a session branch records
// (custom entries of VIRTUAL_MODEL_STATE_ENTRY).
import { THINKING_LEVELS } from "../ai/model-kinds.js";

export const VIRTUAL_MODEL_API = "pi-virtual";
export const VIRTUAL_MODEL_STATE_ENTRY = "pi.virtual-model-state";

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
