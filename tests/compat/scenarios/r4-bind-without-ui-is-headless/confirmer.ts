// Tools and handlers ask for confirmation; headless answers must be the no-op ones.
export default function (pi: any) {
  pi.registerTool({
    name: "dangerous",
    label: "Dangerous",
    description: "asks before acting",
    parameters: { type: "object", properties: {} },
    async execute(_id: string, _params: any, _signal: any, _onUpdate: any, ctx: any) {
      const ok = await ctx.ui.confirm("Really?", "The tool wants to act.");
      const choice = await ctx.ui.select("How?", ["fast", "slow"]);
      return { content: [{ type: "text", text: ok ? "acted" : "declined" }], details: { ok, choice, hasUI: ctx.hasUI } };
    },
  });
  pi.on("tool_call", async (_event: any, ctx: any) => {
    const name = await ctx.ui.input("Reason?");
    return { block: false, reason: `input was ${String(name)}` };
  });
}
