// A long child session compacted without being asked, as pi compacts its
// own: after an answer that left the context past the settings' threshold,
// within a run before the next answer, and on a context overflow (the
// failed answer is set aside, the session compacted, the turn retried once).
// A scripted model (pi-ai's faux provider, with a small context window)
// writes the answers and the summaries; a hook loaded into the child logs
// what it is told. Entry ids are random, so entries are named by their place.
import { createProvider, fauxAssistantMessage, fauxToolCall, registerFauxProvider, stream, streamSimple } from "@earendil-works/pi-ai";
import * as piCodingAgent from "@earendil-works/pi-coding-agent";

const PROVIDER = "auto-compact-faux";
const OVERFLOW = "prompt is too long: 213462 tokens > 200000 maximum";

const textOf = (message: any) =>
  typeof message.content === "string"
    ? message.content
    : Array.isArray(message.content)
      ? message.content.map((block: any) => block.text ?? block.name ?? block.type).join("")
      : (message.summary ?? "");

export default function (pi: any) {
  const faux = registerFauxProvider({
    api: "auto-compact-faux-api",
    provider: PROVIDER,
    models: [{ id: "small-1", reasoning: false, contextWindow: 400, maxTokens: 100 }],
  });
  let runtime: Promise<any> | undefined;
  const sharedRuntime = () => {
    runtime ??= piCodingAgent.ModelRuntime.create().then((created: any) => {
      created.registerNativeProvider(
        createProvider({
          id: PROVIDER,
          name: "Auto Compact Faux",
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
    name: "long_child",
    label: "Long child",
    description: "Runs a child session long enough to need compaction",
    parameters: { type: "object", properties: { variant: { type: "string" } }, required: ["variant"] },
    async execute(_id: string, params: { variant: string }) {
      const log: string[] = [];
      let session: any;
      const place = (id: string | undefined) => {
        const entries = session.sessionManager.getEntries();
        const index = entries.findIndex((entry: any) => entry.id === id);
        const entry = entries[index];
        return index < 0 ? id : `#${index} ${entry.type}${entry.message ? `/${entry.message.role}` : ""}`;
      };
      const hooks = (child: any) => {
        child.on("session_before_compact", (event: any) => {
          const p = event.preparation;
          log.push(
            `before_compact ${event.reason} willRetry=${event.willRetry} summarize=${p.messagesToSummarize.map((m: any) => m.role).join(",")} ` +
              `split=${p.isSplitTurn} tokensBefore=${p.tokensBefore} previous=${p.previousSummary !== undefined} kept=${place(p.firstKeptEntryId)}`,
          );
        });
        child.on("session_compact", (event: any) =>
          log.push(`compact ${event.reason} willRetry=${event.willRetry} kept=${place(event.compactionEntry.firstKeptEntryId)} summary=${event.compactionEntry.summary.split("\n")[0]}`),
        );
        child.on("session_compact_failed", (event: any) => log.push(`compact_failed ${event.reason} ${event.errorMessage} aborted=${event.aborted}`));
        child.registerTool({
          name: "lookup",
          label: "Lookup",
          description: "Looks a key up",
          parameters: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
          async execute(_callId: string, args: { key: string }) {
            return { content: [{ type: "text", text: `value of ${args.key}: ${"data ".repeat(60)}` }], details: {} };
          },
        });
      };
      const long = (label: string) => `${label}: ${"word ".repeat(40)}`;
      const answer = (text: string) => fauxAssistantMessage(`${text} ${"fact ".repeat(30)}`);
      const overflow = () => fauxAssistantMessage("", { stopReason: "error", errorMessage: OVERFLOW });
      const summary = (text: string) => fauxAssistantMessage(`## Goal\n${text}`);
      const scripts: Record<string, any[]> = {
        threshold: [answer("first"), answer("second"), answer("third"), summary("Threshold summary."), answer("fourth")],
        // The cut splits the turn: two summaries, of the history and of the turn's start.
        overflow: [answer("first"), answer("second"), overflow(), summary("Overflow summary."), summary("Turn start."), answer("retried")],
        // An answer stamped no later than the compaction counts as the old context's: the retry's is made when asked
        // for and stamped a second ahead, as a real answer after a summary call would be.
        "overflow twice": [
          answer("first"),
          answer("second"),
          overflow(),
          summary("Overflow summary."),
          summary("Turn start."),
          () => fauxAssistantMessage("", { stopReason: "error", errorMessage: OVERFLOW, timestamp: Date.now() + 1000 }),
        ],
        "within a run": [
          answer("first"),
          fauxAssistantMessage([fauxToolCall("lookup", { key: "alpha" }, { id: "call-1" })], { stopReason: "toolUse" }),
          fauxAssistantMessage([fauxToolCall("lookup", { key: "beta" }, { id: "call-2" })], { stopReason: "toolUse" }),
          summary("Mid-run summary."),
          summary("Turn start."),
          answer("after the lookups"),
        ],
        disabled: [answer("first"), answer("second"), answer("third"), answer("fourth")],
      };
      faux.setResponses(scripts[params.variant]);
      const settingsManager = piCodingAgent.SettingsManager.inMemory({
        compaction: { enabled: params.variant !== "disabled", reserveTokens: 100, keepRecentTokens: 60 },
        retry: { enabled: false },
      });
      const loader = new piCodingAgent.DefaultResourceLoader({
        cwd: "/",
        agentDir: piCodingAgent.getAgentDir(),
        settingsManager,
        noExtensions: true,
        noSkills: true,
        noPromptTemplates: true,
        noThemes: true,
        noContextFiles: true,
        systemPrompt: "You are a child agent.",
        extensionFactories: [{ name: "compaction-hooks", factory: hooks }],
      });
      await loader.reload();
      const modelRuntime = await sharedRuntime();
      const resolved = piCodingAgent.resolveCliModel({ cliModel: `${PROVIDER}/small-1`, modelRuntime });
      if (resolved.error) throw new Error(resolved.error);
      ({ session } = await piCodingAgent.createAgentSession({
        // A fixed folder: the cwd is in the child's system prompt, whose size the token counts include.
        cwd: "/",
        modelRuntime,
        model: resolved.model,
        tools: ["lookup"],
        resourceLoader: loader,
        sessionManager: piCodingAgent.SessionManager.inMemory("/"),
        settingsManager,
      }));
      await session.bindExtensions({ mode: "print", onError: (error: any) => log.push(`onError ${error.event} ${error.error}`) });
      const events: string[] = [];
      const unsubscribe = session.subscribe((event: any) => {
        if (event.type === "compaction_start") events.push(`compaction_start ${event.reason}`);
        if (event.type === "compaction_end") {
          events.push(
            `compaction_end ${event.reason} aborted=${event.aborted} willRetry=${event.willRetry} error=${event.errorMessage}` +
              (event.result ? ` tokensBefore=${event.result.tokensBefore} after=${event.result.estimatedTokensAfter} kept=${place(event.result.firstKeptEntryId)}` : ""),
          );
        }
        if (event.type === "message_end" && event.message.role === "assistant") {
          events.push(`assistant ${event.message.stopReason} input=${event.message.usage?.input} output=${event.message.usage?.output} total=${event.message.usage?.totalTokens}`);
        }
        if (event.type === "agent_end") events.push(`agent_end ${event.messages.length}`);
      });
      try {
        const prompts = params.variant === "within a run" ? [long("first question"), long("look both up")] : [long("first question"), long("second question"), long("third question"), long("fourth question")];
        for (const text of prompts) {
          if (faux.getPendingResponseCount() === 0) break;
          await session.prompt(text);
        }
        const details = {
          log,
          events,
          transcript: session.messages.map((message: any) => `${message.role}: ${textOf(message).slice(0, 30)}`),
          entries: session.sessionManager.getEntries().map((entry: any) => `${entry.type}${entry.message ? `/${entry.message.role}` : ""}`),
          contextEdits: session.sessionManager
            .getEntries()
            .filter((entry: any) => entry.type === "context_edit")
            .map((entry: any) => `${place(entry.targetId)} ${JSON.stringify(entry.replacement)}`),
          pending: faux.getPendingResponseCount(),
          idle: session.isIdle,
          compacting: session.isCompacting,
        };
        return { content: [{ type: "text", text: String(events.length) }], details };
      } finally {
        unsubscribe();
        session.dispose();
      }
    },
  });
}
