// node:child_process, the synchronous forms for now: execSync, execFileSync
// and spawnSync. The streaming forms (spawn, exec) come with the full Node layer.
import { ops } from "pihost:runtime/ops.js";
import { Buffer } from "pihost:node/buffer.js";

function shellOf(options) {
  return typeof options?.shell === "string" ? options.shell : "/bin/sh";
}

function run(file, args, options) {
  return ops.op_pihost_exec_sync(file, args, {
    cwd: options?.cwd,
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

function notYet(name) {
  return () => {
    throw new Error(`pihost: child_process.${name} is not implemented yet`);
  };
}

export const spawn = notYet("spawn");
export const exec = notYet("exec");
export const execFile = notYet("execFile");
export const fork = notYet("fork");

export default { execSync, execFileSync, spawnSync, spawn, exec, execFile, fork };
