// @earendil-works/pi-ai/models as extensions see it: the cost helper; the
// model catalog is not built.
export { calculateCost } from "../ai/cost.js";
