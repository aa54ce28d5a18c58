// A second "sync".
export default function (pi: any) {
  pi.registerCommand("sync", { description: "second sync", handler: async () => "second sync ran" });
}
