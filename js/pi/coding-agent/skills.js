// Skills: markdown files whose frontmatter names and describes a task the
// model can load instructions for. They are found in the user's and the
// project's skills directories and in paths from settings, listed in the
// system prompt, and expanded into user messages as <skill> blocks.
import { existsSync, readFileSync, readdirSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { getAgentDir } from "./agent-dir.js";
import { parseFrontmatter } from "./frontmatter.js";
import { GitignoreMatcher, addIgnoreFiles } from "./gitignore.js";

const CONFIG_DIR_NAME = ".pi";
const MAX_NAME_LENGTH = 64;
const MAX_DESCRIPTION_LENGTH = 1024;

// --- Skill blocks in messages -----------------------------------------------------

/** The parts of a `<skill name=… location=…>` message, or null when the text is not one. */
export function parseSkillBlock(text) {
  const match = /^<skill name="([^"]+)" location="([^"]+)">\n([\s\S]*?)\n<\/skill>(?:\n\n([\s\S]+))?$/.exec(text);
  if (!match) return null;
  const [, name, location, content, userMessage] = match;
  return { name, location, content, userMessage: userMessage?.trim() || undefined };
}

// --- The system prompt's list --------------------------------------------------------

const escapeXml = (text) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");

const READ_INSTRUCTION = {
  read: "Use the read tool to load a skill's file when the task matches its description.",
  bash: "Use bash to load a skill's file when the task matches its description.",
};

/**
 * The skills the model may pick by itself, as the <available_skills> section
 * of a system prompt; "" when there are none. `fileReadTool` names the tool
 * the model should load them with (any other value names none).
 */
export function formatSkillsForPrompt(skills, fileReadTool = "read") {
  const visible = skills.filter((skill) => !skill.disableModelInvocation);
  if (visible.length === 0) return "";
  const lines = [
    "\n\nThe following skills provide specialized instructions for specific tasks.",
    (fileReadTool === "read" || fileReadTool === "bash" ? READ_INSTRUCTION[fileReadTool] : undefined) ?? "Load a skill's file when the task matches its description.",
    "Resolve relative paths against the skill's directory (parent of SKILL.md). Use absolute paths in tool calls.",
    "",
    "<available_skills>",
  ];
  for (const skill of visible) {
    lines.push(
      "  <skill>",
      `    <name>${escapeXml(skill.name)}</name>`,
      `    <description>${escapeXml(skill.description)}</description>`,
      `    <location>${escapeXml(skill.filePath)}</location>`,
      "  </skill>",
    );
  }
  lines.push("</available_skills>");
  return lines.join("\n");
}

// --- Paths ---------------------------------------------------------------------------

function expandPath(input, trim = false) {
  const path = trim ? input.trim() : input;
  if (path === "~") return homedir();
  if (path.startsWith("~/")) return join(homedir(), path.slice(2));
  if (/^file:\/\//.test(path)) return fileURLToPath(path);
  return path;
}

/** `input` made absolute against `baseDir` (the process's cwd by default), with "~" and file:// URLs read. */
function resolvePath(input, baseDir, trim = false) {
  const path = expandPath(input, trim);
  if (isAbsolute(path)) return resolve(path);
  return baseDir === undefined ? resolve(path) : resolve(expandPath(baseDir), path);
}

function isPathWithin(parent, child) {
  const parentKey = resolve(parent);
  const childKey = resolve(child);
  return childKey === parentKey || childKey.startsWith(parentKey.endsWith(sep) ? parentKey : parentKey + sep);
}

/** The key that makes two paths to one file (through symlinks) the same skill. */
function resourcePathKey(path) {
  if (path.startsWith("builtin:") || path.startsWith("<")) return path;
  try {
    return resolve(realpathSync(path));
  } catch {
    return resolve(path);
  }
}

const toPosix = (path) => path.split(sep).join("/");

// --- Loading ---------------------------------------------------------------------------

function sourceInfo(filePath, baseDir, source) {
  const origin = { source, scope: undefined };
  if (source === "user" || source === "project") Object.assign(origin, { source: "local", scope: source });
  else if (source === "path") origin.source = "local";
  return { path: filePath, source: origin.source, scope: origin.scope ?? "temporary", origin: "top-level", baseDir };
}

function nameProblems(name) {
  const problems = [];
  if (name.length > MAX_NAME_LENGTH) problems.push(`name exceeds ${MAX_NAME_LENGTH} characters (${name.length})`);
  if (!/^[a-z0-9-]+$/.test(name)) problems.push("name contains invalid characters (must be lowercase a-z, 0-9, hyphens only)");
  if (name.startsWith("-") || name.endsWith("-")) problems.push("name must not start or end with a hyphen");
  if (name.includes("--")) problems.push("name must not contain consecutive hyphens");
  return problems;
}

function descriptionProblems(description) {
  if (typeof description !== "string" || description.trim() === "") return ["description is required"];
  if (description.length > MAX_DESCRIPTION_LENGTH) return [`description exceeds ${MAX_DESCRIPTION_LENGTH} characters (${description.length})`];
  return [];
}

/**
 * One skill file. A SKILL.md is a declared skill and gets warnings for every
 * problem; any other .md counts only if it has a description. A skill
 * without a description is never loaded; other problems only warn.
 */
function loadSkillFromFile(filePath, source) {
  const diagnostics = [];
  const warn = (message) => diagnostics.push({ type: "warning", message, path: filePath });
  const declared = basename(filePath) === "SKILL.md";
  let content;
  try {
    content = readFileSync(filePath, "utf-8");
  } catch (error) {
    warn(error instanceof Error ? error.message : "failed to read skill file");
    return { skill: null, diagnostics };
  }
  let frontmatter;
  try {
    ({ frontmatter } = parseFrontmatter(content));
  } catch (error) {
    // Any markdown file may sit in a skills directory; only a declared skill is expected to parse.
    if (declared) warn(error instanceof Error ? error.message : "failed to parse skill file");
    return { skill: null, diagnostics };
  }
  const description = frontmatter.description;
  const hasDescription = typeof description === "string" && description.trim() !== "";
  if (!declared && !hasDescription) return { skill: null, diagnostics };

  const skillDir = dirname(filePath);
  descriptionProblems(description).forEach(warn);
  const name = (typeof frontmatter.name === "string" ? frontmatter.name : undefined) || basename(skillDir);
  nameProblems(name).forEach(warn);
  if (!hasDescription) return { skill: null, diagnostics };
  return {
    skill: {
      name,
      description,
      filePath,
      baseDir: skillDir,
      sourceInfo: sourceInfo(filePath, skillDir, source),
      disableModelInvocation: frontmatter["disable-model-invocation"] === true,
    },
    diagnostics,
  };
}

/** Whether a directory entry is a file and/or directory, following symlinks; null for a broken link. */
function entryKind(entry, fullPath) {
  if (!entry.isSymbolicLink()) return { isFile: entry.isFile(), isDirectory: entry.isDirectory() };
  try {
    const stats = statSync(fullPath);
    return { isFile: stats.isFile(), isDirectory: stats.isDirectory() };
  } catch {
    return null;
  }
}

// Node lists a directory in byte order of the names; sorting keeps that
// order on hosts whose directory listing is unordered.
const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Walks `dir`: a directory holding SKILL.md is one skill and is not entered
 * further; otherwise subdirectories are searched for SKILL.md, and at the top
 * level any .md file with a description is a skill too. Hidden entries,
 * node_modules and .gitignore'd paths are skipped.
 */
function loadSkillsFromTree(dir, source, includeRootFiles, matcher = new GitignoreMatcher(), rootDir = dir) {
  const skills = [];
  const diagnostics = [];
  const collect = (result) => {
    if (result.skill) skills.push(result.skill);
    diagnostics.push(...result.diagnostics);
  };
  if (!existsSync(dir)) return { skills, diagnostics };
  addIgnoreFiles(matcher, dir, rootDir);
  try {
    const entries = readdirSync(dir, { withFileTypes: true }).sort(byName);
    const skillFile = entries.find((entry) => entry.name === "SKILL.md");
    if (skillFile) {
      const fullPath = join(dir, skillFile.name);
      const kind = entryKind(skillFile, fullPath);
      if (kind?.isFile && !matcher.ignores(toPosix(relative(rootDir, fullPath)))) {
        collect(loadSkillFromFile(fullPath, source));
        return { skills, diagnostics };
      }
    }
    for (const entry of entries) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const fullPath = join(dir, entry.name);
      const kind = entryKind(entry, fullPath);
      if (!kind) continue;
      const relativePath = toPosix(relative(rootDir, fullPath));
      if (matcher.ignores(kind.isDirectory ? `${relativePath}/` : relativePath)) continue;
      if (kind.isDirectory) {
        const nested = loadSkillsFromTree(fullPath, source, false, matcher, rootDir);
        skills.push(...nested.skills);
        diagnostics.push(...nested.diagnostics);
      } else if (kind.isFile && includeRootFiles && entry.name.endsWith(".md")) {
        collect(loadSkillFromFile(fullPath, source));
      }
    }
  } catch {
    // An unreadable directory contributes what was found before the failure.
  }
  return { skills, diagnostics };
}

/** The skills under `dir` (see loadSkillsFromTree), tagged with `source`. */
export function loadSkillsFromDir(options) {
  const { dir, source } = options;
  return loadSkillsFromTree(dir, source, true);
}

/**
 * All skills: with `includeDefaults`, the user's (<agentDir>/skills) and the
 * project's (<cwd>/.pi/skills), then each of `skillPaths` (a directory or one
 * .md file). The first skill of a name wins; later ones are reported as
 * collisions, after all other diagnostics. The same file reached twice (a
 * symlink) is loaded once.
 */
export function loadSkills(options) {
  const { agentDir, skillPaths, includeDefaults } = options;
  const resolvedCwd = resolvePath(options.cwd);
  const resolvedAgentDir = resolvePath(agentDir ?? getAgentDir());
  const skillsByName = new Map();
  const loadedFiles = new Set();
  const diagnostics = [];
  const collisions = [];
  const addSkills = (result) => {
    diagnostics.push(...result.diagnostics);
    for (const skill of result.skills) {
      const fileKey = resourcePathKey(skill.filePath);
      if (loadedFiles.has(fileKey)) continue;
      const winner = skillsByName.get(skill.name);
      if (winner) {
        collisions.push({
          type: "collision",
          message: `name "${skill.name}" collision`,
          path: skill.filePath,
          collision: { resourceType: "skill", name: skill.name, winnerPath: winner.filePath, loserPath: skill.filePath },
        });
      } else {
        skillsByName.set(skill.name, skill);
        loadedFiles.add(fileKey);
      }
    }
  };

  const userSkillsDir = join(resolvedAgentDir, "skills");
  const projectSkillsDir = resolve(resolvedCwd, CONFIG_DIR_NAME, "skills");
  if (includeDefaults) {
    addSkills(loadSkillsFromTree(userSkillsDir, "user", true));
    addSkills(loadSkillsFromTree(projectSkillsDir, "project", true));
  }
  // Without the defaults, an explicit path inside those directories still counts as theirs.
  const sourceOf = (path) => {
    if (!includeDefaults && isPathWithin(userSkillsDir, path)) return "user";
    if (!includeDefaults && isPathWithin(projectSkillsDir, path)) return "project";
    return "path";
  };
  for (const rawPath of skillPaths) {
    const path = resolvePath(rawPath, resolvedCwd, true);
    if (!existsSync(path)) {
      diagnostics.push({ type: "warning", message: "skill path does not exist", path });
      continue;
    }
    try {
      const stats = statSync(path);
      const source = sourceOf(path);
      if (stats.isDirectory()) {
        addSkills(loadSkillsFromTree(path, source, true));
      } else if (stats.isFile() && path.endsWith(".md")) {
        const result = loadSkillFromFile(path, source);
        if (result.skill) addSkills({ skills: [result.skill], diagnostics: result.diagnostics });
        else diagnostics.push(...result.diagnostics);
      } else {
        diagnostics.push({ type: "warning", message: "skill path is not a markdown file", path });
      }
    } catch (error) {
      diagnostics.push({ type: "warning", message: error instanceof Error ? error.message : "failed to read skill path", path });
    }
  }
  return { skills: [...skillsByName.values()], diagnostics: [...diagnostics, ...collisions] };
}
