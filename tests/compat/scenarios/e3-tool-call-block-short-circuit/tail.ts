// A later extension: must not run once a call is blocked.
export default function (pi: any) {
  const g = globalThis as any;
  g.e3Trace ??= [];
  pi.on("tool_call", () => {
    g.e3Trace.push("tail ran");
  });
  g.e3TraceTake = () => g.e3Trace.splice(0);
}
