// pi-coding-agent's runtime exports that pihost implements so far: paths,
// the built-in tools (read, write, edit, ls, find, grep, bash) and the shell
// they run, the helpers extensions use to shape tool output (truncation,
// sizes, image types and dimension notes), to find, read and list skills
// (frontmatter, skill blocks), to present a conversation (convertToLlm,
// serializeConversation), to read session files and build a model's context
// from them, the SessionManager that keeps sessions and the
// SettingsManager, to pick compaction cut points, gather what a branch
// summary covers and have a model write compaction and branch summaries, to
// serialize file edits, the tool type guards, pi's CLI argument parser,
// context-file discovery and the project trust check, the extension runtime
// before a runner binds it and the wrapping of registered tools, images
// resized and converted as the read tool does, the user's clipboard, and the UI
// pieces extensions build on: the theme and its derived pi-tui themes, key
// hints, borders, coloured diffs, the bordered loader, the prompt editor, the
// components that show conversation items (messages, tool and bash runs,
// summaries), the footer, and the dialogs extensions open (input, select,
// editor) with the thinking, show-images, fork-from-message and login
// provider pickers, and Armin; pi's built-in tool_search and MCP extensions and the
// RpcClient that drives a pi process in RPC mode.
export { getAgentDir } from "./coding-agent/agent-dir.js";
// The version of pi whose behaviour pihost reproduces.
export { PI_VERSION as VERSION } from "./coding-agent/mcp/pi-identity.js";
// The custom session entry that records a virtual model's state.
export { VIRTUAL_MODEL_STATE_ENTRY } from "./coding-agent/virtual-models.js";
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
export { serializeConversation } from "./coding-agent/conversation-text.js";
export { CURRENT_SESSION_VERSION, migrateSessionEntries, parseSessionEntries } from "./coding-agent/session-entries.js";
export { SessionManager } from "./coding-agent/session-manager.js";
export { SettingsManager } from "./coding-agent/settings-manager.js";
export { DefaultPackageManager } from "./coding-agent/package-manager.js";
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
export { compact, generateSummary, generateSummaryWithUsage } from "./coding-agent/compaction-summary.js";
export { generateBranchSummary } from "./coding-agent/branch-summary-generation.js";
export { formatSkillsForPrompt, loadSkills, loadSkillsFromDir, parseSkillBlock } from "./coding-agent/skills.js";
export { generateDiffString, generateUnifiedPatch } from "./coding-agent/tools/edit-diff.js";
export { truncateToVisualLines } from "./coding-agent/visual-truncate.js";
export { getPowerShellConfig, getShellConfig } from "./coding-agent/shell.js";
export { detectSupportedImageMimeTypeFromFile, formatDimensionNote } from "./coding-agent/images.js";
export { convertToPng, resizeImage } from "./coding-agent/image-resize.js";
export { copyToClipboard } from "./coding-agent/clipboard.js";
export { createSyntheticSourceInfo } from "./coding-agent/source-info.js";
export { loadProjectContextFiles } from "./coding-agent/project-context.js";
export { hasTrustRequiringProjectResources } from "./coding-agent/project-trust.js";
export { parseArgs } from "./coding-agent/cli-args.js";
export { wrapRegisteredTool, wrapRegisteredTools } from "./coding-agent/registered-tools.js";
export { createExtensionRuntime } from "../runtime/extension-runtime.js";
export { createEventBus } from "./coding-agent/event-bus.js";
export { AgentSession } from "./coding-agent/agent-session.js";
export { AgentSessionRuntime, createAgentSessionRuntime } from "./coding-agent/agent-session-runtime.js";
export { createAgentSession, createAgentSessionFromServices } from "./coding-agent/create-agent-session.js";
export { createAgentSessionServices } from "./coding-agent/agent-session-services.js";
export { DefaultResourceLoader } from "./coding-agent/resource-loader.js";
export { ModelRegistry } from "./coding-agent/model-registry.js";
export { ModelRuntime } from "./coding-agent/model-runtime.js";
export { resolveCliModel, resolveModelScopeWithDiagnostics } from "./coding-agent/model-resolver.js";
export { CredentialSynchronizationError, readStoredCredential } from "./coding-agent/stored-credentials.js";
export { ProjectTrustStore } from "./coding-agent/project-trust-store.js";
export { createToolSearchExtension } from "./coding-agent/tool-search.js";
export { createMcpExtension } from "./coding-agent/mcp/extension.js";
export { createCodemodeExtension } from "./coding-agent/codemode/index.js";
export { RpcClient } from "./coding-agent/rpc-client.js";
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
export { AssistantMessageComponent } from "./coding-agent/components/assistant-message.js";
export { UserMessageComponent } from "./coding-agent/components/user-message.js";
export { CustomMessageComponent } from "./coding-agent/components/custom-message.js";
export {
  BranchSummaryMessageComponent,
  CompactionSummaryMessageComponent,
  SkillInvocationMessageComponent,
} from "./coding-agent/components/collapsible-messages.js";
export { BashExecutionComponent } from "./coding-agent/components/bash-execution.js";
export { ToolExecutionComponent } from "./coding-agent/components/tool-execution.js";
export { FooterComponent } from "./coding-agent/components/footer.js";
export { ExtensionEditorComponent } from "./coding-agent/components/extension-editor.js";
export { ExtensionInputComponent } from "./coding-agent/components/extension-input.js";
export { ExtensionSelectorComponent } from "./coding-agent/components/extension-selector.js";
export { ThinkingSelectorComponent } from "./coding-agent/components/thinking-selector.js";
export { ShowImagesSelectorComponent } from "./coding-agent/components/show-images-selector.js";
export { UserMessageSelectorComponent } from "./coding-agent/components/user-message-selector.js";
export { OAuthSelectorComponent } from "./coding-agent/components/oauth-selector.js";
export { ArminComponent } from "./coding-agent/components/armin.js";
export { LoginDialogComponent } from "./coding-agent/components/login-dialog.js";
export { ModelSelectorComponent } from "./coding-agent/components/model-selector.js";
export { SettingsSelectorComponent } from "./coding-agent/components/settings-selector.js";
export { SessionSelectorComponent } from "./coding-agent/components/session-selector.js";
export { TreeSelectorComponent } from "./coding-agent/components/tree-selector.js";
export { ThemeSelectorComponent } from "./coding-agent/components/theme-selector.js";
// Each tool's factory from its own module, so importing one evaluates one.
export { createBashTool, createBashToolDefinition, createLocalBashOperations } from "./coding-agent/tools/bash.js";
export { createEditTool, createEditToolDefinition } from "./coding-agent/tools/edit.js";
export { createFindTool, createFindToolDefinition } from "./coding-agent/tools/find.js";
export { createGrepTool, createGrepToolDefinition } from "./coding-agent/tools/grep.js";
export { createLsTool, createLsToolDefinition } from "./coding-agent/tools/ls.js";
export {
  createLocalPowerShellOperations,
  createPowerShellTool,
  createPowerShellToolDefinition,
} from "./coding-agent/tools/powershell.js";
export { createReadTool, createReadToolDefinition } from "./coding-agent/tools/read.js";
export { createWriteTool, createWriteToolDefinition } from "./coding-agent/tools/write.js";
export { createCodingTools, createReadOnlyTools } from "./coding-agent/tools/index.js";

export {
  defineTool,
  isBashToolResult,
  isEditToolResult,
  isFindToolResult,
  isGrepToolResult,
  isLsToolResult,
  isPowerShellToolResult,
  isReadToolResult,
  isToolCallEventType,
  isWriteToolResult,
} from "./coding-agent/tool-guards.js";
export { formatReadLineRange } from "./coding-agent/read-line-range.js";
