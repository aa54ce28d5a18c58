// A `!` command the user ran, between borders in the bash-mode colour (dim
// for `!!`, whose output the model never sees): the command, its output
// as it streams (the last 20 lines until expanded), a spinner while it
// runs, then how it ended.
import { Container } from "../../pi-tui/components/container.js";
import { Loader } from "../../pi-tui/components/loader.js";
import { Spacer, Text } from "../../pi-tui/components/text.js";
import { stripAnsi } from "../ansi-text.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, truncateTail } from "../truncate.js";
import { DynamicBorder } from "../ui/dynamic-border.js";
import { keyHint, keyText } from "../ui/keybinding-hints.js";
import { currentTheme } from "../ui/theme.js";
import { truncateToVisualLines } from "../visual-truncate.js";

// As many as a collapsed tool result shows.
const PREVIEW_LINES = 20;

/** The collapsed preview: at most PREVIEW_LINES screen lines at any width, recomputed only when the width changes. */
function previewComponent(styledText, outputPad) {
  let cached;
  return {
    render(width) {
      if (cached?.width !== width) cached = { width, lines: truncateToVisualLines(styledText, PREVIEW_LINES, width, outputPad).visualLines };
      return cached.lines ?? [];
    },
    invalidate() {
      cached = undefined;
    },
  };
}

export class BashExecutionComponent extends Container {
  constructor(command, ui, excludeFromContext = false, outputPad = 1) {
    super();
    this.command = command;
    this.outputLines = [];
    this.status = "running";
    this.exitCode = undefined;
    this.truncationResult = undefined;
    this.fullOutputPath = undefined;
    this.expanded = false;
    this.colorKey = excludeFromContext ? "dim" : "bashMode";
    this.outputPad = outputPad;
    const border = (text) => currentTheme().fg(this.colorKey, text);
    this.addChild(new Spacer(1));
    this.addChild(new DynamicBorder(border));
    this.contentContainer = new Container();
    this.addChild(this.contentContainer);
    this.loader = new Loader(
      ui,
      (spinner) => currentTheme().fg(this.colorKey, spinner),
      (text) => currentTheme().fg("muted", text),
      `Running... (${keyText("tui.select.cancel")} to cancel)`,
    );
    this.addChild(new DynamicBorder(border));
    this.updateDisplay();
  }

  setExpanded(expanded) {
    this.expanded = expanded;
    this.updateDisplay();
  }

  setOutputPad(outputPad) {
    this.outputPad = outputPad;
    this.updateDisplay();
  }

  invalidate() {
    super.invalidate();
    this.updateDisplay();
  }

  /** Adds streamed output; a chunk continues the last line it left unfinished. */
  appendOutput(chunk) {
    const lines = stripAnsi(chunk).replace(/\r\n/g, "\n").replace(/\r/g, "\n").split("\n");
    if (this.outputLines.length > 0) {
      this.outputLines[this.outputLines.length - 1] += lines[0];
      this.outputLines.push(...lines.slice(1));
    } else {
      this.outputLines.push(...lines);
    }
    this.updateDisplay();
  }

  setComplete(exitCode, cancelled, truncationResult, fullOutputPath) {
    this.exitCode = exitCode;
    if (cancelled) this.status = "cancelled";
    else this.status = exitCode !== 0 && exitCode !== undefined && exitCode !== null ? "error" : "complete";
    this.truncationResult = truncationResult;
    this.fullOutputPath = fullOutputPath;
    this.loader.stop();
    this.updateDisplay();
  }

  /** The status lines once the command is over: hidden lines, cancel or exit code, where the full output went. */
  statusParts(hiddenLineCount, contextTruncated) {
    const theme = currentTheme();
    const parts = [];
    if (hiddenLineCount > 0) {
      parts.push(
        this.expanded
          ? `${theme.fg("muted", "(")}${keyHint("app.tools.expand", "to collapse")}${theme.fg("muted", ")")}`
          : `${theme.fg("muted", `... ${hiddenLineCount} more lines (`)}${keyHint("app.tools.expand", "to expand")}${theme.fg("muted", ")")}`,
      );
    }
    if (this.status === "cancelled") parts.push(theme.fg("warning", "(cancelled)"));
    else if (this.status === "error") parts.push(theme.fg("error", `(exit ${this.exitCode})`));
    if ((this.truncationResult?.truncated || contextTruncated) && this.fullOutputPath) {
      parts.push(theme.fg("warning", `Output truncated. Full output: ${this.fullOutputPath}`));
    }
    return parts;
  }

  updateDisplay() {
    const theme = currentTheme();
    // What the model would get: the bash tool's limits.
    const context = truncateTail(this.outputLines.join("\n"), { maxLines: DEFAULT_MAX_LINES, maxBytes: DEFAULT_MAX_BYTES });
    const available = context.content ? context.content.split("\n") : [];
    const preview = available.slice(-PREVIEW_LINES);
    const hiddenLineCount = available.length - preview.length;
    const muted = (lines) => lines.map((line) => theme.fg("muted", line)).join("\n");

    this.contentContainer.clear();
    this.contentContainer.addChild(new Text(theme.fg(this.colorKey, theme.bold(`$ ${this.command}`)), this.outputPad, 0));
    if (available.length > 0) {
      this.contentContainer.addChild(
        this.expanded ? new Text(`\n${muted(available)}`, this.outputPad, 0) : previewComponent(`\n${muted(preview)}`, this.outputPad),
      );
    }
    if (this.status === "running") {
      this.contentContainer.addChild(this.loader);
      return;
    }
    const parts = this.statusParts(hiddenLineCount, context.truncated);
    if (parts.length > 0) this.contentContainer.addChild(new Text(`\n${parts.join("\n")}`, this.outputPad, 0));
  }

  /** The output so far, for the message that records the command. */
  getOutput() {
    return this.outputLines.join("\n");
  }

  getCommand() {
    return this.command;
  }
}
