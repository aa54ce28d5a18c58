// Exposes its pi and the unsubscribe function of its only handler.
export default function (pi: any) {
  const g = globalThis as any;
  g.e1Trace ??= [];
  g.secondPi = pi;
  g.removeSecondOriginal = pi.on("agent_start", () => {
    g.e1Trace.push("second: original");
  });
}
