// Replaces the content only; the structured content no longer matches and must go.
export default function (pi: any) {
  const g = globalThis as any;
  const seen: unknown[] = [];
  pi.on("tool_result", (event: any) => {
    seen.push({ before: "structuredContent" in event, value: event.structuredContent });
    return { content: [{ type: "text", text: "shortened" }] };
  });
  pi.on("tool_result", (event: any) => {
    seen.push({ after: "structuredContent" in event, content: event.content });
  });
  g.shortenSeen = () => seen.splice(0);
}
