// A resource loader reloaded with a project trust decision, as pi's CLI
// reloads one: a first pass loads what does not need the project's trust
// (the loader's own paths, inline factories) and is shown to the decision;
// the final pass adds the project's extensions when the project is trusted,
// keeping what the first pass loaded (factories are not run twice), and a
// built-in extension, which waits for the final pass.
import * as piCodingAgent from "@earendil-works/pi-coding-agent";

const HERE = new URL(".", import.meta.url).pathname;
const shown = (path: string) => (path.startsWith(HERE) ? path.slice(HERE.length) : path);

export default function (pi: any) {
  pi.registerTool({
    name: "trust",
    label: "Trust",
    description: "Reloads a resource loader with a trust decision",
    parameters: { type: "object", properties: { trusted: { type: "boolean" } }, required: ["trusted"] },
    async execute(_id: string, params: { trusted: boolean }) {
      const log: string[] = ((globalThis as any).__trustLog = []);
      const project = `${HERE}project`;
      const agentDir = `${HERE}agent`;
      const settingsManager = piCodingAgent.SettingsManager.create(project, agentDir);
      const loader = new piCodingAgent.DefaultResourceLoader({
        cwd: project,
        agentDir,
        settingsManager,
        noSkills: true,
        noPromptTemplates: true,
        noThemes: true,
        noContextFiles: true,
        additionalExtensionPaths: [`${HERE}user/user-ext.ts`],
        extensionFactories: [
          {
            name: "inline",
            factory: (child: any) => {
              log.push("inline factory");
              child.registerCommand("inline", { description: "inline", handler: async () => {} });
            },
          },
          {
            name: "helper",
            builtin: true,
            factory: (child: any) => {
              log.push("builtin factory");
              child.registerCommand("helper", { description: "built-in", handler: async () => {} });
            },
          },
        ],
      });
      const describe = (result: any) => ({
        extensions: result.extensions.map((extension: any) => shown(extension.path)),
        errors: result.errors.map((error: any) => ({ path: shown(error.path), error: error.error })),
      });
      let before: any;
      await loader.reload({
        resolveProjectTrust: async ({ extensionsResult }: any) => {
          before = { ...describe(extensionsResult), trustedWhileAsked: settingsManager.isProjectTrusted(), log: [...log] };
          return params.trusted;
        },
      });
      const after = loader.getExtensions();
      const details = { before, after: describe(after), log, trusted: settingsManager.isProjectTrusted() };
      return { content: [{ type: "text", text: `${after.extensions.length} extensions` }], details };
    },
  });
}
