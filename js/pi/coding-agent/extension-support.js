// How pi-coding-agent's resource loader and sessions reach pihost's own
// extension loader and runner. Those live in the runtime (js/runtime/), which
// only pihost's engine can load; the Node differentials import
// pi-coding-agent.js without it. pi-coding-agent.engine.js provides them when
// the engine loads the package; where nothing was provided, loading
// extensions into a resource loader fails with pihost's error.

let provided;

/** Called once by pi-coding-agent.engine.js. */
export function provideExtensionSupport(support) {
  provided = support;
}

/** The runtime's loader and runner, or undefined outside pihost's engine. */
export function extensionSupport() {
  return provided;
}
