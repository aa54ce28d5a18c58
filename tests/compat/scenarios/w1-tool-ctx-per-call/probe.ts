// Keeps the ctx of every tool call and every tool_call event for comparison.
export default function (pi: any) {
  const g = globalThis as any;
  const toolContexts: any[] = [];
  const eventContexts: any[] = [];
  pi.registerTool({
    name: "probe",
    label: "Probe",
    description: "remembers its ctx",
    parameters: { type: "object", properties: {} },
    async execute(toolCallId: string, _params: any, _signal: any, _onUpdate: any, ctx: any) {
      toolContexts.push(ctx);
      return { content: [{ type: "text", text: `call ${toolCallId}` }], details: { idle: ctx.isIdle() } };
    },
  });
  pi.on("tool_call", (_event: any, ctx: any) => {
    eventContexts.push(ctx);
  });
  g.compareContexts = () => ({
    toolCalls: toolContexts.length,
    distinctToolContexts: toolContexts[0] !== toolContexts[1],
    toolCtxHasTools: "tools" in toolContexts[0],
    eventCtxHasTools: "tools" in eventContexts[0],
    eventCtxHasExecuteTool: "executeTool" in eventContexts[0],
    distinctEventContexts: eventContexts[0] !== eventContexts[1],
    toolAndEventDiffer: toolContexts[0] !== eventContexts[0],
  });
}
