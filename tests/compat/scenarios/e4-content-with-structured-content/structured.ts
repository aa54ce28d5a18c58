// Only structured content: content stays.
export default function (pi: any) {
  pi.on("tool_result", (event: any) => ({ structuredContent: { rows: [...event.structuredContent.rows, 10] } }));
}
