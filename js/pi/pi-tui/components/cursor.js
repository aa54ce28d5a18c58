// Cursor markers components put in their lines; the TUI finds and strips them.

/** Where the hardware cursor goes: a zero-width APC sequence. */
export const CURSOR_MARKER = "\x1b_pi:c\x07";
export const FAKE_CURSOR_START = "\x1b_pi:fc\x07";
export const FAKE_CURSOR_END = "\x1b_pi:/fc\x07";

/** `text` marked as the cell drawn as a cursor. */
export function renderFakeCursor(text) {
  return `${FAKE_CURSOR_START}${text}${FAKE_CURSOR_END}`;
}

export function isFocusable(component) {
  return component !== null && "focused" in component;
}
