export default function (pi: any) {
  ((globalThis as any).__trustLog ??= []).push("user-ext factory");
  pi.registerCommand("user-ext", { description: "given to the loader", handler: async () => {} });
}
