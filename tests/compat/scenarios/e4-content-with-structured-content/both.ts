// Replaces content and structured content together, then structured content alone, then content alone.
export default function (pi: any) {
  pi.on("tool_result", () => ({
    content: [{ type: "text", text: "rows: 9" }],
    structuredContent: { rows: [9] },
  }));
}
