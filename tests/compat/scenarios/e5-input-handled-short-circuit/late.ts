// Must not run once the input was handled.
export default function (pi: any) {
  const g = globalThis as any;
  g.inputTrace ??= [];
  pi.on("input", (event: any) => {
    g.inputTrace.push(`late saw ${event.text}`);
    return { action: "transform", text: `${event.text} (late)` };
  });
  g.inputTraceTake = () => g.inputTrace.splice(0);
}
