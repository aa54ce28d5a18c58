// A child session's prompt-cache warming and its bug-report summary, as a
// sub-agent host that keeps long-lived child sessions would use them. The
// model's cache lives 10.3 s, so pi schedules its refresh 300 ms after the
// request; the child's extension decides each refresh (warm once, then stop).
import { createProvider, fauxAssistantMessage, fauxToolCall, registerFauxProvider, stream as fauxStream } from "@earendil-works/pi-ai";
import * as piCodingAgent from "@earendil-works/pi-coding-agent";

const PROVIDER = "warm-provider";

function describeStatus(status: any) {
  if (!status) return "no status";
  const decision = status.decision ? ` decision=${status.decision.action}/${status.decision.phase}` : "";
  const next = status.nextWarmAt === undefined ? "" : ` nextWarmAt=${typeof status.nextWarmAt}`;
  const override = status.extensionOverride === undefined ? "" : ` override=${status.extensionOverride}`;
  return `${status.state}${status.reason ? ` (${status.reason})` : ""}${decision}${next}${override}`;
}

export default function (pi: any) {
  const faux = registerFauxProvider({
    api: "warm-faux-api",
    provider: PROVIDER,
    models: [
      {
        id: "child-1",
        reasoning: false,
        contextWindow: 50_000,
        maxTokens: 2_000,
        cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
      },
    ],
  });
  for (const model of faux.models) (model as any).promptCache = { short: 10.3 };

  pi.registerTool({
    name: "warm_and_report_child",
    label: "Warm and report child",
    description: "Runs a child session that warms its cache and summarizes a bug report",
    parameters: { type: "object", properties: {} },
    async execute() {
      const log: string[] = [];
      const sent: string[] = [];
      let decisions = 0;
      const decider = (child: any) => {
        child.on("cache_warming_decision", (event: any) => {
          decisions++;
          log.push(`decision ${event.action} p=${event.continuationProbability} warm>0=${event.warmCost > 0} miss>0=${event.missCost > 0}`);
          return { action: decisions === 1 ? "warm" : "stop" };
        });
      };
      const modelRuntime = await piCodingAgent.ModelRuntime.create();
      modelRuntime.registerNativeProvider(
        createProvider({
          id: PROVIDER,
          name: "Warm",
          auth: { apiKey: { name: "Child key", resolve: async () => ({ auth: { apiKey: "child-key" }, source: "extension" }) } },
          models: faux.models,
          api: { stream: fauxStream, streamSimple: fauxStream },
        }),
      );
      await modelRuntime.refresh({ allowNetwork: false });
      const cwd = "/";
      const settingsManager = piCodingAgent.SettingsManager.inMemory({});
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
        extensionFactories: [{ name: "decider", factory: decider }],
      });
      await loader.reload();
      const resolved = piCodingAgent.resolveCliModel({ cliModel: `${PROVIDER}/child-1`, modelRuntime });
      if (resolved.error) throw new Error(resolved.error);
      const { session } = await piCodingAgent.createAgentSession({
        cwd,
        modelRuntime,
        model: resolved.model,
        tools: [],
        resourceLoader: loader,
        sessionManager: piCodingAgent.SessionManager.inMemory(cwd),
        settingsManager,
      });
      await session.bindExtensions({ mode: "print", onError: (error: any) => log.push(`onError ${error.event} ${error.error}`) });
      session.subscribe((event: any) => {
        if (event.type === "entry_appended") log.push(`entry_appended ${event.entry.type} ${event.entry.kind ?? ""} ${event.entry.note ?? ""}`.trimEnd());
      });
      const capture = (answer: any) => (context: any, options: any) => {
        sent.push(`system: ${context.systemPrompt}`);
        for (const message of context.messages) {
          const content = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
          const text = content.map((block: any) => block.text ?? `[${block.type}]`).join("");
          sent.push(`${message.role}: ${text}`);
        }
        sent.push(`options: maxTokens=${options?.maxTokens} cacheRetention=${options?.cacheRetention} session=${options?.sessionId === session.sessionId}`);
        return answer;
      };
      try {
        log.push(`before any request: ${describeStatus(session.cacheWarmingStatus)}`);
        faux.setResponses([fauxAssistantMessage("The build failed with exit code 2."), capture(fauxAssistantMessage("warm"))]);
        await session.prompt("Run the build and tell me what happened.");
        log.push(`after the run: ${describeStatus(session.cacheWarmingStatus)}`);
        for (let wait = 0; wait < 200 && session.cacheWarmingStatus?.state !== "inactive"; wait++) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        log.push(`after the refreshes: ${describeStatus(session.cacheWarmingStatus)}`);
        log.push(`usage entries: ${session.sessionManager.getEntries().filter((entry: any) => entry.type === "usage").length}`);

        faux.setResponses([capture(fauxAssistantMessage("## What the user was doing\nBuilding.\n\n## What went wrong\nExit code 2."))]);
        const report = await session.summarizeForBugReport({ hint: "  the build broke  " });
        log.push(`report: ${report}`);
        log.push(`after the report: ${describeStatus(session.cacheWarmingStatus)}`);

        faux.setResponses([fauxAssistantMessage("   ")]);
        try {
          await session.summarizeForBugReport({});
        } catch (error: any) {
          log.push(`empty answer: ${error.message}`);
        }
        faux.setResponses([fauxAssistantMessage([fauxToolCall("read", { path: "x" })], { stopReason: "toolUse" })]);
        try {
          await session.summarizeForBugReport({});
        } catch (error: any) {
          log.push(`tool call: ${error.message}`);
        }

        session.setCacheWarmingMode("off");
        log.push(`mode off: ${describeStatus(session.cacheWarmingStatus)} saved=${settingsManager.getCacheWarmingMode()}`);
        return { content: [{ type: "text", text: report }], details: { log, sent } };
      } finally {
        session.dispose();
      }
    },
  });
}
