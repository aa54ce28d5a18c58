// pi's AgentSession: an Agent bound to a SessionManager, the session's
// tools and system prompt. Prompts run through the agent loop; every
// finished message is persisted to the session, and the requests the model
// gets are projected from the session (not from the agent's own message
// list), as in pi. Failed answers a retry may fix are retried with pi's
// backoff. The resource loader's extensions run in the session as in pi: an
// extension runner (the runtime's own, extension-support.js) gets the
// session's actions, their tools join the session's, and the agent's events,
// tool calls, contexts, prompts and turn boundaries reach their handlers.
// Compaction is pi's: `compact` on request, and automatically before a
// prompt, after a run (at the threshold, or on a context overflow, which is
// compacted and retried once) and before the next response within a run.
import { readFileSync } from "node:fs";
import { basename, dirname } from "node:path";
import { resetApiProviders } from "../ai/dispatch.js";
import { clampThinkingLevel, getSupportedThinkingLevels, modelsAreEqual } from "../ai/model-kinds.js";
import { isContextOverflow, isRecoverableLength } from "../ai/overflow.js";
import { isRetryableAssistantError, retryDelayMs } from "../ai/retry.js";
import { cleanupSessionResources } from "../ai/session-resources.js";
import { getCurrentSystemMessage, getCurrentTools } from "../ai/system-messages.js";
import { contentText } from "../ai/system-text.js";
import { runToolCall } from "../agent-core/tool-calls.js";
import { executeBashWithOperations } from "./bash-executor.js";
import { collectEntriesForBranchSummary } from "./branch-summary.js";
import { generateBranchSummary } from "./branch-summary-generation.js";
import { generateBugReportSummary } from "./bug-report-summary.js";
import { calculateContextTokens, shouldCompact } from "./compaction.js";
import { estimateMessagesTokens, prepareCompaction } from "./compaction-preparation.js";
import { compact } from "./compaction-summary.js";
import { addUsageToTotals, combineUsage, createUsageTotals, estimateContextTokens, estimateProjectedContextTokens } from "./context-usage.js";
import { getLatestCompactionEntry } from "./session-context.js";
import { exportSessionToJsonl } from "./session-export.js";
import { exportSessionToHtml } from "./session-html-export.js";
import { extensionSupport } from "./extension-support.js";
import { convertToLlm } from "./messages.js";
import { findLatestResponse, getVirtualModelState, isVirtualModel, VIRTUAL_MODEL_STATE_ENTRY } from "./virtual-models.js";
import { ModelRegistry } from "./model-registry.js";
import { isSyntheticPath } from "./resource-loader.js";
import { NestedToolCallRunner } from "./nested-tool-calls.js";
import { normalizePromptImages, normalizeToolResultImages, withImageHints } from "./session-images.js";
import { SessionManager } from "./session-manager.js";
import { stripFrontmatter } from "./frontmatter.js";
import { expandPromptTemplate } from "./prompt-templates.js";
import { createSyntheticSourceInfo } from "./source-info.js";
import { buildSystemPrompt, buildSystemPromptSections, normalizeBuildSystemPromptOptions } from "./system-prompt.js";
import { createBashToolDefinition, createLocalBashOperations } from "./tools/bash.js";
import { createEditToolDefinition } from "./tools/edit.js";
import { createFindToolDefinition } from "./tools/find.js";
import { createGrepToolDefinition } from "./tools/grep.js";
import { createLsToolDefinition } from "./tools/ls.js";
import { createPowerShellToolDefinition } from "./tools/powershell.js";
import { createReadToolDefinition } from "./tools/read.js";
import { wrapToolDefinition } from "./tools/wrap.js";
import { createWriteToolDefinition } from "./tools/write.js";
import { formatNoApiKeyFoundMessage, formatNoModelSelectedMessage } from "./auth-guidance.js";
import { applyToolModifiers, createToolNameMatcher, DEFAULT_TOOL_NAMES } from "./tool-selection.js";

const DEFAULT_ACTIVE_TOOLS = ["read", "bash", "edit", "write"];
// Virtual models route each request to a physical one; pihost's sessions cannot route.
const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh"];
const DEFAULT_THINKING_LEVEL = "medium";
const STALE_SESSION_MESSAGE =
  "This extension ctx is stale after session replacement or reload. Do not use a captured pi or command ctx after ctx.newSession(), ctx.fork(), ctx.switchSession(), or ctx.reload(). For newSession, fork, and switchSession, move post-replacement work into withSession and use the ctx passed to withSession. For reload, do not use the old ctx after await ctx.reload().";

/** The next index when cycling through `length` items; undefined when there is nowhere else to go. */
function nextCycleIndex(current, length, direction) {
  if (length === 0) return undefined;
  if (current === -1) return direction === "forward" ? 0 : length - 1;
  if (length === 1) return undefined;
  return direction === "forward" ? (current + 1) % length : (current - 1 + length) % length;
}

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

// The extension runner of a session outside pihost's engine (the Node
// differentials), whose resource loader cannot have extensions: no handler
// for any event. What only a real runner can do throws.
const NO_EXTENSIONS = Object.freeze({
  hasHandlers: () => false,
  emit: async () => undefined,
  emitError: () => {},
  getCommand: () => undefined,
  getAllRegisteredTools: () => [],
  invalidate: () => {},
  createCommandContext() {
    throw notImplemented("extensionRunner.createCommandContext");
  },
});

/**
 * Puts `replacement` (a message_end handler's) in place of `target`, the
 * object the agent, its later events and the session's persistence share. A
 * message without content gets an empty one, as in pi.
 */
function replaceMessageInPlace(target, replacement) {
  if (target === replacement) return;
  const roles = ["user", "assistant", "toolResult", "custom"];
  const normalized = roles.includes(replacement.role) && replacement.content == null ? { ...replacement, content: [] } : replacement;
  for (const key of Object.keys(target)) delete target[key];
  Object.assign(target, normalized);
}

