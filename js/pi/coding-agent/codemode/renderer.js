// How a codemode call looks in the conversation. The call row shows the
// script. The result row lists the nested calls with their status as they
// run (they never reach the model as tool calls, so they get no rows of
// their own) and the cost of model calls, then the script's output without
// its "Script completed" header, then the time taken, like bash rows.
import { Container } from "../../pi-tui/components/container.js";
import { Spacer, Text } from "../../pi-tui/components/text.js";
import { toolResultText } from "../components/tool-render-text.js";
import { keyHint } from "../ui/keybinding-hints.js";
import { highlightCode } from "../ui/theme.js";
import { WrappedPreview } from "../components/wrapped-preview.js";

const SCRIPT_PREVIEW_LINES = 10;
const CALL_ROWS_COLLAPSED = 8;
const OUTPUT_PREVIEW_LINES = 5;
const COLLAPSED_ARGS_CHARS = 80;
const RESULT_HEADER = /^Script (completed|failed)\nWall time [\d.]+ seconds\nOutput:\n$/;

const STATUS_MARKS = {
  running: ["warning", "…"],
  ok: ["success", "✓"],
  error: ["error", "✗"],
  cancelled: ["muted", "⊘"],
};

const replaceTabs = (text) => text.replace(/\t/g, "   ");

/** `4.2s` below a minute, then `1m 30s`, then `2h 3m 4s`. */
function formatElapsed(ms) {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const whole = Math.floor(seconds);
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes}m ${whole % 60}s`;
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m ${whole % 60}s`;
}

/** Marks when the row's execution started, once; from renderCall. */
function noteExecutionStart(context) {
  const { state } = context;
  if (context.executionStarted && state.startedAt === undefined) {
    state.startedAt = Date.now();
    state.endedAt = undefined;
  }
}

/**
 * `Elapsed 4.2s` while partial (redrawn every second), `Took 4.2s` once
 * final; the recorded duration of a final result wins over the row's clock.
 */
function timingLine(context, isPartial) {
  const { state } = context;
  if (state.startedAt !== undefined && isPartial && !state.interval) {
    state.interval = setInterval(() => context.invalidate(), 1000);
  }
  if (!isPartial || context.isError) {
    state.endedAt ??= Date.now();
    if (state.interval) {
      clearInterval(state.interval);
      state.interval = undefined;
    }
  }
  if (!isPartial && context.durationMs !== undefined) return `Took ${formatElapsed(context.durationMs)}`;
  if (state.startedAt === undefined) return undefined;
  return `${isPartial ? "Elapsed" : "Took"} ${formatElapsed((state.endedAt ?? Date.now()) - state.startedAt)}`;
}

const moreHint = (theme, hidden, noun) =>
  `${theme.fg("muted", `... (${hidden} more ${noun},`)} ${keyHint("app.tools.expand", "to expand")}${theme.fg("muted", ")")}`;

function formatDuration(ms) {
  if (ms === undefined) return "";
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(1)}s`;
}

/** Cents for larger amounts; two significant digits for the fractions of a cent classifier calls cost. */
const formatCost = (cost) => `$${cost >= 0.01 ? cost.toFixed(2) : cost.toPrecision(2)}`;

function callRow(call, theme, expanded) {
  const mark = STATUS_MARKS[call.status];
  const args = !expanded && call.args.length > COLLAPSED_ARGS_CHARS ? `${call.args.slice(0, COLLAPSED_ARGS_CHARS - 3)}...` : call.args;
  let row = `${mark ? theme.fg(mark[0], mark[1]) : undefined} ${theme.fg("toolTitle", call.name)}`;
  if (args) row += ` ${theme.fg("muted", args)}`;
  const duration = formatDuration(call.durationMs);
  if (duration) row += ` ${theme.fg("dim", duration)}`;
  if (call.cost) row += ` ${theme.fg("dim", formatCost(call.cost))}`;
  if (expanded && call.error) row += `\n    ${theme.fg("error", call.error.split("\n").join("\n    "))}`;
  return row;
}

export function renderCodemodeCall(args, theme, context) {
  noteExecutionStart(context);
  const title = theme.fg("toolTitle", theme.bold("codemode"));
  const component = context.lastComponent ?? new Container();
  component.clear();
  const code = args?.code;
  if (code !== undefined && code !== null && typeof code !== "string") {
    component.addChild(new Text(`${title} ${theme.fg("error", "[invalid arg]")}`, 0, 0));
    return component;
  }
  component.addChild(new Text(title, 0, 0));
  // The code includes its `// @options:` line, so the options show as part of the script.
  if (code) {
    const highlighted = highlightCode(replaceTabs(code.replace(/\r/g, "").trimEnd()), "javascript").join("\n");
    component.addChild(
      context.expanded
        ? new Text(highlighted, 0, 0)
        : new WrappedPreview(highlighted, SCRIPT_PREVIEW_LINES, (hidden) => moreHint(theme, hidden, "lines")),
    );
  }
  return component;
}

export function renderCodemodeResult(result, options, theme, context) {
  const timing = timingLine(context, options.isPartial);
  const component = context.lastComponent ?? new Container();
  component.clear();

  const calls = result.details?.calls ?? [];
  if (calls.length > 0) {
    const shown = options.expanded ? calls : calls.slice(-CALL_ROWS_COLLAPSED);
    const lines = shown.map((call) => callRow(call, theme, options.expanded));
    if (shown.length < calls.length) {
      const hidden = calls.length - shown.length;
      lines.unshift(`${theme.fg("muted", `... (${hidden} earlier calls,`)} ${keyHint("app.tools.expand", "to expand")}${theme.fg("muted", ")")}`);
    }
    // The total covers every call, also those a collapsed row hides.
    const priced = calls.filter((call) => call.cost);
    if (priced.length > 1) lines.push(theme.fg("muted", `Model calls: ${formatCost(priced.reduce((sum, call) => sum + call.cost, 0))}`));
    component.addChild(new Spacer(1));
    component.addChild(new Text(lines.join("\n"), 0, 0));
  }

  // Refused input (bad options) has no header to drop.
  const [first, ...rest] = result.content;
  const headed = first?.type === "text" && RESULT_HEADER.test(first.text);
  const output = options.isPartial ? "" : toolResultText({ ...result, content: headed ? rest : result.content }, context.showImages).trim();
  if (output) {
    const color = context.isError ? "error" : "toolOutput";
    const styled = replaceTabs(output)
      .split("\n")
      .map((line) => theme.fg(color, line))
      .join("\n");
    component.addChild(new Spacer(1));
    if (options.expanded) {
      component.addChild(new Text(styled, 0, 0));
    } else {
      component.addChild(new WrappedPreview(styled, OUTPUT_PREVIEW_LINES, (hidden) => moreHint(theme, hidden, "lines")));
      // The collapsed preview hides the truncation notice at the end, so the file is named here.
      const fullOutputPath = result.details?.fullOutputPath;
      if (fullOutputPath) component.addChild(new Text(theme.fg("muted", `Full output: ${fullOutputPath}`), 0, 0));
    }
  }
  if (timing) {
    component.addChild(new Spacer(1));
    component.addChild(new Text(theme.fg("muted", timing), 0, 0));
  }
  return component;
}
