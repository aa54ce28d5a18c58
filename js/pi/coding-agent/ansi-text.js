// Terminal escape sequences in command output, as pi removes them before
// showing or recording it: OSC strings (ESC ] … ended by BEL, ESC \ or
// 0x9C) and CSI-style sequences (ESC or 0x9B, intermediates, numeric
// parameters, one final byte). A private marker (< = >) counts only right
// after a real CSI introducer, so ESC = / ESC > (keypad modes) keep the
// digits after them. Streamed output may end inside a sequence; that tail
// waits for the next chunk.

const STRING_TERMINATOR = "(?:\\u0007|\\u001B\\\\|\\u009C)";
const OSC_INTRODUCER = "\\u001B\\]";
const CSI_INTRODUCER = "(?:(?:\\u001B\\[|\\u009B)[<=>]|[\\u001B\\u009B][[\\]()#;?]*)";
const CSI_PARAMETERS = "(?:\\d{1,4}(?:[;:]\\d{0,4})*)?";
const CSI_FINAL_BYTE = "[\\dA-PR-TZcf-nq-uy=><~]";

const SEQUENCE = new RegExp(`(?:${OSC_INTRODUCER}[\\s\\S]*?${STRING_TERMINATOR})|${CSI_INTRODUCER}${CSI_PARAMETERS}${CSI_FINAL_BYTE}`, "g");
// An OSC string still open at the end (a final ESC may begin ESC \), or a CSI still missing its final byte.
const OPEN_SEQUENCE_AT_END = new RegExp(
  `(?:${OSC_INTRODUCER}(?:[^\\u0007\\u009C\\u001B]|\\u001B(?!\\\\))*|${CSI_INTRODUCER}${CSI_PARAMETERS})$`,
);
// Longer open tails are not held back: they are treated as text.
const MAX_HELD_TAIL = 256;

/** `text` without its terminal escape sequences; strip-ansi's error for anything but a string. */
export function stripAnsi(text) {
  if (typeof text !== "string") throw new TypeError(`Expected a \`string\`, got \`${typeof text}\``);
  if (!text.includes("\u001B") && !text.includes("\u009B")) return text;
  return text.replace(SEQUENCE, "");
}

/** `text` split into what can be stripped now and an unfinished sequence at its end. */
export function splitIncompleteAnsiSuffix(text) {
  if (!text.includes("\u001B") && !text.includes("\u009B")) return { complete: text, pending: "" };
  const windowStart = Math.max(0, text.length - MAX_HELD_TAIL);
  const match = OPEN_SEQUENCE_AT_END.exec(text.slice(windowStart));
  if (!match) return { complete: text, pending: "" };
  const at = windowStart + match.index;
  return { complete: text.slice(0, at), pending: text.slice(at) };
}

/** Control characters (but tab and newlines) and the interlinear annotation marks removed. */
export function sanitizeBinaryOutput(text) {
  return text.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F\uFFF9-\uFFFB]/g, "");
}
