// Never decides.
export default function (pi: any) {
  pi.on("project_trust", () => ({ trusted: "undecided" }));
  pi.on("project_trust", async () => ({ trusted: "undecided", reason: "still thinking" }));
}
