// Gives a firm answer; the extension after it must not be asked.
export default function (pi: any) {
  const g = globalThis as any;
  g.trustTrace ??= [];
  pi.on("project_trust", (event: any) => {
    g.trustTrace.push("decider answers");
    return { trusted: event.cwd === "projects/known" ? "yes" : "no", reason: "decided by decider" };
  });
}
