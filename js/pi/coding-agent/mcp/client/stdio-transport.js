// MCP over a child process's stdin and stdout (the stdio transport). The
// server runs in its own process group where the platform has them, so
// closing reaches what it started too (`npx` and `uvx` wrap the real
// server). Closing follows the spec: end stdin and let the server exit,
// then SIGTERM, then SIGKILL.
import { spawn } from "node:child_process";
import process from "node:process";
import { JsonLineReader } from "./json-lines.js";
import { McpConnectionClosedError } from "./jsonrpc.js";
import { TransportListeners } from "./transport-events.js";

const DEFAULT_CLOSE_TIMEOUT_MS = 2_000;
/** Time a server gets to exit by itself once stdin is closed. */
const STDIN_CLOSE_GRACE_MS = 500;
const usesProcessGroups = () => process.platform !== "win32";

/** Groups of servers still running, ended if the host exits without closing them. */
const runningGroups = new Set();
let exitCleanupInstalled = false;

function ensureExitCleanup() {
  if (exitCleanupInstalled) return;
  exitCleanupInstalled = true;
  process.once("exit", () => {
    for (const pid of runningGroups) {
      try {
        process.kill(-pid, "SIGTERM");
      } catch {}
    }
  });
}

/** Signals the server's whole group, or the server alone where there is none. */
function signalServer(child, signal) {
  const { pid } = child;
  if (process.platform === "win32" && pid !== undefined) {
    if (child.exitCode !== null) return;
    // No signals on Windows; taskkill /T also ends the cmd.exe shims run in between.
    spawn("taskkill", ["/pid", String(pid), "/T", "/F"], { stdio: "ignore", windowsHide: true }).on("error", () => {});
    return;
  }
  if (usesProcessGroups() && pid !== undefined) {
    try {
      process.kill(-pid, signal);
      return;
    } catch {
      // No such group (any more): fall back to the child itself.
    }
  }
  try {
    child.kill(signal);
  } catch {}
}

export class StdioTransport extends TransportListeners {
  #options;
  #reader;
  #child;
  #started = false;
  #closed = false;

  /**
   * `command`, `args`, `cwd`, `env` (added to the host's environment unless
   * `inheritEnv` is false), `stderr` ("pipe" or "inherit"), `closeTimeoutMs`,
   * `maxMessageBytes`, `maxStderrBytes`, `onStderr`.
   */
  constructor(options) {
    super();
    this.#options = { ...options, args: options.args ? [...options.args] : undefined };
    this.#reader = new JsonLineReader({
      maxMessageBytes: options.maxMessageBytes,
      maxStderrBytes: options.maxStderrBytes,
      onStderr: options.onStderr,
      onMessage: (message) => this.emitMessage(message),
      onError: (error) => this.emitError(error),
    });
  }

  get pid() {
    return this.#child?.pid;
  }

  /** The last bytes the server wrote to stderr. */
  get stderr() {
    return this.#reader.stderr;
  }

  async start() {
    if (this.#started) throw new Error("MCP stdio transport already started");
    if (this.#closed) throw new McpConnectionClosedError();
    this.#started = true;
    const options = this.#options;
    const env = options.inheritEnv === false ? { ...options.env } : { ...process.env, ...options.env };
    const child = spawn(options.command, options.args ?? [], {
      cwd: options.cwd,
      env,
      stdio: ["pipe", "pipe", options.stderr === "inherit" ? "inherit" : "pipe"],
      windowsHide: true,
      detached: usesProcessGroups(),
    });
    this.#child = child;
    if (usesProcessGroups() && child.pid !== undefined) {
      const { pid } = child;
      ensureExitCleanup();
      runningGroups.add(pid);
      // "close", not "exit": the server's own children may hold its pipes after it exited.
      child.once("close", () => runningGroups.delete(pid));
    }
    child.stdout?.on("data", (chunk) => this.#reader.readStdout(chunk));
    child.stdout?.on("error", (error) => this.emitError(error));
    child.stderr?.on("data", (chunk) => this.#reader.readStderr(chunk));
    child.stderr?.on("error", (error) => this.emitError(error));
    child.stdin?.on("error", (error) => {
      if (!this.#closed) this.emitError(error);
    });
    child.on("close", () => {
      this.#child = undefined;
      this.#reader.end();
      this.emitClose();
    });
    await new Promise((resolve, reject) => {
      const spawned = () => {
        child.off("error", failed);
        resolve();
      };
      const failed = (error) => {
        child.off("spawn", spawned);
        reject(error);
      };
      child.once("spawn", spawned);
      child.once("error", failed);
    });
    child.on("error", (error) => {
      if (!this.#closed) this.emitError(error);
    });
  }

  async send(message) {
    const stdin = this.#child?.stdin;
    if (!this.#started || this.#closed || !stdin?.writable) throw new McpConnectionClosedError();
    const line = `${JSON.stringify(message)}\n`;
    await new Promise((resolve, reject) => {
      stdin.write(line, (error) => (error ? reject(error) : resolve()));
    });
  }

  async close() {
    if (this.#closed) return;
    this.#closed = true;
    const child = this.#child;
    if (!child) {
      this.emitClose();
      return;
    }
    // Without process groups an exited server leaves nothing to clean up.
    if (!usesProcessGroups() && (child.exitCode !== null || child.signalCode !== null)) {
      child.stdin?.end();
      return;
    }
    const timeoutMs = this.#options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
    const grace = Math.min(STDIN_CLOSE_GRACE_MS, timeoutMs);
    await new Promise((resolve) => {
      const timers = [
        setTimeout(() => signalServer(child, "SIGTERM"), grace),
        setTimeout(() => signalServer(child, "SIGKILL"), grace + timeoutMs),
      ];
      child.once("close", () => {
        for (const timer of timers) clearTimeout(timer);
        // Children that ignored stdin closing would outlive the server otherwise.
        signalServer(child, "SIGTERM");
        resolve();
      });
      child.stdin?.end();
    });
  }
}
