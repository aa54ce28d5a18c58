// A later extension: sees the trimmed conversation (still no system messages) and appends a note.
export default function (pi: any) {
  const g = globalThis as any;
  const seen: unknown[] = [];
  pi.on("context", (event: any) => {
    seen.push(event.messages.map((message: any) => `${message.role}@${message.timestamp}`));
    return { messages: [...event.messages, { role: "user", content: "note from second", timestamp: 8 }] };
  });
  pi.on("context", (event: any) => {
    seen.push(event.messages.map((message: any) => `${message.role}@${message.timestamp}`));
    return { messages: [...event.messages] };
  });
  g.secondSeen = () => seen.splice(0);
}
