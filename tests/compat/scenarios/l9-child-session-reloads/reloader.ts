// A child session reloaded as sub-agent extensions reload theirs:
// AgentSession.reload re-runs its extension file and inline factories, the
// old instance hears session_shutdown and goes stale, the new one keeps the
// flag values and active tools and hears session_start("reload") once the
// session's extensions were bound. Also: a reload while the child streams,
// and one of a session never bound.
import { createProvider, fauxAssistantMessage, fauxToolCall, registerFauxProvider, stream, streamSimple } from "@earendil-works/pi-ai";
import * as piCodingAgent from "@earendil-works/pi-coding-agent";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PROVIDER = "reload-faux";
const here = dirname(fileURLToPath(import.meta.url));

export default function (pi: any) {
  const g = globalThis as any;
  // Registered anew for each child: a reload resets pi-ai's api providers, this one's too.
  let faux: any;
  const makeRuntime = () =>
    piCodingAgent.ModelRuntime.create().then((created: any) => {
      created.registerNativeProvider(
        createProvider({
          id: PROVIDER,
          name: "Reload Faux",
          auth: { apiKey: { name: "Child key", resolve: async () => ({ auth: { apiKey: "child-key" }, source: "extension" }) } },
          models: faux.models,
          api: { stream, streamSimple },
        }),
      );
      return created.refresh({ allowNetwork: false }).then(() => created);
    });

  pi.registerTool({
    name: "reload_child",
    label: "Reload child",
    description: "Runs a child session and reloads it",
    parameters: { type: "object", properties: { variant: { type: "string" } }, required: ["variant"] },
    async execute(_id: string, params: { variant: string }) {
      const { variant } = params;
      g.__childReloadLog = [];
      const log: string[] = g.__childReloadLog;
      let factoryRuns = 0;
      let session: any;
      const inline = (child: any) => {
        factoryRuns++;
        const run = factoryRuns;
        child.on("session_start", (event: any) => log.push(`inline ${run} session_start ${event.reason}`));
        child.registerTool({
          name: "reload_now",
          label: "Reload now",
          description: "Reloads the session it runs in",
          parameters: { type: "object", properties: {} },
          async execute() {
            try {
              await session.reload();
              return { content: [{ type: "text", text: "reloaded" }], details: {} };
            } catch (error: any) {
              return { content: [{ type: "text", text: `reload failed: ${error.message}` }], details: {} };
            }
          },
        });
      };
      faux = registerFauxProvider({
        api: "reload-faux-api",
        provider: PROVIDER,
        models: [{ id: "child-1", reasoning: false }],
      });
      const modelRuntime = await makeRuntime();
      const cwd = "/";
      faux.setResponses(
        variant === "streaming"
          ? [fauxAssistantMessage([fauxToolCall("reload_now", {}, { id: "call-1" })], { stopReason: "toolUse" }), fauxAssistantMessage("done")]
          : [fauxAssistantMessage("first answer")],
      );
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
        additionalExtensionPaths: [join(here, "child-extension.ts")],
        extensionFactories: [{ name: "reload-hooks", factory: inline }],
      });
      await loader.reload();
      const resolved = piCodingAgent.resolveCliModel({ cliModel: `${PROVIDER}/child-1`, modelRuntime });
      if (resolved.error) throw new Error(resolved.error);
      ({ session } = await piCodingAgent.createAgentSession({
        cwd,
        modelRuntime,
        model: resolved.model,
        tools: ["child_tool", "reload_now", "read"],
        resourceLoader: loader,
        sessionManager: piCodingAgent.SessionManager.inMemory(cwd),
        settingsManager,
      }));
      if (variant !== "unbound") {
        await session.bindExtensions({ mode: "print", onError: (error: any) => log.push(`onError ${error.event} ${error.error}`) });
      }
      const results: string[] = [];
      try {
        await session.prompt("hello");
        if (variant === "streaming") {
          const toolResult = session.messages.find((message: any) => message.role === "toolResult");
          results.push(`tool said: ${JSON.stringify(toolResult?.content)} error=${toolResult?.isError}`);
          results.push(`roles: ${session.messages.map((message: any) => message.role).join(",")}`);
        } else {
          session.extensionRunner.setFlagValue("child-mode", "changed");
          session.setActiveToolsByName(["child_tool", "reload_now"]);
          const oldApi = g.__childReloadApi;
          await session.reload();
          results.push(`active after reload: ${session.getActiveToolNames().join(",")}`);
          results.push(`flag after reload: ${session.extensionRunner.getFlag?.("child-mode") ?? g.__childReloadApi.getFlag("child-mode")}`);
          try {
            oldApi.getActiveTools();
            results.push("old api still works");
          } catch (error: any) {
            results.push(`old api: ${error.message.slice(0, 60)}`);
          }
          results.push(`new api is another: ${oldApi !== g.__childReloadApi}`);
          results.push(`commands of the new runner: ${session.extensionRunner.getAllRegisteredTools().map((tool: any) => tool.definition.name).sort().join(",")}`);
        }
        return { content: [{ type: "text", text: variant }], details: { results, log, factoryRuns } };
      } finally {
        session.dispose();
      }
    },
  });
}
