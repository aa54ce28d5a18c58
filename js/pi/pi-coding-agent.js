// pi-coding-agent's runtime exports that pihost implements so far: paths,
// the built-in tools (read, write, edit, ls, find, grep, bash), the helpers
// extensions use to shape tool output (truncation, sizes), to read skill
// files (frontmatter), to present a conversation (convertToLlm,
// serializeConversation), to read session files and build a model's context
// from them, to pick compaction cut points and gather what a branch summary
// covers, to serialize file edits, the tool
// type guards, and the UI pieces extensions build on: the theme and its
// derived pi-tui themes, key hints, borders, the bordered loader and the
// prompt editor.
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
export { convertToLlm } from "./coding-agent/messages.js";
export { migrateSessionEntries, parseSessionEntries } from "./coding-agent/session-entries.js";
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
export { generateDiffString } from "./coding-agent/tools/edit-diff.js";
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

// --- YAML (frontmatter) ---------------------------------------------------------
// pi reads frontmatter with the `yaml` package. Skill and prompt files use a
// small part of YAML, which this covers: block mappings and sequences,
// plain/quoted/flow scalars, `|` and `>` blocks and comments, with the core
// schema's nulls, booleans and numbers. Anchors, tags and multi-document
// streams are not read. (It belongs in its own module, js/pi/yaml.js, once
// that file may be added.)

class YamlError extends Error {
  constructor(message, line) {
    super(`${message} at line ${line + 1}`);
    this.name = "YAMLParseError";
  }
}

function stripComment(text) {
  let quote = null;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quote) {
      if (char === "\\" && quote === '"') i++;
      else if (char === quote) quote = null;
    } else if (char === '"' || char === "'") {
      if (i === 0 || /[\s[{,:]/.test(text[i - 1])) quote = char;
    } else if (char === "#" && (i === 0 || /\s/.test(text[i - 1]))) {
      return text.slice(0, i).trimEnd();
    }
  }
  return text.trimEnd();
}

function resolvePlain(text) {
  if (/^(~|null|Null|NULL)?$/.test(text)) return null;
  if (/^(true|True|TRUE)$/.test(text)) return true;
  if (/^(false|False|FALSE)$/.test(text)) return false;
  if (/^[-+]?[0-9]+$/.test(text)) return Number(text);
  if (/^0o[0-7]+$/.test(text)) return parseInt(text.slice(2), 8);
  if (/^0x[0-9a-fA-F]+$/.test(text)) return parseInt(text.slice(2), 16);
  if (/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(text)) return Number(text);
  if (/^[-+]?\.(inf|Inf|INF)$/.test(text)) return text.startsWith("-") ? -Infinity : Infinity;
  if (/^\.(nan|NaN|NAN)$/.test(text)) return NaN;
  return text;
}

const ESCAPES = { n: "\n", t: "\t", r: "\r", "0": "\0", '"': '"', "\\": "\\", "/": "/", " ": " ", b: "\b", f: "\f", e: "\x1b", N: "\x85", _: "\xa0" };

/** Reads one flow value (quoted, [..], {..} or plain) from `text` at `start`; returns [value, end]. */
function readFlow(text, start, inFlow, line) {
  let i = start;
  while (text[i] === " ") i++;
  const char = text[i];
  if (char === '"') {
    let out = "";
    for (i++; i < text.length && text[i] !== '"'; i++) {
      if (text[i] !== "\\") {
        out += text[i];
        continue;
      }
      const next = text[++i];
      if (next === "x" || next === "u" || next === "U") {
        const size = { x: 2, u: 4, U: 8 }[next];
        out += String.fromCodePoint(parseInt(text.slice(i + 1, i + 1 + size), 16));
        i += size;
      } else out += ESCAPES[next] ?? next;
    }
    if (text[i] !== '"') throw new YamlError("Missing closing \"quote", line);
    return [out, i + 1];
  }
  if (char === "'") {
    let out = "";
    for (i++; i < text.length; i++) {
      if (text[i] === "'") {
        if (text[i + 1] !== "'") break;
        i++;
      }
      out += text[i];
    }
    if (text[i] !== "'") throw new YamlError("Missing closing 'quote", line);
    return [out, i + 1];
  }
  if (char === "[" || char === "{") {
    const close = char === "[" ? "]" : "}";
    const items = char === "[" ? [] : {};
    i++;
    while (true) {
      while (text[i] === " " || text[i] === ",") i++;
      if (i >= text.length) throw new YamlError(`Missing ${close} in flow collection`, line);
      if (text[i] === close) return [items, i + 1];
      const [key, afterKey] = readFlow(text, i, true, line);
      i = afterKey;
      while (text[i] === " ") i++;
      if (char === "{" || text[i] === ":") {
        let value = null;
        if (text[i] === ":") [value, i] = readFlow(text, i + 1, true, line);
        if (char === "[") items.push({ [String(key)]: value });
        else items[String(key)] = value;
      } else items.push(key);
    }
  }
  const stop = inFlow ? /[,\]}]|: |:$/ : /$/;
  const rest = text.slice(i);
  const match = stop.exec(rest);
  const raw = rest.slice(0, match ? match.index : rest.length).trim();
  return [resolvePlain(raw), i + (match ? match.index : rest.length)];
}

function inlineValue(text, line) {
  const [value, end] = readFlow(text, 0, false, line);
  if (text.slice(end).trim() !== "") throw new YamlError("Unexpected content after value", line);
  return value;
}

const KEY = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"\-?:,[\]{}][^#]*?|-[^\s][^#]*?)\s*:(?:\s+|$)(.*)$/;

class YamlReader {
  constructor(text) {
    this.lines = text.split("\n").map((raw) => {
      const content = stripComment(raw);
      return { raw, indent: raw.length - raw.trimStart().length, text: content.trim() };
    });
    this.at = 0;
  }

