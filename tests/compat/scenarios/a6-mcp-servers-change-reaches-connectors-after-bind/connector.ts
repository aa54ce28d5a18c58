// Connects MCP servers as pi's built-in MCP extension does: it hears every
// change of the registrations once the runner is bound.
export default function (pi: any) {
  const seen: string[] = [];
  pi.on("mcp_servers_change", async (event: any, ctx: any) => {
    seen.push(`${event.type}: ${event.servers.map((server: any) => `${server.name}(${server.config.command ?? server.config.url})`).join(", ")} idle=${ctx.isIdle()}`);
  });
  (globalThis as any).connectorSeen = () => seen.splice(0);
}
