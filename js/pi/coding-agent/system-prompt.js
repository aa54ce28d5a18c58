// pi's structured system prompt: the options extensions see in
// before_agent_start (normalized so every collection is present and owned),
// the named sections built from them, and the text the model gets. A forced
// prompt replaces the sections wholesale.
import { getSystemMessageText } from "../ai/system-text.js";
import { hostEnv } from "../host-env.js";

const SECTION_NAME = /^[a-z][a-z0-9_-]*$/;
const DEFAULT_TOOLS = ["read", "bash", "edit", "write"];
const DEFAULT_PREAMBLE =
  "You are a coding assistant running inside pi, a coding agent harness. Help users inspect files, run commands, and modify code.";

/** The options with every collection filled in and copied, as extensions may edit them. */
export function normalizeBuildSystemPromptOptions(input) {
  const copyGuidelines = (guidelines) =>
    Object.fromEntries(Object.entries(guidelines ?? {}).map(([tool, list]) => [tool, [...list]]));
  return {
    customPrompt: input.customPrompt,
    forceSystemPrompt: input.forceSystemPrompt,
    selectedTools: [...(input.selectedTools ?? DEFAULT_TOOLS)],
    hiddenTools: [...(input.hiddenTools ?? [])],
    toolSnippets: { ...(input.toolSnippets ?? {}) },
    toolGuidelines: copyGuidelines(input.toolGuidelines),
    promptGuidelines: [...(input.promptGuidelines ?? [])],
    appendSystemPrompt: input.appendSystemPrompt ?? "",
    sections: { ...(input.sections ?? {}) },
    cwd: input.cwd,
    contextFiles: (input.contextFiles ?? []).map((file) => ({ ...file })),
    skills: (input.skills ?? []).map((skill) => ({ ...skill })),
  };
}

