// pi's command-line parser. It never throws and never exits: bad values
// become diagnostics, unknown --flags are kept for extensions' own flags,
// "@path" arguments are files to attach, anything else is a message.

const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];

const splitList = (value) =>
  value
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);

const isToolModifier = (entry) => entry.startsWith("+") || entry.startsWith("-");

/** Why a --tools list is invalid: it is either plain names and patterns, or only exact +name/-name entries. */
function toolListError(entries) {
  const modifiers = entries.filter(isToolModifier);
  if (modifiers.length === 0) return undefined;
  if (modifiers.length < entries.length) return "tool names cannot be mixed with +name or -name entries";
  const pattern = modifiers.find((entry) => entry.includes("*"));
  if (pattern) return `+name and -name entries take exact tool names, not patterns: ${pattern}`;
  return undefined;
}

// Flags that only set `true`.
const SWITCHES = {
  "--help": "help",
  "-h": "help",
  "--version": "version",
  "-v": "version",
  "--continue": "continue",
  "-c": "continue",
  "--resume": "resume",
  "-r": "resume",
  "--no-session": "noSession",
  "--no-tools": "noTools",
  "-nt": "noTools",
  "--no-builtin-tools": "noBuiltinTools",
  "-nbt": "noBuiltinTools",
  "--no-extensions": "noExtensions",
  "-ne": "noExtensions",
  "--no-mcp": "noMcp",
  "--no-skills": "noSkills",
  "-ns": "noSkills",
  "--no-prompt-templates": "noPromptTemplates",
  "-np": "noPromptTemplates",
  "--no-themes": "noThemes",
  "--no-context-files": "noContextFiles",
  "-nc": "noContextFiles",
  "--verbose": "verbose",
  "--offline": "offline",
};

// Flags taking one value; without one they fall through to the generic handling below.
const SINGLE_VALUES = {
  "--provider": "provider",
  "--model": "model",
  "--api-key": "apiKey",
  "--system-prompt": "systemPrompt",
  "--session": "session",
  "--session-id": "sessionId",
  "--fork": "fork",
  "--session-dir": "sessionDir",
  "--export": "export",
};

// Flags that may repeat, each adding to a list.
const REPEATED_VALUES = {
  "--append-system-prompt": "appendSystemPrompt",
  "--extension": "extensions",
  "-e": "extensions",
  "--skill": "skills",
  "--prompt-template": "promptTemplates",
  "--theme": "themes",
};

export function parseArgs(args) {
  const result = { messages: [], fileArgs: [], unknownFlags: new Map(), diagnostics: [] };
  const error = (message) => result.diagnostics.push({ type: "error", message });
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const hasValue = i + 1 < args.length;
    if (arg === "--") {
      for (const rest of args.slice(i + 1)) {
        if (rest.startsWith("@")) result.fileArgs.push(rest.slice(1));
        else result.messages.push(rest);
      }
      break;
    } else if (Object.hasOwn(SWITCHES, arg)) {
      result[SWITCHES[arg]] = true;
    } else if (arg === "--mode") {
      const mode = args[i + 1];
      if (mode === undefined || mode.startsWith("-")) {
        error("--mode requires text, json, or rpc");
        continue;
      }
      i++;
      if (mode === "text" || mode === "json" || mode === "rpc") result.mode = mode;
      else error(`Invalid mode "${mode}". Valid values: text, json, rpc`);
    } else if (Object.hasOwn(SINGLE_VALUES, arg) && hasValue) {
      result[SINGLE_VALUES[arg]] = args[++i];
    } else if (Object.hasOwn(REPEATED_VALUES, arg) && hasValue) {
      const key = REPEATED_VALUES[arg];
      result[key] = result[key] ?? [];
      result[key].push(args[++i]);
    } else if (arg === "--name" || arg === "-n") {
      if (hasValue) result.name = args[++i];
      else error("--name requires a value");
    } else if (arg === "--models" && hasValue) {
      result.models = splitList(args[++i]);
    } else if ((arg === "--tools" || arg === "-t") && hasValue) {
      const tools = splitList(args[++i]);
      const problem = toolListError(tools);
      if (problem) error(`${arg}: ${problem}`);
      else result.tools = tools;
    } else if ((arg === "--exclude-tools" || arg === "-xt") && hasValue) {
      result.excludeTools = splitList(args[++i]);
    } else if (arg === "--thinking" && hasValue) {
      const level = args[++i];
      if (THINKING_LEVELS.includes(level)) result.thinking = level;
      else {
        result.diagnostics.push({
          type: "warning",
          message: `Invalid thinking level "${level}". Valid values: ${THINKING_LEVELS.join(", ")}`,
        });
      }
    } else if (arg === "--print" || arg === "-p") {
      result.print = true;
      // The prompt may follow directly; "---" still counts as text, not as a flag.
      const next = args[i + 1];
      if (next !== undefined && !next.startsWith("@") && (!next.startsWith("-") || next.startsWith("---"))) {
        result.messages.push(next);
        i++;
      }
    } else if (arg === "--use-theme") {
      const themeName = args[i + 1];
      if (themeName === undefined || themeName.startsWith("-")) error("--use-theme requires a theme name");
      else {
        result.useTheme = themeName;
        i++;
      }
    } else if (arg === "--list-models") {
      // An optional search pattern: anything but a flag or a file.
      if (hasValue && !args[i + 1].startsWith("-") && !args[i + 1].startsWith("@")) result.listModels = args[++i];
      else result.listModels = true;
    } else if (arg === "--tui-mode") {
      const mode = args[i + 1];
      if (mode === "regular" || mode === "fullscreen") {
        result.tuiMode = mode;
        i++;
      } else if (mode === undefined || mode.startsWith("-")) {
        error("--tui-mode requires regular or fullscreen");
      } else {
        i++;
        error(`Invalid TUI mode "${mode}". Valid values: regular, fullscreen`);
      }
    } else if (arg === "--approve" || arg === "-a") {
      result.projectTrustOverride = true;
    } else if (arg === "--no-approve" || arg === "-na") {
      result.projectTrustOverride = false;
    } else if (arg.startsWith("@")) {
      result.fileArgs.push(arg.slice(1));
    } else if (arg.startsWith("--")) {
      // An extension's flag: "--name=value", "--name value", or a bare switch.
      const eqIndex = arg.indexOf("=");
      if (eqIndex !== -1) {
        result.unknownFlags.set(arg.slice(2, eqIndex), arg.slice(eqIndex + 1));
      } else {
        const next = args[i + 1];
        if (next !== undefined && !next.startsWith("-") && !next.startsWith("@")) {
          result.unknownFlags.set(arg.slice(2), next);
          i++;
        } else {
          result.unknownFlags.set(arg.slice(2), true);
        }
      }
    } else if (arg.startsWith("-")) {
      error(`Unknown option: ${arg}`);
    } else {
      result.messages.push(arg);
    }
  }
  return result;
}
