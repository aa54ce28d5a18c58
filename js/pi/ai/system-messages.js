// Transcript helpers: the system messages of a transcript replayed into the
// current prompt and tool set. A module of its own because pihost's runner
// needs them at start-up, and importing them must not evaluate all of pi-ai.
import { contentText, getSystemMessageText } from "./system-text.js";

export function isSystemMessage(message) {
  return message.role === "system";
}

/** The tools in effect after every system message's deltas, in order. */
export function getCurrentTools(messages) {
  const tools = new Map();
  for (const message of messages) {
    if (!isSystemMessage(message)) continue;
    for (const tool of message.toolsRemoved ?? []) tools.delete(tool.name);
    for (const tool of message.toolsAdded ?? []) tools.set(tool.name, tool);
  }
  return [...tools.values()];
}

/** Every system message replayed into one: prompt text, sections and tools. */
export function getCurrentSystemMessage(messages) {
  const content = [];
  const sections = new Map();
  let timestamp;
  for (const message of messages) {
    if (!isSystemMessage(message)) continue;
    timestamp ??= message.timestamp;
    const text = contentText(message.content);
    if (text.length > 0) content.push(text);
    for (const [name, value] of Object.entries(message.sections ?? {})) {
      if (value === null) sections.delete(name);
      else sections.set(name, value);
    }
  }
  const tools = getCurrentTools(messages);
  if (timestamp === undefined && tools.length === 0) return undefined;
  return {
    role: "system",
    content: content.join("\n\n"),
    ...(sections.size > 0 ? { sections: Object.fromEntries(sections) } : {}),
    ...(tools.length > 0 ? { toolsAdded: tools } : {}),
    timestamp: timestamp ?? 0,
  };
}

/** The current system prompt text after replaying every system message. */
export function getCurrentSystemPrompt(messages) {
  const message = getCurrentSystemMessage(messages);
  return message ? getSystemMessageText(message) : "";
}

/** The replayed system message first, every other system message dropped. */
export function collapseSystemMessages(context) {
  const head = getCurrentSystemMessage(context.messages);
  const messages = context.messages.filter((message) => !isSystemMessage(message));
  return { messages: head ? [head, ...messages] : messages };
}

