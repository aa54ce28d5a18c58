// One tool call in the conversation, from its streamed arguments to its
// result: drawn by the tool's own renderCall/renderResult when it has them
// (inside a coloured box, or framed by the tool itself with renderShell
// "self"), else generically; images of the result below it when the
// terminal shows images. The background follows the state: pending,
// success or error.
import { getCapabilities } from "../../pi-tui/capabilities.js";
import { Box, Container } from "../../pi-tui/components/container.js";
import { Image } from "../../pi-tui/components/image.js";
import { MouseRegion } from "../../pi-tui/components/mouse-region.js";
import { Spacer, Text } from "../../pi-tui/components/text.js";
import { keyHint, keyText } from "../ui/keybinding-hints.js";
import { currentTheme } from "../ui/theme.js";
import { formatToolCallWithArgs, toolResultText } from "./tool-render-text.js";

// Lines of a generic result shown until the row is expanded.
const FALLBACK_PREVIEW_LINES = 10;

const background = (token) => (text) => currentTheme().bg(token, text);

export class ToolExecutionComponent extends Container {
  constructor(toolName, toolCallId, args, options = {}, toolDefinition, ui, cwd) {
    super();
    this.toolName = toolName;
    this.toolCallId = toolCallId;
    this.args = args;
    this.toolDefinition = toolDefinition;
    this.ui = ui;
    this.cwd = cwd;
    this.showImages = options.showImages ?? true;
    this.imageWidthCells = options.imageWidthCells ?? 60;
    this.outputPad = options.outputPad ?? 1;
    this.expanded = false;
    this.isPartial = true;
    this.executionStarted = false;
    this.argsComplete = false;
    // Arguments that arrived since the last display update: applied at the next render, once per frame.
    this.argsPending = false;
    this.result = undefined;
    this.hideComponent = false;
    // Shared with the tool's renderers across updates.
    this.rendererState = {};
    this.callRendererComponent = undefined;
    this.resultRendererComponent = undefined;
    this.selfRenderHeight = 0;
    this.imageComponents = [];
    // What each image component shows, so an update keeps the ones that did not change.
    this.imageSources = [];
    this.imageSpacers = [];

    this.addChild(new Spacer(1));
    this.contentBox = new Box(1, 1, background("toolPendingBg"));
    this.contentText = new Text("", 1, 1, background("toolPendingBg"));
    this.contentTextRegion = this.resultRegion(this.contentText);
    this.selfRenderContainer = new Container();
    if (!this.toolDefinition) this.addChild(this.contentTextRegion);
    else this.addChild(this.rendersItself() ? this.selfRenderContainer : this.contentBox);
    this.updateDisplay();
  }

  rendersItself() {
    return (this.toolDefinition?.renderShell ?? "default") === "self";
  }

  renderContext(lastComponent) {
    return {
      args: this.args,
      toolCallId: this.toolCallId,
      invalidate: () => {
        this.invalidate();
        this.ui.requestRender();
      },
      lastComponent,
      state: this.rendererState,
      cwd: this.cwd,
      executionStarted: this.executionStarted,
      argsComplete: this.argsComplete,
      isPartial: this.isPartial,
      expanded: this.expanded,
      showImages: this.showImages,
      isError: this.result?.isError ?? false,
      durationMs: this.isPartial ? undefined : this.result?.durationMs,
      outputPad: this.outputPad,
      keyText,
      keyHint,
    };
  }

  callFallback() {
    return new Text(formatToolCallWithArgs(this.toolName, this.args, currentTheme(), this.expanded), 0, 0);
  }

