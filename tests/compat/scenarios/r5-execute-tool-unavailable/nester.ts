// A tool that tries to call another tool through its ctx.
export default function (pi: any) {
  pi.registerTool({
    name: "outer",
    label: "Outer",
    description: "calls inner",
    parameters: { type: "object", properties: { depth: { type: "number" } } },
    async execute(toolCallId: string, params: any, _signal: any, onUpdate: any, ctx: any) {
      onUpdate?.({ content: [{ type: "text", text: `starting ${toolCallId}` }], details: {} });
      const nested = await ctx.executeTool("inner", { depth: params.depth + 1 });
      return {
        content: [{ type: "text", text: "outer finished" }],
        details: {
          nested,
          tools: ctx.tools,
          executeToolType: typeof ctx.executeTool,
          enumerableKeysIncludeTools: Object.keys(ctx).includes("tools"),
          enumerableKeysIncludeExecuteTool: Object.keys(ctx).includes("executeTool"),
        },
      };
    },
  });
}
