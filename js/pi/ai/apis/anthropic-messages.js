// pi-ai's "anthropic-messages" api over the isolate's fetch: the Messages
// API request pi builds (system blocks, cache markers, tools, thinking,
// betas, message threads), sent the way Anthropic's SDK sends it, and the
// SSE answer turned into pi's assistant message events.
import {
  ANTHROPIC_FEDERATION_RULE_ID_ENV,
  ANTHROPIC_IDENTITY_TOKEN_FILE_ENV,
  ANTHROPIC_ORGANIZATION_ID_ENV,
} from "../env-api-keys.js";
import { calculateCost } from "../cost.js";
import { registerSessionResourceCleanup } from "../session-resources.js";
import { appendAssistantMessageDiagnostic } from "../diagnostics.js";
import { AssistantMessageEventStream } from "../event-stream.js";
import { getIdentityHeaders } from "../identity.js";
import { parseJsonWithRepair, ToolCallArgumentsStream } from "../json.js";
import { providerEnvValue } from "../provider-env.js";
import { getSystemMessageText, renderSystemMessageUpdate } from "../system-text.js";
import { collapseSystemMessages, getCurrentTools } from "../system-messages.js";
import { getInitialSystemMessage } from "../transcript.js";
import { emptyUsage } from "../usage.js";
import { buildCopilotDynamicHeaders, hasCopilotVisionInput } from "./copilot-headers.js";
import { hasHeader, headersToRecord, mergeRequestHeaders, postJson, ProviderHttpError, resolveCacheRetention, retryProviderRequest, withCauseDetail } from "./http.js";
import { applyOpenRouterReportedCost, isOpenRouterModel } from "./openrouter-cost.js";
import { splitErrorToolResultImages, transformMessages } from "./replay-messages.js";
import { readSseEvents } from "./sse.js";
import {
  getJsonSchemaToolParameters,
  hasExceededStrictToolLimits,
  isStrictToolLimitErrorMessage,
  markStrictToolLimitsExceeded,
  prefersJsonSchemaStrictSampling,
  resolveJsonSchemaStrictSampling,
} from "./strict-schemas.js";
import { sanitizeSurrogates, shortHash } from "./text-safety.js";
import { adjustMaxTokensForThinking, buildBaseOptions, clampMaxTokensToContext } from "./token-budget.js";

// The SDK pi speaks through, as the server sees it.
const SDK_USER_AGENT = "Anthropic/JS 0.129.0";
const API_VERSION = "2023-06-01";
const DEFAULT_TIMEOUT_MS = 600_000;
// OAuth tokens must look like Claude Code.
const CLAUDE_CODE_VERSION = "2.1.322";
const CLAUDE_CODE_IDENTITY = "You are Claude Code, Anthropic's official CLI for Claude.";
const CLAUDE_CODE_TOOLS = [
  "Read",
  "Write",
  "Edit",
  "Bash",
  "Grep",
  "Glob",
  "AskUserQuestion",
  "EnterPlanMode",
  "ExitPlanMode",
  "KillShell",
  "NotebookEdit",
  "Skill",
  "Task",
  "TaskOutput",
  "TodoWrite",
  "WebFetch",
  "WebSearch",
];
let claudeCodeNames;

function toClaudeCodeName(name) {
  claudeCodeNames ??= new Map(CLAUDE_CODE_TOOLS.map((tool) => [tool.toLowerCase(), tool]));
  return claudeCodeNames.get(name.toLowerCase()) ?? name;
}

function fromClaudeCodeName(name, tools) {
  const lower = name.toLowerCase();
  return tools.find((tool) => tool.name.toLowerCase() === lower)?.name ?? name;
}

const BETA = {
  fineGrainedToolStreaming: "fine-grained-tool-streaming-2025-05-14",
  interleavedThinking: "interleaved-thinking-2025-05-14",
  serverSideFallback: "server-side-fallback-2026-07-01",
  midConversationOutputConfig: "mid-conversation-output-config-2026-07-01",
  thinkingBindingControls: "thinking-binding-controls-2026-08-01",
  inlineTools: "inline-tools-2026-09-15",
  messageThreads: "message-threads-2026-08-12",
};

/**
 * Declared from the first request whenever tool changes are native, so the
 * scaffolding Anthropic adds for them is in the cached prefix before the
 * first change. Never activated.
 */
const DEFERRED_TOOL_PLACEHOLDER = {
  name: "__pi_deferred_placeholder__",
  description: "Reserved placeholder. Never available. Never call this.",
  input_schema: { type: "object", properties: {}, required: [] },
  defer_loading: true,
};

const MESSAGE_EVENTS = new Set([
  "message_start",
  "message_delta",
  "message_stop",
  "content_block_start",
  "content_block_delta",
  "content_block_stop",
]);

function anthropicCompat(model) {
  const viaOpenRouter = model.provider === "openrouter" || model.baseUrl.includes("openrouter.ai");
  const compat = model.compat ?? {};
  return {
    supportsEagerToolInputStreaming: compat.supportsEagerToolInputStreaming ?? true,
    supportsLongCacheRetention: compat.supportsLongCacheRetention ?? true,
    sendSessionAffinityHeaders: compat.sendSessionAffinityHeaders ?? viaOpenRouter,
    sessionAffinityFormat: compat.sessionAffinityFormat ?? (viaOpenRouter ? "openrouter" : undefined),
    supportsCacheControlOnTools: compat.supportsCacheControlOnTools ?? true,
    supportsTemperature: compat.supportsTemperature ?? true,
    allowEmptySignature: compat.allowEmptySignature ?? false,
    supportsStrictTools: compat.supportsStrictTools ?? false,
    supportsMidConvoSystemMessages: compat.supportsMidConvoSystemMessages ?? false,
    supportsMidConvoToolChanges: compat.supportsMidConvoToolChanges ?? false,
    // Gateways that drop unknown fields would turn a `continue` into a request without history.
    supportsMessageThreads: compat.supportsMessageThreads ?? model.baseUrl.includes("api.anthropic.com"),
  };
}

