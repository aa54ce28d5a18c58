// pi's AgentSession: an Agent bound to a SessionManager, the session's
// tools and system prompt. Prompts run through the agent loop; every
// finished message is persisted to the session, and the requests the model
// gets are projected from the session (not from the agent's own message
// list), as in pi. pihost runs sessions without extensions: a resource
// loader that brings extensions, compaction, auto-retry and the other parts
// listed in NOT_YET throw pihost's not-implemented error instead of
// quietly doing less.
import { clampThinkingLevel, cleanupSessionResources, contentText, getCurrentSystemMessage, getSupportedThinkingLevels } from "../pi-ai.js";
import { createSyntheticSourceInfo } from "./source-info.js";
import { buildSystemPrompt, buildSystemPromptSections, normalizeBuildSystemPromptOptions } from "./system-prompt.js";
import { createBashToolDefinition } from "./tools/bash.js";
import { createEditToolDefinition } from "./tools/edit.js";
import { createFindToolDefinition } from "./tools/find.js";
import { createGrepToolDefinition } from "./tools/grep.js";
import { createLsToolDefinition } from "./tools/ls.js";
import { createPowerShellToolDefinition } from "./tools/powershell.js";
import { createReadToolDefinition } from "./tools/read.js";
import { wrapToolDefinition } from "./tools/wrap.js";
import { createWriteToolDefinition } from "./tools/write.js";
import { formatNoApiKeyFoundMessage, formatNoModelSelectedMessage } from "./auth-guidance.js";
import { applyToolModifiers, createToolNameMatcher } from "./tool-selection.js";

const DEFAULT_ACTIVE_TOOLS = ["read", "bash", "edit", "write"];
const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh"];
const DEFAULT_THINKING_LEVEL = "medium";

export function notImplemented(method) {
  return new Error(`pihost: AgentSession.${method} is not implemented yet`);
}

/** The sections that changed from `previous` to `current`; removed ones are null. Undefined when none did. */
function diffSections(previous, current) {
  const patch = {};
  for (const [name, text] of Object.entries(current)) if (previous[name] !== text) patch[name] = text;
  for (const name of Object.keys(previous)) if (current[name] === undefined) patch[name] = null;
  return Object.keys(patch).length > 0 ? patch : undefined;
}

function builtInToolDefinitions(cwd) {
  return new Map([
    ["read", createReadToolDefinition(cwd)],
    ["bash", createBashToolDefinition(cwd)],
    ["powershell", createPowerShellToolDefinition(cwd)],
    ["edit", createEditToolDefinition(cwd)],
    ["write", createWriteToolDefinition(cwd)],
    ["grep", createGrepToolDefinition(cwd)],
    ["find", createFindToolDefinition(cwd)],
    ["ls", createLsToolDefinition(cwd)],
  ]);
}

export class AgentSession {
  agent;
  sessionManager;
  settingsManager;
  #scopedModels;
  #unsubscribeAgent;
  #listeners = [];
  #runActive = false;
  #abortRequested = false;
  #idleWaiters = [];
  #steeringTexts = [];
  #followUpTexts = [];
  #pendingNextTurnMessages = [];
  #resourceLoader;
  #customTools;
  #cwd;
  #modelRuntime;
  #allowedTools;
  #excludedTools;
  #baseToolDefinitions = new Map();
  #toolDefinitions = new Map();
  #toolRegistry = new Map();
  #toolSnippets = new Map();
  #toolGuidelines = new Map();
  #baseSystemPromptOptions;
  #runSystemPromptOptions;
  #lastAssistantMessage;

