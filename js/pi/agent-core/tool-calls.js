// Running the tool calls of an assistant message: preparing each call
// (arguments, schema validation, the beforeToolCall hook), executing it,
// letting afterToolCall amend the result, and turning the outcome into a
// toolResult message. Failures never throw out of here; they become results
// with isError set, so the model always gets an answer for every call.
import { validateToolArguments } from "../../runtime/validate-tool-arguments.js";

const ABORTED = "Operation aborted";

function errorResult(text) {
  return { content: [{ type: "text", text }], details: {} };
}

function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}

/** An outcome decided before execution (unknown tool, bad arguments, blocked, aborted). */
function settledEarly(result, isError = true) {
  return { kind: "immediate", result, isError };
}

/** The call with the tool's own argument preparation applied; the same object when nothing changed. */
function withPreparedArguments(tool, toolCall) {
  if (!tool.prepareArguments) return toolCall;
  const prepared = tool.prepareArguments(toolCall.arguments);
  return prepared === toolCall.arguments ? toolCall : { ...toolCall, arguments: prepared };
}

/**
 * Decides whether a call may run. The abort check comes first so a cancelled
 * run neither validates nor consults hooks, yet every call still gets a result.
 */
async function prepareCall(context, assistantMessage, toolCall, hooks, signal, tools = context.tools ?? []) {
  if (signal?.aborted) return settledEarly(errorResult(ABORTED));
  const tool = tools.find((candidate) => candidate.name === toolCall.name);
  if (!tool) return settledEarly(errorResult(`Tool ${toolCall.name} not found`));
  try {
    const args = validateToolArguments(tool, withPreparedArguments(tool, toolCall));
    if (hooks.beforeToolCall) {
      const verdict = await hooks.beforeToolCall({ assistantMessage, toolCall, args, context }, signal);
      if (signal?.aborted) return settledEarly(errorResult(ABORTED));
      if (verdict?.block) {
        const result = errorResult(verdict.reason || "Tool execution was blocked");
        if (verdict.terminate === true) result.terminate = true;
        return settledEarly(result);
      }
    }
    return { kind: "prepared", toolCall, tool, args };
  } catch (error) {
    return settledEarly(errorResult(messageOf(error)));
  }
}

/**
 * Executes a prepared call. Progress updates are delivered while the tool
 * runs and awaited before the outcome counts; updates after it returned are
 * dropped, so no update can follow the call's end.
 */
async function executeCall(prepared, signal, onUpdate) {
  const deliveries = [];
  let open = true;
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  const report = (partialResult) => {
    if (open) deliveries.push(Promise.resolve(onUpdate(partialResult)));
  };
  try {
    const result = await prepared.tool.execute(prepared.toolCall.id, prepared.args, signal, report);
    const durationMs = took();
    open = false;
    await Promise.all(deliveries);
    return { result, isError: result.isError === true, durationMs };
  } catch (error) {
    const durationMs = took();
    open = false;
    await Promise.all(deliveries);
    return { result: errorResult(messageOf(error)), isError: true, durationMs };
  } finally {
    open = false;
  }
}

/** The outcome after afterToolCall had its say; a throwing hook turns it into an error. */
async function finishCall(context, assistantMessage, prepared, executed, hooks, signal) {
  let { result, isError } = executed;
  if (hooks.afterToolCall) {
    try {
      const amendment = await hooks.afterToolCall(
        { assistantMessage, toolCall: prepared.toolCall, args: prepared.args, result, isError, context },
        signal,
      );
      if (amendment) {
        // New content without new structured content would leave the old structure describing other text.
        const structuredContent =
          amendment.structuredContent ?? (amendment.content ? undefined : result.structuredContent);
        result = {
          ...result,
          content: amendment.content ?? result.content,
          details: amendment.details ?? result.details,
          usage: amendment.usage ?? result.usage,
          terminate: amendment.terminate ?? result.terminate,
        };
        if (structuredContent === undefined) delete result.structuredContent;
        else result.structuredContent = structuredContent;
        isError = amendment.isError ?? isError;
      }
    } catch (error) {
      result = errorResult(messageOf(error));
      isError = true;
    }
  }
  return { toolCall: prepared.toolCall, result, isError, durationMs: executed.durationMs };
}

const withDuration = (outcome) => (outcome.durationMs === undefined ? {} : { durationMs: outcome.durationMs });

function startEvent(toolCall) {
  return { type: "tool_execution_start", toolCallId: toolCall.id, toolName: toolCall.name, args: toolCall.arguments };
}

function endEvent(outcome) {
  return {
    type: "tool_execution_end",
    toolCallId: outcome.toolCall.id,
    toolName: outcome.toolCall.name,
    result: outcome.result,
    isError: outcome.isError,
    ...withDuration(outcome),
  };
}

function updateEmitter(toolCall, emit) {
  return (partialResult) =>
    emit({
      type: "tool_execution_update",
      toolCallId: toolCall.id,
      toolName: toolCall.name,
      args: toolCall.arguments,
      partialResult,
    });
}

