// URLs a login flow shows or opens: only http(s) ones are opened, and an
// untrusted string is never printed with its control characters, which
// could end a terminal hyperlink early or send escapes of their own.
import { replaceControlCharacters } from "../pi-tui/ansi.js";

/** The normalized `http:`/`https:` URL `value` names, or undefined. */
export function webUrl(value) {
  let url;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined;
}

/** `value` as a normalized web URL, else with its control characters replaced. */
export function displayUrl(value) {
  return webUrl(value) ?? replaceControlCharacters(value);
}