  constructor(config) {
    this.agent = config.agent;
    this.sessionManager = config.sessionManager;
    this.settingsManager = config.settingsManager;
    this.#scopedModels = config.scopedModels ?? [];
    this.#resourceLoader = config.resourceLoader;
    this.#customTools = config.customTools ?? [];
    this.#cwd = config.cwd;
    this.#modelRuntime = config.modelRuntime;
    if (config.allowedToolNames) this.#allowedTools = createToolNameMatcher(config.allowedToolNames);
    if (config.excludedToolNames) this.#excludedTools = createToolNameMatcher(config.excludedToolNames);
    const { extensions } = this.#resourceLoader.getExtensions();
    if (extensions.length > 0) throw notImplemented("constructor with extensions from the resource loader");
    this.#unsubscribeAgent = this.agent.subscribe((event) => this.#handleAgentEvent(event));
    this.#installRequestProjection();
    this.#installNextTurnRefresh();
    this.#buildTools(config.initialActiveToolNames ?? DEFAULT_ACTIVE_TOOLS);
  }

  get modelRuntime() {
    return this.#modelRuntime;
  }

  // --- tools and system prompt ---------------------------------------------

  #isAllowedTool(name) {
    if (this.#excludedTools?.(name)) return false;
    return !this.#allowedTools || this.#allowedTools(name);
  }

  #toolContext() {
    return { cwd: this.#cwd, sessionManager: this.sessionManager, model: this.model };
  }

  #buildTools(activeToolNames) {
    this.#baseToolDefinitions = builtInToolDefinitions(this.#cwd);
    const definitions = new Map();
    for (const [name, definition] of this.#baseToolDefinitions) {
      if (this.#isAllowedTool(name)) definitions.set(name, { definition, sourceInfo: createSyntheticSourceInfo(`<builtin:${name}>`, { source: "builtin" }) });
    }
    for (const definition of this.#customTools) {
      if (this.#isAllowedTool(definition.name)) {
        definitions.set(definition.name, { definition, sourceInfo: createSyntheticSourceInfo(`<sdk:${definition.name}>`, { source: "sdk" }) });
      }
    }
    this.#toolDefinitions = definitions;
    this.#toolSnippets = new Map();
    this.#toolGuidelines = new Map();
    for (const { definition } of definitions.values()) {
      const snippet = definition.promptSnippet?.replace(/[\r\n]+/g, " ").replace(/\s+/g, " ").trim();
      if (snippet) this.#toolSnippets.set(definition.name, snippet);
      const guidelines = [...new Set((definition.promptGuidelines ?? []).map((line) => line.trim()).filter(Boolean))];
      if (guidelines.length > 0) this.#toolGuidelines.set(definition.name, guidelines);
    }
    this.#toolRegistry = new Map(
      [...definitions.values()].map(({ definition }) => [definition.name, wrapToolDefinition(definition, () => this.#toolContext())]),
    );
    const next = activeToolNames.filter((name) => this.#isAllowedTool(name));
    if (this.#allowedTools) {
      for (const name of this.#toolRegistry.keys()) if (this.#allowedTools(name)) next.push(name);
    } else {
      for (const { definition } of definitions.values()) {
        if (!this.#baseToolDefinitions.has(definition.name) && definition.defaultActive !== false) next.push(definition.name);
      }
    }
    this.#setActiveTools([...new Set(next)]);
  }

  /** Activates the registered, non-hidden tools of `names`: kept ones keep their place, new ones go last. */
  #applyToolLoadout(names) {
    const requested = new Set(names);
    const kept = this.getActiveToolNames().filter((name) => requested.has(name));
    const tools = [...new Set([...kept, ...requested])].flatMap((name) => {
      const tool = this.#toolRegistry.get(name);
      const exposure = this.#toolDefinitions.get(name)?.definition.exposure ?? "direct";
      return tool && exposure !== "hidden" ? [tool] : [];
    });
    this.agent.state.tools = tools;
    return tools;
  }

  #setActiveTools(names) {
    const tools = this.#applyToolLoadout(names);
    this.#rebuildSystemPrompt(tools.map((tool) => tool.name));
  }

  #rebuildSystemPrompt(toolNames) {
    const append = this.#resourceLoader.getAppendSystemPrompt();
    const toolSnippets = {};
    for (const name of this.#toolRegistry.keys()) {
      const snippet = this.#toolSnippets.get(name);
      if (snippet) toolSnippets[name] = snippet;
    }
    this.#baseSystemPromptOptions = normalizeBuildSystemPromptOptions({
      cwd: this.#cwd,
      skills: this.#resourceLoader.getSkills().skills,
      contextFiles: this.#resourceLoader.getAgentsFiles().agentsFiles,
      customPrompt: this.#resourceLoader.getSystemPrompt(),
      appendSystemPrompt: append.length > 0 ? append.join("\n\n") : "",
      selectedTools: toolNames.filter((name) => this.#toolRegistry.has(name)),
      hiddenTools: [],
      toolSnippets,
      toolGuidelines: Object.fromEntries(this.#toolGuidelines),
    });
  }

  /** Applies the loadout of `options` and returns the system message patching the prompt the model has, if it changed. */
  #preparePromptAndToolLoadout(options, messages = this.agent.state.messages) {
    options.selectedTools = this.#applyToolLoadout(options.selectedTools).map((tool) => tool.name);
    options.hiddenTools = [];
    const sections = diffSections(getCurrentSystemMessage(messages)?.sections ?? {}, buildSystemPromptSections(options));
    return sections ? { role: "system", content: "", sections, timestamp: Date.now() } : undefined;
  }

  // Requests see the session's projection: what was persisted, not the agent's own list.
  #installRequestProjection() {
    const previous = this.agent.prepareRequest;
    this.agent.prepareRequest = async (request, signal) => {
      const context = {
        ...request.context,
        messages: this.sessionManager.buildSessionProjection().messages,
        tools: this.agent.state.tools.slice(),
      };
      const update = await previous?.({ ...request, context, model: this.agent.state.model, thinkingLevel: this.agent.state.thinkingLevel }, signal);
      return {
        ...update,
        context: update?.context ?? context,
        model: update?.model ?? this.agent.state.model,
        thinkingLevel: update?.thinkingLevel ?? this.agent.state.thinkingLevel,
      };
    };
  }

