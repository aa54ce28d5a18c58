// node:perf_hooks: the global `performance`, as a module.
export const performance = globalThis.performance;
export const constants = {};
export default { performance, constants };
