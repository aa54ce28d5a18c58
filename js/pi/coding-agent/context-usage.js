// How full a session's context is: the provider's last reported usage plus
// an estimate for what came after it, or a whole estimate when that usage
// predates a context edit or compaction; and the token and cost totals of
// everything a session was billed for.
import { getCurrentSystemMessage } from "../ai/system-messages.js";
import { calculateContextTokens, estimateTokens, usableUsage } from "./compaction.js";

/** Context tokens of `messages`: the last real usage plus estimates of the messages after it. */
export function estimateContextTokens(messages) {
  let lastUsageIndex = -1;
  for (let index = messages.length - 1; index >= 0 && lastUsageIndex < 0; index--) {
    if (usableUsage(messages[index])) lastUsageIndex = index;
  }
  if (lastUsageIndex < 0) {
    const tokens = messages.reduce((sum, message) => sum + estimateTokens(message), 0);
    return { tokens, usageTokens: 0, trailingTokens: tokens, lastUsageIndex: null };
  }
  const usageTokens = calculateContextTokens(usableUsage(messages[lastUsageIndex]));
  let trailingTokens = 0;
  for (let index = lastUsageIndex + 1; index < messages.length; index++) trailingTokens += estimateTokens(messages[index]);
  return { tokens: usageTokens + trailingTokens, usageTokens, trailingTokens, lastUsageIndex };
}

/** The entry id the projected message at `messageIndex` came from. */
function sourceEntryId(projection, messageIndex) {
  let start = 0;
  for (const entry of projection.entries) {
    const end = start + entry.messages.length;
    if (messageIndex < end) return entry.sourceEntry.id;
    start = end;
  }
  return undefined;
}

/** Like estimateContextTokens, but usage reported before the branch's latest context edit or compaction is not trusted. */
export function estimateProjectedContextTokens(projection, branchEntries) {
  const estimate = estimateContextTokens(projection.messages);
  if (estimate.lastUsageIndex !== null) {
    const usageEntryId = sourceEntryId(projection, estimate.lastUsageIndex);
    const usageEntryIndex = usageEntryId ? branchEntries.findIndex((entry) => entry.id === usageEntryId) : -1;
    const invalidatingIndex = branchEntries.findLastIndex((entry) => entry.type === "context_edit" || entry.type === "compaction");
    if (usageEntryIndex > invalidatingIndex) return estimate;
  }
  // The system messages count once, as the prompt they replay into.
  const system = getCurrentSystemMessage(projection.messages);
  let tokens = system ? estimateTokens(system) : 0;
  for (const message of projection.messages) if (message.role !== "system") tokens += estimateTokens(message);
  return { tokens, usageTokens: 0, trailingTokens: tokens, lastUsageIndex: null };
}

export function createUsageTotals() {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 };
}

export function addUsageToTotals(totals, usage) {
  totals.input += usage.input;
  totals.output += usage.output;
  totals.cacheRead += usage.cacheRead;
  totals.cacheWrite += usage.cacheWrite;
  totals.cost += usage.cost.total;
}

/** Two calls' usage as one; the optional splits appear when either call reported them. */
export function combineUsage(first, second) {
  const optionalSum = (key) =>
    first[key] !== undefined || second[key] !== undefined ? { [key]: (first[key] ?? 0) + (second[key] ?? 0) } : {};
  return {
    input: first.input + second.input,
    output: first.output + second.output,
    cacheRead: first.cacheRead + second.cacheRead,
    cacheWrite: first.cacheWrite + second.cacheWrite,
    ...optionalSum("cacheWrite1h"),
    ...optionalSum("reasoning"),
    totalTokens: first.totalTokens + second.totalTokens,
    cost: {
      input: first.cost.input + second.cost.input,
      output: first.cost.output + second.cost.output,
      cacheRead: first.cost.cacheRead + second.cost.cacheRead,
      cacheWrite: first.cost.cacheWrite + second.cost.cacheWrite,
      total: first.cost.total + second.cost.total,
      // Only a sum of provider-reported totals is itself provider-reported.
      totalFromProvider: first.cost.totalFromProvider === true && second.cost.totalFromProvider === true,
    },
  };
}
