// How calls to MCP tools look in the conversation: `server/tool` with the
// arguments, and the result's text collapsed to a few wrapped lines (MCP
// results are often one long JSON line). Used also for calls in a resumed
// session whose server has not connected (or never will).
import { Container } from "../../pi-tui/components/container.js";
import { Spacer, Text } from "../../pi-tui/components/text.js";
import { formatToolCallWithArgs, toolResultText } from "../components/tool-render-text.js";
import { keyHint } from "../ui/keybinding-hints.js";
import { WrappedPreview } from "../components/wrapped-preview.js";

/** Wrapped result lines shown before the output is expanded. */
const PREVIEW_LINES = 5;

/** `renderCall` and `renderResult` of an MCP tool shown as `label`. */
export function createMcpToolRenderers(label) {
  return {
    renderCall(args, theme, context) {
      const component = context.lastComponent ?? new Text("", 0, 0);
      component.setText(formatToolCallWithArgs(label, args, theme, context.expanded));
      return component;
    },
    renderResult(result, options, theme, context) {
      const component = context.lastComponent ?? new Container();
      component.clear();
      const output = toolResultText(result, context.showImages).trim();
      if (!output) return component;
      const color = context.isError ? "error" : "toolOutput";
      const styled = output
        .replace(/\t/g, "   ")
        .split("\n")
        .map((line) => theme.fg(color, line))
        .join("\n");
      component.addChild(new Spacer(1));
      if (options.expanded) {
        component.addChild(new Text(styled, 0, 0));
        return component;
      }
      const hint = (hidden) => `${theme.fg("muted", `... (${hidden} more lines,`)} ${keyHint("app.tools.expand", "to expand")}${theme.fg("muted", ")")}`;
      component.addChild(new WrappedPreview(styled, PREVIEW_LINES, hint));
      const fullOutputPath = result.details?.fullOutputPath;
      if (fullOutputPath) component.addChild(new Text(theme.fg("muted", `Full output: ${fullOutputPath}`), 0, 0));
      return component;
    },
  };
}
