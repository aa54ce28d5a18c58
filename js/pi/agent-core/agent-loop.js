// The agent loop: prompt the model, run the tool calls it makes, feed the
// results back, and go on until it stops calling tools and no steering or
// follow-up message is waiting. Every step is reported through `emit` as an
// agent event; the loop's callers turn those into a stream or into state.
import { EventStream } from "../ai/event-stream.js";
import { streamAssistantResponse } from "./assistant-response.js";
import { getDefaultStreamFn } from "./stream-fn.js";
import { declareToolChanges } from "./tool-changes.js";
import { executeToolCalls, rejectTruncatedToolCalls } from "./tool-calls.js";

export { DEFAULT_AGENT_IDENTITY } from "./assistant-response.js";

function agentEventStream() {
  return new EventStream(
    (event) => event.type === "agent_end",
    (event) => (event.type === "agent_end" ? event.messages : []),
  );
}

/** Continuing needs something the model has not answered yet: not nothing, not an assistant message. */
function checkContinuable(context) {
  if (context.messages.length === 0) throw new Error("Cannot continue: no messages in context");
  if (context.messages[context.messages.length - 1].role === "assistant") {
    throw new Error("Cannot continue from message role: assistant");
  }
}

/** Starts a loop with new prompt messages; the stream's result is the messages the run added. */
export function agentLoop(prompts, context, config, signal, streamFn) {
  const stream = agentEventStream();
  const push = async (event) => {
    stream.push(event);
  };
  void runAgentLoop(prompts, context, config, push, signal, streamFn).then((messages) => stream.end(messages));
  return stream;
}

/**
 * Continues from the context as it is, e.g. to retry. The last message must
 * become a user or toolResult message under `convertToLlm`; only the
 * assistant role can be refused here, as conversion happens per turn.
 */
export function agentLoopContinue(context, config, signal, streamFn) {
  checkContinuable(context);
  const stream = agentEventStream();
  const push = async (event) => {
    stream.push(event);
  };
  void runAgentLoopContinue(context, config, push, signal, streamFn).then((messages) => stream.end(messages));
  return stream;
}

export async function runAgentLoop(prompts, context, config, emit, signal, streamFn) {
  const prompted = declareToolChanges(context, prompts);
  const added = [...prompted];
  const working = { ...context, messages: [...context.messages, ...prompted] };
  await emit({ type: "agent_start" });
  await emit({ type: "turn_start" });
  for (const message of prompted) {
    await emit({ type: "message_start", message });
    await emit({ type: "message_end", message });
  }
  await runTurns(working, added, config, signal, emit, streamFn ?? getDefaultStreamFn());
  return added;
}

export async function runAgentLoopContinue(context, config, emit, signal, streamFn) {
  checkContinuable(context);
  const added = [];
  const working = { ...context };
  await emit({ type: "agent_start" });
  await emit({ type: "turn_start" });
  await runTurns(working, added, config, signal, emit, streamFn ?? getDefaultStreamFn());
  return added;
}

/** The config with a turn update's model and thinking level applied; "off" means no reasoning. */
function withTurnUpdate(config, update) {
  let reasoning = config.reasoning;
  if (update.thinkingLevel !== undefined) reasoning = update.thinkingLevel === "off" ? undefined : update.thinkingLevel;
  return { ...config, model: update.model ?? config.model, reasoning };
}

async function pollSteering(config) {
  return (await config.getSteeringMessages?.()) || [];
}

async function runTurns(initialContext, added, initialConfig, signal, emit, streamFn) {
  let context = initialContext;
  let config = initialConfig;
  let previousTurn;
  // Set when finishTurn asks for one more turn although nothing else would cause one.
  let continuationRequested = false;
  // The user may have typed while the run was starting.
  let waiting = await pollSteering(config);

  for (;;) {
    let toolCallsPending = true;
    while (toolCallsPending || waiting.length > 0) {
      let prepared = [];
      if (previousTurn) {
        const update = await config.prepareNextTurn?.(previousTurn);
        if (update) {
          context = update.context ?? context;
          prepared = update.messages ?? [];
          config = withTurnUpdate(config, update);
        }
        // Preparing may take long (compaction, say), so steering may have
        // arrived meanwhile; polling twice would take two messages at once
        // from a queue meant to deliver one at a time.
        if (waiting.length === 0) waiting = await pollSteering(config);
        await emit({ type: "turn_start" });
      }

      for (const message of declareToolChanges(context, [...prepared, ...waiting])) {
        await emit({ type: "message_start", message });
        await emit({ type: "message_end", message });
        context.messages.push(message);
        added.push(message);
      }
      waiting = [];

      const requestUpdate = await config.prepareRequest?.(
        { context, model: config.model, thinkingLevel: config.reasoning ?? "off" },
        signal,
      );
      if (requestUpdate) {
        context = requestUpdate.context ?? context;
        config = withTurnUpdate(config, requestUpdate);
      }

      const message = await streamAssistantResponse(context, config, signal, emit, streamFn);
      added.push(message);

      if (message.stopReason === "error" || message.stopReason === "aborted") {
        previousTurn = { message, toolResults: [], context, newMessages: added };
        await config.finishTurn?.(previousTurn, signal);
        await emit({ type: "turn_end", message, toolResults: [] });
        await emit({ type: "agent_end", messages: added });
        return;
      }

      const toolCalls = message.content.filter((block) => block.type === "toolCall");
      const toolResults = [];
      toolCallsPending = false;
      if (toolCalls.length > 0) {
        // A "length" stop cut the output off, so any call's arguments may be truncated.
        const batch =
          message.stopReason === "length"
            ? await rejectTruncatedToolCalls(toolCalls, emit)
            : await executeToolCalls(context, message, config, signal, emit);
        toolResults.push(...batch.messages);
        toolCallsPending = !batch.terminate;
        for (const result of toolResults) {
          context.messages.push(result);
          added.push(result);
        }
      }

      previousTurn = { message, toolResults, context, newMessages: added };
      const decision = await config.finishTurn?.(previousTurn, signal);
      await emit({ type: "turn_end", message, toolResults });
      if (decision?.action === "end") {
        await emit({ type: "agent_end", messages: added });
        return;
      }
      continuationRequested = decision?.action === "continue";
      waiting = await pollSteering(config);
      if (toolCallsPending || waiting.length > 0) continuationRequested = false;
    }

    // The run would end here; follow-ups queued for that moment start another round.
    const followUps = (await config.getFollowUpMessages?.()) || [];
    if (followUps.length > 0) {
      continuationRequested = false;
      waiting = followUps;
      continue;
    }
    // Nothing new to say, but finishTurn asked for another turn: one on the context alone.
    if (continuationRequested) {
      continuationRequested = false;
      continue;
    }
    break;
  }
  await emit({ type: "agent_end", messages: added });
}
