// One request to the model inside an agent loop. The transcript is agent
// messages throughout; only here is it transformed and converted into what a
// provider accepts. The streamed partial message stands in the context while
// it grows and is replaced by the final message when the stream ends.
import { NO_PROVIDER } from "../ai/dispatch.js";
import { mergeClientIdentity, PI_ATTRIBUTION } from "../ai/identity.js";
import { normalizeContext } from "../ai/transcript.js";

/** What agent loops tell providers about themselves; `identity` in the loop config overrides it field by field. */
export const DEFAULT_AGENT_IDENTITY = { attribution: PI_ATTRIBUTION };

const PARTIAL_UPDATES = new Set([
  "text_start",
  "text_delta",
  "text_end",
  "thinking_start",
  "thinking_delta",
  "thinking_end",
  "toolcall_start",
  "toolcall_delta",
  "toolcall_end",
]);

export async function streamAssistantResponse(context, config, signal, emit, streamFn) {
  const agentMessages = config.transformContext
    ? await config.transformContext(context.messages, signal)
    : context.messages;
  const transcript = normalizeContext({ messages: await config.convertToLlm(agentMessages) });
  // Asked per request, because keys such as OAuth tokens expire.
  const apiKey = (config.getApiKey ? await config.getApiKey(config.model.provider) : undefined) || config.apiKey;
  const response = await streamFn(config.model, transcript, {
    ...config,
    apiKey,
    identity: mergeClientIdentity(DEFAULT_AGENT_IDENTITY, config.identity),
    signal,
  });
  // The level asked for is recorded on the answer, whichever stream function gave it.
  const finalMessage = async () => Object.assign(await response.result(), { thinkingLevel: config.reasoning ?? "off" });

  let partial = null;
  let partialInContext = false;
  const settle = async () => {
    const message = await finalMessage();
    if (partialInContext) {
      context.messages[context.messages.length - 1] = message;
    } else {
      context.messages.push(message);
      await emit({ type: "message_start", message: { ...message } });
    }
    await emit({ type: "message_end", message });
    return message;
  };

  for await (const event of response) {
    if (event.type === "start") {
      partial = event.partial;
      context.messages.push(partial);
      partialInContext = true;
      await emit({ type: "message_start", message: { ...partial } });
    } else if (PARTIAL_UPDATES.has(event.type)) {
      if (!partial) continue;
      partial = event.partial;
      context.messages[context.messages.length - 1] = partial;
      await emit({ type: "message_update", assistantMessageEvent: event, message: { ...partial } });
    } else if (event.type === "error" && !partial && event.error?.[NO_PROVIDER]) {
      // The host has no model: fail the run as pi's does, whose stream()
      // throws for an api without a provider before anything streams.
      throw new Error(event.error.errorMessage);
    } else if (event.type === "done" || event.type === "error") {
      return settle();
    }
  }
  return settle();
}
