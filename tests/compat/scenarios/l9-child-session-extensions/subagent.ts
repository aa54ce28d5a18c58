// A sub-agent tool whose children load extensions as pi-subagents' do: inline
// hook factories (`extensionFactories`) and extension files
// (`additionalExtensionPaths`) in a resource loader of the child's own, the
// session's extensions bound in print mode with an error listener, the child
// prompted, then session_shutdown emitted before the session is disposed.
import { createProvider, fauxAssistantMessage, fauxToolCall, registerFauxProvider, stream, streamSimple } from "@earendil-works/pi-ai";
import * as piCodingAgent from "@earendil-works/pi-coding-agent";

const PROVIDER = "child-hooks-faux";
const CHILD_EXTENSION = new URL("./child/child-extension.ts", import.meta.url).pathname;
const AGENT_DIR = new URL("./agent", import.meta.url).pathname;

const baseName = (path: string) => (path.startsWith("<") ? path : path.split("/").pop());

function textOf(message: any): string {
  if (typeof message.content === "string") return message.content;
  return message.content
    .map((block: any) => block.text ?? (block.type === "toolCall" ? `call ${block.name} ${JSON.stringify(block.arguments)}` : block.type))
    .join("");
}

export default function (pi: any) {
  const faux = registerFauxProvider({
    api: "child-hooks-faux-api",
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
          name: "Child Hooks Faux",
          auth: { apiKey: { name: "Child key", resolve: async () => ({ auth: { apiKey: "child-key" }, source: "extension" }) } },
          models: faux.models,
          api: { stream, streamSimple },
        }),
      );
      return created.refresh({ allowNetwork: false }).then(() => created);
    });
    return runtime;
  };

  pi.registerTool({
    name: "delegate",
    label: "Delegate",
    description: "Runs a task in a child session with hooks",
    parameters: { type: "object", properties: { task: { type: "string" } }, required: ["task"] },
    async execute(_id: string, params: { task: string }) {
      const log: string[] = [];
      const fileLog: string[] = ((globalThis as any).__childFileLog ??= []);
      fileLog.length = 0;
      const hooks = (child: any) => {
        child.registerTool({
          name: "child_lookup",
          label: "Lookup",
          description: "Looks a key up",
          parameters: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
          async execute(_callId: string, args: { key: string }, _signal: unknown, _onUpdate: unknown, ctx: any) {
            log.push(`execute child_lookup ${args.key} hasUI=${ctx.hasUI} model=${ctx.model?.id}`);
            return { content: [{ type: "text", text: `value of ${args.key}` }], details: { key: args.key } };
          },
        });
        child.on("session_start", (event: any, ctx: any) => log.push(`session_start ${event.reason} model=${ctx.model?.id}`));
        child.on("before_agent_start", (event: any) => {
          log.push(`before_agent_start ${event.prompt}`);
          return { message: { customType: "child-note", content: "remember the notes", display: false } };
        });
        child.on("agent_start", () => log.push("agent_start"));
        child.on("after_provider_response", (event: any) => log.push(`after_provider_response ${event.status}`));
        child.on("before_provider_request", () => {
          log.push("before_provider_request");
        });
        child.on("turn_start", (event: any) => log.push(`turn_start ${event.turnIndex}`));
        child.on("context", (event: any) => {
          log.push(`context ${event.messages.map((message: any) => message.role).join(",")}`);
        });
        child.on("tool_call", (event: any) => {
          log.push(`tool_call ${event.toolName} ${JSON.stringify(event.input)}`);
          if (event.input.key === "secret") return { block: true, reason: "secrets stay hidden" };
        });
        child.on("tool_result", (event: any) => {
          log.push(`tool_result ${event.toolName} isError=${event.isError} ${JSON.stringify(event.content)}`);
          if (!event.isError) return { content: [...event.content, { type: "text", text: " (checked)" }] };
        });
        child.on("tool_execution_end", (event: any) => log.push(`tool_execution_end ${event.toolName} isError=${event.isError}`));
        child.on("message_end", (event: any) => log.push(`message_end ${event.message.role}`));
        child.on("turn_end", (event: any) => log.push(`turn_end ${event.turnIndex} results=${event.toolResults.length}`));
        child.on("agent_end", (event: any) => log.push(`agent_end ${event.messages.length}`));
        child.on("session_shutdown", (event: any) => log.push(`session_shutdown ${event.reason}`));
      };
      const modelRuntime = await sharedRuntime();
      const cwd = process.cwd();
      faux.setResponses([
        fauxAssistantMessage([fauxToolCall("child_lookup", { key: "secret" }, { id: "call-1" })], { stopReason: "toolUse" }),
        fauxAssistantMessage([fauxToolCall("child_lookup", { key: "notes" }, { id: "call-2" })], { stopReason: "toolUse" }),
        fauxAssistantMessage(`done: ${params.task}`),
      ]);
      // Packages `pi install` put in the settings, installed in the agent folder: a child that
      // loads none of the kinds packages bring only needs them installed.
      const settingsManager = piCodingAgent.SettingsManager.inMemory({
        packages: ["npm:child-pkg", "npm:child-pkg-pinned@1.2.0", { source: "./local-pkg", skills: [] }],
      });
      const loader = new piCodingAgent.DefaultResourceLoader({
        cwd,
        agentDir: AGENT_DIR,
        settingsManager,
        noExtensions: true,
        noSkills: true,
        noPromptTemplates: true,
        noThemes: true,
        noContextFiles: true,
        systemPrompt: "You are a child agent.",
        additionalExtensionPaths: [CHILD_EXTENSION],
        extensionFactories: [
          { name: "child-hooks", factory: hooks },
          (child: any) =>
            child.on("input", (event: any) => {
              log.push(`input ${event.text} source=${event.source}`);
              return { action: "transform", text: `${event.text}, please` };
            }),
          {
            name: "broken",
            factory: () => {
              throw new Error("child hook failed");
            },
          },
        ],
      });
      await loader.reload();
      const loaded = loader.getExtensions();
      const resolved = piCodingAgent.resolveCliModel({ cliModel: `${PROVIDER}/child-1`, modelRuntime });
      if (resolved.error) throw new Error(resolved.error);
      const { session } = await piCodingAgent.createAgentSession({
        cwd,
        modelRuntime,
        model: resolved.model,
        tools: ["read", "child_lookup"],
        resourceLoader: loader,
        sessionManager: piCodingAgent.SessionManager.inMemory(cwd),
        settingsManager,
        sessionStartEvent: { type: "session_start", reason: "startup" },
      });
      await session.bindExtensions({
        mode: "print",
        onError: (error: any) => log.push(`onError ${baseName(error.extensionPath)} ${error.event} ${error.error}`),
      });
      const activeTools = session.getActiveToolNames();
      const skills = session.resourceLoader.getSkills().skills.map((skill: any) => `${skill.name} ${skill.sourceInfo?.source}`);
      await session.prompt("/child-cmd from the parent");
      await session.prompt(params.task);
      const messages = session.messages.map((message: any) => ({
        role: message.role,
        text: textOf(message),
        ...(message.role === "toolResult" ? { toolName: message.toolName, isError: message.isError } : {}),
        ...(message.role === "custom" ? { customType: message.customType } : {}),
      }));
      const runner = session.extensionRunner;
      if (runner.hasHandlers("session_shutdown")) await runner.emit({ type: "session_shutdown", reason: "quit" });
      session.dispose();
      const details = {
        extensions: loaded.extensions.map((extension: any) => baseName(extension.path)),
        errors: loaded.errors.map((error: any) => ({ path: baseName(error.path), error: error.error })),
        warnings: loaded.warnings ?? [],
        activeTools,
        skills,
        log,
        fileLog: [...fileLog],
        messages,
      };
      return { content: [{ type: "text", text: messages.at(-1)?.text ?? "" }], details };
    },
  });
}
