// pi's createAgentSession: picks the model and thinking level (given,
// restored from the session, or from settings), the initial tools, and
// builds the Agent whose requests go through the model runtime. Without a
// `modelRuntime` option pihost uses the host's (host-model-runtime.js).
import { existsSync, mkdirSync } from "node:fs";
import { Agent } from "../agent-core/agent.js";
import { clampThinkingLevel } from "../ai/model-kinds.js";
import { getAgentDir } from "./agent-dir.js";
import { AgentSession } from "./agent-session.js";
import { formatNoModelsAvailableMessage } from "./auth-guidance.js";
import { CacheWarmer } from "./cache-warmer.js";
import { hostModelRuntime } from "./host-model-runtime.js";
import { convertToLlm } from "./messages.js";
import { defaultModelPerProvider } from "./model-resolver.js";
import { resolvePath } from "./paths.js";
import { DefaultResourceLoader } from "./resource-loader.js";
import { defaultSessionDirPath } from "./session-files.js";
import { SessionManager } from "./session-manager.js";
import { SettingsManager } from "./settings-manager.js";
import { applyToolModifiers, createToolNameMatcher, DEFAULT_TOOL_NAMES, getToolListError, isToolModifier } from "./tool-selection.js";

const DEFAULT_THINKING_LEVEL = "medium";
const IMAGES_DISABLED = "Image reading is disabled.";

/** The latest model selection on the branch: a model_change, else the model that last answered. */
function branchModelSelection(branch) {
  for (let index = branch.length - 1; index >= 0; index--) {
    const entry = branch[index];
    if (entry.type === "model_change") return { provider: entry.provider, modelId: entry.modelId };
    if (entry.type === "message" && entry.message.role === "assistant") {
      return { provider: entry.message.provider, modelId: entry.message.model };
    }
  }
  return undefined;
}

/** The settings' default model when its provider is configured, else an available model: a provider's default one first. */
function initialModel(settingsManager, modelRuntime) {
  const provider = settingsManager.getDefaultProvider();
  const modelId = settingsManager.getDefaultModel();
  if (provider && modelId) {
    const found = modelRuntime.getModel(provider, modelId);
    if (found && modelRuntime.hasConfiguredAuth(found.provider)) return found;
  }
  const available = modelRuntime.getAvailableSnapshot();
  for (const [defaultProvider, defaultId] of Object.entries(defaultModelPerProvider)) {
    const match = available.find((model) => model.provider === defaultProvider && model.id === defaultId);
    if (match) return match;
  }
  return available[0];
}

function defaultSessionDir(cwd, agentDir) {
  const dir = defaultSessionDirPath(cwd, agentDir);
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
  return dir;
}

// Images are replaced by a note (once per run of them) while the blockImages setting is on.
function convertToLlmBlockingImages(settingsManager) {
  return (messages) => {
    const converted = convertToLlm(messages);
    if (!settingsManager.getBlockImages()) return converted;
    return converted.map((message) => {
      if ((message.role !== "user" && message.role !== "toolResult") || !Array.isArray(message.content)) return message;
      if (!message.content.some((block) => block.type === "image")) return message;
      const content = [];
      for (const block of message.content) {
        const next = block.type === "image" ? { type: "text", text: IMAGES_DISABLED } : block;
        const previous = content[content.length - 1];
        if (next.type === "text" && next.text === IMAGES_DISABLED && previous?.type === "text" && previous.text === IMAGES_DISABLED) continue;
        content.push(next);
      }
      return { ...message, content };
    });
  };
}

