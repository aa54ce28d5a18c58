// pi-tui hands extensions the `marked` library's Marked class as it is, so
// pihost serves the same library, vendored unmodified, rather than a look-alike:
// extensions that build their own markdown pipelines get marked's exact tokens
// and HTML. pihost's own Markdown component keeps its own lexer.
export { Marked } from "../../vendor/marked/marked.esm.js";
