import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { truncateToWidth } from "@earendil-works/pi-tui";

export default function (pi: ExtensionAPI) {
  let count = 0;
  let redraw: (() => void) | undefined;

  pi.registerCommand("widgets", {
    description: "Show a counter widget, a widget below the editor and a footer of statuses",
    handler: async (_args, ctx) => {
      ctx.ui.setWidget("counter", (tui, theme) => {
        redraw = () => tui.requestRender();
        return {
          render: (width: number) => [truncateToWidth(theme.fg("accent", `count ${count}`) + ` at ${width}`, width)],
          invalidate() {},
        };
      });
      ctx.ui.setWidget("hint", (_tui, theme) => ({
        render: (width: number) => [truncateToWidth(theme.fg("dim", "press bump"), width), "-".repeat(width)],
        invalidate() {},
      }), { placement: "belowEditor" });
      ctx.ui.setFooter((_tui, theme, footerData) => ({
        render: (width: number) => {
          const statuses = [...footerData.getExtensionStatuses()].map(([key, text]) => `${key}=${text}`);
          return [truncateToWidth(theme.fg("muted", statuses.join(" ") || "no statuses"), width)];
        },
        invalidate() {},
      }));
    },
  });

  pi.registerCommand("bump", {
    description: "Count up and draw the counter again",
    handler: async (_args, ctx) => {
      count++;
      redraw?.();
      ctx.ui.setStatus("count", String(count));
    },
  });

  pi.registerCommand("long", {
    description: "A widget of twelve lines, more than pi shows",
    handler: async (_args, ctx) => {
      ctx.ui.setWidget("long", Array.from({ length: 12 }, (_, index) => `line ${index + 1}`));
    },
  });

  pi.registerCommand("replace", {
    description: "Replace the counter with lines and remove the hint",
    handler: async (_args, ctx) => {
      ctx.ui.setWidget("counter", ["counter replaced", "by two lines"]);
      ctx.ui.setWidget("hint", undefined);
    },
  });
}
