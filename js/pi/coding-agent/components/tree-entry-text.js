// What the session tree shows, searches and copies for each session entry.
import { homedir } from "node:os";
import { isAbsolute, relative, sep } from "node:path";
import { hostEnv } from "../../host-env.js";
import { isPathWithin } from "../paths.js";
import { formatReadLineRange } from "../read-line-range.js";
import { currentTheme } from "../ui/theme.js";

// Entries about settings and bookkeeping, hidden unless the filter shows everything.
const SETTINGS_ENTRY_TYPES = new Set(["label", "context_edit", "custom", "model_change", "thinking_level_change", "session_info"]);

export function isSettingsEntry(entry) {
  return SETTINGS_ENTRY_TYPES.has(entry.type);
}

const isTextBlock = (block) => typeof block === "object" && block !== null && "type" in block && block.type === "text";
const oneLine = (text) => text.replace(/[\n\t]/g, " ").trim();

/** The text blocks of message content joined (a string is its own text). */
export function fullContentText(content) {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.filter(isTextBlock).map((block) => block.text).join("");
}

/** The start of the content's text: rows and searches look at 200 characters at most. */
export function contentText(content) {
  return fullContentText(content).slice(0, 200);
}

export function hasTextContent(content) {
  if (typeof content === "string") return content.trim().length > 0;
  return Array.isArray(content) && content.some((block) => isTextBlock(block) && block.text && block.text.trim().length > 0);
}

/** `path` with the home folder (HOME, else USERPROFILE) shown as "~". */
function shortenPath(path) {
  const env = hostEnv();
  const home = env.HOME || env.USERPROFILE || "";
  if (!home || !isAbsolute(path) || !isPathWithin(home, path)) return path;
  const inside = relative(home, path);
  return inside ? `~${sep}${inside}` : "~";
}

/** A tool call as a short bracketed summary, e.g. "[read: ~/x.ts:1-20]". */
export function formatToolCall(name, args) {
  const pathArg = () => shortenPath(String(args.path || args.file_path || ""));
  switch (name) {
    case "read":
      return `[read: ${pathArg()}${formatReadLineRange(args.offset, args.limit)}]`;
    case "write":
      return `[write: ${pathArg()}]`;
    case "edit":
      return `[edit: ${pathArg()}]`;
    case "bash": {
      const command = String(args.command || "");
      return `[bash: ${oneLine(command).slice(0, 50)}${command.length > 50 ? "..." : ""}]`;
    }
    case "grep":
      return `[grep: /${String(args.pattern || "")}/ in ${shortenPath(String(args.path || "."))}]`;
    case "find":
      return `[find: ${String(args.pattern || "")} in ${shortenPath(String(args.path || "."))}]`;
    case "ls":
      return `[ls: ${shortenPath(String(args.path || "."))}]`;
    default: {
      const json = JSON.stringify(args);
      return `[${name}: ${json.slice(0, 40)}${json.length > 40 ? "..." : ""}]`;
    }
  }
}

/** The text a search of the tree matches for a node: its label, kind and content. */
export function searchableText(node) {
  const { entry } = node;
  const parts = node.label ? [node.label] : [];
  switch (entry.type) {
    case "message": {
      const message = entry.message;
      parts.push(message.role);
      if ("content" in message && message.content) parts.push(contentText(message.content));
      if (message.role === "bashExecution" && message.command) parts.push(message.command);
      break;
    }
    case "custom_message":
      parts.push(entry.customType, typeof entry.content === "string" ? entry.content : contentText(entry.content));
      break;
    case "compaction":
      parts.push("compaction");
      break;
    case "branch_summary":
      parts.push("branch summary", entry.summary);
      break;
    case "session_info":
      parts.push("title");
      if (entry.name) parts.push(entry.name);
      break;
    case "model_change":
      parts.push("model", entry.modelId);
      break;
    case "thinking_level_change":
      parts.push("thinking", entry.thinkingLevel);
      break;
    case "custom":
      parts.push("custom", entry.customType);
      break;
    case "context_edit":
      parts.push("context edit", entry.replacement === null ? "omit" : "replace", entry.targetId);
      break;
    case "label":
      parts.push("label", entry.label ?? "");
      break;
  }
  return parts.join(" ");
}

