// pi.exec (A8): runs a program without a shell, collects its output, and
// ends it on timeout or abort. The process work happens in Rust on tokio.
import { ops } from "pihost:runtime/ops.js";
import { ArrayPrototypeMap } from "pihost:runtime/primordials.js";

/**
 * Runs `command` with `args` in `cwd`.
 * Resolves `{ stdout, stderr, code, killed, truncated }`; a program that cannot
 * start is a failed run (code 1, the error in stderr), not a rejection.
 */
export async function execCommand(command, args, cwd, options) {
  let id;
  try {
    id = ops.op_pihost_exec_start(String(command), ArrayPrototypeMap(args ?? [], (arg) => String(arg)), String(cwd));
  } catch (error) {
    return { stdout: "", stderr: error.message, code: 1, killed: false, truncated: false };
  }
  const signal = options?.signal;
  const abort = () => ops.op_pihost_exec_kill(id);
  if (signal) {
    if (signal.aborted) abort();
    else signal.addEventListener?.("abort", abort, { once: true });
  }
  try {
    const timeout = options?.timeout && options.timeout > 0 ? options.timeout : 0;
    return await ops.op_pihost_exec_wait(id, timeout);
  } finally {
    signal?.removeEventListener?.("abort", abort);
  }
}
