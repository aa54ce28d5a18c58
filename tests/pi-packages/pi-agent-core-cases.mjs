// Cases of pi-agent-core for the pi-ai case table (pi-ai-cases.mjs): the
// stateful Agent, the low-level loops, runToolCall, the default stream
// function and streamProxy. Model answers come from the case environment
// (`env.withAnswers`, a queue of final messages, or functions of the
// transcript and options that return one); tools and listeners are the
// cases' own, so runs are deterministic. Clocks (timestamps stamped during
// the run, durations) and the faux provider's usage estimate are replaced by
// placeholders; streamed partials are reduced to the event's type, as how
// far the provider got when a listener looks is timing, not behaviour.
import { serialize } from "./pi-packages-cases.mjs";

// Timestamps the cases choose are small; anything later is the clock's.
const CLOCK_STAMPS_FROM = 1e11;

/** `value` as comparable data: clocks and usage replaced by placeholders. */
function tidy(value) {
  return JSON.parse(serialize(value), (key, item) => {
    if (key === "timestamp" && typeof item === "number" && item >= CLOCK_STAMPS_FROM) return "<now>";
    if (key === "durationMs" && typeof item === "number") return "<duration>";
    if (key === "usage" && item && typeof item === "object") return "<usage>";
    return item;
  });
}

/** An agent event as recorded: updates reduced to the kind of stream event they carry. */
function eventView(event) {
  if (event.type === "message_update") {
    const { type, contentIndex } = event.assistantMessageEvent;
    return { type: event.type, assistantMessageEvent: { type, contentIndex }, role: event.message.role };
  }
  return tidy(event);
}

function stateView(agent) {
  const state = agent.state;
  return tidy({
    systemPrompt: state.systemPrompt,
    model: state.model.id,
    thinkingLevel: state.thinkingLevel,
    tools: state.tools.map((tool) => tool.name),
    messages: state.messages,
    isStreaming: state.isStreaming,
    streamingMessage: state.streamingMessage,
    pendingToolCalls: [...state.pendingToolCalls],
    errorMessage: state.errorMessage,
  });
}

const text = (value) => ({ type: "text", text: value });
const call = (id, name, args) => ({ type: "toolCall", id, name, arguments: args });
const user = (value, timestamp = 5) => ({ role: "user", content: [text(value)], timestamp });

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Records events and state after the run; `onEvent` may act on the agent mid run. */
async function runAgent(agent, start, onEvent) {
  const events = [];
  const unsubscribe = agent.subscribe(async (event, signal) => {
    events.push(eventView(event));
    if (!(signal instanceof AbortSignal)) events.push("listener without a signal");
    await onEvent?.(event, agent);
  });
  let outcome;
  try {
    await start(agent);
    outcome = "resolved";
  } catch (error) {
    outcome = { rejected: String(error?.message ?? error) };
  } finally {
    unsubscribe();
  }
  return { outcome, events, state: stateView(agent) };
}

/**
 * Adds the cases. `core` is pi-agent-core's namespace, `ai` pi-ai's; `env`
 * answers model calls; `goldenModel` and `answer` build models and answers.
 */
