// OpenRouter reports what it billed; when the accounting is complete and
// valid it replaces the catalog estimate as the total.

const isValidCost = (value) => typeof value === "number" && Number.isFinite(value) && value >= 0;

export function isOpenRouterModel(model) {
  return model.provider === "openrouter" || model.baseUrl.includes("openrouter.ai");
}

export function applyOpenRouterReportedCost(usage, reported) {
  if (!isValidCost(reported.cost)) return;
  if (reported.is_byok === false) {
    usage.cost.total = reported.cost;
    usage.cost.totalFromProvider = true;
    return;
  }
  if (reported.is_byok !== true) return;
  // With their own key the user also pays the upstream provider.
  const details = reported.cost_details;
  if (!details) return;
  let upstream = details.upstream_inference_cost;
  if (upstream === null) {
    if (!isValidCost(details.upstream_inference_prompt_cost) || !isValidCost(details.upstream_inference_completions_cost)) return;
    upstream = details.upstream_inference_prompt_cost + details.upstream_inference_completions_cost;
  }
  if (!isValidCost(upstream)) return;
  usage.cost.total = reported.cost + upstream;
  usage.cost.totalFromProvider = true;
}
