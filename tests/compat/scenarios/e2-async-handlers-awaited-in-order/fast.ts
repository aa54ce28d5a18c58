// A synchronous handler in a later extension: must start only after slow finished.
export default function (pi: any) {
  const g = globalThis as any;
  g.orderTrace ??= [];
  pi.on("turn_start", (event: any) => {
    g.orderTrace.push(`fast ${event.turnIndex}`);
  });
  pi.registerCommand("two-turns", {
    description: "dispatch order seen from a command",
    handler: async () => g.orderTrace.splice(0),
  });
}
