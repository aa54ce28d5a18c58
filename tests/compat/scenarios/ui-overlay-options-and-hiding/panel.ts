import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { matchesKey, truncateToWidth } from "@earendil-works/pi-tui";

export default function (pi: ExtensionAPI) {
  let handle: { setHidden(hidden: boolean): void; isHidden(): boolean } | undefined;
  globalThis.hidePanel = () => handle?.setHidden(true);
  globalThis.showPanel = () => handle?.setHidden(false);
  let finish: (() => void) | undefined;
  globalThis.finishPanel = () => finish?.();

  pi.registerCommand("panel", {
    description: "A panel over half the screen, at most three lines tall",
    handler: async (_args, ctx) => {
      let typed = "";
      const result = await ctx.ui.custom<string>(
        (tui, theme, _keybindings, done) => {
          finish = () => done(`${typed} (while hidden)`);
          return {
            render: (width: number) =>
              ["top", `typed: ${typed}`, theme.bold("third"), "cut by maxHeight", "also cut"].map((line) =>
                truncateToWidth(`${line} (${width})`, width),
              ),
            handleInput(data: string) {
              if (matchesKey(data, "enter")) done(typed);
              else typed += data;
              tui.requestRender();
            },
            invalidate() {},
          };
        },
        { overlay: true, overlayOptions: { width: "50%", maxHeight: 3 }, onHandle: (h) => (handle = h) },
      );
      return `panel answered ${result}`;
    },
  });
}
