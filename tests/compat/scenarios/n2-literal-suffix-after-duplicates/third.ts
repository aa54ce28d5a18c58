// A literal "sync:2", registered after the duplicates took that name.
export default function (pi: any) {
  pi.registerCommand("sync:2", { description: "literal sync:2", handler: async () => "literal ran" });
}
