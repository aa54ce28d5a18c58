// Several non-blocking opinions; the last non-empty one is the dispatch result.
export default function (pi: any) {
  pi.on("tool_call", () => ({ reason: "first opinion" }));
  pi.on("tool_call", () => undefined);
  pi.on("tool_call", () => ({ block: false, reason: "third opinion" }));
  pi.on("tool_call", () => null);
}
