// Prompt templates read from disk: each `.md` file is a template named after
// the file, described by its frontmatter's description or its first line.
// A directory contributes its own .md files, not those of subdirectories.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { parseFrontmatter } from "./frontmatter.js";
import { resolvePath } from "./paths.js";
import { createSyntheticSourceInfo } from "./source-info.js";

const CONFIG_DIR_NAME = ".pi";
const DESCRIPTION_FROM_LINE_LENGTH = 60;

const errorMessage = (error, fallback) => (error instanceof Error ? error.message : fallback);

function templateFromFile(filePath, sourceInfo) {
  let text;
  try {
    text = readFileSync(filePath, "utf-8");
  } catch (error) {
    return { diagnostics: [{ type: "warning", message: errorMessage(error, "failed to read prompt template file"), path: filePath }] };
  }
  let parsed;
  try {
    parsed = parseFrontmatter(text);
  } catch (error) {
    return { diagnostics: [{ type: "warning", message: errorMessage(error, "failed to parse prompt template file"), path: filePath }] };
  }
  const { frontmatter, body } = parsed;
  let description = typeof frontmatter.description === "string" ? frontmatter.description : "";
  if (!description) {
    const firstLine = body.split("\n").find((line) => line.trim());
    if (firstLine) {
      description = firstLine.slice(0, DESCRIPTION_FROM_LINE_LENGTH) + (firstLine.length > DESCRIPTION_FROM_LINE_LENGTH ? "..." : "");
    }
  }
  const argumentHint = typeof frontmatter["argument-hint"] === "string" ? frontmatter["argument-hint"] : undefined;
  const template = {
    name: basename(filePath).replace(/\.md$/, ""),
    description,
    ...(argumentHint && { argumentHint }),
    content: body,
    sourceInfo,
    filePath,
  };
  return { template, diagnostics: [] };
}

function isFileEntry(dir, entry) {
  if (!entry.isSymbolicLink()) return entry.isFile();
  try {
    return statSync(join(dir, entry.name)).isFile();
  } catch {
    return undefined; // a broken link is skipped
  }
}

function templatesFromDir(dir, sourceInfoOf, out) {
  if (!existsSync(dir)) return;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const isFile = isFileEntry(dir, entry);
    if (!isFile || !entry.name.endsWith(".md")) continue;
    const filePath = join(dir, entry.name);
    const result = templateFromFile(filePath, sourceInfoOf(filePath));
    if (result.template) out.templates.push(result.template);
    out.diagnostics.push(...result.diagnostics);
  }
}

function isUnderPath(target, root) {
  const normalizedRoot = resolve(root);
  if (target === normalizedRoot) return true;
  return target.startsWith(normalizedRoot.endsWith(sep) ? normalizedRoot : `${normalizedRoot}${sep}`);
}

/**
 * Templates from `promptPaths` (directories or .md files; missing ones are
 * skipped), after the user's and the project's prompts directories when
 * `includeDefaults`. Resolves to { templates, diagnostics }.
 */
export function loadPromptTemplates(options) {
  const cwd = resolvePath(options.cwd);
  const agentDir = resolvePath(options.agentDir);
  const userDir = join(agentDir, "prompts");
  const projectDir = resolve(cwd, CONFIG_DIR_NAME, "prompts");
  const sourceInfoOf = (path) => {
    if (isUnderPath(path, userDir)) return createSyntheticSourceInfo(path, { source: "local", scope: "user", baseDir: userDir });
    if (isUnderPath(path, projectDir)) return createSyntheticSourceInfo(path, { source: "local", scope: "project", baseDir: projectDir });
    return createSyntheticSourceInfo(path, { source: "local", baseDir: statSync(path).isDirectory() ? path : dirname(path) });
  };
  const out = { templates: [], diagnostics: [] };
  if (options.includeDefaults) {
    templatesFromDir(userDir, sourceInfoOf, out);
    templatesFromDir(projectDir, sourceInfoOf, out);
  }
  for (const rawPath of options.promptPaths) {
    const path = resolvePath(rawPath.trim(), cwd);
    if (!existsSync(path)) continue;
    try {
      const stats = statSync(path);
      if (stats.isDirectory()) templatesFromDir(path, sourceInfoOf, out);
      else if (stats.isFile() && path.endsWith(".md")) {
        const result = templateFromFile(path, sourceInfoOf(path));
        if (result.template) out.templates.push(result.template);
        out.diagnostics.push(...result.diagnostics);
      }
    } catch (error) {
      out.diagnostics.push({ type: "warning", message: errorMessage(error, "failed to read prompt template path"), path });
    }
  }
  return out;
}
