// node:child_process: spawn with live streams and Node's event order
// (spawn, then exit, then close once the streams ended), exec and execFile
// on top of it, and the synchronous forms. Processes run on tokio
// (src/ops/spawn.rs, src/ops/process.rs); fork (an IPC channel to a Node
// child) is not provided.
import { ops } from "pihost:runtime/ops.js";
import { Buffer } from "pihost:node/buffer.js";
import EventEmitter from "pihost:node/events.js";
import { Readable, Writable } from "pihost:node/stream.js";
import { invalidArgType } from "pihost:node/internal/errors.js";
import { SIGNALS, SIGNAL_NAMES, errnoOf } from "pihost:node/internal/constants.js";

function shellOf(options) {
  return typeof options?.shell === "string" ? options.shell : "/bin/sh";
}

function run(file, args, options) {
  return ops.op_pihost_exec_sync(file, args, {
    cwd: options?.cwd ?? process.cwd(),
    input: options?.input === undefined ? undefined : String(options.input),
    env: options?.env,
    timeoutMs: options?.timeout,
  });
}

function output(text, options) {
  const encoding = options?.encoding;
  return encoding && encoding !== "buffer" ? text : Buffer.from(text);
}

function failIfUnsuccessful(result, commandText) {
  if (result.error) {
    const error = new Error(result.error);
    error.code = result.error.split(" ").pop();
    throw error;
  }
  if (result.status !== 0) {
    const error = new Error(`Command failed: ${commandText}\n${result.stderr}`);
    error.status = result.status;
    error.signal = result.signal;
    error.stdout = result.stdout;
    error.stderr = result.stderr;
    throw error;
  }
}

export function execSync(command, options) {
  const result = run(shellOf(options), ["-c", command], options);
  failIfUnsuccessful(result, command);
  return output(result.stdout, options);
}

export function execFileSync(file, args = [], options) {
  const result = run(file, args, options);
  failIfUnsuccessful(result, [file, ...args].join(" "));
  return output(result.stdout, options);
}

export function spawnSync(command, args = [], options) {
  const result = options?.shell
    ? run(shellOf(options), ["-c", [command, ...args].join(" ")], options)
    : run(command, args, options);
  const error = result.error ? Object.assign(new Error(result.error), { code: result.error.split(" ").pop() }) : undefined;
  return {
    pid: result.pid,
    status: result.status ?? null,
    signal: result.signal ?? null,
    stdout: output(result.stdout, options),
    stderr: output(result.stderr, options),
    output: [null, output(result.stdout, options), output(result.stderr, options)],
    error,
  };
}



function signalNumber(signal) {
  if (signal === undefined) return SIGNALS.SIGTERM;
  if (typeof signal === "number") return signal;
  const number = SIGNALS[signal];
  if (number === undefined) {
    const error = new TypeError(`Unknown signal: ${signal}`);
    error.code = "ERR_UNKNOWN_SIGNAL";
    throw error;
  }
  return number;
}

function stdioKinds(stdio) {
  if (stdio === undefined) return ["pipe", "pipe", "pipe"];
  if (typeof stdio === "string") return [stdio, stdio, stdio];
  return [0, 1, 2].map((index) => {
    const kind = stdio[index];
    if (kind === undefined || kind === null || kind === "overlapped") return "pipe";
    if (kind === "pipe" || kind === "ignore" || kind === "inherit") return kind;
    // A stream or fd of the parent: the host's own, so inherit.
    return "inherit";
  });
}

function childEnvironment(env) {
  if (env === undefined) return undefined;
  const result = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) result[key] = String(value);
  return result;
}

export class ChildProcess extends EventEmitter {
  pid = undefined;
  exitCode = null;
  signalCode = null;
  killed = false;
  connected = false;
  stdin = null;
  stdout = null;
  stderr = null;
  stdio = [null, null, null];
  spawnfile = undefined;
  spawnargs = [];
  #id = undefined;

