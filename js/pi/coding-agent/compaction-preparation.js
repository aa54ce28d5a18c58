// What a compaction of a branch would summarize and what it would keep, as
// pi prepares it: the branch's projection (what the model sees now), cut so
// the kept tail holds about `keepRecentTokens`, the part before the cut (and
// the start of a turn the cut splits) to be summarized, the summary the
// previous compaction left, and the files the summarized part touched.
import { CUT_POINT_ROLES, TURN_START_ROLES, estimateTokens } from "./compaction.js";
import { estimateProjectedContextTokens } from "./context-usage.js";
import { createFileOps, extractFileOpsFromMessage } from "./file-operations.js";
import { buildSessionProjection, sessionEntryToContextMessages } from "./session-context.js";

const hasRole = (projected, roles) => projected.sourceEntry.type !== "compaction" && projected.messages.some((message) => roles.has(message.role));

function turnStartBefore(projected, index, startIndex) {
  for (let i = index; i >= startIndex; i--) if (hasRole(projected[i], TURN_START_ROLES)) return i;
  return -1;
}

/** Whether an entry puts messages in a context by itself (a context edit only changes others). */
const contributesByItself = (projected) => projected.sourceEntry.type !== "context_edit" && sessionEntryToContextMessages(projected.sourceEntry).length > 0;
/** An entry that would contribute but an edit hid. */
const hiddenByEdit = (projected) => contributesByItself(projected) && projected.messages.length === 0;

/**
 * Where to cut the projected entries `[startIndex, endIndex)`: walking back
 * from the newest, the first cut point at or after the entry that fills the
 * budget. A tail that is only an overflow attempt hidden by its omission
 * edits is passed over (it was never input); metadata just before the cut
 * stays with the kept part.
 */
function findProjectedCutPoint(projected, startIndex, endIndex, keepRecentTokens) {
  const cutPoints = [];
  for (let i = startIndex; i < endIndex; i++) if (hasRole(projected[i], CUT_POINT_ROLES)) cutPoints.push(i);
  if (cutPoints.length === 0) return { firstKeptEntryIndex: startIndex, turnStartIndex: -1, isSplitTurn: false };

  let cutIndex = cutPoints[0];
  let tokens = 0;
  let overBudget = false;
  for (let i = endIndex - 1; i >= startIndex; i--) {
    const size = projected[i].messages.reduce((sum, message) => sum + estimateTokens(message), 0);
    if (size === 0) continue;
    tokens += size;
    if (tokens >= keepRecentTokens) {
      overBudget = true;
      cutIndex = cutPoints.find((point) => point >= i) ?? cutPoints[cutPoints.length - 1];
      break;
    }
  }

  const tail = projected.slice(cutIndex + 1, endIndex);
  const hiddenIds = new Set(tail.filter(hiddenByEdit).map((entry) => entry.sourceEntry.id));
  const editsSomethingElse = tail.some(
    (entry) => entry.sourceEntry.type === "context_edit" && entry.sourceEntry.replacement !== null && !hiddenIds.has(entry.sourceEntry.targetId),
  );
  const onlyAHiddenAttempt =
    overBudget &&
    !editsSomethingElse &&
    tail.some((entry) => entry.sourceEntry.type === "message" && entry.sourceEntry.message.role === "assistant" && hiddenByEdit(entry)) &&
    tail.every((entry) => entry.sourceEntry.type !== "compaction" && (!contributesByItself(entry) || hiddenByEdit(entry)));
  if (onlyAHiddenAttempt) cutIndex++;

  while (cutIndex > startIndex) {
    const previous = projected[cutIndex - 1];
    if (previous.sourceEntry.type === "compaction" || previous.messages.length > 0) break;
    cutIndex--;
  }
  const startsTurn = hasRole(projected[cutIndex], TURN_START_ROLES);
  const turnStartIndex = startsTurn ? -1 : turnStartBefore(projected, cutIndex, startIndex);
  return { firstKeptEntryIndex: cutIndex, turnStartIndex, isSplitTurn: !startsTurn && turnStartIndex !== -1 };
}

/** The messages an entry gives the summary: a compaction's summary is carried apart, system messages are prompt state. */
const messagesToSummarizeOf = (projected) =>
  projected.sourceEntry.type === "compaction" ? [] : projected.messages.filter((message) => message.role !== "system");

/** Files the summarized messages touched, with those the previous (pi-made) compaction recorded. */
function fileOperationsOf(messages, previousCompaction) {
  const fileOps = createFileOps();
  const details = previousCompaction && !previousCompaction.fromHook ? previousCompaction.details : undefined;
  if (details) {
    if (Array.isArray(details.readFiles)) for (const file of details.readFiles) fileOps.read.add(file);
    if (Array.isArray(details.modifiedFiles)) for (const file of details.modifiedFiles) fileOps.edited.add(file);
  }
  for (const message of messages) extractFileOpsFromMessage(message, fileOps);
  return fileOps;
}

/**
 * pi's compaction preparation of a branch's entries, or undefined when there
 * is nothing to compact (the branch ends with a compaction, or nothing lies
 * before the kept tail).
 */
export function prepareCompaction(pathEntries, settings) {
  if (pathEntries.length > 0 && pathEntries[pathEntries.length - 1].type === "compaction") return undefined;
  const projection = buildSessionProjection(pathEntries);
  const projected = projection.entries;
  // The newest compaction leads the projection; older ones inside its kept range contribute nothing.
  const previousIndex = projected.findIndex((entry) => entry.sourceEntry.type === "compaction" && entry.messages.length > 0);
  const previousCompaction = previousIndex >= 0 ? projected[previousIndex].sourceEntry : undefined;
  const boundaryStart = previousIndex >= 0 ? previousIndex + 1 : 0;
  const tokensBefore = estimateProjectedContextTokens(projection, pathEntries).tokens;
  const cut = findProjectedCutPoint(projected, boundaryStart, projected.length, settings.keepRecentTokens);
  const firstKeptEntryId = projected[cut.firstKeptEntryIndex]?.sourceEntry?.id;
  if (!firstKeptEntryId) return undefined;

  const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptEntryIndex;
  const messagesToSummarize = projected.slice(boundaryStart, historyEnd).flatMap(messagesToSummarizeOf);
  const turnPrefixMessages = cut.isSplitTurn ? projected.slice(cut.turnStartIndex, cut.firstKeptEntryIndex).flatMap(messagesToSummarizeOf) : [];
  if (messagesToSummarize.length === 0 && turnPrefixMessages.length === 0) return undefined;

  const fileOps = fileOperationsOf(messagesToSummarize, previousCompaction);
  for (const message of turnPrefixMessages) extractFileOpsFromMessage(message, fileOps);
  return {
    firstKeptEntryId,
    messagesToSummarize,
    turnPrefixMessages,
    isSplitTurn: cut.isSplitTurn,
    tokensBefore,
    previousSummary: previousCompaction?.summary,
    fileOps,
    settings,
  };
}

/** The estimated size of a list of messages. */
export function estimateMessagesTokens(messages) {
  let tokens = 0;
  for (const message of messages) tokens += estimateTokens(message);
  return tokens;
}
