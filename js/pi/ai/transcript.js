// The transcript form providers receive: `Context.systemPrompt` and
// `Context.tools` folded into a leading system message.

/** The leading system message for a prompt and tools; none when both are empty. */
export function createInitialSystemMessage(systemPrompt, tools) {
  const withPrompt = systemPrompt !== undefined && systemPrompt.length > 0;
  const withTools = tools !== undefined && tools.length > 0;
  if (!withPrompt && !withTools) return undefined;
  return {
    role: "system",
    content: systemPrompt ?? "",
    ...(withTools ? { toolsAdded: tools } : {}),
    timestamp: 0,
  };
}

/** A Context as a TranscriptContext; the messages array is reused when nothing is folded in. */
export function normalizeContext(context) {
  const head = createInitialSystemMessage(context.systemPrompt, context.tools);
  return { messages: head ? [head, ...context.messages] : context.messages };
}

/** The first message when it is a system message. */
export function getInitialSystemMessage(messages) {
  const first = messages[0];
  return first && first.role === "system" ? first : undefined;
}

/** The messages without a leading system message, for APIs that take the prompt separately. */
export function withoutInitialSystemMessage(messages) {
  return getInitialSystemMessage(messages) ? messages.slice(1) : messages;
}
