// Runs after the head is gone: sees the list as returned, adds a message; no second report.
export default function (pi: any) {
  const g = globalThis as any;
  g.withSystemSeen ??= [];
  pi.on("context_with_system", (event: any) => {
    g.withSystemSeen.push(event.messages.map((message: any) => message.role));
    return { messages: [...event.messages, { role: "user", content: "tail note", timestamp: 9 }] };
  });
  pi.on("context_with_system", () => undefined);
  g.withSystemSeenTake = () => g.withSystemSeen.splice(0);
}
