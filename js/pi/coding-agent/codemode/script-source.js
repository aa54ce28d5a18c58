// What the model sends as a codemode script: JavaScript, optionally preceded
// by one `// @options: {...}` line that sets the output budget and the
// deadline. An options line anywhere but first would be a comment the model
// thinks takes effect, so it is refused instead of ignored.

export const CODEMODE_OPTIONS_PREFIX = "// @options:";

const OPTION_NAMES = ["max_output_tokens", "timeout_ms"];
const OPTION_NAMES_TEXT = "`max_output_tokens` and `timeout_ms`";
// setTimeout's largest delay: pi's deadline is a timer.
const LONGEST_TIMEOUT_MS = 2_147_483_647;

/**
 * Lark grammar for providers that constrain tool input with one. It only pins
 * down where the options line goes; its JSON is checked when the script runs.
 */
export const CODEMODE_SOURCE_GRAMMAR = String.raw`
start: options_source | plain_source
options_source: OPTIONS_LINE NEWLINE SOURCE
plain_source: SOURCE

OPTIONS_LINE: /[ \t]*\/\/ @options:[^\r\n]*/
NEWLINE: /\r?\n/
SOURCE: /[\s\S]+/
`;

/** Input the codemode tool refuses before running anything. */
export class CodemodeSourceError extends Error {
  constructor(message) {
    super(message);
    this.name = "CodemodeSourceError";
  }
}

const isCount = (value) => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

function readOptions(json) {
  const notAnObject = () => new CodemodeSourceError(`@options must be a JSON object with supported fields ${OPTION_NAMES_TEXT}`);
  if (json === "") throw notAnObject();
  let parsed;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CodemodeSourceError(`@options must be valid JSON with supported fields ${OPTION_NAMES_TEXT}: ${reason}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw notAnObject();
  const unknown = Object.keys(parsed).find((key) => !OPTION_NAMES.includes(key));
  if (unknown !== undefined) throw new CodemodeSourceError(`@options only supports ${OPTION_NAMES_TEXT}; got \`${unknown}\``);

  const options = {};
  const { max_output_tokens: maxOutputTokens, timeout_ms: timeoutMs } = parsed;
  if (maxOutputTokens !== undefined) {
    if (!isCount(maxOutputTokens)) {
      throw new CodemodeSourceError("@options field `max_output_tokens` must be a non-negative safe integer");
    }
    options.maxOutputTokens = maxOutputTokens;
  }
  if (timeoutMs !== undefined) {
    if (!isCount(timeoutMs) || timeoutMs === 0 || timeoutMs > LONGEST_TIMEOUT_MS) {
      throw new CodemodeSourceError(`@options field \`timeout_ms\` must be a positive integer up to ${LONGEST_TIMEOUT_MS}`);
    }
    options.timeoutMs = timeoutMs;
  }
  return options;
}

/**
 * `{ code, options }` of the tool input. The code keeps the options line's
 * newline, so error positions count lines as the model wrote them.
 */
export function parseCodemodeSource(input) {
  if (input.trim() === "") {
    throw new CodemodeSourceError(
      'Expected JavaScript source text (non-empty). Provide JS only, optionally with a first line `// @options: {"max_output_tokens": 1000}`.',
    );
  }
  const lines = input.split("\n");
  for (let index = 1; index < lines.length; index++) {
    if (lines[index].trimStart().startsWith(CODEMODE_OPTIONS_PREFIX)) {
      throw new CodemodeSourceError(
        `The ${CODEMODE_OPTIONS_PREFIX} line must be the first line of the input; found one on line ${index + 1}`,
      );
    }
  }
  const header = lines[0].replace(/\r$/, "").trimStart();
  if (!header.startsWith(CODEMODE_OPTIONS_PREFIX)) return { code: input, options: {} };
  const firstNewline = input.indexOf("\n");
  const code = firstNewline === -1 ? "" : input.slice(firstNewline);
  if (code.trim() === "") {
    throw new CodemodeSourceError("The @options line must be followed by JavaScript source on subsequent lines");
  }
  return { code, options: readOptions(header.slice(CODEMODE_OPTIONS_PREFIX.length).trim()) };
}
