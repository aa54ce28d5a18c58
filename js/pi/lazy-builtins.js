// Node built-ins that pi's packages need only in some calls, loaded on the
// first such call instead of when an extension imports the package: in pi
// they are loaded already, but in a pihost runtime the first import of
// node:crypto costs about 19 ms (deno_node's polyfills are loaded and
// compiled then), and every extension that imports pi-coding-agent would pay
// it. `process.getBuiltinModule` is Node 22's synchronous way to them.

/** node:crypto, loaded on first use. */
export function nodeCrypto() {
  return globalThis.process.getBuiltinModule("node:crypto");
}
