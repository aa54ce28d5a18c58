import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Text } from "@earendil-works/pi-tui";

export default function (pi: ExtensionAPI) {
  pi.registerCommand("async-factory", {
    description: "A factory that resolves its component later",
    handler: async (_args, ctx) =>
      ctx.ui.custom(async (_tui, theme, _keybindings, done) => {
        await Promise.resolve();
        const text = new Text(theme.fg("success", "made later"), 1, 1);
        return Object.assign(text, { handleInput: (data: string) => done(`got ${JSON.stringify(data)}`) });
      }),
  });
  pi.registerCommand("done-at-once", {
    description: "A factory that is done before it returns a component",
    handler: async (_args, ctx) =>
      ctx.ui.custom((_tui, _theme, _keybindings, done) => {
        done("answered in the factory");
        return new Text("never drawn", 0, 0);
      }),
  });
  pi.registerCommand("throwing-factory", {
    description: "A factory that throws",
    handler: async (_args, ctx) =>
      ctx.ui.custom(() => {
        throw new Error("the factory failed");
      }),
  });
}
