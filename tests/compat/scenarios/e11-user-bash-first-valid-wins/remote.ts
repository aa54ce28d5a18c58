// Answers with a finished result or with operations, depending on the command.
export default function (pi: any) {
  const g = globalThis as any;
  g.bashTrace ??= [];
  pi.on("user_bash", (event: any) => {
    g.bashTrace.push(`remote saw ${event.command}`);
    if (event.command === "remote ls") {
      return { result: { output: "a.txt\nb.txt\n", exitCode: 0, cancelled: false, truncated: false } };
    }
    if (event.command === "remote sleep") {
      return { result: { output: "", exitCode: undefined, cancelled: true, truncated: false } };
    }
    if (event.command === "via ssh") {
      return { operations: { exec: async () => ({ exitCode: 0 }) } };
    }
    return undefined;
  });
}
