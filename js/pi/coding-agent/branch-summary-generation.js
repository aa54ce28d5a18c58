// The summary of a branch the user leaves when moving elsewhere in the
// session tree, so what was explored there is not lost.
import { contentText } from "../ai/system-text.js";
import { convertToLlm } from "./messages.js";
import { prepareBranchEntries } from "./branch-summary.js";
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

const PREAMBLE = `The user explored a different conversation branch before returning here.
Summary of that exploration:

`;

const BRANCH_PROMPT = `Create a structured summary of this conversation branch for context when returning later.

Use this EXACT format:

## Goal
[What was the user trying to accomplish in this branch?]

## Constraints & Preferences
- [Any constraints, preferences, or requirements mentioned]
- [Or "(none)" if none were mentioned]

## Progress
### Done
- [x] [Completed tasks/changes]

### In Progress
- [ ] [Work that was started but not finished]

### Blocked
- [Issues preventing progress, if any]

## Key Decisions
- **[Decision]**: [Brief rationale]

## Next Steps
1. [What should happen next to continue this work]

Keep each section concise. Preserve exact file paths, function names, and error messages.`;

function branchInstructions(customInstructions, replaceInstructions) {
  if (!customInstructions) return BRANCH_PROMPT;
  return replaceInstructions ? customInstructions : `${BRANCH_PROMPT}\n\nAdditional focus: ${customInstructions}`;
}

/**
 * A summary of `entries` (chronological), newest kept first within the
 * model's context window less `reserveTokens`. Failures come back as
 * `{ aborted: true }` or `{ error }` rather than thrown: leaving a branch
 * must not fail because its summary did.
 */
export async function generateBranchSummary(entries, options) {
  const { model, apiKey, headers, env, signal, thinkingLevel, customInstructions, replaceInstructions, reserveTokens = 16384, streamFn, retry, callbacks } = options;
  const tokenBudget = (model.contextWindow || 128000) - reserveTokens;
  const { messages, fileOps } = prepareBranchEntries(entries, tokenBudget);
  if (messages.length === 0) return { summary: "No content to summarize" };

  const transcript = serializeConversation(convertToLlm(messages));
  const promptText = `<conversation>\n${transcript}\n</conversation>\n\n${branchInstructions(customInstructions, replaceInstructions)}`;
  const requestOptions = withReasoning({ apiKey, headers, env, signal }, model, thinkingLevel);
  const response = await completeSummarization(model, summarizationContext(promptText), requestOptions, streamFn, retry, callbacks);

  if (response.stopReason === "aborted") return { aborted: true };
  const failure = summarizationFailure(response, "Branch summarization");
  if (failure) return { error: failure };
  if (hasToolCall(response)) return { error: "Branch summarization attempted to call a tool" };

  const { readFiles, modifiedFiles } = computeFileLists(fileOps);
  const summary = PREAMBLE + contentText(response.content) + formatFileOperations(readFiles, modifiedFiles);
  return { summary: summary || "No summary generated", usage: response.usage, readFiles, modifiedFiles };
}
