// The stateful agent: it owns a transcript, runs the agent loop on it, keeps
// its state in step with the loop's events, hands every event to its
// subscribers (awaiting each, in subscription order), and queues steering
// and follow-up messages for the loop to pick up.
import { getCurrentSystemMessage } from "../ai/system-messages.js";
import { runAgentLoop, runAgentLoopContinue } from "./agent-loop.js";
import { createAgentState } from "./agent-state.js";
import { MessageQueue } from "./message-queue.js";
import { getDefaultStreamFn } from "./stream-fn.js";
import { emptyUsage } from "../ai/usage.js";

const LLM_ROLES = new Set(["system", "user", "assistant", "toolResult"]);

/** Without a converter, messages of custom roles are simply not sent. */
function keepLlmMessages(messages) {
  return messages.filter((message) => LLM_ROLES.has(message.role));
}

const NO_USAGE = emptyUsage();

export class Agent {
  // Declared up front so instances have pi's own properties in pi's order.
  _state;
  listeners = new Set();
  steeringQueue;
  followUpQueue;
  convertToLlm;
  transformContext;
  streamFunction;
  getApiKey;
  onPayload;
  onResponse;
  onProviderStreamEvent;
  beforeToolCall;
  afterToolCall;
  finishTurn;
  prepareRequest;
  prepareNextTurn;
  prepareNextTurnWithContext;
  activeRun;
  sessionId;
  thinkingBudgets;
  transport;
  maxRetryDelayMs;
  toolExecution;
  identity;

  constructor(options) {
    // Callers compiled against older versions may pass no options at all.
    const given = options ?? {};
    this._state = createAgentState(given.initialState);
    this.convertToLlm = given.convertToLlm ?? keepLlmMessages;
    this.transformContext = given.transformContext;
    this.streamFunction = given.streamFn ?? getDefaultStreamFn();
    this.getApiKey = given.getApiKey;
    this.onPayload = given.onPayload;
    this.onResponse = given.onResponse;
    this.onProviderStreamEvent = given.onProviderStreamEvent;
    this.beforeToolCall = given.beforeToolCall;
    this.afterToolCall = given.afterToolCall;
    this.finishTurn = given.finishTurn;
    this.prepareRequest = given.prepareRequest;
    this.prepareNextTurn = given.prepareNextTurn;
    this.prepareNextTurnWithContext = given.prepareNextTurnWithContext;
    this.steeringQueue = new MessageQueue(given.steeringMode ?? "one-at-a-time");
    this.followUpQueue = new MessageQueue(given.followUpMode ?? "one-at-a-time");
    this.sessionId = given.sessionId;
    this.thinkingBudgets = given.thinkingBudgets;
    this.transport = given.transport ?? "auto";
    this.maxRetryDelayMs = given.maxRetryDelayMs;
    this.toolExecution = given.toolExecution ?? "parallel";
    this.identity = given.identity;
  }

  /**
   * Adds a listener for agent events; returns the function that removes it.
   * Listeners get the run's abort signal too. The run counts as finished only
   * once the listeners of its last event (agent_end) have settled.
   */
  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get state() {
    return this._state;
  }

  get steeringMode() {
    return this.steeringQueue.mode;
  }

  set steeringMode(mode) {
    this.steeringQueue.mode = mode;
  }

  get followUpMode() {
    return this.followUpQueue.mode;
  }

  set followUpMode(mode) {
    this.followUpQueue.mode = mode;
  }

  /** Queues a message for after the current assistant turn. */
  steer(message) {
    this.steeringQueue.enqueue(message);
  }

  /** Queues a message for when the agent would otherwise stop. */
  followUp(message) {
    this.followUpQueue.enqueue(message);
  }

  clearSteeringQueue() {
    this.steeringQueue.clear();
  }

  clearFollowUpQueue() {
    this.followUpQueue.clear();
  }

  clearAllQueues() {
    this.clearSteeringQueue();
    this.clearFollowUpQueue();
  }

