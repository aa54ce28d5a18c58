// A healthy listener and an emitter that must not see the other listeners' failures.
export default function (pi: any) {
  const g = globalThis as any;
  const got: unknown[] = [];
  pi.events.on("boom", (data: unknown) => {
    got.push(data);
  });
  pi.registerCommand("detonate", {
    description: "emit boom from an extension",
    handler: async () => {
      pi.events.emit("boom", { from: "command" });
      return "emit returned normally";
    },
  });
  g.sturdyGot = () => got.slice();
}
