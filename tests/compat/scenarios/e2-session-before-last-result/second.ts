// A later opinion, then falsy results that must not erase it.
export default function (pi: any) {
  const g = globalThis as any;
  const seen: unknown[] = [];
  pi.on("session_before_switch", (event: any) => {
    seen.push(event.reason);
    return { note: "second opinion", cancel: false };
  });
  pi.on("session_before_switch", () => null);
  pi.on("session_before_switch", () => 0);
  pi.on("session_before_switch", () => {
    throw new Error("an error keeps the earlier result");
  });
  g.secondSeen = () => seen.slice();
}
