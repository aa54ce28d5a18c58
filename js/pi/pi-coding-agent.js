// pi-coding-agent's runtime exports that pihost implements so far: paths,
// the built-in tools (read, write, edit, ls, find, grep, bash) and the shell
// they run, the helpers extensions use to shape tool output (truncation,
// sizes, image types and dimension notes), to find, read and list skills
// (frontmatter, skill blocks), to present a conversation (convertToLlm,
// serializeConversation), to read session files and build a model's context
// from them, the SessionManager that keeps sessions and the
// SettingsManager, to pick compaction cut points and gather what a branch
// summary covers, to serialize file edits, the tool type guards, pi's CLI
// argument parser, context-file discovery and the project trust check, the
// extension runtime before a runner binds it and the wrapping of registered
// tools, and the UI pieces extensions build on: the theme and its derived
// pi-tui themes, key hints, borders, coloured diffs, the bordered loader and
// the prompt editor.
import { contentText } from "./pi-ai.js";
import { sliceHead } from "./coding-agent/truncate.js";

export { getAgentDir } from "./coding-agent/agent-dir.js";
export {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_LINES,
  formatSize,
  truncateHead,
  truncateLine,
  truncateTail,
} from "./coding-agent/truncate.js";
export { withFileMutationQueue } from "./coding-agent/file-mutation-queue.js";
export { parseFrontmatter, stripFrontmatter } from "./coding-agent/frontmatter.js";
export { convertToLlm } from "./coding-agent/messages.js";
export { CURRENT_SESSION_VERSION, migrateSessionEntries, parseSessionEntries } from "./coding-agent/session-entries.js";
export { SessionManager } from "./coding-agent/session-manager.js";
export { SettingsManager } from "./coding-agent/settings-manager.js";
export {
  buildContextEntries,
  buildSessionContext,
  buildSessionProjection,
  getLatestCompactionEntry,
  sessionEntryToContextMessages,
} from "./coding-agent/session-context.js";
export {
  DEFAULT_COMPACTION_SETTINGS,
  calculateContextTokens,
  estimateTokens,
  findCutPoint,
  findTurnStartIndex,
  getLastAssistantUsage,
  shouldCompact,
} from "./coding-agent/compaction.js";
export { collectEntriesForBranchSummary, prepareBranchEntries } from "./coding-agent/branch-summary.js";
export { formatSkillsForPrompt, loadSkills, loadSkillsFromDir, parseSkillBlock } from "./coding-agent/skills.js";
export { generateDiffString, generateUnifiedPatch } from "./coding-agent/tools/edit-diff.js";
export { truncateToVisualLines } from "./coding-agent/visual-truncate.js";
export { getPowerShellConfig, getShellConfig } from "./coding-agent/shell.js";
export { detectSupportedImageMimeTypeFromFile, formatDimensionNote } from "./coding-agent/images.js";
export { createSyntheticSourceInfo } from "./coding-agent/source-info.js";
export { loadProjectContextFiles } from "./coding-agent/project-context.js";
export { hasTrustRequiringProjectResources } from "./coding-agent/project-trust.js";
export { parseArgs } from "./coding-agent/cli-args.js";
export { wrapRegisteredTool, wrapRegisteredTools } from "./coding-agent/registered-tools.js";
export { createExtensionRuntime } from "./coding-agent/extension-runtime.js";
export { createEventBus } from "./coding-agent/event-bus.js";
export { AgentSession } from "./coding-agent/agent-session.js";
export { AgentSessionRuntime, createAgentSessionRuntime } from "./coding-agent/agent-session-runtime.js";
export { createAgentSession, createAgentSessionFromServices } from "./coding-agent/create-agent-session.js";
export { ModelRegistry } from "./coding-agent/model-registry.js";
export { resolveCliModel, resolveModelScopeWithDiagnostics } from "./coding-agent/model-resolver.js";
export { CredentialSynchronizationError, readStoredCredential } from "./coding-agent/stored-credentials.js";
export { ProjectTrustStore } from "./coding-agent/project-trust-store.js";
export {
  Theme,
  getLanguageFromPath,
  getMarkdownTheme,
  getSelectListTheme,
  getSettingsListTheme,
  highlightCode,
  initTheme,
} from "./coding-agent/ui/theme.js";
export { keyHint, keyText, rawKeyHint } from "./coding-agent/ui/keybinding-hints.js";
export { DynamicBorder } from "./coding-agent/ui/dynamic-border.js";
export { renderDiff } from "./coding-agent/ui/diff.js";
export { BorderedLoader } from "./coding-agent/ui/bordered-loader.js";
export { CustomEditor } from "./coding-agent/ui/custom-editor.js";
export {
  createBashTool,
  createBashToolDefinition,
  createCodingTools,
  createEditTool,
  createEditToolDefinition,
  createFindTool,
  createFindToolDefinition,
  createGrepTool,
  createGrepToolDefinition,
  createLocalBashOperations,
  createLsTool,
  createLsToolDefinition,
  createReadOnlyTools,
  createReadTool,
  createReadToolDefinition,
  createWriteTool,
  createWriteToolDefinition,
} from "./coding-agent/tools/index.js";

