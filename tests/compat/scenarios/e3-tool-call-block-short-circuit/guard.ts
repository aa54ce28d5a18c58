// Blocks destructive commands; the handler after it must not run for a blocked call.
export default function (pi: any) {
  const g = globalThis as any;
  g.e3Trace ??= [];
  pi.on("tool_call", (event: any) => {
    g.e3Trace.push(`guard saw ${event.input.command}`);
    if (String(event.input.command).startsWith("rm")) return { block: true, reason: "destructive command" };
    return undefined;
  });
  pi.on("tool_call", (event: any) => {
    g.e3Trace.push(`after-guard saw ${event.input.command}`);
  });
}
