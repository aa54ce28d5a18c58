// A host that ships built-in extensions the way pi's CLI does: factories
// marked `builtin` given to a resource loader, loaded where a `builtin:<name>`
// path names them (hidden, and left out with a warning when they are
// replaceable and another extension registers the same command, tool or
// flag), an unknown name an error, and a replaceable inline factory.
import * as piCodingAgent from "@earendil-works/pi-coding-agent";

const FILES = new URL("./files", import.meta.url).pathname;

const shown = (path: string) => (path.startsWith(FILES) ? `files${path.slice(FILES.length)}` : path);

export default function (pi: any) {
  pi.registerTool({
    name: "load_builtins",
    label: "Load built-ins",
    description: "Loads built-in extensions in a resource loader",
    parameters: { type: "object", properties: { disabled: { type: "boolean" } } },
    async execute(_id: string, params: { disabled?: boolean }) {
      const loaded: string[] = [];
      const builtin = (name: string, register: (child: any) => void, replaceable = false) => ({
        name,
        builtin: true,
        replaceable,
        factory: (child: any) => {
          loaded.push(name);
          register(child);
        },
      });
      // Turned off two ways: the loader's option, and the settings' `-builtin:<name>` pattern.
      const settingsManager = piCodingAgent.SettingsManager.inMemory(params.disabled ? { extensions: ["-builtin:flags"] } : {});
      const loader = new piCodingAgent.DefaultResourceLoader({
        cwd: FILES,
        agentDir: `${FILES}/no-agent`,
        settingsManager,
        noSkills: true,
        noPromptTemplates: true,
        noThemes: true,
        noContextFiles: true,
        disabledBuiltinExtensions: params.disabled ? ["notes"] : undefined,
        additionalExtensionPaths: ["builtin:status", `${FILES}/status.ts`, "builtin:notes", "builtin:flags", "builtin:missing"],
        extensionFactories: [
          builtin("status", (child) => child.registerCommand("status", { description: "built-in status", handler: async () => {} }), true),
          builtin("notes", (child) => child.registerCommand("notes", { description: "built-in notes", handler: async () => {} }), true),
          builtin("flags", (child) => child.registerFlag("verbose", { type: "boolean", default: false, description: "built-in flag" })),
          builtin("unused", (child) => child.registerCommand("unused", { description: "never named", handler: async () => {} })),
          { name: "inline-tool", replaceable: true, factory: (child: any) => child.registerTool({ name: "file_tool", label: "Inline", description: "inline", parameters: { type: "object", properties: {} }, async execute() { return { content: [], details: {} }; } }) },
          { name: "inline-keep", factory: (child: any) => child.registerCommand("keep", { description: "kept", handler: async () => {} }) },
        ],
      });
      await loader.reload();
      const result = loader.getExtensions();
      const details = {
        loaded,
        extensions: result.extensions.map((extension: any) => ({
          path: shown(extension.path),
          hidden: extension.hidden ?? null,
          replaceable: extension.replaceable ?? null,
          commands: [...extension.commands.keys()],
          tools: [...extension.tools.keys()],
          flags: [...extension.flags.keys()],
        })),
        errors: result.errors.map((error: any) => ({ path: shown(error.path), error: error.error })),
        warnings: (result.warnings ?? []).map((warning: any) => ({ path: shown(warning.path), warning: warning.warning })),
      };
      return { content: [{ type: "text", text: `${details.extensions.length} extensions` }], details };
    },
  });
}
