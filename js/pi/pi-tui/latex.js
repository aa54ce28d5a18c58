// renderLatex: pi-tui's rendering of simple LaTeX math as terminal text.
// Inline it is one line of Unicode (x², √2, α/β); with { display: true }
// fractions, operator limits, scripts, cases and matrices are stacked over
// several lines. Anything it cannot draw faithfully (unknown commands,
// unbalanced braces, unknown environments) yields undefined, so callers can
// show the source instead.
//
// Rendering works on strings: the parser turns the source into a line of
// text in which each stacked piece stands as a private-use marker pointing
// into a shared list of boxes; laying out then splices the boxes into rows.

import { latexTables } from "./latex-symbols.js";
import { visibleWidth } from "./width.js";

// Private-use characters never appear in real math, so they can carry the
// parser's bookkeeping through ordinary string operations.
const BOX_OPEN = "\u{f0000}";
const BOX_CLOSE = "\u{f0001}";
const KEPT_SPACE = "\u{f0002}";
const WORD_OPEN = "\u{f0004}";
const WORD_CLOSE = "\u{f0005}";
// What \! and its kin return: "remove the space before me".
const BACKSPACE = "\u0000";

const BOX_REFERENCE = /\u{f0000}(\d+)\u{f0001}/gu;
const BOX_REFERENCE_AT_END = /\u{f0000}(\d+)\u{f0001}$/u;
// A named operator (sin, log, …) is set off by a space from a word, number,
// closing bracket or box before it, and from a word, number, root or box
// after it.
const SPACE_BEFORE_WORD = /(?<=[\p{L}\p{N})\]}\u{f0001}])\u{f0004}/gu;
const SPACE_AFTER_WORD = /\u{f0005}(?=[\p{L}\p{N}√\u{f0000}])/gu;

const THIN_SPACES = new Set([",", ":", ";", " ", ">", "enspace", "enskip", "medspace", "quad", "qquad", "thickspace", "thinspace"]);
const NEGATIVE_SPACES = new Set(["!", "negmedspace", "negthickspace", "negthinspace"]);
const FONT_SWITCHES = new Set(["bf", "cal", "it", "rm", "sf", "sl", "tt"]);
const STYLE_ONLY = new Set(["displaystyle", "limits", "nolimits", "scriptstyle", "scriptscriptstyle", "textstyle"]);
const DELIMITER_SIZES = new Set(["big", "Big", "bigg", "Bigg", "bigl", "Bigl", "biggl", "Biggl", "bigr", "Bigr", "biggr", "Biggr"]);
const ESCAPED_LITERALS = new Set(["{", "}", "$", "%", "#", "_", "&"]);
const ALIGNMENT_ENVIRONMENTS = new Set([
  "aligned", "align", "align*", "alignedat", "alignat", "alignat*", "gather", "gathered", "multline", "multline*", "split",
]);
const COLUMN_PAIR_ENVIRONMENTS = new Set(["alignedat", "alignat", "alignat*"]);
const MATRIX_ENVIRONMENTS = new Set(["array", "matrix", "smallmatrix", "pmatrix", "bmatrix", "Bmatrix", "vmatrix", "Vmatrix"]);
const UNFENCED_MATRICES = new Set(["array", "matrix", "smallmatrix"]);
// Per fenced matrix: [top left, top right, middle left, middle right, bottom left, bottom right].
const MATRIX_FENCES = {
  pmatrix: ["⎛", "⎞", "⎜", "⎟", "⎝", "⎠"],
  bmatrix: ["⎡", "⎤", "⎢", "⎥", "⎣", "⎦"],
  Bmatrix: ["⎧", "⎫", "⎨", "⎬", "⎩", "⎭"],
  vmatrix: ["│", "│", "│", "│", "│", "│"],
  Vmatrix: ["║", "║", "║", "║", "║", "║"],
};
const ROW_BREAK = /\\\\(?:\[[^\]\n]*\])?/;
const COLUMN_SPEC = /^\s*\{[^}]*\}/;
const WHITESPACE = /\s/;
const LETTER = /[A-Za-z]/;

const codePointCount = (text) => Array.from(text).length;
const boxReference = (index) => `${BOX_OPEN}${index}${BOX_CLOSE}`;

// ---------------------------------------------------------------------------
// Text helpers

