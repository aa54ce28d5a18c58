// Where pi keeps its per-user state; the bash tool puts its bin/ on PATH.
import { homedir } from "node:os";
import { join } from "node:path";
import { hostEnv } from "../host-env.js";
import { expandPath } from "./paths.js";

const CONFIG_DIR = ".pi";

/** pi's agent directory: PI_CODING_AGENT_DIR ("~" and file:// URLs read), else ~/.pi/agent. */
export function getAgentDir() {
  const fromEnv = hostEnv().PI_CODING_AGENT_DIR;
  if (fromEnv) return expandPath(fromEnv);
  return join(homedir(), CONFIG_DIR, "agent");
}
