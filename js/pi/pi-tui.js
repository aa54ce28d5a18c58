// pi-tui as extensions see it: the pure parts (text measuring and cutting,
// key parsing, fuzzy matching, keybindings), what the terminal can show
// (capabilities, inline image sequences), colours (parsing, OKLCH/OKHSL
// conversion, mixing, SGR sequences) and the components whose
// render(width) is plain string work, Markdown, the prompt Editor and Image
// among them; stacks, scroll views and mouse regions for full-screen
// layouts; input buffering and program-status reports; LaTeX math as
// terminal text; and the marked library's Marked class, as pi re-exports it.
// Anything not exported here is served by the facade as "not implemented yet".
export { replaceControlCharacters, stripTerminalSequences } from "./pi-tui/ansi.js";
export { visibleWidth } from "./pi-tui/width.js";
export { getOsc8LinkAtColumn, sliceByColumn, truncateToWidth } from "./pi-tui/truncate.js";
export { wrapTextWithAnsi } from "./pi-tui/wrap.js";
export {
  Key,
  decodeKittyPrintable,
  isKeyRelease,
  isKeyRepeat,
  isKittyProtocolActive,
  matchesKey,
  parseKey,
  setKittyProtocolActive,
} from "./pi-tui/keys.js";
export { fuzzyFilter, fuzzyMatch } from "./pi-tui/fuzzy.js";
export {
  KeybindingsManager,
  TUI_KEYBINDINGS,
  getKeybindings,
  getSelectPageIndex,
  setKeybindings,
} from "./pi-tui/keybindings.js";
export { CURSOR_MARKER, isFocusable, renderFakeCursor } from "./pi-tui/components/cursor.js";
export { Box, Container } from "./pi-tui/components/container.js";
export { Spacer, Text, TruncatedText } from "./pi-tui/components/text.js";
export { Input } from "./pi-tui/components/input.js";
export { SelectList } from "./pi-tui/components/select-list.js";
export { SettingsList } from "./pi-tui/components/settings-list.js";
export { Markdown } from "./pi-tui/components/markdown.js";
export { CancellableLoader, Loader } from "./pi-tui/components/loader.js";
export { Editor } from "./pi-tui/components/editor.js";
export {
  detectCapabilities,
  getCapabilities,
  getCellDimensions,
  getTerminalColorMode,
  resetCapabilitiesCache,
  setCapabilities,
  setCapabilityOverrides,
  setCellDimensions,
} from "./pi-tui/capabilities.js";
export {
  getGifDimensions,
  getImageDimensions,
  getJpegDimensions,
  getPngDimensions,
  getWebpDimensions,
} from "./pi-tui/image-dimensions.js";
export {
  allocateImageId,
  calculateImageRows,
  deleteAllKittyImages,
  deleteKittyImage,
  encodeITerm2,
  encodeKitty,
  hyperlink,
  imageFallback,
  renderImage,
} from "./pi-tui/terminal-image.js";
export { Image, setImageTranscoder } from "./pi-tui/components/image.js";
export {
  backgroundAnsi,
  colorToHex,
  colorToOkhsl,
  colorToOklch,
  colorToRgb,
  foregroundAnsi,
  indexedColor,
  mixColors,
  okhslColor,
  oklchColor,
  parseColor,
  rgbColor,
  styleText,
  styleTextWithAnsi,
} from "./pi-tui/colors.js";
export { oklabToOkhslLightness } from "./pi-tui/oklab.js";
export { parseTerminalColorSchemeReport } from "./pi-tui/terminal-colors.js";
export { formatProgramStatus } from "./pi-tui/program-status.js";
export { isAppleTerminalSession } from "./pi-tui/terminal-session.js";
export { compositeTuiLine } from "./pi-tui/composite.js";
export { isViewportTUI } from "./pi-tui/layout-node.js";
export { StdinBuffer } from "./pi-tui/stdin-buffer.js";
export { HStack, VStack } from "./pi-tui/components/stack.js";
export { ScrollView } from "./pi-tui/components/scroll-view.js";
export { MouseRegion } from "./pi-tui/components/mouse-region.js";
export { CombinedAutocompleteProvider } from "./pi-tui/autocomplete.js";
export { Marked } from "./pi-tui/marked.js";
export { renderLatex } from "./pi-tui/latex.js";
export { getNativeClipboard } from "./pi-tui/native-clipboard.js";