function messageText(message, toolCalls) {
  const theme = currentTheme();
  switch (message.role) {
    case "user":
      return theme.fg("accent", "user: ") + oneLine(contentText(message.content));
    case "assistant": {
      const speaker = theme.fg("success", "assistant: ");
      const text = oneLine(contentText(message.content));
      if (text) return speaker + text;
      if (message.stopReason === "aborted") return speaker + theme.fg("muted", "(aborted)");
      if (message.errorMessage) return speaker + theme.fg("error", oneLine(message.errorMessage).slice(0, 80));
      return speaker + theme.fg("muted", "(no content)");
    }
    case "toolResult": {
      const call = message.toolCallId ? toolCalls.get(message.toolCallId) : undefined;
      return theme.fg("muted", call ? formatToolCall(call.name, call.arguments) : `[${message.toolName ?? "tool"}]`);
    }
    case "bashExecution":
      return theme.fg("dim", `[bash]: ${oneLine(message.command ?? "")}`);
    default:
      return theme.fg("dim", `[${message.role}]`);
  }
}

/** The row text of a node (bold when selected); `toolCalls` names the calls tool results answer. */
export function entryDisplayText(node, selected, toolCalls) {
  const theme = currentTheme();
  const { entry } = node;
  const dim = (text) => theme.fg("dim", text);
  let text;
  switch (entry.type) {
    case "message":
      text = messageText(entry.message, toolCalls);
      break;
    case "custom_message": {
      const content = typeof entry.content === "string" ? entry.content : fullContentText(entry.content);
      text = theme.fg("customMessageLabel", `[${entry.customType}]: `) + oneLine(content);
      break;
    }
    case "compaction":
      text = theme.fg("borderAccent", `[compaction: ${Math.round(entry.tokensBefore / 1000)}k tokens]`);
      break;
    case "branch_summary":
      text = theme.fg("warning", "[branch summary]: ") + oneLine(entry.summary);
      break;
    case "model_change":
      text = dim(`[model: ${entry.modelId}]`);
      break;
    case "thinking_level_change":
      text = dim(`[thinking: ${entry.thinkingLevel}]`);
      break;
    case "custom":
      text = dim(`[custom: ${entry.customType}]`);
      break;
    case "context_edit":
      text = dim(`[context ${entry.replacement === null ? "omit" : "replace"}: ${entry.targetId}]`);
      break;
    case "label":
      text = dim(`[label: ${entry.label ?? "(cleared)"}]`);
      break;
    case "session_info":
      text = dim("[title: ") + (entry.name ? dim(entry.name) : theme.italic(dim("empty"))) + dim("]");
      break;
    default:
      text = "";
  }
  return selected ? theme.bold(text) : text;
}

/** What copying a node puts on the clipboard; undefined when it has no text. */
export function entryCopyText(node) {
  const { entry } = node;
  let text;
  if (entry.type === "message") {
    const message = entry.message;
    if (message.role === "bashExecution") text = message.command;
    else if ("content" in message) {
      text = fullContentText(message.content);
      if (!text && message.role === "assistant") text = message.errorMessage;
    }
  } else if (entry.type === "custom_message") text = fullContentText(entry.content);
  else if (entry.type === "compaction" || entry.type === "branch_summary") text = entry.summary;
  return text?.trim() ? text : undefined;
}

/** A label's time: "14:05" today, "3/9 14:05" this year, else "24/3/9 14:05". */
export function formatLabelTimestamp(timestamp) {
  const date = new Date(timestamp);
  const now = new Date();
  const time = `${String(date.getHours()).padStart(2, "0")}:${String(date.getMinutes()).padStart(2, "0")}`;
  const sameYear = date.getFullYear() === now.getFullYear();
  if (sameYear && date.getMonth() === now.getMonth() && date.getDate() === now.getDate()) return time;
  const monthDay = `${date.getMonth() + 1}/${date.getDate()}`;
  return sameYear ? `${monthDay} ${time}` : `${String(date.getFullYear()).slice(-2)}/${monthDay} ${time}`;
}
