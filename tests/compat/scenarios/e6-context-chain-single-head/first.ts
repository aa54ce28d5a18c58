// Drops the oldest exchange.
export default function (pi: any) {
  pi.on("context", (event: any) => ({ messages: event.messages.slice(2) }));
}