  hasQueuedMessages() {
    return this.steeringQueue.hasItems() || this.followUpQueue.hasItems();
  }

  /** The messages the next turn would take, left in their queue. Steering comes before follow-ups. */
  peekQueuedMessages() {
    const steering = this.steeringQueue.peek();
    return steering.length > 0 ? steering : this.followUpQueue.peek();
  }

  /** The current run's abort signal; undefined while idle. */
  get signal() {
    return this.activeRun?.abortController.signal;
  }

  abort() {
    this.activeRun?.abortController.abort();
  }

  /** Settles once the current run, listeners included, is over; at once when idle. */
  waitForIdle() {
    return this.activeRun?.promise ?? Promise.resolve();
  }

  /** Forgets the conversation and the queues; the system prompt and tools declared so far stay. */
  reset() {
    if (this.activeRun) throw new Error("Agent is already processing. Wait for completion before resetting.");
    const baseline = getCurrentSystemMessage(this._state.messages);
    this._state.messages = baseline ? [baseline] : [];
    this._state.isStreaming = false;
    this._state.streamingMessage = undefined;
    this._state.pendingToolCalls = new Set();
    this._state.errorMessage = undefined;
    this.clearFollowUpQueue();
    this.clearSteeringQueue();
  }

  /** Runs the agent on a text (with optional images), a message, or messages. */
  async prompt(input, images) {
    if (this.activeRun) {
      throw new Error(
        "Agent is already processing a prompt. Use steer() or followUp() to queue messages, or wait for completion.",
      );
    }
    await this.runPromptMessages(this.normalizePromptInput(input, images));
  }

  /**
   * Runs the agent on the transcript as it is. After an assistant message
   * there is nothing to answer, unless a message is queued: then that is
   * sent as a prompt, steering first.
   */
  async continue() {
    if (this.activeRun) throw new Error("Agent is already processing. Wait for completion before continuing.");
    const messages = this._state.messages;
    const last = messages[messages.length - 1];
    if (!last || messages.every((message) => message.role === "system")) {
      throw new Error("No messages to continue from");
    }
    if (last.role !== "assistant") {
      await this.runContinuation();
      return;
    }
    const steering = this.steeringQueue.drain();
    if (steering.length > 0) {
      // Already taken from the queue, so the loop must not poll it again before the first turn.
      await this.runPromptMessages(steering, { skipInitialSteeringPoll: true });
      return;
    }
    const followUps = this.followUpQueue.drain();
    if (followUps.length > 0) {
      await this.runPromptMessages(followUps);
      return;
    }
    throw new Error("Cannot continue from message role: assistant");
  }

  normalizePromptInput(input, images) {
    if (Array.isArray(input)) return input;
    if (typeof input !== "string") return [input];
    const content = [{ type: "text", text: input }];
    if (images && images.length > 0) content.push(...images);
    return [{ role: "user", content, timestamp: Date.now() }];
  }

  async runPromptMessages(messages, options = {}) {
    await this.runWithLifecycle(async (signal) => {
      await runAgentLoop(
        messages,
        this.createContextSnapshot(),
        this.createLoopConfig(options),
        (event) => this.processEvents(event),
        signal,
        this.streamFunction,
      );
    });
  }

  async runContinuation() {
    await this.runWithLifecycle(async (signal) => {
      await runAgentLoopContinue(
        this.createContextSnapshot(),
        this.createLoopConfig(),
        (event) => this.processEvents(event),
        signal,
        this.streamFunction,
      );
    });
  }

  createContextSnapshot() {
    return { messages: this._state.messages.slice(), tools: this._state.tools.slice() };
  }

