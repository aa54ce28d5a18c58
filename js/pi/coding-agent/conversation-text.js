// A conversation as labelled text for a summarizing model, so it reads a
// transcript instead of continuing a chat.
import { contentText } from "../ai/system-text.js";
import { sliceHead } from "./truncate.js";

const TOOL_RESULT_MAX_CHARS = 2000;

function truncateForSummary(text, maxChars) {
  if (text.length <= maxChars) return text;
  return `${sliceHead(text, maxChars)}\n\n[... ${text.length - maxChars} more characters truncated]`;
}

/**
 * `messages` (LLM messages: run convertToLlm first) as `[User]: …` /
 * `[Assistant]: …` paragraphs. Thinking is left out; tool results are cut
 * to 2000 characters.
 */
export function serializeConversation(messages) {
  const parts = [];
  for (const message of messages) {
    if (message.role === "user") {
      const text = contentText(message.content, "");
      if (text) parts.push(`[User]: ${text}`);
    } else if (message.role === "assistant") {
      const calls = message.content
        .filter((block) => block.type === "toolCall")
        .map((block) => {
          const args = Object.entries(block.arguments).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
          return `${block.name}(${args.join(", ")})`;
        });
      if (message.content.some((block) => block.type === "text")) parts.push(`[Assistant]: ${contentText(message.content)}`);
      if (calls.length > 0) parts.push(`[Assistant tool calls]: ${calls.join("; ")}`);
    } else if (message.role === "toolResult") {
      const text = contentText(message.content, "");
      if (text) parts.push(`[Tool result]: ${truncateForSummary(text, TOOL_RESULT_MAX_CHARS)}`);
    }
  }
  return parts.join("\n\n");
}
