/**
 * hello-tool.ts — the smallest useful tool extension.
 *
 * Demonstrates: a TypeScript module (interfaces, type annotations, `as const`)
 * whose factory registers one tool with a TypeBox parameter schema built only
 * from Type.Object/String/Number/Integer/Boolean/Optional/Array/Literal/Union/
 * Unsafe, plus label, description and an execute() that returns text content.
 *
 * Checklist: L1 (types stripped, never checked), L2 (`typebox` resolves to the
 * host's copy), L3 (default export is a function), A1 (registerTool writes into
 * this extension's record), A3 (registerTool during load is legal).
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

interface GreetingStyle {
  prefix: string;
  suffix: string;
}

const STYLES: Record<"plain" | "loud", GreetingStyle> = {
  plain: { prefix: "Hello", suffix: "." },
  loud: { prefix: "HELLO", suffix: "!!!" },
} as const;

const greetParameters = Type.Object({
  name: Type.String({ description: "Who to greet" }),
  times: Type.Optional(Type.Integer({ minimum: 1, maximum: 5, description: "How many greetings" })),
  excitement: Type.Optional(Type.Number({ description: "0 to 1; above 0.5 switches to the loud style" })),
  shout: Type.Optional(Type.Boolean()),
  style: Type.Optional(Type.Union([Type.Literal("plain"), Type.Literal("loud")])),
  tags: Type.Optional(Type.Array(Type.String(), { maxItems: 3 })),
  extra: Type.Optional(Type.Unsafe<Record<string, string>>({ type: "object", additionalProperties: { type: "string" } })),
});

function composeGreeting(name: string, style: GreetingStyle, times: number): string {
  const one = `${style.prefix}, ${name}${style.suffix}`;
  return Array.from({ length: times }, () => one).join(" ");
}

export default function helloTool(pi: ExtensionAPI): void {
  pi.registerTool({
    name: "greet",
    label: "Greet",
    description: "Greets someone by name, optionally several times or loudly.",
    parameters: greetParameters,
    async execute(_toolCallId, params) {
      const loud = params.shout === true || params.style === "loud" || (params.excitement ?? 0) > 0.5;
      const text = composeGreeting(params.name, loud ? STYLES.loud : STYLES.plain, params.times ?? 1);
      return {
        content: [{ type: "text", text }],
        details: {},
      };
    },
  });
}
