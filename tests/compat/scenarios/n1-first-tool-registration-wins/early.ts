// Registers "lookup" first, and "notes" twice within itself.
function textTool(name: string, label: string, answer: string) {
  return {
    name,
    label,
    description: `${label} tool`,
    parameters: { type: "object", properties: {} },
    async execute() {
      return { content: [{ type: "text", text: answer }], details: { by: label } };
    },
  };
}

export default function (pi: any) {
  pi.registerTool(textTool("lookup", "early lookup", "answer from early"));
  pi.registerTool(textTool("notes", "first notes", "first notes definition"));
  pi.registerTool(textTool("notes", "second notes", "second notes definition"));
}
