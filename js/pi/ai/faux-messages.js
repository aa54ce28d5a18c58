// Builders of the content blocks and assistant messages pi's faux provider
// answers with; tests and examples use them to script a model.
import { emptyUsage } from "./usage.js";

// One usage object shared by every faux message and by the faux provider's
// own failure messages, as in pi (changing one message's usage changes them
// all).
export const FAUX_USAGE = emptyUsage();

export function fauxText(text) {
  return { type: "text", text };
}

export function fauxThinking(thinking) {
  return { type: "thinking", thinking };
}

/** A tool call; without `options.id`, an id of the form "tool:<now>:<random base 36>". */
export function fauxToolCall(name, toolArguments, options = {}) {
  return { type: "toolCall", id: options.id ?? randomToolCallId(), name, arguments: toolArguments };
}

function randomToolCallId() {
  return `tool:${Date.now()}:${Math.random().toString(36).slice(2)}`;
}

/** Content as blocks: a string is one text block, an array is taken as it is, anything else is one block. */
function asBlocks(content) {
  if (typeof content === "string") return [fauxText(content)];
  return Array.isArray(content) ? content : [content];
}

/** An assistant message from the faux model; optional fields appear only when given, the timestamp is now unless given. */
export function fauxAssistantMessage(content, options = {}) {
  const message = {
    role: "assistant",
    content: asBlocks(content),
    api: "faux",
    provider: "faux",
    model: "faux-1",
    usage: FAUX_USAGE,
    stopReason: options.stopReason ?? "stop",
  };
  for (const field of ["deferred", "errorMessage", "responseId"]) {
    if (options[field] !== undefined) message[field] = options[field];
  }
  message.timestamp = options.timestamp ?? Date.now();
  return message;
}