export function addAgentCoreCases(add, { ai, core, env, goldenModel, answer }) {
  if (!core) return;
  const T = ai.Type;

  // --- tools ---------------------------------------------------------------
  const echoTool = (delayMs = 0) => ({
    name: "echo",
    label: "Echo",
    description: "Repeats its text",
    parameters: T.Object({ text: T.String() }),
    async execute(toolCallId, params) {
      if (delayMs > 0) await sleep(delayMs);
      return { content: [text(`echo:${params.text}`)], details: { toolCallId } };
    },
  });
  const slowTool = {
    name: "slow",
    label: "Slow",
    description: "Answers late",
    parameters: T.Object({}),
    async execute() {
      await sleep(30);
      return { content: [text("slow done")], details: {} };
    },
  };
  const boomTool = {
    name: "boom",
    label: "Boom",
    description: "Always fails",
    parameters: T.Object({}),
    async execute() {
      throw new Error("boom failed");
    },
  };
  const countTool = {
    name: "count",
    label: "Count",
    description: "Counts",
    parameters: T.Object({ n: T.Number() }),
    async execute(_id, params) {
      return { content: [text(String(params.n))], details: { n: params.n } };
    },
  };
  const progressTool = {
    name: "progress",
    label: "Progress",
    description: "Reports progress",
    parameters: T.Object({}),
    async execute(_id, _params, _signal, onUpdate) {
      onUpdate?.({ content: [text("25%")], details: { step: 1 } });
      await sleep(1);
      onUpdate?.({ content: [text("75%")], details: { step: 2 } });
      return { content: [text("100%")], details: { step: 3 } };
    },
  };
  const waitForAbortTool = {
    name: "wait",
    label: "Wait",
    description: "Waits until aborted",
    parameters: T.Object({}),
    execute(_id, _params, signal) {
      return new Promise((_resolve, reject) => {
        if (signal?.aborted) reject(new Error("aborted before start"));
        signal?.addEventListener("abort", () => reject(new Error("tool saw the abort")), { once: true });
      });
    },
  };
  const stopTool = {
    name: "stop",
    label: "Stop",
    description: "Ends the run",
    parameters: T.Object({}),
    async execute() {
      return { content: [text("stopping")], details: {}, terminate: true };
    },
  };

  const agentWith = (model, options = {}) =>
    new core.Agent({ ...options, initialState: { systemPrompt: "Be brief.", model, ...options.initialState } });

  // --- module surface ------------------------------------------------------
  add("agentCore.exports", () =>
    [
      "Agent",
      "DEFAULT_AGENT_IDENTITY",
      "agentLoop",
      "agentLoopContinue",
      "runAgentLoop",
      "runAgentLoopContinue",
      "runToolCall",
      "setDefaultStreamFn",
      "streamProxy",
    ].map((name) => [name, typeof core[name]]),
  );
  add("agentCore.DEFAULT_AGENT_IDENTITY", () => core.DEFAULT_AGENT_IDENTITY);

  // --- Agent: construction and state ----------------------------------------
  add("agent.defaults", () => {
    const agent = new core.Agent();
    return {
      ownKeys: Object.keys(agent),
      state: stateView(agent),
      model: agent.state.model,
      stateKeys: Object.keys(agent.state),
      steeringMode: agent.steeringMode,
      followUpMode: agent.followUpMode,
      transport: agent.transport,
      toolExecution: agent.toolExecution,
      signal: agent.signal,
      hasQueuedMessages: agent.hasQueuedMessages(),
    };
  });
  add("agent.initialState", () => {
    const model = goldenModel();
    const tools = [echoTool(), boomTool];
    const messages = [user("earlier")];
    const agent = new core.Agent({
      initialState: { systemPrompt: "Sys.", model, thinkingLevel: "low", tools, messages },
      steeringMode: "all",
      followUpMode: "all",
      transport: "sse",
      toolExecution: "sequential",
      sessionId: "s1",
    });
    const state = agent.state;
    const copies = { tools: state.tools !== tools, messages: state.messages !== messages };
    state.tools = [echoTool()];
    const assigned = [user("replaced")];
    state.messages = assigned;
    return {
      state: stateView(agent),
      copies,
      assignedIsCopied: state.messages !== assigned,
      modes: [agent.steeringMode, agent.followUpMode, agent.transport, agent.toolExecution, agent.sessionId],
    };
  });
  add("agent.initialState.ownSystemMessageWins", () => {
    const agent = new core.Agent({
      initialState: {
        systemPrompt: "ignored",
        tools: [echoTool()],
        messages: [{ role: "system", content: "Mine.", timestamp: 2 }, user("hi")],
      },
    });
    return stateView(agent);
  });
  add("agent.initialState.toolsOnly", () => stateView(new core.Agent({ initialState: { tools: [countTool] } })));

  // --- Agent: prompting -------------------------------------------------------
  add("agent.prompt.text", () => {
    const model = goldenModel();
    return env.withAnswers(model, [answer(model, [text("Hello there.")])], () =>
      runAgent(agentWith(model), (agent) => agent.prompt("hello")),
    );
  });
  add("agent.prompt.thinkingAndText", () => {
    const model = goldenModel();
    const reply = answer(model, [{ type: "thinking", thinking: "hmm" }, text("Answer.")]);
    return env.withAnswers(model, [reply], () => runAgent(agentWith(model), (agent) => agent.prompt("think")));
  });
  add("agent.prompt.message", () => {
    const model = goldenModel();
    return env.withAnswers(model, [answer(model, [text("ok")])], () =>
      runAgent(agentWith(model), (agent) => agent.prompt(user("as a message", 7))),
    );
  });
  add("agent.prompt.messages", () => {
    const model = goldenModel();
    return env.withAnswers(model, [answer(model, [text("ok")])], () =>
      runAgent(agentWith(model), (agent) => agent.prompt([user("one", 7), user("two", 8)])),
    );
  });
  add("agent.prompt.textWithImages", () => {
    const model = goldenModel();
    const image = { type: "image", data: "aGk=", mimeType: "image/png" };
    return env.withAnswers(model, [answer(model, [text("ok")])], () =>
      runAgent(agentWith(model), (agent) => agent.prompt("look", [image])),
    );
  });
  add("agent.prompt.twoRuns", () => {
    const model = goldenModel();
    return env.withAnswers(model, [answer(model, [text("first")]), answer(model, [text("second")])], () =>
      runAgent(agentWith(model), async (agent) => {
        await agent.prompt("one");
        await agent.prompt("two");
      }),
    );
  });
  add("agent.prompt.providerError", () => {
    const model = goldenModel();
    const failed = answer(model, [], "error", { errorMessage: "provider exploded" });
    return env.withAnswers(model, [failed], () => runAgent(agentWith(model), (agent) => agent.prompt("hi")));
  });
  add("agent.prompt.streamFnThrows", () => {
    const model = goldenModel();
    const agent = agentWith(model, {
      streamFn: () => {
        throw new Error("no stream for you");
      },
    });
    return runAgent(agent, (running) => running.prompt("hi"));
  });
  add("agent.prompt.convertToLlmRejects", () => {
    const model = goldenModel();
    const agent = agentWith(model, {
      convertToLlm: async () => {
        throw new Error("cannot convert");
      },
    });
    return runAgent(agent, (running) => running.prompt("hi"));
  });
  add("agent.prompt.whileRunning", () => {
    const model = goldenModel();
    const tries = [];
    return env.withAnswers(model, [answer(model, [text("ok")])], async () => {
      const result = await runAgent(
        agentWith(model),
        (agent) => agent.prompt("hi"),
        async (event, agent) => {
          if (event.type !== "turn_start") return;
          for (const attempt of [() => agent.prompt("again"), () => agent.continue(), async () => agent.reset()]) {
            try {
              await attempt();
              tries.push("no error");
            } catch (error) {
              tries.push(error.message);
            }
          }
          tries.push({ isStreaming: agent.state.isStreaming, hasSignal: agent.signal instanceof AbortSignal });
        },
      );
      return { ...result, tries };
    });
  });
  add("agent.prompt.customMessagesAreNotSent", () => {
    const model = goldenModel();
    const seen = [];
    const reply = (transcript) => {
      seen.push(transcript.messages.map((message) => message.role));
      return answer(model, [text("ok")]);
    };
    return env.withAnswers(model, [reply], async () => {
      const agent = agentWith(model, {
        initialState: { messages: [{ role: "note", text: "for me only", timestamp: 3 }] },
      });
      const result = await runAgent(agent, (running) => running.prompt("hi"));
      return { ...result, seen };
    });
  });

  // --- Agent: options reaching the stream function -----------------------------
  add("agent.streamOptions", () => {
    const model = goldenModel();
    const seen = [];
    const streamFn = (requested, transcript, options) => {
      seen.push(
        tidy({
          model: requested.id,
          transcript,
          optionKeys: Object.keys(options),
          reasoning: options.reasoning,
          apiKey: options.apiKey,
          identity: options.identity,
          sessionId: options.sessionId,
          transport: options.transport,
          thinkingBudgets: options.thinkingBudgets,
          maxRetryDelayMs: options.maxRetryDelayMs,
          toolExecution: options.toolExecution,
          signal: options.signal instanceof AbortSignal,
        }),
      );
      return ai.streamSimple(requested, transcript, options);
    };
    return env.withAnswers(model, [answer(model, [text("one")]), answer(model, [text("two")])], async () => {
      const agent = agentWith(model, {
        streamFn,
        sessionId: "session-7",
        thinkingBudgets: { low: 100 },
        maxRetryDelayMs: 5,
        identity: { userAgent: "golden-agent/1" },
        getApiKey: async (provider) => `key-for-${provider}`,
      });
      agent.state.thinkingLevel = "high";
      const first = await runAgent(agent, (running) => running.prompt("think hard"));
      agent.state.thinkingLevel = "off";
      agent.getApiKey = undefined;
      const second = await runAgent(agent, (running) => running.prompt("now not"));
      return { seen, first: first.state.messages.at(-1), second: second.state.messages.at(-1) };
    });
  });
  add("agent.transformContext", () => {
    const model = goldenModel();
    const seen = [];
    const reply = (transcript) => {
      seen.push(transcript.messages.map((message) => message.content));
      return answer(model, [text("ok")]);
    };
    return env.withAnswers(model, [reply], async () => {
      const agent = agentWith(model, {
        transformContext: async (messages, signal) => [
          ...messages,
          user(`appended, signal: ${signal instanceof AbortSignal}`, 9),
        ],
      });
      const result = await runAgent(agent, (running) => running.prompt("hi"));
      return { seen, messages: result.state.messages };
    });
  });

  // --- Agent: tools -------------------------------------------------------------
  const toolRound = (model) => [
    answer(
      model,
      [
        text("Using tools."),
        call("call-echo", "echo", { text: "hi" }),
        call("call-slow", "slow", {}),
        call("call-boom", "boom", {}),
        call("call-bad", "echo", { text: 42 }),
        call("call-missing", "nope", {}),
      ],
      "toolUse",
    ),
    answer(model, [text("All done.")]),
  ];
  for (const mode of ["parallel", "sequential"]) {
    add(`agent.tools.${mode}`, () => {
      const model = goldenModel();
      return env.withAnswers(model, toolRound(model), () =>
        runAgent(
          agentWith(model, { toolExecution: mode, initialState: { tools: [echoTool(10), slowTool, boomTool] } }),
          (agent) => agent.prompt("use the tools"),
        ),
      );
    });
  }
  add("agent.tools.pendingToolCalls", () => {
    const model = goldenModel();
    const pending = [];
    return env.withAnswers(model, toolRound(model), async () => {
      await runAgent(
        agentWith(model, { initialState: { tools: [echoTool(10), slowTool, boomTool] } }),
        (agent) => agent.prompt("use the tools"),
        (event, agent) => {
          if (event.type.startsWith("tool_execution")) pending.push([event.type, [...agent.state.pendingToolCalls]]);
        },
      );
      return pending;
    });
  });
  add("agent.tools.executionModeSequential", () => {
    const model = goldenModel();
    const sequentialSlow = { ...slowTool, executionMode: "sequential" };
    return env.withAnswers(model, toolRound(model), () =>
      runAgent(agentWith(model, { initialState: { tools: [echoTool(10), sequentialSlow, boomTool] } }), (agent) =>
        agent.prompt("use the tools"),
      ),
    );
  });
  add("agent.tools.updates", () => {
    const model = goldenModel();
    const replies = [answer(model, [call("call-p", "progress", {})], "toolUse"), answer(model, [text("done")])];
    return env.withAnswers(model, replies, () =>
      runAgent(agentWith(model, { initialState: { tools: [progressTool] } }), (agent) => agent.prompt("go")),
    );
  });
  add("agent.tools.hooks", () => {
    const model = goldenModel();
    const seen = [];
    const replies = [
      answer(
        model,
        [call("c1", "count", { n: 1 }), call("c2", "count", { n: 2 }), call("c3", "count", { n: 3 }), call("c4", "count", { n: 4 })],
        "toolUse",
      ),
      answer(model, [text("done")]),
    ];
    return env.withAnswers(model, replies, async () => {
      const agent = agentWith(model, {
        initialState: { tools: [countTool] },
        beforeToolCall: async ({ toolCall, args, assistantMessage, context }, signal) => {
          seen.push(["before", toolCall.id, args, assistantMessage.role, context.messages.length, signal instanceof AbortSignal]);
          if (args.n === 2) return { block: true, reason: "two is blocked" };
          if (args.n === 3) return { block: true };
          return undefined;
        },
        afterToolCall: async ({ toolCall, result, isError }) => {
          seen.push(["after", toolCall.id, result.content[0].text, isError]);
          if (toolCall.id === "c4") return { content: [text("rewritten")], isError: true, details: { changed: true } };
          return undefined;
        },
      });
      const result = await runAgent(agent, (running) => running.prompt("count"));
      return { seen, ...result };
    });
  });
  add("agent.tools.afterToolCallThrows", () => {
    const model = goldenModel();
    const replies = [answer(model, [call("c1", "count", { n: 1 })], "toolUse"), answer(model, [text("done")])];
    return env.withAnswers(model, replies, () =>
      runAgent(
        agentWith(model, {
          initialState: { tools: [countTool] },
          afterToolCall: async () => {
            throw new Error("after failed");
          },
        }),
        (agent) => agent.prompt("count"),
      ),
    );
  });
  add("agent.tools.blockAndTerminate", () => {
    const model = goldenModel();
    const replies = [answer(model, [call("c1", "count", { n: 1 })], "toolUse"), answer(model, [text("never")])];
    return env.withAnswers(model, replies, () =>
      runAgent(
        agentWith(model, {
          initialState: { tools: [countTool] },
          beforeToolCall: async () => ({ block: true, reason: "no", terminate: true }),
        }),
        (agent) => agent.prompt("count"),
      ),
    );
  });
  add("agent.tools.terminate", () => {
    const model = goldenModel();
    const replies = [answer(model, [call("s1", "stop", {}), call("s2", "stop", {})], "toolUse"), answer(model, [text("never")])];
    return env.withAnswers(model, replies, () =>
      runAgent(agentWith(model, { initialState: { tools: [stopTool] } }), (agent) => agent.prompt("stop")),
    );
  });
  add("agent.tools.terminateNeedsEveryCall", () => {
    const model = goldenModel();
    const replies = [
      answer(model, [call("s1", "stop", {}), call("c1", "count", { n: 1 })], "toolUse"),
      answer(model, [text("went on")]),
    ];
    return env.withAnswers(model, replies, () =>
      runAgent(agentWith(model, { initialState: { tools: [stopTool, countTool] } }), (agent) => agent.prompt("stop")),
    );
  });
  add("agent.tools.lengthStopRejectsCalls", () => {
    const model = goldenModel();
    const replies = [
      answer(model, [call("c1", "count", { n: 1 }), call("c2", "echo", { text: "cut" })], "length"),
      answer(model, [text("retried")]),
    ];
    return env.withAnswers(model, replies, () =>
      runAgent(agentWith(model, { initialState: { tools: [countTool, echoTool()] } }), (agent) => agent.prompt("go")),
    );
  });
  add("agent.tools.prepareArguments", () => {
    const model = goldenModel();
    const seen = [];
    const lenient = {
      ...countTool,
      prepareArguments: (args) => (typeof args.n === "string" ? { n: Number(args.n) } : args),
    };
    const replies = [
      answer(model, [call("c1", "count", { n: "5" }), call("c2", "count", { n: 6 })], "toolUse"),
      answer(model, [text("done")]),
    ];
    return env.withAnswers(model, replies, async () => {
      const agent = agentWith(model, {
        initialState: { tools: [lenient] },
        beforeToolCall: async ({ toolCall, args }) => {
          seen.push([toolCall.arguments, args]);
          return undefined;
        },
      });
      const result = await runAgent(agent, (running) => running.prompt("go"));
      return { seen, ...result };
    });
  });
  add("agent.tools.resultWithoutContent", () => {
    const model = goldenModel();
    const bare = { ...countTool, name: "bare", execute: async () => ({ details: { bare: true } }) };
    const replies = [answer(model, [call("b1", "bare", { n: 1 })], "toolUse"), answer(model, [text("done")])];
    return env.withAnswers(model, replies, () =>
      runAgent(agentWith(model, { initialState: { tools: [bare] } }), (agent) => agent.prompt("go")),
    );
  });
  add("agent.tools.declaredWhenChanged", () => {
    const model = goldenModel();
    const seen = [];
    const reply = (transcript) => {
      seen.push(transcript.messages.filter((message) => message.role === "system"));
      return answer(model, [text("ok")]);
    };
    return env.withAnswers(model, [reply, reply], async () => {
      const agent = agentWith(model, { initialState: { tools: [echoTool()] } });
      await agent.prompt("first");
      agent.state.tools = [countTool];
      const result = await runAgent(agent, (running) => running.prompt("second"));
      return { seen: tidy(seen), ...result };
    });
  });

  // --- Agent: steering and follow-ups -----------------------------------------
  add("agent.queues.withoutRunning", () => {
    const agent = new core.Agent();
    const log = [];
    agent.steer(user("s1"));
    agent.steer(user("s2"));
    agent.followUp(user("f1"));
    log.push(["queued", agent.hasQueuedMessages(), agent.peekQueuedMessages()]);
    agent.steeringMode = "all";
    log.push(["all", agent.peekQueuedMessages()]);
    agent.clearSteeringQueue();
    log.push(["steering cleared", agent.hasQueuedMessages(), agent.peekQueuedMessages()]);
    agent.followUpMode = "all";
    agent.followUp(user("f2"));
    log.push(["follow-ups all", agent.peekQueuedMessages()]);
    agent.clearFollowUpQueue();
    log.push(["follow-ups cleared", agent.hasQueuedMessages(), agent.peekQueuedMessages()]);
    agent.steer(user("s3"));
    agent.followUp(user("f3"));
    agent.clearAllQueues();
    log.push(["all cleared", agent.hasQueuedMessages(), agent.steeringMode, agent.followUpMode]);
    return log;
  });
  for (const mode of ["one-at-a-time", "all"]) {
    add(`agent.steering.${mode}`, () => {
      const model = goldenModel();
      const replies = [
        answer(model, [call("c1", "count", { n: 1 })], "toolUse"),
        answer(model, [text("after steering 1")]),
        answer(model, [text("after steering 2")]),
        answer(model, [text("after follow-up")]),
      ];
      let queued = false;
      return env.withAnswers(model, replies, () =>
        runAgent(
          agentWith(model, { steeringMode: mode, initialState: { tools: [countTool] } }),
          (agent) => agent.prompt("start"),
          (event, agent) => {
            if (event.type === "tool_execution_start" && !queued) {
              queued = true;
              agent.steer(user("steer one", 11));
              agent.steer(user("steer two", 12));
              agent.followUp(user("follow up", 13));
            }
          },
        ),
      );
    });
  }
  add("agent.followUp.oneAtATime", () => {
    const model = goldenModel();
    const replies = [answer(model, [text("first")]), answer(model, [text("second")]), answer(model, [text("third")])];
    let queued = false;
    return env.withAnswers(model, replies, () =>
      runAgent(
        agentWith(model),
        (agent) => agent.prompt("start"),
        (event, agent) => {
          if (event.type === "agent_start" && !queued) {
            queued = true;
            agent.followUp(user("later one", 11));
            agent.followUp(user("later two", 12));
          }
        },
      ),
    );
  });
  add("agent.steering.queuedBeforePrompt", () => {
    const model = goldenModel();
    return env.withAnswers(model, [answer(model, [text("ok")])], async () => {
      const agent = agentWith(model);
      agent.steer(user("early steer", 11));
      return runAgent(agent, (running) => running.prompt("start"));
    });
  });

  // --- Agent: continue -----------------------------------------------------------
  add("agent.continue.errors", async () => {
    const outcomes = [];
    const attempt = async (agent) => {
      try {
        await agent.continue();
        outcomes.push("resolved");
      } catch (error) {
        outcomes.push(error.message);
      }
    };
    await attempt(new core.Agent());
    await attempt(new core.Agent({ initialState: { systemPrompt: "only system" } }));
    const model = goldenModel();
    await attempt(new core.Agent({ initialState: { model, messages: [user("hi"), answer(model, [text("done")])] } }));
    return outcomes;
  });
  add("agent.continue.fromUser", () => {
    const model = goldenModel();
    return env.withAnswers(model, [answer(model, [text("continued")])], () =>
      runAgent(new core.Agent({ initialState: { model, messages: [user("pending question")] } }), (agent) => agent.continue()),
    );
  });
  add("agent.continue.fromAssistantWithQueuedSteering", () => {
    const model = goldenModel();
    return env.withAnswers(model, [answer(model, [text("steered")]), answer(model, [text("second steer")])], async () => {
      const agent = new core.Agent({ initialState: { model, messages: [user("q"), answer(model, [text("a")])] } });
      agent.steer(user("steer one", 11));
      agent.steer(user("steer two", 12));
      return runAgent(agent, (running) => running.continue());
    });
  });
  add("agent.continue.fromAssistantWithQueuedFollowUp", () => {
    const model = goldenModel();
    return env.withAnswers(model, [answer(model, [text("followed")])], async () => {
      const agent = new core.Agent({ initialState: { model, messages: [user("q"), answer(model, [text("a")])] } });
      agent.followUp(user("follow", 11));
      return runAgent(agent, (running) => running.continue());
    });
  });

  // --- Agent: abort ----------------------------------------------------------------
  add("agent.abort.idleIsHarmless", () => {
    const agent = new core.Agent();
    agent.abort();
    return { signal: agent.signal, state: stateView(agent) };
  });
  add("agent.abort.beforeTheModelAnswers", () => {
    const model = goldenModel();
    return env.withAnswers(model, [answer(model, [text("never seen")])], () =>
      runAgent(
        agentWith(model),
        (agent) => agent.prompt("hi"),
        (event, agent) => {
          if (event.type === "agent_start") agent.abort();
        },
      ),
    );
  });
  add("agent.abort.duringATool", () => {
    const model = goldenModel();
    const replies = [
      answer(model, [call("w1", "wait", {}), call("c1", "count", { n: 1 })], "toolUse"),
      answer(model, [text("never seen")]),
    ];
    return env.withAnswers(model, replies, () =>
      runAgent(
        agentWith(model, { initialState: { tools: [waitForAbortTool, countTool] } }),
        (agent) => agent.prompt("wait"),
        (event, agent) => {
          if (event.type === "tool_execution_start" && event.toolCallId === "c1") agent.abort();
        },
      ),
    );
  });
  add("agent.abort.sequentialSkipsLaterCalls", () => {
    const model = goldenModel();
    const replies = [
      answer(model, [call("c1", "count", { n: 1 }), call("c2", "count", { n: 2 })], "toolUse"),
      answer(model, [text("never seen")]),
    ];
    return env.withAnswers(model, replies, () =>
      runAgent(
        agentWith(model, { toolExecution: "sequential", initialState: { tools: [countTool] } }),
        (agent) => agent.prompt("count"),
        (event, agent) => {
          if (event.type === "tool_execution_end" && event.toolCallId === "c1") agent.abort();
        },
      ),
    );
  });

  // --- Agent: listeners, idle, reset --------------------------------------------
  add("agent.subscribe", () => {
    const model = goldenModel();
    const log = [];
    return env.withAnswers(model, [answer(model, [text("ok")])], async () => {
      const agent = agentWith(model);
      const first = agent.subscribe(async (event) => {
        await sleep(1);
        log.push(`first:${event.type}`);
      });
      let removeSecond;
      removeSecond = agent.subscribe((event) => {
        log.push(`second:${event.type}`);
        if (event.type === "message_end") log.push(`second removed: ${removeSecond()}, again: ${removeSecond()}`);
      });
      await agent.prompt("hi");
      log.push(`first removed: ${first()}`);
      return log;
    });
  });
  add("agent.listenerThrows", () => {
    const model = goldenModel();
    return env.withAnswers(model, [answer(model, [text("ok")])], () => {
      const agent = agentWith(model);
      agent.subscribe((event) => {
        if (event.type === "message_end" && event.message.role === "assistant") throw new Error("listener broke");
      });
      return runAgent(agent, (running) => running.prompt("hi"));
    });
  });
  add("agent.waitForIdle", () => {
    const model = goldenModel();
    const log = [];
    return env.withAnswers(model, [answer(model, [text("ok")])], async () => {
      const agent = agentWith(model);
      await agent.waitForIdle();
      log.push("idle before");
      agent.subscribe(async (event) => {
        if (event.type !== "agent_end") return;
        await sleep(5);
        log.push(`agent_end listener done, streaming: ${agent.state.isStreaming}`);
      });
      const prompted = agent.prompt("hi").then(() => log.push("prompt resolved"));
      log.push(`streaming at once: ${agent.state.isStreaming}`);
      await agent.waitForIdle().then(() => log.push(`idle, streaming: ${agent.state.isStreaming}`));
      await prompted;
      return log;
    });
  });
  add("agent.reset", () => {
    const model = goldenModel();
    return env.withAnswers(model, [answer(model, [text("ok")])], async () => {
      const agent = agentWith(model, { initialState: { tools: [countTool] } });
      await agent.prompt("hi");
      agent.steer(user("queued"));
      const before = stateView(agent);
      agent.reset();
      return { before, after: stateView(agent), queued: agent.hasQueuedMessages() };
    });
  });
  add("agent.reset.withoutSystemMessage", () => {
    const agent = new core.Agent({ initialState: { messages: [user("a")] } });
    agent.reset();
    return stateView(agent);
  });

  // --- Agent: turn hooks ---------------------------------------------------------
  add("agent.finishTurn.end", () => {
    const model = goldenModel();
    const seen = [];
    const replies = [answer(model, [call("c1", "count", { n: 1 })], "toolUse"), answer(model, [text("never")])];
    return env.withAnswers(model, replies, async () => {
      const agent = agentWith(model, {
        initialState: { tools: [countTool] },
        finishTurn: async (turn, signal) => {
          seen.push({
            message: turn.message.stopReason,
            toolResults: turn.toolResults.length,
            added: turn.newMessages.length,
            signal: signal instanceof AbortSignal,
          });
          return { action: "end" };
        },
      });
      return { seen, ...(await runAgent(agent, (running) => running.prompt("go"))) };
    });
  });
  add("agent.finishTurn.continue", () => {
    const model = goldenModel();
    let turns = 0;
    const replies = [answer(model, [text("first")]), answer(model, [text("second")])];
    return env.withAnswers(model, replies, () =>
      runAgent(
        agentWith(model, {
          finishTurn: () => {
            turns += 1;
            return turns === 1 ? { action: "continue" } : undefined;
          },
        }),
        (agent) => agent.prompt("go"),
      ),
    );
  });
  add("agent.prepareRequest", () => {
    const model = goldenModel();
    // The faux provider stamps the requested model's id on its answer, so the models differ by name only.
    const other = { ...model, name: "Other Model" };
    const seen = [];
    const reply = (transcript, options) => {
      seen.push({ reasoning: options.reasoning, roles: transcript.messages.map((message) => message.role) });
      return answer(model, [text("ok")]);
    };
    return env.withAnswers(model, [reply], async () => {
      const agent = agentWith(model, {
        streamFn: (requested, transcript, options) => {
          seen.push(`requested ${requested.name}`);
          return ai.streamSimple(requested, transcript, options);
        },
        prepareRequest: async (request, signal) => {
          seen.push({
            model: request.model.id,
            thinkingLevel: request.thinkingLevel,
            messages: request.context.messages.length,
            signal: signal instanceof AbortSignal,
          });
          const lastOnly = { ...request.context, messages: request.context.messages.slice(-1) };
          return { model: other, thinkingLevel: "medium", context: lastOnly };
        },
      });
      const result = await runAgent(agent, (running) => running.prompt("go"));
      return { seen, ...result };
    });
  });
  for (const variant of ["prepareNextTurn", "prepareNextTurnWithContext"]) {
    add(`agent.${variant}`, () => {
      const model = goldenModel();
      const seen = [];
      const reply = (transcript, options) => {
        seen.push({ reasoning: options.reasoning, last: transcript.messages.at(-1).role });
        return answer(model, [text("ok")]);
      };
      const replies = [answer(model, [call("c1", "count", { n: 1 })], "toolUse"), reply];
      return env.withAnswers(model, replies, async () => {
        const agent = agentWith(model, {
          initialState: { tools: [countTool] },
          [variant]: async (...args) => {
            const [first, second] = args;
            seen.push(
              variant === "prepareNextTurn"
                ? { args: args.length, signal: first instanceof AbortSignal }
                : {
                    turn: first.message.stopReason,
                    results: first.toolResults.length,
                    signal: second instanceof AbortSignal,
                  },
            );
            return { messages: [user("injected", 21)], thinkingLevel: "low" };
          },
        });
        const result = await runAgent(agent, (running) => running.prompt("go"));
        return { seen, ...result };
      });
    });
  }

  // --- default stream function ------------------------------------------------------
  add("setDefaultStreamFn.custom", async () => {
    const model = goldenModel();
    const calls = [];
    core.setDefaultStreamFn((requested, transcript, options) => {
      const roles = transcript.messages.map((message) => message.role);
      calls.push({ model: requested.id, roles, reasoning: options.reasoning });
      const stream = ai.createAssistantMessageEventStream();
      const message = answer(requested, [text("from the custom default")]);
      queueMicrotask(() => {
        stream.push({ type: "start", partial: { ...message, content: [] } });
        stream.push({ type: "done", reason: "stop", message });
        stream.end(message);
      });
      return stream;
    });
    try {
      const agent = agentWith(model);
      return { calls, ...(await runAgent(agent, (running) => running.prompt("hi"))) };
    } finally {
      core.setDefaultStreamFn(ai.streamSimple);
    }
  });
  add("setDefaultStreamFn.unset", async () => {
    const model = goldenModel();
    core.setDefaultStreamFn(undefined);
    const outcomes = [];
    try {
      try {
        new core.Agent();
        outcomes.push("constructed");
      } catch (error) {
        outcomes.push(error.message);
      }
      const agent = new core.Agent({ streamFn: ai.streamSimple, initialState: { model } });
      outcomes.push("constructed with streamFn");
      try {
        await core.runAgentLoop([user("hi")], { messages: [] }, { model, convertToLlm: (messages) => messages }, async () => {});
        outcomes.push("loop resolved");
      } catch (error) {
        outcomes.push(error.message);
      }
      outcomes.push(typeof agent.prompt);
    } finally {
      core.setDefaultStreamFn(ai.streamSimple);
    }
    return outcomes;
  });
  add("setDefaultStreamFn.returns", () => {
    const result = core.setDefaultStreamFn(ai.streamSimple);
    return { result };
  });

  // --- low-level loops -----------------------------------------------------------------
  const loopConfig = (model, extra = {}) => ({ model, convertToLlm: (messages) => messages, ...extra });
  const collect = async (stream) => {
    const events = [];
    for await (const event of stream) events.push(eventView(event));
    return { events, result: tidy(await stream.result()) };
  };
  add("agentLoop.text", () => {
    const model = goldenModel();
    return env.withAnswers(model, [answer(model, [text("loop answer")])], async () => {
      const context = { messages: [{ role: "system", content: "Sys.", timestamp: 0 }] };
      const outcome = await collect(core.agentLoop([user("hi")], context, loopConfig(model)));
      return { ...outcome, callerMessages: context.messages.length };
    });
  });
  add("agentLoop.tools", () => {
    const model = goldenModel();
    const replies = [answer(model, [call("c1", "count", { n: 3 })], "toolUse"), answer(model, [text("counted")])];
    return env.withAnswers(model, replies, async () => {
      const context = { messages: [], tools: [countTool] };
      return collect(core.agentLoop([user("count")], context, loopConfig(model, { toolExecution: "sequential" })));
    });
  });
  add("agentLoop.promptWithToolIntent", () => {
    const model = goldenModel();
    return env.withAnswers(model, [answer(model, [text("ok")])], async () => {
      const context = { messages: [], tools: [countTool] };
      const prompts = [
        { role: "system", content: "Sys.", toolsAdded: [{ name: "ghost", description: "x", parameters: {} }], timestamp: 3 },
        user("hi"),
      ];
      return collect(core.agentLoop(prompts, context, loopConfig(model)));
    });
  });
  add("agentLoop.signalAbortedUpFront", () => {
    const model = goldenModel();
    const controller = new AbortController();
    controller.abort();
    return env.withAnswers(model, [answer(model, [text("never")])], () =>
      collect(core.agentLoop([user("hi")], { messages: [] }, loopConfig(model), controller.signal)),
    );
  });
  add("agentLoop.explicitStreamFn", () => {
    const model = goldenModel();
    const seen = [];
    const streamFn = async (requested, transcript, options) => {
      seen.push(tidy({ identity: options.identity, apiKey: options.apiKey, reasoning: options.reasoning }));
      return ai.streamSimple(requested, transcript, options);
    };
    return env.withAnswers(model, [answer(model, [text("ok")])], async () => {
      const config = loopConfig(model, { apiKey: "static-key", reasoning: "minimal", identity: { version: "9.9" } });
      const outcome = await collect(core.agentLoop([user("hi")], { messages: [] }, config, undefined, streamFn));
      return { seen, ...outcome };
    });
  });
  add("agentLoopContinue.errors", () => {
    const model = goldenModel();
    const outcomes = [];
    for (const messages of [[], [user("q"), answer(model, [text("a")])]]) {
      try {
        core.agentLoopContinue({ messages }, loopConfig(model));
        outcomes.push("no error");
      } catch (error) {
        outcomes.push(error.message);
      }
    }
    return outcomes;
  });
  add("runAgentLoopContinue.errors", async () => {
    const model = goldenModel();
    const outcomes = [];
    for (const messages of [[], [answer(model, [text("a")])]]) {
      const events = [];
      try {
        await core.runAgentLoopContinue({ messages }, loopConfig(model), async (event) => events.push(event.type));
        outcomes.push("resolved");
      } catch (error) {
        outcomes.push({ error: error.message, events });
      }
    }
    return outcomes;
  });
  add("agentLoopContinue.fromToolResult", () => {
    const model = goldenModel();
    return env.withAnswers(model, [answer(model, [text("continued")])], async () => {
      const messages = [
        user("q"),
        answer(model, [call("c1", "count", { n: 1 })], "toolUse"),
        { role: "toolResult", toolCallId: "c1", toolName: "count", content: [text("1")], isError: false, timestamp: 4 },
      ];
      const outcome = await collect(core.agentLoopContinue({ messages }, loopConfig(model)));
      // The continuing loop works on the caller's array, unlike a prompted one.
      return { ...outcome, callerMessages: messages.length };
    });
  });
  add("runAgentLoop.events", () => {
    const model = goldenModel();
    return env.withAnswers(model, [answer(model, [text("direct")])], async () => {
      const events = [];
      const added = await core.runAgentLoop([user("hi")], { messages: [] }, loopConfig(model), async (event) => {
        events.push(eventView(event));
      });
      return { events, added: tidy(added) };
    });
  });
  add("runAgentLoop.steeringAndFollowUps", () => {
    const model = goldenModel();
    const replies = [answer(model, [text("one")]), answer(model, [text("two")]), answer(model, [text("three")])];
    return env.withAnswers(model, replies, async () => {
      const steering = [[user("initial steer", 11)], [], []];
      const followUps = [[user("follow", 12)], []];
      const polls = [];
      const config = loopConfig(model, {
        getSteeringMessages: async () => {
          polls.push("steering");
          return steering.shift() ?? [];
        },
        getFollowUpMessages: async () => {
          polls.push("followUp");
          return followUps.shift() ?? [];
        },
      });
      const events = [];
      const added = await core.runAgentLoop([user("hi")], { messages: [] }, config, async (event) => events.push(event.type));
      return { polls, events, added: tidy(added) };
    });
  });

  // --- streamProxy: the server is a stand-in fetch ------------------------------------
  if (core.streamProxy) addProxyCases(add, { ai, core, env, goldenModel, answer });

  // --- runToolCall -------------------------------------------------------------------
  const assistantMessage = (model) => answer(model, [call("r1", "count", { n: 1 })], "toolUse");
  const runCall = async (toolCall, options) => tidy(await core.runToolCall(toolCall, options));
  add("runToolCall.cases", async () => {
    const model = goldenModel();
    const context = { messages: [], tools: [countTool, boomTool, progressTool] };
    const base = { assistantMessage: assistantMessage(model), context };
    const aborted = new AbortController();
    aborted.abort();
    const updates = [];
    return {
      success: await runCall(call("r1", "count", { n: 1 }), base),
      unknown: await runCall(call("r2", "nope", {}), base),
      invalid: await runCall(call("r3", "count", { n: "x" }), base),
      throws: await runCall(call("r4", "boom", {}), base),
      aborted: await runCall(call("r5", "count", { n: 1 }), { ...base, signal: aborted.signal }),
      blocked: await runCall(call("r6", "count", { n: 1 }), { ...base, beforeToolCall: async () => ({ block: true }) }),
      amended: await runCall(call("r7", "count", { n: 1 }), {
        ...base,
        afterToolCall: async ({ result }) => ({ content: [text(`amended ${result.content[0].text}`)], terminate: true }),
      }),
      withUpdates: await runCall(call("r8", "progress", {}), { ...base, onUpdate: (partial) => updates.push(partial) }),
      updates,
      withoutUpdateCallback: await runCall(call("r9", "progress", {}), base),
      toolsOverride: await runCall(call("r10", "boom", {}), { ...base, tools: [countTool] }),
    };
  });
  add("runToolCall.structuredContent", async () => {
    const model = goldenModel();
    const structured = {
      ...countTool,
      name: "structured",
      execute: async () => ({ content: [text("a")], details: {}, structuredContent: { a: 1 } }),
    };
    const context = { messages: [], tools: [structured] };
    const base = { assistantMessage: assistantMessage(model), context };
    return {
      kept: await runCall(call("s1", "structured", { n: 1 }), { ...base, afterToolCall: async () => ({ details: { d: 1 } }) }),
      droppedWithNewContent: await runCall(call("s2", "structured", { n: 1 }), {
        ...base,
        afterToolCall: async () => ({ content: [text("b")] }),
      }),
      replaced: await runCall(call("s3", "structured", { n: 1 }), {
        ...base,
        afterToolCall: async () => ({ content: [text("c")], structuredContent: { c: 3 } }),
      }),
    };
  });
}

