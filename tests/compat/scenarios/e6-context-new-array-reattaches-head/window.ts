// Keeps only the last two conversation messages by returning a new array.
export default function (pi: any) {
  const g = globalThis as any;
  const seen: unknown[] = [];
  pi.on("context", (event: any) => {
    seen.push({ phase: "context", count: event.messages.length });
    return { messages: event.messages.slice(-2) };
  });
  pi.on("context_with_system", (event: any) => {
    seen.push({ phase: "context_with_system", head: event.messages[0], count: event.messages.length });
  });
  g.windowSeen = () => seen.splice(0);
}
