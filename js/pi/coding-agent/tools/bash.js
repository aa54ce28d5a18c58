// The bash tool: runs a command in the cwd with bash -c, streams its output
// (throttled updates), and returns the last 2000 lines / 50KB with a notice
// pointing at a temp file holding all of it. A non-zero exit is an error
// result; a timeout or abort throws with the output so far.
import { spawn } from "node:child_process";
import { access } from "node:fs/promises";
import { constants as osConstants } from "node:os";
import { delimiter, join } from "node:path";
import { Type } from "../../typebox.js";
import { getAgentDir } from "../agent-dir.js";
import { getShellConfig } from "../shell.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize } from "../truncate.js";
import { OutputAccumulator } from "./output-accumulator.js";
import { wrapToolDefinition } from "./wrap.js";

const MAX_TIMEOUT_MS = 2_147_483_647;
/** Limit of structuredContent.output, which scripts get instead of the display text. */
const STRUCTURED_OUTPUT_MAX_BYTES = 1024 * 1024;
const UPDATE_THROTTLE_MS = 100;
/** How long output may stay quiet after the shell exits before its pipes are given up. */
const EXIT_STDIO_GRACE_MS = 100;

const now = () => globalThis.performance?.now() ?? Date.now();

function resolveTimeoutMs(timeout) {
  if (timeout === undefined) return undefined;
  if (!Number.isFinite(timeout) || timeout <= 0) throw new Error("Invalid timeout: must be a finite number of seconds");
  const timeoutMs = timeout * 1000;
  if (timeoutMs > MAX_TIMEOUT_MS) throw new Error(`Invalid timeout: maximum is ${MAX_TIMEOUT_MS / 1000} seconds`);
  return timeoutMs;
}

const bashSchema = Type.Object({
  command: Type.String({ description: "Shell command to execute" }),
  timeout: Type.Optional(Type.Number({ description: "Timeout in seconds (optional, no default timeout)" })),
});

const bashOutputSchema = Type.Object({
  output: Type.String({ description: "Combined stdout and stderr, possibly truncated" }),
  truncated: Type.Boolean(),
  full_output_path: Type.Optional(Type.String({ description: "Full output, when truncated" })),
  exit_code: Type.Number(),
  wall_time_seconds: Type.Number(),
});

/**
 * A timeout, as `timeout:<seconds>` (the form custom operations throw).
 * `shellExit`: the shell had exited before the deadline and only background
 * processes holding its pipes kept the call waiting.
 */
class ShellTimeoutError extends Error {
  constructor(timeout, shellExit) {
    super(`timeout:${timeout}`);
    this.shellExit = shellExit;
  }
}

/** The environment with pi's bin directory (its downloaded rg/fd) on PATH. */
function shellEnv() {
  const env = globalThis.process?.env ?? {};
  const binDir = join(getAgentDir(), "bin");
  const pathKey = Object.keys(env).find((key) => key.toLowerCase() === "path") ?? "PATH";
  const current = env[pathKey] ?? "";
  const updated = current.split(delimiter).filter(Boolean).includes(binDir) ? current : [binDir, current].filter(Boolean).join(delimiter);
  return { ...env, [pathKey]: updated };
}

/** SIGKILL to the shell's process group (it runs detached), else to the shell. */
function killProcessTree(child) {
  const kill = globalThis.process?.kill;
  if (typeof kill === "function" && child.pid) {
    try {
      kill.call(globalThis.process, -child.pid, "SIGKILL");
      return;
    } catch {}
  }
  try {
    child.kill("SIGKILL");
  } catch {}
}

/**
 * The exit code once the shell has exited and its output is read: at
 * "close", or when both pipes ended after "exit", or when they stay quiet
 * for a grace period after it — a detached descendant may hold them open
 * for ever, but output still arriving keeps the wait going.
 */
