// Leaves local execution alone.
export default function (pi: any) {
  const g = globalThis as any;
  g.bashTrace ??= [];
  pi.on("user_bash", (event: any) => {
    g.bashTrace.push(`pass saw ${event.command}`);
    return undefined;
  });
}
