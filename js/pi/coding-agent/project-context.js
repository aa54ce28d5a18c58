// The context files pi puts in the system prompt: AGENTS.md (or CLAUDE.md)
// from the agent directory, then one per directory from the filesystem root
// down to cwd. In a linked worktree nested inside its main repository, the
// main repository's file is left out when the worktree has its own copy:
// both describe the same repository, and it would apply twice.
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { canonicalizePath, isPathWithin, pathsEqual, resolvePath } from "./paths.js";

// In order of preference; the first one that is a file wins in a directory.
const CONTEXT_FILE_NAMES = ["AGENTS.override.md", "AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"];

const stripBom = (text) => (text.startsWith("\uFEFF") ? text.slice(1) : text);

function loadContextFileFromDir(dir) {
  for (const name of CONTEXT_FILE_NAMES) {
    const path = join(dir, name);
    if (!existsSync(path)) continue;
    try {
      if (!statSync(path).isFile()) continue;
      return { path, content: stripBom(readFileSync(path, "utf-8")) };
    } catch (error) {
      console.error(`Warning: Could not read ${path}: ${error}`);
    }
  }
  return null;
}

/** The nearest enclosing repository: its work tree, its common git directory; null when there is none or it is broken. */
function findGitPaths(cwd) {
  for (let dir = cwd; ; dir = dirname(dir)) {
    const gitPath = join(dir, ".git");
    if (existsSync(gitPath)) {
      try {
        const stat = statSync(gitPath);
        if (stat.isFile()) {
          // A linked worktree's .git file points at its own git directory, which names the common one.
          const pointer = readFileSync(gitPath, "utf8").trim();
          if (pointer.startsWith("gitdir: ")) {
            const gitDir = resolve(dir, pointer.slice("gitdir: ".length).trim());
            if (!existsSync(join(gitDir, "HEAD"))) return null;
            const commonDirFile = join(gitDir, "commondir");
            const commonGitDir = existsSync(commonDirFile) ? resolve(gitDir, readFileSync(commonDirFile, "utf8").trim()) : gitDir;
            return { repoDir: dir, commonGitDir };
          }
        } else if (stat.isDirectory()) {
          if (!existsSync(join(gitPath, "HEAD"))) return null;
          return { repoDir: dir, commonGitDir: gitPath };
        }
      } catch {
        return null;
      }
    }
    if (dirname(dir) === dir) return null;
  }
}

/**
 * The main repository's context file that a nested worktree's own file
 * replaces, as a real path (git writes the worktree pointers with symlinks
 * resolved); undefined when nothing is replaced.
 */
function findShadowedContextFile(cwd) {
  const gitPaths = findGitPaths(cwd);
  if (!gitPaths) return undefined;
  const commonGitDir = canonicalizePath(gitPaths.commonGitDir);
  const worktreeRoot = canonicalizePath(gitPaths.repoDir);
  const mainRepoRoot = dirname(commonGitDir);
  // An ordinary repository, or a worktree beside the main one rather than inside it.
  if (!isPathWithin(mainRepoRoot, worktreeRoot) || pathsEqual(worktreeRoot, mainRepoRoot)) return undefined;
  // A bare repository or a submodule has no checked-out main work tree above the worktree.
  if (!pathsEqual(canonicalizePath(join(mainRepoRoot, ".git")), commonGitDir)) return undefined;
  const worktreeContextFile = loadContextFileFromDir(worktreeRoot);
  return worktreeContextFile ? join(mainRepoRoot, basename(worktreeContextFile.path)) : undefined;
}

/** `{ path, content }` of every context file for `options.cwd`: the agent directory's first, then outermost to innermost. */
export function loadProjectContextFiles(options) {
  const cwd = resolvePath(options.cwd);
  const agentDir = resolvePath(options.agentDir);
  const contextFiles = [];
  const seenPaths = new Set();
  const globalContext = loadContextFileFromDir(agentDir);
  if (globalContext) {
    contextFiles.push(globalContext);
    seenPaths.add(globalContext.path);
  }
  const ancestorContextFiles = [];
  const shadowedContextFile = findShadowedContextFile(cwd);
  for (let dir = cwd; ; dir = dirname(dir)) {
    const contextFile = loadContextFileFromDir(dir);
    // The directory's real path, not the file's: a worktree file may be a symlink to the main repository's.
    const isShadowed =
      shadowedContextFile !== undefined &&
      contextFile !== null &&
      pathsEqual(join(canonicalizePath(dir), basename(contextFile.path)), shadowedContextFile);
    if (contextFile && !isShadowed && !seenPaths.has(contextFile.path)) {
      ancestorContextFiles.unshift(contextFile);
      seenPaths.add(contextFile.path);
    }
    if (dirname(dir) === dir) break;
  }
  contextFiles.push(...ancestorContextFiles);
  return contextFiles;
}
