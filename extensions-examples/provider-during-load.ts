/**
 * provider-during-load.ts — provider registrations made while loading.
 *
 * Demonstrates: registerProvider(name, config) during load is queued (not
 * applied) until the host binds; a provider registered and then unregistered
 * during the same load is filtered out of the queue; the object form
 * registerProvider(provider) goes to the separate native-provider queue and is
 * listed by its `id`. Expected queue after loading: "example-proxy" (by name),
 * then "example-native" (native), both owned by this extension's path.
 *
 * Checklist: A6 (provider changes queued while loading, applied at commit),
 * A7 (pending registrations; unregister during loading filters the queue).
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

function freeModel(id: string, name: string, contextWindow: number) {
  return {
    id,
    name,
    reasoning: false,
    input: ["text"] as ("text" | "image")[],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow,
    maxTokens: 4096,
  };
}

export default function providerDuringLoad(pi: ExtensionAPI) {
  pi.registerProvider("example-proxy", {
    name: "Example Proxy",
    baseUrl: "https://proxy.example.invalid/v1",
    apiKey: "$EXAMPLE_PROXY_API_KEY",
    api: "openai-completions",
    models: [freeModel("example-small", "Example Small", 32000), freeModel("example-large", "Example Large", 128000)],
  });

  pi.registerProvider("example-temporary", {
    baseUrl: "https://temporary.example.invalid/v1",
    apiKey: "${EXAMPLE_TEMPORARY_KEY}",
    api: "anthropic-messages",
    models: [freeModel("temporary-model", "Temporary", 8000)],
  });
  pi.unregisterProvider("example-temporary");

  // Object form: a provider object with an id. Only queued here; the host
  // validates it when it binds, which this example never reaches.
  const nativeProvider = {
    id: "example-native",
    name: "Example Native",
    baseUrl: "https://native.example.invalid/v1",
    models: [],
  };
  pi.registerProvider(nativeProvider as unknown as Parameters<ExtensionAPI["registerProvider"]>[0]);
}
