// A markdown file's leading `---` block of YAML (skills, prompt templates).
// pi reads it with the `yaml` package. Skill and prompt files use a small
// part of YAML, which this covers: block mappings and sequences,
// plain/quoted/flow scalars, `|` and `>` blocks and comments, with the core
// schema's nulls, booleans and numbers. Anchors, tags and multi-document
// streams are not read. (The YAML reader belongs in its own module,
// js/pi/yaml.js, once that file may be added.)

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
    const plain = !/^["'[{]/.test(first);
    // `key: a: b` would be a mapping inside a one-line value, which YAML refuses.
    const refuseNested = (text) => {
      if (plain && /:(\s|$)/.test(text)) throw new YamlError("Nested mappings are not allowed in compact mappings", this.at - 1);
    };
    refuseNested(first);
    const extra = [];
    for (let line = this.peek(); line && line.indent > indent && !/^["'[{]/.test(first); line = this.peek()) {
      refuseNested(line.text);
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
