// pi 1.6.0's codemode on Node: `node benches/codemode/reference.mjs <pi-reference-dir>`.
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { timeCodemode } from "./cases.mjs";

const reference = process.argv[2];
const entry = join(reference, "node_modules/@earendil-works/pi-coding-agent/dist/index.js");
const { createCodemodeExtension } = await import(pathToFileURL(entry).href);
process.stdout.write(`${JSON.stringify(await timeCodemode(createCodemodeExtension))}\n`);
