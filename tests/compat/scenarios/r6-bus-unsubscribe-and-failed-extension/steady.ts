// Subscribes and exposes its unsubscribe function.
export default function (pi: any) {
  const g = globalThis as any;
  g.tickLog ??= [];
  g.stopSteady = pi.events.on("tick", (data: any) => {
    g.tickLog.push(`steady ${data.n}`);
  });
  g.ticksHeard = () => g.tickLog.slice();
  g.useDoomedPi = () => g.doomedPi.events.emit("tick", { n: 99 });
  g.callStopSteady = () => {
    const first = g.stopSteady();
    const second = g.stopSteady();
    return [first, second];
  };
}
