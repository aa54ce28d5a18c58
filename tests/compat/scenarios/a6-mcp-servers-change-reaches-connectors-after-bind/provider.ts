// Registers one server while loading and more once bound.
export default function (pi: any) {
  pi.registerMcpServer("notes", { command: "notes-server" });
  (globalThis as any).providerChange = async () => {
    pi.registerMcpServer("search", { url: "https://search.example.com/mcp" });
    pi.registerMcpServer("notes", { command: "notes-server", args: ["--v2"] });
    pi.unregisterMcpServer("notes");
    pi.unregisterMcpServer("never-registered");
    await new Promise((resolve) => setTimeout(resolve, 0));
    return pi.getMcpServers().map((server: any) => server.name);
  };
}
