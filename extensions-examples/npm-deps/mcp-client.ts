// An MCP client (the official TypeScript SDK: Client over
// StdioClientTransport, which spawns with cross-spawn): the tool starts
// mcp-server.mjs beside this file as a child process under node, lists its
// tools, calls one, and closes the connection, which ends the child.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

const serverScript = path.join(path.dirname(fileURLToPath(import.meta.url)), "mcp-server.mjs");

/** Whether a process is still there (signal 0 only asks). */
function alive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export default function (pi: ExtensionAPI) {
  pi.registerTool({
    name: "mcp_count_words",
    label: "MCP count words",
    description: "Start a stdio MCP server, list its tools and call its count_words tool",
    parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    async execute(_id, params: { text: string }, signal) {
      const transport = new StdioClientTransport({ command: process.execPath, args: [serverScript], stderr: "pipe" });
      let stderr = "";
      transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const client = new Client({ name: "pihost-example", version: "1.0.0" });
      const options = { signal, timeout: 10_000 };
      let outcome;
      let serverOutlivedClose = false;
      try {
        await client.connect(transport, options);
        const server = client.getServerVersion();
        const { tools } = await client.listTools(undefined, options);
        const result = await client.callTool({ name: "count_words", arguments: { text: params.text } }, undefined, options);
        const content = result.content as Array<{ type: string; text?: string }>;
        outcome = {
          answer: content.map((part) => part.text ?? "").join(""),
          server: server && `${server.name} ${server.version}`,
          tools: tools.map((tool) => ({
            name: tool.name,
            description: tool.description,
            input: Object.keys((tool.inputSchema.properties ?? {}) as object).sort(),
            required: tool.inputSchema.required ?? [],
          })),
          isError: result.isError ?? false,
        };
      } finally {
        const pid = transport.pid;
        await client.close();
        serverOutlivedClose = typeof pid === "number" && alive(pid);
      }
      return { content: [{ type: "text", text: outcome.answer }], details: { ...outcome, serverOutlivedClose, stderr } };
    },
  });
}
