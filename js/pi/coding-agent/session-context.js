// What a model sees of a session: the path from the current leaf back to the
// root, cut at the latest compaction (its summary stands in for what it
// replaced), with context edits applied and each entry turned into the
// messages it contributes.
import { createBranchSummaryMessage, createCompactionSummaryMessage, createCustomMessage } from "./messages.js";

export function getLatestCompactionEntry(entries) {
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i].type === "compaction") return entries[i];
  }
  return null;
}

function indexById(entries) {
  const byId = new Map();
  for (const entry of entries) byId.set(entry.id, entry);
  return byId;
}

/**
 * The entries from the root down to `leafId`. A null leaf means "before the
 * first entry" (nothing); a missing or unknown one means the last entry.
 */
function pathToLeaf(entries, leafId, givenIndex) {
  const byId = givenIndex || indexById(entries);
  if (leafId === null) return [];
  const leaf = (leafId ? byId.get(leafId) : undefined) ?? entries[entries.length - 1];
  const path = [];
  for (let entry = leaf; entry; entry = entry.parentId ? byId.get(entry.parentId) : undefined) path.push(entry);
  return path.reverse();
}

/** The thinking level and model in force at the end of the path: the last change of each wins. */
function settingsAlong(path) {
  let thinkingLevel = "off";
  let model = null;
  for (const entry of path) {
    if (entry.type === "thinking_level_change") thinkingLevel = entry.thinkingLevel;
    else if (entry.type === "model_change") model = { provider: entry.provider, modelId: entry.modelId };
    else if (entry.type === "message" && entry.message.role === "assistant") {
      model = { provider: entry.message.provider, modelId: entry.message.model };
    }
  }
  return { thinkingLevel, model };
}

/** The messages one entry puts in a model's context; bookkeeping entries put none. */
export function sessionEntryToContextMessages(entry) {
  switch (entry.type) {
    case "message": {
      const message = entry.message;
      // Files are read without validation: old, forked or hand-edited ones
      // may lack content, which providers would choke on.
      const role = message.role;
      if (role === "system" && message.content == null) return [{ ...message, content: "" }];
      if ((role === "user" || role === "assistant" || role === "toolResult") && message.content == null) return [{ ...message, content: [] }];
      return [message];
    }
    case "custom_message":
      return [createCustomMessage(entry.customType, entry.content ?? [], entry.display, entry.details, entry.timestamp)];
    case "branch_summary":
      return entry.summary ? [createBranchSummaryMessage(entry.summary, entry.fromId, entry.timestamp)] : [];
    case "compaction": {
      const summary = createCompactionSummaryMessage(entry.summary, entry.tokensBefore, entry.timestamp);
      return entry.systemMessage ? [entry.systemMessage, summary] : [summary];
    }
    default:
      return [];
  }
}

const isSystemMessageEntry = (entry) => entry.type === "message" && entry.message.role === "system";

/**
 * The path's entries that are still in context: without a compaction, the
 * whole path; with one, the latest compaction first, then the entries it
 * kept (from firstKeptEntryId, minus system messages, which the compaction
 * carries itself), then everything after it.
 */
export function buildContextEntries(entries, leafId, byId) {
  const path = pathToLeaf(entries, leafId, byId);
  const compaction = path.findLast((entry) => entry.type === "compaction");
  if (!compaction) return path;
  const compactionIndex = path.findIndex((entry) => entry.id === compaction.id);
  const kept = [compaction];
  let keeping = false;
  for (const entry of path.slice(0, compactionIndex)) {
    if (entry.id === compaction.firstKeptEntryId) keeping = true;
    if (keeping && !isSystemMessageEntry(entry)) kept.push(entry);
  }
  return [...kept, ...path.slice(compactionIndex + 1)];
}

const EDITABLE_ROLES = new Set(["user", "assistant", "toolResult", "custom"]);

/** An entry's messages with a context edit applied: a null replacement hides them, otherwise their content is swapped. */
function projectContextEntry(entry, edit) {
  const messages = sessionEntryToContextMessages(entry);
  if (!edit) return messages;
  const replacement = edit.replacement;
  if (replacement === null) return [];
  return messages.map((message) => {
    if (!EDITABLE_ROLES.has(message.role)) return message;
    // Assistant and tool result content must be blocks; user and custom content may stay a string.
    const blocksOnly = message.role === "assistant" || message.role === "toolResult";
    const content = blocksOnly && typeof replacement.content === "string" ? [{ type: "text", text: replacement.content }] : replacement.content;
    return { ...message, content };
  });
}

/** The context with, for each entry in it, the messages that entry contributed. */
export function buildSessionProjection(entries, leafId, byId) {
  const { thinkingLevel, model } = settingsAlong(pathToLeaf(entries, leafId, byId));
  const contextEntries = buildContextEntries(entries, leafId, byId);
  const editsByTarget = new Map();
  for (const entry of contextEntries) {
    if (entry.type === "context_edit") editsByTarget.set(entry.targetId, entry);
  }
  const projected = contextEntries.map((sourceEntry, index) => ({
    sourceEntry,
    // An older compaction can sit in the kept range; only the latest, which
    // leads the list, contributes its summary.
    messages: sourceEntry.type === "compaction" && index > 0 ? [] : projectContextEntry(sourceEntry, editsByTarget.get(sourceEntry.id)),
  }));
  return { entries: projected, messages: projected.flatMap((entry) => entry.messages), thinkingLevel, model };
}

/** The messages, thinking level and model a session's leaf gives a model. */
export function buildSessionContext(entries, leafId, byId) {
  const { messages, thinkingLevel, model } = buildSessionProjection(entries, leafId, byId);
  return { messages, thinkingLevel, model };
}

export { projectContextEntry };
