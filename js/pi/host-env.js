// Where pi's own code reads the host's environment (the colour mode, the
// agent directory, the terminal): process.env under Node. pihost points it
// at the runtime's environment without going through node:process, which
// would cost every runtime its evaluation at start-up and, in a sandbox,
// refuse pi's own settings to the extension that happens to call pi.
let source = () => globalThis.process?.env ?? {};

/** The environment pi's own code reads, as an object of names to values. */
export function hostEnv() {
  return source();
}

/** Makes pi's code read `read()` instead of process.env (pihost's runtime does). */
export function setHostEnvSource(read) {
  source = read;
}
