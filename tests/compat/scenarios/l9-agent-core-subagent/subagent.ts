// A sub-agent tool as published extensions write one with pi-agent-core: the
// tool builds an `Agent` with its own system prompt and tools, prompts it
// with the task, and answers with the agent's last text. The model is
// pi-ai's faux provider, scripted per run: the sub-agent reads two "files"
// with its tool (one fails), then answers. The tool reports the agent's
// events, its transcript and its final state.
import { Agent } from "@earendil-works/pi-agent-core";
import { fauxAssistantMessage, fauxToolCall, registerFauxProvider, streamSimple, Type } from "@earendil-works/pi-ai";

const FILES: Record<string, string> = { "a.txt": "alpha", "b.txt": "beta" };

/** A message as the transcript shows it, without timestamps, ids and usage. */
function brief(message: any) {
  const content = typeof message.content === "string" ? [{ type: "text", text: message.content }] : (message.content ?? []);
  const parts = content.map((block: any) =>
    block.type === "text" ? `text:${block.text}` : block.type === "toolCall" ? `call:${block.name}(${JSON.stringify(block.arguments)})` : block.type,
  );
  return [message.role, message.toolName ?? "", message.isError ? "error" : "", ...parts].filter((part) => part !== "").join(" ");
}

export default function (pi: any) {
  const faux = registerFauxProvider({ api: "subagent-faux-api", provider: "subagent-faux", models: [{ id: "worker-1", reasoning: false }] });

  pi.registerTool({
    name: "delegate",
    label: "Delegate",
    description: "Hands a task to a sub-agent",
    parameters: Type.Object({ task: Type.String(), parallel: Type.Optional(Type.Boolean()) }),
    async execute(_toolCallId: string, params: { task: string; parallel?: boolean }, signal: AbortSignal) {
      const reads: string[] = [];
      const readTool = {
        name: "read_file",
        label: "Read file",
        description: "Reads a file of the task",
        parameters: Type.Object({ path: Type.String() }),
        async execute(_id: string, args: { path: string }) {
          reads.push(args.path);
          const text = FILES[args.path];
          if (text === undefined) throw new Error(`no such file: ${args.path}`);
          return { content: [{ type: "text", text }], details: { bytes: text.length } };
        },
      };
      faux.setResponses([
        fauxAssistantMessage(
          [
            fauxToolCall("read_file", { path: "a.txt" }, { id: "read-1" }),
            fauxToolCall("read_file", { path: "missing.txt" }, { id: "read-2" }),
            fauxToolCall("read_file", { path: "b.txt" }, { id: "read-3" }),
          ],
          { stopReason: "toolUse" },
        ),
        (context: any) => {
          const results = context.messages.filter((message: any) => message.role === "toolResult");
          const seen = results.map((message: any) => `${message.toolName}:${message.isError ? "error" : message.content[0]?.text}`).join(", ");
          return fauxAssistantMessage(`Done "${params.task}" after ${results.length} reads: ${seen}`);
        },
      ]);
      const agent = new Agent({
        initialState: {
          systemPrompt: "You are a careful sub-agent. Read before you answer.",
          model: faux.getModel(),
          thinkingLevel: "off",
          tools: [readTool],
        },
        streamFn: streamSimple,
        getApiKey: () => "sub-agent-key",
        toolExecution: params.parallel ? "parallel" : "sequential",
      });
      const events: string[] = [];
      agent.subscribe((event: any) => {
        if (event.type === "message_update") return;
        const detail = event.toolName ? ` ${event.toolName} ${event.toolCallId}${event.type === "tool_execution_end" ? ` error=${event.isError}` : ""}` : "";
        events.push(`${event.type}${event.message ? ` ${event.message.role}` : ""}${detail}`);
      });
      const stop = () => agent.abort();
      signal?.addEventListener("abort", stop, { once: true });
      try {
        await agent.prompt(params.task);
      } finally {
        signal?.removeEventListener("abort", stop);
      }
      const last = agent.state.messages[agent.state.messages.length - 1];
      const answer = typeof last?.content === "string" ? last.content : last?.content?.find((block: any) => block.type === "text")?.text;
      return {
        content: [{ type: "text", text: answer ?? "(no answer)" }],
        details: {
          events,
          transcript: agent.state.messages.map(brief),
          reads,
          isStreaming: agent.state.isStreaming,
          errorMessage: agent.state.errorMessage ?? null,
          pendingResponses: faux.getPendingResponseCount(),
          calls: faux.state.callCount,
        },
      };
    },
  });
}