function cacheControlFor(model, cacheRetention, env) {
  const retention = resolveCacheRetention(cacheRetention, env);
  if (retention === "none") return undefined;
  const longTtl = retention === "long" && anthropicCompat(model).supportsLongCacheRetention;
  return { type: "ephemeral", ...(longTtl ? { ttl: "1h" } : {}) };
}

// --- message threads: a session's next request continues the last reply --------

/** Per session: where the next request can continue, or "off" once the endpoint rejected threads. */
const threadState = new Map();
const MAX_THREAD_SESSIONS = 10_000;
const NEW_THREAD_ERRORS = new Set([
  "thread_not_found",
  "thread_already_continued",
  "thread_continue_in_flight",
  "thread_fingerprint_mismatch",
]);
let threadCleanupRegistered = false;

function setThreadState(sessionId, value) {
  if (!threadCleanupRegistered) {
    threadCleanupRegistered = true;
    registerSessionResourceCleanup((id) => {
      if (id) threadState.delete(id);
      else threadState.clear();
    });
  }
  // Re-inserted so the oldest session is first when the cap drops one.
  threadState.delete(sessionId);
  threadState.set(sessionId, value);
  if (threadState.size > MAX_THREAD_SESSIONS) threadState.delete(threadState.keys().next().value);
}

/**
 * What a `continue` builds on: the endpoint and the settings that must stay
 * fixed in a thread, and the messages the server holds, normalized so
 * messages the API reads alike hash alike (cache markers move between
 * requests; the newest user text is a block in one request, a string in
 * the next).
 */
function threadPrefixHash(model, params, messages) {
  const { system, tools, thinking, output_config, tool_choice, betas, fallbacks } = params;
  const settings = JSON.stringify([
    model.provider,
    model.baseUrl,
    params.model,
    system,
    tools,
    thinking,
    output_config,
    tool_choice,
    betas,
    fallbacks,
  ]);
  const conversation = JSON.stringify(messages, (key, value) => {
    if (key === "cache_control") return undefined;
    if (key === "content" && typeof value === "string") return [{ type: "text", text: value }];
    return value;
  });
  return shortHash(settings + conversation);
}

function newThreadRequest(sessionId, params) {
  return { sessionId, body: { ...params, thread: { type: "create" } } };
}

function prepareThreadRequest(model, sessionId, params) {
  const state = threadState.get(sessionId);
  if (state === "off") return undefined;
  if (
    state !== undefined &&
    params.messages.length > state.prefixCount &&
    threadPrefixHash(model, params, params.messages.slice(0, state.prefixCount)) === state.prefixHash
  ) {
    // A reply is continued once; forgetting it also keeps a concurrent request off it.
    threadState.delete(sessionId);
    const { system: _system, tools: _tools, ...rest } = params;
    return {
      sessionId,
      body: {
        ...rest,
        messages: params.messages.slice(state.prefixCount),
        thread: { type: "continue", previous_message_id: state.replyId },
      },
    };
  }
  return newThreadRequest(sessionId, params);
}

/**
 * Sends a thread request. A rejection about the thread is resent once in
 * full: as a new thread when the old one cannot be continued, or without
 * `thread` (and threads off for the session) when the endpoint cannot use
 * them. Other failures pass on.
 */
async function sendThreadRequest(thread, params, send, output, signal) {
  try {
    return { response: await send(thread.body), thread };
  } catch (error) {
    if (signal?.aborted || !isApiError(error)) throw error;
    const code = error.error?.error?.details?.error_code;
    const errorCode = typeof code === "string" ? code : undefined;
    const startNewThread = errorCode !== undefined && NEW_THREAD_ERRORS.has(errorCode);
    // An endpoint without the threads beta rejects the field itself, without a code.
    const unsupported =
      errorCode === "thread_unsupported_request" ||
      (errorCode === undefined && error.status === 400 && error.message.includes("thread"));
    if (!startNewThread && !unsupported) throw error;
    appendAssistantMessageDiagnostic(output, {
      type: "anthropic_thread_fallback",
      timestamp: Date.now(),
      error: { message: error.message },
      details: { reason: errorCode ?? String(error.status) },
    });
    if (startNewThread) {
      const created = newThreadRequest(thread.sessionId, params);
      return { response: await send(created.body), thread: created };
    }
    const response = await send(params);
    setThreadState(thread.sessionId, "off");
    return { response, thread: undefined };
  }
}

/** Remembers that the session can continue after `output`, the clean reply to `thread`. */
function recordThreadReply(model, thread, params, output, isOAuth, allowEmptySignature) {
  // Replies of a fallback model are not stored by the server.
  if (output.responseId === undefined || output.responseModel !== undefined) return;
  const reply = convertMessages(transformMessages([output], model, normalizeToolCallId), {
    isOAuth,
    allowEmptySignature,
  }).messages.filter((message) => message.role === "assistant");
  const prefix = [...params.messages, ...reply];
  setThreadState(thread.sessionId, {
    prefixCount: prefix.length,
    prefixHash: threadPrefixHash(model, params, prefix),
    replyId: output.responseId,
  });
}