  createLoopConfig(options = {}) {
    let skipSteeringPoll = options.skipInitialSteeringPoll === true;
    const hasTurnPreparation = this.prepareNextTurnWithContext || this.prepareNextTurn;
    return {
      model: this._state.model,
      reasoning: this._state.thinkingLevel === "off" ? undefined : this._state.thinkingLevel,
      sessionId: this.sessionId,
      onPayload: this.onPayload,
      onResponse: this.onResponse,
      onProviderStreamEvent: this.onProviderStreamEvent,
      transport: this.transport,
      thinkingBudgets: this.thinkingBudgets,
      maxRetryDelayMs: this.maxRetryDelayMs,
      identity: this.identity,
      toolExecution: this.toolExecution,
      beforeToolCall: this.beforeToolCall,
      afterToolCall: this.afterToolCall,
      finishTurn: this.finishTurn,
      prepareRequest: this.prepareRequest,
      prepareNextTurn: hasTurnPreparation
        ? async (turn) => {
            if (this.prepareNextTurnWithContext) return await this.prepareNextTurnWithContext(turn, this.signal);
            return await this.prepareNextTurn?.(this.signal);
          }
        : undefined,
      convertToLlm: this.convertToLlm,
      transformContext: this.transformContext,
      getApiKey: this.getApiKey,
      getSteeringMessages: async () => {
        if (skipSteeringPoll) {
          skipSteeringPoll = false;
          return [];
        }
        return this.steeringQueue.drain();
      },
      getFollowUpMessages: async () => this.followUpQueue.drain(),
    };
  }

  async runWithLifecycle(execute) {
    if (this.activeRun) throw new Error("Agent is already processing.");
    const abortController = new AbortController();
    let resolve = () => {};
    const promise = new Promise((settle) => {
      resolve = settle;
    });
    this.activeRun = { promise, resolve, abortController };
    this._state.isStreaming = true;
    this._state.streamingMessage = undefined;
    this._state.errorMessage = undefined;
    try {
      await execute(abortController.signal);
    } catch (error) {
      await this.handleRunFailure(error, abortController.signal.aborted);
    } finally {
      this.finishRun();
    }
  }

  /** A run that threw still ends like one: with a failed assistant message and the closing events. */
  async handleRunFailure(error, aborted) {
    const model = this._state.model;
    const failure = {
      role: "assistant",
      content: [{ type: "text", text: "" }],
      api: model.api,
      provider: model.provider,
      model: model.id,
      usage: NO_USAGE,
      stopReason: aborted ? "aborted" : "error",
      errorMessage: error instanceof Error ? error.message : String(error),
      timestamp: Date.now(),
    };
    await this.processEvents({ type: "message_start", message: failure });
    await this.processEvents({ type: "message_end", message: failure });
    await this.processEvents({ type: "turn_end", message: failure, toolResults: [] });
    await this.processEvents({ type: "agent_end", messages: [failure] });
  }

  finishRun() {
    this._state.isStreaming = false;
    this._state.streamingMessage = undefined;
    this._state.pendingToolCalls = new Set();
    this.activeRun?.resolve();
    this.activeRun = undefined;
  }

  /** Applies an event to the state, then awaits every listener in turn. */
  async processEvents(event) {
    const state = this._state;
    switch (event.type) {
      case "message_start":
      case "message_update":
        state.streamingMessage = event.message;
        break;
      case "message_end":
        state.streamingMessage = undefined;
        state.messages.push(event.message);
        break;
      case "tool_execution_start":
        // A new set each time, so a set handed out earlier never changes under its holder.
        state.pendingToolCalls = new Set(state.pendingToolCalls).add(event.toolCallId);
        break;
      case "tool_execution_end": {
        const pending = new Set(state.pendingToolCalls);
        pending.delete(event.toolCallId);
        state.pendingToolCalls = pending;
        break;
      }
      case "turn_end":
        if (event.message.role === "assistant" && event.message.errorMessage) {
          state.errorMessage = event.message.errorMessage;
        }
        break;
      case "agent_end":
        state.streamingMessage = undefined;
        break;
    }
    const signal = this.activeRun?.abortController.signal;
    if (!signal) throw new Error("Agent listener invoked outside active run");
    for (const listener of this.listeners) await listener(event, signal);
  }
}
