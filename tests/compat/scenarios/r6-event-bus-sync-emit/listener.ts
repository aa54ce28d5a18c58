// Listens on the shared bus; part of the handler runs before its first await.
export default function (pi: any) {
  const g = globalThis as any;
  g.busTrace ??= [];
  pi.events.on("job", async (data: any) => {
    g.busTrace.push(`listener sync part ${data.n}`);
    await Promise.resolve();
    g.busTrace.push(`listener async part ${data.n}`);
  });
}