/** Unicode sub/superscript form of `text`, or undefined if a character has none. */
function unicodeScript(text, kind) {
  const table = kind === "sub" ? latexTables().subscripts : latexTables().superscripts;
  let out = "";
  for (const character of tidyScript(text)) {
    const glyph = table.get(character);
    if (glyph === undefined) return undefined;
    out += glyph;
  }
  return out;
}

function tidyScript(text) {
  return text.trim().replace(/\s*([=+-])\s*/g, "$1");
}

/** A script written inline: Unicode when possible, else ^x, _ab or ^(…). */
function inlineScript(text, kind) {
  const tidy = tidyScript(text);
  const unicode = unicodeScript(tidy, kind);
  if (unicode !== undefined) return unicode;
  const mark = kind === "sub" ? "_" : "^";
  const bare = codePointCount(tidy) === 1 || (kind === "sub" && /^[A-Za-z]+$/.test(tidy));
  return bare ? `${mark}${tidy}` : `${mark}(${tidy})`;
}

function inlineFraction(top, bottom) {
  const numerator = top.trim();
  const denominator = bottom.trim();
  const plainNumerator = /^[\p{L}\p{N}.]+$/u.test(numerator);
  const plainDenominator = /^[\p{N}.]+$/u.test(denominator) || codePointCount(denominator) === 1;
  const left = plainNumerator ? numerator : `(${numerator})`;
  const right = plainDenominator ? denominator : `(${denominator})`;
  return `${left}/${right}`;
}

function inlineRoot(radicand, sign = "√") {
  const value = radicand.trim();
  return /^[\p{L}\p{N}.]+$/u.test(value) ? `${sign}${value}` : `${sign}(${value})`;
}

/** Resolves named-operator spacing and tidies spaces and blank edge lines. */
function finish(text) {
  const spaced = text
    .replace(SPACE_BEFORE_WORD, " ")
    .replaceAll(WORD_OPEN, "")
    .replace(SPACE_AFTER_WORD, " ")
    .replaceAll(WORD_CLOSE, "");
  const lines = spaced.split("\n").map((line) => line.replace(/[ \t]+/g, " ").trim());
  const last = lines.length - 1;
  return lines
    .filter((line, index) => line !== "" || (index > 0 && index < last))
    .join("\n")
    .trim();
}

// ---------------------------------------------------------------------------
// Parsing

class MathReader {
  constructor(source, boxes, display) {
    this.source = source;
    this.boxes = boxes;
    this.display = display;
    this.at = 0;
    this.ok = true;
    // False inside arguments where a stacked fraction could not be drawn.
    this.mayStack = true;
    // How many script arguments are being read right now.
    this.scriptLevel = 0;
  }

  /** The rendered text, or undefined when the source is not supported. */
  read() {
    const text = this.sequence();
    return this.ok && this.at === this.source.length ? finish(text) : undefined;
  }

  fail(value = "") {
    this.ok = false;
    return value;
  }

  peek() {
    return this.source[this.at];
  }

  skipWhile(pattern) {
    while (this.at < this.source.length && pattern.test(this.source[this.at] ?? "")) this.at++;
  }

  /** Index of the first character at or after `from` that `pattern` does not match. */
  scanWhile(pattern, from) {
    let index = from;
    while (index < this.source.length && pattern.test(this.source[index] ?? "")) index++;
    return index;
  }

  addBox(box) {
    return boxReference(this.boxes.push(box) - 1);
  }

  sequence(closer) {
    let out = "";
    while (this.at < this.source.length) {
      const character = this.source[this.at];
      if (closer !== undefined && character === closer) {
        this.at++;
        return out;
      }
      switch (character) {
        case "}":
          return this.fail(out);
        case "{":
          this.at++;
          out += this.sequence("}");
          continue;
        case "\\": {
          const piece = this.command();
          out = piece === BACKSPACE ? dropTrailingSpace(out) : out + piece;
          continue;
        }
        case "^":
        case "_": {
          this.at++;
          const base = out.trimEnd();
          const scripts = this.scripts(character);
          // A script on a named operator belongs inside its word, so the
          // operator's spacing is decided after the script.
          out = base.endsWith(WORD_CLOSE) ? `${base.slice(0, -WORD_CLOSE.length)}${scripts}${WORD_CLOSE}` : base + scripts;
          continue;
        }
        case "=":
        case "<":
        case ">":
          out = `${out.trimEnd()} ${character} `;
          this.at++;
          continue;
        case "&":
          this.at++;
          continue;
        case "~":
          this.at++;
          out += " ";
          continue;
        case ".":
          if (this.appendToTrailingMatrix(out, character)) {
            this.at++;
            continue;
          }
          break;
        default:
          if (WHITESPACE.test(character)) {
            this.skipWhile(WHITESPACE);
            out += " ";
            continue;
          }
      }
      out += character;
      this.at++;
    }
    return closer === undefined ? out : this.fail(out);
  }

