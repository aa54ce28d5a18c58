// What a branch summary covers when the user moves elsewhere in the session
// tree: the entries between the old leaf and the point where the two paths
// meet, as messages that fit a token budget, newest kept first.
import { createBranchSummaryMessage, createCompactionSummaryMessage, createCustomMessage } from "./messages.js";
import { estimateTokens } from "./compaction.js";
import { createFileOps, extractFileOpsFromMessage } from "./file-operations.js";
import { projectContextEntry } from "./session-context.js";

/**
 * The entries from the deepest common ancestor of `oldLeafId` and `targetId`
 * (exclusive) down to `oldLeafId`, oldest first. `session` needs only
 * getBranch(id) (root-first path) and getEntry(id).
 */
export function collectEntriesForBranchSummary(session, oldLeafId, targetId) {
  if (!oldLeafId) return { entries: [], commonAncestorId: null };
  const onOldPath = new Set(session.getBranch(oldLeafId).map((entry) => entry.id));
  const commonAncestor = session.getBranch(targetId).findLast((entry) => onOldPath.has(entry.id));
  const commonAncestorId = commonAncestor ? commonAncestor.id : null;
  const entries = [];
  for (let id = oldLeafId; id && id !== commonAncestorId; ) {
    const entry = session.getEntry(id);
    if (!entry) break;
    entries.push(entry);
    id = entry.parentId;
  }
  return { entries: entries.reverse(), commonAncestorId };
}

/** The message an entry adds to a branch summary's input, if any; tool results are left to their calls. */
function summaryInput(entry, edit) {
  switch (entry.type) {
    case "message":
      if (entry.message.role === "toolResult") return undefined;
      return edit ? projectContextEntry(entry, edit)[0] : entry.message;
    case "custom_message":
      if (edit) return projectContextEntry(entry, edit)[0];
      return createCustomMessage(entry.customType, entry.content, entry.display, entry.details, entry.timestamp);
    case "branch_summary":
      return createBranchSummaryMessage(entry.summary, entry.fromId, entry.timestamp);
    case "compaction":
      return createCompactionSummaryMessage(entry.summary, entry.tokensBefore, entry.timestamp);
    default:
      return undefined;
  }
}

/**
 * The messages to summarize, newest first until `tokenBudget` (0: no limit)
 * is reached, with the files touched across all the entries, including
 * those recorded by earlier pi-made branch summaries.
 */
export function prepareBranchEntries(entries, tokenBudget = 0) {
  const fileOps = createFileOps();
  for (const entry of entries) {
    // Summaries made by extensions (fromHook) keep their own details format.
    if (entry.type !== "branch_summary" || entry.fromHook || !entry.details) continue;
    const { readFiles, modifiedFiles } = entry.details;
    if (Array.isArray(readFiles)) for (const path of readFiles) fileOps.read.add(path);
    if (Array.isArray(modifiedFiles)) for (const path of modifiedFiles) fileOps.edited.add(path);
  }
  const editsByTarget = new Map();
  for (const entry of entries) {
    if (entry.type === "context_edit") editsByTarget.set(entry.targetId, entry);
  }

  const messages = [];
  let totalTokens = 0;
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    const message = summaryInput(entry, editsByTarget.get(entry.id));
    if (!message) continue;
    extractFileOpsFromMessage(message, fileOps);
    const tokens = estimateTokens(message);
    if (tokenBudget > 0 && totalTokens + tokens > tokenBudget) {
      // An earlier summary is worth squeezing in while there is room left.
      const isSummary = entry.type === "compaction" || entry.type === "branch_summary";
      if (isSummary && totalTokens < tokenBudget * 0.9) {
        messages.unshift(message);
        totalTokens += tokens;
      }
      break;
    }
    messages.unshift(message);
    totalTokens += tokens;
  }
  return { messages, fileOps, totalTokens };
}
