// GitHub Copilot's per-request headers: who started the turn (the user, or
// the agent following up after tool results) and whether it carries images.

export function inferCopilotInitiator(messages) {
  const last = messages[messages.length - 1];
  return last && last.role !== "user" ? "agent" : "user";
}

export function hasCopilotVisionInput(messages) {
  return messages.some(
    (message) =>
      (message.role === "user" || message.role === "toolResult") &&
      Array.isArray(message.content) &&
      message.content.some((block) => block.type === "image"),
  );
}

export function buildCopilotDynamicHeaders({ messages, hasImages }) {
  return {
    "X-Initiator": inferCopilotInitiator(messages),
    "Openai-Intent": "conversation-edits",
    ...(hasImages ? { "Copilot-Vision-Request": "true" } : {}),
  };
}