  /** Punctuation right after a matrix ends its last row, as a full stop would. */
  appendToTrailingMatrix(text, character) {
    const reference = BOX_REFERENCE_AT_END.exec(text);
    const box = reference ? this.boxes[Number(reference[1])] : undefined;
    if (box?.type !== "matrix") return false;
    const last = box.lines.length - 1;
    box.lines[last] = `${box.lines[last] ?? ""}${character}`;
    return true;
  }

  /** A subscript and/or superscript after `first` (already consumed). */
  scripts(first) {
    const values = {};
    const order = [];
    const readScript = (mark) => {
      const kind = mark === "_" ? "sub" : "sup";
      this.scriptLevel++;
      try {
        values[kind] = this.argument(false);
      } finally {
        this.scriptLevel--;
      }
      order.push(kind);
    };
    readScript(first);
    const next = this.scanWhile(WHITESPACE, this.at);
    const other = first === "_" ? "^" : "_";
    if (this.source[next] === other) {
      this.at = next + 1;
      readScript(other);
    }
    const unicode = {
      sub: values.sub === undefined ? undefined : unicodeScript(values.sub, "sub"),
      sup: values.sup === undefined ? undefined : unicodeScript(values.sup, "sup"),
    };
    const stackable = [values.sub, values.sup].every((value) => value === undefined || isStackableScript(value));
    const lacksUnicode = ["sub", "sup"].some((kind) => values[kind] !== undefined && unicode[kind] === undefined);
    if (this.display && stackable && (this.scriptLevel > 0 || lacksUnicode)) {
      return this.addBox({
        type: "script",
        lower: values.sub === undefined ? undefined : finish(values.sub),
        upper: values.sup === undefined ? undefined : finish(values.sup),
      });
    }
    return order.map((kind) => unicode[kind] ?? inlineScript(values[kind] ?? "", kind)).join("");
  }

  command() {
    this.at++;
    if (this.at >= this.source.length) return this.fail();
    const first = this.source[this.at];
    if (first === "\n" || first === "\r") {
      this.at++;
      if (first === "\r" && this.peek() === "\n") this.at++;
      return " ";
    }
    let name;
    if (LETTER.test(first)) {
      const start = this.at;
      this.skipWhile(LETTER);
      name = this.source.slice(start, this.at);
    } else {
      name = first;
      this.at++;
    }
    return this.expand(name);
  }

  expand(name) {
    const tables = latexTables();
    if (name === "\\") return "\n";
    if (THIN_SPACES.has(name)) return " ";
    if (NEGATIVE_SPACES.has(name)) return BACKSPACE;
    if (FONT_SWITCHES.has(name)) {
      this.skipWhile(WHITESPACE);
      return "";
    }
    if (STYLE_ONLY.has(name)) return "";
    if (ESCAPED_LITERALS.has(name)) return name;
    if (name === "|") return "‖";
    if (name === "not") return this.negation();
    if (tables.limitOperators.has(name)) return this.largeOperator(name, "bracket", true, true);
    const symbol = tables.symbols.get(name);
    if (symbol !== undefined) {
      if (tables.bigOperators.has(name)) return this.largeOperator(symbol, "script", true);
      const spaced = name === "cdot" || name === "times" || tables.relations.has(name);
      return spaced ? ` ${symbol} ` : symbol;
    }
    if (tables.namedOperators.has(name)) return `${WORD_OPEN}${name}${WORD_CLOSE}`;
    if (DELIMITER_SIZES.has(name)) return "";
    const builder = argumentCommands().get(name);
    if (builder) return builder(this, name);
    const accent = tables.accents.get(name);
    if (accent !== undefined) {
      const base = this.argument();
      return codePointCount(base) === 1 ? `${base}${accent}` : `${name}(${base})`;
    }
    if (tables.plainWrappers.has(name)) {
      const content = this.argument();
      return name.startsWith("text") || name === "mbox" ? content : content.trim();
    }
    if (name === "begin") return this.environment();
    return this.fail(name === "end" ? "" : `\\${name}`);
  }

