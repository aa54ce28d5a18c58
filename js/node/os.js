// node:os over pihost's system op.
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
export function endianness() {
  return "LE";
}
export function cpus() {
  return Array.from({ length: info().cpuCount }, () => ({ model: "unknown", speed: 0, times: {} }));
}
export function availableParallelism() {
  return info().cpuCount;
}
export function userInfo() {
  const home = homedir();
  return { username: home.split("/").pop() || "root", homedir: home, shell: null, uid: -1, gid: -1 };
}
export const constants = {
  signals: { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15, SIGUSR1: 10, SIGUSR2: 12 },
};

export default {
  EOL,
  devNull,
  homedir,
  tmpdir,
  hostname,
  platform,
  arch,
  type,
  endianness,
  cpus,
  availableParallelism,
  userInfo,
  constants,
};
