// Keeps a ctx from a headless dispatch and uses its ui after a UI was bound.
export default function (pi: any) {
  const g = globalThis as any;
  let kept: any;
  pi.on("session_start", (_event: any, ctx: any) => {
    kept = ctx;
  });
  g.notifyWithKept = async (text: string) => {
    kept.ui.notify(text, "info");
    const answer = await kept.ui.confirm("Keep going?", text);
    return { hasUI: kept.hasUI, mode: kept.mode, answer };
  };
}
