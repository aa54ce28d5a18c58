// Tool calls a running tool makes through `ctx.executeTool()` in a child
// session, as pi's session runs them: the agent loop never sees them, so the
// session runs each through the agent's tool pipeline with its own hooks
// (tool_call/tool_result carry `parentToolCallId`), tells listeners with
// tool_execution_* events that carry it too, and keeps a record of the calls
// (and the usage their results report) that ends up on the tool result
// message of the call the model issued.
import { combineUsage } from "./context-usage.js";

/**
 * How much of the nested calls one model-issued call's record keeps: later
 * calls are dropped, oversized arguments are left out, long errors are cut,
 * and the record then says it is incomplete.
 */
export const NESTED_CALL_LIMITS = {
  maxCalls: 256,
  maxArgumentBytesPerCall: 8 * 1024,
  maxArgumentBytesTotal: 32 * 1024,
  maxErrorChars: 500,
};

const utf8 = new TextEncoder();

/** The record of the nested calls under one model-issued call, its nested tools' calls included. */
export class NestedCallRecorder {
  calls = [];
  complete = true;
  #argumentBytes = 0;
  #startTimes = new Map();
  // Summed over every nested result, dropped calls included.
  #usage;

  /** Records a call as it starts; undefined when the record is full. */
  start(toolCall) {
    if (this.calls.length >= NESTED_CALL_LIMITS.maxCalls) {
      this.complete = false;
      return undefined;
    }
    const call = { id: toolCall.id, name: toolCall.name, status: "unfinished" };
    const json = JSON.stringify(toolCall.arguments ?? {});
    const bytes = utf8.encode(json).length;
    const fits = bytes <= NESTED_CALL_LIMITS.maxArgumentBytesPerCall && this.#argumentBytes + bytes <= NESTED_CALL_LIMITS.maxArgumentBytesTotal;
    if (fits) {
      // A copy: the tool may change the object it passed.
      call.arguments = JSON.parse(json);
      this.#argumentBytes += bytes;
    } else {
      call.argumentsBytes = bytes;
      this.complete = false;
    }
    this.calls.push(call);
    this.#startTimes.set(call, performance.now());
    return call;
  }

  finish(call, isError, errorText) {
    if (!call) return;
    call.status = isError ? "error" : "ok";
    const startedAt = this.#startTimes.get(call) ?? performance.now();
    call.durationMs = Math.round(performance.now() - startedAt);
    this.#startTimes.delete(call);
    if (isError && errorText) call.error = errorText.slice(0, NESTED_CALL_LIMITS.maxErrorChars);
  }

  addUsage(usage) {
    this.#usage = this.#usage ? combineUsage(this.#usage, usage) : usage;
  }

  get totalUsage() {
    return this.#usage;
  }

  /** A copy of the record, or undefined when no call was made and none dropped. */
  snapshot() {
    if (this.calls.length === 0 && this.complete) return undefined;
    const calls = this.calls.map((call) => ({ ...call }));
    return { calls, complete: this.complete && calls.every((call) => call.status !== "unfinished") };
  }
}

const resultText = (result) =>
  (result.content ?? [])
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("\n");

/**
 * Runs nested calls for a session (`host`: getTools, isSequential,
 * runToolCall, emit). Calls are scoped by the id of the call that made
 * them, so a nested tool's own nested calls share the model-issued call's
 * record and number from their caller's id (`<caller>/1`, `<caller>/2`, …).
 */
export class NestedToolCallRunner {
  #host;
  #scopes = new Map();
  // Sequential calls wait for each other; a call made inside one already holds the turn.
  #queueTail = Promise.resolve();

  constructor(host) {
    this.#host = host;
  }

  /** Runs `name` for the call `callerId`; a tool's failure comes back as `isError`, never thrown. */
  async execute(callerId, name, args, options = {}) {
    let scope = this.#scopes.get(callerId);
    if (!scope) {
      scope = { recorder: new NestedCallRecorder(), nextId: 1, holdsQueue: false };
      this.#scopes.set(callerId, scope);
    }
    const toolCall = { type: "toolCall", id: `${callerId}/${scope.nextId++}`, name, arguments: args ?? {} };
    const call = scope.recorder.start(toolCall);
    const about = { toolCallId: toolCall.id, toolName: name };
    const parent = { parentToolCallId: callerId };
    await this.#host.emit({ type: "tool_execution_start", ...about, args: toolCall.arguments, ...parent });

    const sequential = this.#host.isSequential() || this.#host.getTools().find((tool) => tool.name === name)?.executionMode === "sequential";
    const takesQueue = !scope.holdsQueue && sequential;
    let releaseQueue;
    if (takesQueue) {
      const previous = this.#queueTail;
      this.#queueTail = new Promise((resolve) => {
        releaseQueue = resolve;
      });
      await previous;
    }
    this.#scopes.set(toolCall.id, { recorder: scope.recorder, nextId: 1, holdsQueue: scope.holdsQueue || takesQueue });
    let outcome;
    try {
      outcome = await this.#host.runToolCall(toolCall, callerId, options.signal, async (partialResult) => {
        options.onUpdate?.(partialResult);
        await this.#host.emit({ type: "tool_execution_update", ...about, args: toolCall.arguments, partialResult, ...parent });
      });
    } finally {
      this.#scopes.delete(toolCall.id);
      releaseQueue?.();
    }
    scope.recorder.finish(call, outcome.isError, resultText(outcome.result));
    // Nested results are never stored in the session: the record is where their usage counts.
    if (outcome.result.usage) scope.recorder.addUsage(outcome.result.usage);
    await this.#host.emit({
      type: "tool_execution_end",
      ...about,
      result: outcome.result,
      isError: outcome.isError,
      ...(outcome.durationMs === undefined ? {} : { durationMs: outcome.durationMs }),
      ...parent,
    });
    return outcome;
  }

  /** Takes out the record of a model-issued call's nested calls. */
  takeRecord(toolCallId) {
    const scope = this.#scopes.get(toolCallId);
    this.#scopes.delete(toolCallId);
    if (!scope) return undefined;
    return { calls: scope.recorder.snapshot(), usage: scope.recorder.totalUsage };
  }

  clear() {
    this.#scopes.clear();
  }
}
