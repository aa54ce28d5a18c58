// The skills and prompt templates pi's package manager finds on its own: in
// the user's agent directory, the project's .pi directory (when the project
// is trusted), and the `.agents/skills` directories (the user's, and the
// project's from cwd up to its git root). .gitignore, .ignore and .fdignore
// files hide entries; dot entries and node_modules are skipped. Directory
// entries come in the order the filesystem lists them, as pi reads them.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { GitignoreMatcher, addIgnoreFiles } from "./gitignore.js";

const toPosix = (path) => path.split(sep).join("/");

/** { isDir, isFile } of a directory entry, following symlinks; undefined for a broken link. */
function entryKind(dir, entry) {
  if (!entry.isSymbolicLink()) return { isDir: entry.isDirectory(), isFile: entry.isFile() };
  try {
    const stats = statSync(join(dir, entry.name));
    return { isDir: stats.isDirectory(), isFile: stats.isFile() };
  } catch {
    return undefined;
  }
}

/**
 * Skill files under `dir`: a directory's SKILL.md stands for the whole
 * directory; otherwise loose .md files count at the root in `pi` mode and
 * below it in `agents` mode, and subdirectories are searched.
 */
export function collectSkillEntries(dir, mode, matcher = new GitignoreMatcher(), rootDir = dir) {
  const found = [];
  if (!existsSync(dir)) return found;
  addIgnoreFiles(matcher, dir, rootDir);
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (entry.name !== "SKILL.md") continue;
    const path = join(dir, entry.name);
    if (entryKind(dir, entry)?.isFile && !matcher.ignores(toPosix(relative(rootDir, path)))) return [path];
  }
  for (const entry of entries) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const kind = entryKind(dir, entry);
    if (!kind) continue;
    const path = join(dir, entry.name);
    const relativePath = toPosix(relative(rootDir, path));
    const looseFileCounts = (mode === "pi" && dir === rootDir) || (mode === "agents" && dir !== rootDir);
    if (kind.isFile && entry.name.endsWith(".md") && !matcher.ignores(relativePath) && looseFileCounts) {
      found.push(path);
      continue;
    }
    if (!kind.isDir || matcher.ignores(`${relativePath}/`)) continue;
    found.push(...collectSkillEntries(path, mode, matcher, rootDir));
  }
  return found;
}

/** The files of `dir` itself (not its subdirectories) whose names end in `extension`. */
export function collectTopLevelFiles(dir, extension) {
  const found = [];
  if (!existsSync(dir)) return found;
  const matcher = new GitignoreMatcher();
  addIgnoreFiles(matcher, dir, dir);
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const kind = entryKind(dir, entry);
    if (!kind) continue;
    const path = join(dir, entry.name);
    if (matcher.ignores(toPosix(relative(dir, path)))) continue;
    if (kind.isFile && entry.name.endsWith(extension)) found.push(path);
  }
  return found;
}

function gitRepoRoot(startDir) {
  for (let dir = resolve(startDir); ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/** `.agents/skills` in cwd and each parent, up to the git root (or the filesystem root outside a repository). */
export function ancestorAgentsSkillDirs(cwd) {
  const dirs = [];
  const root = gitRepoRoot(cwd);
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    dirs.push(join(dir, ".agents", "skills"));
    if ((root && dir === root) || dirname(dir) === dir) return dirs;
  }
}

/** Files under `dir` and its subdirectories whose names match `pattern` (what a settings entry naming a directory brings). */
export function collectFilesRecursive(dir, pattern, matcher = new GitignoreMatcher(), rootDir = dir) {
  const found = [];
  if (!existsSync(dir)) return found;
  addIgnoreFiles(matcher, dir, rootDir);
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const kind = entryKind(dir, entry);
    if (!kind) continue;
    const path = join(dir, entry.name);
    const relativePath = toPosix(relative(rootDir, path));
    if (matcher.ignores(kind.isDir ? `${relativePath}/` : relativePath)) continue;
    if (kind.isDir) found.push(...collectFilesRecursive(path, pattern, matcher, rootDir));
    else if (kind.isFile && pattern.test(entry.name)) found.push(path);
  }
  return found;
}