function waitForChildProcess(child) {
  return new Promise((resolve, reject) => {
    let settled = false;
    let exited = false;
    let exitCode = null;
    let graceTimer;
    let stdoutEnded = !child.stdout;
    let stderrEnded = !child.stderr;
    const cleanup = () => {
      clearTimeout(graceTimer);
      child.removeListener("error", onError);
      child.removeListener("exit", onExit);
      child.removeListener("close", onClose);
      child.stdout?.removeListener("end", onStdoutEnd);
      child.stderr?.removeListener("end", onStderrEnd);
      child.stdout?.removeListener("data", onData);
      child.stderr?.removeListener("data", onData);
    };
    const finish = (code) => {
      if (settled) return;
      settled = true;
      cleanup();
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve(code);
    };
    const finishIfDrained = () => {
      if (exited && !settled && stdoutEnded && stderrEnded) finish(exitCode);
    };
    const armGrace = () => {
      clearTimeout(graceTimer);
      graceTimer = setTimeout(() => finish(exitCode), EXIT_STDIO_GRACE_MS);
    };
    const onData = () => {
      if (exited && !settled) armGrace();
    };
    const onStdoutEnd = () => {
      stdoutEnded = true;
      finishIfDrained();
    };
    const onStderrEnd = () => {
      stderrEnded = true;
      finishIfDrained();
    };
    const onError = (error) => {
      if (settled) return;
      settled = true;
      cleanup();
      reject(error);
    };
    const onExit = (code) => {
      exited = true;
      exitCode = code;
      finishIfDrained();
      if (!settled) armGrace();
    };
    const onClose = (code) => finish(code);
    child.stdout?.once("end", onStdoutEnd);
    child.stderr?.once("end", onStderrEnd);
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("error", onError);
    child.once("exit", onExit);
    child.once("close", onClose);
  });
}

/** Shells that take POSIX `sh` syntax, by the name of their program. */
const POSIX_SHELLS = new Set(["bash", "sh", "dash", "zsh", "ksh", "mksh", "ash", "yash"]);

/**
 * How to start `config.shell` on `command` so that what it writes to stdout
 * and stderr arrives in the order it wrote it: the shell first points its
 * stderr at its stdout (one pipe) and then execs itself with the very
 * arguments it would have had, so the command runs in the same process,
 * with the same `$0` and the same error texts. Two pipes read side by side
 * give each pipe's output in order but not the order between them
 * (`echo a; echo b >&2; echo c` could read `a c b`). Other shells (and
 * Windows) keep the two pipes.
 */
function withOutputInOrder(config, command) {
  const args = [...config.args, command];
  const name = config.shell.split(/[\\/]/).pop();
  if (globalThis.process?.platform === "win32" || config.commandTransport === "stdin" || !POSIX_SHELLS.has(name)) {
    return { program: config.shell, args };
  }
  return { program: config.shell, args: ["-c", 'exec "$0" "$@" 2>&1', config.shell, ...args] };
}

/** pi's local shell backend: `exec` runs a command, feeding output to onData, and resolves { exitCode }. */
export function createLocalShellOperations(shellName, resolveShellConfig) {
  return {
    exec: async (command, cwd, { onData, signal, timeout, env }) => {
      const timeoutMs = resolveTimeoutMs(timeout);
      if (signal?.aborted) throw new Error("aborted");
      const config = await resolveShellConfig();
      try {
        await access(cwd);
      } catch {
        throw new Error(`Working directory does not exist: ${cwd}\nCannot execute ${shellName} commands.`);
      }
      const { program, args } = withOutputInOrder(config, command);
      const child = spawn(program, args, {
        cwd,
        detached: true,
        env: env ?? shellEnv(),
        stdio: ["ignore", "pipe", "pipe"],
      });
      const startedAt = now();
      let shellExitedAfterMs;
      child.once("exit", () => {
        shellExitedAfterMs = now() - startedAt;
      });
      let timedOut = false;
      let exitedBeforeDeadlineAfterMs;
      let timeoutHandle;
      const onAbort = () => killProcessTree(child);
      try {
        if (timeoutMs !== undefined) {
          timeoutHandle = setTimeout(() => {
            timedOut = true;
            exitedBeforeDeadlineAfterMs = shellExitedAfterMs;
            // Even after the shell exited: the group kill still reaches background processes holding the pipes.
            killProcessTree(child);
          }, timeoutMs);
        }
        child.stdout?.on("data", onData);
        child.stderr?.on("data", onData);
        if (signal) {
          if (signal.aborted) onAbort();
          else signal.addEventListener("abort", onAbort, { once: true });
        }
        const exitCode = await waitForChildProcess(child);
        if (signal?.aborted) throw new Error("aborted");
        // A shell killed by a signal has no exit code; the shell convention keeps it from reading as success.
        const signalCode = child.signalCode;
        const resolvedExitCode = exitCode ?? (signalCode ? 128 + (osConstants.signals[signalCode] ?? 0) : 1);
        if (timedOut) {
          const shellExit =
            exitedBeforeDeadlineAfterMs !== undefined
              ? { exitCode: resolvedExitCode, afterSeconds: Math.round(exitedBeforeDeadlineAfterMs / 100) / 10 }
              : undefined;
          throw new ShellTimeoutError(timeout, shellExit);
        }
        return { exitCode: resolvedExitCode };
      } finally {
        clearTimeout(timeoutHandle);
        signal?.removeEventListener("abort", onAbort);
      }
    },
  };
}