  // Each next turn re-renders the prompt for the tools active then.
  #installNextTurnRefresh() {
    const previous =
      this.agent.prepareNextTurnWithContext ?? (this.agent.prepareNextTurn ? async (_turn, signal) => await this.agent.prepareNextTurn?.(signal) : undefined);
    this.agent.prepareNextTurnWithContext = async (turn, signal) => {
      const context = { ...turn.context, messages: this.sessionManager.buildSessionProjection().messages };
      const snapshot = await previous?.({ ...turn, context }, signal);
      const nextContext = snapshot?.context ?? context;
      const runOptions = this.#runSystemPromptOptions ?? this.#baseSystemPromptOptions;
      const options = normalizeBuildSystemPromptOptions({
        ...runOptions,
        selectedTools: this.getActiveToolNames(),
        toolSnippets: { ...this.#baseSystemPromptOptions.toolSnippets, ...runOptions.toolSnippets },
        toolGuidelines: { ...this.#baseSystemPromptOptions.toolGuidelines, ...runOptions.toolGuidelines },
      });
      const update = this.#preparePromptAndToolLoadout(options, nextContext.messages);
      this.#runSystemPromptOptions = options;
      return {
        ...snapshot,
        context: { ...nextContext, tools: this.agent.state.tools.slice() },
        messages: update ? [...(snapshot?.messages ?? []), update] : snapshot?.messages,
        model: this.agent.state.model,
        thinkingLevel: this.agent.state.thinkingLevel,
      };
    };
  }

  // --- events ----------------------------------------------------------------

  #emit(event) {
    for (const listener of this.#listeners) listener(event);
  }

  #emitQueueUpdate() {
    this.#emit({ type: "queue_update", steering: [...this.#steeringTexts], followUp: [...this.#followUpTexts] });
  }

