// Runs one platform snippet in Node 22 and prints its result as JSON: the
// reference side of tests/platform.rs. Usage: node run-in-node.mjs SNIPPET CONTEXT_JSON
import { pathToFileURL } from "node:url";

const [snippet, context] = process.argv.slice(2);
const { run } = await import(pathToFileURL(snippet).href);
const result = await run(JSON.parse(context));
process.stdout.write(JSON.stringify(result));
