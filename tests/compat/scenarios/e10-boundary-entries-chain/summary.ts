// Appends to the draft without touching continue, then leaves everything alone.
export default function (pi: any) {
  const g = globalThis as any;
  g.boundarySeen ??= [];
  pi.on("turn_end", (event: any) => {
    g.boundarySeen.push({ handler: "summary", entries: event.entries, continue: event.continue, context: event.context });
    return { entries: [...event.entries, { type: "summary", text: "from summary" }] };
  });
  pi.on("turn_end", (event: any) => {
    g.boundarySeen.push({ handler: "watcher", entryCount: event.entries.length, continue: event.continue, context: event.context });
    return undefined;
  });
  pi.on("agent_before_settle", (event: any) => ({ entries: event.entries, continue: false }));
  g.boundarySeenTake = () => g.boundarySeen.splice(0);
}
