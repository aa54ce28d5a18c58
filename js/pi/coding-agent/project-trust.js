// Whether opening a directory needs the user's trust first: it does when the
// project brings its own configuration or code — pi's settings, MCP servers,
// extensions, skills, prompts, themes or system prompt in .pi/, or
// .agents/skills in cwd or any directory above it.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { hostEnv } from "../host-env.js";
import { canonicalizePath, pathsEqual, resolvePath } from "./paths.js";

const CONFIG_DIR_NAME = ".pi";

const TRUST_REQUIRING_CONFIG_ENTRIES = [
  "settings.json",
  "mcp.json",
  "extensions",
  "skills",
  "prompts",
  "themes",
  "SYSTEM.md",
  "APPEND_SYSTEM.md",
];

export function hasTrustRequiringProjectResources(cwd) {
  const homeDir = canonicalizePath(resolvePath(hostEnv().HOME || homedir()));
  // The user's own ~/.agents/skills is theirs even when cwd is the home directory.
  const userAgentsSkillsDir = join(homeDir, ".agents", "skills");
  let dir = canonicalizePath(resolvePath(cwd));
  const configDir = join(dir, CONFIG_DIR_NAME);
  if (TRUST_REQUIRING_CONFIG_ENTRIES.some((entry) => existsSync(join(configDir, entry)))) return true;
  for (;;) {
    const agentsSkillsDir = join(dir, ".agents", "skills");
    if (!pathsEqual(agentsSkillsDir, userAgentsSkillsDir) && existsSync(agentsSkillsDir)) return true;
    const parent = dirname(dir);
    if (parent === dir) return false;
    dir = parent;
  }
}
