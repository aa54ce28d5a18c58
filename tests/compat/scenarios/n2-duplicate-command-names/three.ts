// A third "deploy".
export default function (pi: any) {
  pi.registerCommand("deploy", { description: "deploy from three", handler: async (args: string) => `three deployed ${args}` });
}
