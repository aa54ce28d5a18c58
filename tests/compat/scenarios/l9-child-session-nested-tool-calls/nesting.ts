// Tools of a child session that call other tools through ctx.executeTool(),
// as codemode-style and orchestrating tools do: a model (pi-ai's faux
// provider) calls `orchestrate`, which calls `lookup` (streaming an update,
// reporting usage), a failing call, an unknown tool, a tool a hook blocks,
// and `relay`, which itself calls `lookup`. Hooks in the child see every
// nested call with its parent's id; the tool result message carries the
// record of the calls and their usage.
import { createProvider, fauxAssistantMessage, fauxToolCall, registerFauxProvider, stream, streamSimple } from "@earendil-works/pi-ai";
import * as piCodingAgent from "@earendil-works/pi-coding-agent";

const PROVIDER = "nested-faux";

const usage = (input: number, output: number, total: number) => ({
  input,
  output,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: input + output,
  cost: { input: total / 2, output: total / 2, cacheRead: 0, cacheWrite: 0, total },
});

const textOf = (result: any) =>
  typeof result?.content === "string" ? result.content : (result?.content ?? []).map((block: any) => block.text ?? block.type).join("");

export default function (pi: any) {
  const faux = registerFauxProvider({
    api: "nested-faux-api",
    provider: PROVIDER,
    models: [{ id: "child-1", reasoning: false }],
  });
  let runtime: Promise<any> | undefined;
  const sharedRuntime = () => {
    runtime ??= piCodingAgent.ModelRuntime.create().then((created: any) => {
      created.registerNativeProvider(
        createProvider({
          id: PROVIDER,
          name: "Nested Faux",
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
    name: "run_nesting_child",
    label: "Run nesting child",
    description: "Runs a child session whose tool calls other tools",
    parameters: { type: "object", properties: { variant: { type: "string" } }, required: ["variant"] },
    async execute(_id: string, params: { variant: string }) {
      const log: string[] = [];
      const updates: string[] = [];
      const tools = (child: any) => {
        child.registerTool({
          name: "lookup",
          label: "Lookup",
          description: "Looks a key up",
          parameters: { type: "object", properties: { key: { type: "string" }, fail: { type: "boolean" } }, required: ["key"] },
          async execute(id: string, args: any, _signal: any, onUpdate: any) {
            if (args.fail) throw new Error(`no entry for ${args.key}`);
            onUpdate?.({ content: [{ type: "text", text: `looking up ${args.key}` }], details: {} });
            return { content: [{ type: "text", text: `${args.key}=value` }], details: { id }, usage: usage(10, 2, 0.5) };
          },
        });
        child.registerTool({
          name: "relay",
          label: "Relay",
          description: "Calls lookup in turn",
          parameters: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
          async execute(id: string, args: any, _signal: any, _onUpdate: any, ctx: any) {
            const inner = await ctx.executeTool("lookup", { key: `${args.key}-inner` });
            return { content: [{ type: "text", text: `relayed ${textOf(inner.result)} as ${inner.toolCall.id}` }], details: { id }, usage: usage(1, 1, 0.25) };
          },
        });
        child.registerTool({
          name: "guarded",
          label: "Guarded",
          description: "A tool hooks block",
          parameters: { type: "object", properties: {} },
          async execute() {
            return { content: [{ type: "text", text: "ran" }], details: {} };
          },
        });
        child.registerTool({
          name: "orchestrate",
          label: "Orchestrate",
          description: "Calls other tools",
          parameters: { type: "object", properties: {} },
          async execute(id: string, _args: any, _signal: any, _onUpdate: any, ctx: any) {
            const outcomes: string[] = [];
            const callable = ctx.tools.map((tool: any) => tool.name).sort();
            outcomes.push(`callable ${callable.join(",")}`);
            const run = async (name: string, args: any) => {
              const outcome = await ctx.executeTool(name, args, { onUpdate: (partial: any) => updates.push(`${name}: ${textOf(partial)}`) });
              outcomes.push(`${outcome.toolCall.id} ${outcome.toolCall.name} error=${outcome.isError} ${textOf(outcome.result)}`);
            };
            if (params.variant === "parallel") {
              await Promise.all([run("lookup", { key: "a" }), run("lookup", { key: "b" })]);
            } else {
              await run("lookup", { key: "first" });
              await run("lookup", { key: "second", fail: true });
              await run("missing_tool", {});
              await run("guarded", {});
              await run("relay", { key: "deep" });
              await run("lookup", {});
            }
            return { content: [{ type: "text", text: outcomes.join("\n") }], details: { id } };
          },
        });
        child.on("tool_call", (event: any) => {
          log.push(`tool_call ${event.toolName} ${event.toolCallId} parent=${event.parentToolCallId}`);
          if (event.toolName === "guarded") return { block: true, reason: "guarded by the hook" };
          return undefined;
        });
        child.on("tool_result", (event: any) => {
          log.push(`tool_result ${event.toolName} ${event.toolCallId} parent=${event.parentToolCallId} error=${event.isError} usage=${event.usage?.totalTokens}`);
          return undefined;
        });
        for (const type of ["tool_execution_start", "tool_execution_update", "tool_execution_end"]) {
          child.on(type, (event: any) => log.push(`${type} ${event.toolName} ${event.toolCallId} parent=${event.parentToolCallId}${type === "tool_execution_end" ? ` error=${event.isError}` : ""}`));
        }
      };
      const modelRuntime = await sharedRuntime();
      const cwd = "/";
      faux.setResponses([
        fauxAssistantMessage([fauxToolCall("orchestrate", {}, { id: "call-1" })], { stopReason: "toolUse" }),
        fauxAssistantMessage("all done"),
      ]);
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
        extensionFactories: [{ name: "nesting-tools", factory: tools }],
      });
      await loader.reload();
      const resolved = piCodingAgent.resolveCliModel({ cliModel: `${PROVIDER}/child-1`, modelRuntime });
      if (resolved.error) throw new Error(resolved.error);
      const { session } = await piCodingAgent.createAgentSession({
        cwd,
        modelRuntime,
        model: resolved.model,
        tools: ["orchestrate", "lookup", "relay", "guarded"],
        resourceLoader: loader,
        sessionManager: piCodingAgent.SessionManager.inMemory(cwd),
        settingsManager,
      });
      await session.bindExtensions({ mode: "print", onError: (error: any) => log.push(`onError ${error.event} ${error.error}`) });
      const events: string[] = [];
      const unsubscribe = session.subscribe((event: any) => {
        if (event.type.startsWith("tool_execution_")) events.push(`${event.type} ${event.toolName} ${event.toolCallId} parent=${event.parentToolCallId}`);
      });
      try {
        await session.prompt("orchestrate please");
        const toolResult = session.messages.find((message: any) => message.role === "toolResult");
        const stored = session.sessionManager
          .getEntries()
          .find((entry: any) => entry.type === "message" && entry.message.role === "toolResult")?.message;
        // Durations are measured: only whether there is one is compared.
        const withoutDurations = (record: any) =>
          record && { ...record, calls: record.calls.map(({ durationMs, ...call }: any) => ({ ...call, timed: typeof durationMs === "number" })) };
        const details = {
          text: textOf(toolResult),
          nestedCalls: withoutDurations(toolResult?.nestedCalls),
          usage: toolResult?.usage,
          storedHasRecord: Array.isArray(stored?.nestedCalls),
          log: params.variant === "parallel" ? log.sort() : log,
          events: params.variant === "parallel" ? events.sort() : events,
          updates: updates.sort(),
          transcript: session.messages.map((message: any) => `${message.role}: ${textOf(message).slice(0, 60)}`),
        };
        return { content: [{ type: "text", text: params.variant }], details };
      } finally {
        unsubscribe();
        session.dispose();
      }
    },
  });
}
