// A later extension that reports usage and then clears the error flag with an explicit false.
export default function (pi: any) {
  const g = globalThis as any;
  g.e4Seen ??= [];
  pi.on("tool_result", (event: any) => {
    g.e4Seen.push({ handler: "usage", isError: event.isError, usage: event.usage });
    return { usage: { input: 10, output: 2 } };
  });
  pi.on("tool_result", (event: any) => {
    g.e4Seen.push({ handler: "clear", isError: event.isError, usage: event.usage, toolName: event.toolName });
    return { isError: false };
  });
  g.e4SeenTake = () => g.e4Seen.splice(0);
}