  skipNullDelimiter() {
    if (this.peek() === ".") this.at++;
    return "";
  }

  negation() {
    const target = this.argument(false).trim();
    const negated = latexTables().negations.get(target);
    if (negated !== undefined) return ` ${negated} `;
    const [head, ...rest] = Array.from(target);
    if (head === undefined) return this.fail();
    return ` ${head}\u0338${rest.join("")} `;
  }

  fraction(name) {
    const stacked = this.display && this.mayStack && name !== "tfrac";
    const top = this.argument(!stacked);
    const bottom = this.argument(!stacked);
    if (!stacked) return inlineFraction(top, bottom);
    return this.addBox({ type: "fraction", numerator: finish(top), denominator: finish(bottom) });
  }

  root() {
    const degree = this.optionalArgument()?.trim();
    const radicand = this.argument();
    if (degree === undefined || degree === "2") return inlineRoot(radicand);
    if (degree === "3") return inlineRoot(radicand, "∛");
    if (degree === "4") return inlineRoot(radicand, "∜");
    return `${inlineScript(degree, "sup")}${inlineRoot(radicand)}`;
  }

  binomial() {
    const n = this.argument();
    const k = this.argument();
    return `(${n} choose ${k})`;
  }

  operatorName() {
    const starred = this.peek() === "*";
    if (starred) this.at++;
    const word = finish(this.argument()).trim();
    return this.largeOperator(word, "bracket", starred, true);
  }

  /** \overset / \underset: the annotation becomes a script on the base. */
  decorated(kind) {
    const annotation = this.argument();
    const base = this.argument().trim();
    return `${base}${inlineScript(annotation, kind)}`;
  }

  /**
   * An operator that may carry limits (sum, lim, ∫, \operatorname*): stacked
   * above and below it in display math, else written after it; inline, the
   * lower limit is bracketed for word operators and subscripted for symbols.
   */
  largeOperator(operator, inlineLower, limitsByDefault, spaced = false) {
    let stackLimits = limitsByDefault;
    const afterBlanks = this.scanWhile(/[ \t]/, this.at);
    const modifier = /^\\(limits|nolimits)(?![A-Za-z])/.exec(this.source.slice(afterBlanks));
    if (modifier) {
      stackLimits = modifier[1] === "limits";
      this.at = afterBlanks + modifier[0].length;
    }
    const limits = {};
    for (;;) {
      const next = this.scanWhile(/[ \t]/, this.at);
      const mark = this.source[next];
      if (mark !== "_" && mark !== "^") break;
      this.at = next + 1;
      const value = finish(this.argument(false)).replaceAll(" ", "");
      const side = mark === "_" ? "lower" : "upper";
      if (limits[side] !== undefined) this.fail();
      limits[side] = value;
    }
    const { lower, upper } = limits;
    if (this.display && stackLimits && (lower !== undefined || upper !== undefined)) {
      return this.addBox({ type: "operator", operator, lower, upper });
    }
    let text = operator;
    if (lower !== undefined) text += inlineLower === "bracket" ? `[${lower}]` : inlineScript(lower, "sub");
    if (upper !== undefined) text += inlineScript(upper, "sup");
    return spaced ? ` ${text} ` : text;
  }

  argument(allowStacking = true) {
    const saved = this.mayStack;
    this.mayStack = saved && allowStacking;
    const value = this.argumentText();
    this.mayStack = saved;
    return value;
  }

  argumentText() {
    this.skipWhile(WHITESPACE);
    if (this.at >= this.source.length) return this.fail();
    const character = this.source[this.at];
    if (character === "{") {
      this.at++;
      return this.sequence("}");
    }
    if (character === "\\") return this.command();
    this.at++;
    return character ?? "";
  }

