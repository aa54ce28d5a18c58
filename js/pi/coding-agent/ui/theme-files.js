// Theme files a resource loader is given (pi's themes/*.json): read, checked
// against pi's theme schema with pi's messages (a name without "/", every
// token without a fallback present, colour values hex/OKLCH/OKHSL/variable
// strings or palette indexes), and made into themes that name their file.
import { readFileSync } from "node:fs";
import { Type } from "../../typebox.js";
// The checker and the explainer alone: typebox/compile would bring all of
// TypeBox's Value (a dozen modules) into every runtime that imports
// pi-coding-agent, for theme files few loaders have.
import { SchemaChecker } from "../../typebox/check.js";
import { schemaErrors } from "../../typebox/errors.js";
import { detectColorMode } from "./colors.js";
import { THEME_TOKEN_FALLBACKS, THEME_TOKEN_SLOTS, themeFromJson } from "./theme.js";

function colorValue() {
  return Type.Union([Type.String(), Type.Integer({ minimum: 0, maximum: 255 })]);
}

let compiledSchema;

/** pi's theme schema with TypeBox's Check and Errors bound to it. */
function themeSchema() {
  if (compiledSchema) return compiledSchema;
  const colors = {};
  for (const token of Object.keys(THEME_TOKEN_SLOTS)) colors[token] = token in THEME_TOKEN_FALLBACKS ? Type.Optional(colorValue()) : colorValue();
  const schema = Type.Object(
    {
      $schema: Type.Optional(Type.String()),
      name: Type.String({ pattern: "^[^/]+$" }),
      appearance: Type.Optional(Type.Union([Type.Literal("dark"), Type.Literal("light")])),
      vars: Type.Optional(Type.Record(Type.String(), colorValue())),
      colors: Type.Object(colors, { additionalProperties: false }),
      export: Type.Optional(
        Type.Object({ pageBg: Type.Optional(colorValue()), cardBg: Type.Optional(colorValue()), infoBg: Type.Optional(colorValue()) }, { additionalProperties: false }),
      ),
    },
    { additionalProperties: false },
  );
  const checker = new SchemaChecker(schema);
  compiledSchema = { Check: (value) => checker.check(schema, value), Errors: (value) => schemaErrors({}, schema, value) };
  return compiledSchema;
}

/** `json` when it is a valid theme; otherwise an error listing the missing tokens and every other complaint. */
export function validateThemeJson(label, json) {
  if (typeof json === "object" && json !== null && typeof json.name === "string" && json.name.includes("/")) {
    throw new Error(`Invalid theme name "${json.name}": theme names cannot contain "/" because it is reserved for automatic light/dark theme settings.`);
  }
  const schema = themeSchema();
  if (schema.Check(json)) return json;
  const missing = new Set();
  const others = [];
  for (const error of schema.Errors(json)) {
    if (error.keyword === "required" && error.instancePath === "/colors") {
      for (const token of error.params.requiredProperties ?? []) missing.add(token);
      continue;
    }
    others.push(`  - ${error.instancePath || "/"}: ${error.message}`);
  }
  let message = `Invalid theme "${label}":\n`;
  if (missing.size > 0) {
    message += `\nMissing required color tokens:\n${[...missing].sort().map((token) => `  - ${token}`).join("\n")}`;
    message += '\n\nPlease add these colors to your theme\'s "colors" object.';
    message += "\nSee the built-in themes (dark.json, light.json) for reference values.";
  }
  if (others.length > 0) message += `\n\nOther errors:\n${others.join("\n")}`;
  throw new Error(message);
}

/** The theme in the file at `path`, in colour `mode` (the terminal's by default). */
export function loadThemeFromPath(path, mode) {
  let json;
  try {
    json = JSON.parse(readFileSync(path, "utf-8").replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new Error(`Failed to parse theme ${path}: ${error}`);
  }
  return themeFromJson(validateThemeJson(path, json), mode ?? detectColorMode(), path);
}
