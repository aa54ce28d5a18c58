// "deploy" and a literal "deploy:2".
export default function (pi: any) {
  pi.registerCommand("deploy", { description: "deploy from one", handler: async (args: string) => `one deployed ${args}` });
  pi.registerCommand("deploy:2", { description: "literal deploy:2 from one", handler: async () => "one literal" });
}
