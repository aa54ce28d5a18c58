// The pi-ai root as extensions see it (pi's extension view of pi-ai's compat
// entry): TypeBox's Type, a StringEnum built on Type.Unsafe, pi-ai's pure
// helpers (overflow and retry classification among them), its built-in
// model catalog, the faux provider and the Models collection. Model calls
// go to the embedding host (ai/dispatch.js) unless the caller opts into
// pi's network providers (ai/builtin-apis.js), which then speak HTTP from
// the isolate.
export { Type } from "./typebox.js";
export { StringEnum } from "./ai/string-enum.js";
export { validateToolArguments, validateToolCall } from "../runtime/validate-tool-arguments.js";
export { uuidv7 } from "./ai/uuid.js";
export { contentText, getSystemMessageText, renderSystemMessageUpdate } from "./ai/system-text.js";
export { calculateCost } from "./ai/cost.js";
export {
  getBuiltinModel as getModel,
  getBuiltinModels as getModels,
  getBuiltinProviders as getProviders,
  getImageModel,
  getImageModels,
  getImageProviders,
} from "./ai/catalog.js";
export {
  getModelType,
  isModelType,
  getSupportedThinkingLevels,
  clampThinkingLevel,
  modelsAreEqual,
  hasApi,
} from "./ai/model-kinds.js";
export { isContextOverflow, isRecoverableLength, getOverflowPatterns } from "./ai/overflow.js";
export {
  DEFAULT_MAX_AGENT_RETRY_DELAY_MS,
  isRetryableAssistantError,
  retryAssistantCall,
  retryDelayMs,
} from "./ai/retry.js";
export {
  repairJson,
  parseJsonWithRepair,
  parseToolCallArguments,
  parseStreamingJson,
  StreamingJsonParser,
  ToolCallArgumentsStream,
} from "./ai/json.js";
export { EventStream, AssistantMessageEventStream, createAssistantMessageEventStream } from "./ai/event-stream.js";
export {
  createInitialSystemMessage,
  normalizeContext,
  getInitialSystemMessage,
  withoutInitialSystemMessage,
} from "./ai/transcript.js";
export {
  formatThrownValue,
  extractDiagnosticError,
  createAssistantMessageDiagnostic,
  appendAssistantMessageDiagnostic,
} from "./ai/diagnostics.js";
export {
  toToolDeclaration,
  declarationsEqual,
  getToolStateChanges,
  getDeclaredTools,
  hasToolRedefinitions,
  hasNonAdditiveToolChanges,
} from "./ai/tool-declarations.js";
export {
  ANTHROPIC_AUTH_TOKEN_ENV,
  ANTHROPIC_OAUTH_TOKEN_ENV,
  ANTHROPIC_API_KEY_ENV,
  ANTHROPIC_FEDERATION_RULE_ID_ENV,
  ANTHROPIC_ORGANIZATION_ID_ENV,
  ANTHROPIC_SERVICE_ACCOUNT_ID_ENV,
  ANTHROPIC_IDENTITY_TOKEN_FILE_ENV,
  ANTHROPIC_WORKSPACE_ID_ENV,
  findEnvKeys,
  getEnvApiKey,
} from "./ai/env-api-keys.js";
export {
  PI_AI_VERSION,
  PI_ATTRIBUTION,
  mergeClientIdentity,
  getClientVersion,
  formatUserAgent,
  getAttributionHeaders,
  getOpenCodeSessionHeaders,
  getIdentityHeaders,
  withClientIdentity,
} from "./ai/identity.js";
export {
  CACHE_WARMING_MAX_AGE_MS,
  CACHE_WARMING_MAX_IDLE_AGE_MS,
  CACHE_WARMING_MINIMUM_EXPECTED_SAVINGS,
  CACHE_WARMING_IDLE_CONTINUATION_PROBABILITY,
  getCacheWarmingDelayMs,
  getPromptCacheTtlMs,
  isCacheWarmingReplayable,
  getCacheWarmingRequestOptions,
  evaluateCacheWarming,
} from "./ai/cache-warming.js";
export { fauxText, fauxThinking, fauxToolCall, fauxAssistantMessage } from "./ai/faux-messages.js";
export { createFauxCore, fauxProvider, registerFauxProvider } from "./ai/faux-provider.js";
export { createModels, createProvider } from "./ai/models-collection.js";
export { ModelsError } from "./ai/models-error.js";
export { AI_TELEMETRY_SCHEMA } from "./ai/telemetry.js";
export { InMemoryCredentialStore, InMemoryModelsStore } from "./ai/stores.js";
export { defaultProviderAuthContext, envApiKeyAuth, lazyOAuth } from "./ai/provider-auth.js";
export { lazyApi, lazyStream } from "./ai/lazy-stream.js";
export { registerSessionResourceCleanup, cleanupSessionResources } from "./ai/session-resources.js";
export { registerImagesApiProvider, getImagesApiProvider, generateImages } from "./ai/images-registry.js";
export {
  anthropicMessagesApi,
  streamAnthropic,
  streamSimpleAnthropic,
  openAICompletionsApi,
  streamOpenAICompletions,
  streamSimpleOpenAICompletions,
  openAIResponsesApi,
  streamOpenAIResponses,
  streamSimpleOpenAIResponses,
  openAICodexResponsesApi,
  streamOpenAICodexResponses,
  streamSimpleOpenAICodexResponses,
  azureOpenAIResponsesApi,
  streamAzureOpenAIResponses,
  streamSimpleAzureOpenAIResponses,
  googleGenerativeAIApi,
  streamGoogle,
  streamSimpleGoogle,
  googleVertexApi,
  streamGoogleVertex,
  streamSimpleGoogleVertex,
  mistralConversationsApi,
  streamMistral,
  streamSimpleMistral,
  piMessagesApi,
  bedrockConverseStreamApi,
  setBedrockProviderLoader,
  setBedrockProviderModule,
  registerBuiltInApiProviders,
  generateImagesOpenRouter,
  registerBuiltInImagesApiProviders,
} from "./ai/builtin-apis.js";
export {
  registerApiProvider,
  getApiProvider,
  getApiProviders,
  unregisterApiProviders,
  resetApiProviders,
  stream,
  streamSimple,
  complete,
  completeSimple,
} from "./ai/dispatch.js";

export {
  getCurrentTools,
  getCurrentSystemMessage,
  getCurrentSystemPrompt,
  collapseSystemMessages,
} from "./ai/system-messages.js";
export { resolveTranscript, resolveTranscriptTools } from "./ai/transcript-tools.js";
