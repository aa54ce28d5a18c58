// pi's prompt templates as a prompt uses them: `/name args` becomes the
// template's content with the arguments substituted ($1, $@, $ARGUMENTS,
// ${N:-default}, ${@:N}, ${@:N:L}), the arguments split like a shell would
// (quotes open only at the start of an argument).

/** The arguments of a command line: whitespace-separated, "quoted" or 'quoted'. */
export function parseCommandArgs(argsString) {
  const args = [];
  let current = "";
  // Set once an argument started, so quoted empty strings count.
  let hasToken = false;
  let quote = null;
  let quoteStart = 0;
  for (let index = 0; index < argsString.length; index++) {
    const char = argsString[index];
    if (quote) {
      if (char === "\\" && argsString[index + 1] === quote) {
        current += quote;
        index++;
      } else if (char === quote) {
        quote = null;
      } else {
        current += char;
      }
    } else if ((char === '"' || char === "'") && !hasToken) {
      quote = char;
      quoteStart = index;
      hasToken = true;
    } else if (/\s/.test(char)) {
      if (hasToken) {
        args.push(current);
        current = "";
        hasToken = false;
      }
    } else {
      current += char;
      hasToken = true;
    }
    if (quote && index === argsString.length - 1) {
      // An unclosed quote is text: read again from it as a plain character.
      quote = null;
      current = argsString[quoteStart];
      index = quoteStart;
    }
  }
  if (hasToken) args.push(current);
  return args;
}

/** The template with its placeholders replaced; substituted values are not expanded again. */
export function substituteArgs(content, args) {
  const all = args.join(" ");
  return content.replace(
    /\$\{(\d+|ARGUMENTS|@):-([^}]*)\}|\$\{@:(\d+)(?::(\d+))?\}|\$(ARGUMENTS|@|\d+)/g,
    (_match, defaultTarget, defaultValue, sliceStart, sliceLength, simple) => {
      if (defaultTarget) {
        const value = defaultTarget === "@" || defaultTarget === "ARGUMENTS" ? all : args[parseInt(defaultTarget, 10) - 1];
        return value ? value : defaultValue;
      }
      if (sliceStart) {
        // 1-based like bash; ${@:0} starts at the first argument too.
        const start = Math.max(parseInt(sliceStart, 10) - 1, 0);
        return (sliceLength ? args.slice(start, start + parseInt(sliceLength, 10)) : args.slice(start)).join(" ");
      }
      if (simple === "ARGUMENTS" || simple === "@") return all;
      return args[parseInt(simple, 10) - 1] ?? "";
    },
  );
}

/** `/name args` expanded with the template called name; any other text as it is. */
export function expandPromptTemplate(text, templates) {
  if (!text.startsWith("/")) return text;
  const match = text.match(/^\/([^\s]+)(?:\s+([\s\S]*))?$/);
  if (!match) return text;
  const template = templates.find((candidate) => candidate.name === match[1]);
  return template ? substituteArgs(template.content, parseCommandArgs(match[2] ?? "")) : text;
}
