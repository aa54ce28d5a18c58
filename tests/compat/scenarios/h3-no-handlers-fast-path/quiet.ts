// Registers a tool and a command but listens to no events at all.
export default function (pi: any) {
  pi.registerCommand("noop", { description: "does nothing", handler: async () => "noop ran" });
}
