// Looks at every call and lets it through with a reason.
export default function (pi: any) {
  const g = globalThis as any;
  g.e3Trace ??= [];
  pi.on("tool_call", (event: any) => {
    g.e3Trace.push(`audit saw ${event.toolName}`);
    return { block: false, reason: "audited" };
  });
}
