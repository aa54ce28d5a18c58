// An extension of the project's own folder: loaded only when the project is trusted.
export default function (pi: any) {
  pi.registerTool({
    name: "project_tool",
    label: "Project tool",
    description: "A tool of the project's extension",
    parameters: { type: "object", properties: {} },
    async execute() {
      return { content: [{ type: "text", text: "project" }] };
    },
  });
}
