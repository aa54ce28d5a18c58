// node:process: the global `process` (js/runtime/globals.js) as a module.
const process = globalThis.process;

export default process;
export const { env, argv, platform, arch, pid, ppid, version, versions, execPath, stdout, stderr, stdin } = process;
export const cwd = (...args) => process.cwd(...args);
export const chdir = (...args) => process.chdir(...args);
export const exit = (...args) => process.exit(...args);
export const nextTick = (...args) => process.nextTick(...args);
export const hrtime = process.hrtime;
export const uptime = (...args) => process.uptime(...args);
export const memoryUsage = process.memoryUsage;
export const emitWarning = (...args) => process.emitWarning(...args);
export const on = (...args) => process.on(...args);
export const once = (...args) => process.once(...args);
export const off = (...args) => process.off(...args);
export const kill = (...args) => process.kill(...args);
