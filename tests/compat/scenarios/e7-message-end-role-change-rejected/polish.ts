// Legitimate edits that keep the role; records what each handler was shown.
export default function (pi: any) {
  const g = globalThis as any;
  const seen: unknown[] = [];
  let previousEvent: unknown;
  pi.on("message_end", (event: any) => {
    seen.push({ role: event.message.role, text: event.message.content[0].text, extra: event.turn });
    previousEvent = event;
    return { message: { ...event.message, content: [{ type: "text", text: `${event.message.content[0].text} (polished)` }] } };
  });
  pi.on("message_end", (event: any) => {
    seen.push({ text: event.message.content[0].text, freshEventObject: event !== previousEvent, extra: event.turn });
    return { message: { ...event.message, stopReason: "stop" } };
  });
  g.polishSeen = () => seen.splice(0);
}
