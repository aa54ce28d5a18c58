// pi's RpcClient: runs `node <cliPath> --mode rpc …` as a child process and
// talks to it in strict JSON lines: one command per line on its stdin, each
// answered by a `{ type: "response", id }` line on its stdout; every other
// stdout line is an event for onEvent listeners. The program is the caller's
// (pi's CLI, or anything that speaks the protocol); the sandbox checks the
// spawn like any other.
import { spawn } from "node:child_process";
import process from "node:process";

const START_GRACE_MS = 100;
const STOP_GRACE_MS = 1000;
const RESPONSE_TIMEOUT_MS = 30000;
const DEFAULT_IDLE_TIMEOUT_MS = 60000;

/**
 * Splits a stream into lines at "\n" only (a trailing "\r" dropped), so
 * U+2028/U+2029 inside JSON strings stay inside their record, which Node's
 * readline would not do. Returns a function that detaches the reader.
 */
function readJsonLines(stream, onLine) {
  const decoder = new TextDecoder("utf-8");
  let pending = "";
  const deliver = (line) => onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
  const onData = (chunk) => {
    pending += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    let newline;
    while ((newline = pending.indexOf("\n")) !== -1) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      deliver(line);
    }
  };
  const onEnd = () => {
    pending += decoder.decode();
    if (pending.length > 0) {
      const rest = pending;
      pending = "";
      deliver(rest);
    }
  };
  stream.on("data", onData);
  stream.on("end", onEnd);
  return () => {
    stream.off("data", onData);
    stream.off("end", onEnd);
  };
}

export class RpcClient {
  process = null;
  stopReadingStdout = null;
  eventListeners = [];
  pendingRequests = new Map();
  requestId = 0;
  stderr = "";
  exitError = null;
  options;

  constructor(options = {}) {
    this.options = options;
  }

