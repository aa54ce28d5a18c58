// Where pi keeps its per-user state; the bash tool puts its bin/ on PATH.
import { homedir } from "node:os";
import { join } from "node:path";
import { hostEnv } from "../host-env.js";

const CONFIG_DIR = ".pi";

/** pi's agent directory: PI_CODING_AGENT_DIR, else ~/.pi/agent. */
export function getAgentDir() {
  const fromEnv = hostEnv().PI_CODING_AGENT_DIR;
  const home = homedir();
  if (fromEnv) {
    if (fromEnv === "~") return home;
    return fromEnv.startsWith("~/") ? join(home, fromEnv.slice(2)) : fromEnv;
  }
  return join(home, CONFIG_DIR, "agent");
}
