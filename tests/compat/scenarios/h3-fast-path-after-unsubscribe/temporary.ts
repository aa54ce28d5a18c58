// Listens to a few events and can drop all its handlers again.
export default function (pi: any) {
  const g = globalThis as any;
  const offs = [
    pi.on("agent_start", () => {}),
    pi.on("agent_start", () => {}),
    pi.on("tool_call", () => ({ block: true, reason: "temporary block" })),
    pi.on("input", () => ({ action: "handled" })),
  ];
  g.dropAll = () => {
    offs.forEach((off) => off());
    offs[0]();
    return "dropped";
  };
}
