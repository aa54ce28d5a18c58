// Registers "lookup" again, plus a tool of its own.
export default function (pi: any) {
  const tool = (name: string, label: string, answer: string) => ({
    name,
    label,
    description: `${label} tool`,
    parameters: { type: "object", properties: {} },
    execute: async () => ({ content: [{ type: "text", text: answer }], details: { by: label } }),
  });
  pi.registerTool(tool("lookup", "late lookup", "answer from late"));
  pi.registerTool(tool("calendar", "late calendar", "calendar from late"));
}
