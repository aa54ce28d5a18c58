// Running npm and git for pi's package manager. Three ways, as pi has them:
// on the terminal (`pi install` shows npm's and git's own output), captured
// without a terminal (hosts that draw on it: nothing is printed, git and ssh
// may not prompt, and a failure carries the end of the output), and
// captured for a command whose output is the answer (`git rev-parse`,
// `npm view`), with a time limit.
import { spawn, spawnSync } from "node:child_process";
import { hostEnv } from "../host-env.js";

/** How much of a captured command's output a failure message keeps. */
const OUTPUT_TAIL_CHARS = 8000;
/** Output of git, or of ssh run by git, that failed because it could not ask for credentials. */
const GIT_PROMPT_FAILURE = /terminal prompts disabled|could not read (Username|Password)|Permission denied \(publickey|Host key verification failed|passphrase/i;
const GIT_CREDENTIALS_HINT =
  "git cannot ask for a password or passphrase while pi runs. Set up a git credential helper or an ssh agent, or install the package once from the shell with `pi install <source>`.";

/** The environment with git and ssh made to fail rather than prompt; a user's own GIT_SSH_COMMAND is kept (it may be needed to reach the host). */
function nonInteractiveEnv(env) {
  return { ...env, GIT_TERMINAL_PROMPT: "0", GIT_SSH_COMMAND: env.GIT_SSH_COMMAND ?? "ssh -o BatchMode=yes" };
}

/** Resolves with the exit code once the process has exited and its pipes are drained; rejects when it cannot start. */
function exitCodeOf(child) {
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ code, signal }));
  });
}

/**
 * Runs a command with its output on the terminal: on standard error, as pi
 * does when its standard output carries a protocol. In pihost that is always
 * so (the host owns stdin and stdout: `serve`'s and `mcp`'s JSON-RPC), so
 * the command reads no input and writes nothing to stdout.
 */
export async function runOnTerminal(command, args, { cwd } = {}) {
  const child = spawn(command, args, { cwd, stdio: ["ignore", 2, 2], env: hostEnv() });
  const { code } = await exitCodeOf(child);
  if (code !== 0) throw new Error(`${command} ${args.join(" ")} failed with code ${code}`);
}

/** Runs a command without a terminal; a failure's message ends with the command's last output. */
export async function runQuietly(command, args, { cwd } = {}) {
  const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"], env: nonInteractiveEnv(hostEnv()) });
  let output = "";
  const keepTail = (chunk) => {
    output = (output + chunk.toString()).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout.on("data", keepTail);
  child.stderr.on("data", keepTail);
  const { code } = await exitCodeOf(child);
  if (code === 0) return;
  const tail = output.trim();
  const hint = command === "git" && GIT_PROMPT_FAILURE.test(tail) ? `\n${GIT_CREDENTIALS_HINT}` : "";
  throw new Error(`${command} ${args.join(" ")} failed with code ${code}${tail ? `:\n${tail}` : ""}${hint}`);
}

/** Runs a command for its standard output (trimmed); `timeoutMs` kills it, `env` adds variables. */
export async function captureOutput(command, args, { cwd, timeoutMs, env } = {}) {
  const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"], env: env ? { ...hostEnv(), ...env } : hostEnv() });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (data) => {
    stdout += data.toString();
  });
  child.stderr.on("data", (data) => {
    stderr += data.toString();
  });
  let timedOut = false;
  const timer =
    typeof timeoutMs === "number"
      ? setTimeout(() => {
          timedOut = true;
          child.kill();
        }, timeoutMs)
      : undefined;
  try {
    const { code, signal } = await exitCodeOf(child);
    if (timedOut) throw new Error(`${command} ${args.join(" ")} timed out after ${timeoutMs}ms`);
    if (code === 0) return stdout.trim();
    const status = code === null ? `signal ${signal ?? "unknown"}` : `code ${code}`;
    throw new Error(`${command} ${args.join(" ")} failed with ${status}: ${stderr || stdout}`);
  } finally {
    if (timer) clearTimeout(timer);
  }
}

/** Runs a command to completion synchronously for its output (trimmed). */
export function captureOutputSync(command, args) {
  const result = spawnSync(command, args, { stdio: ["ignore", "pipe", "pipe"], encoding: "utf-8", env: hostEnv() });
  if (result.error || result.status !== 0) {
    throw new Error(`Failed to run ${command} ${args.join(" ")}: ${result.error?.message || result.stderr || result.stdout}`);
  }
  return (result.stdout || result.stderr || "").trim();
}

/** Asks Dropbox and the macOS file provider not to sync a package folder; a missing tool is no matter. */
export function markIgnoredByCloudSync(path) {
  const platform = globalThis.process?.platform;
  if (platform === "darwin") {
    for (const attribute of ["com.dropbox.ignored", "com.apple.fileprovider.ignore#P"]) {
      spawnSync("xattr", ["-w", attribute, "1", path], { encoding: "utf-8", stdio: "ignore" });
    }
  } else if (platform === "linux") {
    spawnSync("setfattr", ["-n", "user.com.dropbox.ignored", "-v", "1", path], { encoding: "utf-8", stdio: "ignore" });
  }
}
