import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Input, matchesKey } from "@earendil-works/pi-tui";

// A dialog with pi-tui's Input: keys edit it, enter answers its text.
function inputDialog(title: string) {
  return (_tui, theme, _keybindings, done) => {
    const input = new Input();
    input.onSubmit = (text: string) => done(`${title}: ${text}`);
    return {
      get focused() {
        return input.focused;
      },
      set focused(value: boolean) {
        input.focused = value;
      },
      render: (width: number) => [theme.fg("accent", title), ...input.render(width)],
      handleInput: (data: string) => input.handleInput(data),
      invalidate: () => input.invalidate(),
    };
  };
}

export default function (pi: ExtensionAPI) {
  pi.registerCommand("outer", {
    description: "An input dialog; ctrl+o opens a second one over it",
    handler: async (_args, ctx) => {
      const stop = ctx.ui.onTerminalInput((data) => {
        // "!" never reaches a component; "?" reaches it as "+".
        if (data === "!") return { consume: true };
        if (data === "?") return { data: "+" };
        if (matchesKey(data, "ctrl+o")) {
          globalThis.inner = ctx.ui.custom(inputDialog("inner"));
          return { consume: true };
        }
        return undefined;
      });
      const answer = await ctx.ui.custom(inputDialog("outer"));
      stop();
      return answer;
    },
  });
  globalThis.innerAnswer = () => globalThis.inner;
}
