// A second "deploy" and a unique "status".
export default function (pi: any) {
  pi.registerCommand("deploy", { description: "deploy from two", handler: async (args: string) => `two deployed ${args}` });
  pi.registerCommand("status", { description: "status from two", handler: async () => "all green" });
}
