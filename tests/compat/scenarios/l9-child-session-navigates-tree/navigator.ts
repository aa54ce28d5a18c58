// A child session's tree navigated as sub-agent extensions navigate theirs:
// three prompts answered by a scripted model (pi-ai's faux provider), then
// AgentSession.navigateTree to an earlier entry, with hooks loaded into the
// child (inline factories) that watch, relabel, cancel or summarize. Entry
// ids are random, so entries are named by their place.
import { createProvider, fauxAssistantMessage, registerFauxProvider, stream, streamSimple } from "@earendil-works/pi-ai";
import * as piCodingAgent from "@earendil-works/pi-coding-agent";

const PROVIDER = "tree-faux";

const textOf = (message: any) =>
  typeof message.content === "string"
    ? message.content
    : Array.isArray(message.content)
      ? message.content.map((block: any) => block.text ?? block.type).join("")
      : (message.summary ?? "");

export default function (pi: any) {
  const faux = registerFauxProvider({
    api: "tree-faux-api",
    provider: PROVIDER,
    models: [{ id: "child-1", reasoning: false }],
  });
  let runtime: Promise<any> | undefined;
  const sharedRuntime = () => {
    runtime ??= piCodingAgent.ModelRuntime.create().then((created: any) => {
      created.registerNativeProvider(
        createProvider({
          id: PROVIDER,
          name: "Tree Faux",
          auth: { apiKey: { name: "Child key", resolve: async () => ({ auth: { apiKey: "child-key" }, source: "extension" }) } },
          models: faux.models,
          api: { stream, streamSimple },
        }),
      );
      return created.refresh({ allowNetwork: false }).then(() => created);
    });
    return runtime;
  };

  pi.registerTool({
    name: "navigate_child",
    label: "Navigate child",
    description: "Runs a child session and navigates its tree",
    parameters: { type: "object", properties: { variant: { type: "string" } }, required: ["variant"] },
    async execute(_id: string, params: { variant: string }) {
      const { variant } = params;
      const log: string[] = [];
      let session: any;
      const place = (id: string | null | undefined) => {
        if (id === null || id === undefined) return String(id);
        const entries = session.sessionManager.getEntries();
        const index = entries.findIndex((entry: any) => entry.id === id);
        const entry = entries[index];
        return index < 0 ? `unknown` : `#${index} ${entry.type}${entry.message ? `/${entry.message.role}` : ""}`;
      };
      const hooks = (child: any) => {
        child.on("session_before_tree", (event: any) => {
          const p = event.preparation;
          log.push(
            `before_tree target=${place(p.targetId)} oldLeaf=${place(p.oldLeafId)} ancestor=${place(p.commonAncestorId)} ` +
              `summarize=${p.entriesToSummarize.map((entry: any) => place(entry.id)).join(",")} wants=${p.userWantsSummary} ` +
              `instructions=${p.customInstructions} replace=${p.replaceInstructions} label=${p.label} ` +
              `signal=${event.signal instanceof AbortSignal && !event.signal.aborted} compacting=${session.isCompacting} idle=${session.isIdle}`,
          );
          if (variant === "cancel") return { cancel: true };
          if (variant === "relabel") return { label: "from the hook", customInstructions: "Hook's instructions." };
          if (variant === "extension") return { summary: { summary: "The extension's summary.", details: { by: "hook" } } };
          // Aborting the session aborts the branch summary (not awaited: abort waits for the navigation to end).
          if (variant === "abort") void session.abort();
          return undefined;
        });
        child.on("session_tree", (event: any) => {
          const entry = event.summaryEntry;
          log.push(
            `tree newLeaf=${place(event.newLeafId)} oldLeaf=${place(event.oldLeafId)} fromExtension=${event.fromExtension} ` +
              `summary=${entry ? `${entry.type} from=${place(entry.fromId)} fromHook=${entry.fromHook} details=${JSON.stringify(entry.details)}` : "none"} ` +
              `compacting=${session.isCompacting}`,
          );
          if (entry) log.push(`summary ${entry.summary}`);
        });
      };
      const modelRuntime = await sharedRuntime();
      const cwd = "/";
      faux.setResponses([
        fauxAssistantMessage("first answer"),
        fauxAssistantMessage("second answer"),
        fauxAssistantMessage("third answer"),
        fauxAssistantMessage("## Goal\nThe abandoned branch, summarized."),
      ]);
      const settingsManager = piCodingAgent.SettingsManager.inMemory();
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
        extensionFactories: [{ name: "tree-hooks", factory: hooks }],
      });
      await loader.reload();
      const resolved = piCodingAgent.resolveCliModel({ cliModel: `${PROVIDER}/child-1`, modelRuntime });
      if (resolved.error) throw new Error(resolved.error);
      ({ session } = await piCodingAgent.createAgentSession({
        cwd,
        modelRuntime,
        model: resolved.model,
        tools: [],
        resourceLoader: loader,
        sessionManager: piCodingAgent.SessionManager.inMemory(cwd),
        settingsManager,
      }));
      await session.bindExtensions({ mode: "print", onError: (error: any) => log.push(`onError ${error.event} ${error.error}`) });
      try {
        await session.prompt("first question");
        await session.prompt("second question");
        await session.prompt("third question");
        const entries = session.sessionManager.getEntries();
        const users = entries.filter((entry: any) => entry.type === "message" && entry.message.role === "user");
        const assistants = entries.filter((entry: any) => entry.type === "message" && entry.message.role === "assistant");
        const targets: Record<string, [string, any]> = {
          plain: [assistants[0].id, {}],
          user: [users[1].id, {}],
          root: [users[0].id, {}],
          same: [session.sessionManager.getLeafId(), {}],
          missing: ["no-such-entry", {}],
          summarize: [assistants[0].id, { summarize: true, customInstructions: "Keep the answers.", label: "checkpoint" }],
          "summarize-user": [users[1].id, { summarize: true, replaceInstructions: true, customInstructions: "Only the questions." }],
          relabel: [assistants[0].id, { label: "asked" }],
          cancel: [assistants[0].id, { summarize: true }],
          extension: [assistants[0].id, { summarize: true, label: "hooked" }],
          abort: [assistants[0].id, { summarize: true }],
        };
        const [targetId, options] = targets[variant];
        let result: any;
        try {
          const outcome = await session.navigateTree(targetId, options);
          result = {
            cancelled: outcome.cancelled,
            aborted: outcome.aborted,
            editorText: outcome.editorText,
            summaryEntry: outcome.summaryEntry ? `${outcome.summaryEntry.type} ${place(outcome.summaryEntry.id)}` : undefined,
          };
        } catch (error: any) {
          result = { error: error.message };
        }
        const labels = session.sessionManager
          .getEntries()
          .flatMap((entry: any) => (session.sessionManager.getLabel(entry.id) ? [`${place(entry.id)}=${session.sessionManager.getLabel(entry.id)}`] : []));
        const details = {
          result,
          log,
          leaf: place(session.sessionManager.getLeafId()),
          labels,
          transcript: session.messages.map((message: any) => `${message.role}: ${textOf(message).slice(0, 60)}`),
          entries: session.sessionManager.getEntries().map((entry: any) => entry.type),
          idle: session.isIdle,
          compacting: session.isCompacting,
        };
        return { content: [{ type: "text", text: variant }], details };
      } finally {
        session.dispose();
      }
    },
  });
}