  /** Starts the process; failures arrive as an `error` event, as in Node. */
  spawn(options) {
    const { file, args, cwd, env, stdio, detached } = options;
    this.spawnfile = file;
    this.spawnargs = [file, ...args];
    const kinds = stdioKinds(stdio);
    let spawned;
    try {
      spawned = ops.op_pihost_spawn(file, args, { cwd, env: childEnvironment(env), stdio: kinds, detached: Boolean(detached) });
    } catch (cause) {
      const code = String(cause?.message ?? cause);
      const error = new Error(`spawn ${file} ${code}`);
      Object.assign(error, { errno: errnoOf(code), code, syscall: `spawn ${file}`, path: file, spawnargs: args });
      // Node still gives the streams, so code that attaches listeners first works.
      if (kinds[1] === "pipe") this.stdout = Readable.from([]);
      if (kinds[2] === "pipe") this.stderr = Readable.from([]);
      this.stdio = [null, this.stdout, this.stderr];
      // Node reports the failed spawn's errno as the exit code.
      this.exitCode = error.errno;
      queueMicrotask(() => {
        this.emit("error", error);
        this.emit("close", error.errno, null);
      });
      return error;
    }
    this.#id = spawned.id;
    this.pid = spawned.pid;
    const id = spawned.id;
    const open = [];
    if (kinds[0] === "pipe") {
      this.stdin = new Writable({
        write(chunk, encoding, callback) {
          const bytes = typeof chunk === "string" ? Buffer.from(chunk, encoding) : chunk;
          ops.op_pihost_spawn_write(id, bytes).then(() => callback(), (error) => callback(Object.assign(new Error("write EPIPE"), { code: "EPIPE", syscall: "write", errno: -32, cause: error })));
        },
        final(callback) {
          ops.op_pihost_spawn_close_stdin(id).then(() => callback(), () => callback());
        },
      });
    }
    const reader = (fd) => {
      const stream = new Readable({ read() {} });
      const finished = new Promise((resolve) => {
        stream.once("end", resolve);
        stream.once("close", resolve);
        stream.once("error", resolve);
      });
      open.push(finished);
      (async () => {
        try {
          for (;;) {
            const chunk = await ops.op_pihost_spawn_read(id, fd);
            if (chunk === null) break;
            stream.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          }
        } catch {
          // The process table entry went away: treat as end of stream.
        }
        stream.push(null);
      })();
      return stream;
    };
    if (kinds[1] === "pipe") this.stdout = reader(1);
    if (kinds[2] === "pipe") this.stderr = reader(2);
    this.stdio = [this.stdin, this.stdout, this.stderr];
    queueMicrotask(() => this.emit("spawn"));
    ops.op_pihost_spawn_wait(id).then(
      async (status) => {
        this.exitCode = status.code ?? null;
        this.signalCode = status.signal ? (SIGNAL_NAMES[status.signal] ?? status.signal) : null;
        this.emit("exit", this.exitCode, this.signalCode);
        // A stream nobody reads would never end; Node's close waits for the
        // pipes to be drained, so reading-by-default is what keeps it honest.
        for (const stream of [this.stdout, this.stderr]) if (stream && stream.readableFlowing === null) stream.resume();
        await Promise.all(open);
        ops.op_pihost_spawn_release(id);
        this.emit("close", this.exitCode, this.signalCode);
      },
      (error) => this.emit("error", error),
    );
    return undefined;
  }

