// Two session_start handlers; the second fails synchronously.
export default function (pi: any) {
  const g = globalThis as any;
  g.e2Trace ??= [];
  pi.on("session_start", (event: any, ctx: any) => {
    g.e2Trace.push(`alpha 1 (${event.reason})`);
    g.e2FirstCtx = ctx;
  });
  pi.on("session_start", () => {
    g.e2Trace.push("alpha 2 about to throw");
    throw new Error("alpha could not start");
  });
}
