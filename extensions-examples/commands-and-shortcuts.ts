/**
 * commands-and-shortcuts.ts — the non-tool registration surface.
 *
 * Demonstrates: two commands (one with argument completions), a shortcut with a
 * description and one without, two message renderers, an entry renderer, two
 * tool renderers (counted, not replaced), and a markdown transformer that is
 * registered twice (an extension has a single transformer slot).
 *
 * Checklist: A1 (registerCommand, registerShortcut, registerMessageRenderer,
 * registerEntryRenderer, registerToolRenderer, registerMarkdownTransformer).
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Text } from "@earendil-works/pi-tui";

const ENVIRONMENTS = ["dev", "staging", "prod"] as const;

export default function commandsAndShortcuts(pi: ExtensionAPI) {
  pi.registerCommand("example-stats", {
    description: "Show how many session entries exist",
    handler: async (_args, ctx) => {
      ctx.ui.notify(`${ctx.sessionManager.getEntries().length} entries`, "info");
    },
  });

  pi.registerCommand("example-deploy", {
    description: "Pretend to deploy to an environment",
    getArgumentCompletions: (prefix: string) => {
      const matches = ENVIRONMENTS.filter((env) => env.startsWith(prefix)).map((env) => ({ value: env, label: env }));
      return matches.length > 0 ? matches : null;
    },
    handler: async (args, ctx) => {
      ctx.ui.notify(`would deploy to ${args || "dev"}`, "info");
    },
  });

  pi.registerShortcut("ctrl+shift+p", {
    description: "Show a notification from commands-and-shortcuts",
    handler: async (ctx) => {
      ctx.ui.notify("ctrl+shift+p pressed", "info");
    },
  });
  pi.registerShortcut("alt+x", {
    handler: () => {},
  });

  pi.registerMessageRenderer("example-note", (message, _options, theme) => {
    return new Text(theme.fg("accent", String(message.content)), 0, 0);
  });
  pi.registerMessageRenderer("example-alert", (message) => new Text(`! ${String(message.content)}`, 0, 0));

  pi.registerEntryRenderer("example-card", (entry, { expanded }) => {
    const body = expanded ? JSON.stringify(entry.data, null, 2) : "(collapsed)";
    return new Text(body, 1, 0);
  });

  const compactNames = new Set(["greet", "cjs_echo"]);
  pi.registerToolRenderer((toolName, next) => {
    const fallback = next();
    if (fallback || !compactNames.has(toolName)) return fallback;
    return { renderCall: () => new Text(`[${toolName}]`, 0, 0) };
  });
  pi.registerToolRenderer((_toolName, next) => next());

  // The second registration replaces the first: one transformer per extension.
  pi.registerMarkdownTransformer((markdown) => markdown.replaceAll("(c)", "©"));
  pi.registerMarkdownTransformer(
    (markdown, { isStreaming }) => (isStreaming ? markdown : markdown.replaceAll("(tm)", "™")),
    { messageTypes: ["assistant", "custom"] },
  );
}
