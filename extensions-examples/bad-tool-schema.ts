/**
 * bad-tool-schema.ts — registers a tool that has no `parameters`.
 *
 * Demonstrates: registerTool rejects a tool without an object parameter schema
 * by throwing `Tool "<name>" registered by extension "<path>" must define an
 * object parameter schema.`; the throw escapes the factory, so the whole
 * extension fails (its earlier command is discarded) and the error entry reads
 * `Failed to load extension: Tool "...` with that exact text.
 *
 * Checklist: A4 (tool schema validation text), L4, A6.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function badToolSchema(pi: ExtensionAPI) {
  pi.registerCommand("bad-tool-schema-should-not-appear", {
    description: "Registered before the invalid tool",
    handler: async () => {},
  });

  const toolWithoutSchema = {
    name: "schema_less",
    label: "Schema-less",
    description: "A tool that forgot its parameters",
    async execute() {
      return { content: [{ type: "text" as const, text: "never" }], details: {} };
    },
  };
  // Deliberately invalid: the cast hides the missing `parameters` from the type checker.
  pi.registerTool(toolWithoutSchema as unknown as Parameters<ExtensionAPI["registerTool"]>[0]);
}
