// @earendil-works/pi-ai/models as extensions see it: the Models collection
// and the provider builder, the cost helper, and what a model is and which
// thinking levels it takes.
export { calculateCost } from "../ai/cost.js";
export {
  getModelType,
  isModelType,
  hasApi,
  getSupportedThinkingLevels,
  clampThinkingLevel,
  modelsAreEqual,
} from "../ai/model-kinds.js";
export { createModels, createProvider } from "../ai/models-collection.js";
export { ModelsError } from "../ai/models-error.js";
export { AI_TELEMETRY_SCHEMA } from "../ai/telemetry.js";
