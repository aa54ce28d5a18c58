// A tool that keeps its ctx; after invalidation the kept ctx and new calls both fail.
export default function (pi: any) {
  const g = globalThis as any;
  pi.registerTool({
    name: "keep",
    label: "Keep",
    description: "keeps its ctx",
    parameters: { type: "object", properties: {} },
    async execute(toolCallId: string, _params: any, _signal: any, _onUpdate: any, ctx: any) {
      g.keptToolCtx = ctx;
      return { content: [{ type: "text", text: `kept ${toolCallId}` }], details: { hasUI: ctx.hasUI } };
    },
  });
  g.nestedWithKept = () => g.keptToolCtx.executeTool("keep", {});
  g.toolsWithKept = () => g.keptToolCtx.tools;
}
