// A model router as extensions that pick a model per request build one: a
// virtual model registered on a ModelRuntime (`registerVirtualModel`), whose
// `route` chooses a physical model and thinking level for each request and
// keeps state of its own, used as a child session's model and asked directly.
// What is compared: the catalog entry pi makes of the definition, the
// requests the router gets (reason, previous and failed responses, stored
// state), the models the child's responses name, `routedModel`, the state
// entries on the branch, and pi's refusals.
import { createProvider, fauxAssistantMessage, fauxToolCall, registerFauxProvider, stream, streamSimple } from "@earendil-works/pi-ai";
import * as piCodingAgent from "@earendil-works/pi-coding-agent";

const PROVIDER = "vm-faux";
const LOCKED = "vm-locked";

function describeError(error: any) {
  return error instanceof Error ? error.message : String(error);
}

function textOf(message: any) {
  if (!message) return undefined;
  if (typeof message.content === "string") return message.content;
  return message.content.map((block: any) => block.text ?? (block.type === "toolCall" ? `call ${block.name}` : block.type)).join("");
}

export default function (pi: any) {
  const faux = registerFauxProvider({
    api: "vm-faux-api",
    provider: PROVIDER,
    models: [
      { id: "fast-1", reasoning: false, maxTokens: 1000, contextWindow: 1_000_000 },
      { id: "deep-1", reasoning: true, maxTokens: 4000, contextWindow: 1_000_000 },
    ],
    tokenSize: { min: 1_000_000, max: 1_000_000 },
  });
  const locked = registerFauxProvider({ api: "vm-locked-api", provider: LOCKED, models: [{ id: "locked-1" }] });
  const requests: any[] = [];
  let routeTo: (request: any) => any = () => ({ model: faux.getModel("fast-1") });

  const makeRuntime = async () => {
    const runtime = await piCodingAgent.ModelRuntime.create();
    runtime.registerNativeProvider(
      createProvider({
        id: PROVIDER,
        name: "Router Faux",
        auth: { apiKey: { name: "Faux key", resolve: async () => ({ auth: { apiKey: "faux-key" }, source: "extension" }) } },
        models: faux.models,
        api: { stream, streamSimple },
      }),
    );
    runtime.registerNativeProvider(
      createProvider({
        id: LOCKED,
        name: "Locked",
        auth: { apiKey: { name: "Locked key", resolve: async () => undefined } },
        models: locked.models,
        api: { stream, streamSimple },
      }),
    );
    await runtime.refresh({ allowNetwork: false });
    // pi's availability passes race: a pass queued later discards an earlier
    // one's result, so an awaited refresh can return before the providers'
    // credentials are known. Wait until they are.
    for (let tries = 0; tries < 50 && !runtime.hasConfiguredAuth(PROVIDER); tries++) {
      await runtime.refresh({ allowNetwork: false });
    }
    return runtime;
  };

  const definition = {
    provider: "router",
    id: "auto",
    name: "Auto router",
    thinkingLevels: ["off", "low", "high"],
    contextWindow: 500_000,
    route: async (request: any) => {
      requests.push({
        reason: request.reason,
        model: `${request.model.provider}/${request.model.id}`,
        thinkingLevel: request.thinkingLevel,
        previous: request.previous && { model: request.previous.model.id, thinkingLevel: request.previous.thinkingLevel },
        failed: request.failed && { model: request.failed.model.id, stopReason: request.failed.message?.stopReason },
        state: request.state,
        messages: request.messages.map((message: any) => message.role),
        hasSignal: request.signal !== undefined,
      });
      return routeTo(request);
    },
  };

  pi.registerTool({
    name: "route",
    label: "Route",
    description: "Runs a child session on a virtual model",
    parameters: { type: "object", properties: { part: { type: "string" } }, required: ["part"] },
    async execute(_id: string, params: { part: string }) {
      const runtime = await makeRuntime();
      const details: any = {};
      if (params.part === "catalog") {
        runtime.registerVirtualModel(definition);
        details.entry = runtime.getModel("router", "auto");
        details.routerModels = runtime.getModels("router").map((model: any) => model.id);
        details.providers = runtime.getProviders().map((provider: any) => provider.id).filter((id: string) => id.startsWith("vm") || id === "router");
        details.configured = runtime.hasConfiguredAuth("router");
        details.inAll = runtime.getModels().some((model: any) => model.provider === "router" && model.id === "auto");
        details.physical = runtime.getPhysicalModel("router", "auto") ?? null;
        // A virtual model beside physical ones of the same provider.
        runtime.registerVirtualModel({ provider: PROVIDER, id: "mixed", name: "Mixed", route: async () => ({ model: faux.getModel("fast-1") }) });
        details.mixedModels = runtime.getModels(PROVIDER).map((model: any) => `${model.id}:${model.api}`);
        details.refusals = [];
        for (const bad of [
          { provider: PROVIDER, id: "fast-1", name: "Clash", route: async () => ({}) },
          { provider: " ", id: "x", name: "Blank", route: async () => ({}) },
          { provider: "router", id: "", name: "Blank", route: async () => ({}) },
        ]) {
          try {
            runtime.registerVirtualModel(bad);
            details.refusals.push("accepted");
          } catch (error) {
            details.refusals.push(describeError(error));
          }
        }
        runtime.registerVirtualModel({ ...definition, name: "Auto router, again", thinkingLevels: undefined, input: ["text"] });
        details.replaced = runtime.getModel("router", "auto");
        runtime.unregisterVirtualModel(PROVIDER, "mixed");
        runtime.unregisterVirtualModel(PROVIDER, "mixed");
        runtime.unregisterVirtualModel("router", "auto");
        details.afterUnregister = runtime.getModel("router", "auto") ?? null;
        details.routerModelsAfter = runtime.getModels("router").length;
      } else if (params.part === "resolve") {
        runtime.registerVirtualModel(definition);
        const auto = runtime.getModel("router", "auto");
        const outcomes: any[] = [];
        const attempt = async (label: string, route: (request: any) => any, messages: any[] = [], options: any = {}) => {
          routeTo = route;
          try {
            const result = await runtime.resolveModel(auto, messages, { reason: "direct", thinkingLevel: "high", ...options });
            outcomes.push({ label, model: `${result.model.provider}/${result.model.id}`, thinkingLevel: result.thinkingLevel, state: result.state });
          } catch (error) {
            outcomes.push({ label, error: describeError(error) });
          }
        };
        await attempt("deep", () => ({ model: faux.getModel("deep-1"), thinkingLevel: "high", state: { n: 1 } }));
        await attempt("clamped", () => ({ model: faux.getModel("fast-1"), thinkingLevel: "high" }));
        await attempt("no level", () => ({ model: faux.getModel("deep-1") }));
        await attempt("to itself", () => ({ model: auto }));
        await attempt("unknown", () => ({ model: { provider: PROVIDER, id: "nope" } }));
        await attempt("locked", () => ({ model: locked.getModel("locked-1") }));
        await attempt("throws", () => {
          throw new Error("router is down");
        });
        const previous = { role: "assistant", content: [{ type: "text", text: "earlier" }], provider: PROVIDER, model: "deep-1", thinkingLevel: "low", stopReason: "stop", api: "vm-faux-api", usage: {}, timestamp: 1 };
        const failedOne = { ...previous, model: "fast-1", stopReason: "error", thinkingLevel: "off" };
        await attempt("previous", () => ({ model: faux.getModel("fast-1") }), [{ role: "user", content: "hi", timestamp: 1 }, previous, { role: "user", content: "again", timestamp: 2 }], {
          failed: failedOne,
          state: { kept: true },
        });
        try {
          await runtime.resolveModel({ ...auto, id: "gone" }, [], { reason: "direct", thinkingLevel: "off" });
        } catch (error) {
          outcomes.push({ label: "unregistered", error: describeError(error) });
        }
        // Asked directly: completeSimple routes; complete (stream) does not.
        routeTo = (request: any) => ({ model: faux.getModel("deep-1"), thinkingLevel: request.thinkingLevel });
        faux.setResponses([fauxAssistantMessage("routed directly")]);
        const direct = await runtime.completeSimple(auto, { messages: [{ role: "user", content: "direct", timestamp: 3 }] }, { reasoning: "low", maxTokens: 9000 });
        outcomes.push({ label: "completeSimple", text: textOf(direct), model: `${direct.provider}/${direct.model}`, stopReason: direct.stopReason });
        const unrouted = await runtime.complete(auto, { messages: [{ role: "user", content: "raw", timestamp: 4 }] });
        outcomes.push({ label: "complete", stopReason: unrouted.stopReason, errorMessage: unrouted.errorMessage, model: `${unrouted.provider}/${unrouted.model}` });
        details.outcomes = outcomes;
      } else if (params.part === "session") {
        runtime.registerVirtualModel(definition);
        const auto = runtime.getModel("router", "auto");
        routeTo = (request: any) =>
          request.reason === "user"
            ? { model: faux.getModel("deep-1"), thinkingLevel: request.thinkingLevel, state: { turns: (request.state?.turns ?? 0) + 1 } }
            : { model: faux.getModel("fast-1"), thinkingLevel: "off", state: request.state };
        faux.setResponses([
          fauxAssistantMessage([fauxToolCall("lookup", { key: "a" }, { id: "call-1" })], { stopReason: "toolUse" }),
          fauxAssistantMessage("first answer"),
          fauxAssistantMessage("second answer"),
        ]);
        const cwd = "/";
        const settingsManager = piCodingAgent.SettingsManager.inMemory();
        const lookup = (child: any) => {
          child.registerTool({
            name: "lookup",
            label: "Lookup",
            description: "Looks a key up",
            parameters: { type: "object", properties: { key: { type: "string" } } },
            async execute(_toolId: string, args: any) {
              return { content: [{ type: "text", text: `value of ${args.key}` }], details: {} };
            },
          });
        };
        const loader = new piCodingAgent.DefaultResourceLoader({
          cwd,
          agentDir: piCodingAgent.getAgentDir(),
          settingsManager,
          noExtensions: true,
          noSkills: true,
          noPromptTemplates: true,
          noThemes: true,
          noContextFiles: true,
          systemPrompt: "You are a routed child.",
          extensionFactories: [{ name: "router-tools", factory: lookup }],
        });
        await loader.reload();
        const { session } = await piCodingAgent.createAgentSession({
          cwd,
          modelRuntime: runtime,
          model: auto,
          thinkingLevel: "low",
          tools: ["lookup"],
          resourceLoader: loader,
          sessionManager: piCodingAgent.SessionManager.inMemory(cwd),
          settingsManager,
        });
        await session.bindExtensions({ mode: "print" });
        try {
          details.routedBefore = session.routedModel ?? null;
          await session.prompt("look it up");
          details.afterFirst = {
            model: `${session.model?.provider}/${session.model?.id}`,
            routed: session.routedModel && { model: session.routedModel.model.id, thinkingLevel: session.routedModel.thinkingLevel },
          };
          await session.prompt("and again");
          details.messages = session.messages.map((message: any) => ({
            role: message.role,
            text: textOf(message),
            ...(message.role === "assistant" ? { model: `${message.provider}/${message.model}`, thinkingLevel: message.thinkingLevel, stopReason: message.stopReason } : {}),
          }));
          details.entries = session.sessionManager
            .getEntries()
            .filter((entry: any) => entry.type !== "message")
            .map((entry: any) =>
              entry.type === "custom"
                ? { type: entry.type, customType: entry.customType, data: entry.data }
                : entry.type === "model_change"
                  ? { type: entry.type, provider: entry.provider, modelId: entry.modelId }
                  : { type: entry.type },
            );
          details.routedAfter = session.routedModel && { model: session.routedModel.model.id, thinkingLevel: session.routedModel.thinkingLevel };
          // A route to a model without credentials fails the request, not the session.
          routeTo = () => ({ model: locked.getModel("locked-1") });
          faux.setResponses([fauxAssistantMessage("never sent")]);
          await session.prompt("now fail");
          const last = session.messages.at(-1);
          details.failedRoute = { role: last?.role, stopReason: last?.stopReason, errorMessage: last?.errorMessage, model: `${last?.provider}/${last?.model}` };
        } finally {
          session.dispose();
        }
      }
      details.requests = requests.splice(0);
      return { content: [{ type: "text", text: params.part }], details };
    },
  });
}