/** Whether a tool of this exposure is declared to the model when active. */
function isDeclarable(definition) {
  const exposure = definition?.exposure ?? "direct";
  return exposure === "direct" || exposure === "model-only";
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
  // Context-only custom messages sent mid-run wait for the turn to end, so none lands between a tool call and its result.
  #pendingCustomMessages = [];
  // Likewise bash results recorded mid-run wait for the run to end.
  #pendingBashMessages = [];
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
  // Declared tools whose declarations requests leave out, from the tools' prepareLoadout hooks.
  #hiddenDeclarations = new Set();
  #baseSystemPromptOptions;
  #runSystemPromptOptions;
  #lastAssistantMessage;
  #retryAttempt = 0;
  #retryAbortController;
  #compactionAbortController;
  #autoCompactionAbortController;
  // A tree navigation's branch summary in flight: it counts as compacting, as in pi.
  #branchSummaryAbortController;
  /** A context overflow is compacted and retried once per user message. */
  #overflowRecoveryAttempted = false;
  /** The failed answer the next request retries: a virtual model's router hears of it. */
  #failedResponse;
  #bashAbortControllers = new Set();
  // What reload needs to tell tools the default-tools setting newly names.
  #usesDefaultTools = false;
  #defaultToolModifiers = [];
  // Set by bindExtensions: reload restarts extensions only if the host started them.
  #extensionsBound = false;
  // Queued user messages whose images are fitted when they are delivered.
  #queuedMessagesWithImages = new WeakSet();
  // Made on a tool's first ctx.executeTool() call.
  #nestedToolCalls;
  #entryIdsByMessage = new WeakMap();
  #runner = NO_EXTENSIONS;
  #sessionStartEvent;
  // What bindExtensions gave: they outlive a runner (pi re-applies them on reload).
  #extensionBindings = {};
  #extensionErrorUnsubscriber;
  #turnIndex = 0;
  // Assistant messages whose turn_end boundary ran from the agent's finishTurn hook.
  #boundaryDispatchedMessages = new WeakSet();
  #lastActivityOutcome;
  #cacheWarmer;

  constructor(config) {
    this.agent = config.agent;
    this.sessionManager = config.sessionManager;
    this.settingsManager = config.settingsManager;
    this.#scopedModels = config.scopedModels ?? [];
    this.#resourceLoader = config.resourceLoader;
    this.#customTools = config.customTools ?? [];
    this.#cwd = config.cwd;
    this.#modelRuntime = config.modelRuntime;
    this.#cacheWarmer = config.cacheWarmer;
    if (this.#cacheWarmer) this.#cacheWarmer.onWarmed = (entry) => this.#emit({ type: "entry_appended", entry });
    if (config.allowedToolNames) this.#allowedTools = createToolNameMatcher(config.allowedToolNames);
    if (config.excludedToolNames) this.#excludedTools = createToolNameMatcher(config.excludedToolNames);
    this.#sessionStartEvent = config.sessionStartEvent ?? { type: "session_start", reason: "startup" };
    this.#unsubscribeAgent = this.agent.subscribe((event) => this.#handleAgentEvent(event));
    this.#installRequestProjection();
    this.#installNextTurnRefresh();
    this.#createExtensionRunner();
    this.#baseToolDefinitions = builtInToolDefinitions(this.#cwd);
    this.#refreshToolRegistry({ activeToolNames: config.initialActiveToolNames ?? DEFAULT_ACTIVE_TOOLS, includeAllExtensionTools: true });
    this.#usesDefaultTools = config.usesDefaultTools === true;
    this.#defaultToolModifiers = config.defaultToolModifiers ?? [];
    if (config.usesDefaultTools) this.#restoreToolsFromTranscript(this.#defaultToolModifiers);
  }

  // --- extensions ----------------------------------------------------------

  /** The runner of the resource loader's extensions, bound to this session (pi's _buildRuntime). */
  #createExtensionRunner() {
    if (!this.#buildExtensionRunner()) return;
    // Once per session: the hooks read the current runner, so a reload's runner needs no new ones.
    this.agent.beforeToolCall = (context) => this.#beforeToolCall(context);
    this.agent.afterToolCall = (context) => this.#afterToolCall(context);
    this.#installTurnEndBoundary();
  }

  /** A runner for the resource loader's extensions, bound to this session; false outside pihost's engine. */
  #buildExtensionRunner(flagValues) {
    const { extensions, runtime } = this.#resourceLoader.getExtensions();
    const support = extensionSupport();
    if (!support) {
      if (extensions.length > 0) throw notImplemented("running extensions outside pihost's engine");
      return false;
    }
    for (const [name, value] of flagValues ?? []) runtime.flagValues.set(name, value);
    const runner = new support.ExtensionRunner(extensions, runtime, this.#cwd, this.sessionManager, new ModelRegistry(this.#modelRuntime));
    this.#runner = runner;
    this.#bindExtensionCore(runner);
    this.#applyExtensionBindings(runner);
    return true;
  }

  /**
   * Reloads settings, resources and extensions as pi's reload does: the old
   * extensions hear session_shutdown and go stale; the new ones keep the
   * flag values and the active tools (plus tools the default-tools setting
   * newly names) and, once the session's extensions were bound, hear
   * session_start with reason "reload".
   */
  async reload(options) {
    if (this.isStreaming) throw new Error("Wait for the current response to finish before reloading.");
    if (this.isCompacting) throw new Error("Wait for compaction to finish before reloading.");
    const oldRunner = this.#runner;
    const previousFlagValues = oldRunner === NO_EXTENSIONS ? undefined : oldRunner.getFlagValues();
    if (oldRunner.hasHandlers("session_shutdown")) await oldRunner.emit({ type: "session_shutdown", reason: "reload" });
    oldRunner.invalidate();
    const defaultTools = () => (this.#usesDefaultTools ? applyToolModifiers(this.settingsManager.getDefaultTools() ?? DEFAULT_TOOL_NAMES, this.#defaultToolModifiers) : []);
    const previousDefaultTools = new Set(defaultTools());
    await this.settingsManager.reload();
    this.syncQueueModesFromSettings();
    resetApiProviders();
    await this.#resourceLoader.reload();
    const addedDefaultTools = defaultTools().filter((name) => !previousDefaultTools.has(name));
    const activeToolNames = [...this.getActiveToolNames(), ...addedDefaultTools];
    this.#runner = NO_EXTENSIONS;
    this.#buildExtensionRunner(previousFlagValues);
    this.#baseToolDefinitions = builtInToolDefinitions(this.#cwd);
    this.#refreshToolRegistry({ activeToolNames, includeAllExtensionTools: true });
    if (this.#extensionsBound) {
      await options?.beforeSessionStart?.();
      await this.#runner.emit({ type: "session_start", reason: "reload" });
      this.#runner.reportUnhandledMcpServers?.();
      await this.extendResourcesFromExtensions("reload");
    }
  }

  /** The session's actions, as extensions reach them through pi's API and contexts. */
  #bindExtensionCore(runner) {
    // A provider change goes to the model runtime; the session's model follows it.
    const followedByModelRefresh = (method) => (...args) => {
      this.#modelRuntime[method](...args);
      this.#refreshCurrentModel();
    };
    const reportFailure = (event) => (error) =>
      runner.emitError({ extensionPath: "<runtime>", event, error: error instanceof Error ? error.message : String(error) });
    const getCommands = () => [
      ...runner.getRegisteredCommands().map((command) => ({
        name: command.invocationName,
        description: command.description,
        source: "extension",
        sourceInfo: command.sourceInfo,
      })),
      ...this.promptTemplates.map((template) => ({
        name: template.name,
        description: template.description,
        source: "prompt",
        sourceInfo: template.sourceInfo,
      })),
      ...this.#resourceLoader.getSkills().skills.map((skill) => ({
        name: `skill:${skill.name}`,
        description: skill.description,
        source: "skill",
        sourceInfo: skill.sourceInfo,
      })),
    ];
    runner.bindCore(
      {
        sendMessage: (message, options) => {
          this.sendCustomMessage(message, options).catch(reportFailure("send_message"));
        },
        sendUserMessage: (content, options) => {
          this.sendUserMessage(content, options).catch(reportFailure("send_user_message"));
        },
        appendEntry: (customType, data) => {
          const entry = this.sessionManager.getEntry(this.sessionManager.appendCustomEntry(customType, data));
          if (entry) this.#emit({ type: "entry_appended", entry });
        },
        setSessionName: (name) => this.setSessionName(name),
        getSessionName: () => this.sessionManager.getSessionName(),
        setLabel: (entryId, label) => {
          this.sessionManager.appendLabelChange(entryId, label);
        },
        getActiveTools: () => this.getActiveToolNames(),
        getAllTools: () => this.getAllTools(),
        getSettings: () => this.settingsManager.getSettings(),
        setActiveTools: (toolNames) => this.setActiveToolsByName(toolNames),
        refreshTools: () => this.#refreshToolRegistry(),
        getCommands,
        setModel: async (model) => {
          if (!this.#modelRuntime.hasConfiguredAuth(model.provider)) return false;
          await this.setModel(model);
          return true;
        },
        getThinkingLevel: () => this.thinkingLevel,
        setThinkingLevel: (level) => this.setThinkingLevel(level),
      },
      {
        getModel: () => this.model,
        getScopedModels: () => this.#scopedModels,
        isIdle: () => this.isIdle,
        isProjectTrusted: () => this.settingsManager.isProjectTrusted(),
        getSignal: () => this.agent.signal,
        abort: () => {
          if (this.#extensionBindings.abortHandler) this.#extensionBindings.abortHandler();
          else void this.abort();
        },
        hasPendingMessages: () => this.pendingMessageCount > 0,
        shutdown: () => this.#extensionBindings.shutdownHandler?.(),
        getContextUsage: () => this.getContextUsage(),
        compact: (options) => {
          void (async () => {
            try {
              options?.onComplete?.(await this.compact(options?.customInstructions));
            } catch (error) {
              options?.onError?.(error instanceof Error ? error : new Error(String(error)));
            }
          })();
        },
        getSystemPrompt: () => this.systemPrompt,
        getSystemPromptOptions: () => this.#baseSystemPromptOptions,
        executeTool: (callerId, name, args, options) => this.#executeNestedToolCall(callerId, name, args, options),
        getCallableTools: () => this.#callableTools(),
      },
      {
        registerProvider: followedByModelRefresh("registerProvider"),
        registerNativeProvider: followedByModelRefresh("registerNativeProvider"),
        unregisterProvider: followedByModelRefresh("unregisterProvider"),
        registerVirtualModel: followedByModelRefresh("registerVirtualModel"),
        unregisterVirtualModel: followedByModelRefresh("unregisterVirtualModel"),
      },
    );
  }

  /** A provider change may replace the current model's object; the session follows it. */
  #refreshCurrentModel() {
    const current = this.model;
    if (!current) return;
    const refreshed = this.#modelRuntime.getModel(current.provider, current.id);
    if (refreshed && refreshed !== current) this.agent.state.model = refreshed;
  }

  #applyExtensionBindings(runner) {
    const bindings = this.#extensionBindings;
    runner.setUIContext(bindings.uiContext, bindings.mode);
    runner.bindCommandContext(bindings.commandContextActions);
    this.#extensionErrorUnsubscriber?.();
    this.#extensionErrorUnsubscriber = bindings.onError ? runner.onError(bindings.onError) : undefined;
  }

  /**
   * Binds the host's side (UI, mode, command actions, abort and shutdown
   * handlers, an error listener), then starts the extensions: session_start,
   * the unconnected MCP servers reported, and the resources they add.
   */
  async bindExtensions(bindings) {
    for (const key of ["uiContext", "mode", "commandContextActions", "abortHandler", "shutdownHandler", "onError"]) {
      if (bindings[key] !== undefined) this.#extensionBindings[key] = bindings[key];
    }
    const runner = this.#runner;
    if (runner === NO_EXTENSIONS) return;
    this.#extensionsBound = true;
    this.#applyExtensionBindings(runner);
    await runner.emit(this.#sessionStartEvent);
    runner.reportUnhandledMcpServers();
    await this.extendResourcesFromExtensions(this.#sessionStartEvent.reason === "reload" ? "reload" : "startup");
  }

  /** The skills, prompt templates and themes resources_discover handlers give join the resource loader's. */
  async extendResourcesFromExtensions(reason) {
    if (!this.#runner.hasHandlers("resources_discover")) return;
    const { skillPaths, promptPaths, themePaths } = await this.#runner.emitResourcesDiscover(this.#cwd, reason);
    if (skillPaths.length === 0 && promptPaths.length === 0 && themePaths.length === 0) return;
    this.#resourceLoader.extendResources({
      skillPaths: this.buildExtensionResourcePaths(skillPaths),
      promptPaths: this.buildExtensionResourcePaths(promptPaths),
      themePaths: this.buildExtensionResourcePaths(themePaths),
    });
    this.#rebuildSystemPrompt(this.getActiveToolNames());
  }

  /** Paths an extension gave, with the metadata pi gives them: temporary, from that extension. */
  buildExtensionResourcePaths(entries) {
    return entries.map((entry) => ({
      path: entry.path,
      metadata: {
        source: this.getExtensionSourceLabel(entry.extensionPath),
        scope: "temporary",
        origin: "top-level",
        baseDir: isSyntheticPath(entry.extensionPath) ? undefined : dirname(entry.extensionPath),
      },
    }));
  }

  getExtensionSourceLabel(extensionPath) {
    if (isSyntheticPath(extensionPath)) return `extension:${extensionPath.replace(/[<>]/g, "")}`;
    return `extension:${basename(extensionPath).replace(/\.(ts|js)$/, "")}`;
  }

  /** `tool_call` handlers may block a call (pi's beforeToolCall hook); `parentToolCallId` marks a call a tool made. */
  async #beforeToolCall({ toolCall, args }, parentToolCallId) {
    const runner = this.#runner;
    if (!runner.hasHandlers("tool_call")) return undefined;
    try {
      return await runner.emitToolCall({
        type: "tool_call",
        toolName: toolCall.name,
        toolCallId: toolCall.id,
        ...(parentToolCallId ? { parentToolCallId } : {}),
        input: args,
      });
    } catch (error) {
      if (error instanceof Error) throw error;
      throw new Error(`Extension failed, blocking execution: ${String(error)}`);
    }
  }

  /** `tool_result` handlers may replace a result's content, details and error flag. */
  async #afterToolCall({ toolCall, args, result, isError }, parentToolCallId) {
    const runner = this.#runner;
    const hookResult = !runner.hasHandlers("tool_result") ? undefined : await runner.emitToolResult({
      type: "tool_result",
      toolName: toolCall.name,
      toolCallId: toolCall.id,
      ...(parentToolCallId ? { parentToolCallId } : {}),
      input: args,
      content: result.content,
      details: result.details,
      ...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }),
      isError,
      usage: result.usage,
    });
    const content = hookResult?.content ?? result.content ?? [];
    // After the hooks, so images they put in are fitted too.
    const { resizeOptions } = this.#imageOptions();
    const fitted = await normalizeToolResultImages(content, {
      autoResizeImages: this.settingsManager.getImageAutoResize(),
      ...(resizeOptions ? { resizeOptions } : {}),
    });
    if (!hookResult && fitted === content) return undefined;
    return {
      content: fitted,
      details: hookResult?.details,
      structuredContent: hookResult ? hookResult.structuredContent : result.structuredContent,
      isError: hookResult?.isError ?? isError,
      usage: hookResult?.usage,
    };
  }

  /** The agent's events as extension events, awaited before the session's listeners hear them. */
  async #emitExtensionEvent(event) {
    const runner = this.#runner;
    switch (event.type) {
      case "agent_start":
        this.#turnIndex = 0;
        await runner.emit({ type: "agent_start" });
        break;
      case "agent_end":
        await runner.emit({ type: "agent_end", messages: event.messages });
        break;
      case "turn_start":
        await runner.emit({ type: "turn_start", turnIndex: this.#turnIndex, timestamp: Date.now() });
        break;
      case "turn_end":
        if (event.message.role === "assistant" && !this.#boundaryDispatchedMessages.has(event.message)) {
          await this.#dispatchTurnEndBoundary(event.message, event.toolResults);
        }
        this.#boundaryDispatchedMessages.delete(event.message);
        this.#turnIndex++;
        break;
      case "message_start":
        await runner.emit({ type: "message_start", message: event.message });
        break;
      case "message_update":
        await runner.emit({ type: "message_update", message: event.message, assistantMessageEvent: event.assistantMessageEvent });
        break;
      case "message_end": {
        const replacement = await runner.emitMessageEnd({ type: "message_end", message: event.message });
        if (replacement) replaceMessageInPlace(event.message, replacement);
        break;
      }
      case "tool_execution_start":
        await runner.emit({ type: "tool_execution_start", toolCallId: event.toolCallId, toolName: event.toolName, args: event.args });
        break;
      case "tool_execution_update":
        await runner.emit({
          type: "tool_execution_update",
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          args: event.args,
          partialResult: event.partialResult,
        });
        break;
      case "tool_execution_end":
        await runner.emit({
          type: "tool_execution_end",
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          result: event.result,
          isError: event.isError,
          ...(event.durationMs === undefined ? {} : { durationMs: event.durationMs }),
        });
        break;
    }
  }

  // --- turn boundaries -------------------------------------------------------

  /** turn_end runs as the agent finishes each turn, so its handlers' entries and `continue` shape the next one. */
  #installTurnEndBoundary() {
    const previous = this.agent.finishTurn;
    this.agent.finishTurn = async (turn, signal) => {
      this.#boundaryDispatchedMessages.add(turn.message);
      const extensionContinue = await this.#dispatchTurnEndBoundary(turn.message, turn.toolResults);
      const decision = await previous?.(turn, signal);
      if (decision?.action === "end") return decision;
      if (extensionContinue || decision?.action === "continue") return { action: "continue" };
      return undefined;
    };
  }

  /** Whether turn_end's handlers asked for another turn that can run. */
  async #dispatchTurnEndBoundary(message, toolResults) {
    this.#lastActivityOutcome = message.stopReason === "aborted" ? "aborted" : message.stopReason === "error" ? "error" : "completed";
    const runner = this.#runner;
    // Finding the entry reads the branch: only when someone will be told.
    if (!runner.hasHandlers("turn_end")) return false;
    const messageEntryId = this.#findPersistedMessageEntryId(message);
    if (!messageEntryId) {
      runner.emitError({ extensionPath: "<boundary>", event: "turn_end", error: "turn_end could not resolve the persisted assistant entry ID" });
      return false;
    }
    const toolResultEntryIds = toolResults.flatMap((result) => this.#findPersistedMessageEntryId(result) ?? []);
    const boundary = await runner.emitBoundary(
      {
        type: "turn_end",
        turnIndex: this.#turnIndex,
        message,
        toolResults,
        messageEntryId,
        toolResultEntryIds,
        outcome: this.#lastActivityOutcome,
      },
      (entries) => this.#buildBoundaryContext(entries, "turn_end"),
    );
    this.#commitBoundaryDrafts(boundary.entries);
    if (boundary.continue && !this.#buildBoundaryContext([], "turn_end").canContinue) {
      this.#reportInvalidBoundaryContinuation("turn_end");
      return false;
    }
    return boundary.continue;
  }

  /** agent_before_settle: whether the run goes on before it settles. */
  async #runBeforeSettleBoundary() {
    const runner = this.#runner;
    if (!runner.hasHandlers("agent_before_settle")) return this.agent.hasQueuedMessages();
    const result = await runner.emitBoundary({ type: "agent_before_settle", outcome: this.#lastActivityOutcome }, (entries) =>
      this.#buildBoundaryContext(entries, "agent_before_settle"),
    );
    this.#commitBoundaryDrafts(result.entries);
    this.#flushPendingCustomMessages();
    const finalContext = this.#buildBoundaryContext([], "agent_before_settle");
    if (this.#abortRequested) return false;
    const goOn = result.continue || this.agent.hasQueuedMessages();
    if (goOn && !finalContext.canContinue) {
      if (result.continue) this.#reportInvalidBoundaryContinuation("agent_before_settle");
      return false;
    }
    return goOn;
  }

  /** Writes boundary drafts into `manager`; returns the entries made. */
  #applyBoundaryDrafts(manager, drafts) {
    const appended = [];
    for (const draft of drafts) {
      let entryId;
      if (draft.type === "custom") entryId = manager.appendCustomEntry(draft.customType, draft.data);
      else if (draft.type === "custom_message") entryId = manager.appendCustomMessageEntry(draft.customType, draft.content, draft.display, draft.details);
      else if (draft.type === "context_edit") entryId = manager.appendContextEdit(draft.targetId, draft.replacement);
      else if (draft.type === "compaction") {
        const tokensBefore = estimateProjectedContextTokens(manager.buildSessionProjection(), manager.getBranch()).tokens;
        entryId = manager.appendCompaction(draft.summary, draft.firstKeptEntryId, tokensBefore, draft.details, true, draft.usage);
      }
      const entry = entryId === undefined ? undefined : manager.getEntry(entryId);
      if (entry) appended.push(entry);
    }
    return appended;
  }

  /** What the context would be with `drafts` applied, on a copy of the branch (a draft that cannot apply throws). */
  #buildBoundaryContext(drafts, boundary) {
    const header = this.sessionManager.getHeader();
    if (!header) throw new Error("Session header is missing");
    const preview = SessionManager.inMemory(this.#cwd, undefined, [header, ...this.sessionManager.getBranch()]);
    this.#applyBoundaryDrafts(preview, drafts);
    const projection = preview.buildSessionProjection();
    const llmMessages = convertToLlm(projection.messages);
    const finalRole = llmMessages.at(-1)?.role;
    const contextCanContinue = llmMessages.some((message) => message.role !== "system") && finalRole !== "assistant";
    const queued = this.agent.hasQueuedMessages();
    return {
      contextEntries: projection.entries,
      contextMessages: projection.messages,
      llmMessages,
      pendingMessages: [...this.agent.peekQueuedMessages(), ...this.#pendingCustomMessages],
      canContinue:
        contextCanContinue ||
        this.#pendingCustomMessages.length > 0 ||
        (boundary === "turn_end" ? queued : finalRole === "assistant" && queued),
    };
  }

  #commitBoundaryDrafts(drafts) {
    const appended = this.#applyBoundaryDrafts(this.sessionManager, drafts);
    this.refreshContext();
    for (const entry of appended) this.#emit({ type: "entry_appended", entry });
  }

  #reportInvalidBoundaryContinuation(event) {
    this.#runner.emitError({ extensionPath: "<boundary>", event, error: `${event} requested continuation without runnable model context` });
  }

  get modelRuntime() {
    return this.#modelRuntime;
  }

  get extensionRunner() {
    return this.#runner;
  }

  hasExtensionHandlers(eventType) {
    return this.#runner.hasHandlers(eventType);
  }

  // --- tools and system prompt ---------------------------------------------

  #isAllowedTool(name) {
    if (this.#excludedTools?.(name)) return false;
    return !this.#allowedTools || this.#allowedTools(name);
  }

  // What pi's tool context carries that tools of a session outside the engine use: no UI, no runner.
  #toolContext() {
    return { cwd: this.#cwd, sessionManager: this.sessionManager, model: this.model, thinkingLevel: this.thinkingLevel, hasUI: false };
  }

  /** Whether registering the tool activates it. */
  #isActivatedOnRegistration(name) {
    const definition = this.#toolDefinitions.get(name)?.definition;
    return isDeclarable(definition) && definition?.defaultActive !== false;
  }

  /**
   * The tool registry from the built-in tools, the extensions' registered
   * tools and the SDK's custom tools (later ones replace earlier ones of the
   * same name), and the active set: `activeToolNames` (or the current one),
   * plus what the allowed list names, plus newly registered tools.
   */
  #refreshToolRegistry(options = {}) {
    const previouslyActivated = new Set([...this.#toolRegistry.keys()].filter((name) => this.#isActivatedOnRegistration(name)));
    const previousActive = this.getActiveToolNames();
    const runner = this.#runner;
    const customTools = [
      ...runner.getAllRegisteredTools(),
      ...this.#customTools.map((definition) => ({ definition, sourceInfo: createSyntheticSourceInfo(`<sdk:${definition.name}>`, { source: "sdk" }) })),
    ].filter((tool) => this.#isAllowedTool(tool.definition.name));
    const builtIns = [...this.#baseToolDefinitions.values()]
      .filter((definition) => this.#isAllowedTool(definition.name))
      .map((definition) => ({ definition, sourceInfo: createSyntheticSourceInfo(`<builtin:${definition.name}>`, { source: "builtin" }) }));
    const definitions = new Map();
    for (const tool of [...builtIns, ...customTools]) definitions.set(tool.definition.name, tool);
    this.#toolDefinitions = definitions;
    this.#toolSnippets = new Map();
    this.#toolGuidelines = new Map();
    for (const { definition } of definitions.values()) {
      const snippet = definition.promptSnippet?.replace(/[\r\n]+/g, " ").replace(/\s+/g, " ").trim();
      if (snippet) this.#toolSnippets.set(definition.name, snippet);
      const guidelines = [...new Set((definition.promptGuidelines ?? []).map((line) => line.trim()).filter(Boolean))];
      if (guidelines.length > 0) this.#toolGuidelines.set(definition.name, guidelines);
    }
    const support = extensionSupport();
    const wrap = (tools) =>
      support && runner !== NO_EXTENSIONS
        ? support.wrapRegisteredTools(tools, runner)
        : tools.map(({ definition }) => wrapToolDefinition(definition, () => this.#toolContext()));
    this.#toolRegistry = new Map([...wrap(builtIns), ...wrap(customTools)].map((tool) => [tool.name, tool]));
    const next = (options.activeToolNames ?? previousActive).filter((name) => this.#isAllowedTool(name));
    if (this.#allowedTools) {
      for (const name of this.#toolRegistry.keys()) {
        if (this.#allowedTools(name) && isDeclarable(definitions.get(name)?.definition)) next.push(name);
      }
    } else if (options.includeAllExtensionTools) {
      for (const { definition } of customTools) if (this.#isActivatedOnRegistration(definition.name)) next.push(definition.name);
    } else if (!options.activeToolNames) {
      for (const name of this.#toolRegistry.keys()) {
        if (!previouslyActivated.has(name) && this.#isActivatedOnRegistration(name)) next.push(name);
      }
    }
    this.#setActiveTools([...new Set(next)]);
  }

  /**
   * A resumed session gets back the tools its transcript last declared,
   * plus custom tools it never mentioned; `modifiers` (+name/-name) apply on
   * top. A transcript that declared nothing keeps the current tools.
   */
  #restoreToolsFromTranscript(modifiers) {
    const systemMessages = this.sessionManager
      .getBranch()
      .flatMap((entry) => (entry.type === "message" && entry.message.role === "system" ? [entry.message] : []));
    if (systemMessages.length === 0) return;
    const mentioned = new Set(systemMessages.flatMap((message) => [...(message.toolsAdded ?? []), ...(message.toolsRemoved ?? [])]).map((tool) => tool.name));
    const newTools = [...this.#toolRegistry.keys()].filter((name) => {
      if (mentioned.has(name) || this.#baseToolDefinitions.has(name)) return false;
      const definition = this.#toolDefinitions.get(name)?.definition;
      const exposure = definition?.exposure ?? "direct";
      return (exposure === "direct" || exposure === "model-only") && definition?.defaultActive !== false;
    });
    const declared = getCurrentTools(systemMessages).map((tool) => tool.name);
    this.#setActiveTools(applyToolModifiers([...declared, ...newTools], modifiers));
  }

  /**
   * Activates the registered, non-hidden tools of `names`: kept ones keep their place, new ones go
   * last. Active tools with a `prepareLoadout` hook (codemode's, say) may then change the declared
   * descriptions and hide declarations from requests.
   */
  #applyToolLoadout(names) {
    const requested = new Set(names);
    const kept = this.getActiveToolNames().filter((name) => requested.has(name));
    const tools = [...new Set([...kept, ...requested])].flatMap((name) => {
      const tool = this.#toolRegistry.get(name);
      return tool && this.#exposureOf(name) !== "hidden" ? [tool] : [];
    });
    const { declared, hidden } = this.#prepareLoadout(tools);
    this.#hiddenDeclarations = hidden;
    this.agent.state.tools = declared;
    return declared;
  }

  #exposureOf(name) {
    return this.#toolDefinitions.get(name)?.definition.exposure ?? "direct";
  }

  /** The active tools as their prepareLoadout hooks declare them, and the declarations they hide. */
  #prepareLoadout(tools) {
    const hidden = new Set();
    const hooks = tools.flatMap((tool) => {
      const entry = this.#toolDefinitions.get(tool.name);
      return entry?.definition.prepareLoadout ? [entry] : [];
    });
    if (hooks.length === 0) return { declared: tools, hidden };
    const activeNames = new Set(tools.map((tool) => tool.name));
    const loadout = {
      declared: tools,
      callable: this.#callableTools(activeNames),
      registered: [...this.#toolRegistry.values()],
      getExposure: (name) => this.#exposureOf(name),
      getNamespace: (name) => this.#toolDefinitions.get(name)?.definition.namespace,
      getPromptGuidelines: (name) => this.#toolGuidelines.get(name) ?? [],
    };
    const descriptions = new Map();
    for (const { definition, sourceInfo } of hooks) {
      try {
        const changes = definition.prepareLoadout(loadout);
        for (const [name, description] of Object.entries(changes?.descriptions ?? {})) descriptions.set(name, description);
        for (const name of changes?.hiddenDeclarations ?? []) hidden.add(name);
      } catch (error) {
        this.#runner.emitError({
          extensionPath: sourceInfo.path,
          event: "prepare_loadout",
          error: error instanceof Error ? error.message : String(error),
          stack: error instanceof Error ? error.stack : undefined,
        });
      }
    }
    const declared = tools.map((tool) => {
      const description = descriptions.get(tool.name);
      return description === undefined ? tool : { ...tool, description };
    });
    return { declared, hidden };
  }

  /** `messages` with the declarations prepareLoadout hooks hide left out of their tool changes. */
  #withoutHiddenDeclarations(messages) {
    const hidden = this.#hiddenDeclarations;
    if (hidden.size === 0) return messages;
    return messages.map((message) => {
      if (message.role !== "system" || (!message.toolsAdded && !message.toolsRemoved)) return message;
      const { toolsAdded, toolsRemoved, ...rest } = message;
      const added = toolsAdded?.filter((tool) => !hidden.has(tool.name)) ?? [];
      const removed = toolsRemoved?.filter((tool) => !hidden.has(tool.name)) ?? [];
      return { ...rest, ...(added.length > 0 ? { toolsAdded: added } : {}), ...(removed.length > 0 ? { toolsRemoved: removed } : {}) };
    });
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
      hiddenTools: [...this.#hiddenDeclarations],
      toolSnippets,
      toolGuidelines: Object.fromEntries(this.#toolGuidelines),
    });
  }

  /** Applies the loadout of `options` and returns the system message patching the prompt the model has, if it changed. */
  #preparePromptAndToolLoadout(options, messages = this.agent.state.messages) {
    options.selectedTools = this.#applyToolLoadout(options.selectedTools).map((tool) => tool.name);
    // The tool list and rules must match the declarations the request carries.
    options.hiddenTools = [...this.#hiddenDeclarations];
    const sections = diffSections(getCurrentSystemMessage(messages)?.sections ?? {}, buildSystemPromptSections(options));
    return sections ? { role: "system", content: "", sections, timestamp: Date.now() } : undefined;
  }

  // Requests see the session's projection: what was persisted, not the agent's own list.
  // A virtual model is routed here, for this request only: the selection stays.
  #installRequestProjection() {
    const previous = this.agent.prepareRequest;
    this.agent.prepareRequest = async (request, signal) => {
      const failed = this.#failedResponse;
      this.#failedResponse = undefined;
      const prepare = async () => {
        const projection = this.sessionManager.buildSessionProjection();
        const context = {
          ...request.context,
          messages: this.#withoutHiddenDeclarations(projection.messages),
          tools: this.agent.state.tools.slice(),
        };
        const update = await previous?.({ ...request, context, model: this.agent.state.model, thinkingLevel: this.agent.state.thinkingLevel }, signal);
        return { update, context: update?.context ?? context, projection };
      };
      let { update, context, projection } = await prepare();
      const model = update?.model ?? this.agent.state.model;
      const thinkingLevel = update?.thinkingLevel ?? this.agent.state.thinkingLevel;
      if (!isVirtualModel(model)) return { ...update, context, model, thinkingLevel };
      // Only messages the user wrote start a turn; extension messages may follow them.
      const lastResponse = context.messages.findLastIndex((message) => message.role === "assistant");
      const userTurn = context.messages.slice(lastResponse + 1).some((message) => message.role === "user");
      const state = getVirtualModelState(this.sessionManager.getBranch(), model.provider, model.id);
      const route = await this.#modelRuntime.resolveModel(model, convertToLlm(context.messages), {
        reason: failed ? "retry" : userTurn ? "user" : "continuation",
        thinkingLevel,
        signal,
        failed,
        state,
      });
      if (route.state !== undefined && route.state !== state) {
        const data = { provider: model.provider, modelId: model.id, state: route.state };
        const entry = this.sessionManager.getEntry(this.sessionManager.appendCustomEntry(VIRTUAL_MODEL_STATE_ENTRY, data));
        if (entry) this.#emit({ type: "entry_appended", entry });
      }
      if (this.#exceedsCompactionThreshold(route.model, projection)) {
        await this.#runAutoCompaction("threshold", false);
        ({ update, context } = await prepare());
      }
      return { ...update, context, model: route.model, thinkingLevel: route.thinkingLevel };
    };
  }

  #exceedsCompactionThreshold(model, projection) {
    if (model.contextWindow <= 0) return false;
    const tokens = estimateProjectedContextTokens(projection, this.sessionManager.getBranch()).tokens;
    return shouldCompact(tokens, model.contextWindow, this.settingsManager.getCompactionSettings(this.model));
  }

  // Each next turn re-renders the prompt for the tools active then.
  #installNextTurnRefresh() {
    const previous =
      this.agent.prepareNextTurnWithContext ?? (this.agent.prepareNextTurn ? async (_turn, signal) => await this.agent.prepareNextTurn?.(signal) : undefined);
    this.agent.prepareNextTurnWithContext = async (turn, signal) => {
      const context = await this.#compactBeforeNextResponse(turn.context);
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

  async #handleAgentEvent(event) {
    if (event.type === "agent_start" && this.#abortRequested) this.agent.abort();
    // The calls a tool made through ctx.executeTool(), and their usage, go on its result message.
    if (this.#nestedToolCalls) {
      if (event.type === "message_start" && event.message.role === "toolResult") {
        const { message } = event;
        const record = this.#nestedToolCalls.takeRecord(message.toolCallId);
        if (record?.calls) message.nestedCalls = record.calls;
        if (record?.usage) message.usage = message.usage ? combineUsage(message.usage, record.usage) : record.usage;
      } else if (event.type === "agent_end") {
        this.#nestedToolCalls.clear();
      }
    }
    if (event.type === "message_start" && event.message.role === "user") {
      this.#overflowRecoveryAttempted = false;
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
      // Fitted at delivery, before anyone hears of the message or stores it, with the model of that moment.
      if (this.#queuedMessagesWithImages.has(event.message)) {
        this.#queuedMessagesWithImages.delete(event.message);
        await this.#normalizeQueuedMessageImages(event.message);
      }
    }
    // Extensions hear each event before the session's listeners.
    if (this.#runner !== NO_EXTENSIONS) await this.#emitExtensionEvent(event);
    this.#emit(event.type === "agent_end" ? { ...event, willRetry: this.#willRetryAfterAgentEnd(event) } : event);
    if (event.type === "message_end") {
      const { message } = event;
      let entryId;
      if (message.role === "custom") {
        entryId = this.sessionManager.appendCustomMessageEntry(message.customType, message.content, message.display, message.details);
      } else if (["system", "user", "assistant", "toolResult"].includes(message.role)) {
        entryId = this.sessionManager.appendMessage(message);
      }
      if (entryId) this.#entryIdsByMessage.set(message, entryId);
      if (message.role === "assistant") {
        this.#lastAssistantMessage = message;
        if (message.stopReason !== "error" && message.stopReason !== "length") this.#overflowRecoveryAttempted = false;
        // A good answer ends a retry streak at once, so streaks do not add up across a run's calls.
        if (message.stopReason !== "error" && this.#retryAttempt > 0) {
          this.#emit({ type: "auto_retry_end", success: true, attempt: this.#retryAttempt });
          this.#retryAttempt = 0;
        }
      }
    }
    if (event.type === "turn_end") this.#flushPendingCustomMessages();
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
      this.abortRetry();
      this.abortCompaction();
      this.abortBranchSummary();
      this.abortBash();
      this.agent.abort();
    } catch {
      // Disposing must succeed even when an abort hook throws.
    }
    this.#runner.invalidate(STALE_SESSION_MESSAGE);
    this.#unsubscribeAgent?.();
    this.#unsubscribeAgent = undefined;
    this.#listeners = [];
    if (this.#cacheWarmer) {
      this.#cacheWarmer.onWarmed = undefined;
      this.#cacheWarmer.cancel();
    }
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

  /** Under a virtual model, the physical model and thinking level of the latest good answer. */
  get routedModel() {
    if (!isVirtualModel(this.model)) return undefined;
    const latest = findLatestResponse(this.agent.state.messages);
    const model = latest && this.#modelRuntime.getPhysicalModel(latest.provider, latest.model);
    return model && { model, thinkingLevel: latest.thinkingLevel };
  }

  /** Where the prompt-cache warming stands, and what decided it. */
  get cacheWarmingStatus() {
    return this.#cacheWarmer?.status;
  }

  /** The session model's report of what went wrong, for a bug report filed without the transcript. */
  async summarizeForBugReport(options) {
    const model = this.model;
    if (!model) throw new Error("No model selected");
    // Auth is the model runtime's, resolved by the stream function as for the session's own requests.
    return generateBugReportSummary({
      model,
      thinkingLevel: this.thinkingLevel,
      messages: this.messages,
      hint: options.hint,
      signal: options.signal,
      streamFn: this.agent.streamFunction,
      retry: this.settingsManager.getRetrySettings(),
      sessionId: this.sessionId,
    });
  }

  /** Saves the warming mode and stops warming it no longer allows. */
  setCacheWarmingMode(mode) {
    this.settingsManager.setCacheWarmingMode(mode);
    this.#cacheWarmer?.onModeChanged();
  }

  get isStreaming() {
    return this.#runActive;
  }

  get isIdle() {
    return !this.#runActive && !this.isCompacting;
  }

  get isCompacting() {
    return (
      this.#compactionAbortController !== undefined ||
      this.#autoCompactionAbortController !== undefined ||
      this.#branchSummaryAbortController !== undefined
    );
  }

  get systemPrompt() {
    return buildSystemPrompt(this.#runSystemPromptOptions ?? this.#baseSystemPromptOptions);
  }

  get retryAttempt() {
    return this.#retryAttempt;
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

  /** The tools other tools can call: the active direct ones and every codemode or deferred one. */
  getCallableToolNames() {
    return this.#callableTools().map((tool) => tool.name);
  }

  /** Tools callable through `ctx.executeTool()`: the active `direct` ones and every `codemode` or `deferred` one. */
  #callableTools(active = new Set(this.getActiveToolNames())) {
    return [...this.#toolRegistry.values()].filter((tool) => {
      const exposure = this.#exposureOf(tool.name);
      return exposure === "codemode" || exposure === "deferred" || (exposure === "direct" && active.has(tool.name));
    });
  }

  /** A call the tool call `callerId` made through `ctx.executeTool()`: the session's tool pipeline and hooks, against the callable tools. */
  #executeNestedToolCall(callerId, name, args, options) {
    this.#nestedToolCalls ??= new NestedToolCallRunner({
      getTools: () => this.#callableTools(),
      isSequential: () => this.agent.toolExecution === "sequential",
      runToolCall: (toolCall, parentToolCallId, signal, onUpdate) => {
        const assistantMessage = this.agent.state.messages.findLast((message) => message.role === "assistant");
        if (!assistantMessage) {
          const result = { content: [{ type: "text", text: "No assistant message issued this call" }], details: {} };
          return Promise.resolve({ toolCall, result, isError: true });
        }
        return runToolCall(toolCall, {
          tools: this.#callableTools(),
          assistantMessage,
          context: { messages: this.agent.state.messages, tools: this.agent.state.tools },
          beforeToolCall: (context) => this.#beforeToolCall(context, parentToolCallId),
          afterToolCall: (context) => this.#afterToolCall(context, parentToolCallId),
          signal,
          onUpdate,
        });
      },
      emit: async (event) => {
        await this.#runner.emit(event);
        this.#emit(event);
      },
    });
    return this.#nestedToolCalls.execute(callerId, name, args, options);
  }

  getToolDefinition(name) {
    return this.#toolDefinitions.get(name)?.definition;
  }

  /** Activates the named registered tools; unknown and hidden names are ignored. Takes effect next turn. */
  setActiveToolsByName(toolNames) {
    this.#setActiveTools(toolNames);
  }

  /** The text of the last reply; replies without text that did not end normally (aborted, failed, only tool calls) are skipped. */
  getLastAssistantText() {
    const last = this.messages.findLast(
      (message) =>
        message.role === "assistant" &&
        (message.stopReason === "stop" || message.content.some((block) => block.type === "text" && block.text.trim())),
    );
    if (!last) return undefined;
    let text = "";
    for (const block of last.content) if (block.type === "text") text += block.text;
    return text.trim() || undefined;
  }

  getUserMessagesForForking() {
    const result = [];
    for (const entry of this.sessionManager.getEntries()) {
      if (entry.type !== "message" || entry.message.role !== "user") continue;
      const text = contentText(entry.message.content, "");
      if (text) result.push({ entryId: entry.id, text });
    }
    return result;
  }

  setSessionName(name) {
    this.sessionManager.appendSessionInfo(name);
    this.#emit({ type: "session_info_changed", name: this.sessionManager.getSessionName() });
  }

  /** How full the model's context is; tokens and percent are null when unknown since the latest compaction. */
  getContextUsage() {
    const model = this.model;
    if (!model) return undefined;
    const contextWindow = model.contextWindow ?? 0;
    if (contextWindow <= 0) return undefined;
    const projection = this.sessionManager.buildSessionProjection();
    const branch = this.sessionManager.getBranch();
    const latestCompaction = getLatestCompactionEntry(branch);
    if (latestCompaction) {
      // Usage from before the compaction measures the old context; only a later reply counts.
      const answered = new Set(
        projection.entries.flatMap((entry) =>
          entry.messages.some(
            (message) =>
              message.role === "assistant" &&
              message.stopReason !== "aborted" &&
              message.stopReason !== "error" &&
              calculateContextTokens(message.usage) > 0,
          )
            ? [entry.sourceEntry.id]
            : [],
        ),
      );
      const compactionIndex = branch.findIndex((entry) => entry.id === latestCompaction.id);
      if (!branch.slice(compactionIndex + 1).some((entry) => answered.has(entry.id))) return { tokens: null, contextWindow, percent: null };
    }
    const { tokens } = estimateProjectedContextTokens(projection, branch);
    return { tokens, contextWindow, percent: (tokens / contextWindow) * 100 };
  }

  /** Counts and billed usage over every entry of the session, compacted history included. */
  getSessionStats() {
    const counts = { userMessages: 0, assistantMessages: 0, toolCalls: 0, toolResults: 0, totalMessages: 0 };
    const totals = createUsageTotals();
    for (const entry of this.sessionManager.getEntries()) {
      if (entry.type === "usage") addUsageToTotals(totals, entry.usage);
      else if ((entry.type === "branch_summary" || entry.type === "compaction") && entry.usage) addUsageToTotals(totals, entry.usage);
      if (entry.type !== "message") continue;
      counts.totalMessages++;
      const { message } = entry;
      if (message.role === "user") {
        counts.userMessages++;
      } else if (message.role === "toolResult") {
        counts.toolResults++;
        if (message.usage) addUsageToTotals(totals, message.usage);
      } else if (message.role === "assistant") {
        counts.assistantMessages++;
        if (Array.isArray(message.content)) counts.toolCalls += message.content.filter((block) => block.type === "toolCall").length;
        addUsageToTotals(totals, message.usage);
      }
    }
    return {
      sessionFile: this.sessionFile,
      sessionId: this.sessionId,
      userMessages: counts.userMessages,
      assistantMessages: counts.assistantMessages,
      toolCalls: counts.toolCalls,
      toolResults: counts.toolResults,
      totalMessages: counts.totalMessages,
      tokens: {
        input: totals.input,
        output: totals.output,
        cacheRead: totals.cacheRead,
        cacheWrite: totals.cacheWrite,
        total: totals.input + totals.output + totals.cacheRead + totals.cacheWrite,
      },
      cost: totals.cost,
      contextUsage: this.getContextUsage(),
    };
  }

  /** The agent's messages replaced by the session's projection of its current branch. */
  refreshContext() {
    const projection = this.sessionManager.buildSessionProjection();
    for (const entry of projection.entries) {
      for (const message of entry.messages) this.#entryIdsByMessage.set(message, entry.sourceEntry.id);
    }
    this.agent.state.messages = projection.messages;
  }

  // --- prompting ---------------------------------------------------------------

  /**
   * Sends a prompt. While a run is active it must say how to queue
   * (`streamingBehavior: "steer" | "followUp"`); otherwise the model and its
   * auth are checked first.
   */
  async prompt(text, options) {
    const expand = options?.expandPromptTemplates ?? true;
    const preflightResult = options?.preflightResult;
    // An extension's command runs at once, even while streaming, and is not sent.
    if (expand && text.startsWith("/") && (await this.#tryExtensionCommand(text))) {
      preflightResult?.("handled");
      return;
    }
    const input = await this.#runInputHandlers(text, options?.images, options?.source ?? "interactive", this.isStreaming ? options?.streamingBehavior : undefined);
    if (!input) {
      preflightResult?.("handled");
      return;
    }
    const expanded = expand ? this.#expand(input.text) : input.text;
    if (this.isStreaming) {
      if (!options?.streamingBehavior) {
        throw new Error("Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.");
      }
      this.#queue(options.streamingBehavior === "followUp" ? "followUp" : "steer", expanded, input.images);
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
    await this.#startRun({ text: expanded, images: input.images }, () => preflightResult?.("started"));
  }

  /** Runs `/name args` when an extension registered the command `name`; a failure is reported, not thrown. */
  async #tryExtensionCommand(text) {
    const space = text.indexOf(" ");
    const name = space === -1 ? text.slice(1) : text.slice(1, space);
    const args = space === -1 ? "" : text.slice(space + 1);
    const command = this.#runner.getCommand(name);
    if (!command) return false;
    const ctx = this.#runner.createCommandContext();
    try {
      await command.handler(args, ctx);
    } catch (error) {
      this.#runner.emitError({ extensionPath: `command:${name}`, event: "command", error: error instanceof Error ? error.message : String(error) });
    }
    return true;
  }

  /** `input` handlers: the text and images as they leave them, or undefined when one handled it. */
  async #runInputHandlers(text, images, source, streamingBehavior) {
    if (!this.#runner.hasHandlers("input")) return { text, images };
    const result = await this.#runner.emitInput(text, images, source, streamingBehavior);
    if (result.action === "handled") return undefined;
    if (result.action === "transform") return { text: result.text, images: result.images ?? images };
    return { text, images };
  }

  /** How images are fitted to the current model, as the settings say. */
  #imageOptions() {
    return { autoResizeImages: this.settingsManager.getImageAutoResize(), resizeOptions: this.model?.inputLimits?.images?.resize };
  }

  /** `/skill:name args` and `/template args` expanded; other text as it is. */
  #expand(text) {
    return expandPromptTemplate(this.#expandSkillCommand(text), [...this.promptTemplates]);
  }

  #expandSkillCommand(text) {
    if (!text.startsWith("/skill:")) return text;
    const space = text.indexOf(" ");
    const name = space === -1 ? text.slice(7) : text.slice(7, space);
    const args = space === -1 ? "" : text.slice(space + 1).trim();
    const skill = this.#resourceLoader.getSkills().skills.find((candidate) => candidate.name === name);
    if (!skill) return text;
    let body;
    try {
      body = stripFrontmatter(readFileSync(skill.filePath, "utf-8")).trim();
    } catch {
      // pi reports the failure to extensions, which pihost's sessions do not have, and sends the text as typed.
      return text;
    }
    const block = `<skill name="${skill.name}" location="${skill.filePath}">\nReferences are relative to ${skill.baseDir}.\n\n${body}\n</skill>`;
    return args ? `${block}\n\n${args}` : block;
  }

  /** Queues a user message as a steer or a follow-up; its images are fitted to the model when it is delivered. */
  #queue(behavior, text, images) {
    (behavior === "steer" ? this.#steeringTexts : this.#followUpTexts).push(text);
    this.#emitQueueUpdate();
    const message = { role: "user", content: [{ type: "text", text }, ...(images ?? [])], timestamp: Date.now() };
    if (images?.length) this.#queuedMessagesWithImages.add(message);
    if (behavior === "steer") this.agent.steer(message);
    else this.agent.followUp(message);
  }

  /** What steer and followUp share: never an extension command; input handlers, then skill commands and templates. */
  async #queueUserInput(text, images, behavior, source) {
    if (text.startsWith("/")) {
      const space = text.indexOf(" ");
      const name = space === -1 ? text.slice(1) : text.slice(1, space);
      if (this.#runner.getCommand(name)) {
        throw new Error(`Extension command "/${name}" cannot be queued. Use prompt() or execute the command when not streaming.`);
      }
    }
    const input = await this.#runInputHandlers(text, images, source, this.isStreaming ? behavior : undefined);
    if (!input) return "handled";
    this.#queue(behavior, this.#expand(input.text), input.images);
    return "queued";
  }

  /** Queues a message for after the current turn's tool calls. */
  async steer(text, images, options) {
    return this.#queueUserInput(text, images, "steer", options?.source ?? "interactive");
  }

  /** Queues a message for when the agent would otherwise stop. */
  async followUp(text, images, options) {
    return this.#queueUserInput(text, images, "followUp", options?.source ?? "interactive");
  }

  /** A queued message's images fitted in place, their notes added to its text. */
  async #normalizeQueuedMessageImages(message) {
    if (typeof message.content === "string") return;
    const [first, ...rest] = message.content;
    if (first?.type !== "text") return;
    const { images, hints } = await normalizePromptImages(rest.filter((block) => block.type === "image"), this.#imageOptions());
    message.content = [{ type: "text", text: withImageHints(first.text, hints) }, ...rest.filter((block) => block.type !== "image"), ...images];
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

  /** A user message from an extension; always starts or joins a run (`deliverAs` while streaming). */
  async sendUserMessage(content, options) {
    let text = content;
    let images;
    if (typeof content !== "string") {
      text = content.filter((part) => part.type === "text").map((part) => part.text).join("\n");
      images = content.filter((part) => part.type !== "text");
      if (images.length === 0) images = undefined;
    }
    await this.prompt(text, {
      expandPromptTemplates: options?.expandPromptTemplates ?? false,
      streamingBehavior: options?.deliverAs,
      images,
      source: "extension",
    });
  }

  /**
   * A custom message: kept for the next prompt (`deliverAs: "nextTurn"`),
   * queued into a running run, starting a run (`triggerTurn`), or appended
   * to the session as context.
   */
  async sendCustomMessage(message, options) {
    const custom = {
      role: "custom",
      customType: message.customType,
      // Untyped callers may leave the content out.
      content: message.content ?? [],
      display: message.display,
      details: message.details,
      timestamp: Date.now(),
    };
    if (options?.deliverAs === "nextTurn") {
      this.#pendingNextTurnMessages.push(custom);
    } else if (this.isStreaming && options?.triggerTurn !== false) {
      if (options?.deliverAs === "followUp") this.agent.followUp(custom);
      else this.agent.steer(custom);
    } else if (options?.triggerTurn) {
      await this.#startRun({ custom });
    } else if (this.isStreaming) {
      this.#pendingCustomMessages.push(custom);
    } else {
      this.#appendCustomMessage(custom);
    }
  }

  #appendCustomMessage(message) {
    this.sessionManager.appendCustomMessageEntry(message.customType, message.content, message.display, message.details);
    this.refreshContext();
    this.#emit({ type: "message_start", message });
    this.#emit({ type: "message_end", message });
  }

  #flushPendingCustomMessages() {
    for (const message of this.#pendingCustomMessages.splice(0)) this.#appendCustomMessage(message);
  }

  /** Runs the agent from `trigger`: a prompt's `text` or a `custom` message. */
  async #startRun(trigger, onStarted) {
    this.#runActive = true;
    this.#abortRequested = false;
    let messages;
    try {
      messages = await this.#prepareRun(trigger);
    } catch (error) {
      this.#runActive = false;
      this.#flushPendingBashMessages();
      this.#flushPendingCustomMessages();
      for (const resolve of this.#idleWaiters.splice(0)) resolve();
      throw error;
    }
    this.#flushPendingBashMessages();
    this.#flushPendingCustomMessages();
    onStarted?.();
    // A retry that compaction before the prompt scheduled is replaced by the prompt.
    this.#failedResponse = undefined;
    try {
      await this.agent.prompt(messages);
      while (!this.#abortRequested) {
        if (await this.#handlePostAgentRun()) {
          if (this.#abortRequested) break;
          await this.agent.continue();
          continue;
        }
        if (this.#abortRequested || !(await this.#runBeforeSettleBoundary()) || this.#abortRequested) break;
        await this.agent.continue();
      }
    } finally {
      if (this.#abortRequested) this.#finishCancelledRetry();
      this.#lastAssistantMessage = undefined;
      this.#failedResponse = undefined;
      this.#runSystemPromptOptions = undefined;
      this.#flushPendingBashMessages();
      this.#flushPendingCustomMessages();
      await this.#emitSettled();
    }
  }

  /**
   * The run's starting messages: before_agent_start's handlers see the
   * prompt and the prompt options first, then the starting message, the
   * pending nextTurn messages and the handlers' messages, with a system patch
   * first when the prompt changed.
   */
  async #prepareRun(trigger) {
    // An answer cut short (aborted too) may have left the context full; the prompt goes after.
    const lastAssistant = this.agent.state.messages.findLast((message) => message.role === "assistant");
    if (lastAssistant) await this.#checkCompaction(lastAssistant, false);
    const base = this.#baseSystemPromptOptions;
    const selectedBefore = base.selectedTools;
    const event = trigger.custom ? { messageType: "custom", message: trigger.custom } : { messageType: "user", prompt: trigger.text, images: trigger.images };
    const result = this.#runner === NO_EXTENSIONS
      ? { messages: [], systemPromptOptions: normalizeBuildSystemPromptOptions(base) }
      : await this.#runner.emitBeforeAgentStart(event, base);
    const options = result.systemPromptOptions;
    // An explicit edit of the selected tools wins; otherwise the live loadout (setActiveTools) does.
    const edited = options.selectedTools.length !== selectedBefore.length || options.selectedTools.some((name, index) => name !== selectedBefore[index]);
    if (!edited) options.selectedTools = this.getActiveToolNames();
    const messages = [];
    if (trigger.custom) {
      messages.push(trigger.custom);
    } else {
      // After before_agent_start: a model its handlers chose decides how the images are fitted.
      const { images, hints } = await normalizePromptImages(trigger.images, this.#imageOptions());
      messages.push({ role: "user", content: [{ type: "text", text: withImageHints(trigger.text, hints) }, ...images], timestamp: Date.now() });
    }
    messages.push(...this.#pendingNextTurnMessages);
    this.#pendingNextTurnMessages = [];
    for (const message of result.messages) {
      messages.push({
        role: "custom",
        customType: message.customType,
        content: message.content ?? [],
        display: message.display,
        details: message.details,
        timestamp: Date.now(),
      });
    }
    const update = this.#preparePromptAndToolLoadout(options);
    this.#runSystemPromptOptions = options;
    if (update) messages.unshift(update);
    return messages;
  }

  /** Whether the run goes on: a retryable failure was retried after its backoff, or an overflow compacted for a retry. */
  async #handlePostAgentRun() {
    const message = this.#lastAssistantMessage;
    this.#lastAssistantMessage = undefined;
    if (this.#abortRequested) {
      this.#finishCancelledRetry();
      return false;
    }
    if (!message) return this.agent.hasQueuedMessages();
    if (this.#isRetryableError(message) && (await this.#prepareRetry(message))) {
      if (this.#abortRequested) this.#finishCancelledRetry();
      this.#failedResponse = message;
      return !this.#abortRequested;
    }
    if (this.#abortRequested) {
      this.#finishCancelledRetry();
      return false;
    }
    if (message.stopReason === "error" && this.#retryAttempt > 0) {
      this.#emit({ type: "auto_retry_end", success: false, attempt: this.#retryAttempt, finalError: message.errorMessage });
      this.#retryAttempt = 0;
    }
    if (await this.#checkCompaction(message)) return !this.#abortRequested;
    // Messages agent_end handlers queued need a fresh run before the settle boundary.
    return !this.#abortRequested && this.agent.hasQueuedMessages();
  }

  /** The model whose limits apply to `message`: under a virtual model, the physical one that wrote it. */
  #modelForMessage(message) {
    const model = this.model;
    if (isVirtualModel(model)) return this.#modelRuntime.getPhysicalModel(message.provider, message.model);
    return model?.provider === message.provider && model.id === message.model ? model : undefined;
  }

  // A context overflow is compaction's to handle, not a retry's.
  #isRetryableError(message) {
    if (isContextOverflow(message, (this.#modelForMessage(message) ?? this.model)?.contextWindow ?? 0)) return false;
    return isRetryableAssistantError(message);
  }

  #willRetryAfterAgentEnd(event) {
    if (this.#abortRequested) return false;
    const settings = this.settingsManager.getRetrySettings();
    if (!settings.enabled || this.#retryAttempt >= settings.maxRetries) return false;
    const last = event.messages.findLast((message) => message.role === "assistant");
    return last ? this.#isRetryableError(last) : false;
  }

  /** Schedules a retry of a failed answer: drops it from the model's view and waits out the backoff (abortable). */
  async #prepareRetry(message) {
    const settings = this.settingsManager.getRetrySettings();
    if (!settings.enabled) return false;
    this.#retryAttempt++;
    if (this.#retryAttempt > settings.maxRetries) {
      // The count stays at the attempts made, for the final failure event.
      this.#retryAttempt--;
      return false;
    }
    const delayMs = retryDelayMs(settings, this.#retryAttempt);
    this.#emit({
      type: "auto_retry_start",
      attempt: this.#retryAttempt,
      maxAttempts: settings.maxRetries,
      delayMs,
      errorMessage: message.errorMessage || "Unknown error",
    });
    this.#omitRecoveryAttempt(message);
    const controller = new AbortController();
    this.#retryAbortController = controller;
    try {
      await new Promise((resolve, reject) => {
        if (controller.signal.aborted) return reject(new Error("aborted"));
        const timer = setTimeout(resolve, delayMs);
        controller.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          reject(new Error("aborted"));
        }, { once: true });
      });
    } catch {
      this.#finishCancelledRetry();
      return false;
    } finally {
      this.#retryAbortController = undefined;
    }
    return true;
  }

  #finishCancelledRetry() {
    if (this.#retryAttempt === 0) return;
    const attempt = this.#retryAttempt;
    this.#retryAttempt = 0;
    this.#emit({ type: "auto_retry_end", success: false, attempt, finalError: "Retry cancelled" });
  }

  #findPersistedMessageEntryId(message) {
    const mapped = this.#entryIdsByMessage.get(message);
    if (mapped) return mapped;
    const branch = this.sessionManager.getBranch();
    for (let index = branch.length - 1; index >= 0; index--) {
      if (branch[index].type === "message" && branch[index].message === message) return branch[index].id;
    }
    const position = this.agent.state.messages.indexOf(message);
    if (position < 0) return undefined;
    let projected = 0;
    for (const entry of this.sessionManager.buildSessionProjection().entries) {
      for (let index = 0; index < entry.messages.length; index++, projected++) {
        if (projected === position) {
          this.#entryIdsByMessage.set(message, entry.sourceEntry.id);
          return entry.sourceEntry.id;
        }
      }
    }
    return undefined;
  }

  /** Keeps a failed answer and its tool results in the session but out of the model's context from now on. */
  #omitRecoveryAttempt(message) {
    const toolCallIds = new Set(message.content.flatMap((block) => (block.type === "toolCall" ? [block.id] : [])));
    const entryId = this.#findPersistedMessageEntryId(message);
    const messages = this.agent.state.messages;
    const index = messages.findIndex((candidate) => candidate === message || (entryId !== undefined && this.#entryIdsByMessage.get(candidate) === entryId));
    const toolResults = [];
    for (const candidate of index < 0 ? [] : messages.slice(index + 1)) {
      if (candidate.role === "assistant") break;
      if (candidate.role === "toolResult" && toolCallIds.has(candidate.toolCallId)) toolResults.push(candidate);
    }
    const targets = [message, ...toolResults];
    const targetIds = targets.map((target) => this.#findPersistedMessageEntryId(target));
    if (targets.some((target, position) => targetIds[position] === undefined && this.agent.state.messages.includes(target))) {
      throw new Error("Cannot persist recovery omission because a projected message has no source entry");
    }
    for (const targetId of targetIds) {
      if (!targetId) continue;
      const entry = this.sessionManager.getEntry(this.sessionManager.appendContextEdit(targetId, null));
      if (entry) this.#emit({ type: "entry_appended", entry });
    }
    this.refreshContext();
  }

  async #emitSettled() {
    this.#cacheWarmer?.onAgentSettled();
    this.#runActive = false;
    const aborted = this.#abortRequested;
    await this.#runner.emit({ type: "agent_settled", aborted });
    this.#emit({ type: "agent_settled", aborted });
    for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }

  async abort() {
    if (this.#runActive) this.#abortRequested = true;
    this.abortRetry();
    this.abortCompaction();
    this.abortBranchSummary();
    this.agent.abort();
    await this.waitForIdle();
  }

  waitForIdle() {
    if (this.isIdle) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  #resolveIdleWaitersIfIdle() {
    if (this.isIdle) for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }

  // --- compaction --------------------------------------------------------------

  /**
   * Summarizes the branch up to a kept tail of recent entries and appends
   * the summary as a compaction entry, as pi's manual compaction does (the
   * run in progress is aborted first and never resumed): an extension's
   * session_before_compact may cancel it or give the summary itself;
   * session_compact and compaction_start/compaction_end tell what happened.
   */
  async compact(customInstructions) {
    await this.abort();
    const controller = new AbortController();
    this.#compactionAbortController = controller;
    this.#emit({ type: "compaction_start", reason: "manual" });
    const attempt = { fromExtension: false, cancelledByExtension: false };
    try {
      const model = this.model;
      if (!model) throw new Error(formatNoModelSelectedMessage());
      const branchEntries = this.sessionManager.getBranch();
      const preparation = prepareCompaction(branchEntries, this.settingsManager.getCompactionSettings(model));
      if (!preparation) {
        if (branchEntries.at(-1)?.type === "compaction") throw new Error("Already compacted");
        throw new Error("Nothing to compact (session too small)");
      }
      const result = await this.#compactBranch({ model, preparation, branchEntries, customInstructions, reason: "manual", willRetry: false, signal: controller.signal }, attempt);
      // compaction_end listeners may prompt again: the session is idle before they hear it.
      this.#endCompaction(controller);
      this.#emit({ type: "compaction_end", reason: "manual", result, aborted: false, willRetry: false });
      return result;
    } catch (error) {
      const aborted = controller.signal.aborted || attempt.cancelledByExtension;
      const errorMessage = aborted ? undefined : `Compaction failed: ${error instanceof Error ? error.message : String(error)}`;
      this.#endCompaction(controller);
      await this.#compactionFailed({ reason: "manual", aborted, errorMessage, fromExtension: attempt.fromExtension });
      throw error;
    } finally {
      this.#endCompaction(controller);
    }
  }

  /**
   * What manual and automatic compaction share once a preparation exists:
   * session_before_compact (which may cancel, or give the compaction), else
   * the model's summary; the compaction entry; session_compact. Answers the
   * compaction's result; `attempt` says whether an extension gave or
   * cancelled it.
   */
  async #compactBranch({ model, preparation, branchEntries, customInstructions, reason, willRetry, signal }, attempt) {
    let compaction;
    if (this.#runner.hasHandlers("session_before_compact")) {
      const result = await this.#runner.emit({ type: "session_before_compact", preparation, branchEntries, customInstructions, reason, willRetry, signal });
      if (result?.cancel) {
        attempt.cancelledByExtension = true;
        throw new Error("Compaction cancelled");
      }
      if (result?.compaction) {
        compaction = result.compaction;
        attempt.fromExtension = true;
      }
    }
    if (reason !== "manual") signal.throwIfAborted();
    compaction ??= await compact(
      preparation,
      model,
      undefined,
      undefined,
      customInstructions,
      signal,
      this.thinkingLevel,
      this.agent.streamFunction,
      undefined,
      this.settingsManager.getRetrySettings(),
      this.#summarizationRetryCallbacks({ source: "compaction", reason }),
      undefined,
    );
    if (reason === "manual") {
      if (signal.aborted) throw new Error("Compaction cancelled");
    } else {
      signal.throwIfAborted();
    }
    const { summary, firstKeptEntryId, tokensBefore, usage, details } = compaction;
    const { fromExtension } = attempt;
    this.sessionManager.appendCompaction(summary, firstKeptEntryId, tokensBefore, details, fromExtension, usage);
    this.refreshContext();
    const estimatedTokensAfter = estimateMessagesTokens(this.sessionManager.buildSessionProjection().messages);
    const compactionEntry = this.sessionManager.getEntries().find((entry) => entry.type === "compaction" && entry.summary === summary);
    if (compactionEntry) await this.#runner.emit({ type: "session_compact", compactionEntry, fromExtension, reason, willRetry });
    return { summary, firstKeptEntryId, tokensBefore, estimatedTokensAfter, usage, details };
  }

  /** A compaction that did not happen: compaction_end with its error, then session_compact_failed. */
  async #compactionFailed({ reason, aborted, errorMessage, fromExtension }) {
    this.#emit({ type: "compaction_end", reason, result: undefined, aborted, willRetry: false, errorMessage });
    if (this.#runner.hasHandlers("session_compact_failed")) {
      await this.#runner.emit({ type: "session_compact_failed", reason, errorMessage, aborted, willRetry: false, fromExtension });
    }
  }

  /**
   * After an answer (and before a prompt, with `skipAbortedCheck` false):
   * compacts when the answer overflowed the model's context (retried once
   * when it failed for it, kept when it completed) or when the context
   * passed the settings' threshold. Answers whether the run should go on.
   */
  async #checkCompaction(assistantMessage, skipAbortedCheck = true) {
    const settings = this.settingsManager.getCompactionSettings(this.model);
    if (!settings.enabled) return false;
    if (skipAbortedCheck && assistantMessage.stopReason === "aborted") return false;
    // An overflow of another model (before a switch) says nothing about this one.
    const messageModel = this.#modelForMessage(assistantMessage);
    const sameModel = messageModel !== undefined;
    const contextWindow = (messageModel ?? this.model)?.contextWindow ?? 0;
    const branch = this.sessionManager.getBranch();
    // Usage from before the latest compaction measured the old context.
    const compactionEntry = getLatestCompactionEntry(branch);
    const beforeCompaction = (message) => compactionEntry !== null && message.timestamp <= new Date(compactionEntry.timestamp).getTime();
    if (beforeCompaction(assistantMessage)) return false;

    const projection = this.sessionManager.buildSessionProjection();
    const assistantEntryId = this.#findPersistedMessageEntryId(assistantMessage);
    const assistantIsProjected =
      assistantEntryId === undefined ||
      projection.entries.some((entry) => entry.sourceEntry.id === assistantEntryId && entry.messages.some((message) => message.role === "assistant"));
    const assistantIndex = assistantEntryId ? branch.findIndex((entry) => entry.id === assistantEntryId) : -1;
    const after = assistantIndex >= 0 ? branch.slice(assistantIndex + 1) : [];
    const editedAfter = after.some((entry) => entry.type === "context_edit");
    const latestEditOfAnswer = after.filter((entry) => entry.type === "context_edit" && entry.targetId === assistantEntryId).at(-1);
    const retainedForRecovery = assistantEntryId === undefined || (!after.some((entry) => entry.type === "compaction") && latestEditOfAnswer?.replacement !== null);
    const usageMatchesProjection = assistantIsProjected && !editedAfter;
    const explicitOverflow = assistantMessage.stopReason === "error" && isContextOverflow(assistantMessage);
    const contextOverflow =
      sameModel && ((explicitOverflow && retainedForRecovery) || (usageMatchesProjection && isContextOverflow(assistantMessage, contextWindow)));
    const recoverableLength = sameModel && assistantIsProjected && isRecoverableLength(assistantMessage, messageModel.maxTokens);

    if (contextOverflow || recoverableLength) {
      const willRetry = assistantMessage.stopReason !== "stop";
      // A completed answer cannot be continued from: compact and keep it.
      if (!willRetry) return this.#runAutoCompaction("overflow", false);
      if (this.#overflowRecoveryAttempted) {
        const errorMessage = contextOverflow
          ? "Context overflow recovery failed after one compact-and-retry attempt. Try reducing context or switching to a larger-context model."
          : "Truncated response recovery failed after one compact-and-retry attempt.";
        await this.#compactionFailed({ reason: "overflow", aborted: false, errorMessage, fromExtension: false });
        return false;
      }
      this.#overflowRecoveryAttempted = true;
      this.#omitRecoveryAttempt(assistantMessage);
      const retry = await this.#runAutoCompaction("overflow", willRetry);
      if (retry) this.#failedResponse = assistantMessage;
      return retry;
    }

    // At the threshold: from the answer's usage, or estimated when it has none (an error, zero usage) or edits changed the context.
    let contextTokens;
    const directTokens = assistantMessage.usage ? calculateContextTokens(assistantMessage.usage) : 0;
    if (projection.entries.some((entry) => entry.sourceEntry.type === "context_edit")) {
      contextTokens = estimateProjectedContextTokens(projection, branch).tokens;
    } else if (assistantMessage.stopReason === "error" || directTokens === 0) {
      const messages = this.agent.state.messages;
      const estimate = estimateContextTokens(messages);
      if (estimate.lastUsageIndex !== null) {
        const usageMessage = messages[estimate.lastUsageIndex];
        if (usageMessage.role === "assistant" && beforeCompaction(usageMessage)) return false;
      }
      contextTokens = estimate.tokens;
    } else {
      contextTokens = directTokens;
    }
    if (shouldCompact(contextTokens, contextWindow, settings)) return this.#runAutoCompaction("threshold", false);
    return false;
  }

  /** Threshold or overflow compaction; answers whether the run should go on (a retry, or queued messages). */
  async #runAutoCompaction(reason, willRetry) {
    const model = this.model;
    let controller;
    const attempt = { fromExtension: false, cancelledByExtension: false };
    try {
      if (!model) return false;
      const branchEntries = this.sessionManager.getBranch();
      const preparation = prepareCompaction(branchEntries, this.settingsManager.getCompactionSettings(model));
      if (!preparation) return false;
      controller = new AbortController();
      this.#autoCompactionAbortController = controller;
      this.#emit({ type: "compaction_start", reason });
      controller.signal.throwIfAborted();
      const result = await this.#compactBranch({ model, preparation, branchEntries, customInstructions: undefined, reason, willRetry, signal: controller.signal }, attempt);
      this.#emit({ type: "compaction_end", reason, result, aborted: false, willRetry });
      // Messages queued while it ran are delivered by one more turn.
      return willRetry || this.agent.hasQueuedMessages();
    } catch (error) {
      if (controller) {
        const aborted = controller.signal.aborted || attempt.cancelledByExtension;
        const message = error instanceof Error ? error.message : "compaction failed";
        const errorMessage = aborted ? undefined : reason === "overflow" ? `Context overflow recovery failed: ${message}` : `Auto-compaction failed: ${message}`;
        await this.#compactionFailed({ reason, aborted, errorMessage, fromExtension: attempt.fromExtension });
      }
      return false;
    } finally {
      if (this.#autoCompactionAbortController === controller) this.#autoCompactionAbortController = undefined;
      this.#resolveIdleWaitersIfIdle();
    }
  }

  /** Within a run, before the next answer: compacts first when the context passed the threshold. */
  async #compactBeforeNextResponse(context) {
    const projection = this.sessionManager.buildSessionProjection();
    const model = this.model;
    // Under a virtual model the request's routed model is checked when the request is prepared.
    if (!model || isVirtualModel(model) || !this.#exceedsCompactionThreshold(model, projection)) return { ...context, messages: projection.messages };
    await this.#runAutoCompaction("threshold", false);
    return { ...context, messages: this.sessionManager.buildSessionProjection().messages };
  }

  #endCompaction(controller) {
    if (this.#compactionAbortController === controller) this.#compactionAbortController = undefined;
    this.#resolveIdleWaitersIfIdle();
  }

  abortCompaction() {
    this.#compactionAbortController?.abort();
    this.#autoCompactionAbortController?.abort();
  }

  /** The summary call's retries, told to the session's listeners as pi tells them. */
  #summarizationRetryCallbacks(source) {
    return {
      onRetryScheduled: (attempt, maxAttempts, delayMs, errorMessage) =>
        this.#emit({ type: "summarization_retry_scheduled", attempt, maxAttempts, delayMs, errorMessage }),
      onRetryAttemptStart: () => this.#emit({ type: "summarization_retry_attempt_start", ...source }),
      onRetryFinished: () => this.#emit({ type: "summarization_retry_finished" }),
    };
  }

  // --- model and thinking level ------------------------------------------------

  /** Switches the model (its auth must be configured) and records it in the session. */
  async setModel(model, options = {}) {
    if (!(await this.#modelRuntime.checkAuth(model.provider))) throw new Error(`No API key for ${model.provider}/${model.id}`);
    const thinkingLevel = this.#thinkingLevelForModel(model);
    this.agent.state.model = model;
    this.sessionManager.appendModelChange(model.provider, model.id);
    if (options.persist) {
      this.settingsManager.setDefaultModelAndProvider(model.provider, model.id);
      this.#addPersistedDefaultToScope(model);
    }
    this.setThinkingLevel(thinkingLevel);
  }

  /**
   * Switches to the next (or previous) model: of the scoped models that are
   * available, else of all available ones. Undefined when there is no other.
   */
  async cycleModel(direction = "forward", options = {}) {
    const available = this.#modelRuntime.getAvailableSnapshot();
    const scoped = this.#scopedModels.length > 0;
    const candidates = scoped
      ? this.#scopedModels.filter((entry) => available.some((model) => model.provider === entry.model.provider && model.id === entry.model.id))
      : available.map((model) => ({ model }));
    const index = nextCycleIndex(
      candidates.findIndex((entry) => modelsAreEqual(entry.model, this.model)),
      candidates.length,
      direction,
    );
    if (index === undefined) return undefined;
    const next = candidates[index];
    const thinkingLevel = next.thinkingLevel ?? this.#thinkingLevelForModel(next.model);
    this.agent.state.model = next.model;
    this.sessionManager.appendModelChange(next.model.provider, next.model.id);
    if (options.persist) {
      this.settingsManager.setDefaultModelAndProvider(next.model.provider, next.model.id);
      this.#addPersistedDefaultToScope(next.model);
    }
    this.setThinkingLevel(thinkingLevel);
    return { model: next.model, thinkingLevel: this.thinkingLevel, isScoped: scoped };
  }

  // A persisted default joins a non-empty scope (and enabledModels, when that lists models).
  #addPersistedDefaultToScope(model) {
    if (this.#scopedModels.length === 0) return;
    if (this.#scopedModels.some((entry) => modelsAreEqual(entry.model, model))) return;
    this.#scopedModels = [...this.#scopedModels, { model }];
    const enabled = this.settingsManager.getEnabledModels();
    if (!enabled?.length) return;
    const reference = `${model.provider}/${model.id}`;
    if (enabled.some((pattern) => pattern.toLowerCase() === reference.toLowerCase())) return;
    this.settingsManager.setEnabledModels([...enabled, reference]);
  }

  /**
   * Writes the session as an HTML page: pi's session data in a viewer of pihost's own
   * (session-html-export.js); returns the file's path.
   */
  async exportToHtml(outputPath, _options = {}) {
    return exportSessionToHtml(this.sessionManager, this.state, { outputPath });
  }

  /** Writes the current branch as JSONL; returns the file's path. */
  exportToJsonl(outputPath) {
    return exportSessionToJsonl(this.sessionManager, outputPath);
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

  syncQueueModesFromSettings() {
    this.agent.steeringMode = this.settingsManager.getSteeringMode();
    this.agent.followUpMode = this.settingsManager.getFollowUpMode();
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

  setAutoCompactionEnabled(enabled) {
    this.settingsManager.setCompactionEnabled(enabled);
  }

  get autoRetryEnabled() {
    return this.settingsManager.getRetryEnabled();
  }

  setAutoRetryEnabled(enabled) {
    this.settingsManager.setRetryEnabled(enabled);
  }

  get isRetrying() {
    return this.#retryAbortController !== undefined;
  }

  abortRetry() {
    this.#retryAbortController?.abort();
  }

  // pihost's sessions never start a branch summary, so there is never one to abort.

  /**
   * Runs a user's bash command in the session's directory (with the
   * settings' command prefix and shell) and records it in the session;
   * output chunks go to `onChunk` and bash_execution_update events.
   */
  async executeBash(command, onChunk, options) {
    const controller = new AbortController();
    this.#bashAbortControllers.add(controller);
    const prefix = this.settingsManager.getShellCommandPrefix();
    const shellPath = this.settingsManager.getShellPath();
    try {
      const result = await executeBashWithOperations(
        prefix ? `${prefix}\n${command}` : command,
        this.sessionManager.getCwd(),
        options?.operations ?? createLocalBashOperations({ shellPath }),
        {
          onChunk: (delta) => {
            onChunk?.(delta);
            this.#emit({ type: "bash_execution_update", id: options?.id, delta });
          },
          signal: controller.signal,
        },
      );
      this.recordBashResult(command, result, options);
      return result;
    } finally {
      this.#bashAbortControllers.delete(controller);
    }
  }

  abortBash() {
    for (const controller of [...this.#bashAbortControllers]) controller.abort();
  }

  get isBashRunning() {
    return this.#bashAbortControllers.size > 0;
  }

  get hasPendingBashMessages() {
    return this.#pendingBashMessages.length > 0;
  }

  /** Records a bash command's result (run by an extension itself) in the session; mid-run it waits for the run's end. */
  recordBashResult(command, result, options) {
    const message = {
      role: "bashExecution",
      command,
      output: result.output,
      exitCode: result.exitCode,
      cancelled: result.cancelled,
      truncated: result.truncated,
      fullOutputPath: result.fullOutputPath,
      timestamp: Date.now(),
      excludeFromContext: options?.excludeFromContext,
    };
    if (this.isStreaming) {
      this.#pendingBashMessages.push(message);
      return;
    }
    this.sessionManager.appendMessage(message);
    this.refreshContext();
  }

  #flushPendingBashMessages() {
    if (this.#pendingBashMessages.length === 0) return;
    for (const message of this.#pendingBashMessages.splice(0)) this.sessionManager.appendMessage(message);
    this.refreshContext();
  }

  /** A command context for code that runs after this session replaced another (pi's withSession), sending through this session. */
  createReplacedSessionContext() {
    const context = Object.defineProperties({}, Object.getOwnPropertyDescriptors(this.#runner.createCommandContext()));
    context.sendMessage = (message, options) => this.sendCustomMessage(message, options);
    context.sendUserMessage = (content, options) => this.sendUserMessage(content, options);
    return context;
  }

  abortBranchSummary() {
    this.#branchSummaryAbortController?.abort();
  }

  // --- the session tree --------------------------------------------------------

  /**
   * Moves the session's leaf to `targetId`, as pi's tree navigation does:
   * session_before_tree may cancel, relabel, change the instructions or give
   * the summary; with `summarize`, the branch left behind is summarized by
   * the model (or by that extension) into a branch_summary entry at the new
   * position; a user or custom message goes back to the editor and its
   * parent becomes the leaf. session_tree tells what happened.
   */
  async navigateTree(targetId, options = {}) {
    if (this.isStreaming) throw new Error("Wait for the current response to finish before navigating the session tree.");
    if (this.isCompacting) throw new Error("Wait for the current compaction or tree navigation to finish before navigating the session tree.");
    const oldLeafId = this.sessionManager.getLeafId();
    if (targetId === oldLeafId) return { cancelled: false };
    if (options.summarize && !this.model) throw new Error("No model available for summarization");
    const targetEntry = this.sessionManager.getEntry(targetId);
    if (!targetEntry) throw new Error(`Entry ${targetId} not found`);

    const { entries: entriesToSummarize, commonAncestorId } = collectEntriesForBranchSummary(this.sessionManager, oldLeafId, targetId);
    let { customInstructions, replaceInstructions, label } = options;
    const preparation = {
      targetId,
      oldLeafId,
      commonAncestorId,
      entriesToSummarize,
      userWantsSummary: options.summarize ?? false,
      customInstructions,
      replaceInstructions,
      label,
    };
    const controller = new AbortController();
    this.#branchSummaryAbortController = controller;
    try {
      let extensionSummary;
      if (this.#runner.hasHandlers("session_before_tree")) {
        const result = await this.#runner.emit({ type: "session_before_tree", preparation, signal: controller.signal });
        if (result?.cancel) return { cancelled: true };
        if (result?.summary && options.summarize) extensionSummary = result.summary;
        if (result?.customInstructions !== undefined) customInstructions = result.customInstructions;
        if (result?.replaceInstructions !== undefined) replaceInstructions = result.replaceInstructions;
        if (result?.label !== undefined) label = result.label;
      }
      const fromExtension = extensionSummary !== undefined;

      let summary;
      if (options.summarize && entriesToSummarize.length > 0 && !extensionSummary) {
        const generated = await generateBranchSummary(entriesToSummarize, {
          model: this.model,
          thinkingLevel: this.thinkingLevel,
          signal: controller.signal,
          customInstructions,
          replaceInstructions,
          reserveTokens: this.settingsManager.getBranchSummarySettings().reserveTokens,
          streamFn: this.agent.streamFunction,
          retry: this.settingsManager.getRetrySettings(),
          callbacks: this.#summarizationRetryCallbacks({ source: "branchSummary" }),
        });
        if (generated.aborted) return { cancelled: true, aborted: true };
        if (generated.error) throw new Error(generated.error);
        summary = {
          text: generated.summary,
          details: { readFiles: generated.readFiles || [], modifiedFiles: generated.modifiedFiles || [] },
          usage: generated.usage,
        };
      } else if (extensionSummary) {
        summary = { text: extensionSummary.summary, details: extensionSummary.details, usage: extensionSummary.usage };
      }

      // A user or custom message is taken back into the editor: its parent becomes the leaf.
      let newLeafId = targetId;
      let editorText;
      if (targetEntry.type === "message" && targetEntry.message.role === "user") {
        newLeafId = targetEntry.parentId;
        editorText = contentText(targetEntry.message.content, "");
      } else if (targetEntry.type === "custom_message") {
        newLeafId = targetEntry.parentId;
        editorText = contentText(targetEntry.content, "");
      }

      let summaryEntry;
      if (summary?.text) {
        const summaryId = this.sessionManager.branchWithSummary(newLeafId, summary.text, summary.details, fromExtension, summary.usage);
        summaryEntry = this.sessionManager.getEntry(summaryId);
        if (label) this.sessionManager.appendLabelChange(summaryId, label);
      } else {
        if (newLeafId === null) this.sessionManager.resetLeaf();
        else this.sessionManager.branch(newLeafId);
        if (label) this.sessionManager.appendLabelChange(targetId, label);
      }
      this.refreshContext();
      this.#restoreToolsFromTranscript([]);
      // The new context is in place: session_tree handlers may prompt or navigate again.
      this.#branchSummaryAbortController = undefined;
      await this.#runner.emit({
        type: "session_tree",
        newLeafId: this.sessionManager.getLeafId(),
        oldLeafId,
        summaryEntry,
        fromExtension: summary?.text ? fromExtension : undefined,
      });
      return { editorText, cancelled: false, summaryEntry };
    } finally {
      // A navigation started from session_tree owns the controller by now.
      if (this.#branchSummaryAbortController === controller) this.#branchSummaryAbortController = undefined;
      this.#resolveIdleWaitersIfIdle();
    }
  }

}

