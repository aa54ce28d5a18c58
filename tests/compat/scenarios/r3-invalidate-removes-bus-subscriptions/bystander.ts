// Keeps a ctx to show which stale message wins when invalidate is called twice.
export default function (pi: any) {
  const g = globalThis as any;
  let kept: any;
  pi.on("agent_start", (_event: any, ctx: any) => {
    kept = ctx;
  });
  g.touchKept = () => kept.isIdle();
}
