// A command that hands its ctx to the scenario so it can be used after the command returned.
export default function (pi: any) {
  const g = globalThis as any;
  pi.registerCommand("grab", {
    description: "remember the command ctx",
    handler: async (args: string, ctx: any) => {
      g.grabbed = ctx;
      return { args, hasUI: ctx.hasUI, mode: ctx.mode };
    },
  });
  g.peekGrabbed = () => {
    const ctx = g.grabbed;
    const hasUIDescriptor = Object.getOwnPropertyDescriptor(ctx, "hasUI");
    return {
      hasUI: ctx.hasUI,
      mode: ctx.mode,
      idle: ctx.isIdle(),
      hasUIIsGetter: typeof hasUIDescriptor?.get === "function",
      hasUIHasValue: hasUIDescriptor !== undefined && "value" in hasUIDescriptor,
      sessionMethods: ["waitForIdle", "newSession", "fork", "navigateTree", "switchSession", "reload"].map(
        (name) => typeof ctx[name],
      ),
    };
  };
  g.readGrabbedCwd = () => g.grabbed.cwd;
  g.startNewSessionWithGrabbed = () => g.grabbed.newSession();
  g.askWithGrabbed = () => g.grabbed.ui;
}