  #handleAgentEvent(event) {
    if (event.type === "agent_start" && this.#abortRequested) this.agent.abort();
    if (event.type === "message_start" && event.message.role === "user") {
      // A delivered queued message leaves the queue before listeners hear of it.
      const text = contentText(event.message.content, "");
      for (const queue of [this.#steeringTexts, this.#followUpTexts]) {
        const index = queue.indexOf(text);
        if (index !== -1) {
          queue.splice(index, 1);
          this.#emitQueueUpdate();
          break;
        }
      }
    }
    this.#emit(event.type === "agent_end" ? { ...event, willRetry: false } : event);
    if (event.type === "message_end") {
      const { message } = event;
      if (message.role === "custom") {
        this.sessionManager.appendCustomMessageEntry(message.customType, message.content, message.display, message.details);
      } else if (["system", "user", "assistant", "toolResult"].includes(message.role)) {
        this.sessionManager.appendMessage(message);
      }
      if (message.role === "assistant") this.#lastAssistantMessage = message;
    }
  }

  /** Adds a listener for the session's events; returns the function that removes it. */
  subscribe(listener) {
    this.#listeners.push(listener);
    return () => {
      const index = this.#listeners.indexOf(listener);
      if (index !== -1) this.#listeners.splice(index, 1);
    };
  }

  /** Stops any run and drops every listener; the session is unusable afterwards. */
  dispose() {
    try {
      this.agent.abort();
    } catch {
      // Disposing must succeed even when an abort hook throws.
    }
    this.#unsubscribeAgent?.();
    this.#unsubscribeAgent = undefined;
    this.#listeners = [];
    cleanupSessionResources(this.sessionId);
  }

  // --- state -----------------------------------------------------------------

  get state() {
    return this.agent.state;
  }

  get model() {
    return this.agent.state.model;
  }

  get thinkingLevel() {
    return this.agent.state.thinkingLevel;
  }

  get isStreaming() {
    return this.#runActive;
  }

  get isIdle() {
    return !this.#runActive;
  }

  get isCompacting() {
    return false;
  }

  get systemPrompt() {
    return buildSystemPrompt(this.#runSystemPromptOptions ?? this.#baseSystemPromptOptions);
  }

  get retryAttempt() {
    return 0;
  }

  get messages() {
    return this.agent.state.messages;
  }

  get steeringMode() {
    return this.agent.steeringMode;
  }

  get followUpMode() {
    return this.agent.followUpMode;
  }

  get sessionFile() {
    return this.sessionManager.getSessionFile();
  }

  get sessionId() {
    return this.sessionManager.getSessionId();
  }

  get sessionName() {
    return this.sessionManager.getSessionName();
  }

  get scopedModels() {
    return this.#scopedModels;
  }

  setScopedModels(scopedModels) {
    this.#scopedModels = scopedModels;
  }

  get resourceLoader() {
    return this.#resourceLoader;
  }

  get promptTemplates() {
    return this.#resourceLoader.getPrompts().prompts;
  }

  get pendingMessageCount() {
    return this.#steeringTexts.length + this.#followUpTexts.length;
  }

  getSteeringMessages() {
    return this.#steeringTexts;
  }

  getFollowUpMessages() {
    return this.#followUpTexts;
  }

  getActiveToolNames() {
    return this.agent.state.tools.map((tool) => tool.name);
  }

  getAllTools() {
    return [...this.#toolDefinitions.values()].map(({ definition, sourceInfo }) => ({
      name: definition.name,
      description: definition.description,
      parameters: definition.parameters,
      promptGuidelines: definition.promptGuidelines,
      exposure: definition.exposure ?? "direct",
      ...(definition.namespace ? { namespace: definition.namespace } : {}),
      ...(definition.annotations ? { annotations: { ...definition.annotations } } : {}),
      ...(definition.reachesTools ? { reachesTools: definition.reachesTools } : {}),
      sourceInfo,
    }));
  }

  getToolDefinition(name) {
    return this.#toolDefinitions.get(name)?.definition;
  }

  /** Activates the named registered tools; unknown and hidden names are ignored. Takes effect next turn. */
  setActiveToolsByName(toolNames) {
    this.#setActiveTools(toolNames);
  }

