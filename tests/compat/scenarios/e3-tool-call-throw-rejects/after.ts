// Must never run when an earlier tool_call handler threw.
export default function (pi: any) {
  const g = globalThis as any;
  g.policyTrace ??= [];
  pi.on("tool_call", () => {
    g.policyTrace.push("after: ran");
    return { block: true, reason: "after blocks everything" };
  });
  g.policyTraceTake = () => g.policyTrace.splice(0);
}
