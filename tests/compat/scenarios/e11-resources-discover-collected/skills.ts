// Contributes skills and prompts; a second handler fails.
export default function (pi: any) {
  const g = globalThis as any;
  g.discoverSeen ??= [];
  pi.on("resources_discover", (event: any) => {
    g.discoverSeen.push({ cwd: event.cwd, reason: event.reason, type: event.type });
    return { skillPaths: ["skills/review", "skills/test"], promptPaths: ["prompts/fix.md"] };
  });
  pi.on("resources_discover", () => {
    throw new Error("skill index unreadable");
  });
}
