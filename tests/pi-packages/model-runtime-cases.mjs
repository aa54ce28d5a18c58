// Cases of pi-coding-agent's ModelRuntime for the pi package case table
// (pi-packages-cases.mjs), shaped after what extensions that run sub-agents
// do with one (pi-subagents: `ModelRuntime.create()` shared by child
// sessions, providers their extensions register as objects, requests on
// those providers' models). Each case works in a fresh temp directory with
// PI_CODING_AGENT_DIR inside it and PI_OFFLINE set, so pi's runtime finds
// no credentials, no models.json and no network. What the host decides in
// pihost (which built-in providers are configured, their credentials) is
// left out: pi reads it from the user's files, pihost asks the host.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fingerprint } from "./pi-packages-cases.mjs";

const NATIVE_API = "pihost-runtime-faux";
const NATIVE_PROVIDER = "runtime-native";
const ONE_CHUNK = { min: 1_000_000, max: 1_000_000 };

async function inAgentDir(run) {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pihost-runtime-")));
  const saved = { agentDir: process.env.PI_CODING_AGENT_DIR, offline: process.env.PI_OFFLINE };
  process.env.PI_CODING_AGENT_DIR = path.join(tmp, "agent");
  process.env.PI_OFFLINE = "1";
  try {
    return await run(tmp);
  } finally {
    for (const [name, value] of [
      ["PI_CODING_AGENT_DIR", saved.agentDir],
      ["PI_OFFLINE", saved.offline],
    ]) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

const modelKey = (model) => `${model.provider}/${model.id}`;
const listed = (models) => ({ count: models.length, fingerprint: fingerprint(models.map(modelKey).join("\n")) });

/** A provider object with its own auth and stream, answered by pi-ai's faux provider. */
function nativeProvider(ai, { key }) {
  const faux = ai.registerFauxProvider({
    api: NATIVE_API,
    provider: NATIVE_PROVIDER,
    models: [
      { id: "native-1", reasoning: false },
      { id: "native-2", reasoning: true },
    ],
    tokenSize: ONE_CHUNK,
  });
  const seen = [];
  const provider = ai.createProvider({
    id: NATIVE_PROVIDER,
    name: "Runtime Native",
    auth: {
      apiKey: {
        name: "Native key",
        resolve: async () => (key ? { auth: { apiKey: key }, source: "test" } : undefined),
      },
    },
    models: faux.models,
    api: {
      stream: (model, context, options) => {
        seen.push({ kind: "stream", apiKey: options?.apiKey });
        return ai.stream(model, context, options);
      },
      streamSimple: (model, context, options) => {
        seen.push({ kind: "streamSimple", apiKey: options?.apiKey });
        return ai.streamSimple(model, context, options);
      },
    },
  });
  return { faux, provider, seen };
}

const question = { messages: [{ role: "user", content: "hello", timestamp: 0 }] };

export function addModelRuntimeCases(add, { ai, agent }) {
  add("modelRuntime.create", () =>
    inAgentDir(async (tmp) => {
      const runtime = await agent.ModelRuntime.create({
        authPath: path.join(tmp, "agent", "auth.json"),
        modelsPath: path.join(tmp, "agent", "models.json"),
      });
      const anthropic = runtime.getModels("anthropic");
      const first = anthropic[0];
      return {
        isRuntime: runtime instanceof agent.ModelRuntime,
        models: listed(runtime.getModels()),
        allModels: listed(runtime.getAllModels()),
        images: listed(runtime.getModelsOfType("image")),
        anthropic: listed(anthropic),
        found: runtime.getModel("anthropic", first.id),
        physical: runtime.getPhysicalModel("anthropic", first.id) === runtime.getModel("anthropic", first.id),
        missingModel: runtime.getModel("anthropic", "no-such-model") ?? null,
        missingProvider: runtime.getProvider("no-such-provider") ?? null,
        unknownProviderModels: runtime.getModels("no-such-provider"),
        registered: runtime.getRegisteredProviderIds(),
        error: runtime.getError() ?? null,
        providers: runtime.getProviders().map((provider) => ({
          id: provider.id,
          name: provider.name,
          baseUrl: provider.baseUrl ?? null,
          headers: provider.headers ?? null,
          models: provider.getModels().length,
        })),
        anthropicProvider: runtime.getProvider("anthropic")?.name,
      };
    }),
  );

  add("modelRuntime.nativeProvider", () =>
    inAgentDir(async () => {
      const runtime = await agent.ModelRuntime.create({ refreshOnCreate: false });
      const { faux, provider, seen } = nativeProvider(ai, { key: "native-key" });
      try {
        faux.setResponses([ai.fauxAssistantMessage("native answer"), ai.fauxAssistantMessage("streamed answer")]);
        runtime.registerNativeProvider(provider);
        const refreshed = await runtime.refresh({ allowNetwork: false });
        const model = runtime.getModel(NATIVE_PROVIDER, "native-1");
        const answer = await runtime.completeSimple(model, question);
        const events = [];
        for await (const event of runtime.streamSimple(model, question)) events.push(event.type);
        const all = runtime.getModels();
        const results = {
          registered: runtime.getRegisteredProviderIds(),
          sameProvider: runtime.getProvider(NATIVE_PROVIDER) === provider,
          registeredProvider: runtime.getRegisteredNativeProvider(NATIVE_PROVIDER) === provider,
          models: runtime.getModels(NATIVE_PROVIDER).map(modelKey),
          last: all.slice(-2).map(modelKey),
          listedLast: runtime.getProviders().at(-1) === provider,
          refreshed: { aborted: refreshed.aborted, errors: [...refreshed.errors.keys()] },
          configured: runtime.hasConfiguredAuth(NATIVE_PROVIDER),
          checked: await runtime.checkAuth(NATIVE_PROVIDER),
          auth: await runtime.getAuth(NATIVE_PROVIDER),
          available: (await runtime.getAvailable(NATIVE_PROVIDER)).map(modelKey),
          answer: { text: answer.content, stopReason: answer.stopReason, provider: answer.provider, model: answer.model },
          events,
          seen,
        };
        runtime.unregisterProvider(NATIVE_PROVIDER);
        results.afterUnregister = {
          registered: runtime.getRegisteredProviderIds(),
          models: runtime.getModels(NATIVE_PROVIDER),
          provider: runtime.getProvider(NATIVE_PROVIDER) ?? null,
          total: runtime.getModels().length === all.length - 2,
        };
        return results;
      } finally {
        faux.unregister();
      }
    }),
  );

  add("modelRuntime.nativeProviderWithoutKey", () =>
    inAgentDir(async () => {
      const runtime = await agent.ModelRuntime.create({ refreshOnCreate: false });
      const { faux, provider } = nativeProvider(ai, { key: undefined });
      try {
        runtime.registerNativeProvider(provider);
        await runtime.refresh({ allowNetwork: false });
        const model = runtime.getModel(NATIVE_PROVIDER, "native-2");
        const answer = await runtime.completeSimple(model, question);
        let emptyId;
        try {
          runtime.registerNativeProvider({ ...provider, id: "  " });
        } catch (error) {
          emptyId = error.message;
        }
        return {
          configured: runtime.hasConfiguredAuth(NATIVE_PROVIDER),
          checked: (await runtime.checkAuth(NATIVE_PROVIDER)) ?? null,
          available: (await runtime.getAvailable(NATIVE_PROVIDER)).map(modelKey),
          snapshot: runtime.getAvailableSnapshot().filter((entry) => entry.provider === NATIVE_PROVIDER).map(modelKey),
          answer: { stopReason: answer.stopReason, errorMessage: answer.errorMessage },
          emptyId,
        };
      } finally {
        faux.unregister();
      }
    }),
  );

  add("modelRuntime.servicesMakeOne", () =>
    inAgentDir(async (tmp) => {
      const cwd = path.join(tmp, "project");
      fs.mkdirSync(cwd, { recursive: true });
      const services = await agent.createAgentSessionServices({
        cwd,
        agentDir: path.join(tmp, "agent"),
        resourceLoaderOptions: { noExtensions: true, noSkills: true, noPromptTemplates: true, noThemes: true, noContextFiles: true },
      });
      return {
        isRuntime: services.modelRuntime instanceof agent.ModelRuntime,
        models: services.modelRuntime.getModels().length === (await agent.ModelRuntime.create({ refreshOnCreate: false })).getModels().length,
        diagnostics: services.diagnostics,
      };
    }),
  );
}
