// Commands around the extension's editor: what the editor calls of ctx.ui
// read and write, and a dialog that takes the editor's place.
export default (pi) => {
  pi.registerCommand("peek", { handler: async (_args, ctx) => ctx.ui.getEditorText() });
  pi.registerCommand("put", { handler: async (args, ctx) => ctx.ui.setEditorText(args) });
  pi.registerCommand("factory", { handler: async (_args, ctx) => typeof ctx.ui.getEditorComponent() });
  pi.registerCommand("plain", { handler: async (_args, ctx) => ctx.ui.setEditorComponent(undefined) });
  pi.registerCommand("ask", {
    handler: async (_args, ctx) =>
      ctx.ui.custom((_tui, _theme, _kb, done) => ({
        render: () => ["a dialog"],
        invalidate() {},
        handleInput(data) {
          if (data === "\r") done("closed");
        },
      })),
  });
};