/** Creates an AgentSession; see pi's CreateAgentSessionOptions for the options. */
export async function createAgentSession(options = {}) {
  const cwd = resolvePath(options.cwd ?? options.sessionManager?.getCwd() ?? globalThis.process?.cwd?.() ?? ".");
  const agentDir = options.agentDir ? resolvePath(options.agentDir) : getAgentDir();
  let resourceLoader = options.resourceLoader;
  const modelRuntime = options.modelRuntime ?? hostModelRuntime;
  const settingsManager = options.settingsManager ?? SettingsManager.create(cwd, agentDir);
  const sessionManager = options.sessionManager ?? SessionManager.create(cwd, defaultSessionDir(cwd, agentDir));
  if (!resourceLoader) {
    resourceLoader = new DefaultResourceLoader({ cwd, agentDir, settingsManager });
    await resourceLoader.reload();
  }

  const existing = sessionManager.buildSessionContext();
  const hasExistingSession = existing.messages.length > 0;
  const hasThinkingEntry = sessionManager.getBranch().some((entry) => entry.type === "thinking_level_change");

  let model = options.model;
  let modelFallbackMessage;
  const sessionModel = branchModelSelection(sessionManager.getBranch());
  if (!model && hasExistingSession && sessionModel) {
    const restored = modelRuntime.getModel(sessionModel.provider, sessionModel.modelId);
    if (restored && modelRuntime.hasConfiguredAuth(restored.provider)) model = restored;
    else modelFallbackMessage = `Could not restore model ${sessionModel.provider}/${sessionModel.modelId}`;
  }
  if (!model) {
    model = initialModel(settingsManager, modelRuntime);
    if (!model) modelFallbackMessage = formatNoModelsAvailableMessage();
    else if (modelFallbackMessage) modelFallbackMessage += `. Using ${model.provider}/${model.id}`;
  }

  let thinkingLevel = options.thinkingLevel;
  if (thinkingLevel === undefined && hasExistingSession) {
    thinkingLevel = hasThinkingEntry ? existing.thinkingLevel : (settingsManager.getDefaultThinkingLevel() ?? DEFAULT_THINKING_LEVEL);
  }
  if (thinkingLevel === undefined && model) thinkingLevel = settingsManager.getModelThinkingLevel(model.provider, model.id) || undefined;
  thinkingLevel ??= settingsManager.getDefaultThinkingLevel() ?? DEFAULT_THINKING_LEVEL;
  thinkingLevel = model ? clampThinkingLevel(model, thinkingLevel) : "off";

  const toolListError = options.tools ? getToolListError(options.tools) : undefined;
  if (toolListError) throw new Error(`Invalid tools option: ${toolListError}`);
  const defaultToolNames = options.noTools ? [] : (settingsManager.getDefaultTools() ?? DEFAULT_TOOL_NAMES);
  // Only +name/-name entries change the default selection instead of replacing it.
  const toolModifiers = options.tools?.some(isToolModifier) ? options.tools : undefined;
  const selectedToolNames = toolModifiers ? applyToolModifiers(defaultToolNames, toolModifiers) : options.tools;
  const allowedToolNames = toolModifiers
    ? options.noTools === "all"
      ? selectedToolNames
      : undefined
    : (options.tools ?? (options.noTools === "all" ? [] : undefined));
  const isExcluded = options.excludeTools ? createToolNameMatcher(options.excludeTools) : undefined;
  const initialActiveToolNames = (selectedToolNames ?? defaultToolNames).filter((name) => !isExcluded?.(name));

  const retrySettings = settingsManager.getProviderRetrySettings();
  // The session's extensions see each request's context, payload and response (its runner, once it exists).
  let session;
  const runner = () => session?.extensionRunner;
  // A request's limits come from the settings as they are when it is made; its headers pass the extensions' hooks.
  const requestOptions = (options = {}) => {
    const providerRetry = settingsManager.getProviderRetrySettings();
    const idleTimeoutMs = settingsManager.getHttpIdleTimeoutMs();
    const headerRunner = runner();
    return {
      ...options,
      timeoutMs: options.timeoutMs ?? providerRetry.timeoutMs ?? (idleTimeoutMs === 0 ? 2147483647 : idleTimeoutMs),
      websocketConnectTimeoutMs: options.websocketConnectTimeoutMs ?? settingsManager.getWebSocketConnectTimeoutMs(),
      maxRetries: options.maxRetries ?? providerRetry.maxRetries,
      maxRetryDelayMs: options.maxRetryDelayMs ?? providerRetry.maxRetryDelayMs,
      transformHeaders: async (headers) =>
        headerRunner?.hasHandlers("before_provider_headers") ? headerRunner.emitBeforeProviderHeaders(headers) : headers,
    };
  };
  const cacheWarmer = new CacheWarmer(
    modelRuntime,
    sessionManager,
    () => settingsManager.getCacheWarmingMode(),
    async (event) => runner()?.emitCacheWarmingDecision(event) ?? event.action,
  );
  // Warm only what the next request repeats: the selected model's own
  // requests, while the transcript still extends the one sent. Message
  // identity, not the array's: the agent may copy the array.
  const requestIsCurrent = (requestModel) => {
    const sent = agent.state.messages;
    return () => {
      const { model: current, messages } = agent.state;
      return (
        current.provider === requestModel.provider &&
        current.id === requestModel.id &&
        sent.length <= messages.length &&
        sent.every((message, index) => messages[index] === message)
      );
    };
  };
  const agent = new Agent({
    initialState: { systemPrompt: "", model, thinkingLevel, tools: [], messages: existing.messages },
    convertToLlm: convertToLlmBlockingImages(settingsManager),
    streamFn: (requestModel, context, streamOptions) => {
      const options = requestOptions(streamOptions);
      // Summaries and compaction route under ids of their own and never replace the cache entry.
      if (streamOptions?.sessionId === sessionManager.getSessionId()) {
        cacheWarmer.start({ model: requestModel, context, options }, requestIsCurrent(requestModel));
      }
      return modelRuntime.streamSimple(requestModel, context, options);
    },
    transformContext: async (messages) => (runner()?.emitContext ? runner().emitContext(messages) : messages),
    onPayload: async (payload) => (runner()?.hasHandlers("before_provider_request") ? runner().emitBeforeProviderRequest(payload) : payload),
    onResponse: async (response) => {
      if (!runner()?.hasHandlers("after_provider_response")) return;
      await runner().emit({ type: "after_provider_response", status: response.status, headers: response.headers });
    },
    onProviderStreamEvent: async (data, requestModel) => {
      if (!runner()?.hasHandlers("provider_stream_event")) return;
      await runner().emit({ data, type: "provider_stream_event", provider: requestModel.provider, api: requestModel.api, model: requestModel.id });
    },
    sessionId: sessionManager.getSessionId(),
    steeringMode: settingsManager.getSteeringMode(),
    followUpMode: settingsManager.getFollowUpMode(),
    transport: settingsManager.getTransport(),
    thinkingBudgets: settingsManager.getThinkingBudgets(),
    maxRetryDelayMs: retrySettings.maxRetryDelayMs,
  });

  // New sessions record their model and thinking level so a resume restores them.
  if (hasExistingSession) {
    if (!hasThinkingEntry) sessionManager.appendThinkingLevelChange(thinkingLevel);
  } else {
    if (model) sessionManager.appendModelChange(model.provider, model.id);
    sessionManager.appendThinkingLevelChange(thinkingLevel);
  }

  session = new AgentSession({
    agent,
    sessionManager,
    settingsManager,
    cwd,
    scopedModels: options.scopedModels,
    resourceLoader,
    customTools: options.customTools,
    modelRuntime,
    cacheWarmer,
    initialActiveToolNames,
    usesDefaultTools: (options.tools === undefined || toolModifiers !== undefined) && !options.noTools,
    defaultToolModifiers: toolModifiers,
    allowedToolNames,
    excludedToolNames: options.excludeTools,
    sessionStartEvent: options.sessionStartEvent,
  });
  return { session, extensionsResult: resourceLoader.getExtensions(), modelFallbackMessage };
}

/** createAgentSession over services made beforehand (cwd, agentDir, model runtime, settings, resource loader). */
export async function createAgentSessionFromServices(options) {
  const { services } = options;
  return createAgentSession({
    cwd: services.cwd,
    agentDir: services.agentDir,
    modelRuntime: services.modelRuntime,
    settingsManager: services.settingsManager,
    resourceLoader: services.resourceLoader,
    sessionManager: options.sessionManager,
    model: options.model,
    thinkingLevel: options.thinkingLevel,
    scopedModels: options.scopedModels,
    tools: options.tools,
    excludeTools: options.excludeTools,
    noTools: options.noTools,
    customTools: options.customTools,
    sessionStartEvent: options.sessionStartEvent,
  });
}