  getLastAssistantText() {
    const last = this.agent.state.messages.findLast(
      (message) => message.role === "assistant" && !(message.stopReason === "aborted" && message.content.length === 0),
    );
    if (!last) return undefined;
    const text = last.content
      .filter((block) => block.type === "text")
      .map((block) => block.text)
      .join("")
      .trim();
    return text || undefined;
  }

  // --- prompting ---------------------------------------------------------------

  /**
   * Sends a prompt. While a run is active it must say how to queue
   * (`streamingBehavior: "steer" | "followUp"`); otherwise the model and its
   * auth are checked first.
   */
  async prompt(text, options) {
    if (options?.images?.length) throw notImplemented("prompt with images");
    if ((options?.expandPromptTemplates ?? true) && text.startsWith("/") && this.#hasExpansions()) {
      throw notImplemented("prompt with skill commands or prompt templates");
    }
    const preflightResult = options?.preflightResult;
    if (this.isStreaming) {
      if (!options?.streamingBehavior) {
        throw new Error("Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.");
      }
      if (options.streamingBehavior === "followUp") this.#queue(this.#followUpTexts, text, (message) => this.agent.followUp(message));
      else this.#queue(this.#steeringTexts, text, (message) => this.agent.steer(message));
      preflightResult?.("queued");
      return;
    }
    if (!this.model) throw new Error(formatNoModelSelectedMessage());
    const provider = this.model.provider;
    const configured = this.#modelRuntime.hasConfiguredAuth(provider) || (await this.#modelRuntime.checkAuth(provider)) !== undefined;
    if (!configured) {
      if (this.#modelRuntime.isUsingOAuth(provider)) {
        throw new Error(
          `Authentication failed for "${provider}". ` +
            `Credentials may have expired or network is unavailable. ` +
            `Run '/login ${provider}' to re-authenticate.`,
        );
      }
      throw new Error(formatNoApiKeyFoundMessage(provider));
    }
    await this.#startRun(text, () => preflightResult?.("started"));
  }

