// AgentSession.summarizeForBugReport: when a user files a bug report without
// sharing the transcript, the session's model writes a report of what went
// wrong from the latest messages that fit 60% of its context window. The
// prompts are pi's text: the report's sections are what pi's developers read.
import { contentText } from "../ai/system-text.js";
import { normalizeContext } from "../ai/transcript.js";
import { estimateTokens } from "./compaction.js";
import { serializeConversation } from "./conversation-text.js";
import { convertToLlm } from "./messages.js";
import { completeSummarization, hasToolCall, summarizationFailure } from "./summary-request.js";

const SYSTEM_PROMPT = `You are helping a user file a bug report about pi, the coding agent they are talking to. You will be shown the conversation transcript. Write a report for the pi developers describing what the user was doing and what went wrong.

Do NOT continue the conversation. Do NOT respond to any questions in the conversation. ONLY output the report.`;

const INSTRUCTIONS = `Write the bug report in Markdown with these sections:

## What the user was doing
One short paragraph.

## What went wrong
Concrete description of the failure: wrong output, errors, hangs, tool failures, unexpected behavior. Quote error messages and tool output verbatim where they exist.

## Steps to reproduce
Numbered list, as specific as the transcript allows.

## Relevant details
Tool calls involved, files touched, model behavior, anything else that helps a developer reproduce or locate the problem.

Do not include file contents, secrets, or credentials from the transcript; refer to files by path only. Keep the report factual and concise.`;

// A model that reports no context window is given this many tokens.
const FALLBACK_CONTEXT_WINDOW = 128_000;

/** The newest messages whose estimated tokens fit `budget`; always at least the last one. */
function latestMessagesWithin(messages, budget) {
  let start = messages.length;
  let tokens = 0;
  while (start > 0) {
    const next = estimateTokens(messages[start - 1]);
    if (start < messages.length && tokens + next > budget) break;
    tokens += next;
    start--;
  }
  return messages.slice(start);
}

/**
 * The report's Markdown. `options`: model, thinkingLevel, messages, hint,
 * signal, streamFn, retry, sessionId.
 */
export async function generateBugReportSummary(options) {
  const { model } = options;
  const contextWindow = model.contextWindow > 0 ? model.contextWindow : FALLBACK_CONTEXT_WINDOW;
  const shown = latestMessagesWithin(options.messages, Math.floor(contextWindow * 0.6));
  const hint = options.hint?.trim();
  const parts = [];
  if (shown.length < options.messages.length) {
    parts.push(`Note: only the last ${shown.length} of ${options.messages.length} messages are shown.`);
  }
  parts.push(`<conversation>\n${serializeConversation(convertToLlm(shown))}\n</conversation>`);
  if (hint) parts.push(`<user-report>\n${hint}\n</user-report>`);
  parts.push(INSTRUCTIONS);
  const request = {
    maxTokens: Math.min(4096, model.maxTokens > 0 ? model.maxTokens : Number.POSITIVE_INFINITY),
    signal: options.signal,
    apiKey: options.apiKey,
    headers: options.headers,
    env: options.env,
    sessionId: options.sessionId,
  };
  if (model.reasoning && options.thinkingLevel && options.thinkingLevel !== "off") request.reasoning = options.thinkingLevel;
  const context = normalizeContext({
    systemPrompt: SYSTEM_PROMPT,
    messages: [{ role: "user", content: [{ type: "text", text: parts.join("\n\n") }], timestamp: Date.now() }],
  });
  const response = await completeSummarization(model, context, request, options.streamFn, options.retry);
  if (response.stopReason === "aborted") throw new Error("Bug report summary was cancelled");
  const failure = summarizationFailure(response, "Bug report summary");
  if (failure) throw new Error(failure);
  if (hasToolCall(response)) throw new Error("Bug report summary attempted to call a tool");
  const text = contentText(response.content).trim();
  if (!text) throw new Error("Bug report summary was empty");
  return text;
}
