// Subscribes to the shared bus once while loading and once more from a command.
export default function (pi: any) {
  const g = globalThis as any;
  const heard: string[] = [];
  pi.events.on("news", (data: any) => {
    heard.push(`load-time subscriber got ${data.n}`);
  });
  pi.registerCommand("subscribe", {
    description: "listen to news after binding",
    handler: async () => {
      pi.events.on("news", (data: any) => {
        heard.push(`command subscriber got ${data.n}`);
      });
      return "subscribed";
    },
  });
  g.heardSoFar = () => heard.slice();
}