function toolResultMessage(outcome) {
  return {
    role: "toolResult",
    toolCallId: outcome.toolCall.id,
    toolName: outcome.toolCall.name,
    // Tools written in JavaScript may return no content; history must never hold a null.
    content: outcome.result.content ?? [],
    details: outcome.result.details,
    usage: outcome.result.usage,
    isError: outcome.isError,
    ...withDuration(outcome),
    timestamp: Date.now(),
  };
}

async function emitMessage(message, emit) {
  await emit({ type: "message_start", message });
  await emit({ type: "message_end", message });
}

/** A batch ends the run only when every one of its calls asked to. */
function endsTheRun(outcomes) {
  return outcomes.length > 0 && outcomes.every((outcome) => outcome.result.terminate === true);
}

/**
 * Answers every call of a message cut off at the output limit with an error:
 * their arguments were salvaged from truncated JSON and may be silently
 * incomplete, so running them is unsafe; the model is asked to re-issue them.
 */
export async function rejectTruncatedToolCalls(toolCalls, emit) {
  const messages = [];
  for (const toolCall of toolCalls) {
    await emit(startEvent(toolCall));
    const outcome = {
      toolCall,
      result: errorResult(
        `Tool call "${toolCall.name}" was not executed: the response hit the output token limit, so its arguments may be truncated. Re-issue the tool call with complete arguments.`,
      ),
      isError: true,
    };
    await emit(endEvent(outcome));
    const message = toolResultMessage(outcome);
    await emitMessage(message, emit);
    messages.push(message);
  }
  return { messages, terminate: false };
}

async function runOneByOne(context, assistantMessage, toolCalls, config, signal, emit) {
  const outcomes = [];
  const messages = [];
  for (const toolCall of toolCalls) {
    await emit(startEvent(toolCall));
    const preparation = await prepareCall(context, assistantMessage, toolCall, config, signal);
    const outcome =
      preparation.kind === "immediate"
        ? { toolCall, result: preparation.result, isError: preparation.isError }
        : await executeAndFinish(context, assistantMessage, toolCall, preparation, config, signal, emit);
    await emit(endEvent(outcome));
    const message = toolResultMessage(outcome);
    await emitMessage(message, emit);
    outcomes.push(outcome);
    messages.push(message);
  }
  return { messages, terminate: endsTheRun(outcomes) };
}

/** Runs a prepared call and lets the config have its say on the result. */
async function executeAndFinish(context, assistantMessage, toolCall, preparation, config, signal, emit) {
  const executed = await executeCall(preparation, signal, updateEmitter(toolCall, emit));
  return finishCall(context, assistantMessage, preparation, executed, config, signal);
}

/**
 * Prepares the calls in order, then runs the prepared ones side by side. Each
 * call's end event comes when it finishes; the result messages follow in the
 * order of the calls, once all are done.
 */
async function runSideBySide(context, assistantMessage, toolCalls, config, signal, emit) {
  const pending = [];
  for (const toolCall of toolCalls) {
    await emit(startEvent(toolCall));
    const preparation = await prepareCall(context, assistantMessage, toolCall, config, signal);
    if (preparation.kind === "immediate") {
      const outcome = { toolCall, result: preparation.result, isError: preparation.isError };
      await emit(endEvent(outcome));
      pending.push(outcome);
      continue;
    }
    pending.push(async () => {
      // The run may have been aborted while later calls were prepared.
      const outcome = signal?.aborted
        ? { toolCall, result: errorResult(ABORTED), isError: true }
        : await executeAndFinish(context, assistantMessage, toolCall, preparation, config, signal, emit);
      await emit(endEvent(outcome));
      return outcome;
    });
  }
  const outcomes = await Promise.all(pending.map((entry) => (typeof entry === "function" ? entry() : entry)));
  const messages = [];
  for (const outcome of outcomes) {
    const message = toolResultMessage(outcome);
    await emitMessage(message, emit);
    messages.push(message);
  }
  return { messages, terminate: endsTheRun(outcomes) };
}

/** Runs the tool calls of `assistantMessage`; one sequential tool makes the whole batch sequential. */
export function executeToolCalls(context, assistantMessage, config, signal, emit) {
  const toolCalls = assistantMessage.content.filter((block) => block.type === "toolCall");
  const anySequential = toolCalls.some(
    (toolCall) => context.tools?.find((tool) => tool.name === toolCall.name)?.executionMode === "sequential",
  );
  const run = config.toolExecution === "sequential" || anySequential ? runOneByOne : runSideBySide;
  return run(context, assistantMessage, toolCalls, config, signal, emit);
}

/**
 * Runs one tool call the way the loop runs a model's call (preparation,
 * validation, both hooks, execution) but emits no events and records no
 * message. Never rejects for a tool's failure: it comes back with isError.
 */
export async function runToolCall(toolCall, options) {
  const { assistantMessage, context, signal } = options;
  const preparation = await prepareCall(context, assistantMessage, toolCall, options, signal, options.tools);
  if (preparation.kind === "immediate") {
    return { toolCall, result: preparation.result, isError: preparation.isError };
  }
  const executed = await executeCall(preparation, signal, options.onUpdate ?? (() => {}));
  return finishCall(context, assistantMessage, preparation, executed, options, signal);
}
