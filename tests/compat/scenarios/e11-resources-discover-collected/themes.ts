// Contributes a theme and an empty skill list; a second handler returns nothing.
export default function (pi: any) {
  pi.on("resources_discover", () => ({ themePaths: ["themes/night.json"], skillPaths: [] }));
  pi.on("resources_discover", () => undefined);
  pi.on("resources_discover", () => ({ promptPaths: ["prompts/extra.md"] }));
  (globalThis as any).discoverSeenTake = () => (globalThis as any).discoverSeen.splice(0);
}
