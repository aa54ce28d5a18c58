// Drives every session-control method of the command ctx and returns what each resolved to.
export default function (pi: any) {
  pi.registerCommand("juggle", {
    description: "exercise session control",
    handler: async (_args: string, ctx: any) => {
      const results: Record<string, unknown> = {};
      results.waitForIdle = await ctx.waitForIdle();
      results.newSession = await ctx.newSession({ parentSession: "sessions/parent.jsonl" });
      results.fork = await ctx.fork("entry-7");
      results.navigateTree = await ctx.navigateTree("entry-3", { summarize: true });
      results.switchSession = await ctx.switchSession("sessions/other.jsonl");
      results.reload = await ctx.reload();
      return results;
    },
  });
}
