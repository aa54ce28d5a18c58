// Runs after alpha's failure; one handler rejects asynchronously, one throws a non-Error.
export default function (pi: any) {
  const g = globalThis as any;
  g.e2Trace ??= [];
  pi.on("session_start", async (_event: any, ctx: any) => {
    await Promise.resolve();
    g.e2Trace.push(`beta 1 shares alpha's ctx: ${ctx === g.e2FirstCtx}`);
    throw new Error("beta rejected later");
  });
  pi.on("session_start", () => {
    g.e2Trace.push("beta 2 throws a number");
    throw 42;
  });
  pi.on("session_start", () => {
    g.e2Trace.push("beta 3 still runs");
  });
  g.e2TraceTake = () => g.e2Trace.splice(0);
}
