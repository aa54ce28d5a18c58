/**
 * shared-names-a.ts — names that other extensions also use (first of two).
 *
 * Demonstrates: the loader keeps every extension's registrations separately,
 * even when names collide: tool "greet" (also hello-tool.ts), command
 * "shared-review" and shortcut "ctrl+alt+r" (also shared-names-b.ts), and flag
 * "example-mode" (also flags.ts, loaded earlier, default "fast"). This
 * extension's own default "from-shared-a" does not replace the committed
 * value, and getFlag shows the value already in effect.
 *
 * Checklist: A1, A9 (first flag default wins across extensions), N1/N2/N3
 * (conflicts are resolved later by the runner, not by the loader).
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

export default function sharedNamesA(pi: ExtensionAPI) {
  pi.registerTool({
    name: "greet",
    label: "Greet (shared-names-a)",
    description: "A second tool named greet; hello-tool.ts registered one first",
    parameters: Type.Object({ who: Type.String() }),
    async execute(_id, params) {
      return { content: [{ type: "text", text: `hi ${params.who} (from shared-names-a)` }], details: {} };
    },
  });

  pi.registerCommand("shared-review", {
    description: "Review command from shared-names-a",
    handler: async () => {},
  });

  pi.registerShortcut("ctrl+alt+r", {
    description: "Shortcut from shared-names-a",
    handler: () => {},
  });

  pi.registerFlag("example-mode", {
    type: "string",
    default: "from-shared-a",
    description: "Also registered by flags.ts",
  });

  const seen = pi.getFlag("example-mode");
  pi.registerCommand("shared-flag-observed", {
    description: `example-mode as seen by shared-names-a: ${seen === undefined ? "undefined" : JSON.stringify(seen)}`,
    handler: async () => {},
  });
}
