/**
 * esm-plain.js — a plain JavaScript ES module (no TypeScript).
 *
 * Demonstrates: a `.js` file written with import/export syntax loads like a
 * `.ts` one; its default-exported arrow function is the factory.
 *
 * Checklist: D2 (direct *.js file), L3, L7 (ESM .js).
 */
import { Type } from "typebox";

const clampParameters = Type.Object({
  value: Type.Number(),
  min: Type.Optional(Type.Number()),
  max: Type.Optional(Type.Number()),
});

export default (pi) => {
  pi.registerTool({
    name: "clamp_number",
    label: "Clamp",
    description: "Clamps a number between optional bounds",
    parameters: clampParameters,
    async execute(_id, { value, min = -Infinity, max = Infinity }) {
      return { content: [{ type: "text", text: String(Math.min(max, Math.max(min, value))) }], details: {} };
    },
  });
};
