// An extension file that registers a command a built-in extension also registers.
export default function (pi: any) {
  pi.registerCommand("status", { description: "the file's status", handler: async () => {} });
  pi.registerTool({
    name: "file_tool",
    label: "File tool",
    description: "the file's tool",
    parameters: { type: "object", properties: {} },
    async execute() {
      return { content: [{ type: "text", text: "file" }], details: {} };
    },
  });
}
