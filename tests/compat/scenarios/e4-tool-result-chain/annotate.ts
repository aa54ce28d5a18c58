// Each handler changes one field; later handlers see the earlier changes.
export default function (pi: any) {
  const g = globalThis as any;
  g.e4Seen ??= [];
  pi.on("tool_result", (event: any) => {
    g.e4Seen.push({ handler: "details", details: event.details, isError: event.isError });
    return { details: { ...event.details, annotated: true } };
  });
  pi.on("tool_result", (event: any) => {
    g.e4Seen.push({ handler: "error flag", details: event.details });
    return { isError: true };
  });
}
