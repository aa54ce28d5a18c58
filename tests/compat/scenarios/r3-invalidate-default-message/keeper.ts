// Holds on to its pi object and an event ctx past invalidation.
export default function (pi: any) {
  const g = globalThis as any;
  let lastCtx: any;
  pi.on("session_start", (_event: any, ctx: any) => {
    lastCtx = ctx;
    return ctx.cwd.length > 0;
  });
  g.readOldCtx = () => lastCtx.hasUI;
  g.sendWithOldPi = () => pi.sendMessage({ customType: "late", content: "still here?", display: true });
  g.listenWithOldPi = () => pi.on("agent_end", () => {});
  g.registerWithOldPi = () => pi.registerCommand("late", { handler: async () => {} });
  g.emitOnBusWithOldPi = () => pi.events.emit("late", {});
}
