// An async handler that yields to the event loop several times before finishing.
export default function (pi: any) {
  const g = globalThis as any;
  g.orderTrace ??= [];
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
  pi.on("turn_start", async (event: any) => {
    g.orderTrace.push(`slow start ${event.turnIndex}`);
    await tick();
    await tick();
    g.orderTrace.push(`slow end ${event.turnIndex}`);
  });
}
