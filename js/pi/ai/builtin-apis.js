// pi-ai's built-in model apis that talk HTTP themselves (over the isolate's
// fetch, which the sandbox checks). Each api's implementation is a module
// of its own, loaded on the first request; until something opts in, by
// calling a stream function below or registerBuiltInApiProviders(), model
// calls keep going to the host (dispatch.js).
import { getApiProvider, registerApiProvider } from "./dispatch.js";
import { lazyApi } from "./lazy-stream.js";

const loaders = {
  "anthropic-messages": () => import("./apis/anthropic-messages.js"),
  "openai-completions": () => import("./apis/openai-completions.js"),
  "openai-responses": () => import("./apis/openai-responses.js"),
  "azure-openai-responses": () => import("./apis/azure-openai-responses.js"),
  "google-generative-ai": () => import("./apis/google-generative-ai.js"),
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
export const azureOpenAIResponsesApi = builtinApi("azure-openai-responses");
export const googleGenerativeAIApi = builtinApi("google-generative-ai");
export const mistralConversationsApi = builtinApi("mistral-conversations");
export const piMessagesApi = builtinApi("pi-messages");

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
const azureOpenAIResponses = legacyStreams(azureOpenAIResponsesApi);
export const streamAzureOpenAIResponses = azureOpenAIResponses.stream;
export const streamSimpleAzureOpenAIResponses = azureOpenAIResponses.streamSimple;
const google = legacyStreams(googleGenerativeAIApi);
export const streamGoogle = google.stream;
export const streamSimpleGoogle = google.streamSimple;
const mistral = legacyStreams(mistralConversationsApi);
export const streamMistral = mistral.stream;
export const streamSimpleMistral = mistral.streamSimple;

/**
 * Registers the built-in apis pihost implements, leaving apis that already
 * have a provider (a test's or an extension's override) alone.
 */
export function registerBuiltInApiProviders() {
  for (const api of Object.keys(loaders)) {
    if (getApiProvider(api)) continue;
    const streams = builtinApi(api)();
    registerApiProvider({ api, stream: streams.stream, streamSimple: streams.streamSimple });
  }
}