  kill(signal) {
    if (this.#id === undefined || this.exitCode !== null || this.signalCode !== null) return false;
    const sent = ops.op_pihost_spawn_kill(this.#id, signalNumber(signal));
    if (sent) this.killed = true;
    return sent;
  }

  ref() {}
  unref() {}
  disconnect() {}
  [Symbol.dispose]() {
    this.kill();
  }
}

function normalizeSpawnArguments(file, args, options) {
  if (typeof file !== "string") throw invalidArgType("file", "of type string", file);
  if (!Array.isArray(args)) {
    options = args;
    args = [];
  }
  options = { ...(options ?? {}) };
  let command = file;
  let commandArgs = args.map(String);
  if (options.shell) {
    const text = [file, ...commandArgs].join(" ");
    command = shellOf(options);
    commandArgs = ["-c", text];
  }
  return { file: command, args: commandArgs, options };
}

export function spawn(file, args, options) {
  const normalized = normalizeSpawnArguments(file, args, options);
  const child = new ChildProcess();
  const { options: spawnOptions } = normalized;
  const cwd = spawnOptions.cwd === undefined ? process.cwd() : String(spawnOptions.cwd);
  child.spawn({
    file: normalized.file,
    args: normalized.args,
    cwd,
    env: spawnOptions.env,
    stdio: spawnOptions.stdio,
    detached: spawnOptions.detached,
  });
  const killSignal = spawnOptions.killSignal;
  if (spawnOptions.timeout > 0) {
    const timer = setTimeout(() => child.kill(killSignal), spawnOptions.timeout);
    child.once("exit", () => clearTimeout(timer));
  }
  const signal = spawnOptions.signal;
  if (signal) {
    const onAbort = () => {
      child.kill(killSignal);
      const error = new Error("The operation was aborted");
      Object.assign(error, { name: "AbortError", code: "ABORT_ERR", cause: signal.reason });
      child.emit("error", error);
    };
    if (signal.aborted) queueMicrotask(onAbort);
    else {
      signal.addEventListener("abort", onAbort, { once: true });
      child.once("exit", () => signal.removeEventListener("abort", onAbort));
    }
  }
  return child;
}

const DEFAULT_MAX_BUFFER = 1024 * 1024;

function collectOutput(child, command, options, callback) {
  const encoding = options.encoding ?? "utf8";
  const maxBuffer = options.maxBuffer ?? DEFAULT_MAX_BUFFER;
  const stdout = [];
  const stderr = [];
  let sizes = [0, 0];
  let failure = null;
  const collect = (chunks, index) => (chunk) => {
    sizes[index] += chunk.length;
    if (sizes[index] > maxBuffer && !failure) {
      failure = new RangeError(`${index === 0 ? "stdout" : "stderr"} maxBuffer length exceeded`);
      failure.code = "ERR_CHILD_PROCESS_STDIO_MAXBUFFER";
      child.kill(options.killSignal);
      return;
    }
    chunks.push(chunk);
  };
  child.stdout?.on("data", collect(stdout, 0));
  child.stderr?.on("data", collect(stderr, 1));
  const text = (chunks) => {
    const buffer = Buffer.concat(chunks);
    return encoding === "buffer" || encoding === null ? buffer : buffer.toString(encoding);
  };
  let reported = false;
  const finish = (error, out, err) => {
    if (reported) return;
    reported = true;
    callback?.(error, out, err);
  };
  child.once("error", (error) => finish(Object.assign(error, { cmd: command }), text(stdout), text(stderr)));
  child.once("close", (code, signal) => {
    const out = text(stdout);
    const err = text(stderr);
    if (failure) return finish(Object.assign(failure, { cmd: command }), out, err);
    if (code === 0 && signal === null) return finish(null, out, err);
    const error = new Error(`Command failed: ${command}\n${err}`);
    Object.assign(error, { code: code ?? undefined, killed: child.killed, signal, cmd: command });
    if (code === null) error.code = undefined;
    finish(error, out, err);
  });
}

function promiseOf(start) {
  return (...args) => {
    let child;
    const promise = new Promise((resolve, reject) => {
      child = start(...args, (error, stdout, stderr) => {
        if (error) reject(Object.assign(error, { stdout, stderr }));
        else resolve({ stdout, stderr });
      });
    });
    promise.child = child;
    return promise;
  };
}

export function exec(command, options, callback) {
  if (typeof options === "function") {
    callback = options;
    options = undefined;
  }
  options = { ...(options ?? {}) };
  const child = spawn(command, [], { ...options, shell: options.shell ?? true });
  collectOutput(child, command, options, callback);
  return child;
}

export function execFile(file, args, options, callback) {
  if (typeof args === "function") {
    callback = args;
    args = [];
    options = undefined;
  } else if (!Array.isArray(args)) {
    callback = options;
    options = args;
    args = [];
  }
  if (typeof options === "function") {
    callback = options;
    options = undefined;
  }
  options = { ...(options ?? {}) };
  const child = spawn(file, args ?? [], options);
  collectOutput(child, [file, ...(args ?? [])].join(" "), options, callback);
  return child;
}

const PROMISIFY = Symbol.for("nodejs.util.promisify.custom");
Object.defineProperty(exec, PROMISIFY, { value: promiseOf(exec), enumerable: false });
Object.defineProperty(execFile, PROMISIFY, { value: promiseOf(execFile), enumerable: false });

export function fork() {
  throw new Error("pihost: child_process.fork is not available (extensions cannot start Node children with an IPC channel)");
}

export default { ChildProcess, execSync, execFileSync, spawnSync, spawn, exec, execFile, fork };
