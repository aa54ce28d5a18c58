// Tries every action while loading (all refused) and again after binding (all reach the host).
function attempt(run: () => unknown): unknown {
  try {
    const value = run();
    return value;
  } catch (error) {
    return { threw: (error as Error).message };
  }
}

export default function (pi: any) {
  const g = globalThis as any;
  const duringLoad: Record<string, unknown> = {
    sendMessage: attempt(() => pi.sendMessage({ customType: "note", content: "early", display: true })),
    sendUserMessage: attempt(() => pi.sendUserMessage("early")),
    appendEntry: attempt(() => pi.appendEntry("marker", { early: true })),
    setSessionName: attempt(() => pi.setSessionName("early")),
    getSessionName: attempt(() => pi.getSessionName()),
    setLabel: attempt(() => pi.setLabel("entry-1", "early")),
    getActiveTools: attempt(() => pi.getActiveTools()),
    getAllTools: attempt(() => pi.getAllTools()),
    getSettings: attempt(() => pi.getSettings()),
    setActiveTools: attempt(() => pi.setActiveTools([])),
    getCommands: attempt(() => pi.getCommands()),
    getThinkingLevel: attempt(() => pi.getThinkingLevel()),
    setThinkingLevel: attempt(() => pi.setThinkingLevel("low")),
  };
  const earlyModel = pi.setModel({ provider: "scenario", id: "early" });
  duringLoad.setModelReturnsPromise = typeof earlyModel?.then === "function";
  earlyModel.catch((error: Error) => {
    duringLoad.setModelRejection = error.message;
  });
  g.actionsDuringLoad = () => duringLoad;

  g.actionsAfterBind = async () => {
    const results: Record<string, unknown> = {};
    results.sendMessage = pi.sendMessage(
      { customType: "note", content: "hello", display: true, details: { n: 1 } },
      { triggerTurn: false, deliverAs: "nextTurn" },
    );
    results.sendUserMessage = pi.sendUserMessage("please continue", { deliverAs: "steer" });
    results.appendEntry = pi.appendEntry("marker", { n: 2 });
    results.setSessionName = pi.setSessionName("Scenario session");
    results.getSessionName = pi.getSessionName();
    results.setLabel = pi.setLabel("entry-9", "checkpoint");
    results.activeBefore = pi.getActiveTools();
    results.allTools = pi.getAllTools();
    results.settings = pi.getSettings();
    results.setActiveTools = pi.setActiveTools(["read"]);
    results.activeAfter = pi.getActiveTools();
    results.commands = pi.getCommands();
    results.setModel = await pi.setModel({ provider: "scenario", id: "model-two" });
    results.thinkingBefore = pi.getThinkingLevel();
    results.setThinkingLevel = pi.setThinkingLevel("high");
    results.thinkingAfter = pi.getThinkingLevel();
    return results;
  };
}