/**
 * A failure the API answered (or a connection failure), as pihost's client
 * raises it or as the Anthropic SDK of a caller's own `options.client` does.
 */
function isApiError(error) {
  return error instanceof ProviderHttpError || (error instanceof Error && "status" in error && "headers" in error && "error" in error);
}

// --- auth and headers -------------------------------------------------------------

function hasRequestAuth(apiKey, headers) {
  return !!apiKey || hasHeader(headers, "authorization") || hasHeader(headers, "x-api-key") || hasHeader(headers, "cf-aig-authorization");
}

/**
 * Workload identity federation is the SDK's own token exchange, which
 * pihost does not have: with the federation variables set and no key, the
 * request fails with a clear error instead of going out unauthenticated.
 */
function assertRequestAuth(model, apiKey, headers, env) {
  if (hasRequestAuth(apiKey, headers)) return;
  if (
    model.provider === "anthropic" &&
    providerEnvValue(ANTHROPIC_FEDERATION_RULE_ID_ENV, env) &&
    providerEnvValue(ANTHROPIC_ORGANIZATION_ID_ENV, env) &&
    providerEnvValue(ANTHROPIC_IDENTITY_TOKEN_FILE_ENV, env)
  ) {
    throw new Error("pihost: Anthropic workload identity federation is not implemented; set an API key");
  }
  throw new Error(`No API key for provider: ${model.provider}`);
}

const isOAuthToken = (apiKey) => apiKey.includes("sk-ant-oat");

/** The client headers pi configures and whether the key is a Claude OAuth token. */
function clientHeaders(model, apiKey, optionsHeaders, dynamicHeaders, sessionId, identity) {
  const browserAccess = { accept: "application/json", "anthropic-dangerous-direct-browser-access": "true" };
  if (model.provider === "github-copilot") {
    return {
      isOAuth: false,
      auth: apiKey ? { Authorization: `Bearer ${apiKey}` } : {},
      headers: [getIdentityHeaders(model, identity), browserAccess, model.headers, dynamicHeaders, optionsHeaders],
    };
  }
  if (apiKey && isOAuthToken(apiKey)) {
    return {
      isOAuth: true,
      auth: { Authorization: `Bearer ${apiKey}` },
      headers: [
        { ...browserAccess, "user-agent": `claude-cli/${CLAUDE_CODE_VERSION}`, "x-app": "cli" },
        model.headers,
        optionsHeaders,
      ],
    };
  }
  const compat = anthropicCompat(model);
  const affinity = {};
  if (sessionId && compat.sendSessionAffinityHeaders) {
    affinity[compat.sessionAffinityFormat === "openrouter" ? "x-session-id" : "x-session-affinity"] = sessionId;
  }
  return {
    isOAuth: false,
    auth: apiKey ? { "X-Api-Key": apiKey } : {},
    headers: [getIdentityHeaders(model, identity), browserAccess, affinity, model.headers, optionsHeaders],
  };
}

function messagesUrl(baseUrl) {
  return `${baseUrl.endsWith("/") ? baseUrl.slice(0, -1) : baseUrl}/v1/messages?beta=true`;
}

function betaFeatures(model, context, options, { isOAuth, nativeToolChanges, messageThreads }) {
  let configured;
  for (const headers of [model.headers, options?.headers]) {
    for (const [name, value] of Object.entries(headers ?? {})) {
      if (name.toLowerCase() === "anthropic-beta") configured = value;
    }
  }
  if (configured === null) return [];
  if (configured !== undefined) {
    return [...new Set(configured.split(",").map((feature) => feature.trim()).filter((feature) => feature.length > 0))];
  }
  const features = [];
  if (isOAuth) features.push("claude-code-20250219", "oauth-2025-04-20");
  if (getCurrentTools(context.messages).length > 0 && !anthropicCompat(model).supportsEagerToolInputStreaming) {
    features.push(BETA.fineGrainedToolStreaming);
  }
  if (
    model.reasoning &&
    options?.thinkingEnabled === true &&
    (options.interleavedThinking ?? true) &&
    model.compat?.forceAdaptiveThinking !== true
  ) {
    features.push(BETA.interleavedThinking);
  }
  if ((model.compat?.allowedFallbackModels?.length ?? 0) > 0) features.push(BETA.serverSideFallback);
  if (model.compat?.supportsMidConvoEffort === true) features.push(BETA.midConversationOutputConfig, BETA.thinkingBindingControls);
  if (nativeToolChanges) features.push(BETA.inlineTools);
  if (messageThreads) features.push(BETA.messageThreads);
  return [...new Set(features)];
}

// --- request body ---------------------------------------------------------------

function imageBlock(image) {
  return { type: "image", source: { type: "base64", media_type: image.mimeType, data: image.data } };
}

/** Tool result content: one string when it is all text, else blocks with a caption for images alone. */
function toolResultContent(content) {
  if (!content.some((block) => block.type === "image")) {
    return sanitizeSurrogates(content.map((block) => block.text).join("\n"));
  }
  const blocks = content.map((block) =>
    block.type === "text" ? { type: "text", text: sanitizeSurrogates(block.text) } : imageBlock(block),
  );
  if (!blocks.some((block) => block.type === "text")) blocks.unshift({ type: "text", text: "(see attached image)" });
  return blocks;
}

/** Anthropic's tool_use id pattern and length. */
function normalizeToolCallId(id) {
  return id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
}

const isAnthropicEffort = (value) => ["low", "medium", "high", "xhigh", "max"].includes(value);

