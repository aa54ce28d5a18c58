// Expands a macro, then handles "/ping"-style input itself.
export default function (pi: any) {
  const g = globalThis as any;
  g.inputTrace ??= [];
  pi.on("input", (event: any) => {
    g.inputTrace.push(`macro saw ${event.text}`);
    if (event.text === "!p") return { action: "transform", text: "ping please" };
    return { action: "continue" };
  });
  pi.on("input", (event: any) => {
    g.inputTrace.push(`handler saw ${event.text}`);
    if (event.text.startsWith("ping")) return { action: "handled", note: "answered locally" };
    return undefined;
  });
}
