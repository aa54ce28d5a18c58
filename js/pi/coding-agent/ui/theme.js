// The theme extensions see as ctx.ui.theme, and the theme-derived helpers
// pi-coding-agent exports (getMarkdownTheme, getSelectListTheme, ...). Only
// pi's built-in "dark" theme is bundled; it is also what any other theme name
// falls back to. Colour escapes are computed once per theme, in the
// terminal's colour mode.
import { colorAnsi, colorToOklch, detectColorMode, parseColor, rgbColor } from "./colors.js";

/** Theme tokens in pi's order: which slot each colours, and what an omitted one falls back to. */
const TOKENS = {
  accent: "fg", border: "fg", borderAccent: "fg", borderMuted: "fg", success: "fg", error: "fg", warning: "fg",
  muted: "fg", dim: "fg", text: "fg", thinkingText: "fg", scrollbarTrack: "fg", scrollbarThumb: "fg",
  selectedBg: "bg", searchMatchBg: "bg", searchMatchText: "fg", userMessageBg: "bg", userMessageText: "fg",
  customMessageBg: "bg", customMessageText: "fg", customMessageLabel: "fg", toolPendingBg: "bg",
  toolSuccessBg: "bg", toolErrorBg: "bg", toolTitle: "fg", toolOutput: "fg", mdHeading: "fg", mdLink: "fg",
  mdLinkUrl: "fg", mdCode: "fg", mdCodeBlock: "fg", mdCodeBlockBorder: "fg", mdQuote: "fg", mdQuoteBorder: "fg",
  mdHr: "fg", mdListBullet: "fg", toolDiffAdded: "fg", toolDiffRemoved: "fg", toolDiffContext: "fg",
  syntaxComment: "fg", syntaxKeyword: "fg", syntaxFunction: "fg", syntaxVariable: "fg", syntaxString: "fg",
  syntaxNumber: "fg", syntaxType: "fg", syntaxOperator: "fg", syntaxPunctuation: "fg", thinkingOff: "fg",
  thinkingMinimal: "fg", thinkingLow: "fg", thinkingMedium: "fg", thinkingHigh: "fg", thinkingXhigh: "fg",
  thinkingMax: "fg", bashMode: "fg",
};
const FALLBACKS = {
  scrollbarTrack: "muted",
  scrollbarThumb: "text",
  searchMatchBg: "selectedBg",
  searchMatchText: "text",
  thinkingMax: "thinkingXhigh",
};

/** pi 1.6.0's built-in dark theme (themes/dark.json). */
const DARK = {
  name: "dark",
  appearance: "dark",
  vars: {
    text: "okhsl(234 3% 89%)", muted: "okhsl(229 6% 67%)", violet: "okhsl(295 50% 67%)", blue: "okhsl(232 54% 67%)",
    green: "okhsl(159 59% 67%)", red: "okhsl(20 72% 67%)", yellow: "okhsl(83 88% 67%)", blueBg: "okhsl(233 41% 24%)",
  },
  colors: {
    accent: "violet", border: "okhsl(231 57% 65%)", borderAccent: "okhsl(295 53% 64%)", borderMuted: "okhsl(229 8% 53%)",
    success: "green", error: "red", warning: "yellow", muted: "muted", dim: "okhsl(229 8% 56%)", text: "text",
    thinkingText: "okhsl(226 7% 65%)", selectedBg: "blueBg", scrollbarTrack: "okhsl(237 7% 33%)",
    scrollbarThumb: "okhsl(232 7% 65%)", searchMatchBg: "okhsl(53 51% 24%)", searchMatchText: "muted",
    userMessageBg: "blueBg", userMessageText: "text", customMessageBg: "okhsl(295 42% 24%)", customMessageText: "muted",
    customMessageLabel: "violet", toolPendingBg: "okhsl(229 5% 24%)", toolSuccessBg: "okhsl(158 46% 25%)",
    toolErrorBg: "okhsl(19 54% 25%)", toolTitle: "text", toolOutput: "muted", mdHeading: "yellow", mdLink: "blue",
    mdLinkUrl: "muted", mdCode: "violet", mdCodeBlock: "green", mdCodeBlockBorder: "muted", mdQuote: "muted",
    mdQuoteBorder: "muted", mdHr: "muted", mdListBullet: "violet", toolDiffAdded: "green", toolDiffRemoved: "red",
    toolDiffContext: "muted", syntaxComment: "muted", syntaxKeyword: "blue", syntaxFunction: "yellow",
    syntaxVariable: "okhsl(202 58% 67%)", syntaxString: "okhsl(52 67% 67%)", syntaxNumber: "green", syntaxType: "violet",
    syntaxOperator: "muted", syntaxPunctuation: "muted", thinkingOff: "okhsl(229 8% 49%)",
    thinkingMinimal: "okhsl(232 20% 52%)", thinkingLow: "okhsl(232 45% 54%)", thinkingMedium: "okhsl(263 59% 56%)",
    thinkingHigh: "okhsl(295 73% 59%)", thinkingXhigh: "okhsl(337 81% 61%)", thinkingMax: "okhsl(20 99% 63%)",
    bashMode: "okhsl(159 64% 65%)",
  },
};