function assistantBlocks(message, isOAuth, allowEmptySignature) {
  const blocks = [];
  for (const block of message.content) {
    if (block.type === "text") {
      if (block.text.trim().length > 0) blocks.push({ type: "text", text: sanitizeSurrogates(block.text) });
    } else if (block.type === "thinking") {
      if (block.redacted) {
        blocks.push({ type: "redacted_thinking", data: block.thinkingSignature });
        continue;
      }
      const signature = block.thinkingSignature;
      const signed = !!signature && signature.trim().length > 0;
      if (block.thinking.trim().length === 0 && !signed) continue;
      if (signed) blocks.push({ type: "thinking", thinking: sanitizeSurrogates(block.thinking), signature });
      // Unsigned thinking (an aborted stream) is refused by Anthropic; it goes as text unless the model takes it.
      else if (allowEmptySignature) blocks.push({ type: "thinking", thinking: sanitizeSurrogates(block.thinking), signature: "" });
      else blocks.push({ type: "text", text: sanitizeSurrogates(block.thinking) });
    } else if (block.type === "toolCall") {
      blocks.push({
        type: "tool_use",
        id: block.id,
        name: isOAuth ? toClaudeCodeName(block.name) : block.name,
        input: block.arguments ?? {},
      });
    }
  }
  return blocks;
}

function systemUpdateBlocks(message, isOAuth, convertToolDefinitions) {
  const blocks = [];
  const text = renderSystemMessageUpdate(message);
  if (text.length > 0) blocks.push({ type: "text", text: sanitizeSurrogates(text) });
  if (!convertToolDefinitions) return blocks;
  const added = message.toolsAdded ?? [];
  const redefined = new Set(added.map((tool) => tool.name));
  for (const tool of message.toolsRemoved ?? []) {
    // A new definition under the same name replaces the old one.
    if (redefined.has(tool.name)) continue;
    blocks.push({ type: "tool_removal", tool: { type: "tool_reference", name: isOAuth ? toClaudeCodeName(tool.name) : tool.name } });
  }
  for (const definition of convertToolDefinitions(added)) {
    blocks.push({ type: "tool_addition", tool: { type: "tool_definition", definition } });
  }
  return blocks;
}

const CACHEABLE_LAST_BLOCKS = new Set(["text", "image", "tool_result", "tool_addition", "tool_removal"]);

/**
 * The conversation as Messages API messages, and which assistant messages
 * carry a managed effort level. Later system messages wait until just
 * before the next assistant message that is sent (tool results must follow
 * their tool_use directly), so an update before a user message lands after
 * it on the wire.
 */
function convertMessages(messages, { isOAuth, cacheControl, allowEmptySignature = false, managedProvider, convertToolDefinitions }) {
  const params = [];
  const assistantLevels = new Map();
  const pendingSystem = [];
  const flushSystem = () => {
    params.push(...pendingSystem);
    pendingSystem.length = 0;
  };
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index];
    if (message.role === "system") {
      const blocks = systemUpdateBlocks(message, isOAuth, convertToolDefinitions);
      if (blocks.length > 0) pendingSystem.push({ role: "system", content: blocks });
    } else if (message.role === "user") {
      if (typeof message.content === "string") {
        if (message.content.trim().length > 0) params.push({ role: "user", content: sanitizeSurrogates(message.content) });
        continue;
      }
      const blocks = message.content
        .map((block) => (block.type === "text" ? { type: "text", text: sanitizeSurrogates(block.text) } : imageBlock(block)))
        .filter((block) => block.type !== "text" || block.text.trim().length > 0);
      if (blocks.length > 0) params.push({ role: "user", content: blocks });
    } else if (message.role === "assistant") {
      const blocks = assistantBlocks(message, isOAuth, allowEmptySignature);
      if (blocks.length === 0) continue;
      flushSystem();
      const position = params.length;
      params.push({ role: "assistant", content: blocks });
      if (
        managedProvider !== undefined &&
        message.api === "anthropic-messages" &&
        message.provider === managedProvider &&
        isAnthropicEffort(message.providerThinkingLevel)
      ) {
        assistantLevels.set(position, message.providerThinkingLevel);
      }
    } else if (message.role === "toolResult") {
      // Consecutive results go in one user message; error images (refused inside
      // error results) follow all of them.
      const results = [];
      const errorImages = [];
      let next = index;
      while (next < messages.length && messages[next].role === "toolResult") {
        const result = messages[next];
        const split = splitErrorToolResultImages(result);
        results.push({
          type: "tool_result",
          tool_use_id: result.toolCallId,
          content: toolResultContent(split?.content ?? result.content),
          is_error: result.isError,
        });
        if (split) errorImages.push({ type: "text", text: split.caption }, ...split.images.map(imageBlock));
        next++;
      }
      index = next - 1;
      params.push({ role: "user", content: [...results, ...errorImages] });
    }
  }
  flushSystem();
  // The history up to the last user or system message is cached.
  const last = params[params.length - 1];
  if (cacheControl && last && (last.role === "user" || last.role === "system")) {
    if (Array.isArray(last.content)) {
      const block = last.content[last.content.length - 1];
      if (block && CACHEABLE_LAST_BLOCKS.has(block.type)) block.cache_control = cacheControl;
    } else if (typeof last.content === "string") {
      last.content = [{ type: "text", text: last.content, cache_control: cacheControl }];
    }
  }
  return { messages: params, assistantLevels };
}

function withEffortMarkers(converted, activeEffort) {
  const messages = [];
  converted.messages.forEach((message, index) => {
    const effort = converted.assistantLevels.get(index);
    if (effort !== undefined) messages.push({ role: "system", content: [], output_config: { effort } });
    messages.push(message);
  });
  messages.push({ role: "system", content: [], output_config: { effort: activeEffort } });
  return messages;
}

