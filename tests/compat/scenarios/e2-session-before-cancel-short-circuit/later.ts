// A later extension whose handler is skipped by the cancel.
export default function (pi: any) {
  const g = globalThis as any;
  g.gateTrace ??= [];
  pi.on("session_before_fork", () => {
    g.gateTrace.push("later extension should not run");
    return { note: "too late" };
  });
}
