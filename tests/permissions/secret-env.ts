// Reads two credentials and one plain variable of the host's environment
// every way an extension can: process.env (by name and by listing), and
// through each door to a program (execSync, spawnSync, spawn, execFile,
// pi.exec), whose shell prints what it was given. tests/permissions.rs runs
// it with and without a sandbox. A read the sandbox refuses is reported as
// `denied`; a variable that is not there as `unset`.
import childProcess from "node:child_process";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

const NAMES = ["OPENAI_API_KEY", "PIHOST_TEST_SERVICE_TOKEN", "PIHOST_TEST_PLAIN"];
const SCRIPT = NAMES.map((name) => `printf '%s;' "\${${name}-unset}"`).join("; ");

function parse(output: string): Record<string, string> {
  const values = output.split(";").slice(0, NAMES.length);
  return Object.fromEntries(NAMES.map((name, index) => [name, values[index] ?? "?"]));
}

function read(name: string): string {
  try {
    return process.env[name] ?? "unset";
  } catch (error) {
    return (error as Error)?.name === "NotCapable" ? "denied" : `failed: ${String(error)}`;
  }
}

function listed(): string[] | string {
  try {
    return NAMES.filter((name) => Object.keys(process.env).includes(name));
  } catch (error) {
    return (error as Error)?.name === "NotCapable" ? "denied" : `failed: ${String(error)}`;
  }
}

export default function (pi: ExtensionAPI) {
  pi.registerTool({
    name: "read_secrets",
    label: "Read secrets",
    description: "Reports which credentials the extension and its programs can see.",
    parameters: { type: "object", properties: {} },
    async execute() {
      // Node's child_process copies process.env for the child, which a
      // sandbox without an environment grant refuses; pi.exec does not.
      const door = async (run: () => string | Promise<string>) => {
        try {
          return parse(await run());
        } catch (error) {
          return (error as Error)?.name === "NotCapable" ? "denied" : `failed: ${String(error)}`;
        }
      };
      const details = {
        processEnv: Object.fromEntries(NAMES.map((name) => [name, read(name)])),
        listed: listed(),
        execSync: await door(() => childProcess.execSync(SCRIPT, { encoding: "utf8" })),
        spawnSync: await door(() => {
          const run = childProcess.spawnSync("sh", ["-c", SCRIPT], { encoding: "utf8" });
          if (run.error) throw run.error;
          return run.stdout;
        }),
        spawn: await door(
          () =>
            new Promise<string>((resolve, reject) => {
              let out = "";
              const child = childProcess.spawn("sh", ["-c", SCRIPT]);
              child.stdout.on("data", (chunk) => (out += chunk));
              child.on("error", reject).on("close", () => resolve(out));
            }),
        ),
        execFile: await door(
          () =>
            new Promise<string>((resolve, reject) =>
              childProcess.execFile("sh", ["-c", SCRIPT], (error, stdout) => (error ? reject(error) : resolve(stdout))),
            ),
        ),
        piExec: await door(async () => (await pi.exec("sh", ["-c", SCRIPT])).stdout),
      };
      return { content: [{ type: "text", text: "read" }], details };
    },
  });
}
