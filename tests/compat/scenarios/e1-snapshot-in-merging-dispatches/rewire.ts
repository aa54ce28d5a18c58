// In input and tool_call dispatches, the first handler removes the second and adds a third.
export default function (pi: any) {
  const g = globalThis as any;
  const trace: string[] = [];
  const rewired = new Set<string>();

  const removeInputB = pi.on("input", (event: any) => {
    trace.push(`input A saw ${event.text}`);
    if (!rewired.has("input")) {
      rewired.add("input");
      removeInputSecond();
      pi.on("input", (later: any) => ({ action: "transform", text: `${later.text}+C` }));
    }
    return { action: "transform", text: `${event.text}+A` };
  });
  const removeInputSecond = pi.on("input", (event: any) => ({ action: "transform", text: `${event.text}+B` }));

  pi.on("tool_call", () => {
    trace.push("tool_call A");
    if (!rewired.has("tool_call")) {
      rewired.add("tool_call");
      removeToolCallSecond();
      pi.on("tool_call", () => ({ block: true, reason: "blocked by the added handler" }));
    }
    return undefined;
  });
  const removeToolCallSecond = pi.on("tool_call", () => {
    trace.push("tool_call B");
    return { block: false, reason: "B ran" };
  });

  g.rewireTrace = () => trace.splice(0);
  g.keepReference = removeInputB;
}