/** pi's standard local bash execution, for extensions that wrap or rewrite commands. */
export function createLocalBashOperations(options) {
  return createLocalShellOperations("bash", async () => getShellConfig(options?.shellPath));
}

/** The command, cwd and environment to run: PI_* session variables only when exposed, then the spawn hook. */
function spawnContext(command, cwd, spawnHook, exposeSessionEnvironment, ctx) {
  const env = { ...shellEnv() };
  for (const name of ["PI_SESSION_ID", "PI_SESSION_FILE", "PI_PROVIDER", "PI_MODEL", "PI_REASONING_LEVEL"]) delete env[name];
  if (exposeSessionEnvironment && ctx) {
    env.PI_SESSION_ID = ctx.sessionManager.getSessionId();
    const sessionFile = ctx.sessionManager.getSessionFile();
    if (sessionFile) env.PI_SESSION_FILE = sessionFile;
    if (ctx.model) {
      env.PI_PROVIDER = ctx.model.provider;
      env.PI_MODEL = ctx.model.id;
    }
    if (ctx.thinkingLevel) env.PI_REASONING_LEVEL = ctx.thinkingLevel;
  }
  const context = { command, cwd, env };
  return spawnHook ? spawnHook(context) : context;
}

/** The display text for a snapshot, with the truncation notice, and its details. */
function formatOutput(snapshot, lastLineBytes, emptyText = "(no output)") {
  const truncation = snapshot.truncation;
  let text = snapshot.content || emptyText;
  if (!truncation.truncated) return { text, details: undefined };
  const firstLine = truncation.totalLines - truncation.outputLines + 1;
  const lastLine = truncation.totalLines;
  const fullOutput = `Full output: ${snapshot.fullOutputPath}`;
  if (truncation.lastLinePartial) {
    text += `\n\n[Showing last ${formatSize(truncation.outputBytes)} of line ${lastLine} (line is ${formatSize(lastLineBytes)}). ${fullOutput}]`;
  } else if (truncation.truncatedBy === "lines") {
    text += `\n\n[Showing lines ${firstLine}-${lastLine} of ${truncation.totalLines}. ${fullOutput}]`;
  } else {
    text += `\n\n[Showing lines ${firstLine}-${lastLine} of ${truncation.totalLines} (${formatSize(DEFAULT_MAX_BYTES)} limit). ${fullOutput}]`;
  }
  return { text, details: { truncation, fullOutputPath: snapshot.fullOutputPath } };
}

const appendStatus = (text, status) => `${text ? `${text}\n\n` : ""}${status}`;

/** Updates at most every 100ms: the first at once, later ones on a timer; `flush` sends a pending one. */
function throttledUpdates(onUpdate, output) {
  let timer;
  let dirty = false;
  let lastAt = 0;
  const emit = () => {
    if (!onUpdate || !dirty) return;
    dirty = false;
    lastAt = Date.now();
    const snapshot = output.snapshot({ persistIfTruncated: true });
    onUpdate({
      content: [{ type: "text", text: snapshot.content || "" }],
      details: { truncation: snapshot.truncation.truncated ? snapshot.truncation : undefined, fullOutputPath: snapshot.fullOutputPath },
    });
  };
  const cancel = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  return {
    schedule() {
      if (!onUpdate) return;
      dirty = true;
      const delay = UPDATE_THROTTLE_MS - (Date.now() - lastAt);
      if (delay <= 0) {
        cancel();
        emit();
        return;
      }
      timer ??= setTimeout(() => {
        timer = undefined;
        emit();
      }, delay);
    },
    flush() {
      cancel();
      emit();
    },
    cancel,
  };
}

