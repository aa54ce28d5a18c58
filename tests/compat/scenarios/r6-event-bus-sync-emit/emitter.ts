// Emits on the shared bus from a command and reports what had happened by the time emit returned.
export default function (pi: any) {
  const g = globalThis as any;
  g.busTrace ??= [];
  pi.registerCommand("fire", {
    description: "emit a job",
    handler: async () => {
      g.busTrace.push("before emit");
      const returned = pi.events.emit("job", { n: 1 });
      g.busTrace.push("after emit");
      return { returned, traceWhenEmitReturned: g.busTrace.slice() };
    },
  });
  g.busTraceNow = () => g.busTrace.slice();
}
