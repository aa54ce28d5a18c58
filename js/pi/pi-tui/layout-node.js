// How a component tells pi-tui's full-screen layout what it is: a stack or
// a scroll view answers a method under this shared symbol with its layout.

export const LAYOUT_NODE = Symbol.for("@earendil-works/pi-tui/layout-node");

// Marks a TUI that lays out a full screen of stacks and scroll views.
export const VIEWPORT_TUI = Symbol.for("@earendil-works/pi-tui/viewport");

/** Whether `tui` lays out a full-screen viewport rather than appending lines. */
export function isViewportTUI(tui) {
  if (tui === null || tui === undefined) {
    // V8's text, which pi's callers see; other engines word it differently.
    throw new TypeError(`Cannot read properties of ${tui} (reading 'Symbol(@earendil-works/pi-tui/viewport)')`);
  }
  return tui[VIEWPORT_TUI] === true;
}
