// pi-coding-agent's runtime exports that pihost implements so far.
import { ops } from "pihost:runtime/ops.js";
import { join } from "pihost:node/path.js";

const CONFIG_DIR = ".pi";

/** pi's agent directory: PI_CODING_AGENT_DIR, else ~/.pi/agent. */
export function getAgentDir() {
  const fromEnv = globalThis.process?.env?.PI_CODING_AGENT_DIR;
  const home = ops.op_pihost_os_info().homedir;
  if (fromEnv) {
    if (fromEnv === "~") return home;
    return fromEnv.startsWith("~/") ? join(home, fromEnv.slice(2)) : fromEnv;
  }
  return join(home, CONFIG_DIR, "agent");
}
