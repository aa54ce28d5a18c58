// A context_with_system handler that throws away every system message.
export default function (pi: any) {
  const g = globalThis as any;
  g.withSystemSeen ??= [];
  pi.on("context_with_system", (event: any) => {
    g.withSystemSeen.push(event.messages.map((message: any) => message.role));
    return { messages: event.messages.filter((message: any) => message.role !== "system") };
  });
}
