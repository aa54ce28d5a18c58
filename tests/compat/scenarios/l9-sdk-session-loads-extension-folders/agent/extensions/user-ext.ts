// An extension of the agent folder, as `pi` users keep theirs.
export default function (pi: any) {
  pi.registerTool({
    name: "user_tool",
    label: "User tool",
    description: "A tool of the user's extension",
    parameters: { type: "object", properties: {} },
    async execute() {
      return { content: [{ type: "text", text: "user" }] };
    },
  });
  pi.registerCommand("user-cmd", { description: "A command of the user's extension", handler: async () => {} });
}
