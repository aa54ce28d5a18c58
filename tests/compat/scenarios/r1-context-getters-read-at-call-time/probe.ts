// Keeps every event ctx it is handed so the scenario can read it again later.
const kept: any[] = [];

function attempt(read: () => unknown): unknown {
  try {
    return read();
  } catch (error) {
    return { threw: (error as Error).message };
  }
}

export default function (pi: any) {
  pi.on("session_start", (_event: any, ctx: any) => {
    kept.push(ctx);
  });
  (globalThis as any).readKeptContext = (index: number) => {
    const ctx = kept[index];
    return {
      model: attempt(() => ctx.model),
      scopedModels: attempt(() => ctx.scopedModels),
      thinkingLevel: attempt(() => ctx.thinkingLevel),
      idle: attempt(() => ctx.isIdle()),
      trusted: attempt(() => ctx.isProjectTrusted()),
      pending: attempt(() => ctx.hasPendingMessages()),
      usage: attempt(() => ctx.getContextUsage()),
      systemPrompt: attempt(() => ctx.getSystemPrompt()),
      hasUI: attempt(() => ctx.hasUI),
      mode: attempt(() => ctx.mode),
      cwd: attempt(() => ctx.cwd),
      signal: attempt(() => ctx.signal),
    };
  };
  (globalThis as any).poke = (index: number) => {
    const ctx = kept[index];
    ctx.abort();
    ctx.compact({ customInstructions: "keep the todo list" });
    ctx.shutdown();
    return kept.length;
  };
  (globalThis as any).changeThinking = (level: string) => {
    pi.setThinkingLevel(level);
    return attempt(() => kept[kept.length - 1].thinkingLevel);
  };
}
