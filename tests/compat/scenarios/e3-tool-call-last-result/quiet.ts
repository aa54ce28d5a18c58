// A later extension that has nothing to say.
export default function (pi: any) {
  pi.on("tool_call", () => {});
}
