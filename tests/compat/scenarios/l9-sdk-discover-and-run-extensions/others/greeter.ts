// An extension another extension loads through pi's SDK.
export default function (pi: any) {
  pi.registerCommand("hello", { description: "Says hello", handler: async () => "hello" });
  pi.registerTool({
    name: "greet",
    label: "Greet",
    description: "Greets someone",
    parameters: { type: "object", properties: { name: { type: "string" } } },
    async execute(_id: string, params: { name?: string }) {
      return { content: [{ type: "text", text: `hi ${params.name ?? "there"}` }], details: {} };
    },
  });
  pi.on("tool_call", async (event: any) => (event.toolName === "forbidden" ? { block: true, reason: "not here" } : undefined));
  pi.on("agent_start", async () => {
    (globalThis as any).greeterSawAgentStart = true;
  });
  pi.registerMcpServer("notes", { command: "notes-server", args: [] });
}
