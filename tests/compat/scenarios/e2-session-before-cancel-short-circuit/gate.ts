// Cancels forks; whatever is registered after the cancelling handler must not run.
export default function (pi: any) {
  const g = globalThis as any;
  g.gateTrace ??= [];
  pi.on("session_before_fork", () => {
    g.gateTrace.push("gate 1");
    return { note: "looked at it" };
  });
  pi.on("session_before_fork", () => {
    g.gateTrace.push("gate 2 throws");
    throw new Error("gate 2 broke");
  });
  pi.on("session_before_fork", (event: any) => {
    g.gateTrace.push("gate 3 cancels");
    return { cancel: true, reason: `no forking at ${event.entryId}` };
  });
  pi.on("session_before_fork", () => {
    g.gateTrace.push("gate 4 should not run");
  });
  g.gateTraceTake = () => g.gateTrace.splice(0);
}
