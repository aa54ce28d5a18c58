// Handlers that change nothing the runner counts: empty results, in-place edits, a failure.
export default function (pi: any) {
  pi.on("tool_result", () => undefined);
  pi.on("tool_result", () => ({}));
  pi.on("tool_result", () => ({ content: undefined, details: undefined }));
  pi.on("tool_result", (event: any) => {
    event.details.touched = "in place";
  });
  pi.on("tool_result", () => {
    throw new Error("result inspector failed");
  });
}