  resultFallback() {
    const output = this.getTextOutput();
    if (!output) return undefined;
    const theme = currentTheme();
    const lines = output.split("\n");
    const shown = this.expanded ? lines : lines.slice(0, FALLBACK_PREVIEW_LINES);
    const remaining = lines.length - shown.length;
    let text = shown.map((line) => theme.fg("toolOutput", line)).join("\n");
    if (remaining > 0) {
      text += `${theme.fg("muted", `\n... (${remaining} more lines,`)} ${keyHint("app.tools.expand", "to expand")}${theme.fg("muted", ")")}`;
    }
    return new Text(text, 0, 0);
  }

  /** `component`, expanded or collapsed by a left click once there is a result. */
  resultRegion(component) {
    return new MouseRegion(component, (event) => {
      if (!this.result || event.type !== "click" || event.button !== "left") return undefined;
      this.setExpanded(!this.expanded);
      return { handled: true };
    });
  }

  /** New partial arguments, shown at the next render: a burst of deltas between frames runs the renderer once. */
  updateArgs(args) {
    this.args = args;
    this.argsPending = true;
    this.ui.requestRender();
  }

  markExecutionStarted() {
    this.executionStarted = true;
    this.updateDisplay();
    this.ui.requestRender();
  }

  setArgsComplete() {
    this.argsComplete = true;
    this.updateDisplay();
    this.ui.requestRender();
  }

  updateResult(result, isPartial = false) {
    this.result = result;
    this.isPartial = isPartial;
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

  setShowImages(show) {
    this.showImages = show;
    this.updateDisplay();
  }

  setImageWidthCells(width) {
    this.imageWidthCells = Math.max(1, Math.floor(width));
    this.updateDisplay();
  }

  invalidate() {
    super.invalidate();
    this.updateDisplay();
  }

  render(width) {
    if (this.argsPending) this.updateDisplay();
    if (this.hideComponent) return [];
    if (!this.toolDefinition || !this.rendersItself()) return super.render(width);
    const content = this.selfRenderContainer.render(width);
    this.selfRenderHeight = content.length;
    if (content.length === 0 && this.imageComponents.length === 0) return [];
    const lines = [];
    if (content.length > 0) {
      lines.push("");
      // One push per line: spreading a huge render would pass too many arguments.
      for (const line of content) lines.push(line);
    }
    this.imageComponents.forEach((image, i) => {
      if (this.imageSpacers[i]) lines.push(...this.imageSpacers[i].render(width));
      lines.push(...image.render(width));
    });
    return lines;
  }

  handleMouse(event) {
    // Rows in a box route clicks the way any container does.
    if (!this.toolDefinition || !this.rendersItself()) return super.handleMouse?.(event);
    // Line 0 is the blank line above the tool's own frame.
    if (event.y <= 0 || event.y > this.selfRenderHeight) return undefined;
    return this.selfRenderContainer.handleMouse?.({ ...event, y: event.y - 1, height: this.selfRenderHeight });
  }

  /** The renderer's component for this row, or the fallback when it throws; `which` is "call" or "result". */
  rendered(which, render, fallback) {
    const key = `${which}RendererComponent`;
    try {
      const component = render(this[key]);
      this[key] = component;
      return component;
    } catch {
      this[key] = undefined;
      return fallback();
    }
  }

  updateDisplay() {
    this.argsPending = false;
    const bgFn = background(this.isPartial ? "toolPendingBg" : this.result?.isError ? "toolErrorBg" : "toolSuccessBg");
    let hasContent = false;
    this.hideComponent = false;

    if (this.toolDefinition) {
      const shell = this.rendersItself() ? this.selfRenderContainer : this.contentBox;
      if (shell instanceof Box) {
        shell.setBgFn(bgFn);
        shell.setPaddingX(this.outputPad);
      }
      shell.clear();
      const theme = currentTheme();
      const { renderCall, renderResult } = this.toolDefinition;
      const call = renderCall
        ? this.rendered("call", (last) => renderCall(this.args, theme, this.renderContext(last)), () => this.callFallback())
        : this.callFallback();
      shell.addChild(this.resultRegion(call));
      hasContent = true;
      if (this.result) {
        const result = renderResult
          ? this.rendered(
              "result",
              (last) =>
                renderResult({ content: this.result.content, details: this.result.details }, { expanded: this.expanded, isPartial: this.isPartial }, theme, this.renderContext(last)),
              () => this.resultFallback(),
            )
          : this.resultFallback();
        if (result) shell.addChild(this.resultRegion(result));
      }
    } else {
      this.contentText.setCustomBgFn(bgFn);
      this.contentText.setPaddingX(this.outputPad);
      this.contentText.setText(this.formatToolExecution());
      hasContent = true;
    }

    this.updateImages();
    if (this.toolDefinition && !hasContent && this.imageComponents.length === 0) this.hideComponent = true;
  }

  updateImages() {
    const previousImages = this.imageComponents;
    const previousSources = this.imageSources;
    for (const image of this.imageComponents) this.removeChild(image);
    for (const spacer of this.imageSpacers) this.removeChild(spacer);
    this.imageComponents = [];
    this.imageSources = [];
    this.imageSpacers = [];
    if (!this.result || !getCapabilities().images || !this.showImages) return;
    for (const block of this.result.content) {
      if (block.type !== "image" || !block.data || !block.mimeType) continue;
      const spacer = new Spacer(1);
      this.addChild(spacer);
      this.imageSpacers.push(spacer);
      const source = { data: block.data, mimeType: block.mimeType, widthCells: this.imageWidthCells };
      const index = this.imageComponents.length;
      const previous = previousSources[index];
      const unchanged = previous?.data === source.data && previous.mimeType === source.mimeType && previous.widthCells === source.widthCells;
      const image = unchanged
        ? previousImages[index]
        : new Image(source.data, source.mimeType, { fallbackColor: (text) => currentTheme().fg("toolOutput", text) }, { maxWidthCells: source.widthCells });
      this.imageComponents.push(image);
      this.imageSources.push(source);
      this.addChild(image);
    }
  }

  getTextOutput() {
    return toolResultText(this.result, this.showImages);
  }

  /** The generic row for a tool with no definition: bold name, arguments as JSON, then the output. */
  formatToolExecution() {
    const theme = currentTheme();
    let text = theme.fg("toolTitle", theme.bold(this.toolName));
    const args = JSON.stringify(this.args, null, 2);
    if (args) text += `\n\n${args}`;
    const output = this.getTextOutput();
    if (output) text += `\n${output}`;
    return text;
  }
}
