// A policy handler that fails in different ways depending on the tool.
export default function (pi: any) {
  const g = globalThis as any;
  g.policyTrace ??= [];
  pi.on("tool_call", () => {
    g.policyTrace.push("policy: first handler");
    return { reason: "first handler had an opinion" };
  });
  pi.on("tool_call", async (event: any) => {
    g.policyTrace.push(`policy: checking ${event.toolName}`);
    if (event.toolName === "write") throw new Error("policy engine is down");
    if (event.toolName === "edit") {
      await Promise.resolve();
      throw new Error("policy engine rejected asynchronously");
    }
    if (event.toolName === "bash") throw "policy threw a string";
    return undefined;
  });
}
