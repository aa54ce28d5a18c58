// Undecided, then failing in two ways. Errors carry a fixed stack so the result stays portable.
function portableError(message: string): Error {
  const error = new Error(message);
  error.stack = `Error: ${message}\n    at scenario`;
  return error;
}

export default function (pi: any) {
  const g = globalThis as any;
  g.trustTrace ??= [];
  pi.on("project_trust", (event: any) => {
    g.trustTrace.push(`unsure looked at ${event.cwd}`);
    return { trusted: "undecided" };
  });
  pi.on("project_trust", () => {
    g.trustTrace.push("unsure throws a string");
    throw "cannot read the trust file";
  });
  pi.on("project_trust", async () => {
    g.trustTrace.push("unsure rejects");
    throw portableError("trust service unreachable");
  });
}
