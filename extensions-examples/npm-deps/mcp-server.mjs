// A small MCP server on stdio (the official TypeScript SDK's McpServer and
// StdioServerTransport, with zod for its tool's input), started by
// mcp-client.ts under node. Its one tool counts the words of a text.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "pihost-word-counter", version: "1.0.0" });

server.registerTool(
  "count_words",
  {
    description: "Count the words of a text",
    inputSchema: { text: z.string(), minLength: z.number().int().optional() },
  },
  async ({ text, minLength = 1 }) => {
    const words = text.split(/\s+/).filter((word) => word.length >= minLength);
    return { content: [{ type: "text", text: `${words.length} words` }] };
  },
);

await server.connect(new StdioServerTransport());
