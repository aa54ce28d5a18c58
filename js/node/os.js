// node:os over pihost's system ops (src/ops/system.rs): facts read once per
// runtime, and memory, uptime and load read when asked.
import { ops } from "pihost:runtime/ops.js";

let cached;
function info() {
  cached ??= ops.op_pihost_os_info();
  return cached;
}

export const EOL = "\n";
export const devNull = "/dev/null";
export function homedir() {
  return info().homedir;
}
export function tmpdir() {
  return info().tmpdir;
}
export function hostname() {
  return info().hostname;
}
export function platform() {
  return info().platform;
}
export function arch() {
  return info().arch;
}
export function type() {
  return info().platform === "darwin" ? "Darwin" : info().platform === "win32" ? "Windows_NT" : "Linux";
}
export function release() {
  return info().release;
}
export function version() {
  return info().version;
}
export function machine() {
  return info().machine;
}
export function endianness() {
  return "LE";
}
export function cpus() {
  return Array.from({ length: info().cpuCount }, () => ({
    model: "unknown",
    speed: 0,
    times: { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 },
  }));
}
export function availableParallelism() {
  return info().cpuCount;
}
export function totalmem() {
  return ops.op_pihost_system_load().totalMemory;
}
export function freemem() {
  return ops.op_pihost_system_load().freeMemory;
}
export function uptime() {
  return ops.op_pihost_system_load().uptimeSeconds;
}
export function loadavg() {
  return ops.op_pihost_system_load().loadAverage;
}
export function networkInterfaces() {
  // Not read: extensions have no business with the host's addresses.
  return {};
}
export function userInfo() {
  const { username, uid, gid, shell } = info();
  return { uid, gid, username, homedir: homedir(), shell: shell ?? null };
}
export function getPriority() {
  return 0;
}
export function setPriority() {
  throw new Error("pihost: os.setPriority is not available");
}

const signals = {
  SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGILL: 4, SIGTRAP: 5, SIGABRT: 6, SIGIOT: 6, SIGBUS: 7, SIGFPE: 8, SIGKILL: 9,
  SIGUSR1: 10, SIGSEGV: 11, SIGUSR2: 12, SIGPIPE: 13, SIGALRM: 14, SIGTERM: 15, SIGCHLD: 17, SIGSTKFLT: 16,
  SIGCONT: 18, SIGSTOP: 19, SIGTSTP: 20, SIGTTIN: 21, SIGTTOU: 22, SIGURG: 23, SIGXCPU: 24, SIGXFSZ: 25,
  SIGVTALRM: 26, SIGPROF: 27, SIGWINCH: 28, SIGIO: 29, SIGPOLL: 29, SIGPWR: 30, SIGSYS: 31,
};
const errno = {
  E2BIG: 7, EACCES: 13, EADDRINUSE: 98, EAGAIN: 11, EBADF: 9, EBUSY: 16, ECHILD: 10, ECONNREFUSED: 111,
  ECONNRESET: 104, EEXIST: 17, EINTR: 4, EINVAL: 22, EIO: 5, EISDIR: 21, EMFILE: 24, ENOENT: 2, ENOMEM: 12,
  ENOSPC: 28, ENOTDIR: 20, ENOTEMPTY: 39, EPERM: 1, EPIPE: 32, ETIMEDOUT: 110,
};
export const constants = { signals, errno, priority: { PRIORITY_LOW: 19, PRIORITY_NORMAL: 0, PRIORITY_HIGH: -7 } };

export default {
  EOL,
  devNull,
  homedir,
  tmpdir,
  hostname,
  platform,
  arch,
  type,
  release,
  version,
  machine,
  endianness,
  cpus,
  availableParallelism,
  totalmem,
  freemem,
  uptime,
  loadavg,
  networkInterfaces,
  userInfo,
  getPriority,
  setPriority,
  constants,
};
