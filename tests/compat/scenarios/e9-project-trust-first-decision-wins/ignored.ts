// Never reached once decider answered.
export default function (pi: any) {
  const g = globalThis as any;
  g.trustTrace ??= [];
  pi.on("project_trust", () => {
    g.trustTrace.push("ignored was asked");
    return { trusted: "yes" };
  });
  g.trustTraceTake = () => g.trustTrace.splice(0);
}
