/**
 * sampling.ts — a tool that asks a model through pi-ai's `complete`, as
 * extensions that summarise or classify do. Over MCP the call becomes a
 * sampling request when the client offers sampling; the tool returns the
 * model's text and stop reason, or pi's error text when the call failed.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { complete, getModels } from "@earendil-works/pi-ai";
import { Type } from "typebox";

export default function sampling(pi: ExtensionAPI): void {
  pi.registerTool({
    name: "ask_model",
    label: "Ask model",
    description: "Asks the first Anthropic model of pi-ai's catalog one question.",
    parameters: Type.Object({ question: Type.String() }),
    async execute(_id, params) {
      const model = getModels("anthropic")[0];
      const answer = await complete(model, {
        systemPrompt: "Answer in one word.",
        messages: [{ role: "user", content: params.question, timestamp: Date.now() }],
      });
      const text = answer.content
        .filter((block) => block.type === "text")
        .map((block) => block.text)
        .join("");
      const summary =
        answer.stopReason === "error" ? `error: ${answer.errorMessage}` : `${answer.stopReason}: ${text}`;
      const facts = { model: model.id, stopReason: answer.stopReason };
      return { content: [{ type: "text", text: summary }], details: facts, structuredContent: facts };
    },
  });
}