/** Runs `run` with `fake` as the global fetch, restoring the real one after. */
async function withFetch(fake, run) {
  const saved = Object.getOwnPropertyDescriptor(globalThis, "fetch");
  Object.defineProperty(globalThis, "fetch", { value: fake, configurable: true, writable: true, enumerable: false });
  try {
    return await run();
  } finally {
    if (saved) Object.defineProperty(globalThis, "fetch", saved);
    else delete globalThis.fetch;
  }
}

/** A response body that yields `chunks` (strings) one read at a time, then ends unless `open`. */
function chunkedBody(chunks, open = false) {
  const encoder = new TextEncoder();
  let index = 0;
  return new ReadableStream({
    pull(controller) {
      if (index < chunks.length) controller.enqueue(encoder.encode(chunks[index++]));
      else if (!open) controller.close();
      // An open body never answers the next read: only a cancel ends it.
      else return new Promise(() => {});
    },
  });
}

const sse = (...events) => events.map((event) => `data: ${JSON.stringify(event)}\n`);

const PROXY_USAGE = {
  input: 1,
  output: 2,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 3,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

function addProxyCases(add, { ai, core, env, goldenModel, answer }) {
  const context = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };
  const options = (extra = {}) => ({
    proxyUrl: "https://proxy.invalid",
    authToken: "token-1",
    maxTokens: 50,
    reasoning: "low",
    sessionId: "s-1",
    apiKey: "never forwarded",
    onPayload: () => {},
    ...extra,
  });

  /** The request the fake server saw, the events as pushed, the iterated types and the result. */
  async function proxied(respond, extraOptions, onPush) {
    const requests = [];
    const warnings = [];
    const model = goldenModel();
    const fake = async (url, init) => {
      requests.push({
        url,
        method: init.method,
        headers: init.headers,
        body: JSON.parse(init.body),
        signal: init.signal instanceof AbortSignal,
      });
      return respond(init);
    };
    const warn = console.warn;
    console.warn = (...args) => warnings.push(args.join(" "));
    try {
      return await withFetch(fake, async () => {
        const stream = core.streamProxy(model, context, options(extraOptions));
        const pushed = [];
        const push = stream.push;
        stream.push = function (event) {
          pushed.push(tidy(event));
          onPush?.(event);
          return push.call(this, event);
        };
        const iterated = [];
        for await (const event of stream) iterated.push(event.type);
        return tidy({ requests, pushed, iterated, result: await stream.result(), warnings });
      });
    } finally {
      console.warn = warn;
    }
  }
  const ok = (chunks, open) => () => new Response(chunkedBody(chunks, open), { status: 200 });

  add("streamProxy.text", () =>
    proxied(
      ok([
        ...sse({ type: "start" }, { type: "text_start", contentIndex: 0 }),
        'data: {"type":"text_delta","contentIndex":0,"del',
        'ta":"Hel"}\ndata: {"type":"text_delta","contentIndex":0,"delta":"lo"}\n\n',
        ": a comment line\n",
        ...sse(
          { type: "text_end", contentIndex: 0, contentSignature: "sig-1" },
          { type: "done", reason: "stop", usage: PROXY_USAGE, providerThinkingLevel: "low" },
        ),
      ]),
    ),
  );
  add("streamProxy.thinkingAndToolCall", () =>
    proxied(
      ok(
        sse(
          { type: "start" },
          { type: "thinking_start", contentIndex: 0 },
          { type: "thinking_delta", contentIndex: 0, delta: "plan" },
          { type: "thinking_end", contentIndex: 0 },
          { type: "toolcall_start", contentIndex: 1, id: "t1", toolName: "count" },
          { type: "toolcall_delta", contentIndex: 1, delta: '{"n": 4' },
          { type: "toolcall_delta", contentIndex: 1, delta: ', "m": [1' },
          {
            type: "toolcall_end",
            contentIndex: 1,
            toolCall: { type: "toolCall", id: "t1", name: "count", arguments: { n: 4, m: [1] } },
          },
          { type: "toolcall_end", contentIndex: 5, toolCall: { type: "toolCall", id: "t9", name: "x", arguments: {} } },
          { type: "done", reason: "toolUse", usage: PROXY_USAGE },
        ),
      ),
    ),
  );
  add("streamProxy.lastEventWithoutNewline", () =>
    proxied(ok([...sse({ type: "start" }), `data: ${JSON.stringify({ type: "done", reason: "stop", usage: PROXY_USAGE })}`])),
  );
  add("streamProxy.serverErrorEvent", () =>
    proxied(
      ok(sse({ type: "start" }, { type: "error", reason: "error", errorMessage: "upstream failed", usage: PROXY_USAGE })),
    ),
  );
  add("streamProxy.droppedConnection", () => proxied(ok(sse({ type: "start" }, { type: "text_start", contentIndex: 0 }))));
  add("streamProxy.httpErrorWithJson", () =>
    proxied(() => new Response(JSON.stringify({ error: "quota exceeded" }), { status: 429, statusText: "Too Many Requests" })),
  );
  add("streamProxy.httpErrorWithoutJson", () =>
    proxied(() => new Response("<html>", { status: 502, statusText: "Bad Gateway" })),
  );
  add("streamProxy.fetchRejects", () =>
    proxied(() => {
      throw new TypeError("fetch failed");
    }),
  );
  add("streamProxy.mismatchedDelta", () =>
    proxied(
      ok(
        sse(
          { type: "start" },
          { type: "thinking_start", contentIndex: 0 },
          { type: "text_delta", contentIndex: 0, delta: "x" },
        ),
      ),
    ),
  );
  add("streamProxy.unknownEvent", () =>
    proxied(ok(sse({ type: "start" }, { type: "mystery" }, { type: "done", reason: "stop", usage: PROXY_USAGE }))),
  );
  add("streamProxy.abortedUpFront", () => {
    const controller = new AbortController();
    controller.abort();
    return proxied((init) => {
      if (init.signal?.aborted) throw new Error("This operation was aborted");
      return ok([])();
    }, { signal: controller.signal });
  });
  add("streamProxy.abortedWhileReading", () => {
    const controller = new AbortController();
    const abortOnText = (event) => {
      if (event.type === "text_start") controller.abort();
    };
    const events = sse({ type: "start" }, { type: "text_start", contentIndex: 0 });
    return proxied(ok(events, true), { signal: controller.signal }, abortOnText);
  });
  add("streamProxy.asAgentStreamFn", () => {
    const model = goldenModel();
    const requests = [];
    const fake = async (url, init) => {
      requests.push(JSON.parse(init.body).context.messages.map((message) => message.role));
      return new Response(
        chunkedBody(
          sse(
            { type: "start" },
            { type: "text_start", contentIndex: 0 },
            { type: "text_delta", contentIndex: 0, delta: "via proxy" },
            { type: "text_end", contentIndex: 0 },
            { type: "done", reason: "stop", usage: PROXY_USAGE },
          ),
        ),
      );
    };
    return withFetch(fake, async () => {
      const agent = new core.Agent({
        initialState: { systemPrompt: "Sys.", model },
        streamFn: (requested, transcript, streamOptions) =>
          core.streamProxy(requested, transcript, { ...streamOptions, proxyUrl: "https://proxy.invalid", authToken: "t" }),
      });
      await agent.prompt("hi");
      return tidy({ requests, messages: agent.state.messages });
    });
  });
}
