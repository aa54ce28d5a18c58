// An agent's state: the transcript and tools it works with, the model and
// thinking level it asks with, and what the current run is doing. The
// system prompt is not stored; it is read back from the transcript's system
// messages. Assigning `tools` or `messages` keeps a copy of the array.
import { getCurrentSystemPrompt } from "../ai/system-messages.js";
import { toToolDeclaration } from "../ai/tool-declarations.js";
import { createInitialSystemMessage } from "../ai/transcript.js";

/** Stands in until a model is chosen, so a state always has one. */
const NO_MODEL = {
  id: "unknown",
  name: "unknown",
  api: "unknown",
  provider: "unknown",
  baseUrl: "",
  reasoning: false,
  input: [],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 0,
  maxTokens: 0,
};

export function createAgentState(initial) {
  let tools = initial?.tools?.slice() ?? [];
  let messages = initial?.messages?.slice() ?? [];
  // The prompt and tools become the leading system message, unless the transcript brings its own.
  const head = createInitialSystemMessage(initial?.systemPrompt, tools.map(toToolDeclaration));
  if (messages[0]?.role !== "system" && head) messages.unshift(head);
  return {
    get systemPrompt() {
      return getCurrentSystemPrompt(messages);
    },
    model: initial?.model ?? NO_MODEL,
    thinkingLevel: initial?.thinkingLevel ?? "off",
    get tools() {
      return tools;
    },
    set tools(next) {
      tools = next.slice();
    },
    get messages() {
      return messages;
    },
    set messages(next) {
      messages = next.slice();
    },
    isStreaming: false,
    streamingMessage: undefined,
    pendingToolCalls: new Set(),
    errorMessage: undefined,
  };
}
