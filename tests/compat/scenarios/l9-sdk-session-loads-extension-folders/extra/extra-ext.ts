// An extension given to the resource loader by path (additionalExtensionPaths), relative to its cwd.
export default function (pi: any) {
  pi.registerTool({
    name: "extra_tool",
    label: "Extra tool",
    description: "A tool of an extension given by path",
    parameters: { type: "object", properties: {} },
    async execute() {
      return { content: [{ type: "text", text: "extra" }] };
    },
  });
}
