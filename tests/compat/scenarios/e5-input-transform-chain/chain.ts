// Transforms that chain: upper-case, then a continue, then an exclamation mark.
export default function (pi: any) {
  const g = globalThis as any;
  const seen: unknown[] = [];
  pi.on("input", (event: any) => {
    seen.push({ text: event.text, source: event.source, streamingBehavior: event.streamingBehavior });
    if (event.text === "same") return { action: "transform", text: "same" };
    if (event.text === "round trip") return { action: "transform", text: "ROUND TRIP" };
    return { action: "transform", text: event.text.toUpperCase() };
  });
  pi.on("input", (event: any) => {
    seen.push({ text: event.text });
    if (event.text === "ROUND TRIP") return { action: "transform", text: "round trip" };
    return { action: "continue" };
  });
  pi.on("input", (event: any) => {
    if (event.text === "same" || event.text === "round trip") return undefined;
    return { action: "transform", text: `${event.text}!` };
  });
  g.chainSeen = () => seen.splice(0);
}
