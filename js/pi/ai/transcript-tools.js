// Which form of the transcript a request sends: system messages kept in
// place or collapsed into the leading one, and which tools go in the
// request's own tool list. Providers build their requests on these.
import { collapseSystemMessages, getCurrentTools, isSystemMessage } from "./system-messages.js";
import { lastNonAdditiveToolChange } from "./tool-declarations.js";
import { getInitialSystemMessage } from "./transcript.js";

/** The transcript as is for models that take system messages mid conversation; else collapsed. */
export function resolveTranscript(context, supportsMidConversationSystemMessages) {
  return supportsMidConversationSystemMessages ? context : collapseSystemMessages(context);
}

/**
 * Which tools go in the request's own tool list and how many leading system
 * messages that list stands for, by what the transport can say in place:
 * "changes" (everything in place, the list empty), "none" (nothing in place,
 * the list is the current tool set), or additions only, where the list is
 * the tool state after the last removal or redeclaration (so the cached
 * prefix breaks once per removal, not on every later addition).
 */
export function resolveTranscriptTools(messages, support) {
  const systemMessages = messages.filter(isSystemMessage);
  if (support === "none") return { requestTools: getCurrentTools(systemMessages), foldedSystemMessages: systemMessages.length };
  if (support === "changes") return { requestTools: [], foldedSystemMessages: 0 };
  const leading = getInitialSystemMessage(messages) ? 1 : 0;
  const folded = Math.max(leading, lastNonAdditiveToolChange(systemMessages) + 1);
  return { requestTools: getCurrentTools(systemMessages.slice(0, folded)), foldedSystemMessages: folded };
}