  /** Spawns the agent and gives it a moment to fail before resolving. */
  async start() {
    if (this.process) throw new Error("Client already started");
    this.exitError = null;
    const { cliPath = "dist/cli.js", provider, model, args: extraArgs, cwd, env } = this.options;
    const args = [cliPath, "--mode", "rpc"];
    if (provider) args.push("--provider", provider);
    if (model) args.push("--model", model);
    if (extraArgs) args.push(...extraArgs);
    const child = spawn("node", args, { cwd, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
    this.process = child;

    // Events from a child this client has since stopped or replaced are not its business.
    const isCurrent = () => this.process === child;
    const fail = (error) => {
      this.exitError = error;
      this.rejectPendingRequests(error);
    };
    child.stderr?.on("data", (data) => {
      this.stderr += data.toString();
      process.stderr.write(data);
    });
    child.once("exit", (code, signal) => {
      if (isCurrent()) fail(this.createProcessExitError(code, signal));
    });
    child.once("error", (error) => {
      if (isCurrent()) fail(new Error(`Agent process error: ${error.message}. Stderr: ${this.stderr}`));
    });
    child.stdin?.on("error", (error) => {
      if (isCurrent()) fail(this.exitError ?? new Error(`Agent process stdin error: ${error.message}. Stderr: ${this.stderr}`));
    });
    this.stopReadingStdout = readJsonLines(child.stdout, (line) => this.handleLine(line));

    await new Promise((resolve) => setTimeout(resolve, START_GRACE_MS));
    if (this.process.exitCode !== null) {
      this.exitError ??= this.createProcessExitError(this.process.exitCode, this.process.signalCode);
      throw this.exitError;
    }
  }

  /** SIGTERM, then SIGKILL if the agent has not exited within a second. */
  async stop() {
    if (!this.process) return;
    this.stopReadingStdout?.();
    this.stopReadingStdout = null;
    this.process.kill("SIGTERM");
    await new Promise((resolve) => {
      const killTimer = setTimeout(() => {
        this.process?.kill("SIGKILL");
        resolve();
      }, STOP_GRACE_MS);
      this.process?.on("exit", () => {
        clearTimeout(killTimer);
        resolve();
      });
    });
    this.process = null;
    this.pendingRequests.clear();
  }

  onEvent(listener) {
    this.eventListeners.push(listener);
    return () => {
      const index = this.eventListeners.indexOf(listener);
      if (index !== -1) this.eventListeners.splice(index, 1);
    };
  }

  getStderr() {
    return this.stderr;
  }

  // --- Commands -------------------------------------------------------------

  async prompt(message, images, streamingBehavior) {
    return (await this.#request({ type: "prompt", message, images, streamingBehavior })).disposition;
  }
  async steer(message, images) {
    return (await this.#request({ type: "steer", message, images })).disposition;
  }
  async followUp(message, images) {
    return (await this.#request({ type: "follow_up", message, images })).disposition;
  }
  async abort() {
    await this.send({ type: "abort" });
  }
  async clearQueue() {
    return this.#request({ type: "clear_queue" });
  }
  async newSession(parentSession) {
    return this.#request({ type: "new_session", parentSession });
  }
  async getState() {
    return this.#request({ type: "get_state" });
  }
  async setModel(provider, modelId) {
    return this.#request({ type: "set_model", provider, modelId });
  }
  async cycleModel() {
    return this.#request({ type: "cycle_model" });
  }
  async getAvailableModels() {
    return (await this.#request({ type: "get_available_models" })).models;
  }
  async setThinkingLevel(level) {
    await this.send({ type: "set_thinking_level", level });
  }
  async cycleThinkingLevel() {
    return this.#request({ type: "cycle_thinking_level" });
  }
  async getAvailableThinkingLevels() {
    return (await this.#request({ type: "get_available_thinking_levels" })).levels;
  }
  async setSteeringMode(mode) {
    await this.send({ type: "set_steering_mode", mode });
  }
  async setFollowUpMode(mode) {
    await this.send({ type: "set_follow_up_mode", mode });
  }
  async compact(customInstructions) {
    return this.#request({ type: "compact", customInstructions });
  }
  async setAutoCompaction(enabled) {
    await this.send({ type: "set_auto_compaction", enabled });
  }
  async setAutoRetry(enabled) {
    await this.send({ type: "set_auto_retry", enabled });
  }
  async abortRetry() {
    await this.send({ type: "abort_retry" });
  }
  async bash(command) {
    return this.#request({ type: "bash", command });
  }
  async abortBash() {
    await this.send({ type: "abort_bash" });
  }
  async getSessionStats() {
    return this.#request({ type: "get_session_stats" });
  }
  async exportHtml(outputPath) {
    return this.#request({ type: "export_html", outputPath });
  }
  async switchSession(sessionPath) {
    return this.#request({ type: "switch_session", sessionPath });
  }
  async fork(entryId) {
    return this.#request({ type: "fork", entryId });
  }
  async clone() {
    return this.#request({ type: "clone" });
  }
  async getForkMessages() {
    return (await this.#request({ type: "get_fork_messages" })).messages;
  }
  async getEntries(since) {
    return this.#request({ type: "get_entries", since });
  }
  async getTree() {
    return this.#request({ type: "get_tree" });
  }
  async getLastAssistantText() {
    return (await this.#request({ type: "get_last_assistant_text" })).text;
  }
  async setSessionName(name) {
    await this.send({ type: "set_session_name", name });
  }
  async getMessages() {
    return (await this.#request({ type: "get_messages" })).messages;
  }
  async getCommands() {
    return (await this.#request({ type: "get_commands" })).commands;
  }

  // --- Waiting for the agent -----------------------------------------------

  /** Resolves at the next agent_settled event. */
  waitForIdle(timeout = DEFAULT_IDLE_TIMEOUT_MS) {
    return this.#untilSettled(timeout, "Timeout waiting for agent to become idle", () => {}).then(() => undefined);
  }

  /** Every event up to and including the next agent_settled. */
  collectEvents(timeout = DEFAULT_IDLE_TIMEOUT_MS) {
    const events = [];
    return this.#untilSettled(timeout, "Timeout collecting events", (event) => events.push(event)).then(() => events);
  }

  async promptAndWait(message, images, timeout = DEFAULT_IDLE_TIMEOUT_MS) {
    const settled = this.collectEvents(timeout);
    await this.prompt(message, images);
    return settled;
  }

  #untilSettled(timeout, timeoutMessage, onEachEvent) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        unsubscribe();
        reject(new Error(`${timeoutMessage}. Stderr: ${this.stderr}`));
      }, timeout);
      const unsubscribe = this.onEvent((event) => {
        onEachEvent(event);
        if (event.type !== "agent_settled") return;
        clearTimeout(timer);
        unsubscribe();
        resolve();
      });
    });
  }

  // --- The wire -------------------------------------------------------------

  handleLine(line) {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      return; // Not a record: stray output from the agent.
    }
    try {
      if (message.type === "response" && message.id && this.pendingRequests.has(message.id)) {
        const pending = this.pendingRequests.get(message.id);
        this.pendingRequests.delete(message.id);
        pending.resolve(message);
        return;
      }
      // A snapshot, so a listener that unsubscribes does not make the next one miss this event.
      for (const listener of [...this.eventListeners]) listener(message);
    } catch {
      // A throwing listener must not break the read loop.
    }
  }

  createProcessExitError(code, signal) {
    return new Error(`Agent process exited (code=${code} signal=${signal}). Stderr: ${this.stderr}`);
  }

  rejectPendingRequests(error) {
    for (const pending of this.pendingRequests.values()) pending.reject(error);
    this.pendingRequests.clear();
  }

  /** Writes one command with a fresh id; resolves with its response line. */
  async send(command) {
    const child = this.process;
    const stdin = child?.stdin;
    if (!child || !stdin) throw new Error("Client not started");
    if (this.exitError) throw this.exitError;
    if (child.exitCode !== null) {
      this.exitError = this.createProcessExitError(child.exitCode, child.signalCode);
      throw this.exitError;
    }
    if (stdin.destroyed || !stdin.writable) {
      this.exitError = new Error(`Agent process stdin is not writable. Stderr: ${this.stderr}`);
      throw this.exitError;
    }
    const id = `req_${++this.requestId}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pendingRequests.delete(id);
        reject(new Error(`Timeout waiting for response to ${command.type}. Stderr: ${this.stderr}`));
      }, RESPONSE_TIMEOUT_MS);
      const settle = (finish) => (value) => {
        clearTimeout(timer);
        finish(value);
      };
      this.pendingRequests.set(id, { resolve: settle(resolve), reject: settle(reject) });
      try {
        stdin.write(`${JSON.stringify({ ...command, id })}\n`);
      } catch (error) {
        const pending = this.pendingRequests.get(id);
        this.pendingRequests.delete(id);
        pending?.reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  /** A response's data, or its error as a thrown Error. */
  getData(response) {
    if (!response.success) throw new Error(response.error);
    return response.data;
  }

  async #request(command) {
    return this.getData(await this.send(command));
  }
}
