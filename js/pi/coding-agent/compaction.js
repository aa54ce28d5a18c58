// When and where to compact a session: how full the context is (from the
// provider's reported usage, or estimated), and which entry the kept tail
// should start at so it holds about `keepRecentTokens` and never begins
// with a tool result cut off from its call.
import { sessionEntryToContextMessages } from "./session-context.js";

export const DEFAULT_COMPACTION_SETTINGS = {
  enabled: true,
  reserveTokens: 16384,
  keepRecentTokens: 20000,
};


export function calculateContextTokens(usage) {
  return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/** An assistant message's usage when it is real: not aborted, errored or all zero. */
export function usableUsage(message) {
  if (message.role !== "assistant" || !("usage" in message)) return undefined;
  if (message.stopReason === "aborted" || message.stopReason === "error") return undefined;
  return message.usage && calculateContextTokens(message.usage) > 0 ? message.usage : undefined;
}

/** The usage of the last assistant message that has real usage (not aborted, errored or all zero). */
export function getLastAssistantUsage(entries) {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (entry.type !== "message") continue;
    const usage = usableUsage(entry.message);
    if (usage) return usage;
  }
  return undefined;
}

export function shouldCompact(contextTokens, contextWindow, settings) {
  if (!settings.enabled) return false;
  return contextTokens > contextWindow - settings.reserveTokens;
}

const ESTIMATED_IMAGE_CHARS = 4800;

function contentChars(content) {
  if (typeof content === "string") return content.length;
  // V8's words for what pi hits here, so extensions read the same text on either engine.
  if (typeof content?.[Symbol.iterator] !== "function") throw new TypeError("content is not iterable");
  let chars = 0;
  for (const block of content) {
    if (block.type === "text" && block.text) chars += block.text.length;
    else if (block.type === "image") chars += ESTIMATED_IMAGE_CHARS;
  }
  return chars;
}

/** A message's tokens as characters / 4, rounded up: deliberately an overestimate. */
export function estimateTokens(message) {
  let chars = 0;
  switch (message.role) {
    case "system":
      chars = contentChars(message.content);
      for (const section of Object.values(message.sections ?? {})) if (section) chars += section.length;
      if (message.toolsAdded) chars += JSON.stringify(message.toolsAdded).length;
      break;
    case "user":
    case "custom":
    case "toolResult":
      chars = contentChars(message.content);
      break;
    case "assistant":
      for (const block of message.content) {
        if (block.type === "text") chars += block.text.length;
        else if (block.type === "thinking") chars += block.thinking.length;
        else if (block.type === "toolCall") chars += block.name.length + JSON.stringify(block.arguments).length;
      }
      break;
    case "bashExecution":
      chars = message.command.length + message.output.length;
      break;
    case "branchSummary":
    case "compactionSummary":
      chars = message.summary.length;
      break;
    default:
      return 0;
  }
  return Math.ceil(chars / 4);
}

// --- Cut points -----------------------------------------------------------------

// A kept tail may start at any of these; a tool result must stay behind its call.
export const CUT_POINT_ROLES = new Set(["user", "assistant", "bashExecution", "custom", "branchSummary", "compactionSummary"]);
// A turn starts with input to the model; the assistant's reply and its tool results continue it.
export const TURN_START_ROLES = new Set(["user", "bashExecution", "custom", "branchSummary", "compactionSummary"]);

function entryHasRole(entry, roles) {
  // A compaction entry's summary is never part of the range being cut.
  if (entry.type === "compaction") return false;
  return sessionEntryToContextMessages(entry).some((message) => roles.has(message.role));
}

const entryTokens = (entry) => sessionEntryToContextMessages(entry).reduce((sum, message) => sum + estimateTokens(message), 0);

/** The index of the entry that starts the turn holding `entryIndex`, searching back to `startIndex`; -1 if none. */
export function findTurnStartIndex(entries, entryIndex, startIndex) {
  for (let i = entryIndex; i >= startIndex; i--) {
    if (entryHasRole(entries[i], TURN_START_ROLES)) return i;
  }
  return -1;
}

/**
 * Where to cut `entries[startIndex, endIndex)` so the kept tail holds about
 * `keepRecentTokens`: walking back from the newest entry, the first valid cut
 * point at or after the entry that reaches the budget (everything when the
 * budget is never reached). Metadata entries just before the cut stay with
 * it. A cut inside a turn reports where that turn started.
 */
export function findCutPoint(entries, startIndex, endIndex, keepRecentTokens) {
  const cutPoints = [];
  for (let i = startIndex; i < endIndex; i++) {
    if (entryHasRole(entries[i], CUT_POINT_ROLES)) cutPoints.push(i);
  }
  if (cutPoints.length === 0) return { firstKeptEntryIndex: startIndex, turnStartIndex: -1, isSplitTurn: false };

  let cutIndex = cutPoints[0];
  let tokens = 0;
  for (let i = endIndex - 1; i >= startIndex; i--) {
    const size = entryTokens(entries[i]);
    if (size === 0) continue;
    tokens += size;
    if (tokens >= keepRecentTokens) {
      // Tool results alone can fill the budget; then the call before them is kept too.
      cutIndex = cutPoints.find((point) => point >= i) ?? cutPoints[cutPoints.length - 1];
      break;
    }
  }
  while (cutIndex > startIndex) {
    const previous = entries[cutIndex - 1];
    if (previous.type === "compaction" || sessionEntryToContextMessages(previous).length > 0) break;
    cutIndex--;
  }

  const startsTurn = entryHasRole(entries[cutIndex], TURN_START_ROLES);
  const turnStartIndex = startsTurn ? -1 : findTurnStartIndex(entries, cutIndex, startIndex);
  return { firstKeptEntryIndex: cutIndex, turnStartIndex, isSplitTurn: !startsTurn && turnStartIndex !== -1 };
}
