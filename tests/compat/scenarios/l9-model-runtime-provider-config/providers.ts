// Providers an extension registers on a ModelRuntime from a config, as
// extensions that bring an OpenAI-compatible endpoint or a proxy do
// (`registerProvider(id, { baseUrl, apiKey, api, models, headers, ... })`):
// the models pi makes of the config, how the API key and headers resolve (a
// literal, a `$VAR` template, a `!command`, `authHeader`), what the
// provider's own streamSimple receives, re-registration, an overlay of a
// built-in provider, pi's refusals, and a child session on such a model.
import { createAssistantMessageEventStream } from "@earendil-works/pi-ai";
import * as piCodingAgent from "@earendil-works/pi-coding-agent";

function describeError(error: any) {
  return error instanceof Error ? error.message : String(error);
}

const seen: any[] = [];

function answer(model: any, context: any, options: any) {
  seen.push({
    model: `${model.provider}/${model.id}`,
    baseUrl: model.baseUrl,
    apiKey: options?.apiKey,
    headers: options?.headers,
    messages: context.messages.map((message: any) => message.role),
  });
  const stream = createAssistantMessageEventStream();
  const message = {
    role: "assistant",
    content: [{ type: "text", text: `answer from ${model.id}` }],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason: "stop",
    timestamp: 1,
  };
  queueMicrotask(() => {
    stream.push({ type: "start", partial: message });
    stream.push({ type: "done", reason: "stop", message });
    stream.end(message);
  });
  return stream;
}

const shape = (model: any) =>
  model && { id: model.id, name: model.name, api: model.api, provider: model.provider, baseUrl: model.baseUrl, contextWindow: model.contextWindow, maxTokens: model.maxTokens, reasoning: model.reasoning, input: model.input };

