// Rewrites the tool input in place; later handlers see the rewritten input.
export default function (pi: any) {
  pi.on("tool_call", (event: any) => {
    (globalThis as any).eventSeenByRewrite = event;
    if (event.toolName === "bash") event.input.command = `${event.input.command} --dry-run`;
  });
}
