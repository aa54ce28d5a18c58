// Decides only for one directory; undecided elsewhere.
export default function (pi: any) {
  pi.on("project_trust", (event: any, ctx: any) =>
    event.cwd === "projects/late" ? { trusted: "yes", note: `trusted from ${ctx.mode}` } : { trusted: "undecided" },
  );
}
