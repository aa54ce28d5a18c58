// Owns "search" from the start.
export default function (pi: any) {
  pi.registerTool({
    name: "search",
    label: "Search",
    description: "base search",
    parameters: { type: "object", properties: {} },
    execute: async () => ({ content: [{ type: "text", text: "base search" }], details: {} }),
  });
}
