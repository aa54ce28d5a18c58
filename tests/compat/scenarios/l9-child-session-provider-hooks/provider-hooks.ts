// The provider hooks of a child session's extensions, as a sub-agent's
// request-shaping extensions use them: before_provider_headers changes the
// headers a request goes out with, before_provider_request the payload,
// after_provider_response and provider_stream_event see what came back. The
// provider is an extension's own (createProvider with a stream function), so
// what it was sent is what the hooks made, and the raw events it reports are
// its own.
import { createProvider, fauxAssistantMessage, registerFauxProvider, stream as fauxStream } from "@earendil-works/pi-ai";
import * as piCodingAgent from "@earendil-works/pi-coding-agent";

const PROVIDER = "hooked-provider";

export default function (pi: any) {
  const faux = registerFauxProvider({
    api: "hooked-faux-api",
    provider: PROVIDER,
    models: [{ id: "child-1", reasoning: false }],
  });
  const sent: string[] = [];
  const streamFn = (model: any, context: any, options: any) => {
    sent.push(
      `headers ${JSON.stringify(options?.headers ?? {})} timeout=${typeof options?.timeoutMs} retries=${options?.maxRetries} ws=${typeof options?.websocketConnectTimeoutMs}`,
    );
    void (async () => {
      await options?.onProviderStreamEvent?.({ kind: "raw-start" }, model);
      await options?.onResponse?.({ status: 200, headers: { "x-served-by": "faux" } }, model);
      const payload = await options?.onPayload?.({ messages: context.messages.length }, model);
      sent.push(`payload ${JSON.stringify(payload)}`);
      await options?.onProviderStreamEvent?.({ kind: "raw-end" }, model);
    })();
    return fauxStream(model, context, { ...options, onResponse: undefined, onPayload: undefined });
  };
  let runtime: Promise<any> | undefined;
  const sharedRuntime = () => {
    runtime ??= piCodingAgent.ModelRuntime.create().then((created: any) => {
      created.registerNativeProvider(
        createProvider({
          id: PROVIDER,
          name: "Hooked",
          auth: { apiKey: { name: "Child key", resolve: async () => ({ auth: { apiKey: "child-key", headers: { "x-auth": "from-auth" } }, source: "extension" }) } },
          models: faux.models,
          api: { stream: streamFn, streamSimple: streamFn },
        }),
      );
      return created.refresh({ allowNetwork: false }).then(() => created);
    });
    return runtime;
  };

  pi.registerTool({
    name: "hooked_child",
    label: "Hooked child",
    description: "Runs a child session whose extensions hook its provider requests",
    parameters: { type: "object", properties: {} },
    async execute() {
      const log: string[] = [];
      sent.length = 0;
      const hooks = (child: any) => {
        child.on("before_provider_headers", (event: any) => {
          log.push(`before_provider_headers ${JSON.stringify(event.headers)}`);
          // In place, as pi's hook works: a string adds or overrides, null removes.
          event.headers["x-child"] = "added";
          event.headers["x-auth"] = null;
        });
        child.on("before_provider_request", (event: any) => {
          log.push(`before_provider_request ${JSON.stringify(event.payload)}`);
          return { ...event.payload, shaped: true };
        });
        child.on("after_provider_response", (event: any) => log.push(`after_provider_response ${event.status} ${JSON.stringify(event.headers)}`));
        child.on("provider_stream_event", (event: any) => log.push(`provider_stream_event ${JSON.stringify(event.data)} ${event.provider} ${event.api} ${event.model}`));
      };
      const modelRuntime = await sharedRuntime();
      const cwd = "/";
      faux.setResponses([fauxAssistantMessage("hooked answer")]);
      const settingsManager = piCodingAgent.SettingsManager.inMemory({ retry: { provider: { maxRetries: 3 } } });
      const loader = new piCodingAgent.DefaultResourceLoader({
        cwd,
        agentDir: piCodingAgent.getAgentDir(),
        settingsManager,
        noExtensions: true,
        noSkills: true,
        noPromptTemplates: true,
        noThemes: true,
        noContextFiles: true,
        systemPrompt: "You are a child agent.",
        extensionFactories: [{ name: "provider-hooks", factory: hooks }],
      });
      await loader.reload();
      const resolved = piCodingAgent.resolveCliModel({ cliModel: `${PROVIDER}/child-1`, modelRuntime });
      if (resolved.error) throw new Error(resolved.error);
      const { session } = await piCodingAgent.createAgentSession({
        cwd,
        modelRuntime,
        model: resolved.model,
        tools: [],
        resourceLoader: loader,
        sessionManager: piCodingAgent.SessionManager.inMemory(cwd),
        settingsManager,
      });
      await session.bindExtensions({ mode: "print", onError: (error: any) => log.push(`onError ${error.event} ${error.error}`) });
      try {
        await session.prompt("hello");
        // The provider's own reports run beside the answer's stream: let them finish.
        await new Promise((resolve) => setTimeout(resolve, 20));
        return { content: [{ type: "text", text: session.getLastAssistantText() ?? "" }], details: { log, sent: [...sent] } };
      } finally {
        session.dispose();
      }
    },
  });
}