export function createShellToolDefinition(cwd, config, options) {
  const ops = options?.operations ?? createLocalBashOperations({ shellPath: options?.shellPath });
  const commandPrefix = options?.commandPrefix;
  const exposeSessionEnvironment = options?.exposeSessionEnvironment ?? true;
  const spawnHook = options?.spawnHook;
  return {
    name: config.name,
    label: config.label,
    description: `Execute a ${config.shellName} command in the current working directory. Returns stdout and stderr. Output is truncated to last ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first). If truncated, full output is saved to a temp file. Optionally provide a timeout in seconds.`,
    promptSnippet: config.promptSnippet,
    promptGuidelines: exposeSessionEnvironment && config.promptGuidelines ? [...config.promptGuidelines] : undefined,
    parameters: bashSchema,
    outputSchema: bashOutputSchema,
    constrainedSampling: { type: "json_schema", strict: "prefer" },
    async execute(_toolCallId, { command, timeout }, signal, onUpdate, ctx) {
      const fullCommand = commandPrefix ? `${commandPrefix}\n${command}` : command;
      const spawn = spawnContext(fullCommand, ctx?.cwd || cwd, spawnHook, exposeSessionEnvironment, ctx);
      const output = new OutputAccumulator({ tempFilePrefix: config.tempFilePrefix });
      const updates = throttledUpdates(onUpdate, output);
      let acceptingOutput = true;
      if (onUpdate) onUpdate({ content: [], details: undefined });
      const handleData = (data) => {
        if (!acceptingOutput) return;
        output.append(data);
        updates.schedule();
      };
      const finishOutput = async () => {
        acceptingOutput = false;
        output.finish();
        updates.flush();
        const snapshot = output.snapshot({ persistIfTruncated: true });
        await output.closeTempFile();
        return snapshot;
      };
      const startedAt = now();
      try {
        let exitCode;
        try {
          ({ exitCode } = await ops.exec(spawn.command, spawn.cwd, { onData: handleData, signal, timeout, env: spawn.env }));
        } catch (error) {
          const snapshot = await finishOutput();
          const { text } = formatOutput(snapshot, output.getLastLineBytes(), "");
          if (error instanceof Error && error.message === "aborted") throw new Error(appendStatus(text, "Command aborted"));
          if (error instanceof Error && error.message.startsWith("timeout:")) {
            let status = `Command timed out after ${error.message.split(":")[1]} seconds`;
            if (error instanceof ShellTimeoutError && error.shellExit) {
              status += `. The shell exited with code ${error.shellExit.exitCode} after ${error.shellExit.afterSeconds} seconds, but background processes it started kept writing output until the timeout.`;
            }
            throw new Error(appendStatus(text, status));
          }
          throw error;
        }
        const snapshot = await finishOutput();
        const { text, details } = formatOutput(snapshot, output.getLastLineBytes());
        if (exitCode === null) throw new Error(appendStatus(text, "Command terminated without an exit code"));
        const wallTimeSeconds = Math.round((now() - startedAt) / 100) / 10;
        const full = await output.readFullOutput(STRUCTURED_OUTPUT_MAX_BYTES);
        const structuredContent = {
          output: full.content,
          truncated: full.truncated,
          ...(full.truncated && snapshot.fullOutputPath ? { full_output_path: snapshot.fullOutputPath } : {}),
          exit_code: exitCode,
          wall_time_seconds: wallTimeSeconds,
        };
        if (exitCode !== 0) {
          return { content: [{ type: "text", text: appendStatus(text, `Command exited with code ${exitCode}`) }], details, structuredContent, isError: true };
        }
        return { content: [{ type: "text", text }], details, structuredContent };
      } finally {
        updates.cancel();
      }
    },
  };
}

const bashToolConfig = {
  name: "bash",
  label: "bash",
  shellName: "bash",
  promptSnippet: "Execute bash commands (ls, grep, find, etc.)",
  promptGuidelines: ["You can inspect PI_* environment variables for current model and session details."],
  tempFilePrefix: "pi-bash",
};

export function createBashToolDefinition(cwd, options) {
  return createShellToolDefinition(cwd, bashToolConfig, options);
}

export function createBashTool(cwd, options) {
  const definition = createBashToolDefinition(cwd, options);
  const tool = wrapToolDefinition(definition);
  Object.assign(tool, { promptSnippet: definition.promptSnippet, promptGuidelines: definition.promptGuidelines });
  return tool;
}