export default function (pi: any) {
  pi.registerTool({
    name: "providers",
    label: "Providers",
    description: "Registers providers from configs",
    parameters: { type: "object", properties: { part: { type: "string" } }, required: ["part"] },
    async execute(_id: string, params: { part: string }) {
      process.env.PIHOST_SCENARIO_KEY = "key-from-env";
      process.env.PIHOST_SCENARIO_TEAM = "team-7";
      const runtime = await piCodingAgent.ModelRuntime.create();
      const details: any = {};
      const complete = async (providerId: string, modelId: string) => {
        const model = runtime.getModel(providerId, modelId);
        if (!model) return { missing: `${providerId}/${modelId}` };
        const result = await runtime.completeSimple(model, { messages: [{ role: "user", content: "hello", timestamp: 1 }] });
        return { stopReason: result.stopReason, text: result.content?.map((block: any) => block.text).join(""), errorMessage: result.errorMessage };
      };
      if (params.part === "configs") {
        runtime.registerProvider("cfg-literal", {
          name: "Literal",
          baseUrl: "https://literal.example/v1",
          apiKey: "literal-key",
          api: "cfg-api",
          streamSimple: answer,
          headers: { "X-Team": "$PIHOST_SCENARIO_TEAM", "X-Fixed": "fixed" },
          models: [
            { id: "small", name: "Small", reasoning: false, input: ["text"], cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 }, contextWindow: 8000, maxTokens: 1000 },
            { id: "own-url", name: "Own URL", baseUrl: "https://own.example", reasoning: true, input: ["text", "image"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 100000, maxTokens: 4000 },
          ],
        });
        runtime.registerProvider("cfg-env", {
          baseUrl: "https://env.example",
          apiKey: "$PIHOST_SCENARIO_KEY",
          authHeader: true,
          api: "cfg-api",
          streamSimple: answer,
          models: [{ id: "env-model", name: "Env", reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100 }],
        });
        runtime.registerProvider("cfg-command", {
          baseUrl: "https://command.example",
          apiKey: "!echo key-from-command",
          api: "cfg-api",
          streamSimple: answer,
          models: [{ id: "cmd-model", name: "Command", reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100 }],
        });
        runtime.registerProvider("cfg-unset", {
          baseUrl: "https://unset.example",
          apiKey: "$PIHOST_SCENARIO_NOT_SET",
          api: "cfg-api",
          streamSimple: answer,
          models: [{ id: "unset-model", name: "Unset", reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100 }],
        });
        runtime.registerProvider("cfg-keyless", {
          baseUrl: "https://keyless.example",
          api: "cfg-api",
          streamSimple: answer,
          models: [{ id: "keyless-model", name: "Keyless", reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100 }],
        });
        details.models = ["cfg-literal", "cfg-env", "cfg-command", "cfg-unset", "cfg-keyless"].map((id) => runtime.getModels(id).map(shape));
        details.configured = ["cfg-literal", "cfg-env", "cfg-command", "cfg-unset", "cfg-keyless"].map((id) => runtime.hasConfiguredAuth(id));
        details.registered = runtime.getRegisteredProviderIds();
        details.config = Object.keys(runtime.getRegisteredProviderConfig("cfg-literal") ?? {}).sort();
        details.error = runtime.getError() ?? null;
        await runtime.refresh({ allowNetwork: false });
        details.configuredAfterRefresh = ["cfg-literal", "cfg-env", "cfg-command", "cfg-unset", "cfg-keyless"].map((id) => runtime.hasConfiguredAuth(id));
        details.answers = [
          await complete("cfg-literal", "small"),
          await complete("cfg-literal", "own-url"),
          await complete("cfg-env", "env-model"),
          await complete("cfg-command", "cmd-model"),
          await complete("cfg-unset", "unset-model"),
        ];
        // Re-registration keeps what it leaves undefined.
        runtime.registerProvider("cfg-literal", { headers: { "X-Second": "second" }, apiKey: undefined });
        details.afterReregister = { models: runtime.getModels("cfg-literal").map((model: any) => model.id), answer: await complete("cfg-literal", "small") };
        runtime.unregisterProvider("cfg-env");
        details.afterUnregister = { models: runtime.getModels("cfg-env").length, registered: runtime.getRegisteredProviderIds() };
      } else if (params.part === "refusals") {
        const attempts: any[] = [];
        const attempt = (label: string, id: string, config: any) => {
          try {
            runtime.registerProvider(id, config);
            attempts.push({ label, registered: runtime.getRegisteredProviderIds().includes(id), models: runtime.getModels(id).length });
          } catch (error) {
            attempts.push({ label, error: describeError(error) });
          }
        };
        attempt("no api", "bad-1", { baseUrl: "https://x.example", apiKey: "k", models: [{ id: "m" }] });
        attempt("no baseUrl", "bad-2", { apiKey: "k", api: "openai-completions", models: [{ id: "m" }] });
        attempt("streamSimple without api", "bad-3", { baseUrl: "https://x.example", apiKey: "k", streamSimple: answer, models: [{ id: "m", api: "x" }] });
        attempt("model api only", "ok-4", { baseUrl: "https://x.example", apiKey: "k", models: [{ id: "m", api: "openai-completions" }] });
        attempt("image model without api", "bad-5", { baseUrl: "https://x.example", apiKey: "k", models: [{ id: "img", type: "image" }] });
        details.attempts = attempts;
        details.registered = runtime.getRegisteredProviderIds();
        details.modelOk4 = shape(runtime.getModel("ok-4", "m"));
      } else if (params.part === "overlay") {
        const before = runtime.getModels("anthropic");
        runtime.registerProvider("anthropic", { baseUrl: "https://proxy.example/anthropic" });
        const after = runtime.getModels("anthropic");
        details.overlay = {
          sameCount: before.length === after.length && before.length > 0,
          baseUrls: [...new Set(after.map((model: any) => model.baseUrl))],
          registered: runtime.getRegisteredProviderIds(),
          configured: runtime.hasConfiguredAuth("anthropic"),
          config: runtime.getRegisteredProviderConfig("anthropic"),
        };
        runtime.unregisterProvider("anthropic");
        details.afterUnregister = [...new Set(runtime.getModels("anthropic").map((model: any) => model.baseUrl))].length === 1;
      } else if (params.part === "operations") {
        const calls: string[] = [];
        runtime.registerProvider("cfg-ops", {
          baseUrl: "https://ops.example",
          apiKey: "ops-key",
          api: "cfg-api",
          streamSimple: answer,
          models: [
            { id: "painter", name: "Painter", type: "image", api: "cfg-img", input: ["text"], output: ["image"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } },
            { id: "sketcher", name: "Sketcher", type: "image", api: "cfg-img-missing", input: ["text"], output: ["image"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } },
            { id: "judge", name: "Judge", type: "classifier", api: "cfg-cls", input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } },
          ],
          images: {
            "cfg-img": {
              generateImages: async (model: any, context: any, options: any) => {
                calls.push(`images ${model.id} ${JSON.stringify(context)} key=${options?.apiKey}`);
                return { api: model.api, provider: model.provider, model: model.id, output: [{ type: "image", data: "aGk=", mimeType: "image/png" }], stopReason: "stop", timestamp: 1 };
              },
            },
          },
          classifiers: {
            "cfg-cls": {
              classify: async (model: any, context: any, options: any) => {
                calls.push(`classify ${model.id} ${JSON.stringify(context)} key=${options?.apiKey}`);
                return { api: model.api, provider: model.provider, model: model.id, answers: { spam: false }, stopReason: "stop", timestamp: 1 };
              },
            },
          },
        });
        const strip = (result: any) => result && { ...result, timestamp: typeof result.timestamp };
        const models = runtime.getAllModels("cfg-ops").map((model: any) => `${model.id}:${model.type ?? "chat"}:${model.api}`);
        const painted = await runtime.generateImages(runtime.getModelOfType("image", "cfg-ops", "painter"), { prompt: "a cat" });
        const sketched = await runtime.generateImages(runtime.getModelOfType("image", "cfg-ops", "sketcher"), { prompt: "a dog" });
        const judged = await runtime.classify(runtime.getModelOfType("classifier", "cfg-ops", "judge"), { text: "buy now", questions: { spam: "Is it spam?" } });
        details.operations = { models, painted: strip(painted), sketched: strip(sketched), judged: strip(judged), calls };
      } else if (params.part === "session") {
        runtime.registerProvider("cfg-session", {
          baseUrl: "https://session.example",
          apiKey: "session-key",
          api: "cfg-api",
          streamSimple: answer,
          models: [{ id: "chat", name: "Chat", reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 100000, maxTokens: 1000 }],
        });
        const cwd = "/";
        const settingsManager = piCodingAgent.SettingsManager.inMemory();
        const loader = new piCodingAgent.DefaultResourceLoader({
          cwd,
          agentDir: piCodingAgent.getAgentDir(),
          settingsManager,
          noExtensions: true,
          noSkills: true,
          noPromptTemplates: true,
          noThemes: true,
          noContextFiles: true,
          systemPrompt: "You are a child.",
        });
        await loader.reload();
        const resolved = piCodingAgent.resolveCliModel({ cliModel: "cfg-session/chat", modelRuntime: runtime });
        if (resolved.error) throw new Error(resolved.error);
        const { session } = await piCodingAgent.createAgentSession({
          cwd,
          modelRuntime: runtime,
          model: resolved.model,
          tools: [],
          resourceLoader: loader,
          sessionManager: piCodingAgent.SessionManager.inMemory(cwd),
          settingsManager,
        });
        try {
          await session.prompt("hi there");
          const last = session.messages.at(-1);
          details.session = { model: `${session.model?.provider}/${session.model?.id}`, last: { role: last?.role, text: last?.content?.map((block: any) => block.text).join(""), stopReason: last?.stopReason } };
        } finally {
          session.dispose();
        }
      }
      details.seen = seen.splice(0);
      return { content: [{ type: "text", text: params.part }], details };
    },
  });
}
