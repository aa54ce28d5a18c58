// Calls a nested tool with explicit options; the host decides the answer.
export default function (pi: any) {
  pi.registerTool({
    name: "delegate",
    label: "Delegate",
    description: "delegates to a callable tool",
    parameters: { type: "object", properties: { target: { type: "string" } } },
    async execute(_toolCallId: string, params: any, _signal: any, _onUpdate: any, ctx: any) {
      const names = ctx.tools.map((tool: any) => tool.name);
      const nested = await ctx.executeTool(params.target, { from: "delegate" }, { reason: "scenario" });
      return { content: [{ type: "text", text: `delegated to ${params.target}` }], details: { names, nested } };
    },
  });
}
