// An extension that loads others with pi's SDK, as tools that host
// sub-agents or test harnesses do: discoverAndLoadExtensions (the project's
// and the agent dir's extensions, then the paths given), then an
// ExtensionRunner over what loaded, driven directly.
import { discoverAndLoadExtensions, ExtensionRunner, ModelRegistry, ModelRuntime, SessionManager } from "@earendil-works/pi-coding-agent";
import path from "node:path";
import { fileURLToPath } from "node:url";

const folder = path.dirname(fileURLToPath(import.meta.url));

export default function (pi: any) {
  pi.registerTool({
    name: "load_others",
    label: "Load others",
    description: "Loads and drives other extensions",
    parameters: { type: "object", properties: {} },
    async execute() {
      const loaded = await discoverAndLoadExtensions(
        ["others/greeter.ts", "others/broken.ts", "others/no-factory.ts"],
        folder,
        path.join(folder, "no-agent-dir"),
      );
      const modelRuntime = await ModelRuntime.create({ refreshOnCreate: false });
      const runner = new ExtensionRunner(loaded.extensions, loaded.runtime, folder, SessionManager.inMemory(folder), new ModelRegistry(modelRuntime));
      const reported: unknown[] = [];
      runner.onError((error: any) => reported.push({ extensionPath: error.extensionPath, event: error.event, error: error.error }));
      await runner.emit({ type: "agent_start" });
      const blocked = await runner.emitToolCall({ type: "tool_call", toolCallId: "c1", toolName: "forbidden", input: {} });
      const allowed = await runner.emitToolCall({ type: "tool_call", toolCallId: "c2", toolName: "read", input: {} });
      runner.reportUnhandledMcpServers();
      runner.reportUnhandledMcpServers();
      const details = {
        extensions: loaded.extensions.map((extension: any) => extension.path),
        errors: loaded.errors.map((error: any) => ({ path: error.path, error: error.error })),
        paths: runner.getExtensionPaths(),
        commands: runner.getRegisteredCommands().map((command: any) => command.name),
        tools: runner.getAllRegisteredTools().map((tool: any) => tool.definition.name),
        handles: ["agent_start", "tool_call", "mcp_servers_change"].map((type) => runner.hasHandlers(type)),
        sawAgentStart: (globalThis as any).greeterSawAgentStart === true,
        blocked,
        allowed: allowed ?? null,
        reported,
      };
      return { content: [{ type: "text", text: "loaded" }], details };
    },
  });
}
