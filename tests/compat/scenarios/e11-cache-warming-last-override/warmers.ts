// Overrides the cache warming action; records the action each handler is shown.
export default function (pi: any) {
  const g = globalThis as any;
  const seen: unknown[] = [];
  pi.on("cache_warming_decision", (event: any) => {
    seen.push(event.action);
    return event.reason === "idle" ? { action: "skip" } : undefined;
  });
  pi.on("cache_warming_decision", (event: any) => {
    seen.push(event.action);
    return undefined;
  });
  pi.on("cache_warming_decision", () => {
    throw new Error("warming policy failed");
  });
  g.warmersSeen = () => seen.splice(0);
}
