// @earendil-works/pi-ai/models as extensions see it: the cost helper and
// what a model is and which thinking levels it takes. The Models collection
// (createModels, createProvider) is not built.
export { calculateCost } from "../ai/cost.js";
export {
  getModelType,
  isModelType,
  hasApi,
  getSupportedThinkingLevels,
  clampThinkingLevel,
  modelsAreEqual,
} from "../ai/model-kinds.js";
