// The reload sequence (H1), as pi's AgentSession runs it, with the loader,
// runner and binding passed in. Pure: it imports only the captured
// built-ins, so the compat driver runs this very file against the reference
// pi's loader and runner, and pihost's own reload runs it against pihost's.
//
// session_shutdown (reason "reload") to the old extensions, invalidate them,
// load anew, keep the flag values (active tools live in the host), bind the
// same host again, session_start (reason "reload"), then the report of MCP
// servers no extension connects. Callers then use the
// returned runner for everything (H2).

import { ArrayFromEntries } from "./primordials.js";

/**
 * deps: { loadExtensions(): Promise<{ extensions, errors, runtime }>,
 *         createRunner(loaded): runner, bind(runner): void, bound: boolean }
 * Resolves to { runner, loaded }.
 */
export async function reloadExtensions(oldRunner, deps) {
  const previousFlagValues = oldRunner.getFlagValues();
  if (oldRunner.hasHandlers("session_shutdown")) {
    await oldRunner.emit({ type: "session_shutdown", reason: "reload" });
  }
  oldRunner.invalidate();
  const loaded = await deps.loadExtensions();
  const flagValues = ArrayFromEntries(previousFlagValues);
  for (let index = 0; index < flagValues.length; index++) loaded.runtime.flagValues.set(flagValues[index][0], flagValues[index][1]);
  const runner = deps.createRunner(loaded);
  if (deps.bound) {
    deps.bind(runner);
    await runner.emit({ type: "session_start", reason: "reload" });
    runner.reportUnhandledMcpServers();
  }
  return { runner, loaded };
}