// Keywords Claude's strict tool use rejects for the whole request.
const STRICT_UNSUPPORTED_KEYWORDS = new Set([
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "maxItems",
  "uniqueItems",
  "minContains",
  "maxContains",
  "minProperties",
  "maxProperties",
]);
const STRICT_STRING_FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"]);

function isStrictUnsupportedKeyword(key, value) {
  if (STRICT_UNSUPPORTED_KEYWORDS.has(key)) return true;
  if (key === "minItems") return value !== 0 && value !== 1;
  if (key === "format") return typeof value !== "string" || !STRICT_STRING_FORMATS.has(value);
  return false;
}

function convertTools(tools, { isOAuth, eagerInputStreaming, supportsStrictTools, cacheControl, disablePreferredStrict }) {
  return tools.map((tool, index) => {
    const strict =
      disablePreferredStrict && prefersJsonSchemaStrictSampling(tool)
        ? undefined
        : resolveJsonSchemaStrictSampling(tool, supportsStrictTools, isStrictUnsupportedKeyword);
    const parameters = getJsonSchemaToolParameters(tool, strict);
    // Root anyOf/oneOf/allOf are rejected; definitions stay so $refs resolve.
    const objectSchema = {
      type: "object",
      properties: parameters.properties ?? {},
      required: parameters.required ?? [],
      ...(parameters.additionalProperties === undefined ? {} : { additionalProperties: parameters.additionalProperties }),
      ...(parameters.$defs === undefined ? {} : { $defs: parameters.$defs }),
      ...(parameters.definitions === undefined ? {} : { definitions: parameters.definitions }),
    };
    return {
      name: isOAuth ? toClaudeCodeName(tool.name) : tool.name,
      description: tool.description,
      ...(eagerInputStreaming ? { eager_input_streaming: true } : {}),
      ...(strict === true ? { strict: true } : {}),
      input_schema: strict === true ? { ...parameters, ...objectSchema } : objectSchema,
      ...(cacheControl && index === tools.length - 1 ? { cache_control: cacheControl } : {}),
    };
  });
}

function buildParams(model, context, isOAuth, options, flags) {
  const cacheControl = cacheControlFor(model, options?.cacheRetention, options?.env);
  const compat = anthropicCompat(model);
  const initialSystem = getInitialSystemMessage(context.messages);
  const initialSystemText = initialSystem ? getSystemMessageText(initialSystem) : "";
  const transformed = transformMessages(context.messages, model, normalizeToolCallId);
  const conversation = initialSystem ? transformed.slice(1) : transformed;
  let hasPreferredStrictTools = false;
  const convertToolDefinitions = (tools, toolCacheControl) => {
    const definitions = convertTools(tools, {
      isOAuth,
      eagerInputStreaming: compat.supportsEagerToolInputStreaming,
      supportsStrictTools: compat.supportsStrictTools,
      cacheControl: toolCacheControl,
      disablePreferredStrict: flags.disablePreferredStrictTools,
    });
    if (definitions.some((definition, index) => definition.strict === true && prefersJsonSchemaStrictSampling(tools[index]))) {
      hasPreferredStrictTools = true;
    }
    return definitions;
  };
  // Native tool changes keep the request's tool list fixed; Anthropic rejects a
  // list of deferred tools only, so an initial tool must anchor the placeholder.
  const initialTools = initialSystem?.toolsAdded ?? [];
  const nativeToolChanges = compat.supportsMidConvoSystemMessages && compat.supportsMidConvoToolChanges && initialTools.length > 0;
  const thinkingDisabled = model.reasoning && options?.thinkingEnabled === false && model.thinkingLevelMap?.off !== null;
  // With thinking off, effort cannot change between messages: no markers.
  const effortMessages = model.compat?.supportsMidConvoEffort === true && !thinkingDisabled;
  const converted = convertMessages(conversation, {
    isOAuth,
    cacheControl,
    allowEmptySignature: compat.allowEmptySignature,
    managedProvider: effortMessages ? model.provider : undefined,
    convertToolDefinitions: nativeToolChanges ? convertToolDefinitions : undefined,
  });
  const activeEffort = options?.effort ?? "high";
  const betas = betaFeatures(model, context, options, { isOAuth, nativeToolChanges, messageThreads: flags.messageThreads });
  const params = {
    model: model.id,
    messages: effortMessages ? withEffortMarkers(converted, activeEffort) : converted.messages,
    max_tokens: options?.maxTokens ?? model.maxTokens,
    stream: true,
    ...(betas.length > 0 ? { betas } : {}),
  };
  const systemBlock = (text) => ({ type: "text", text, ...(cacheControl ? { cache_control: cacheControl } : {}) });
  if (isOAuth) {
    params.system = [systemBlock(CLAUDE_CODE_IDENTITY)];
    if (initialSystemText) params.system.push(systemBlock(sanitizeSurrogates(initialSystemText)));
  } else if (initialSystemText) {
    params.system = [systemBlock(sanitizeSurrogates(initialSystemText))];
  }
  // Extended thinking and managed effort take no temperature.
  if (options?.temperature !== undefined && !options?.thinkingEnabled && model.compat?.supportsMidConvoEffort !== true && compat.supportsTemperature) {
    params.temperature = options.temperature;
  }
  const toolCacheControl = compat.supportsCacheControlOnTools ? cacheControl : undefined;
  if (nativeToolChanges) {
    params.tools = [...convertToolDefinitions(initialTools, toolCacheControl), DEFERRED_TOOL_PLACEHOLDER];
  } else {
    const tools = getCurrentTools(context.messages);
    if (tools.length > 0) params.tools = convertToolDefinitions(tools, toolCacheControl);
  }
  if (thinkingDisabled) {
    params.thinking = { type: "disabled" };
  } else if (effortMessages) {
    // Adaptive, so a prefix mismatch drops the block instead of failing; the
    // top-level effort is in the cached prompt and stays "low" (orgs may cap it).
    params.thinking = {
      type: "adaptive",
      display: options?.thinkingDisplay ?? "summarized",
      block_binding: { prefix_mismatch_behavior: "drop_block" },
    };
    params.output_config = { effort: "low" };
  } else if (model.reasoning && options?.thinkingEnabled) {
    const display = options.thinkingDisplay ?? "summarized";
    if (model.compat?.forceAdaptiveThinking === true) {
      params.thinking = { type: "adaptive", display };
      if (options.effort) params.output_config = { effort: options.effort };
    } else {
      params.thinking = { type: "enabled", budget_tokens: options.thinkingBudgetTokens || 1024, display };
    }
  }
  if (typeof options?.metadata?.user_id === "string") params.metadata = { user_id: options.metadata.user_id };
  if (options?.toolChoice) {
    params.tool_choice = typeof options.toolChoice === "string" ? { type: options.toolChoice } : options.toolChoice;
  }
  const fallbacks = model.compat?.allowedFallbackModels;
  if (fallbacks && fallbacks.length > 0) params.fallbacks = fallbacks.map((fallback) => ({ model: fallback.model }));
  return { params, hasPreferredStrictTools, providerThinkingLevel: effortMessages ? activeEffort : undefined };
}

