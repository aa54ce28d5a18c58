// Colours text with ctx.ui.theme, headless and with a UI: pi's CLI
// initialises its theme in every mode once the extensions are loaded, so
// the theme works in both (R4). The scenario's CLI uses the dark theme on a
// truecolor terminal.
export default function (pi: any) {
  pi.registerCommand("paint", {
    description: "colours a word with the current theme",
    handler: async (_args: string, ctx: any) => {
      const theme = ctx.ui.theme;
      return {
        hasUI: ctx.hasUI,
        name: theme.name,
        mode: theme.getColorMode(),
        accent: theme.fg("accent", "word"),
        warning: theme.fg("warning", "careful"),
        selected: theme.bg("selectedBg", "row"),
        bold: theme.bold("strong"),
      };
    },
  });
}
