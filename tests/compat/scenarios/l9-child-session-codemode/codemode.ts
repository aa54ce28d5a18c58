// A child session with pi's codemode extension: the scripted model (pi-ai's
// faux provider) runs a codemode script that calls a tool of `codemode`
// exposure (reachable only from scripts) and an active direct tool, keeps a
// value with store(), and returns. What the model was declared before each
// request (codemode's description as its prepareLoadout hook wrote it, the
// declarations it hides in mode "only"), the script's result as the model
// got it, and the store entry the session kept are compared.
import { createProvider, fauxAssistantMessage, fauxToolCall, registerFauxProvider, stream, streamSimple } from "@earendil-works/pi-ai";
import * as piCodingAgent from "@earendil-works/pi-coding-agent";

const PROVIDER = "codemode-faux";
const WALL_TIME = /Wall time \d+\.\d seconds/g;
/** Where pi's codemode documentation lies differs between installs. */
const DOCS_PATH = /[^\s"'`]*[/\\]docs[/\\]codemode\.md/g;

const textOf = (message: any) =>
  typeof message?.content === "string" ? message.content : (message?.content ?? []).map((block: any) => block.text ?? block.type).join("");

/** What a request declared: the tools its system messages added, and codemode's description's first lines. */
function declared(context: any) {
  const added = (context.messages ?? [])
    .filter((message: any) => message.role === "system")
    .flatMap((message: any) => message.toolsAdded ?? []);
  const codemode = added.filter((tool: any) => tool.name === "codemode").pop();
  return { declared: added.map((tool: any) => tool.name), codemodeDescription: codemode?.description?.replace(DOCS_PATH, "<docs>/codemode.md").split("\n").slice(0, 14) ?? null };
}

export default function (pi: any) {
  const faux = registerFauxProvider({ api: "codemode-faux-api", provider: PROVIDER, models: [{ id: "coder-1", reasoning: false }] });
  let runtime: Promise<any> | undefined;
  const sharedRuntime = () => {
    runtime ??= piCodingAgent.ModelRuntime.create().then((created: any) => {
      created.registerNativeProvider(
        createProvider({
          id: PROVIDER,
          name: "Codemode Faux",
          auth: { apiKey: { name: "Key", resolve: async () => ({ auth: { apiKey: "key" }, source: "extension" }) } },
          models: faux.models,
          api: { stream, streamSimple },
        }),
      );
      return created.refresh({ allowNetwork: false }).then(() => created);
    });
    return runtime;
  };

  pi.registerTool({
    name: "run_codemode_child",
    label: "Run codemode child",
    description: "Runs a child session whose model writes a codemode script",
    parameters: { type: "object", properties: { mode: { type: "string" } }, required: ["mode"] },
    async execute(_id: string, params: { mode: string }) {
      const requests: any[] = [];
      const ran: string[] = [];
      const tools = (child: any) => {
        child.registerTool({
          name: "lookup",
          label: "Lookup",
          description: "Looks a key up in the project's registry.",
          exposure: "codemode",
          parameters: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
          async execute(_toolCallId: string, args: any) {
            ran.push(`lookup ${args.key}`);
            return { content: [{ type: "text", text: `${args.key}=42` }], details: {} };
          },
        });
        child.registerTool({
          name: "note",
          label: "Note",
          description: "Writes a note.",
          parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
          async execute(_toolCallId: string, args: any) {
            ran.push(`note ${args.text}`);
            return { content: [{ type: "text", text: `noted: ${args.text}` }], details: {} };
          },
        });
      };
      const script = [
        "const value = await tools.lookup({ key: 'answer' });",
        "const noted = await tools.note({ text: value });",
        "store('last', { value });",
        "console.log('looked up', value);",
        "return { value, noted, tools: ALL_TOOLS.map((tool) => tool.name).sort() };",
      ].join("\n");
      faux.setResponses([
        (context: any) => {
          requests.push(declared(context));
          return fauxAssistantMessage([fauxToolCall("codemode", { code: script }, { id: "script-1" })], { stopReason: "toolUse" });
        },
        (context: any) => {
          requests.push(declared(context));
          const result = context.messages.filter((message: any) => message.role === "toolResult").pop();
          return fauxAssistantMessage(`script said: ${textOf(result).replace(WALL_TIME, "Wall time <t> seconds")}`);
        },
      ]);
      const modelRuntime = await sharedRuntime();
      const cwd = "/";
      const settingsManager = piCodingAgent.SettingsManager.inMemory({ codemode: { mode: params.mode } });
      const loader = new piCodingAgent.DefaultResourceLoader({
        cwd,
        agentDir: piCodingAgent.getAgentDir(),
        settingsManager,
        noExtensions: true,
        noSkills: true,
        noPromptTemplates: true,
        noThemes: true,
        noContextFiles: true,
        systemPrompt: "You are a child agent.",
        extensionFactories: [
          { name: "codemode", factory: piCodingAgent.createCodemodeExtension() },
          { name: "registry-tools", factory: tools },
        ],
      });
      await loader.reload();
      const resolved = piCodingAgent.resolveCliModel({ cliModel: `${PROVIDER}/coder-1`, modelRuntime });
      if (resolved.error) throw new Error(resolved.error);
      const { session } = await piCodingAgent.createAgentSession({
        cwd,
        modelRuntime,
        model: resolved.model,
        tools: ["codemode", "note", "lookup"],
        resourceLoader: loader,
        sessionManager: piCodingAgent.SessionManager.inMemory(cwd),
        settingsManager,
      });
      const errors: string[] = [];
      await session.bindExtensions({ mode: "print", onError: (error: any) => errors.push(`${error.event} ${error.error}`) });
      try {
        await session.prompt("use codemode");
        const stored = session.sessionManager
          .getEntries()
          .filter((entry: any) => entry.type === "custom")
          .map((entry: any) => ({ customType: entry.customType, data: entry.data }));
        const last = session.messages[session.messages.length - 1];
        return {
          content: [{ type: "text", text: textOf(last) }],
          details: { requests, ran, stored, errors, active: session.getActiveToolNames() },
        };
      } finally {
        session.dispose();
      }
    },
  });
}
