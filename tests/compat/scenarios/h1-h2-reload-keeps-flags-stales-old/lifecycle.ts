// Reload (H1/H2): module state, flags, lifecycle events and stale handles.
let loads = 0;
export default function (pi: any) {
  loads += 1;
  const generation = loads;
  pi.registerFlag("lifecycle-mode", { type: "string", default: "default-mode" });
  pi.registerFlag("lifecycle-level", { type: "string", default: "default-level" });
  pi.on("session_shutdown", async (event: any) => {
    pi.sendMessage({ customType: "lifecycle", content: `shutdown ${event.reason} in generation ${generation}` });
  });
  pi.on("session_start", async (event: any, ctx: any) => {
    pi.sendMessage({ customType: "lifecycle", content: `start ${event.reason} in generation ${generation}, tools ${pi.getActiveTools().join(",")}` });
    (globalThis as any).startCtx ??= ctx;
  });
  pi.on("turn_start", async () => {
    pi.appendEntry("turn-seen", { generation });
  });
  pi.registerCommand("state", {
    description: "reports this generation",
    handler: async (_args: string, ctx: any) => {
      (globalThis as any).firstCtx ??= ctx;
      return { generation, loads, mode: pi.getFlag("lifecycle-mode"), level: pi.getFlag("lifecycle-level") };
    },
  });
  (globalThis as any).firstPi ??= pi;
  (globalThis as any).useFirstPi = () => (globalThis as any).firstPi.getFlag("lifecycle-mode");
  (globalThis as any).useFirstCtx = () => (globalThis as any).firstCtx.cwd;
}
