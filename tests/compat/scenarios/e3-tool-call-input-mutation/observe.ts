// Records the input it is shown and whether every handler got the very same event object.
export default function (pi: any) {
  const g = globalThis as any;
  const seen: unknown[] = [];
  pi.on("tool_call", (event: any) => {
    seen.push({ command: event.input.command, sameEventAsRewrite: event === g.eventSeenByRewrite });
    return { block: false, reason: `saw ${event.input.command}` };
  });
  pi.on("tool_call", (event: any) => {
    seen.push({ secondHandlerSameEvent: event === g.eventSeenByRewrite });
  });
  g.observeSeen = () => seen.splice(0);
}
