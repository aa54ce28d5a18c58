// Cases of pi-coding-agent's createAgentSession / AgentSession for the pi
// package case table (pi-packages-cases.mjs), shaped after the sub-agent
// pi-btw runs: an in-memory session, the model given, a resource loader of
// the extension's own, prompts, events, abort and dispose. Model calls are
// answered by pi-ai's faux provider through a model runtime that forwards to
// pi-ai's streamSimple (pi's own runtime would want stored credentials; in
// pihost the host answers). Each case works in a fresh temp directory with
// PI_CODING_AGENT_DIR inside it. Results are reduced to stable data: event
// streams to their types and messages, timestamps and durations dropped,
// paths as <tmp> / <docs>, entry ids renamed in order (session-manager's
// stabilizer).

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { stabilizer } from "./session-manager-cases.mjs";

const FAUX_API = "pihost-session-faux";
const FAUX_PROVIDER = "faux-session";
const ONE_CHUNK = { min: 1_000_000, max: 1_000_000 };
const BTW_SYSTEM_PROMPT = "You are having an aside conversation with the user, separate from their main working session.";
const DOCS_PATH = /\S*\/pi-coding-agent\/docs/g;

/** Runs `run(env)` in a temp directory with a faux provider registered; everything is undone afterwards. */
async function withSession(ai, options, run) {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pihost-session-")));
  const previousAgentDir = process.env.PI_CODING_AGENT_DIR;
  process.env.PI_CODING_AGENT_DIR = path.join(tmp, "agent");
  const faux = ai.registerFauxProvider({
    api: FAUX_API,
    provider: FAUX_PROVIDER,
    models: options.models ?? [{ id: "faux-1", reasoning: false }],
    tokenSize: options.tokenSize ?? ONE_CHUNK,
  });
  faux.setResponses(options.responses ?? []);
  const seen = [];
  const modelRuntime = {
    hasConfiguredAuth: () => options.auth !== false,
    checkAuth: async () => (options.auth === false ? undefined : {}),
    isUsingOAuth: () => false,
    getModel: (provider, id) => faux.models.find((model) => model.provider === provider && model.id === id),
    getPhysicalModel: (provider, id) => faux.models.find((model) => model.provider === provider && model.id === id),
    getAvailableSnapshot: () => options.available ?? [],
    getAuth: async () => ({ auth: { apiKey: "faux-key" } }),
    streamSimple: (model, context, streamOptions) => {
      seen.push(context.messages.map(describeSeen));
      return ai.streamSimple(model, context, streamOptions);
    },
  };
  const stable = stabilizer(tmp);
  try {
    return stable(reduceDocs(await run({ tmp, faux, model: faux.getModel(), modelRuntime, seen })));
  } catch (error) {
    return stable(reduceDocs({ error: error.message }));
  } finally {
    faux.unregister();
    if (previousAgentDir === undefined) delete process.env.PI_CODING_AGENT_DIR;
    else process.env.PI_CODING_AGENT_DIR = previousAgentDir;
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function reduceDocs(value) {
  return JSON.parse(JSON.stringify(value, (_key, item) => (typeof item === "string" ? item.replace(DOCS_PATH, "<docs>") : item)));
}

function describeSeen(message) {
  if (message.role === "system") return { role: "system", sections: Object.keys(message.sections ?? {}), tools: (message.toolsAdded ?? []).map((tool) => tool.name) };
  return { role: message.role, text: textOf(message.content) };
}

function textOf(content) {
  if (typeof content === "string") return content;
  return (content ?? []).map((block) => block.text ?? block.thinking ?? (block.type === "toolCall" ? `${block.name}(${JSON.stringify(block.arguments)})` : `[${block.type}]`)).join("|");
}

/** A message without its clock or timing data; system messages name their tools. */
function reduceMessage(message) {
  const { timestamp: _timestamp, durationMs: _durationMs, ...rest } = message;
  if (rest.toolsAdded) rest.toolsAdded = rest.toolsAdded.map((tool) => tool.name);
  if (rest.toolsRemoved) rest.toolsRemoved = rest.toolsRemoved.map((tool) => tool.name);
  return rest;
}

function reduceEvent(event) {
  switch (event.type) {
    case "message_start":
    case "message_end":
      return { type: event.type, message: reduceMessage(event.message) };
    case "message_update":
      return { type: event.type, update: event.assistantMessageEvent.type, role: event.message.role };
    case "tool_execution_start":
    case "tool_execution_update":
    case "tool_execution_end": {
      const { durationMs: _durationMs, ...rest } = event;
      return rest;
    }
    case "turn_end":
      return { type: event.type, stopReason: event.message.stopReason, toolResults: event.toolResults.map(reduceMessage) };
    case "agent_end":
      return { type: event.type, roles: event.messages.map((message) => message.role), willRetry: event.willRetry };
    default:
      return event;
  }
}

function reduceEntries(sessionManager) {
  return sessionManager.getEntries().map((entry) => {
    const { timestamp: _timestamp, message, ...rest } = entry;
    return message ? { ...rest, message: reduceMessage(message) } : rest;
  });
}

/** The resource loader pi-btw builds: no extensions or resources, its own prompt and addendum. */
function btwResourceLoader(agent, appendSystemPrompt = [BTW_SYSTEM_PROMPT], systemPrompt = "Main system prompt.") {
  const extensionsResult = { extensions: [], errors: [], runtime: agent.createExtensionRuntime() };
  return {
    getExtensions: () => extensionsResult,
    getSkills: () => ({ skills: [], diagnostics: [] }),
    getPrompts: () => ({ prompts: [], diagnostics: [] }),
    getThemes: () => ({ themes: [], diagnostics: [] }),
    getAgentsFiles: () => ({ agentsFiles: [] }),
    getSystemPrompt: () => systemPrompt,
    getAppendSystemPrompt: () => appendSystemPrompt,
    extendResources: () => {},
    reload: async () => {},
  };
}

function lastAssistant(session) {
  for (let index = session.state.messages.length - 1; index >= 0; index--) {
    const message = session.state.messages[index];
    if (message.role === "assistant") return message;
  }
  return null;
}

async function btwSession(agent, env, extra = {}) {
  return agent.createAgentSession({
    sessionManager: agent.SessionManager.inMemory(env.tmp),
    model: env.model,
    modelRegistry: {},
    modelRuntime: env.modelRuntime,
    thinkingLevel: "off",
    tools: ["read", "bash", "edit", "write"],
    resourceLoader: btwResourceLoader(agent),
    ...extra,
  });
}

function recordEvents(session) {
  const events = [];
  const unsubscribe = session.subscribe((event) => events.push(reduceEvent(event)));
  return { events, unsubscribe };
}

function sessionState(session) {
  return {
    messages: session.state.messages.map(reduceMessage),
    isStreaming: session.isStreaming,
    isIdle: session.isIdle,
    model: session.model && `${session.model.provider}/${session.model.id}`,
    thinkingLevel: session.thinkingLevel,
    activeTools: session.getActiveToolNames(),
    systemPrompt: session.systemPrompt,
    entries: reduceEntries(session.sessionManager),
  };
}

/** Adds the cases through `add(name, run)`; `ai` is pi-ai, `agent` pi-coding-agent. */
export function addAgentSessionCases(add, { ai, agent }) {
  add("agentSession.createResult", () =>
    withSession(ai, {}, async (env) => {
      const result = await btwSession(agent, env);
      const { session } = result;
      const shape = {
        keys: Object.keys(result),
        modelFallbackMessage: result.modelFallbackMessage,
        extensions: result.extensionsResult.extensions.length,
        isAgentSession: session instanceof agent.AgentSession,
        sessionId: typeof session.sessionId,
        state: sessionState(session),
        allTools: session.getAllTools().map((tool) => [tool.name, tool.exposure, tool.sourceInfo?.source]),
        levels: session.getAvailableThinkingLevels(),
        supportsThinking: session.supportsThinking(),
        pending: session.pendingMessageCount,
      };
      session.dispose();
      return shape;
    }),
  );

  add("agentSession.promptText", () =>
    withSession(ai, { responses: [ai.fauxAssistantMessage("hello there", { timestamp: 1 })] }, async (env) => {
      const { session } = await btwSession(agent, env);
      const { events } = recordEvents(session);
      await session.prompt("hi", { source: "extension" });
      const result = { events, state: sessionState(session), seen: env.seen, last: session.getLastAssistantText() };
      session.dispose();
      return result;
    }),
  );

  add("agentSession.readToolCall", () =>
    withSession(
      ai,
      {
        responses: [
          ai.fauxAssistantMessage([ai.fauxToolCall("read", { path: "notes.txt" }, { id: "call-1" })], { stopReason: "toolUse", timestamp: 1 }),
          ai.fauxAssistantMessage([ai.fauxToolCall("read", { path: "missing.txt" }, { id: "call-2" })], { stopReason: "toolUse", timestamp: 2 }),
          ai.fauxAssistantMessage("The notes say alpha.", { timestamp: 3 }),
        ],
      },
      async (env) => {
        fs.writeFileSync(path.join(env.tmp, "notes.txt"), "alpha\nbeta\n");
        const { session } = await btwSession(agent, env);
        const { events } = recordEvents(session);
        await session.prompt("what do the notes say?", { source: "extension" });
        const result = { events, state: sessionState(session), seen: env.seen };
        session.dispose();
        return result;
      },
    ),
  );

  // pi-btw seeds the agent's messages; the request is projected from the session, which does not have them.
  add("agentSession.btwSeededThread", () =>
    withSession(ai, { responses: [ai.fauxAssistantMessage([{ type: "thinking", thinking: "hmm" }, { type: "text", text: "Side answer." }], { timestamp: 1 })] }, async (env) => {
      const { session } = await btwSession(agent, env);
      session.agent.state.messages = [
        { role: "user", content: [{ type: "text", text: "[The following is a separate side conversation. Continue this thread.]" }], timestamp: 1 },
        {
          role: "assistant",
          content: [{ type: "text", text: "Understood, continuing our side conversation." }],
          provider: FAUX_PROVIDER,
          model: "faux-1",
          api: FAUX_API,
          usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
          stopReason: "stop",
          timestamp: 2,
        },
      ];
      const transcript = [];
      const unsubscribe = session.subscribe((event) => transcript.push([event.type, event.message?.role ?? event.toolName ?? null, session.isStreaming]));
      await session.prompt("side question?", { source: "extension" });
      const response = lastAssistant(session);
      unsubscribe();
      await session.abort();
      session.dispose();
      return {
        transcript,
        response: reduceMessage(response),
        seen: env.seen,
        messages: session.state.messages.map(reduceMessage),
        afterDispose: { isStreaming: session.isStreaming, isIdle: session.isIdle },
      };
    }),
  );

  add("agentSession.btwSummarizeNoTools", () =>
    withSession(ai, { responses: [ai.fauxAssistantMessage("Summary: decided X.", { timestamp: 1 })] }, async (env) => {
      const { session } = await btwSession(agent, env, {
        tools: [],
        resourceLoader: btwResourceLoader(agent, ["Summarize the side conversation concisely. Output only the summary."]),
      });
      try {
        await session.prompt("User: a\nAssistant: b", { source: "extension" });
        return { response: reduceMessage(lastAssistant(session)), state: sessionState(session), seen: env.seen };
      } finally {
        await session.abort();
        session.dispose();
      }
    }),
  );

  add("agentSession.abortWhileStreaming", () =>
    withSession(ai, { responses: [ai.fauxAssistantMessage("word ".repeat(40).trim(), { timestamp: 1 })], tokenSize: { min: 1, max: 1 } }, async (env) => {
      const { session } = await btwSession(agent, env);
      const { events } = recordEvents(session);
      let abortCall;
      session.subscribe((event) => {
        if (event.type === "message_update" && !abortCall) abortCall = session.abort();
      });
      await session.prompt("long answer please", { source: "extension" });
      await abortCall;
      const response = lastAssistant(session);
      const result = {
        types: events.map((event) => event.type).filter((type, index, all) => type !== "message_update" || all[index - 1] !== "message_update"),
        settled: events.filter((event) => event.type === "agent_settled"),
        stopReason: response.stopReason,
        errorMessage: response.errorMessage,
        isStreaming: session.isStreaming,
        entries: reduceEntries(session.sessionManager).map((entry) => entry.type + (entry.message ? `:${entry.message.role}` : "")),
      };
      session.dispose();
      return result;
    }),
  );

  add("agentSession.disposeDropsListeners", () =>
    withSession(ai, { responses: [ai.fauxAssistantMessage("one", { timestamp: 1 }), ai.fauxAssistantMessage("two", { timestamp: 2 })] }, async (env) => {
      const { session } = await btwSession(agent, env);
      const { events } = recordEvents(session);
      await session.prompt("first", { source: "extension" });
      const before = events.length;
      session.dispose();
      let secondError;
      try {
        await session.prompt("second", { source: "extension" });
      } catch (error) {
        secondError = error.message;
      }
      return {
        before,
        after: events.length,
        secondError,
        roles: session.state.messages.map((message) => message.role),
        entries: reduceEntries(session.sessionManager).map((entry) => entry.type + (entry.message ? `:${entry.message.role}` : "")),
      };
    }),
  );

  add("agentSession.unsubscribe", () =>
    withSession(ai, { responses: [ai.fauxAssistantMessage("ok", { timestamp: 1 })] }, async (env) => {
      const { session } = await btwSession(agent, env);
      const first = recordEvents(session);
      const second = recordEvents(session);
      second.unsubscribe();
      second.unsubscribe();
      await session.prompt("x");
      session.dispose();
      return { first: first.events.length, second: second.events.length };
    }),
  );

  add("agentSession.busyPromptAndQueues", () =>
    withSession(
      ai,
      {
        responses: [
          ai.fauxAssistantMessage("first answer", { timestamp: 1 }),
          ai.fauxAssistantMessage("steered answer", { timestamp: 2 }),
          ai.fauxAssistantMessage("follow-up answer", { timestamp: 3 }),
        ],
      },
      async (env) => {
        const { session } = await btwSession(agent, env);
        const { events } = recordEvents(session);
        const outcomes = [];
        let queued = false;
        session.subscribe(async (event) => {
          if (event.type !== "message_start" || event.message.role !== "assistant" || queued) return;
          queued = true;
          for (const [text, options] of [
            ["no behavior", undefined],
            ["later", { streamingBehavior: "followUp" }],
            ["now", { streamingBehavior: "steer" }],
          ]) {
            try {
              await session.prompt(text, options);
              outcomes.push([text, "ok", session.pendingMessageCount]);
            } catch (error) {
              outcomes.push([text, error.message]);
            }
          }
          outcomes.push(["queues", [...session.getSteeringMessages()], [...session.getFollowUpMessages()]]);
        });
        await session.prompt("start", { source: "extension" });
        await session.waitForIdle();
        const result = {
          outcomes,
          queueEvents: events.filter((event) => event.type === "queue_update"),
          userTexts: session.state.messages.filter((message) => message.role === "user").map((message) => textOf(message.content)),
          answers: session.state.messages.filter((message) => message.role === "assistant").map((message) => textOf(message.content)),
          seen: env.seen.map((messages) => messages.filter((message) => message.role !== "system").map((message) => message.text)),
        };
        session.dispose();
        return result;
      },
    ),
  );

  add("agentSession.noModel", () =>
    withSession(ai, {}, async (env) => {
      const { session, modelFallbackMessage } = await agent.createAgentSession({
        sessionManager: agent.SessionManager.inMemory(env.tmp),
        modelRuntime: env.modelRuntime,
        tools: ["read"],
        resourceLoader: btwResourceLoader(agent),
      });
      let promptError;
      try {
        await session.prompt("hello");
      } catch (error) {
        promptError = error.message;
      }
      const result = { modelFallbackMessage, promptError, thinkingLevel: session.thinkingLevel, model: session.model ?? null, entries: reduceEntries(session.sessionManager) };
      session.dispose();
      return result;
    }),
  );

  add("agentSession.noApiKey", () =>
    withSession(ai, { auth: false }, async (env) => {
      const { session } = await btwSession(agent, env);
      let promptError;
      try {
        await session.prompt("hello");
      } catch (error) {
        promptError = error.message;
      }
      const result = { promptError, roles: session.state.messages.map((message) => message.role), isStreaming: session.isStreaming };
      session.dispose();
      return result;
    }),
  );

  add("agentSession.modelFromAvailable", () =>
    withSession(ai, {}, async (env) => {
      env.modelRuntime.getAvailableSnapshot = () => [env.model];
      const { session, modelFallbackMessage } = await agent.createAgentSession({
        sessionManager: agent.SessionManager.inMemory(env.tmp),
        modelRuntime: env.modelRuntime,
        tools: [],
        resourceLoader: btwResourceLoader(agent),
      });
      const result = { modelFallbackMessage, model: `${session.model.provider}/${session.model.id}`, thinkingLevel: session.thinkingLevel };
      session.dispose();
      return result;
    }),
  );

  for (const [name, tools, extra] of [
    ["unknownToolNames", ["read", "nope", "ls"]],
    ["toolPatterns", ["*r*"]],
    ["toolModifiers", ["-bash", "+ls", "+nope"]],
    ["mixedToolList", ["read", "+ls"]],
    ["modifierPattern", ["+l*"]],
    ["excludeTools", undefined, { excludeTools: ["e*"] }],
    ["noToolsAll", undefined, { noTools: "all" }],
    ["noToolsBuiltin", undefined, { noTools: "builtin" }],
    ["defaultTools", undefined],
  ]) {
    add(`agentSession.tools.${name}`, () =>
      withSession(ai, {}, async (env) => {
        const { session } = await btwSession(agent, env, { tools, ...extra });
        const result = {
          active: session.getActiveToolNames(),
          all: session.getAllTools().map((tool) => tool.name),
          systemPrompt: session.systemPrompt,
        };
        session.setActiveToolsByName(["grep", "read", "nope"]);
        result.afterSet = session.getActiveToolNames();
        session.dispose();
        return result;
      }),
    );
  }

  add("agentSession.customTool", () =>
    withSession(
      ai,
      {
        responses: [
          ai.fauxAssistantMessage([ai.fauxToolCall("echo", { text: "ping" }, { id: "call-e" })], { stopReason: "toolUse", timestamp: 1 }),
          ai.fauxAssistantMessage("echoed", { timestamp: 2 }),
        ],
      },
      async (env) => {
        const echo = {
          name: "echo",
          label: "Echo",
          description: "Echoes text back.",
          promptSnippet: "Echo text\nback",
          promptGuidelines: ["Use echo for echoes.", "Use echo for echoes."],
          parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
          execute: async (_id, params) => ({ content: [{ type: "text", text: `echo: ${params.text}` }], details: { length: params.text.length } }),
        };
        const { session } = await btwSession(agent, env, { tools: undefined, customTools: [echo], resourceLoader: btwResourceLoader(agent, [], undefined) });
        const { events } = recordEvents(session);
        await session.prompt("echo ping");
        const result = {
          active: session.getActiveToolNames(),
          systemPrompt: session.systemPrompt,
          tools: events.filter((event) => event.type.startsWith("tool_execution")),
          definition: session.getToolDefinition("echo") === echo,
        };
        session.dispose();
        return result;
      },
    ),
  );

  add("agentSession.thinkingLevels", () =>
    withSession(ai, { models: [{ id: "faux-think", reasoning: true }, { id: "faux-plain", reasoning: false }] }, async (env) => {
      const thinking = env.faux.models[0];
      const plain = env.faux.models[1];
      const { session } = await btwSession(agent, env, { model: thinking, thinkingLevel: "high" });
      const { events } = recordEvents(session);
      const steps = [[session.thinkingLevel, session.getAvailableThinkingLevels(), session.supportsThinking()]];
      session.setThinkingLevel("low");
      session.setThinkingLevel("low");
      steps.push(session.thinkingLevel);
      steps.push(session.cycleThinkingLevel());
      await session.setModel(plain);
      steps.push([session.model.id, session.thinkingLevel, session.getAvailableThinkingLevels(), session.cycleThinkingLevel()]);
      session.setThinkingLevel("xhigh");
      steps.push(session.thinkingLevel);
      const result = { steps, events, entries: reduceEntries(session.sessionManager) };
      session.dispose();
      return result;
    }),
  );

  add("agentSession.customMessages", () =>
    withSession(
      ai,
      {
        responses: [
          ai.fauxAssistantMessage([ai.fauxToolCall("read", { path: "a.txt" }, { id: "call-a" })], { stopReason: "toolUse", timestamp: 1 }),
          ai.fauxAssistantMessage("after tool", { timestamp: 2 }),
          ai.fauxAssistantMessage("triggered", { timestamp: 3 }),
          ai.fauxAssistantMessage("user message answer", { timestamp: 4 }),
        ],
      },
      async (env) => {
        fs.writeFileSync(path.join(env.tmp, "a.txt"), "a\n");
        const { session } = await btwSession(agent, env);
        const { events } = recordEvents(session);
        await session.sendCustomMessage({ customType: "note", content: "idle note", display: true, details: { n: 1 } });
        await session.sendCustomMessage({ customType: "later", content: [{ type: "text", text: "next turn note" }], display: false }, { deliverAs: "nextTurn" });
        let sentDuringTool = false;
        session.subscribe((event) => {
          if (event.type === "tool_execution_start" && !sentDuringTool) {
            sentDuringTool = true;
            void session.sendCustomMessage({ customType: "mid", content: "mid-run context", display: true }, { triggerTurn: false });
          }
        });
        await session.prompt("go");
        await session.sendCustomMessage({ customType: "kick", content: "please continue", display: true }, { triggerTurn: true });
        await session.sendUserMessage([{ type: "text", text: "line one" }, { type: "text", text: "line two" }]);
        const result = {
          events: events.filter((event) => event.type.startsWith("message_") && event.type !== "message_update").map((event) => [event.type, event.message.role, event.message.customType ?? null]),
          messages: session.state.messages.map(reduceMessage),
          seen: env.seen.map((messages) => messages.map((message) => `${message.role}:${message.text ?? ""}`)),
          entries: reduceEntries(session.sessionManager).map((entry) => entry.type + (entry.message ? `:${entry.message.role}` : "") + (entry.customType ? `:${entry.customType}` : "")),
        };
        session.dispose();
        return result;
      },
    ),
  );

  add("agentSession.statsAndNames", () =>
    withSession(
      ai,
      {
        responses: [
          ai.fauxAssistantMessage([ai.fauxToolCall("ls", {}, { id: "call-ls" })], { stopReason: "toolUse", timestamp: 1 }),
          ai.fauxAssistantMessage("listed", { timestamp: 2 }),
        ],
      },
      async (env) => {
        const { session } = await btwSession(agent, env, { tools: ["ls", "read"] });
        const { events } = recordEvents(session);
        const before = { usage: session.getContextUsage(), stats: session.getSessionStats(), last: session.getLastAssistantText() ?? "none" };
        await session.prompt("list files");
        session.setSessionName("side thread");
        session.setAutoCompactionEnabled(false);
        session.setAutoRetryEnabled(false);
        const result = {
          before,
          usage: session.getContextUsage(),
          stats: session.getSessionStats(),
          forking: session.getUserMessagesForForking(),
          last: session.getLastAssistantText(),
          name: session.sessionName,
          callable: session.getCallableToolNames(),
          flags: [session.autoCompactionEnabled, session.autoRetryEnabled, session.isRetrying, session.isBashRunning, session.hasPendingBashMessages, session.isCompacting, session.retryAttempt],
          nameEvents: events.filter((event) => event.type === "session_info_changed"),
          aborts: [session.abortRetry(), session.abortCompaction(), session.abortBranchSummary(), session.abortBash()],
        };
        session.refreshContext();
        result.refreshed = session.state.messages.map((message) => message.role);
        session.dispose();
        return result;
      },
    ),
  );

  add("agentSession.lastAssistantTextSkips", () =>
    withSession(
      ai,
      {
        responses: [
          ai.fauxAssistantMessage("real answer", { timestamp: 1 }),
          ai.fauxAssistantMessage([ai.fauxToolCall("nope", {}, { id: "call-x" })], { stopReason: "toolUse", timestamp: 2 }),
          ai.fauxAssistantMessage([], { timestamp: 3 }),
        ],
      },
      async (env) => {
        const { session } = await btwSession(agent, env);
        await session.prompt("one");
        const first = session.getLastAssistantText();
        await session.prompt("two");
        const result = {
          first,
          second: session.getLastAssistantText() ?? "none",
          toolResult: reduceMessage(session.state.messages.find((message) => message.role === "toolResult")),
        };
        session.dispose();
        return result;
      },
    ),
  );

  add("agentSession.fromServices", () =>
    withSession(ai, { responses: [ai.fauxAssistantMessage("from services", { timestamp: 1 })] }, async (env) => {
      const services = {
        cwd: env.tmp,
        agentDir: path.join(env.tmp, "agent"),
        modelRuntime: env.modelRuntime,
        settingsManager: agent.SettingsManager.inMemory({ defaultThinkingLevel: "low" }),
        resourceLoader: btwResourceLoader(agent),
        diagnostics: [],
      };
      const result = await agent.createAgentSessionFromServices({
        services,
        sessionManager: agent.SessionManager.inMemory(env.tmp),
        model: env.model,
        tools: ["read"],
      });
      await result.session.prompt("hi");
      const shape = { keys: Object.keys(result), state: sessionState(result.session) };
      result.session.dispose();
      return shape;
    }),
  );

  add("agentSession.skillsAndTemplates", () =>
    withSession(
      ai,
      { responses: Array.from({ length: 8 }, (_, index) => ai.fauxAssistantMessage(`answer ${index + 1}`, { timestamp: index + 1 })) },
      async (env) => {
        const skillDir = path.join(env.tmp, "skills", "demo");
        fs.mkdirSync(skillDir, { recursive: true });
        const skillFile = path.join(skillDir, "SKILL.md");
        fs.writeFileSync(skillFile, "---\nname: demo\ndescription: A demo skill.\n---\n\n# Demo\nDo the demo.\n");
        const loader = btwResourceLoader(agent);
        const skills = [
          { name: "demo", description: "A demo skill.", filePath: skillFile, baseDir: skillDir, source: "test", disableModelInvocation: false },
          { name: "gone", description: "Its file is missing.", filePath: path.join(env.tmp, "missing", "SKILL.md"), baseDir: env.tmp, source: "test" },
        ];
        loader.getSkills = () => ({ skills, diagnostics: [] });
        loader.getPrompts = () => ({
          prompts: [
            { name: "review", description: "Review", content: "Review $1 with care: ${@:2} (all: $ARGUMENTS, opt: ${3:-none})", filePath: "/p/review.md" },
          ],
          diagnostics: [],
        });
        const { session } = await btwSession(agent, env, { resourceLoader: loader });
        const queued = [];
        session.subscribe((event) => {
          if (event.type === "message_start" && event.message.role === "assistant" && queued.length === 0) {
            queued.push("pending");
            void session.followUp("/review later 'two words'").then((result) => queued.push(result));
          }
        });
        for (const text of ["/skill:demo now please", "/skill:demo", "/skill:gone x", "/review a.ts \"b c\" 'd", "/unknown thing"]) {
          await session.prompt(text);
        }
        await session.prompt("/review raw", { expandPromptTemplates: false });
        const result = {
          userTexts: session.state.messages.filter((message) => message.role === "user").map((message) => textOf(message.content)),
          queued,
          skillsSection: session.systemPrompt.includes("<skills>"),
        };
        session.dispose();
        return result;
      },
    ),
  );

  const failure = (text) => ai.fauxAssistantMessage([], { stopReason: "error", errorMessage: text, timestamp: 1 });
  for (const [name, responses, retry, abortOnStart] of [
    ["recovers", [failure("503 Service Unavailable"), failure("overloaded_error"), ai.fauxAssistantMessage("finally", { timestamp: 2 })], { baseDelayMs: 1, maxRetries: 3 }],
    ["givesUp", [failure("429 Too Many Requests"), failure("429 Too Many Requests"), failure("429 Too Many Requests")], { baseDelayMs: 1, maxRetries: 2 }],
    ["notRetryable", [failure("invalid api key")], { baseDelayMs: 1 }],
    ["disabled", [failure("503 Service Unavailable")], { enabled: false }],
    ["abortedBackoff", [failure("503 Service Unavailable"), ai.fauxAssistantMessage("never", { timestamp: 2 })], { baseDelayMs: 60_000 }, true],
  ]) {
    add(`agentSession.autoRetry.${name}`, () =>
      withSession(ai, { responses }, async (env) => {
        const { session } = await btwSession(agent, env, { settingsManager: agent.SettingsManager.inMemory({ retry }) });
        const events = [];
        session.subscribe((event) => {
          if (event.type.startsWith("auto_retry") || event.type === "agent_end" || event.type === "agent_settled" || event.type === "entry_appended") {
            events.push(event.type === "entry_appended" ? { type: event.type, entry: event.entry.type, target: event.entry.targetId !== undefined } : reduceEvent(event));
          }
          if (abortOnStart && event.type === "auto_retry_start") setTimeout(() => session.abortRetry(), 0);
        });
        await session.prompt("try");
        const result = {
          events,
          retryAttempt: session.retryAttempt,
          isRetrying: session.isRetrying,
          messages: session.state.messages.map((message) => `${message.role}:${message.stopReason ?? ""}`),
          entries: reduceEntries(session.sessionManager).map((entry) => entry.type + (entry.message ? `:${entry.message.role}` : "")),
          seen: env.seen.map((messages) => messages.map((message) => message.role).join(",")),
          pending: env.faux.getPendingResponseCount(),
        };
        session.dispose();
        return result;
      }),
    );
  }

  add("agentSession.cycleModel", () =>
    withSession(ai, { models: [{ id: "faux-a", reasoning: true }, { id: "faux-b", reasoning: false }, { id: "faux-c", reasoning: true }] }, async (env) => {
      const [a, b, c] = env.faux.models;
      const steps = [];
      const record = (label, result) =>
        steps.push([label, result ? { model: result.model.id, thinkingLevel: result.thinkingLevel, isScoped: result.isScoped } : null, session.model.id, session.thinkingLevel]);
      env.modelRuntime.getAvailableSnapshot = () => [a, b];
      const settingsManager = agent.SettingsManager.inMemory({ defaultThinkingLevel: "high", enabledModels: ["faux-session/faux-a"] });
      const { session } = await btwSession(agent, env, { model: a, thinkingLevel: "low", settingsManager });
      record("forward", await session.cycleModel());
      record("forward again", await session.cycleModel("forward"));
      record("backward", await session.cycleModel("backward"));
      session.setScopedModels([{ model: c, thinkingLevel: "minimal" }, { model: b }, { model: a, thinkingLevel: "medium" }]);
      record("scoped forward", await session.cycleModel());
      record("scoped persist", await session.cycleModel("forward", { persist: true }));
      env.modelRuntime.getAvailableSnapshot = () => [a];
      session.setScopedModels([{ model: a }]);
      record("only one", await session.cycleModel());
      await session.setModel(c, { persist: true });
      const result = {
        steps,
        scoped: session.scopedModels.map((entry) => entry.model.id),
        enabled: settingsManager.getEnabledModels(),
        defaults: [settingsManager.getDefaultProvider(), settingsManager.getDefaultModel()],
        changes: reduceEntries(session.sessionManager).map((entry) => entry.modelId ?? entry.thinkingLevel),
      };
      session.dispose();
      return result;
    }),
  );

  add("agentSession.exportToJsonl", () =>
    withSession(ai, { responses: [ai.fauxAssistantMessage("exported", { timestamp: 1 })] }, async (env) => {
      const { session } = await btwSession(agent, env);
      await session.prompt("export me");
      const file = session.exportToJsonl(path.join(env.tmp, "out", "session.jsonl"));
      const lines = fs.readFileSync(file, "utf8").split("\n");
      const result = {
        file,
        lines: lines.map((line) => (line ? JSON.parse(line) : line)).map((line) => (line && line.type === "message" ? { ...line, message: reduceMessage(line.message) } : line)),
      };
      session.dispose();
      return result;
    }),
  );

  add("agentSession.recordBashResult", () =>
    withSession(ai, { responses: [ai.fauxAssistantMessage("first", { timestamp: 1 }), ai.fauxAssistantMessage("second", { timestamp: 2 })] }, async (env) => {
      const { session } = await btwSession(agent, env);
      session.recordBashResult("ls", { output: "a\nb\n", exitCode: 0, cancelled: false, truncated: false });
      session.recordBashResult("secret", { output: "hidden", exitCode: 1, cancelled: false, truncated: true, fullOutputPath: "/tmp/x.log" }, { excludeFromContext: true });
      let pendingDuringRun;
      session.subscribe((event) => {
        if (event.type === "message_start" && event.message.role === "assistant" && pendingDuringRun === undefined) {
          session.recordBashResult("mid", { output: "during", exitCode: undefined, cancelled: true, truncated: false });
          pendingDuringRun = session.hasPendingBashMessages;
        }
      });
      await session.prompt("go");
      await session.prompt("again");
      const result = {
        pendingDuringRun,
        pendingAfter: session.hasPendingBashMessages,
        messages: session.state.messages.map(reduceMessage),
        seen: env.seen.map((messages) => messages.map((message) => `${message.role}:${message.text ?? ""}`)),
      };
      session.dispose();
      return result;
    }),
  );

  add("agentSession.resume", () =>
    withSession(
      ai,
      { models: [{ id: "faux-1", reasoning: true }], responses: [ai.fauxAssistantMessage("first life", { timestamp: 1 }), ai.fauxAssistantMessage("second life", { timestamp: 2 })] },
      async (env) => {
        const sessionDir = path.join(env.tmp, "sessions");
        const first = await btwSession(agent, env, { sessionManager: agent.SessionManager.create(env.tmp, sessionDir), tools: ["read", "ls"], thinkingLevel: "low" });
        await first.session.prompt("remember me");
        const file = first.session.sessionFile;
        first.session.dispose();
        const echo = { name: "echo", label: "Echo", description: "Echo.", parameters: { type: "object", properties: {} }, execute: async () => ({ content: [], details: {} }) };
        const results = {};
        for (const [name, extra] of [
          ["defaults", {}],
          ["modifiers", { tools: ["+grep", "-read"] }],
          ["allowlist", { tools: ["bash"] }],
          ["noTools", { noTools: "builtin" }],
        ]) {
          const { session, modelFallbackMessage } = await agent.createAgentSession({
            sessionManager: agent.SessionManager.open(file, sessionDir),
            modelRuntime: env.modelRuntime,
            resourceLoader: btwResourceLoader(agent),
            customTools: [echo],
            ...extra,
          });
          results[name] = {
            modelFallbackMessage: modelFallbackMessage ?? null,
            model: session.model.id,
            thinkingLevel: session.thinkingLevel,
            active: session.getActiveToolNames(),
            users: session.state.messages.filter((message) => message.role === "user").map((message) => textOf(message.content)),
          };
          session.dispose();
        }
        const resumed = await agent.createAgentSession({ sessionManager: agent.SessionManager.open(file, sessionDir), modelRuntime: env.modelRuntime, resourceLoader: btwResourceLoader(agent) });
        const { events } = recordEvents(resumed.session);
        await resumed.session.prompt("again");
        results.secondRun = {
          systemUpdates: events.filter((event) => event.type === "message_start" && event.message.role === "system").map((event) => event.message),
          seen: env.seen.at(-1),
        };
        resumed.session.dispose();
        return results;
      },
    ),
  );

  add("agentSession.defaultsFromSettingsAndAgentDir", () =>
    withSession(ai, { models: [{ id: "faux-1" }, { id: "faux-2" }] }, async (env) => {
      const [one, two] = env.faux.models;
      const anthropic = { ...one, provider: "anthropic", id: "claude-opus-5-5", name: "Opus" };
      const results = {};
      env.modelRuntime.getAvailableSnapshot = () => [one, anthropic, two];
      const byDefault = await agent.createAgentSession({ cwd: env.tmp, agentDir: path.join(env.tmp, "agent2"), modelRuntime: env.modelRuntime, resourceLoader: btwResourceLoader(agent) });
      results.providerDefault = `${byDefault.session.model.provider}/${byDefault.session.model.id}`;
      results.sessionDir = byDefault.session.sessionManager.getSessionDir();
      results.persisted = byDefault.session.sessionManager.isPersisted();
      results.thinkingLevel = byDefault.session.thinkingLevel;
      byDefault.session.dispose();
      const settingsManager = agent.SettingsManager.inMemory({ defaultProvider: "faux-session", defaultModel: "faux-2", defaultThinkingLevel: "high" });
      const fromSettings = await agent.createAgentSession({ cwd: env.tmp, sessionManager: agent.SessionManager.inMemory(env.tmp), settingsManager, modelRuntime: env.modelRuntime, resourceLoader: btwResourceLoader(agent) });
      results.settingsDefault = `${fromSettings.session.model.provider}/${fromSettings.session.model.id}`;
      results.settingsThinking = fromSettings.session.thinkingLevel;
      fromSettings.session.dispose();
      return results;
    }),
  );

  add("agentSession.executeBash", () =>
    withSession(ai, {}, async (env) => {
      const { session } = await btwSession(agent, env, { settingsManager: agent.SettingsManager.inMemory({ shellCommandPrefix: "GREETING=hello" }) });
      const events = [];
      session.subscribe((event) => {
        if (event.type === "bash_execution_update") events.push(event);
      });
      const runs = {};
      const chunks = [];
      const keep = (result) => ({ ...result, fullOutputPath: result.fullOutputPath ? path.basename(result.fullOutputPath).replace(/[0-9a-f]{16}/, "<hex>") : result.fullOutputPath });
      runs.colors = keep(await session.executeBash("printf 'one\\n\\033[31mred\\033[0m \\033]0;title\\007done\\r\\n'; printf '\\001bin\\002ary\\n'; exit 3", (delta) => chunks.push(delta), { id: "run-1" }));
      runs.prefix = keep(await session.executeBash("echo \"$GREETING from $(pwd -P)\"", undefined, { excludeFromContext: true }));
      runs.stderr = keep(await session.executeBash("echo oops 1>&2"));
      runs.big = keep(await session.executeBash("i=0; while [ $i -lt 2000 ]; do echo \"line $i of a long output that keeps going\"; i=$((i+1)); done"));
      runs.bigLines = runs.big.output.split("\n").length;
      runs.big.output = runs.big.output.slice(0, 60);
      const running = session.executeBash("sleep 5; echo never");
      const runningFlag = session.isBashRunning;
      await new Promise((resolve) => setTimeout(resolve, 200));
      session.abortBash();
      runs.aborted = keep(await running);
      const result = {
        runs,
        runningFlag,
        after: session.isBashRunning,
        chunks: chunks.join(""),
        events: [...new Set(events.map((event) => event.id ?? null))],
        messages: session.state.messages.map((message) => ({ ...reduceMessage(message), output: message.output.slice(0, 40), fullOutputPath: message.fullOutputPath ? "<file>" : message.fullOutputPath })),
      };
      session.dispose();
      return result;
    }),
  );

  add("agentSession.bashToolEnvironment", () =>
    withSession(
      ai,
      {
        models: [{ id: "faux-think", reasoning: true }],
        responses: [
          ai.fauxAssistantMessage([ai.fauxToolCall("bash", { command: "echo \"$PI_PROVIDER/$PI_MODEL/$PI_REASONING_LEVEL/${PI_SESSION_ID:+id}/${PI_SESSION_FILE:-none}\"" }, { id: "call-env" })], { stopReason: "toolUse", timestamp: 1 }),
          ai.fauxAssistantMessage("ok", { timestamp: 2 }),
        ],
      },
      async (env) => {
        const { session } = await btwSession(agent, env, { thinkingLevel: "medium" });
        await session.prompt("env");
        const result = session.state.messages.find((message) => message.role === "toolResult");
        session.dispose();
        return reduceMessage(result);
      },
    ),
  );

  add("agentSession.setModelWithoutAuth", () =>
    withSession(ai, { auth: false }, async (env) => {
      const { session } = await btwSession(agent, env);
      try {
        await session.setModel(env.model);
        return "set";
      } catch (error) {
        return { error: error.message };
      } finally {
        session.dispose();
      }
    }),
  );
}

/** A runtime that logs every call (method and arguments) and answers from `answers`. */
function recordingRuntime(answers, calls) {
  return new Proxy(
    {},
    {
      get(_target, method) {
        if (typeof method !== "string" || method === "then") return undefined;
        return (...args) => {
          calls.push([method, ...args.map((arg) => (arg && typeof arg === "object" && "provider" in arg ? `${arg.provider}/${arg.id}` : arg))]);
          const answer = answers[method];
          return typeof answer === "function" ? answer(...args) : answer;
        };
      },
    },
  );
}

/** Adds ModelRegistry's cases: it forwards to its runtime and reshapes auth answers. */
export function addModelRegistryCases(add, { agent }) {
  const model = { provider: "acme", id: "m1", api: "acme-api" };
  add("modelRegistry.forwarding", async () => {
    const calls = [];
    const runtime = recordingRuntime(
      {
        getModels: [model],
        getAvailableSnapshot: [model],
        getModel: model,
        getModelOfType: model,
        hasConfiguredAuth: true,
        getError: "models.json is broken",
        getProviderAuthStatus: { configured: true, source: "stored" },
        getProvider: { id: "acme", name: "Acme AI" },
        isUsingOAuth: false,
        getRegisteredProviderIds: ["acme"],
        getAuth: async () => ({ auth: { apiKey: "k-1" } }),
      },
      calls,
    );
    const registry = new agent.ModelRegistry(runtime);
    const results = {
      keys: Object.keys(registry),
      runtimeIsGiven: registry.runtime === runtime,
      getAll: registry.getAll().length,
      getAllCopy: registry.getAll() !== registry.getAll(),
      getAvailable: registry.getAvailable().length,
      find: registry.find("acme", "m1") === model,
      findOfType: registry.findOfType("image", "acme", "m1") === model,
      hasConfiguredAuth: registry.hasConfiguredAuth(model),
      getError: registry.getError(),
      status: registry.getProviderAuthStatus("acme"),
      displayName: registry.getProviderDisplayName("acme"),
      isUsingOAuth: registry.isUsingOAuth(model),
      ids: registry.getRegisteredProviderIds(),
      keyForProvider: await registry.getApiKeyForProvider("acme"),
      providerAuth: await registry.getProviderAuth("acme"),
    };
    registry.registerProvider("acme", { baseUrl: "http://x" });
    registry.registerProvider({ id: "native" });
    registry.unregisterProvider("acme");
    registry.registerVirtualModel({ provider: "v", id: "auto" });
    registry.unregisterVirtualModel("v", "auto");
    let missingConfig;
    try {
      registry.registerProvider("acme");
    } catch (error) {
      missingConfig = error.message;
    }
    return { results, missingConfig, calls };
  });

  const auth = (answers) => new agent.ModelRegistry(recordingRuntime(answers, [])).getApiKeyAndHeaders(model);
  add("modelRegistry.apiKeyAndHeaders", async () => ({
    resolved: await auth({ getAuth: async () => ({ auth: { apiKey: "k", headers: { a: "b" } }, env: { X: "1" } }) }),
    baseUrl: await auth({ getAuth: async () => ({ auth: { apiKey: "k", baseUrl: "http://proxy" } }) }),
    compatibilityHeader: await auth({ getAuth: async () => undefined, getCompatibilityRequestConfig: { authHeader: true, headers: { h: "1" } } }),
    compatibilityOpen: await auth({ getAuth: async () => undefined, getCompatibilityRequestConfig: { headers: { h: "1" } } }),
    thrown: await auth({
      getAuth: async () => {
        throw new Error("vault locked");
      },
    }),
    thrownCause: await auth({
      getAuth: async () => {
        throw new Error("outer", { cause: new Error("inner cause") });
      },
    }),
    missingKey: await auth({
      getAuth: async () => {
        throw new Error("authHeader requires a resolved API key");
      },
    }),
    keyForProviderThrows: await new agent.ModelRegistry(
      recordingRuntime({
        getAuth: async () => {
          throw new Error("no");
        },
      }, []),
    ).getApiKeyForProvider("acme"),
  }));
}

/** Runs `run(tmp)` in a fresh temp directory; the result is stabilized (<tmp>). */
async function inTemp(run) {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pihost-trust-")));
  try {
    return stabilizer(tmp)(await run(tmp));
  } catch (error) {
    return stabilizer(tmp)({ error: error.message });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function attemptCall(run) {
  try {
    return run();
  } catch (error) {
    return { error: error.message, code: error.code };
  }
}

/** Adds the cases of ProjectTrustStore, readStoredCredential and CredentialSynchronizationError. */
export function addTrustAndCredentialCases(add, { agent }) {
  add("projectTrustStore.decisions", () =>
    inTemp((tmp) => {
      const project = path.join(tmp, "work", "project");
      const nested = path.join(project, "src", "deep");
      fs.mkdirSync(nested, { recursive: true });
      const store = new agent.ProjectTrustStore(path.join(tmp, "agent"));
      const steps = [{ keys: Object.keys(store), trustPath: store.trustPath, empty: store.get(project), entry: store.getEntry(project) }];
      store.set(project, true);
      steps.push({ project: store.get(project), nested: store.getEntry(nested), parent: store.get(path.join(tmp, "work")) });
      store.setMany([
        { path: path.join(tmp, "work"), decision: false },
        { path: project, decision: null },
      ]);
      steps.push({ project: store.getEntry(project), file: fs.readFileSync(store.trustPath, "utf8") });
      store.set(`${project}/../project/`, true);
      steps.push({ file: fs.readFileSync(store.trustPath, "utf8"), lockLeft: fs.existsSync(`${store.trustPath}.lock`) });
      return steps;
    }),
  );
  add("projectTrustStore.badFiles", () =>
    inTemp((tmp) => {
      const store = new agent.ProjectTrustStore(tmp);
      const results = [];
      for (const text of ["[]", '{"/a": "yes"}', '\uFEFF{"/a": true, "/b": null}']) {
        fs.writeFileSync(store.trustPath, text);
        results.push(attemptCall(() => store.get("/a/b")));
      }
      // The parser's own words differ between engines; pi's prefix does not.
      fs.writeFileSync(store.trustPath, "{not json");
      const broken = attemptCall(() => store.get("/a/b"));
      results.push(broken.error.startsWith(`Failed to read trust store ${store.trustPath}: `));
      return results;
    }),
  );
  add("projectTrustStore.heldLock", () =>
    inTemp((tmp) => {
      const store = new agent.ProjectTrustStore(tmp);
      fs.mkdirSync(`${store.trustPath}.lock`);
      const held = attemptCall(() => store.get(tmp));
      const old = new Date(Date.now() - 60_000);
      fs.utimesSync(`${store.trustPath}.lock`, old, old);
      const stale = attemptCall(() => store.set(tmp, true));
      return { held, stale, after: store.get(tmp) };
    }),
  );
  add("readStoredCredential.cases", () =>
    inTemp((tmp) => {
      const previousAgentDir = process.env.PI_CODING_AGENT_DIR;
      process.env.PI_CODING_AGENT_DIR = tmp;
      try {
        const file = path.join(tmp, "auth.json");
        const before = agent.readStoredCredential("acme");
        fs.writeFileSync(file, '\uFEFF{"acme": {"type": "api_key", "key": "k"}, "other": 3}');
        const other = path.join(tmp, "other-auth.json");
        fs.writeFileSync(other, "{broken");
        return {
          before: before ?? "none",
          stored: agent.readStoredCredential("acme"),
          number: agent.readStoredCredential("other"),
          missing: agent.readStoredCredential("nope") ?? "none",
          explicit: agent.readStoredCredential("acme", file),
          broken: agent.readStoredCredential("acme", other) ?? "none",
        };
      } finally {
        if (previousAgentDir === undefined) delete process.env.PI_CODING_AGENT_DIR;
        else process.env.PI_CODING_AGENT_DIR = previousAgentDir;
      }
    }),
  );
  add("credentialSynchronizationError.shape", () => {
    const cause = new Error("disk full");
    const error = new agent.CredentialSynchronizationError("acme", "login", { type: "api_key", key: "k" }, { cause });
    return {
      name: error.name,
      message: error.message,
      isError: error instanceof Error,
      keys: Object.keys(error),
      providerId: error.providerId,
      operation: error.operation,
      credential: error.credential,
      cause: error.cause === cause,
      bare: Object.keys(new agent.CredentialSynchronizationError("p", "logout", undefined)),
    };
  });
}

// A catalog with the shapes the resolver has to tell apart: one id on several
// providers, dated versions next to aliases, provider ids with "/", ids that
// look like globs or carry a thinking suffix.
const RESOLVER_MODELS = [
  ["anthropic", "claude-sonnet-4-5", "Claude Sonnet 4.5"],
  ["anthropic", "claude-sonnet-4-5-20250929", "Claude Sonnet 4.5 (2025-09-29)"],
  ["anthropic", "claude-opus-5-5", "Claude Opus 5.5"],
  ["anthropic", "claude-haiku-4-latest", "Claude Haiku"],
  ["openrouter", "anthropic/claude-sonnet-4-5", "Sonnet via OpenRouter"],
  ["openrouter", "openrouter/free", "Free"],
  ["openai", "gpt-6.2-sol", "GPT 6.2"],
  ["azure", "gpt-6.2-sol", "GPT 6.2 (Azure)"],
  ["groq", "openai/gpt-oss-120b", "GPT OSS"],
  ["acme/eu", "m-large", "Acme Large"],
  ["acme", "bracketed-model[1m]", "Bracketed"],
  ["acme", "zai-org/GLM-5.1-FP8", "GLM"],
  ["acme", ".hidden", "Hidden"],
].map(([provider, id, name]) => ({ provider, id, name, api: `${provider}-api`, reasoning: false, contextWindow: 1000 }));

function resolverRuntime(configured) {
  return {
    getModels: () => RESOLVER_MODELS,
    getAvailable: async () => RESOLVER_MODELS.filter((model) => configured.includes(model.provider)),
    hasConfiguredAuth: (provider) => configured.includes(provider),
  };
}

const describeModel = (model) => (model ? `${model.provider}/${model.id}${model.reasoning ? " (reasoning)" : ""} [${model.name}]` : null);

/** Adds the cases of resolveCliModel and resolveModelScopeWithDiagnostics. */
export function addModelResolverCases(add, { agent }) {
  const cli = [
    ["exact", { cliModel: "claude-opus-5-5" }],
    ["providerSlash", { cliModel: "anthropic/claude-sonnet-4-5" }],
    ["gatewayIdUsable", { cliModel: "anthropic/claude-sonnet-4-5" }, ["openrouter"]],
    ["sameIdTwoProviders", { cliModel: "gpt-6.2-sol" }, ["openai", "azure"]],
    ["sameIdNoneUsable", { cliModel: "gpt-6.2-sol" }, []],
    ["sameIdOneUsable", { cliModel: "gpt-6.2-sol" }, ["azure"]],
    ["sameIdInlineKey", { cliModel: "gpt-6.2-sol", inlineApiKey: "k" }, ["azure"]],
    ["providerFlag", { cliProvider: "AZURE", cliModel: "gpt-6.2-sol" }],
    ["unknownProvider", { cliProvider: "nope", cliModel: "x" }],
    ["fuzzyAlias", { cliModel: "sonnet" }],
    ["fuzzyByName", { cliModel: "haiku" }],
    ["thinkingSuffix", { cliModel: "claude-opus-5-5:high" }],
    ["invalidSuffix", { cliModel: "claude-opus-5-5:turbo" }],
    ["customId", { cliModel: "anthropic/claude-next" }],
    ["customIdThinking", { cliModel: "acme/zai-org/GLM-5.1-FP8:high" }],
    ["customIdWithFlag", { cliModel: "acme/zai-org/GLM-9:high", cliThinking: "low" }],
    ["customOnProviderFlag", { cliProvider: "openai", cliModel: "gpt-7" }],
    ["slashProvider", { cliModel: "acme/eu/m-large" }],
    ["literalProviderId", { cliModel: "openrouter/free" }],
    ["notFound", { cliModel: "totally-unknown" }],
    ["empty", { cliModel: "" }],
  ];
  add("resolveCliModel.cases", () => {
    const out = {};
    for (const [name, options, configured = ["anthropic", "openai"]] of cli) {
      const result = agent.resolveCliModel({ ...options, modelRuntime: resolverRuntime(configured) });
      out[name] = { ...result, model: describeModel(result.model) };
    }
    out.noModels = agent.resolveCliModel({ cliModel: "x", modelRuntime: { getModels: () => [] } });
    return out;
  });

  const scopes = [
    ["ids", ["claude-opus-5-5", "gpt-6.2-sol", "nope"]],
    ["thinking", ["claude-opus-5-5:high", "sonnet:bogus", "openai/gpt-6.2-sol:off"]],
    ["globs", ["anthropic/*", "*sonnet*:medium", "*/gpt-*", "GROQ/**"]],
    ["globClasses", ["claude-[hs]*", "claude-[!s]*", "gpt-?.?-sol", "{openai,azure}/gpt*", "claude-opus-{4..5}-5"]],
    ["globLiteralIds", ["bracketed-model[1m]", "bracketed-model[1m]:low", "acme/*", "acme/.*"]],
    ["globNoMatch", ["nomatch*", "acme/eu/*"]],
    ["duplicates", ["claude-opus-5-5", "anthropic/claude-opus-5-5", "anthropic/claude-opus*"]],
  ];
  add("resolveModelScopeWithDiagnostics.cases", async () => {
    const out = {};
    for (const [name, patterns] of scopes) {
      const { scopedModels, diagnostics } = await agent.resolveModelScopeWithDiagnostics(
        patterns,
        resolverRuntime(["anthropic", "openai", "azure", "groq", "acme", "acme/eu", "openrouter"]),
      );
      out[name] = { models: scopedModels.map((scoped) => [describeModel(scoped.model), scoped.thinkingLevel ?? null]), diagnostics };
    }
    const options = [];
    await agent.resolveModelScopeWithDiagnostics(["x"], {
      getAvailable: async (...args) => {
        options.push(args);
        return [];
      },
    }, { signal: "s" });
    out.passesOptions = options;
    return out;
  });
}

/** Adds AgentSessionRuntime's cases: a caller's factory building sessions from services, replaced by new/fork/switch/import. */
export function addAgentSessionRuntimeCases(add, { ai, agent }) {
  add("agentSessionRuntime.lifecycle", () =>
    withSession(
      ai,
      { responses: Array.from({ length: 6 }, (_, index) => ai.fauxAssistantMessage(`reply ${index + 1}`, { timestamp: index + 1 })) },
      async (env) => {
        const calls = [];
        const sessionDir = path.join(env.tmp, "sessions");
        const services = {
          cwd: env.tmp,
          agentDir: path.join(env.tmp, "agent"),
          modelRuntime: { ...env.modelRuntime, settleCredentialWrites: async () => calls.push("settled") },
          settingsManager: agent.SettingsManager.inMemory(),
          resourceLoader: btwResourceLoader(agent),
          diagnostics: [],
        };
        let round = 0;
        const createRuntime = async (options) => {
          round++;
          calls.push({
            keys: Object.keys(options),
            cwd: options.cwd,
            start: options.sessionStartEvent ?? null,
            persisted: options.sessionManager.isPersisted(),
          });
          const created = await agent.createAgentSessionFromServices({ services, sessionManager: options.sessionManager, model: env.model, tools: ["read"] });
          return {
            ...created,
            services,
            diagnostics: [
              { type: "warning", message: "same every time" },
              { type: "info", message: `round ${round}` },
            ],
          };
        };
        const runtime = await agent.createAgentSessionRuntime(createRuntime, {
          cwd: env.tmp,
          agentDir: services.agentDir,
          sessionManager: agent.SessionManager.create(env.tmp, sessionDir),
        });
        const steps = [];
        const snapshot = (label, result) =>
          steps.push({
            label,
            result,
            diagnostics: runtime.takeUnreportedDiagnostics(),
            file: runtime.session.sessionFile ?? null,
            users: runtime.session.state.messages.filter((message) => message.role === "user").map((message) => textOf(message.content)),
            cwd: runtime.cwd,
          });
        snapshot("created", { keys: Object.keys(runtime), fallback: runtime.modelFallbackMessage ?? null });
        const disposed = [];
        runtime.setBeforeSessionInvalidate(() => disposed.push("invalidate"));
        runtime.setRebindSession(async (session) => disposed.push(`rebind:${session === runtime.session}`));
        await runtime.session.prompt("first question");
        await runtime.session.prompt("second question");
        const firstFile = runtime.session.sessionFile;
        const secondUser = runtime.session.sessionManager.getEntries().filter((entry) => entry.type === "message" && entry.message.role === "user")[1];
        snapshot("fork before second", await runtime.fork(secondUser.id));
        snapshot("new", await runtime.newSession());
        snapshot("switch back", await runtime.switchSession(firstFile));
        const exported = runtime.session.exportToJsonl(path.join(env.tmp, "exported", path.basename(firstFile)));
        snapshot("import", await runtime.importFromJsonl(exported));
        snapshot("import again", await runtime.importFromJsonl(exported));
        const errors = {};
        for (const [name, run] of [
          ["badFork", () => runtime.fork("nope")],
          ["forkAtNonUser", () => runtime.fork(runtime.session.sessionManager.getEntries()[0].id)],
          ["missingImport", () => runtime.importFromJsonl(path.join(env.tmp, "none.jsonl"))],
        ]) {
          try {
            await run();
            errors[name] = "ok";
          } catch (error) {
            errors[name] = { name: error.name, message: error.message };
          }
        }
        await runtime.dispose();
        const files = fs.readdirSync(sessionDir).length;
        return { steps, calls, disposed, errors, files, exported: path.basename(exported) === path.basename(firstFile) };
      },
    ),
  );

  add("agentSessionRuntime.missingCwd", () =>
    withSession(ai, {}, async (env) => {
      const gone = path.join(env.tmp, "gone");
      fs.mkdirSync(gone);
      const manager = agent.SessionManager.create(gone, path.join(env.tmp, "sessions"));
      manager.appendMessage({ role: "user", content: "hi", timestamp: 1 });
      manager.appendMessage({ role: "assistant", content: [{ type: "text", text: "yo" }], api: "a", provider: "p", model: "m", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop", timestamp: 2 });
      fs.rmSync(gone, { recursive: true });
      try {
        await agent.createAgentSessionRuntime(async () => {
          throw new Error("factory must not run");
        }, { cwd: env.tmp, sessionManager: manager });
        return "created";
      } catch (error) {
        return { name: error.name, message: error.message, issue: error.issue };
      }
    }),
  );
}
