/**
 * dialogs.ts — a tool that asks the user three questions.
 *
 * `ask_user { title?, message? }` calls ctx.ui.confirm(title, message) (title
 * defaults to "Proceed?"; without `message` only the title is passed), then
 * ctx.ui.select("Pick a colour", ["red", "green", "blue"]), then
 * ctx.ui.input("Your name", "anonymous"), and returns every answer: the text
 * `confirmed=<bool> choice=<string|(none)> value=<string|(none)>` and, as details and structuredContent,
 * { confirmed, choice, value } with null for an undefined answer. Over MCP
 * with the elicitation capability each question is an elicitation/create;
 * without it pi's headless answers (false, undefined, undefined) come back.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

const COLOURS = ["red", "green", "blue"];

export default function dialogs(pi: ExtensionAPI): void {
  pi.registerTool({
    name: "ask_user",
    label: "Ask user",
    description: "Asks for a confirmation, a colour and a name, and returns the answers.",
    parameters: Type.Object({
      title: Type.Optional(Type.String({ description: "Title of the confirmation" })),
      message: Type.Optional(Type.String({ description: "Message of the confirmation" })),
    }),
    async execute(_toolCallId, params, _signal, _onUpdate, ctx) {
      const title = params.title ?? "Proceed?";
      const confirmed =
        params.message === undefined
          ? await (ctx.ui.confirm as (title: string) => Promise<boolean>)(title)
          : await ctx.ui.confirm(title, params.message);
      const choice = await ctx.ui.select("Pick a colour", COLOURS);
      const value = await ctx.ui.input("Your name", "anonymous");
      const show = (answer: string | undefined) => answer ?? "(none)";
      return {
        content: [{ type: "text", text: `confirmed=${confirmed} choice=${show(choice)} value=${show(value)}` }],
        details: { confirmed, choice: choice ?? null, value: value ?? null },
        structuredContent: { confirmed, choice: choice ?? null, value: value ?? null },
      };
    },
  });
}
