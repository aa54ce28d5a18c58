// Content alone again, but only for the second tool: drops the structured content.
export default function (pi: any) {
  pi.on("tool_result", (event: any) =>
    event.toolCallId === "t2" ? { content: [{ type: "text", text: "plain again" }] } : undefined,
  );
}
