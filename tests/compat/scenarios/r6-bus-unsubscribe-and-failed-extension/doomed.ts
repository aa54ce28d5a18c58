// Subscribes while loading, then fails: its subscription must be dropped with it.
export default function (pi: any) {
  const g = globalThis as any;
  g.tickLog ??= [];
  pi.events.on("tick", (data: any) => {
    g.tickLog.push(`doomed ${data.n}`);
  });
  g.doomedPi = pi;
  throw new Error("doomed extension gives up");
}
