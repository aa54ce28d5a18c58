// A sub-agent tool as pi-subagents builds one: one ModelRuntime shared by
// every child session, a provider object registered on it (here pi-ai's
// faux provider, standing for a provider an extension brings), the child's
// model resolved from a "provider/id" reference, a resource loader of the
// child's own, an in-memory session manager, the child prompted, its
// events followed, read and disposed. (pi-subagents also loads extensions
// into its children, which pihost does not build yet.)
import { createProvider, fauxAssistantMessage, registerFauxProvider, stream, streamSimple } from "@earendil-works/pi-ai";
import * as piCodingAgent from "@earendil-works/pi-coding-agent";

const PROVIDER = "child-faux";

export default function (pi: any) {
  const faux = registerFauxProvider({
    api: "child-faux-api",
    provider: PROVIDER,
    models: [{ id: "child-1", reasoning: false }],
    tokenSize: { min: 1_000_000, max: 1_000_000 },
  });
  let runtime: Promise<any> | undefined;
  const sharedRuntime = () => {
    runtime ??= piCodingAgent.ModelRuntime.create().then((created: any) => {
      created.registerNativeProvider(
        createProvider({
          id: PROVIDER,
          name: "Child Faux",
          auth: { apiKey: { name: "Child key", resolve: async () => ({ auth: { apiKey: "child-key" }, source: "extension" }) } },
          models: faux.models,
          api: { stream, streamSimple },
        }),
      );
      return created.refresh({ allowNetwork: false }).then(() => created);
    });
    return runtime;
  };
  const childEvents: string[] = [];

  pi.registerTool({
    name: "delegate",
    label: "Delegate",
    description: "Runs a task in a child session",
    parameters: {
      type: "object",
      properties: { task: { type: "string" }, model: { type: "string" } },
      required: ["task", "model"],
    },
    async execute(_id: string, params: { task: string; model: string }) {
      const modelRuntime = await sharedRuntime();
      const cwd = process.cwd();
      faux.setResponses([fauxAssistantMessage(`done: ${params.task}`)]);
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
        systemPrompt: "You are a child agent.",
      });
      await loader.reload();
      const resolved = piCodingAgent.resolveCliModel({ cliModel: params.model, modelRuntime });
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
      const unsubscribe = session.subscribe((event: any) => {
        if (event.type === "agent_start" || event.type === "agent_end" || event.type === "turn_end") childEvents.push(event.type);
      });
      try {
        await session.prompt(params.task);
        const messages = session.messages.map((message: any) => ({
          role: message.role,
          text: typeof message.content === "string" ? message.content : message.content.map((block: any) => block.text ?? block.type).join(""),
          ...(message.role === "assistant" ? { provider: message.provider, model: message.model, stopReason: message.stopReason } : {}),
        }));
        const details = {
          model: `${session.model?.provider}/${session.model?.id}`,
          messages,
          childEvents: childEvents.splice(0),
          runtimeShared: modelRuntime === (await sharedRuntime()),
          registered: modelRuntime.getRegisteredProviderIds(),
        };
        return { content: [{ type: "text", text: messages.at(-1)?.text ?? "" }], details };
      } finally {
        unsubscribe();
        session.dispose();
      }
    },
  });
}
