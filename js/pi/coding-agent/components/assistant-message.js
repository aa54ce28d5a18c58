// A whole assistant message: its text as Markdown, its thinking in the
// thinking colour (or one label line when hidden; a click toggles a run),
// and how it ended when it did not end normally. Tool calls are shown by
// their own components.
import { Container } from "../../pi-tui/components/container.js";
import { Markdown } from "../../pi-tui/components/markdown.js";
import { MouseRegion } from "../../pi-tui/components/mouse-region.js";
import { Spacer, Text } from "../../pi-tui/components/text.js";
import { currentTheme, getMarkdownTheme } from "../ui/theme.js";
import { createMarkdownTransform } from "./markdown-transform.js";
import { withPromptZone } from "./prompt-zones.js";

/** The trimmed texts of the thinking blocks from `start` on, and the index after them. */
function thinkingRun(content, start) {
  const texts = [];
  let end = start;
  for (; end < content.length && content[end].type === "thinking"; end++) {
    const text = content[end].thinking.trim();
    if (text) texts.push(text);
  }
  return { texts, end };
}

function endingNotice(message, hasToolCalls) {
  // A length stop can cut a tool call short, so it shows even with tool calls.
  if (message.stopReason === "length") return "Response was truncated before completion.";
  // Otherwise the tool components show aborts and errors.
  if (hasToolCalls) return undefined;
  if (message.stopReason === "aborted") {
    const own = message.errorMessage && message.errorMessage !== "Request was aborted";
    return own ? message.errorMessage : "Operation aborted";
  }
  if (message.stopReason === "error") return `Error: ${message.errorMessage || "Unknown error"}`;
  return undefined;
}

export class AssistantMessageComponent extends Container {
  constructor(message, hideThinkingBlock = false, markdownTheme = getMarkdownTheme(), hiddenThinkingLabel = "Thinking...", outputPad = 1, markdownTransformers = [], messageId, timestamp) {
    super();
    this.hideThinkingBlock = hideThinkingBlock;
    this.markdownTheme = markdownTheme;
    this.hiddenThinkingLabel = hiddenThinkingLabel;
    this.outputPad = outputPad;
    this.markdownTransformers = markdownTransformers;
    this.messageId = messageId;
    this.timestamp = timestamp;
    this.lastMessage = undefined;
    this.hasToolCalls = false;
    this.isStreaming = false;
    // Thinking runs the user toggled by clicking, by their position among the runs.
    this.thinkingVisibilityOverrides = new Map();
    // Markdown components reused between updates, so a streamed message keeps its parse caches.
    this.markdownSlots = [];
    this.contentContainer = new Container();
    this.addChild(this.contentContainer);
    if (message) this.updateContent(message);
  }

  invalidate() {
    super.invalidate();
    if (this.lastMessage) this.updateContent(this.lastMessage);
  }

  setHideThinkingBlock(hide) {
    this.hideThinkingBlock = hide;
    this.thinkingVisibilityOverrides.clear();
    if (this.lastMessage) this.updateContent(this.lastMessage);
  }

  setHiddenThinkingLabel(label) {
    this.hiddenThinkingLabel = label;
    if (this.lastMessage) this.updateContent(this.lastMessage);
  }

  setOutputPad(padding) {
    this.outputPad = padding;
    // A Markdown's padding is fixed when it is made.
    this.markdownSlots = [];
    if (this.lastMessage) this.updateContent(this.lastMessage);
  }

  render(width) {
    const lines = super.render(width);
    // A message with tool calls continues in their components: the turn is not over.
    return this.hasToolCalls ? lines : withPromptZone(this, lines);
  }

  updateContent(message, isStreaming = this.isStreaming) {
    this.lastMessage = message;
    this.isStreaming = isStreaming;
    this.contentContainer.clear();
    const theme = currentTheme();
    const previousSlots = this.markdownSlots;
    this.markdownSlots = [];
    const reusedMarkdown = (kind, text, create) => {
      const slot = previousSlots[this.markdownSlots.length];
      const markdown = slot?.kind === kind ? slot.markdown : create();
      markdown.setText(text);
      this.markdownSlots.push({ kind, markdown });
      return markdown;
    };
    const transformFor = (messageType) =>
      createMarkdownTransform(messageType, () => this.isStreaming, this.markdownTransformers, this.messageId, this.timestamp);

    // A blank line goes before the first shown block and after each shown thinking run that more content follows.
    let spacerDue = true;
    const show = (child) => {
      if (spacerDue) {
        this.contentContainer.addChild(new Spacer(1));
        spacerDue = false;
      }
      this.contentContainer.addChild(child);
    };

    let runIndex = 0;
    for (let i = 0; i < message.content.length; i++) {
      const block = message.content[i];
      if (block.type === "text" && block.text.trim()) {
        const text = block.text.trim();
        show(reusedMarkdown("text", text, () => new Markdown(text, this.outputPad, 0, this.markdownTheme, undefined, { transform: transformFor("assistant") })));
      } else if (block.type === "thinking") {
        const { texts, end } = thinkingRun(message.content, i);
        i = end - 1;
        if (texts.length === 0) continue;
        const run = runIndex++;
        const hidden = this.thinkingVisibilityOverrides.get(run) ?? this.hideThinkingBlock;
        // Hidden under an empty label, a run leaves no trace, not even spacing.
        if (hidden && !this.hiddenThinkingLabel.trim()) continue;
        const thinking = texts.join("\n\n");
        const component = hidden
          ? new Text(theme.italic(theme.fg("thinkingText", this.hiddenThinkingLabel)), this.outputPad, 0)
          : reusedMarkdown(
              "thinking",
              thinking,
              () =>
                new Markdown(thinking, this.outputPad, 0, this.markdownTheme, { color: (text) => currentTheme().fg("thinkingText", text), italic: true }, {
                  transform: transformFor("assistant-thinking"),
                }),
            );
        show(
          new MouseRegion(component, (event) => {
            if (event.type !== "click" || event.button !== "left") return undefined;
            this.thinkingVisibilityOverrides.set(run, !hidden);
            if (this.lastMessage) this.updateContent(this.lastMessage);
            return { handled: true };
          }),
        );
        spacerDue = true;
      }
    }

    this.hasToolCalls = message.content.some((block) => block.type === "toolCall");
    const notice = endingNotice(message, this.hasToolCalls);
    if (notice !== undefined) {
      this.contentContainer.addChild(new Spacer(1));
      this.contentContainer.addChild(new Text(theme.fg("error", notice), this.outputPad, 0));
    }
  }
}