// --- the answer -----------------------------------------------------------------

function mapStopReason(reason, details) {
  switch (reason) {
    case "end_turn":
    case "pause_turn":
    case "stop_sequence":
      return { stopReason: "stop" };
    case "max_tokens":
      return { stopReason: "length" };
    case "tool_use":
      return { stopReason: "toolUse" };
    case "refusal":
      return { stopReason: "error", errorMessage: details?.explanation || "The model refused to complete the request" };
    case "sensitive":
      return { stopReason: "error", errorMessage: "Provider stopped with: sensitive" };
    default:
      throw new Error(`Unhandled stop reason: ${reason}`);
  }
}

async function* anthropicEvents(response, signal) {
  if (!response.body) throw new Error("Attempted to iterate over an Anthropic response with no body");
  let started = false;
  let stopped = false;
  for await (const sse of readSseEvents(response.body, signal)) {
    if (sse.event === "error") throw new Error(sse.data);
    if (!MESSAGE_EVENTS.has(sse.event ?? "")) continue;
    let event;
    try {
      event = parseJsonWithRepair(sse.data);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`Could not parse Anthropic SSE event ${sse.event}: ${reason}; data=${sse.data}; raw=${sse.raw.join("\\n")}`);
    }
    if (event.type === "message_start") started = true;
    else if (event.type === "message_stop") stopped = true;
    yield event;
  }
  if (started && !stopped) throw new Error("Anthropic stream ended before message_stop");
}

