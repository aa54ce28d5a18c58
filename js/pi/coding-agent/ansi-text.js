// Terminal output as plain text: escape sequences (colours, cursor moves,
// OSC titles and links, mouse reports) removed.

// An OSC runs to its first string terminator (BEL, ESC \ or the C1 ST).
const OSC = "\\u001B\\][\\s\\S]*?(?:\\u0007|\\u001B\\u005C|\\u009C)";
// A CSI-like sequence: an introducer (a private marker only straight after
// ESC [ or C1 CSI, so ESC = and ESC > keep the digits after them), numeric
// parameters, then one final byte.
const CSI_INTRODUCER = "(?:(?:\\u001B\\[|\\u009B)[<=>]|[\\u001B\\u009B][[\\]()#;?]*)";
const CSI_PARAMETERS = "(?:\\d{1,4}(?:[;:]\\d{0,4})*)?";
const CSI_FINAL = "[\\dA-PR-TZcf-nq-uy=><~]";

let sequences;

/** `text` without its terminal escape sequences. */
export function stripAnsi(text) {
  if (typeof text !== "string") throw new TypeError(`Expected a \`string\`, got \`${typeof text}\``);
  if (!text.includes("\u001B") && !text.includes("\u009B")) return text;
  sequences ??= new RegExp(`(?:${OSC})|${CSI_INTRODUCER}${CSI_PARAMETERS}${CSI_FINAL}`, "g");
  return text.replace(sequences, "");
}
