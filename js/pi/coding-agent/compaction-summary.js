// Compaction's model calls: a summary of the history before the kept tail
// (or an update of the previous one), plus, when the cut falls inside a
// turn, a checkpoint of that turn's beginning.
import { contentText } from "../ai/system-text.js";
import { convertToLlm } from "./messages.js";
import { combineUsage } from "./context-usage.js";
import { serializeConversation } from "./conversation-text.js";
import {
  completeSummarization,
  computeFileLists,
  formatFileOperations,
  hasToolCall,
  summarizationContext,
  summarizationFailure,
  withReasoning,
} from "./summary-request.js";

const INITIAL_PROMPT = `The messages above are a conversation to summarize. Create a structured context checkpoint summary that another LLM will use to continue the work.

Use this EXACT format:

## Goal
[What is the user trying to accomplish? Can be multiple items if the session covers different tasks.]

## Constraints & Preferences
- [Any constraints, preferences, or requirements mentioned by user]
- [Or "(none)" if none were mentioned]

## Progress
### Done
- [x] [Completed tasks/changes]

### In Progress
- [ ] [Current work]

### Blocked
- [Issues preventing progress, if any]

## Key Decisions
- **[Decision]**: [Brief rationale]

## Next Steps
1. [Ordered list of what should happen next]

## Critical Context
- [Any data, examples, or references needed to continue]
- [Or "(none)" if not applicable]

Keep each section concise. Preserve exact file paths, function names, and error messages.`;

const UPDATE_INSTRUCTIONS = `Update the existing structured summary with new information. RULES:
- PRESERVE all existing information from the previous summary
- ADD new progress, decisions, and context from the new messages
- UPDATE the Progress section: move items from "In Progress" to "Done" when completed
- UPDATE "Next Steps" based on what was accomplished
- PRESERVE exact file paths, function names, and error messages
- If something is no longer relevant, you may remove it

Use this EXACT format:

## Goal
[Preserve existing goals, add new ones if the task expanded]

## Constraints & Preferences
- [Preserve existing, add new ones discovered]

## Progress
### Done
- [x] [Include previously done items AND newly completed items]

### In Progress
- [ ] [Current work - update based on progress]

### Blocked
- [Current blockers - remove if resolved]

## Key Decisions
- **[Decision]**: [Brief rationale] (preserve all previous, add new)

## Next Steps
1. [Update based on current state]

## Critical Context
- [Preserve important context, add new if needed]

Keep each section concise. Preserve exact file paths, function names, and error messages.`;

const UPDATE_PROMPT = `The messages above are NEW conversation messages to incorporate into the existing summary provided in <previous-summary> tags.

${UPDATE_INSTRUCTIONS}`;

const TURN_PREFIX_PROMPT = `The messages above are earlier context from an ongoing conversation. Later messages are stored separately and do not need to be reconstructed.

Create a concise checkpoint of the user's request and the progress shown above. This checkpoint will be placed before the later messages so the conversation can continue with the necessary context.

## Original Request
[What did the user ask for?]

## Progress So Far
- [Key decisions and work completed in these messages]

## Context Needed to Continue
- [Information from these messages needed to understand the later work]

Only summarize information explicitly present above. Do not infer or recreate later messages.`;

function summarizationOptions(model, apiKey, headers, env, signal, thinkingLevel, sessionId) {
  return withReasoning({ signal, apiKey, headers, env, sessionId }, model, thinkingLevel);
}

/** The reply's text, once it is known to be a complete summary (`label` names the step in errors). */
function summaryText(response, label) {
  const failure = summarizationFailure(response, label);
  if (failure) throw new Error(failure);
  if (hasToolCall(response)) throw new Error(`${label} attempted to call a tool`);
  return contentText(response.content);
}

/**
 * A structured summary of `currentMessages` (merged into `previousSummary`
 * when there is one) and the usage of the call. `_reserveTokens` is unused:
 * it stays for the positional signature pi's callers use.
 */
export async function generateSummaryWithUsage(
  currentMessages,
  model,
  _reserveTokens,
  apiKey,
  headers,
  signal,
  customInstructions,
  previousSummary,
  thinkingLevel,
  streamFn,
  env,
  retry,
  callbacks,
  sessionId,
) {
  let instructions = previousSummary ? UPDATE_PROMPT : INITIAL_PROMPT;
  if (customInstructions) instructions += `\n\nAdditional focus: ${customInstructions}`;
  const transcript = serializeConversation(convertToLlm(currentMessages));
  const previous = previousSummary ? `<previous-summary>\n${previousSummary}\n</previous-summary>\n\n` : "";
  const promptText = `<conversation>\n${transcript}\n</conversation>\n\n${previous}${instructions}`;
  const options = summarizationOptions(model, apiKey, headers, env, signal, thinkingLevel, sessionId);
  const response = await completeSummarization(model, summarizationContext(promptText), options, streamFn, retry, callbacks);
  return { text: summaryText(response, "Summarization"), usage: response.usage };
}

/** generateSummaryWithUsage's text alone. */
export async function generateSummary(...args) {
  return (await generateSummaryWithUsage(...args)).text;
}

async function generateTurnPrefixSummary(messages, model, apiKey, headers, env, signal, thinkingLevel, streamFn, retry, callbacks, sessionId, customInstructions) {
  const transcript = serializeConversation(convertToLlm(messages));
  let promptText = `# Conversation\n${transcript}\n\n# Instructions\n${TURN_PREFIX_PROMPT}`;
  if (customInstructions) promptText += `\n\nAdditional focus: ${customInstructions}`;
  const options = summarizationOptions(model, apiKey, headers, env, signal, thinkingLevel, sessionId);
  const response = await completeSummarization(model, summarizationContext(promptText), options, streamFn, retry, callbacks);
  return { text: summaryText(response, "Turn prefix summarization"), usage: response.usage };
}

/**
 * The compaction entry's content for a prepared compaction: the summary
 * (with the split turn's checkpoint and the files touched appended), where
 * the kept tail starts, the size before, and the calls' usage.
 */
export async function compact(preparation, model, apiKey, headers, customInstructions, signal, thinkingLevel, streamFn, env, retry, callbacks, sessionId) {
  const { firstKeptEntryId, messagesToSummarize, turnPrefixMessages, isSplitTurn, tokensBefore, previousSummary, fileOps } = preparation;
  const summarizeHistory = () =>
    generateSummaryWithUsage(messagesToSummarize, model, undefined, apiKey, headers, signal, customInstructions, previousSummary, thinkingLevel, streamFn, env, retry, callbacks, sessionId);

  let summary;
  let usage;
  if (isSplitTurn && turnPrefixMessages.length > 0) {
    const history = messagesToSummarize.length > 0 ? await summarizeHistory() : { text: previousSummary ?? "No prior history." };
    const prefix = await generateTurnPrefixSummary(turnPrefixMessages, model, apiKey, headers, env, signal, thinkingLevel, streamFn, retry, callbacks, sessionId, customInstructions);
    summary = `${history.text}\n\n---\n\n**Turn Context (split turn):**\n\n${prefix.text}`;
    usage = history.usage ? combineUsage(history.usage, prefix.usage) : prefix.usage;
  } else {
    ({ text: summary, usage } = await summarizeHistory());
  }

  const { readFiles, modifiedFiles } = computeFileLists(fileOps);
  summary += formatFileOperations(readFiles, modifiedFiles);
  if (!firstKeptEntryId) throw new Error("First kept entry has no UUID - session may need migration");
  return { summary, firstKeptEntryId, tokensBefore, usage, details: { readFiles, modifiedFiles } };
}
