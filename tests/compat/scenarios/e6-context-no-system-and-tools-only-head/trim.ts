// Drops the first visible message, except for transcripts marked "clear" (drops all) or "fail" (throws).
export default function (pi: any) {
  pi.on("context", (event: any) => {
    const last = event.messages[event.messages.length - 1];
    if (last?.content === "fail") throw new Error("trimmer failed");
    if (last?.content === "clear") return { messages: [] };
    return { messages: event.messages.slice(1) };
  });
  pi.on("context", (event: any) => ({ messages: [...event.messages, { role: "user", content: "added after", timestamp: 99 }] }));
}
