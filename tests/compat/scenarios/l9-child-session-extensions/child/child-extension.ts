// An extension file a child session loads by path (additionalExtensionPaths).
// It has no way to reach the tool that started the child, so it writes its log
// where that tool reads it.
export default function (pi: any) {
  const log: string[] = ((globalThis as any).__childFileLog ??= []);
  pi.on("session_start", (event: any, ctx: any) => {
    log.push(`file session_start ${event.reason} hasUI=${ctx.hasUI}`);
  });
  pi.on("turn_start", (event: any) => {
    if (event.turnIndex === 1) throw new Error("file hook failed");
  });
  pi.on("agent_end", (event: any) => {
    log.push(`file agent_end ${event.messages.length}`);
  });
  pi.on("resources_discover", (event: any) => {
    log.push(`file resources_discover ${event.reason}`);
    return { skillPaths: [new URL("./skills", import.meta.url).pathname] };
  });
  pi.registerCommand("child-cmd", {
    description: "A command of the child session",
    handler: async (args: string, ctx: any) => {
      log.push(`file command child-cmd ${args} idle=${ctx.isIdle()}`);
    },
  });
  pi.on("session_shutdown", (event: any) => {
    log.push(`file session_shutdown ${event.reason}`);
  });
}
