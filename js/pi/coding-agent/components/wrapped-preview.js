// The collapsed view of a long tool output (MCP results, codemode scripts
// and their output are often one long JSON line): the first lines as
// wrapped at the render width, then a hint naming how many more there are.
// Cached per width, since every row of the transcript renders each frame.
import { truncateToWidth } from "../../pi-tui/truncate.js";
import { truncateToVisualLines } from "../visual-truncate.js";

export class WrappedPreview {
  #text;
  #maxLines;
  #hint;
  #width;
  #lines;

  /** `hint(hiddenLines)` gives the hint's text. */
  constructor(text, maxLines, hint) {
    this.#text = text;
    this.#maxLines = maxLines;
    this.#hint = hint;
  }

  render(width) {
    if (this.#lines === undefined || this.#width !== width) {
      const { visualLines, skippedCount } = truncateToVisualLines(this.#text, this.#maxLines, width, 0, "start");
      this.#lines = skippedCount > 0 ? [...visualLines, truncateToWidth(this.#hint(skippedCount), width, "...")] : visualLines;
      this.#width = width;
    }
    return this.#lines;
  }

  invalidate() {
    this.#width = undefined;
    this.#lines = undefined;
  }
}
