// Adds a note entry and asks the agent to continue.
export default function (pi: any) {
  const g = globalThis as any;
  g.boundarySeen ??= [];
  pi.on("turn_end", (event: any) => {
    g.boundarySeen.push({ handler: "notes", entries: event.entries, continue: event.continue, context: event.context, turnIndex: event.turnIndex });
    return { entries: [{ type: "note", text: "from notes" }], continue: true };
  });
}
