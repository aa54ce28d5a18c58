// Conversation items shown as a labelled box in the custom-message colours
// that is collapsed to one line until expanded (key or left click): branch
// summaries, compaction summaries and skill invocations.
import { Box, Container } from "../../pi-tui/components/container.js";
import { Markdown } from "../../pi-tui/components/markdown.js";
import { MouseRegion } from "../../pi-tui/components/mouse-region.js";
import { Spacer, Text } from "../../pi-tui/components/text.js";
import { keyText } from "../ui/keybinding-hints.js";
import { currentTheme, getMarkdownTheme } from "../ui/theme.js";
import { createMarkdownTransform } from "./markdown-transform.js";

const boldLabel = (label) => currentTheme().fg("customMessageLabel", `\x1b[1m[${label}]\x1b[22m`);
const messageText = (text) => currentTheme().fg("customMessageText", text);

/** `count` with en-US digit grouping ("12,345"), as pi's toLocaleString() shows it, on any engine. */
function groupedNumber(count) {
  if (!Number.isFinite(count)) return Number.isNaN(count) ? "NaN" : count > 0 ? "∞" : "-∞";
  const [whole, fraction] = String(Math.round(Math.abs(count) * 1000) / 1000).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${count < 0 ? "-" : ""}${grouped}${fraction ? `.${fraction}` : ""}`;
}

class CollapsibleMessage extends Box {
  constructor(markdownTheme, outputPad, markdownTransformers, messageId, timestamp) {
    super(outputPad, 1, (text) => currentTheme().bg("customMessageBg", text));
    this.expanded = false;
    this.markdownTheme = markdownTheme;
    this.markdownTransformers = markdownTransformers;
    this.messageId = messageId;
    this.timestamp = timestamp;
  }

  setExpanded(expanded) {
    this.expanded = expanded;
    this.updateDisplay();
  }

  setOutputPad(outputPad) {
    this.setPaddingX(outputPad);
  }

  invalidate() {
    super.invalidate();
    this.updateDisplay();
  }

  /** `markdown` under a bold `header` that transformers never see. */
  headedMarkdown(header, markdown, messageType) {
    const transform = createMarkdownTransform(messageType, () => false, this.markdownTransformers, this.messageId, this.timestamp);
    return new Markdown(markdown, 0, 0, this.markdownTheme, { color: messageText }, {
      transform: (text, width) => header + transform(text, width),
    });
  }

  updateDisplay() {
    this.clear();
    const content = new Container();
    for (const child of this.contentChildren()) content.addChild(child);
    this.addChild(
      new MouseRegion(content, (event) => {
        if (event.type !== "click" || event.button !== "left") return undefined;
        this.setExpanded(!this.expanded);
        return { handled: true };
      }),
    );
  }
}

/** The collapsed line's "(<key> to expand)" for the summaries. */
function expandHint(lead) {
  return new Text(messageText(lead) + currentTheme().fg("dim", keyText("app.tools.expand")) + messageText(" to expand)"), 0, 0);
}

export class BranchSummaryMessageComponent extends CollapsibleMessage {
  constructor(message, markdownTheme = getMarkdownTheme(), outputPad = 1, markdownTransformers = [], messageId, timestamp) {
    super(markdownTheme, outputPad, markdownTransformers, messageId, timestamp);
    this.message = message;
    this.updateDisplay();
  }

  contentChildren() {
    const body = this.expanded
      ? this.headedMarkdown("**Branch Summary**\n\n", this.message.summary, "summary")
      : expandHint("Branch summary (");
    return [new Text(boldLabel("branch"), 0, 0), new Spacer(1), body];
  }
}

export class CompactionSummaryMessageComponent extends CollapsibleMessage {
  constructor(message, markdownTheme = getMarkdownTheme(), outputPad = 1, markdownTransformers = [], messageId, timestamp) {
    super(markdownTheme, outputPad, markdownTransformers, messageId, timestamp);
    this.message = message;
    this.updateDisplay();
  }

  contentChildren() {
    const tokens = groupedNumber(this.message.tokensBefore);
    const body = this.expanded
      ? this.headedMarkdown(`**Compacted from ${tokens} tokens**\n\n`, this.message.summary, "summary")
      : expandHint(`Compacted from ${tokens} tokens (`);
    return [new Text(boldLabel("compaction"), 0, 0), new Spacer(1), body];
  }
}

/** A skill block (the user's message around it is shown on its own). */
export class SkillInvocationMessageComponent extends CollapsibleMessage {
  constructor(skillBlock, markdownTheme = getMarkdownTheme(), outputPad = 1, markdownTransformers = [], messageId, timestamp) {
    super(markdownTheme, outputPad, markdownTransformers, messageId, timestamp);
    this.skillBlock = skillBlock;
    this.updateDisplay();
  }

  contentChildren() {
    if (this.expanded) {
      return [new Text(boldLabel("skill"), 0, 0), this.headedMarkdown(`**${this.skillBlock.name}**\n\n`, this.skillBlock.content, "custom")];
    }
    const theme = currentTheme();
    const line =
      theme.fg("customMessageLabel", "\x1b[1m[skill]\x1b[22m ") +
      messageText(this.skillBlock.name) +
      theme.fg("dim", ` (${keyText("app.tools.expand")} to expand)`);
    return [new Text(line, 0, 0)];
  }
}
