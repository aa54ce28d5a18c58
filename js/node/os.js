// node:os over pihost's system ops (src/ops/system.rs): facts read once per
// runtime, and memory, uptime and load read when asked.
import { ops } from "pihost:runtime/ops.js";
import { ERRNO, SIGNALS } from "pihost:node/internal/constants.js";

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

export const constants = { signals: SIGNALS, errno: ERRNO, priority: { PRIORITY_LOW: 19, PRIORITY_NORMAL: 0, PRIORITY_HIGH: -7 } };

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