const GUESSED_DEFAULTS = {
  dark: { foreground: rgbColor(0xe5, 0xe5, 0xe7), background: rgbColor(0, 0, 0) },
  light: { foreground: rgbColor(0, 0, 0), background: rgbColor(0xff, 0xff, 0xff) },
};

function resolveVar(value, vars, seen = new Set()) {
  if (typeof value === "number" || value === "" || value.startsWith("#") || /^ok(lch|hsl)\(/i.test(value)) return value;
  if (seen.has(value)) throw new Error(`Circular variable reference detected: ${value}`);
  if (!(value in vars)) throw new Error(`Variable reference not found: ${value}`);
  seen.add(value);
  return resolveVar(vars[value], vars, seen);
}

function withFallbacks(values) {
  const out = { ...values };
  for (const [token, fallback] of Object.entries(FALLBACKS)) {
    if (out[token] !== undefined) continue;
    if (out[fallback] === undefined) throw new Error(`Theme token ${token} has unresolved fallback ${fallback}`);
    out[token] = out[fallback];
  }
  return out;
}

/**
 * A style that wraps text in an SGR pair the way chalk does: an inner close
 * of the same attribute re-opens it, and every line is opened and closed on
 * its own so no style crosses a newline.
 */
function sgr(open, close) {
  const on = `\x1b[${open}m`;
  const off = `\x1b[${close}m`;
  return (text) => {
    let s = `${text}`;
    if (!s) return "";
    if (s.includes("\x1b")) s = s.split(off).join(off + on);
    if (s.includes("\n")) s = s.replace(/\r?\n/g, (nl) => `${off}${nl}${on}`);
    return on + s + off;
  };
}

const BOLD = sgr(1, 22);
const ITALIC = sgr(3, 23);
const UNDERLINE = sgr(4, 24);
const INVERSE = sgr(7, 27);
const STRIKETHROUGH = sgr(9, 29);

function averageLightness(colors) {
  const fixed = colors.filter((c) => c.kind !== "indexed" || c.index >= 16);
  if (fixed.length === 0) return undefined;
  return fixed.reduce((sum, c) => sum + colorToOklch(c).l, 0) / fixed.length;
}

export class Theme {
  constructor(fgColors, bgColors, mode, options = {}) {
    this.name = options.name;
    this.sourcePath = options.sourcePath;
    this.sourceInfo = options.sourceInfo;
    this.mode = mode;
    this.fgAnsi = new Map();
    this.bgAnsi = new Map();
    this.concreteColors = {};
    this.defaultTokens = { fg: [], bg: [] };
    this.dimTokens = new Set(options.dim);
    const values = withFallbacks({ ...fgColors, ...bgColors });
    const concrete = { fg: [], bg: [] };
    // Foreground tokens first, then background ones, which is the order `colors` lists them in.
    const entries = Object.entries(values);
    for (const entry of entries) if (!TOKENS[entry[0]]) throw new TypeError(`Unknown theme token: ${entry[0]}`);
    const ordered = [...entries.filter(([t]) => TOKENS[t] === "fg"), ...entries.filter(([t]) => TOKENS[t] === "bg")];
    for (const [token, value] of ordered) {
      const slot = TOKENS[token];
      // "" is the terminal's own default colour for the slot.
      if (value === "") {
        this.defaultTokens[slot].push(token);
        (slot === "bg" ? this.bgAnsi : this.fgAnsi).set(token, slot === "bg" ? "\x1b[49m" : "\x1b[39m");
        continue;
      }
      const color = parseColor(value);
      this.concreteColors[token] = color;
      concrete[slot].push(color);
      (slot === "bg" ? this.bgAnsi : this.fgAnsi).set(token, colorAnsi(color, mode, slot === "bg"));
    }
    this.ownAppearance = options.appearance ?? Theme.detectAppearance(concrete.fg, concrete.bg);
  }

  static detectAppearance(foregrounds, backgrounds) {
    const fg = averageLightness(foregrounds);
    const bg = averageLightness(backgrounds);
    if (fg !== undefined && bg !== undefined) return bg < fg ? "dark" : "light";
    if (bg !== undefined) return bg < 0.5 ? "dark" : "light";
    if (fg !== undefined) return fg > 0.5 ? "dark" : "light";
    return undefined;
  }

  get appearance() {
    return this.ownAppearance ?? "dark";
  }

  /** Concrete colours for every token; "" tokens take a guess at the terminal's defaults. */
  get colors() {
    const guess = GUESSED_DEFAULTS[this.appearance];
    const colors = { ...this.concreteColors };
    for (const token of this.defaultTokens.fg) colors[token] = guess.foreground;
    for (const token of this.defaultTokens.bg) colors[token] = guess.background;
    return Object.freeze(colors);
  }

  tokenAnsi(map, token) {
    const ansi = map.get(token);
    if (ansi === undefined) throw new Error(`Unknown theme color: ${token}`);
    return ansi;
  }

  fg(color, text) {
    const ansi = this.tokenAnsi(this.fgAnsi, color);
    if (this.dimTokens.has(color)) return `${ansi}\x1b[2m${text}\x1b[22;39m`;
    return `${ansi}${text}\x1b[39m`;
  }

  bg(color, text) {
    return `${this.tokenAnsi(this.bgAnsi, color)}${text}\x1b[49m`;
  }

  /** Colours and attributes at once; resets close in the reverse order of the opening codes. */
  style(text, options) {
    const { fg, bg } = options;
    const dim = options.dim || (typeof fg === "string" && this.dimTokens.has(fg));
    const fgAnsi = fg === undefined ? undefined : typeof fg === "string" ? this.tokenAnsi(this.fgAnsi, fg) : colorAnsi(fg, this.mode);
    const bgAnsi = bg === undefined ? undefined : typeof bg === "string" ? this.tokenAnsi(this.bgAnsi, bg) : colorAnsi(bg, this.mode, true);
    let open = "";
    let close = "";
    if (fgAnsi) {
      open += fgAnsi;
      close = "\x1b[39m";
    }
    if (bgAnsi) {
      open += bgAnsi;
      close = `\x1b[49m${close}`;
    }
    if (options.bold) open += "\x1b[1m";
    if (dim) open += "\x1b[2m";
    if (options.bold || dim) close = `\x1b[22m${close}`;
    for (const [flag, on, off] of [["italic", 3, 23], ["underline", 4, 24], ["inverse", 7, 27], ["strikethrough", 9, 29]]) {
      if (options[flag]) {
        open += `\x1b[${on}m`;
        close = `\x1b[${off}m${close}`;
      }
    }
    return `${open}${text}${close}`;
  }

  bold(text) {
    return BOLD(text);
  }

  italic(text) {
    return ITALIC(text);
  }

  underline(text) {
    return UNDERLINE(text);
  }

  inverse(text) {
    return INVERSE(text);
  }

  strikethrough(text) {
    return STRIKETHROUGH(text);
  }

  getFgAnsi(color) {
    const ansi = this.tokenAnsi(this.fgAnsi, color);
    return this.dimTokens.has(color) ? `${ansi}\x1b[2m` : ansi;
  }

  getBgAnsi(color) {
    return this.tokenAnsi(this.bgAnsi, color);
  }

  getColorMode() {
    return this.mode;
  }

  getThinkingBorderColor(level) {
    const token =
      {
        off: "thinkingOff", minimal: "thinkingMinimal", low: "thinkingLow", medium: "thinkingMedium",
        high: "thinkingHigh", xhigh: "thinkingXhigh", max: "thinkingMax",
      }[level] ?? "thinkingOff";
    return (text) => this.fg(token, text);
  }

  getBashModeBorderColor() {
    return (text) => this.fg("bashMode", text);
  }
}

/** The slot ("fg" or "bg") of each theme token, and what the optional ones fall back to. */
export const THEME_TOKEN_SLOTS = TOKENS;
export const THEME_TOKEN_FALLBACKS = FALLBACKS;

/** A theme from a theme file's JSON (`vars` resolved, omitted tokens from their fallbacks). */
export function themeFromJson(json, mode, sourcePath) {
  const resolved = withFallbacks(Object.fromEntries(Object.entries(json.colors).map(([k, v]) => [k, resolveVar(v, json.vars ?? {})])));
  const fg = {};
  const bg = {};
  for (const [token, value] of Object.entries(resolved)) (TOKENS[token] === "bg" ? bg : fg)[token] = value;
  return new Theme(fg, bg, mode, { name: json.name, appearance: json.appearance, sourcePath });
}

/** The dark theme in `mode` ("truecolor" or "256color"; by default what the terminal supports). */
export function createTheme({ mode } = {}) {
  return themeFromJson(DARK, mode ?? detectColorMode());
}

/** The dark theme in the colour mode the environment asks for, for ctx.ui.theme (made on first use). */
let defaultTheme;

let current;

/** The theme that getMarkdownTheme() and the other helpers read. */
export function currentTheme() {
  return current ?? (defaultTheme ??= createTheme());
}

/** Makes `theme` the current one (pi's theme module has the same internal call). */
export function setThemeInstance(theme) {
  current = theme;
}

/** Makes the named theme current. Only "dark" is bundled, and every other name falls back to it. */
export function initTheme(_themeName, _enableWatcher = false) {
  current = createTheme();
}

/**
 * Code lines coloured for a fenced block. Syntax highlighting is not built:
 * every language renders the way pi renders one it does not know.
 */
export function highlightCode(code, _lang) {
  const theme = currentTheme();
  return code.split("\n").map((line) => theme.fg("mdCodeBlock", line));
}

const EXTENSION_LANGUAGES = {
  ts: "typescript", tsx: "typescript", js: "javascript", jsx: "javascript", mjs: "javascript", cjs: "javascript",
  py: "python", rb: "ruby", rs: "rust", go: "go", java: "java", kt: "kotlin", swift: "swift", dart: "dart",
  groovy: "groovy", gradle: "groovy", nix: "nix", c: "c", h: "c", cpp: "cpp", cc: "cpp", cxx: "cpp", hpp: "cpp",
  cs: "csharp", php: "php", sh: "bash", bash: "bash", zsh: "bash", fish: "fish", ps1: "powershell", sql: "sql",
  html: "html", htm: "html", css: "css", scss: "scss", sass: "sass", less: "less", json: "json", yaml: "yaml",
  yml: "yaml", toml: "toml", xml: "xml", md: "markdown", markdown: "markdown", dockerfile: "dockerfile",
  makefile: "makefile", cmake: "cmake", lua: "lua", perl: "perl", r: "r", scala: "scala", clj: "clojure",
  ex: "elixir", exs: "elixir", erl: "erlang", hs: "haskell", ml: "ocaml", vim: "vim", graphql: "graphql",
  proto: "protobuf", tf: "hcl", hcl: "hcl",
};

/** Highlighting language for a file, from its extension. */
export function getLanguageFromPath(filePath) {
  const ext = filePath.split(".").pop()?.toLowerCase();
  return ext ? EXTENSION_LANGUAGES[ext] : undefined;
}

export function getMarkdownTheme() {
  const t = () => currentTheme();
  return {
    heading: (text) => t().fg("mdHeading", text),
    link: (text) => t().fg("mdLink", text),
    linkUrl: (text) => t().fg("mdLinkUrl", text),
    code: (text) => t().fg("mdCode", text),
    codeBlock: (text) => t().fg("mdCodeBlock", text),
    codeBlockBorder: (text) => t().fg("mdCodeBlockBorder", text),
    quote: (text) => t().fg("mdQuote", text),
    quoteBorder: (text) => t().fg("mdQuoteBorder", text),
    hr: (text) => t().fg("mdHr", text),
    listBullet: (text) => t().fg("mdListBullet", text),
    bold: (text) => t().bold(text),
    italic: (text) => t().italic(text),
    underline: (text) => t().underline(text),
    strikethrough: (text) => t().strikethrough(text),
    highlightCode,
  };
}

export function getSelectListTheme() {
  const t = () => currentTheme();
  return {
    selectedPrefix: (text) => t().fg("accent", text),
    selectedText: (text) => t().fg("accent", text),
    description: (text) => t().fg("muted", text),
    scrollInfo: (text) => t().fg("muted", text),
    noMatch: (text) => t().fg("muted", text),
  };
}

export function getEditorTheme() {
  return {
    borderColor: (text) => currentTheme().fg("borderMuted", text),
    selectList: getSelectListTheme(),
  };
}

export function getSettingsListTheme() {
  const t = () => currentTheme();
  return {
    label: (text, selected) => (selected ? t().fg("accent", text) : text),
    value: (text, selected) => (selected ? t().fg("accent", text) : t().fg("muted", text)),
    description: (text) => t().fg("dim", text),
    cursor: t().fg("accent", "→ "),
    hint: (text) => t().fg("dim", text),
  };
}