  #hasExpansions() {
    return this.#resourceLoader.getSkills().skills.length > 0 || this.#resourceLoader.getPrompts().prompts.length > 0;
  }

  #queue(texts, text, enqueue) {
    texts.push(text);
    enqueue({ role: "user", content: [{ type: "text", text }], timestamp: Date.now() });
    this.#emitQueueUpdate();
  }

  async steer(text, images) {
    if (images?.length) throw notImplemented("steer with images");
    this.#throwIfCommand(text);
    this.#queue(this.#steeringTexts, text, (message) => this.agent.steer(message));
  }

  async followUp(text, images) {
    if (images?.length) throw notImplemented("followUp with images");
    this.#throwIfCommand(text);
    this.#queue(this.#followUpTexts, text, (message) => this.agent.followUp(message));
  }

  #throwIfCommand(text) {
    if (text.startsWith("/") && this.#hasExpansions()) throw notImplemented("queued skill commands or prompt templates");
  }

  clearQueue() {
    const steering = [...this.#steeringTexts];
    const followUp = [...this.#followUpTexts];
    this.#steeringTexts = [];
    this.#followUpTexts = [];
    this.agent.clearAllQueues();
    this.#emitQueueUpdate();
    return { steering, followUp };
  }

  async #startRun(text, onStarted) {
    this.#runActive = true;
    this.#abortRequested = false;
    const options = normalizeBuildSystemPromptOptions(this.#baseSystemPromptOptions);
    options.selectedTools = this.getActiveToolNames();
    const messages = [{ role: "user", content: [{ type: "text", text }], timestamp: Date.now() }, ...this.#pendingNextTurnMessages];
    this.#pendingNextTurnMessages = [];
    const update = this.#preparePromptAndToolLoadout(options);
    this.#runSystemPromptOptions = options;
    if (update) messages.unshift(update);
    onStarted?.();
    try {
      await this.agent.prompt(messages);
      while (!this.#abortRequested && this.agent.hasQueuedMessages()) {
        this.#lastAssistantMessage = undefined;
        await this.agent.continue();
      }
    } finally {
      this.#lastAssistantMessage = undefined;
      this.#runSystemPromptOptions = undefined;
      await this.#emitSettled();
    }
  }

  async #emitSettled() {
    this.#runActive = false;
    this.#emit({ type: "agent_settled", aborted: this.#abortRequested });
    for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }

  async abort() {
    if (this.#runActive) this.#abortRequested = true;
    this.agent.abort();
    await this.waitForIdle();
  }

  waitForIdle() {
    if (this.isIdle) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  // --- model and thinking level ------------------------------------------------

  /** Switches the model (its auth must be configured) and records it in the session. */
  async setModel(model, options = {}) {
    if (!(await this.#modelRuntime.checkAuth(model.provider))) throw new Error(`No API key for ${model.provider}/${model.id}`);
    const thinkingLevel = this.#thinkingLevelForModel(model);
    this.agent.state.model = model;
    this.sessionManager.appendModelChange(model.provider, model.id);
    if (options.persist) this.settingsManager.setDefaultModelAndProvider(model.provider, model.id);
    this.setThinkingLevel(thinkingLevel);
  }

  #thinkingLevelForModel(model) {
    const perModel = this.settingsManager.getModelThinkingLevel(model.provider, model.id);
    if (perModel !== undefined) return perModel;
    return this.settingsManager.getDefaultThinkingLevel() ?? this.thinkingLevel ?? DEFAULT_THINKING_LEVEL;
  }

  /** Sets the thinking level, clamped to the model; a change is recorded in the session. */
  setThinkingLevel(level, options = {}) {
    const available = this.getAvailableThinkingLevels();
    const effective = available.includes(level) ? level : this.model ? clampThinkingLevel(this.model, level) : "off";
    const previous = this.agent.state.thinkingLevel;
    this.agent.state.thinkingLevel = effective;
    if (options.persist) this.settingsManager.setDefaultThinkingLevel(level);
    if (effective !== previous) {
      this.sessionManager.appendThinkingLevelChange(effective);
      this.#emit({ type: "thinking_level_changed", level: effective });
    }
  }

  cycleThinkingLevel(options = {}) {
    if (!this.supportsThinking()) return undefined;
    const levels = this.getAvailableThinkingLevels();
    const next = levels[(levels.indexOf(this.thinkingLevel) + 1) % levels.length];
    this.setThinkingLevel(next, options);
    return next;
  }

  getAvailableThinkingLevels() {
    return this.model ? getSupportedThinkingLevels(this.model) : [...THINKING_LEVELS];
  }

  supportsThinking() {
    return Boolean(this.model?.reasoning);
  }

  setSteeringMode(mode) {
    this.agent.steeringMode = mode;
    this.settingsManager.setSteeringMode(mode);
  }

  setFollowUpMode(mode) {
    this.agent.followUpMode = mode;
    this.settingsManager.setFollowUpMode(mode);
  }

  get autoCompactionEnabled() {
    return this.settingsManager.getCompactionEnabled();
  }

  get autoRetryEnabled() {
    return this.settingsManager.getRetryEnabled();
  }
}

// What an extension could call but pihost does not run yet: each throws
// pihost's not-implemented error naming the method.
const NOT_YET = [
  "sendCustomMessage",
  "sendUserMessage",
  "cycleModel",
  "compact",
  "abortCompaction",
  "abortBranchSummary",
  "setAutoCompactionEnabled",
  "abortRetry",
  "setAutoRetryEnabled",
  "executeBash",
  "recordBashResult",
  "abortBash",
  "setSessionName",
  "navigateTree",
  "getUserMessagesForForking",
  "getSessionStats",
  "getContextUsage",
  "exportToHtml",
  "exportToJsonl",
  "reload",
  "bindExtensions",
  "refreshContext",
  "getCallableToolNames",
  "setCacheWarmingMode",
  "summarizeForBugReport",
  "createReplacedSessionContext",
];
for (const method of NOT_YET) {
  Object.defineProperty(AgentSession.prototype, method, {
    value() {
      throw notImplemented(method);
    },
    writable: true,
    configurable: true,
  });
}
