// Registers "sync" twice in one extension: the second replaces the first.
export default function (pi: any) {
  pi.registerCommand("sync", { description: "replaced sync", handler: async () => "replaced" });
  pi.registerCommand("sync", { description: "first sync", handler: async () => "first sync ran" });
}
