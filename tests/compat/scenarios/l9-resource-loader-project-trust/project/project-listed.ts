export default function (pi: any) {
  ((globalThis as any).__trustLog ??= []).push("project-listed factory");
  pi.registerCommand("project-listed", { description: "listed in the project's settings", handler: async () => {} });
}
