// The reference side of the dispatch benchmark: the same fixtures, loaded by
// pi 1.6.0's own loader and runner on Node 22, timed the same way as
// examples/dispatch_timing.rs. Prints one JSON line of microseconds per call.
//
//   node benches/dispatch-reference.mjs <pi-reference-dir> <fixtures-dir>
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [piDir, fixtures] = process.argv.slice(2);
const extensionsDir = path.join(piDir, "node_modules/@earendil-works/pi-coding-agent/dist/core/extensions");
const { loadExtensions } = await import(pathToFileURL(path.join(extensionsDir, "loader.js")).href);
const { ExtensionRunner } = await import(pathToFileURL(path.join(extensionsDir, "runner.js")).href);
const paths = fs.readdirSync(fixtures).filter((name) => name.endsWith(".ts")).sort().map((name) => path.join(fixtures, name));
const loaded = await loadExtensions(paths, fixtures);
const runner = new ExtensionRunner(loaded.extensions, loaded.runtime, fixtures, {}, {});

const toolCall = { type: "tool_call", toolName: "bash", toolCallId: "1", input: { command: "ls -la" } };
const messages = Array.from({ length: 200 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `message ${i} `.repeat(8), timestamp: i }));

async function time(label, iterations, run) {
  for (let i = 0; i < Math.min(iterations, 200); i++) await run();
  const started = performance.now();
  for (let i = 0; i < iterations; i++) await run();
  return [label, ((performance.now() - started) * 1000) / iterations];
}

const results = Object.fromEntries([
  await time("tool_call_10_handlers", 20000, () => runner.emitToolCall(toolCall)),
  await time("context_200_messages_5_handlers", 2000, () => runner.emitContext(messages)),
  await time("provider_request_200_messages_no_handlers", 2000, () => runner.emitBeforeProviderRequest({ model: "m", messages })),
  await time("no_handlers", 20000, () => runner.emit({ type: "turn_start", turnIndex: 0 })),
  await time("execute_tool", 20000, () =>
    runner.getToolDefinition("echo_1").execute("1", { text: "hi" }, undefined, undefined, runner.createContext()),
  ),
]);
process.stdout.write(`${JSON.stringify(results)}\n`);
process.exit(0);