  skipBlank() {
    while (this.at < this.lines.length && this.lines[this.at].text === "") this.at++;
  }

  peek() {
    this.skipBlank();
    return this.lines[this.at];
  }

  document() {
    const first = this.peek();
    if (!first) return null;
    const value = this.node(first.indent);
    if (this.peek()) throw new YamlError("Unexpected content", this.at);
    return value;
  }

  node(indent) {
    const line = this.peek();
    if (!line || line.indent < indent) return null;
    if (line.text === "-" || line.text.startsWith("- ")) return this.sequence(line.indent);
    if (!line.text.startsWith("[") && !line.text.startsWith("{") && KEY.test(line.text)) return this.mapping(line.indent);
    return this.scalar(line.indent - 1);
  }

  sequence(indent) {
    const items = [];
    for (let line = this.peek(); line && line.indent === indent && (line.text === "-" || line.text.startsWith("- ")); line = this.peek()) {
      const rest = line.text.slice(1).trimStart();
      if (rest === "") {
        this.at++;
        const next = this.peek();
        items.push(next && next.indent > indent ? this.node(next.indent) : null);
        continue;
      }
      // "- key: value" opens a mapping whose keys align with "key".
      const column = indent + (line.text.length - rest.length);
      this.lines[this.at] = { raw: line.raw, indent: column, text: rest };
      items.push(this.node(column));
    }
    return items;
  }

  mapping(indent) {
    const object = {};
    for (let line = this.peek(); line && line.indent === indent; line = this.peek()) {
      const match = KEY.exec(line.text);
      if (!match) throw new YamlError("Expected a mapping key", this.at);
      const rawKey = match[1];
      const key = String(rawKey.startsWith('"') || rawKey.startsWith("'") ? inlineValue(rawKey, this.at) : resolvePlain(rawKey.trim()));
      const rest = match[2].trim();
      this.at++;
      if (/^[|>][-+0-9]*$/.test(rest)) object[key] = this.block(indent, rest);
      else if (rest !== "") object[key] = this.continued(indent, rest);
      else {
        const next = this.peek();
        if (next && next.indent > indent) object[key] = this.node(next.indent);
        else if (next && next.indent === indent && (next.text === "-" || next.text.startsWith("- "))) object[key] = this.sequence(indent);
        else object[key] = null;
      }
    }
    return object;
  }

  /** A value on a key's line, with any more-indented plain lines folded onto it. */
  continued(indent, first) {
    const extra = [];
    for (let line = this.peek(); line && line.indent > indent && !/^["'[{]/.test(first); line = this.peek()) {
      extra.push(line.text);
      this.at++;
    }
    if (extra.length === 0) return inlineValue(first, this.at - 1);
    return [first, ...extra].join(" ");
  }

  scalar(parentIndent) {
    const parts = [];
    for (let line = this.peek(); line && line.indent > parentIndent; line = this.peek()) {
      parts.push(line.text);
      this.at++;
    }
    return parts.length === 1 ? inlineValue(parts[0], this.at - 1) : parts.join(" ");
  }

  /** A `|` (literal) or `>` (folded) block under a key at `indent`. */
  block(indent, header) {
    const folded = header[0] === ">";
    const chomp = header.includes("-") ? "strip" : header.includes("+") ? "keep" : "clip";
    const raw = [];
    while (this.at < this.lines.length) {
      const line = this.lines[this.at];
      if (line.raw.trim() !== "" && line.indent <= indent) break;
      raw.push(line.raw);
      this.at++;
    }
    const contentIndent = Math.min(...raw.filter((text) => text.trim() !== "").map((text) => text.length - text.trimStart().length));
    const lines = raw.map((text) => (text.trim() === "" ? "" : text.slice(contentIndent)));
    let trailing = 0;
    while (trailing < lines.length && lines[lines.length - 1 - trailing] === "") trailing++;
    const body = lines.slice(0, lines.length - trailing);
    let text = "";
    if (folded) {
      // A single break between two plain lines folds into a space; blank
      // lines and more-indented lines keep their breaks.
      let breaks = 0;
      let previous;
      for (const line of body) {
        if (line === "") {
          breaks++;
          continue;
        }
        if (previous === undefined) text = "\n".repeat(breaks) + line;
        else if (breaks > 0) text += "\n".repeat(breaks) + line;
        else text += (line.startsWith(" ") || previous.startsWith(" ") ? "\n" : " ") + line;
        breaks = 0;
        previous = line;
      }
    } else text = body.join("\n");
    if (body.length === 0) return chomp === "keep" ? "\n".repeat(trailing) : "";
    if (chomp === "strip") return text;
    if (chomp === "keep") return `${text}\n${"\n".repeat(trailing)}`;
    return `${text}\n`;
  }
}

function parseYaml(text) {
  return new YamlReader(text).document();
}

// --- Frontmatter --------------------------------------------------------------

function extractFrontmatter(content) {
  const text = (content.charCodeAt(0) === 0xfeff ? content.slice(1) : content).replace(/\r\n/g, "\n").replace(/\r/g, "\n");
  if (!text.startsWith("---")) return { yaml: null, body: text };
  const end = text.indexOf("\n---", 3);
  if (end === -1) return { yaml: null, body: text };
  return { yaml: text.slice(4, end), body: text.slice(end + 4).trim() };
}

/** A markdown file's leading `---` YAML block as an object, and the rest. */
export function parseFrontmatter(content) {
  const { yaml, body } = extractFrontmatter(content);
  if (!yaml) return { frontmatter: {}, body };
  return { frontmatter: parseYaml(yaml) ?? {}, body };
}

export function stripFrontmatter(content) {
  return parseFrontmatter(content).body;
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
