export default function (pi: any) {
  ((globalThis as any).__trustLog ??= []).push("project-auto factory");
  pi.registerCommand("project-auto", { description: "in the project's extension folder", handler: async () => {} });
}