  /** A [bracketed] argument, rendered; undefined when there is none. */
  optionalArgument() {
    this.skipWhile(/[ \t]/);
    if (this.peek() !== "[") return undefined;
    const close = this.source.indexOf("]", this.at + 1);
    if (close < 0) {
      this.fail();
      return undefined;
    }
    const inner = this.source.slice(this.at + 1, close);
    this.at = close + 1;
    return this.nested(inner);
  }

  /** The unparsed text of a {group}, braces balanced and escapes skipped. */
  rawGroup() {
    this.skipWhile(/[ \t]/);
    if (this.peek() !== "{") {
      this.fail();
      return undefined;
    }
    const start = ++this.at;
    let depth = 1;
    while (this.at < this.source.length) {
      const character = this.source[this.at];
      if (character === "\\") {
        this.at += 2;
        continue;
      }
      if (character === "{") depth++;
      if (character === "}") depth--;
      if (depth === 0) return this.source.slice(start, this.at++);
      this.at++;
    }
    this.fail();
    return undefined;
  }

  environment() {
    const name = this.rawGroup();
    if (!name) return "";
    const endTag = `\\end{${name}}`;
    const end = this.source.indexOf(endTag, this.at);
    if (end < 0) return this.fail();
    const body = this.source.slice(this.at, end);
    this.at = end + endTag.length;
    if (name === "equation" || name === "equation*" || name === "displaymath") return this.nested(body).trim();
    if (ALIGNMENT_ENVIRONMENTS.has(name)) return this.alignment(name, body);
    if (name === "cases" || name === "cases*") return this.cases(body);
    if (MATRIX_ENVIRONMENTS.has(name)) return this.matrix(name, name === "array" ? body.replace(COLUMN_SPEC, "") : body);
    return this.fail(body);
  }

  /** Aligned equations: one line per row, alignment points dropped. */
  alignment(name, body) {
    const pairedColumns = COLUMN_PAIR_ENVIRONMENTS.has(name);
    const rows = (pairedColumns ? body.replace(COLUMN_SPEC, "") : body).split(ROW_BREAK);
    const lines = [];
    for (const row of rows) {
      const cells = row.split("&");
      let source = cells.join("");
      if (pairedColumns) {
        // alignat's cells come in (right-aligned, left-aligned) pairs; a
        // space separates one pair from the next.
        const pairs = [];
        for (let i = 0; i < cells.length; i += 2) pairs.push(cells.slice(i, i + 2).join(""));
        source = pairs.join(" ");
      }
      const line = this.nested(source).trim();
      if (line) lines.push(line);
    }
    return lines.join("\n");
  }

  /** Rows of rendered cells, rows with no content dropped. */
  grid(body) {
    return body
      .split(ROW_BREAK)
      .map((row) => row.split("&").map((cell) => this.nested(cell, false).trim()))
      .filter((cells) => cells.some((cell) => cell !== ""));
  }

  cases(body) {
    const rows = this.grid(body);
    const valueOf = (cells) => (cells[0] ?? "").replace(/,\s*$/, "");
    const valueWidth = Math.max(0, ...rows.map((cells) => visibleWidth(valueOf(cells))));
    const entries = rows.map((cells) => {
      const value = valueOf(cells);
      const condition = cells[1] ?? "";
      if (!condition) return value;
      const joiner = /^(?:if|when|for|otherwise)\b/i.test(condition) ? " " : " if ";
      return `${value}${KEPT_SPACE.repeat(valueWidth - visibleWidth(value))}${joiner}${condition}`;
    });
    if (entries.length === 0) return "";
    if (entries.length === 1) return `⎧ ${entries[0]}`;
    // The brace's middle piece sits on the middle row; with an even number
    // of rows it gets a row of its own.
    const middle = Math.floor(entries.length / 2);
    const rowsShown = entries.length % 2 === 0 ? [...entries.slice(0, middle), undefined, ...entries.slice(middle)] : entries;
    const lines = rowsShown.map((entry, index) => {
      const piece = index === 0 ? "⎧" : index === rowsShown.length - 1 ? "⎩" : "⎨";
      return entry === undefined ? piece : `${piece} ${entry}`;
    });
    return this.addBox({ type: "matrix", lines, baseline: middle });
  }

