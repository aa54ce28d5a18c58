// pi-ai's catalog pricing: rates are dollars per million tokens, a model may
// price long prompts by tier, and the costs are written into `usage.cost`
// (providers call this on the message they are building).

/**
 * Fills `usage.cost` from the model's rates and returns it. The tier is the
 * one with the highest `inputTokensAbove` that the prompt (input plus cache
 * reads and writes) exceeds; Anthropic's 1h cache writes cost twice the
 * base input rate instead of the cache-write rate.
 */
export function calculateCost(model, usage) {
  const promptTokens = usage.input + usage.cacheRead + usage.cacheWrite;
  let rates = model.cost;
  let threshold = -1;
  for (const tier of model.cost.tiers ?? []) {
    if (promptTokens > tier.inputTokensAbove && tier.inputTokensAbove > threshold) {
      rates = tier;
      threshold = tier.inputTokensAbove;
    }
  }
  const hourWrites = usage.cacheWrite1h ?? 0;
  const cost = usage.cost;
  cost.input = (rates.input / 1000000) * usage.input;
  cost.output = (rates.output / 1000000) * usage.output;
  cost.cacheRead = (rates.cacheRead / 1000000) * usage.cacheRead;
  cost.cacheWrite = (rates.cacheWrite * (usage.cacheWrite - hourWrites) + rates.input * 2 * hourWrites) / 1000000;
  cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
  cost.totalFromProvider = false;
  return cost;
}
