// Would answer everything, but only runs when nobody before it did.
export default function (pi: any) {
  const g = globalThis as any;
  g.bashTrace ??= [];
  pi.on("user_bash", (event: any) => {
    g.bashTrace.push(`last saw ${event.command}`);
    return { result: { output: "from last", exitCode: 1, cancelled: false, truncated: true, fullOutputPath: "out/full.log" } };
  });
  g.bashTraceTake = () => g.bashTrace.splice(0);
}
