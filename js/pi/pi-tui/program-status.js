// OSC 7501, the program status protocol: a program reports to the terminal
// whether it is idle, working, blocked on the user, done or failed. Only
// the root record exists in pi-tui.
import { replaceControlCharacters } from "./ansi.js";

const APP_NAME = /^[A-Za-z0-9_.+-]{1,32}$/;
// Keeps the base64 of the message under the protocol's 2732-byte limit.
const MAX_MESSAGE_BYTES = 2048;

const utf8Length = (text) => Buffer.byteLength(text, "utf8");

/** The longest prefix of `text` whose UTF-8 fits `maxBytes`, never splitting a code point. */
function fitUtf8(text, maxBytes) {
  if (utf8Length(text) <= maxBytes) return text;
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    bytes += utf8Length(char);
    if (bytes > maxBytes) break;
    end += char.length;
  }
  return text.slice(0, end);
}

/**
 * The OSC 7501 report for `status`. Terminals drop reports whose message
 * holds control characters, so those become spaces; an app name outside
 * the protocol's alphabet is left out rather than sent.
 */
export function formatProgramStatus(status) {
  const fields = [`state=${status.state}`];
  if (status.app !== undefined && APP_NAME.test(status.app)) fields.push(`app=${status.app}`);
  if (status.state === "blocked" && status.kind) fields.push(`kind=${status.kind}`);
  const message = fitUtf8(replaceControlCharacters(status.message ?? "").trim(), MAX_MESSAGE_BYTES);
  if (message) fields.push(`msg=${Buffer.from(message, "utf8").toString("base64")}`);
  return `\x1b]7501;${fields.join(":")}\x1b\\`;
}
