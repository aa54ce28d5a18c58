// Asks the user everything it can; in headless mode nobody answers.
export default function (pi: any) {
  const g = globalThis as any;
  const prompts: string[] = [];
  pi.on("ui_prompt_start", (event: any) => {
    prompts.push(`start ${event.kind}`);
  });
  pi.on("ui_prompt_end", (event: any) => {
    prompts.push(`end ${event.kind}`);
  });
  pi.registerCommand("ask", {
    description: "ask through the ui",
    handler: async (_args: string, ctx: any) => {
      const ui = ctx.ui;
      return {
        hasUI: ctx.hasUI,
        mode: ctx.mode,
        confirm: await ui.confirm("Proceed?", "This deletes nothing."),
        select: await ui.select("Pick one", ["red", "green"]),
        input: await ui.input("Your name", "anonymous"),
        editor: await ui.editor("Edit the note", "draft"),
        custom: await ui.custom(() => ({ render: () => [] })),
        notify: ui.notify("hello", "info"),
        status: ui.setStatus("scenario", "busy"),
        editorText: ui.getEditorText(),
        setTheme: ui.setTheme("dark"),
        themes: ui.getAllThemes(),
        toolsExpanded: ui.getToolsExpanded(),
      };
    },
  });
  g.promptEvents = () => prompts.slice();
}
