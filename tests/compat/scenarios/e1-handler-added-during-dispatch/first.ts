// On its first agent_start, rewires the handlers of both extensions.
export default function (pi: any) {
  const g = globalThis as any;
  g.e1Trace ??= [];
  let rewired = false;
  pi.on("agent_start", () => {
    g.e1Trace.push("first: original");
    if (rewired) return;
    rewired = true;
    pi.on("agent_start", () => {
      g.e1Trace.push("first: added during dispatch");
    });
    g.secondPi.on("agent_start", () => {
      g.e1Trace.push("second: added during dispatch");
    });
    g.removeSecondOriginal();
  });
  g.e1TraceTake = () => g.e1Trace.splice(0);
}