  matrix(name, body) {
    const rows = this.grid(body);
    const columns = Math.max(0, ...rows.map((cells) => cells.length));
    const widths = [];
    for (let column = 0; column < columns; column++) {
      widths.push(Math.max(0, ...rows.map((cells) => visibleWidth(cells[column] ?? ""))));
    }
    const texts = rows.map((cells) =>
      widths
        .map((width, column) => {
          const cell = cells[column] ?? "";
          return cell + KEPT_SPACE.repeat(Math.max(0, width - visibleWidth(cell)));
        })
        .join(" │ "),
    );
    let lines = texts;
    if (!UNFENCED_MATRICES.has(name)) {
      const fence = MATRIX_FENCES[name];
      if (!fence) return this.fail(texts.join("\n"));
      const last = texts.length - 1;
      lines = texts.map((text, index) => {
        const slot = index === 0 ? 0 : index === last ? 4 : 2;
        return `${fence[slot]} ${text} ${fence[slot + 1]}`;
      });
    }
    if (lines.length <= 1) return lines[0] ?? "";
    return this.addBox({ type: "matrix", lines, baseline: 0 });
  }

  /** Renders a piece of source on its own, sharing this reader's boxes. */
  nested(source, allowStacking = true) {
    const text = new MathReader(source, this.boxes, this.display && allowStacking).read();
    return text === undefined ? this.fail(source) : text;
  }
}

let argumentCommandTable;

/** Commands that read arguments, by name; built on first use. */
function argumentCommands() {
  argumentCommandTable ??= new Map([
    ["left", (reader) => reader.skipNullDelimiter()],
    ["middle", (reader) => reader.skipNullDelimiter()],
    ["right", (reader) => reader.skipNullDelimiter()],
    ["frac", (reader, name) => reader.fraction(name)],
    ["dfrac", (reader, name) => reader.fraction(name)],
    ["tfrac", (reader, name) => reader.fraction(name)],
    ["sqrt", (reader) => reader.root()],
    ["boxed", (reader) => `[${reader.argument().trim()}]`],
    ["fbox", (reader) => `[${reader.argument().trim()}]`],
    ["binom", (reader) => reader.binomial()],
    ["dbinom", (reader) => reader.binomial()],
    ["tbinom", (reader) => reader.binomial()],
    ["mathbb", (reader) => Array.from(reader.argument(), (c) => latexTables().blackboard.get(c) ?? c).join("")],
    ["operatorname", (reader) => reader.operatorName()],
    ["mod", () => " mod "],
    ["bmod", () => " mod "],
    ["pmod", (reader) => ` (mod ${reader.argument().trim()})`],
    ["pod", (reader) => ` (${reader.argument().trim()})`],
    ["overset", (reader) => reader.decorated("sup")],
    ["stackrel", (reader) => reader.decorated("sup")],
    ["underset", (reader) => reader.decorated("sub")],
  ]);
  return argumentCommandTable;
}

function dropTrailingSpace(text) {
  const trimmed = text.trimEnd();
  return trimmed.endsWith(WORD_CLOSE) ? trimmed.slice(0, -WORD_CLOSE.length) : trimmed;
}

function isStackableScript(value) {
  if (value.includes("/")) return false;
  return value.includes(BOX_OPEN) || codePointCount(value) <= 1 || /[A-Z*∗]/.test(value);
}

// ---------------------------------------------------------------------------
// Layout: a block is { lines, width, baseline } where baseline is the row
// that lines up with the surrounding text.

function padTo(line, width, centred = false) {
  const room = Math.max(0, width - visibleWidth(line));
  const left = centred ? Math.floor(room / 2) : 0;
  return `${" ".repeat(left)}${line}${" ".repeat(room - left)}`;
}

function textBlock(text) {
  return { lines: [text], width: visibleWidth(text), baseline: 0 };
}

/** Blocks side by side, their baselines on one row. */
function besideEachOther(blocks) {
  if (blocks.length === 0) return { lines: [""], width: 0, baseline: 0 };
  const baseline = Math.max(...blocks.map((block) => block.baseline));
  const depth = Math.max(...blocks.map((block) => block.lines.length - block.baseline - 1));
  const lines = [];
  for (let row = -baseline; row <= depth; row++) {
    let line = "";
    for (const block of blocks) {
      const own = row + block.baseline;
      line += own >= 0 && own < block.lines.length ? padTo(block.lines[own] ?? "", block.width) : " ".repeat(block.width);
    }
    lines.push(line.trimEnd());
  }
  let width = 0;
  for (const block of blocks) width += block.width;
  return { lines, width, baseline };
}

