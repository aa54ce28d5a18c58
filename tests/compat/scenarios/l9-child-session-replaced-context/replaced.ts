// The context a host hands code that runs after it replaced a session (pi's
// withSession): AgentSession.createReplacedSessionContext of a child session,
// a command context whose sendMessage and sendUserMessage go through that
// session (a prompt answered by pi-ai's faux provider).
import { createProvider, fauxAssistantMessage, registerFauxProvider, stream, streamSimple } from "@earendil-works/pi-ai";
import * as piCodingAgent from "@earendil-works/pi-coding-agent";

const PROVIDER = "replaced-faux";

const textOf = (message: any) =>
  typeof message.content === "string"
    ? message.content
    : Array.isArray(message.content)
      ? message.content.map((block: any) => block.text ?? block.type).join("")
      : "";

export default function (pi: any) {
  const faux = registerFauxProvider({ api: "replaced-faux-api", provider: PROVIDER, models: [{ id: "child-1", reasoning: false }] });
  pi.registerTool({
    name: "replaced_context",
    label: "Replaced context",
    description: "Uses a child session's replaced-session context",
    parameters: { type: "object", properties: {} },
    async execute() {
      const modelRuntime = await piCodingAgent.ModelRuntime.create();
      modelRuntime.registerNativeProvider(
        createProvider({
          id: PROVIDER,
          name: "Replaced Faux",
          auth: { apiKey: { name: "Child key", resolve: async () => ({ auth: { apiKey: "child-key" }, source: "extension" }) } },
          models: faux.models,
          api: { stream, streamSimple },
        }),
      );
      await modelRuntime.refresh({ allowNetwork: false });
      faux.setResponses([fauxAssistantMessage("answered through the replaced context")]);
      const cwd = "/";
      const settingsManager = piCodingAgent.SettingsManager.inMemory();
      const log: string[] = [];
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
        extensionFactories: [{ name: "watcher", factory: (child: any) => child.on("input", (event: any) => log.push(`input ${event.text} source=${event.source}`)) }],
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
      await session.bindExtensions({ mode: "print" });
      try {
        const ctx = session.createReplacedSessionContext();
        const facts = {
          cwd: ctx.cwd,
          hasUI: ctx.hasUI,
          sameSession: ctx.sessionManager.getSessionId() === session.sessionId,
          model: ctx.model?.id,
          idle: ctx.isIdle(),
          actions: ["sendMessage", "sendUserMessage", "newSession", "fork", "navigateTree", "reload", "waitForIdle", "compact"].map((name) => `${name}:${typeof ctx[name]}`),
        };
        ctx.sendMessage({ customType: "note", content: "a note from the host", display: true });
        await ctx.sendUserMessage("via the replaced context");
        await session.waitForIdle();
        const transcript = session.messages.map((message: any) => `${message.role}: ${textOf(message)}`);
        return { content: [{ type: "text", text: "ok" }], details: { facts, log, transcript } };
      } finally {
        session.dispose();
      }
    },
  });
}