function escapeXml(text) {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** The skills block of the prompt; `fileReadTool` names how the model loads a skill. */
export function formatSkillsForPrompt(skills, fileReadTool = "read") {
  const visible = skills.filter((skill) => !skill.disableModelInvocation);
  if (visible.length === 0) return "";
  const how =
    fileReadTool === "read"
      ? "Use the read tool to load a skill's file when the task matches its description."
      : fileReadTool === "bash"
        ? "Use bash to load a skill's file when the task matches its description."
        : "Load a skill's file when the task matches its description.";
  const entries = visible.flatMap((skill) => [
    "  <skill>",
    `    <name>${escapeXml(skill.name)}</name>`,
    `    <description>${escapeXml(skill.description)}</description>`,
    `    <location>${escapeXml(skill.filePath)}</location>`,
    "  </skill>",
  ]);
  return [
    "\n\nThe following skills provide specialized instructions for specific tasks.",
    how,
    "Resolve relative paths against the skill's directory (parent of SKILL.md). Use absolute paths in tool calls.",
    "",
    "<available_skills>",
    ...entries,
    "</available_skills>",
  ].join("\n");
}

function rulesFor(tools, toolGuidelines, promptGuidelines) {
  const rules = [];
  const add = (rule) => {
    const trimmed = rule.trim();
    if (trimmed && !rules.includes(trimmed)) rules.push(trimmed);
  };
  const has = (name) => tools.includes(name);
  // Without dedicated search tools the shell does the listing and finding.
  if ((has("bash") || has("powershell")) && !has("grep") && !has("find") && !has("ls")) {
    if (has("bash") && has("powershell")) add("Use bash or PowerShell for file operations like listing, searching, and finding files");
    else if (has("powershell")) add("Use PowerShell for file operations like listing, searching, and finding files");
    else add("Use bash for file operations like ls, rg, find");
  }
  for (const tool of tools) for (const rule of toolGuidelines[tool] ?? []) add(rule);
  for (const rule of promptGuidelines) add(rule);
  add("Be concise in your responses");
  add("Show file paths clearly when working with files");
  return rules.map((rule) => `- ${rule}`).join("\n");
}

// Where pi's own documentation lives: PI_PACKAGE_DIR as in pi, else the
// package's place in a local npm install. pihost ships no pi docs.
export function piPackageDir() {
  const configured = hostEnv().PI_PACKAGE_DIR;
  if (configured) return configured.replace(/\/+$/, "");
  const cwd = globalThis.process?.cwd?.() ?? "/";
  return `${cwd.replace(/\/+$/, "")}/node_modules/@earendil-works/pi-coding-agent`;
}

function docsSection() {
  const dir = piPackageDir();
  return `Pi documentation (read only when the user asks about the harness itself, its SDK, extensions, themes, skills, or TUI):
- Main documentation: ${dir}/README.md
- Additional docs: ${dir}/docs
- Examples: ${dir}/examples (extensions, custom tools, SDK)
- When reading pi docs or examples, resolve docs/... under Additional docs and examples/... under Examples, not the current working directory
- When asked about: extensions (docs/extensions.md, examples/extensions/), themes (docs/themes.md), skills (docs/skills.md), prompt templates (docs/prompt-templates.md), TUI components (docs/tui.md), keybindings (docs/keybindings.md), SDK integrations (docs/sdk.md), custom providers (docs/custom-provider.md), adding models (docs/models.md), packages (docs/packages.md), environment variables (docs/environment-variables.md), MCP servers (docs/mcp.md), codemode scripts and non-LLM models such as classifiers and image models (docs/codemode.md)
- Before implementing harness changes, read the relevant docs and examples in full, following related cross-references.`;
}

/** The named sections of the prompt, in order; every one but the preamble is tagged. */
export function buildSystemPromptSections(input) {
  const options = normalizeBuildSystemPromptOptions(input);
  for (const name of Object.keys(options.sections)) {
    if (!SECTION_NAME.test(name) || name === "preamble") throw new Error(`Invalid system prompt section name: ${name}`);
  }
  const declared = options.selectedTools.filter((name) => !options.hiddenTools.includes(name));
  const parts = {};
  if (options.customPrompt) {
    parts.preamble = options.customPrompt;
  } else {
    parts.preamble = DEFAULT_PREAMBLE;
    const described = declared.filter((name) => Boolean(options.toolSnippets[name]));
    const list = described.length > 0 ? described.map((name) => `- ${name}: ${options.toolSnippets[name]}`).join("\n") : "(none)";
    parts.tools = `${list}\n\nAdditional tools may be available.`;
    parts.rules = rulesFor(declared, options.toolGuidelines, options.promptGuidelines);
    parts.docs = docsSection();
  }
  if (options.appendSystemPrompt) parts.addendum = options.appendSystemPrompt;
  if (options.contextFiles.length > 0) {
    parts.project_context = [
      "Project-specific instructions and guidelines:",
      ...options.contextFiles.map(({ path, content }) => `<project_instructions path="${path}">\n${content}\n</project_instructions>`),
    ].join("\n\n");
  }
  // A hidden reader still reaches files through another tool: the skills
  // stay, but the hint names no tool.
  const reader =
    ["read", "bash"].find((tool) => declared.includes(tool)) ??
    (["read", "bash"].some((tool) => options.selectedTools.includes(tool)) ? "indirect" : undefined);
  if (reader && options.skills.length > 0) {
    const skills = formatSkillsForPrompt(options.skills, reader).trim();
    if (skills) parts.skills = skills;
  }
  parts.cwd = options.cwd.replace(/\\/g, "/");
  for (const [name, content] of Object.entries(options.sections)) if (content) parts[name] = content;
  const sections = { preamble: parts.preamble };
  for (const [name, content] of Object.entries(parts)) {
    if (name !== "preamble") sections[name] = `<${name}>\n${content}\n</${name}>`;
  }
  return sections;
}

/** The prompt as a system message's state: forced content, or sections. */
export function buildSystemPromptState(input) {
  if (input.forceSystemPrompt !== undefined) return { content: input.forceSystemPrompt };
  return { content: "", sections: buildSystemPromptSections(input) };
}

/** The prompt text, as the transcript's system message renders it. */
export function buildSystemPrompt(input) {
  return getSystemMessageText({ role: "system", ...buildSystemPromptState(input), timestamp: 0 });
}
