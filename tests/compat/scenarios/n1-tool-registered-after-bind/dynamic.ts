// Registers tools only when a command runs, after binding.
export default function (pi: any) {
  const make = (name: string, text: string) => ({
    name,
    label: name,
    description: text,
    parameters: { type: "object", properties: {} },
    execute: async () => ({ content: [{ type: "text", text }], details: {} }),
  });
  pi.registerCommand("add-tools", {
    description: "register tools late",
    handler: async () => {
      pi.registerTool(make("search", "dynamic search"));
      pi.registerTool(make("summarize", "dynamic summarize"));
      return "registered";
    },
  });
}
