// Tools that change the active tool set while they run (W2).
export default function (pi: any) {
  const tool = (name: string, run: () => void, extra: Record<string, unknown> = {}) =>
    pi.registerTool({
      name,
      parameters: { type: "object", properties: {} },
      execute: async () => {
        run();
        return { content: [{ type: "text", text: `${name} ran` }], details: {}, ...extra };
      },
    });
  tool("activate", () => pi.setActiveTools([...pi.getActiveTools(), "grep", "find"]));
  // A result that already names an added tool keeps it once.
  tool("activate-again", () => pi.setActiveTools([...pi.getActiveTools(), "ls"]), { addedToolNames: ["ls", "custom"] });
  tool("swap", () => pi.setActiveTools([...pi.getActiveTools().filter((name: string) => name !== "read"), "write"]));
  tool("nothing", () => {});
}
