// Produces an entry without a type.
export default function (pi: any) {
  pi.on("agent_before_settle", () => ({
    entries: [{ type: "note", text: "fine" }, { text: "no type here" }],
    continue: true,
  }));
}