// --- Tools ----------------------------------------------------------------

/** Identity: exists so a tool literal gets its parameter types inferred. */
export function defineTool(tool) {
  return tool;
}

export const isBashToolResult = (event) => event.toolName === "bash";
export const isPowerShellToolResult = (event) => event.toolName === "powershell";
export const isReadToolResult = (event) => event.toolName === "read";
export const isEditToolResult = (event) => event.toolName === "edit";
export const isWriteToolResult = (event) => event.toolName === "write";
export const isGrepToolResult = (event) => event.toolName === "grep";
export const isFindToolResult = (event) => event.toolName === "find";
export const isLsToolResult = (event) => event.toolName === "ls";

export function isToolCallEventType(toolName, event) {
  return event.toolName === toolName;
}

function lineNumber(value) {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) ? number : undefined;
}

/** `:start-end` for a read's offset/limit (numbers or numeric strings); "" when malformed. */
export function formatReadLineRange(offset, limit) {
  if (offset == null && limit == null) return "";
  const start = offset == null ? 1 : lineNumber(offset);
  if (start === undefined) return "";
  if (limit == null) return `:${start}`;
  const count = lineNumber(limit);
  if (count === undefined) return "";
  const end = start + count - 1;
  return `:${start}${end ? `-${end}` : ""}`;
}

// --- Conversation transcript -------------------------------------------------

const TOOL_RESULT_MAX_CHARS = 2000;

function truncateForSummary(text, maxChars) {
  if (text.length <= maxChars) return text;
  return `${sliceHead(text, maxChars)}\n\n[... ${text.length - maxChars} more characters truncated]`;
}

/**
 * A conversation as labelled text for a summarizing model, so it reads a
 * transcript instead of continuing a chat. Thinking is left out; tool results
 * are cut to 2000 characters.
 */
export function serializeConversation(messages) {
  const parts = [];
  for (const message of messages) {
    if (message.role === "user") {
      const text = contentText(message.content, "");
      if (text) parts.push(`[User]: ${text}`);
    } else if (message.role === "assistant") {
      const calls = message.content
        .filter((block) => block.type === "toolCall")
        .map((block) => {
          const args = Object.entries(block.arguments).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
          return `${block.name}(${args.join(", ")})`;
        });
      if (message.content.some((block) => block.type === "text")) parts.push(`[Assistant]: ${contentText(message.content)}`);
      if (calls.length > 0) parts.push(`[Assistant tool calls]: ${calls.join("; ")}`);
    } else if (message.role === "toolResult") {
      const text = contentText(message.content, "");
      if (text) parts.push(`[Tool result]: ${truncateForSummary(text, TOOL_RESULT_MAX_CHARS)}`);
    }
  }
  return parts.join("\n\n");
}
