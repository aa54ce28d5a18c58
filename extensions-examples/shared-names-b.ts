/**
 * shared-names-b.ts — names that other extensions also use (second of two).
 *
 * Demonstrates: the same command name and shortcut as shared-names-a.ts, the
 * same tool name as hello-tool.ts, and one tool name registered twice inside
 * this extension: the second definition replaces the first but keeps its place
 * in the listing (so "twice_here" shows "second definition" and comes before
 * "greet").
 *
 * Checklist: A1, N1 (tool names), N2 (command names), N3 (shortcut keys).
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

function textResult(text: string) {
  return { content: [{ type: "text" as const, text }], details: {} };
}

export default function sharedNamesB(pi: ExtensionAPI) {
  pi.registerTool({
    name: "twice_here",
    description: "first definition",
    parameters: Type.Object({}),
    async execute() {
      return textResult("first");
    },
  });

  pi.registerTool({
    name: "greet",
    label: "Greet (shared-names-b)",
    description: "A third tool named greet",
    parameters: Type.Object({ who: Type.Optional(Type.String()) }),
    async execute(_id, params) {
      return textResult(`hello ${params.who ?? "there"} (from shared-names-b)`);
    },
  });

  pi.registerTool({
    name: "twice_here",
    label: "Twice",
    description: "second definition",
    parameters: Type.Object({ n: Type.Integer() }),
    async execute() {
      return textResult("second");
    },
  });

  pi.registerCommand("shared-review", {
    description: "Review command from shared-names-b",
    handler: async () => {},
  });

  pi.registerShortcut("ctrl+alt+r", {
    description: "Shortcut from shared-names-b",
    handler: () => {},
  });
}
