// Grammar-constrained tools (OpenAI's custom tools): the tool's one string
// property is the model's whole output, sampled against a Lark or regex
// grammar. The input streams as raw text; pi shows it as JSON arguments
// `{"<property>":"…"}`, emitted piece by piece as it arrives.

/** The tool's one required string property, or a thrown reason it has none. */
function grammarInputProperty(tool) {
  const schema = tool.parameters;
  if (schema.type !== "object") throw new Error("grammar constrained sampling requires an object parameter schema");
  if (!Array.isArray(schema.required) || schema.required.length !== 1 || typeof schema.required[0] !== "string") {
    throw new Error("grammar constrained sampling requires exactly one required string property");
  }
  const property = schema.required[0];
  if (!schema.properties?.[property]) throw new Error(`grammar constrained sampling requires a properties entry for ${property}`);
  if (schema.properties[property]?.type !== "string") {
    throw new Error(`grammar constrained sampling property ${property} must have type string`);
  }
  return property;
}

/** The grammar to send for `tool`, or undefined when it is not a grammar tool or the api has none. */
export function resolveGrammarConstrainedSampling(tool, supportsGrammarTools) {
  const config = tool.constrainedSampling;
  if (!config || config.type !== "grammar" || !supportsGrammarTools) return undefined;
  const lark = config.variants.openai_lark;
  const regex = config.variants.openai_regex;
  const hasLark = typeof lark === "string" && lark.trim().length > 0;
  const hasRegex = typeof regex === "string" && regex.trim().length > 0;
  if (!hasLark && !hasRegex) {
    throw new Error(`Tool "${tool.name}" cannot use grammar constrained sampling: no supported grammar variant was provided.`);
  }
  try {
    return { format: hasLark ? "lark" : "regex", definition: hasLark ? lark : regex, inputProperty: grammarInputProperty(tool) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Tool "${tool.name}" cannot use grammar constrained sampling: ${reason}.`);
  }
}

/** Tool name → input property, for the grammar tools among `tools`. */
export function createGrammarToolInputProperties(tools, supportsGrammarTools) {
  const properties = new Map();
  for (const tool of tools ?? []) {
    const grammar = resolveGrammarConstrainedSampling(tool, supportsGrammarTools);
    if (grammar) properties.set(tool.name, grammar.inputProperty);
  }
  return properties;
}

export function getGrammarToolInput(toolName, toolArguments, inputProperty) {
  const input = toolArguments[inputProperty];
  if (typeof input !== "string") throw new Error(`Grammar tool call "${toolName}" requires argument "${inputProperty}" to be a string.`);
  return input;
}

function jsonStart(buffer, inputProperty) {
  if (buffer.started) return "";
  buffer.started = true;
  return `{${JSON.stringify(inputProperty)}:"`;
}

/** The JSON text that `inputDelta` adds (undefined for an empty delta); linear in the delta only. */
export function appendGrammarToolInputJsonDelta(buffer, inputProperty, inputDelta) {
  if (buffer.closed) throw new Error(`grammar tool input for property "${inputProperty}" changed after it was closed`);
  if (inputDelta.length === 0) return undefined;
  buffer.input += inputDelta;
  return jsonStart(buffer, inputProperty) + JSON.stringify(inputDelta).slice(1, -1);
}

/**
 * The rest of the JSON text when the input ends. `finalInput`, when the
 * provider sends one, must continue what streamed; closing again with the
 * same input adds nothing.
 */
export function closeGrammarToolInputJson(buffer, inputProperty, finalInput) {
  if (buffer.closed) {
    if (finalInput === undefined || finalInput === buffer.input) return undefined;
    throw new Error(`grammar tool input for property "${inputProperty}" changed after it was closed`);
  }
  if (finalInput !== undefined && !finalInput.startsWith(buffer.input)) {
    throw new Error(`grammar tool input for property "${inputProperty}" changed non-monotonically`);
  }
  const rest = finalInput === undefined ? "" : finalInput.slice(buffer.input.length);
  if (finalInput !== undefined) buffer.input = finalInput;
  buffer.closed = true;
  return `${jsonStart(buffer, inputProperty)}${JSON.stringify(rest).slice(1, -1)}"}`;
}
