// pi-ai's built-in model apis that talk HTTP themselves (over the isolate's
// fetch, which the sandbox checks). Each api's implementation is a module
// of its own, loaded on the first request; until something opts in, by
// calling a stream function below or registerBuiltInApiProviders(), model
// calls keep going to the host (dispatch.js).
import { getApiProvider, registerApiProvider } from "./dispatch.js";
import { registerImagesApiProvider } from "./images-registry.js";
import { lazyApi } from "./lazy-stream.js";

const loaders = {
  "anthropic-messages": () => import("./apis/anthropic-messages.js"),
  "openai-completions": () => import("./apis/openai-completions.js"),
  "openai-responses": () => import("./apis/openai-responses.js"),
  "openai-codex-responses": () => import("./apis/openai-codex-responses.js"),
  "azure-openai-responses": () => import("./apis/azure-openai-responses.js"),
  "google-generative-ai": () => import("./apis/google-generative-ai.js"),
  "google-vertex": () => import("./apis/google-vertex.js"),
  "mistral-conversations": () => import("./apis/mistral-conversations.js"),
  "pi-messages": () => import("./apis/pi-messages.js"),
};

/** An api's stream functions over its module, loaded when first used. */
function builtinApi(api) {
  return () => lazyApi(loaders[api]);
}

export const anthropicMessagesApi = builtinApi("anthropic-messages");
export const openAICompletionsApi = builtinApi("openai-completions");
export const openAIResponsesApi = builtinApi("openai-responses");
export const openAICodexResponsesApi = builtinApi("openai-codex-responses");
export const azureOpenAIResponsesApi = builtinApi("azure-openai-responses");
export const googleGenerativeAIApi = builtinApi("google-generative-ai");
export const googleVertexApi = builtinApi("google-vertex");
export const mistralConversationsApi = builtinApi("mistral-conversations");
export const piMessagesApi = builtinApi("pi-messages");

// Bedrock (AWS SigV4 and its binary event stream) has no implementation in
// pihost; one set here (as pi's bundles set theirs) is used as in pi.
let bedrockModuleLoader;

/** Uses `module` (with stream and streamSimple) as the bedrock-converse-stream implementation. */
export function setBedrockProviderModule(module) {
  bedrockModuleLoader = async () => module;
}

/** Loads the bedrock-converse-stream implementation with `load`, on the first bedrock request. */
export function setBedrockProviderLoader(load) {
  bedrockModuleLoader = load;
}

export const bedrockConverseStreamApi = () =>
  lazyApi(async () => {
    if (!bedrockModuleLoader) throw new Error(notBuiltReason("bedrock-converse-stream"));
    return await bedrockModuleLoader();
  });

/** pi's legacy stream functions of one api, sharing one api object made on first use. */
function legacyStreams(makeApi) {
  let api;
  return {
    stream: (model, context, options) => (api ??= makeApi()).stream(model, context, options),
    streamSimple: (model, context, options) => (api ??= makeApi()).streamSimple(model, context, options),
  };
}

const anthropic = legacyStreams(anthropicMessagesApi);
export const streamAnthropic = anthropic.stream;
export const streamSimpleAnthropic = anthropic.streamSimple;
const openAICompletions = legacyStreams(openAICompletionsApi);
export const streamOpenAICompletions = openAICompletions.stream;
export const streamSimpleOpenAICompletions = openAICompletions.streamSimple;
const openAIResponses = legacyStreams(openAIResponsesApi);
export const streamOpenAIResponses = openAIResponses.stream;
export const streamSimpleOpenAIResponses = openAIResponses.streamSimple;
const openAICodexResponses = legacyStreams(openAICodexResponsesApi);
export const streamOpenAICodexResponses = openAICodexResponses.stream;
export const streamSimpleOpenAICodexResponses = openAICodexResponses.streamSimple;
const azureOpenAIResponses = legacyStreams(azureOpenAIResponsesApi);
export const streamAzureOpenAIResponses = azureOpenAIResponses.stream;
export const streamSimpleAzureOpenAIResponses = azureOpenAIResponses.streamSimple;
const google = legacyStreams(googleGenerativeAIApi);
export const streamGoogle = google.stream;
export const streamSimpleGoogle = google.streamSimple;
const googleVertex = legacyStreams(googleVertexApi);
export const streamGoogleVertex = googleVertex.stream;
export const streamSimpleGoogleVertex = googleVertex.streamSimple;
const mistral = legacyStreams(mistralConversationsApi);
export const streamMistral = mistral.stream;
export const streamSimpleMistral = mistral.streamSimple;

// pi's built-in apis in its registration order. Those pihost does not
// speak yet are registered too, so a model on one fails with a reason
// instead of quietly going to the host.
const BUILTIN_ORDER = [
  "anthropic-messages",
  "openai-completions",
  "openai-responses",
  "openai-codex-responses",
  "azure-openai-responses",
  "google-generative-ai",
  "google-vertex",
  "mistral-conversations",
  "bedrock-converse-stream",
  "pi-messages",
];

function notBuiltReason(api) {
  return `pihost: pi-ai's ${api} api has no direct HTTP implementation yet`;
}

function notBuiltApi(api) {
  return lazyApi(() => Promise.reject(new Error(notBuiltReason(api))));
}

/**
 * Registers pi's built-in apis, leaving apis that already have a provider
 * (a test's or an extension's override) alone. Model calls on them then go
 * over HTTP from the isolate instead of to the host.
 */
export function registerBuiltInApiProviders() {
  for (const api of BUILTIN_ORDER) {
    if (getApiProvider(api)) continue;
    let streams;
    if (loaders[api]) streams = builtinApi(api)();
    else if (api === "bedrock-converse-stream") streams = bedrockConverseStreamApi();
    else streams = notBuiltApi(api);
    registerApiProvider({ api, stream: streams.stream, streamSimple: streams.streamSimple });
  }
}

// pi's classifier apis (System One, its Cloudflare envelope, OpenAI's
// Decisions), loaded on the first classification.
function classifierApi(name) {
  return () => ({
    classify: async (model, context, options) => (await import("./apis/classifiers.js"))[name](model, context, options),
  });
}

export const openAIDecisionsApi = classifierApi("classifyOpenAIDecisions");
export const typesafeSystemOneApi = classifierApi("classifyTypesafeSystemOne");
export const cloudflareWorkersAISystemOneApi = classifierApi("classifyCloudflareSystemOne");

/** OpenRouter's image api as a provider holds it, its module loaded on the first generation. */
export const openrouterImagesApi = () => ({
  generateImages: async (model, context, options) => (await import("./apis/openrouter-images.js")).generateImages(model, context, options),
});

let openRouterImages;

/** Images from OpenRouter; a module that fails to load is reported in the result, as pi does. */
export async function generateImagesOpenRouter(model, context, options) {
  try {
    openRouterImages ??= import("./apis/openrouter-images.js");
    return await (await openRouterImages).generateImages(model, context, options);
  } catch (error) {
    return {
      api: model.api,
      provider: model.provider,
      model: model.id,
      output: [],
      stopReason: "error",
      errorMessage: error instanceof Error ? error.message : String(error),
      timestamp: Date.now(),
    };
  }
}

export function registerBuiltInImagesApiProviders() {
  registerImagesApiProvider({ api: "openrouter-images", generateImages: generateImagesOpenRouter });
}
