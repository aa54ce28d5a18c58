// Appends a reminder in place; records what it was shown.
export default function (pi: any) {
  const g = globalThis as any;
  const seen: unknown[] = [];
  pi.on("context", (event: any) => {
    seen.push(event.messages.map((message: any) => `${message.role}@${message.timestamp}`));
    event.messages.push({ role: "user", content: "reminder: be careful", timestamp: 8 });
  });
  g.appendSeen = () => seen.splice(0);
}
