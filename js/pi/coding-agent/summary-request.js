// The one model call behind compaction and branch summaries: a transcript
// handed to the model as a single user message under a fixed system prompt,
// retried on transient failures, and the checks that decide whether the
// reply may become a session checkpoint.
import { completeSimple } from "../ai/dispatch.js";
import { retryAssistantCall } from "../ai/retry.js";
import { normalizeContext } from "../ai/transcript.js";
import { uuidv7 } from "../ai/uuid.js";

export const SUMMARIZATION_SYSTEM_PROMPT = `You are a context summarization assistant. Your task is to read a conversation between a user and an AI assistant, then produce a structured summary following the exact format specified.

Do NOT continue the conversation. Do NOT respond to any questions in the conversation. ONLY output the structured summary.`;

/** The provider context for a summary request: the system prompt and `promptText` as the user's turn. */
export function summarizationContext(promptText) {
  const request = { role: "user", content: [{ type: "text", text: promptText }], timestamp: Date.now() };
  return normalizeContext({ systemPrompt: SUMMARIZATION_SYSTEM_PROMPT, messages: [request] });
}

/** Asks for reasoning only from a reasoning model and a level other than "off". */
export function withReasoning(options, model, thinkingLevel) {
  if (model.reasoning && thinkingLevel && thinkingLevel !== "off") options.reasoning = thinkingLevel;
  return options;
}

/**
 * The summary reply: through `streamFn` when the session has one, else
 * pi-ai's completeSimple; one-off, so never cached, and routed under the
 * caller's session id or a fresh one.
 */
export async function completeSummarization(model, context, options, streamFn, retry, callbacks) {
  const requestOptions = { ...options, cacheRetention: "none", sessionId: options.sessionId ?? uuidv7() };
  const produce = async () =>
    streamFn ? (await streamFn(model, context, requestOptions)).result() : completeSimple(model, context, requestOptions);
  return retryAssistantCall(produce, retry, requestOptions.signal, callbacks);
}

/** Why `response` cannot be kept as a summary (`label` names the step), or undefined when it can. */
export function summarizationFailure(response, label) {
  if (response.stopReason === "error") return `${label} failed: ${response.errorMessage || "Unknown error"}`;
  // A reply cut at the token cap is partial text.
  if (response.stopReason === "length") return `${label} failed: generation hit the token cap and the summary is incomplete`;
  return undefined;
}

export const hasToolCall = (response) => response.content.some((block) => block.type === "toolCall");

/** Files only read, and files written or edited, each sorted. */
export function computeFileLists(fileOps) {
  const modified = new Set([...fileOps.edited, ...fileOps.written]);
  const readFiles = [...fileOps.read].filter((path) => !modified.has(path)).sort();
  return { readFiles, modifiedFiles: [...modified].sort() };
}

/** The file lists as the tagged sections appended to a summary; "" when both are empty. */
export function formatFileOperations(readFiles, modifiedFiles) {
  const sections = [];
  if (readFiles.length > 0) sections.push(`<read-files>\n${readFiles.join("\n")}\n</read-files>`);
  if (modifiedFiles.length > 0) sections.push(`<modified-files>\n${modifiedFiles.join("\n")}\n</modified-files>`);
  return sections.length === 0 ? "" : `\n\n${sections.join("\n\n")}`;
}