function totalTokens(usage) {
  return usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/** Applies one stream event to `output`, pushing pi's events; `state` holds what outlives an event. */
function applyEvent(event, state) {
  const { output, stream, model } = state;
  const push = (fields) => stream.push({ ...fields, partial: output });
  if (event.type === "message_start") {
    output.responseId = event.message.id;
    if (Array.isArray(event.message.input_transformations)) state.inputTransformations = event.message.input_transformations;
    const responseModel = event.message.model;
    if (responseModel !== model.id) output.responseModel = responseModel;
    const fallbackCost =
      responseModel === model.id
        ? undefined
        : model.compat?.allowedFallbackModels?.find((fallback) => fallback.provider === model.provider && fallback.model === responseModel)?.cost;
    state.usageModel = fallbackCost ? { ...model, id: responseModel, cost: fallbackCost } : model;
    // Counted from the start, so an aborted stream still knows its input.
    const usage = event.message.usage;
    output.usage.input = usage.input_tokens || 0;
    output.usage.output = usage.output_tokens || 0;
    output.usage.cacheRead = usage.cache_read_input_tokens || 0;
    output.usage.cacheWrite = usage.cache_creation_input_tokens || 0;
    output.usage.cacheWrite1h = usage.cache_creation?.ephemeral_1h_input_tokens || 0;
    output.usage.totalTokens = totalTokens(output.usage);
    calculateCost(state.usageModel, output.usage);
  } else if (event.type === "content_block_start") {
    const block = event.content_block;
    if (block.type === "fallback") {
      if (output.content.length > 0) throw new Error("Anthropic performed an unsupported mid-output model fallback");
      return;
    }
    let kind;
    if (block.type === "text") {
      output.content.push({ type: "text", text: block.text ?? "" });
      kind = "text_start";
    } else if (block.type === "thinking") {
      output.content.push({ type: "thinking", thinking: block.thinking ?? "", thinkingSignature: block.signature ?? "" });
      kind = "thinking_start";
    } else if (block.type === "redacted_thinking") {
      output.content.push({ type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: block.data, redacted: true });
      kind = "thinking_start";
    } else if (block.type === "tool_use") {
      output.content.push({
        type: "toolCall",
        id: block.id,
        name: state.isOAuth ? fromClaudeCodeName(block.name, state.currentTools) : block.name,
        arguments: block.input ?? {},
      });
      kind = "toolcall_start";
    } else {
      return;
    }
    const contentIndex = output.content.length - 1;
    state.openBlocks.set(event.index, {
      contentIndex,
      ...(kind === "toolcall_start" ? { arguments: new ToolCallArgumentsStream() } : {}),
    });
    push({ type: kind, contentIndex });
  } else if (event.type === "content_block_delta") {
    const open = state.openBlocks.get(event.index);
    const block = open === undefined ? undefined : output.content[open.contentIndex];
    const delta = event.delta;
    if (delta.type === "text_delta" && block?.type === "text") {
      block.text += delta.text;
      push({ type: "text_delta", contentIndex: open.contentIndex, delta: delta.text });
    } else if (delta.type === "thinking_delta" && block?.type === "thinking") {
      block.thinking += delta.thinking;
      push({ type: "thinking_delta", contentIndex: open.contentIndex, delta: delta.thinking });
    } else if (delta.type === "input_json_delta" && block?.type === "toolCall" && open.arguments !== undefined) {
      block.arguments = open.arguments.append(delta.partial_json);
      push({ type: "toolcall_delta", contentIndex: open.contentIndex, delta: delta.partial_json });
    } else if (delta.type === "signature_delta" && block?.type === "thinking") {
      block.thinkingSignature = (block.thinkingSignature || "") + delta.signature;
    }
  } else if (event.type === "content_block_stop") {
    const open = state.openBlocks.get(event.index);
    state.openBlocks.delete(event.index);
    if (!open) return;
    const block = output.content[open.contentIndex];
    if (block.type === "text") push({ type: "text_end", contentIndex: open.contentIndex, content: block.text });
    else if (block.type === "thinking") push({ type: "thinking_end", contentIndex: open.contentIndex, content: block.thinking });
    else if (block.type === "toolCall" && open.arguments !== undefined) {
      Object.assign(block, open.arguments.finish());
      push({ type: "toolcall_end", contentIndex: open.contentIndex, toolCall: block });
    }
  } else if (event.type === "message_delta") {
    if (Array.isArray(event.input_transformations)) state.inputTransformations = event.input_transformations;
    if (event.delta.stop_reason) {
      output.rawStopReason = event.delta.stop_reason;
      const mapped = mapStopReason(event.delta.stop_reason, event.delta.stop_details);
      output.stopReason = mapped.stopReason;
      if (mapped.errorMessage) output.errorMessage = mapped.errorMessage;
    }
    // Only fields present are taken: proxies omit input_tokens here.
    const usage = event.usage;
    if (usage) {
      if (usage.input_tokens != null) output.usage.input = usage.input_tokens;
      if (usage.output_tokens != null) output.usage.output = usage.output_tokens;
      if (usage.cache_read_input_tokens != null) output.usage.cacheRead = usage.cache_read_input_tokens;
      if (usage.cache_creation_input_tokens != null) output.usage.cacheWrite = usage.cache_creation_input_tokens;
      if (usage.cache_creation?.ephemeral_1h_input_tokens != null) output.usage.cacheWrite1h = usage.cache_creation.ephemeral_1h_input_tokens;
      // Reasoning tokens are a part of the output tokens.
      if (usage.output_tokens_details?.thinking_tokens != null) output.usage.reasoning = usage.output_tokens_details.thinking_tokens;
    }
    output.usage.totalTokens = totalTokens(output.usage);
    calculateCost(state.usageModel, output.usage);
    // OpenRouter bills in fields of its own on the streamed usage.
    if (isOpenRouterModel(model) && usage) applyOpenRouterReportedCost(output.usage, usage);
  }
}

export function stream(model, context, options) {
  const events = new AssistantMessageEventStream();
  const compat = anthropicCompat(model);
  const transcript = compat.supportsMidConvoSystemMessages ? context : collapseSystemMessages(context);
  const currentTools = getCurrentTools(transcript.messages);
  const output = {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason: "pending",
    timestamp: Date.now(),
  };
  run(model, transcript, options, compat, currentTools, output, events).catch((error) => {
    output.stopReason = options?.signal?.aborted ? "aborted" : "error";
    output.errorMessage = error instanceof Error ? withCauseDetail(error) : JSON.stringify(error);
    events.push({ type: "error", reason: output.stopReason, error: output });
    events.end();
  });
  return events;
}

function requestClient(model, context, options, cacheSessionId) {
  const apiKey = options?.apiKey;
  assertRequestAuth(model, apiKey, options?.headers, options?.env);
  const dynamicHeaders =
    model.provider === "github-copilot"
      ? buildCopilotDynamicHeaders({ messages: context.messages, hasImages: hasCopilotVisionInput(context.messages) })
      : undefined;
  return clientHeaders(model, apiKey, options?.headers, dynamicHeaders, cacheSessionId, options?.identity);
}

/** Sends a request body and resolves to the response: over fetch, or through a caller's own Anthropic SDK client. */
function requestSender(model, client, options) {
  const retry = { maxRetries: options?.maxRetries, maxRetryDelayMs: options?.maxRetryDelayMs, signal: options?.signal };
  if (options?.client) {
    // The SDK's own retries stay off: pi's retry loop runs around it.
    const sdkOptions = {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
      maxRetries: 0,
    };
    return (body) => retryProviderRequest(() => options.client.beta.messages.create(body, sdkOptions).asResponse(), retry);
  }
  const post = (body) => {
    // The SDK sends `betas` as the anthropic-beta header.
    const { betas, ...payload } = body;
    return postJson({
      url: messagesUrl(model.baseUrl),
      headers: mergeRequestHeaders(
        { accept: "application/json", "user-agent": SDK_USER_AGENT, "anthropic-version": API_VERSION },
        client.auth,
        ...client.headers,
        betas === undefined ? undefined : { "anthropic-beta": betas.toString() },
      ),
      body: payload,
      signal: options?.signal,
      timeoutMs: options?.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      fetchImpl: options?.fetch,
      abortedMessage: "Request was aborted.",
      errorType: (json) => json?.error?.type,
    });
  };
  return (body) => retryProviderRequest(() => post(body), retry);
}

async function run(model, context, options, compat, currentTools, output, events) {
  const cacheRetention = resolveCacheRetention(options?.cacheRetention, options?.env);
  const cacheSessionId = cacheRetention === "none" ? undefined : options?.sessionId;
  // Sessions whose endpoint refused threads ("off") keep the beta; they just send no `thread`.
  const threadSessionId = compat.supportsMessageThreads ? cacheSessionId : undefined;
  const client = options?.client ? { isOAuth: false } : requestClient(model, context, options, cacheSessionId);
  const send = requestSender(model, client, options);

  let disablePreferredStrictTools = hasExceededStrictToolLimits(options?.sessionId);
  let response;
  let params;
  let thread;
  for (;;) {
    options?.signal?.throwIfAborted();
    const built = buildParams(model, context, client.isOAuth, options, {
      disablePreferredStrictTools,
      messageThreads: threadSessionId !== undefined,
    });
    if (built.providerThinkingLevel) output.providerThinkingLevel = built.providerThinkingLevel;
    params = built.params;
    const replaced = await options?.onPayload?.(params, model);
    if (replaced !== undefined) params = { ...replaced, stream: true };
    const prepared =
      threadSessionId !== undefined && options?.disableContinuation !== true
        ? prepareThreadRequest(model, threadSessionId, params)
        : undefined;
    try {
      const sent = prepared
        ? await sendThreadRequest(prepared, params, send, output, options?.signal)
        : { response: await send(params), thread: undefined };
      response = sent.response;
      thread = sent.thread;
      break;
    } catch (error) {
      // Only a rejected request is downgraded to non-strict tools, once.
      if (
        options?.signal?.aborted ||
        disablePreferredStrictTools ||
        !built.hasPreferredStrictTools ||
        !isApiError(error) ||
        error.status !== 400 ||
        error.type !== "invalid_request_error" ||
        !isStrictToolLimitErrorMessage(error.message)
      ) {
        throw error;
      }
      disablePreferredStrictTools = true;
      markStrictToolLimitsExceeded(options?.sessionId);
      appendAssistantMessageDiagnostic(output, {
        type: "anthropic_strict_tools_fallback",
        timestamp: Date.now(),
        error: { message: error.message },
        details: { reason: "strict_tool_limits_exceeded" },
      });
    }
  }
  await options?.onResponse?.({ status: response.status, headers: headersToRecord(response.headers) }, model);
  events.push({ type: "start", partial: output });
  const state = {
    output,
    stream: events,
    model,
    usageModel: model,
    isOAuth: client.isOAuth,
    currentTools,
    openBlocks: new Map(),
    inputTransformations: undefined,
  };
  for await (const event of anthropicEvents(response, options?.signal)) {
    await options?.onProviderStreamEvent?.(event, model);
    applyEvent(event, state);
  }
  if (options?.signal?.aborted) throw new Error("Request was aborted");
  if (output.stopReason === "pending") throw new Error("Anthropic stream ended without a stop reason");
  if (output.stopReason === "aborted" || output.stopReason === "error") throw new Error(output.errorMessage || "An unknown error occurred");
  if (thread) recordThreadReply(model, thread, params, output, client.isOAuth, compat.allowEmptySignature);
  if (state.inputTransformations && state.inputTransformations.length > 0) {
    appendAssistantMessageDiagnostic(output, {
      type: "anthropic_input_transformations",
      timestamp: Date.now(),
      details: {
        transformations: state.inputTransformations.map((transformation) => ({
          type: transformation.type ?? undefined,
          path: transformation.path ?? undefined,
          reason: transformation.reason ?? undefined,
        })),
      },
    });
  }
  events.push({ type: "done", reason: output.stopReason, message: output });
  events.end();
}

/** A thinking level as Anthropic's adaptive-thinking effort (the model's own map first). */
function effortForLevel(model, level) {
  const mapped = level ? model.thinkingLevelMap?.[level] : undefined;
  if (typeof mapped === "string") return mapped;
  if (level === "minimal" || level === "low") return "low";
  if (level === "medium") return "medium";
  return "high";
}

export function streamSimple(model, context, options) {
  assertRequestAuth(model, options?.apiKey, options?.headers, options?.env);
  const base = { ...buildBaseOptions(model, context, options, options?.apiKey), toolChoice: options?.toolChoice };
  if (!options?.reasoning) return stream(model, context, { ...base, thinkingEnabled: false });
  if (model.compat?.forceAdaptiveThinking === true) {
    return stream(model, context, { ...base, thinkingEnabled: true, effort: effortForLevel(model, options.reasoning) });
  }
  // An undefined cap lets the model's cap hold the budget; 0 would make the budget everything.
  const adjusted = adjustMaxTokensForThinking(base.maxTokens, model.maxTokens, options.reasoning, options.thinkingBudgets);
  const maxTokens = clampMaxTokensToContext(model, context, adjusted.maxTokens);
  return stream(model, context, {
    ...base,
    maxTokens,
    thinkingEnabled: true,
    thinkingBudgetTokens: Math.min(adjusted.thinkingBudget, Math.max(0, maxTokens - 1024)),
  });
}
