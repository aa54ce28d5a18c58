// An SDK session whose resource loader loads extensions as pi's default one
// does (no noExtensions): the agent folder's extension files and, when the
// project is trusted, the project's; then the session runs them.
import * as piCodingAgent from "@earendil-works/pi-coding-agent";

const PROJECT = new URL("./project", import.meta.url).pathname;
const AGENT_DIR = new URL("./agent", import.meta.url).pathname;
const relative = (path: string) => (path.startsWith("<") ? path : path.slice(path.indexOf("/l9-sdk-session-loads-extension-folders/") + 40));

export default function (pi: any) {
  pi.registerTool({
    name: "open_session",
    label: "Open session",
    description: "Opens an SDK session that loads the default extension folders",
    parameters: { type: "object", properties: { trusted: { type: "boolean" } }, required: ["trusted"] },
    async execute(_id: string, params: { trusted: boolean }) {
      const settingsManager = piCodingAgent.SettingsManager.inMemory();
      settingsManager.setProjectTrusted(params.trusted);
      const loader = new piCodingAgent.DefaultResourceLoader({
        cwd: PROJECT,
        agentDir: AGENT_DIR,
        settingsManager,
        noSkills: true,
        noPromptTemplates: true,
        noThemes: true,
        noContextFiles: true,
        systemPrompt: "You are a session of the SDK.",
        additionalExtensionPaths: ["../extra/extra-ext.ts"],
        extensionFactories: [{ name: "inline-tools", factory: (child: any) => child.registerTool({ name: "inline_tool", label: "Inline", description: "An inline extension's tool", parameters: { type: "object", properties: {} }, async execute() { return { content: [] }; } }) }],
      });
      await loader.reload();
      const loaded = loader.getExtensions();
      const { session } = await piCodingAgent.createAgentSession({
        cwd: PROJECT,
        agentDir: AGENT_DIR,
        resourceLoader: loader,
        sessionManager: piCodingAgent.SessionManager.inMemory(PROJECT),
        settingsManager,
      });
      (globalThis as any).__folderExtensionStarted = 0;
      await session.bindExtensions({ mode: "print" });
      const details = {
        extensions: loaded.extensions.map((extension: any) => relative(extension.path)),
        errors: loaded.errors.map((error: any) => ({ path: relative(error.path), error: error.error })),
        activeTools: session.getActiveToolNames(),
        tools: session
          .getAllTools()
          .filter((tool: any) => tool.sourceInfo?.source !== "builtin")
          .map((tool: any) => ({
            name: tool.name,
            path: relative(tool.sourceInfo?.path ?? ""),
            source: tool.sourceInfo?.source,
            scope: tool.sourceInfo?.scope,
            origin: tool.sourceInfo?.origin,
            baseDir: tool.sourceInfo?.baseDir === undefined ? undefined : relative(`${tool.sourceInfo.baseDir}/`),
          })),
        commands: session.extensionRunner.getRegisteredCommands().map((command: any) => command.invocationName),
        started: (globalThis as any).__folderExtensionStarted,
      };
      session.dispose();
      return { content: [{ type: "text", text: details.extensions.join(", ") }], details };
    },
  });
}
