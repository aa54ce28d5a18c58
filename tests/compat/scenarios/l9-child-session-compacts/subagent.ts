// A child session compacted as sub-agent extensions compact theirs: a
// scripted model (pi-ai's faux provider) writes the answers and the summary;
// hooks loaded into the child (inline factories) watch or take over the
// compaction. Entry ids are random, so entries are named by their place.
import { createProvider, fauxAssistantMessage, registerFauxProvider, stream, streamSimple } from "@earendil-works/pi-ai";
import * as piCodingAgent from "@earendil-works/pi-coding-agent";

const PROVIDER = "compact-faux";

const textOf = (message: any) =>
  typeof message.content === "string"
    ? message.content
    : Array.isArray(message.content)
      ? message.content.map((block: any) => block.text ?? block.type).join("")
      : (message.summary ?? "");

export default function (pi: any) {
  const faux = registerFauxProvider({
    api: "compact-faux-api",
    provider: PROVIDER,
    models: [{ id: "child-1", reasoning: false }],
  });
  let runtime: Promise<any> | undefined;
  const sharedRuntime = () => {
    runtime ??= piCodingAgent.ModelRuntime.create().then((created: any) => {
      created.registerNativeProvider(
        createProvider({
          id: PROVIDER,
          name: "Compact Faux",
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
    name: "compact_child",
    label: "Compact child",
    description: "Runs a child session and compacts it",
    parameters: { type: "object", properties: { variant: { type: "string" } }, required: ["variant"] },
    async execute(_id: string, params: { variant: string }) {
      const log: string[] = [];
      const place = (session: any, id: string | undefined) => {
        const index = session.sessionManager.getEntries().findIndex((entry: any) => entry.id === id);
        const entry = session.sessionManager.getEntries()[index];
        return index < 0 ? id : `#${index} ${entry.type}${entry.message ? `/${entry.message.role}` : ""}`;
      };
      let session: any;
      const hooks = (child: any) => {
        child.on("session_before_compact", (event: any) => {
          const p = event.preparation;
          log.push(
            `before_compact ${event.reason} willRetry=${event.willRetry} instructions=${event.customInstructions} branch=${event.branchEntries.length} ` +
              `summarize=${p.messagesToSummarize.map((m: any) => m.role).join(",")} prefix=${p.turnPrefixMessages.length} split=${p.isSplitTurn} ` +
              `tokensBefore=${p.tokensBefore} previous=${p.previousSummary} kept=${place(session, p.firstKeptEntryId)} keep=${p.settings.keepRecentTokens} ` +
              `signal=${event.signal instanceof AbortSignal && !event.signal.aborted}`,
          );
          if (params.variant === "cancel") return { cancel: true };
          // Aborting the session aborts its compaction too (not awaited: abort waits for the compaction to end).
          if (params.variant === "abort") void session.abort();
          if (params.variant === "extension") {
            return { compaction: { summary: "The extension's summary.", firstKeptEntryId: p.firstKeptEntryId, tokensBefore: p.tokensBefore, details: { by: "hook" } } };
          }
          return undefined;
        });
        child.on("session_compact", (event: any) => {
          const entry = event.compactionEntry;
          log.push(`compact ${event.reason} fromExtension=${event.fromExtension} kept=${place(session, entry.firstKeptEntryId)} tokensBefore=${entry.tokensBefore} details=${JSON.stringify(entry.details)} fromHook=${entry.fromHook}`);
          log.push(`summary ${entry.summary}`);
        });
        child.on("session_compact_failed", (event: any) => log.push(`compact_failed ${event.reason} ${event.errorMessage} aborted=${event.aborted}`));
        child.registerCommand("squeeze", {
          handler: async (_args: string, ctx: any) => {
            await new Promise<void>((resolve) =>
              ctx.compact({
                customInstructions: "From the command.",
                onComplete: (result: any) => {
                  log.push(`onComplete ${result.summary.split("\n")[0]} tokensBefore=${result.tokensBefore}`);
                  resolve();
                },
                onError: (error: any) => {
                  log.push(`onError ${error.message}`);
                  resolve();
                },
              }),
            );
          },
        });
      };
      const modelRuntime = await sharedRuntime();
      // A fixed folder: the cwd is in the child's system prompt, whose size the token counts include.
      const cwd = "/";
      const long = (label: string) => `${label}: ${"word ".repeat(40)}`;
      const small = params.variant === "small";
      faux.setResponses([
        fauxAssistantMessage("first answer"),
        ...(small
          ? []
          : [
              fauxAssistantMessage("second answer"),
              fauxAssistantMessage("ok"),
              fauxAssistantMessage("## Goal\nSummarized by the model."),
              fauxAssistantMessage("## Goal\nSummarized again."),
            ]),
      ]);
      const settingsManager = piCodingAgent.SettingsManager.inMemory({ compaction: { keepRecentTokens: 30 } });
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
        extensionFactories: [{ name: "compaction-hooks", factory: hooks }],
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
      const events: string[] = [];
      const unsubscribe = session.subscribe((event: any) => {
        if (event.type === "compaction_start") events.push(`compaction_start ${event.reason} idle=${session.isIdle} compacting=${session.isCompacting}`);
        if (event.type === "compaction_end") {
          events.push(
            `compaction_end ${event.reason} aborted=${event.aborted} willRetry=${event.willRetry} error=${event.errorMessage} ` +
              `idle=${session.isIdle} compacting=${session.isCompacting}` +
              (event.result ? ` tokensBefore=${event.result.tokensBefore} after=${event.result.estimatedTokensAfter} kept=${place(session, event.result.firstKeptEntryId)}` : ""),
          );
        }
      });
      const attempt = async (run: () => Promise<any>) => {
        try {
          const result = await run();
          return { summary: result.summary, kept: place(session, result.firstKeptEntryId), tokensBefore: result.tokensBefore, estimatedTokensAfter: result.estimatedTokensAfter, details: result.details, usage: result.usage ? "usage" : undefined };
        } catch (error: any) {
          return { error: error.message };
        }
      };
      const results: any[] = [];
      try {
        await session.prompt(long("first question"));
        if (!small) {
          await session.prompt(long("second question"));
          await session.prompt(long("third question"));
        }
        if (params.variant === "command") {
          await session.prompt("/squeeze");
        } else {
          results.push(await attempt(() => session.compact(params.variant === "model" ? "Keep the numbers." : undefined)));
          if (params.variant === "model") results.push(await attempt(() => session.compact()));
        }
        const details = {
          results,
          log,
          events,
          transcript: session.messages.map((message: any) => `${message.role}: ${textOf(message).slice(0, 40)}`),
          entries: session.sessionManager.getEntries().map((entry: any) => entry.type),
          idle: session.isIdle,
          compacting: session.isCompacting,
        };
        return { content: [{ type: "text", text: String(results.length) }], details };
      } finally {
        unsubscribe();
        session.dispose();
      }
    },
  });
}