function boxBlock(box, boxes) {
  switch (box.type) {
    case "fraction": {
      const top = layOut(box.numerator, boxes);
      const bottom = layOut(box.denominator, boxes);
      const barWidth = Math.max(top.width, bottom.width, 1);
      const width = barWidth + 2;
      return {
        lines: [
          ...top.lines.map((line) => padTo(line, width, true)),
          ` ${"─".repeat(barWidth)} `,
          ...bottom.lines.map((line) => padTo(line, width, true)),
        ],
        width,
        baseline: top.lines.length,
      };
    }
    case "operator": {
      const parts = [box.upper, box.operator, box.lower].filter((part) => part !== undefined);
      const width = Math.max(...parts.map((part) => visibleWidth(part)));
      return {
        lines: parts.map((part) => `${padTo(part, width, true)} `),
        width: width + 1,
        baseline: box.upper === undefined ? 0 : 1,
      };
    }
    case "script": {
      const upper = box.upper === undefined ? undefined : layOut(box.upper, boxes);
      const lower = box.lower === undefined ? undefined : layOut(box.lower, boxes);
      const width = Math.max(upper?.width ?? 0, lower?.width ?? 0);
      return {
        lines: [
          ...(upper ? upper.lines.map((line) => padTo(line, width)) : []),
          " ".repeat(width),
          ...(lower ? lower.lines.map((line) => padTo(line, width)) : []),
        ],
        width,
        baseline: upper ? upper.lines.length : 0,
      };
    }
    default: {
      const width = Math.max(0, ...box.lines.map((line) => visibleWidth(line)));
      return { lines: box.lines.map((line) => padTo(line, width)), width, baseline: box.baseline };
    }
  }
}

/** Text around a box; a space next to a matrix is kept so it does not touch its fence. */
function gapText(text, previous, next) {
  const trimmed = (previous ? text.trimStart() : text).trimEnd();
  const spaceBefore = previous?.type === "matrix" && /^\s/.test(text);
  const spaceAfter = next.type === "matrix" && /\s$/.test(text);
  if (!trimmed) return spaceBefore || spaceAfter ? " " : "";
  return `${spaceBefore ? " " : ""}${trimmed}${spaceAfter ? " " : ""}`;
}

/** Lays out rendered text whose box references point into `boxes`. */
function layOut(text, boxes) {
  const lines = [];
  let baseline = 0;
  for (const [lineIndex, sourceLine] of text.split("\n").entries()) {
    const blocks = [];
    let consumed = 0;
    let previous;
    for (const reference of sourceLine.matchAll(BOX_REFERENCE)) {
      const box = boxes[Number(reference[1])];
      if (!box) continue;
      if (reference.index > consumed) {
        blocks.push(textBlock(gapText(sourceLine.slice(consumed, reference.index), previous, box)));
      }
      blocks.push(boxBlock(box, boxes));
      consumed = reference.index + reference[0].length;
      previous = box;
    }
    if (consumed < sourceLine.length) {
      const rest = sourceLine.slice(consumed);
      const trimmed = previous ? rest.trimStart() : rest;
      blocks.push(textBlock(previous?.type === "matrix" && /^\s/.test(rest) ? ` ${trimmed}` : trimmed));
    }
    const row = besideEachOther(blocks);
    if (lineIndex === 0) baseline = row.baseline;
    lines.push(...row.lines);
  }
  return { lines, width: Math.max(0, ...lines.map((line) => visibleWidth(line))), baseline };
}

/**
 * Renders a basic LaTeX math expression as terminal-friendly Unicode text;
 * undefined when the expression has unsupported or malformed syntax.
 */
export function renderLatex(source, options = {}) {
  const boxes = [];
  const text = new MathReader(source, boxes, options.display === true).read();
  if (text === undefined) return undefined;
  if (boxes.length === 0) return text.replaceAll(KEPT_SPACE, " ");
  const lines = layOut(text, boxes).lines;
  const indent = Math.min(...lines.filter((line) => line.trim()).map((line) => line.length - line.trimStart().length));
  return lines
    .map((line) => line.slice(indent).trimEnd())
    .join("\n")
    .trimEnd()
    .replaceAll(KEPT_SPACE, " ");
}
