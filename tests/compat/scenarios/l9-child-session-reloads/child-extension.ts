// Loaded into the child session from its file: each load is a new module
// instance (the count lives on globalThis), so a reload shows up as a second
// load, with the flag values and hooks of the session before it.
const g = globalThis as any;
g.__childExtensionLoads = (g.__childExtensionLoads ?? 0) + 1;
const load = g.__childExtensionLoads;

export default function (pi: any) {
  const log = (g.__childReloadLog ??= []);
  pi.registerFlag("child-mode", { type: "string", default: "plain", description: "How the child works" });
  pi.registerTool({
    name: "child_tool",
    label: "Child tool",
    description: "A tool of the child's extension",
    parameters: { type: "object", properties: {} },
    async execute() {
      return { content: [{ type: "text", text: `load ${load}` }], details: {} };
    },
  });
  pi.on("session_start", (event: any) => log.push(`load ${load} session_start ${event.reason} flag=${pi.getFlag("child-mode")} active=${pi.getActiveTools().join(",")}`));
  pi.on("session_shutdown", (event: any) => log.push(`load ${load} session_shutdown ${event.reason}`));
  g.__childReloadApi = pi;
}
