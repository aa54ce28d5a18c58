// Returns malformed user_bash results, or throws, depending on the command.
export default function (pi: any) {
  pi.on("user_bash", (event: any) => {
    switch (event.command) {
      case "missing fields":
        return { result: { output: "x" } };
      case "both":
        return { operations: { exec: async () => ({ exitCode: 0 }) }, result: { output: "", exitCode: 0, cancelled: false, truncated: false } };
      case "no exec":
        return { operations: {} };
      case "no exit code key":
        return { result: { output: "", cancelled: false, truncated: false } };
      case "not an object":
        return "run it remotely";
      case "throw":
        throw new Error("remote shell unavailable");
      default:
        return undefined;
    }
  });
}
