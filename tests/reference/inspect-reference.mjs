// Loads extensions with the reference pi's own loader and prints what they
// registered as JSON, so pihost's loader can be compared against it.
//
//   <reference node> tests/reference/inspect-reference.mjs --pi-dir <pi-reference-dir> \
//       [--cwd DIR] [--agent-dir DIR] [PATH...]
//
// It calls discoverAndLoadExtensions(paths, cwd, agentDir) from the reference's
// dist/core/extensions/loader.js and prints one JSON document on stdout:
//   { extensions: [...], errors: [...], flagValues: {...}, pendingProviders: [...] }
// Anything the extensions themselves write to stdout while loading is sent to
// stderr instead, so stdout stays parseable. The process exits as soon as the
// report is written, even if an extension left handles open.
//
// The output is produced live from the reference; do not commit recordings.
import path from "node:path";
import { pathToFileURL } from "node:url";

function usage(message) {
  if (message) process.stderr.write(`inspect-reference: ${message}\n`);
  process.stderr.write(
    "usage: inspect-reference.mjs --pi-dir <pi-reference-dir> [--cwd DIR] [--agent-dir DIR] [PATH...]\n",
  );
  process.exit(2);
}

function parseArgs(argv) {
  const options = { piDir: undefined, cwd: undefined, agentDir: undefined, paths: [] };
  const takeValue = (index, flag) => {
    const value = argv[index + 1];
    if (value === undefined) usage(`${flag} needs a value`);
    return value;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      options.paths.push(...argv.slice(i + 1));
      break;
    }
    const eq = arg.indexOf("=");
    const [flag, inlineValue] = arg.startsWith("--") && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    const value = () => {
      if (inlineValue !== undefined) return inlineValue;
      return takeValue(i++, flag);
    };
    switch (flag) {
      case "--pi-dir":
        options.piDir = value();
        break;
      case "--cwd":
        options.cwd = value();
        break;
      case "--agent-dir":
        options.agentDir = value();
        break;
      case "-h":
      case "--help":
        usage();
        break;
      default:
        if (arg.startsWith("--")) usage(`unknown option ${arg}`);
        options.paths.push(arg);
    }
  }
  if (!options.piDir) usage("--pi-dir is required");
  return options;
}

const sortedObject = (entries) => {
  const out = {};
  for (const [key, value] of [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out[key] = value;
  return out;
};

// Objects are built with their keys in report order; JSON.stringify drops the
// keys whose value is undefined, which is how optional keys are omitted.
function describeExtension(extension) {
  const tools = [];
  for (const [name, registered] of extension.tools) {
    const definition = registered.definition;
    tools.push({
      name,
      label: definition.label,
      description: definition.description,
      parameters: definition.parameters === undefined ? undefined : JSON.parse(JSON.stringify(definition.parameters)),
      outputSchema: definition.outputSchema === undefined ? undefined : JSON.parse(JSON.stringify(definition.outputSchema)),
      exposure: definition.exposure,
    });
  }
  const commands = [...extension.commands.values()].map((command) => ({
    name: command.name,
    description: command.description,
  }));
  const flags = [...extension.flags.values()].map((flag) => ({
    name: flag.name,
    type: flag.type,
    description: flag.description,
    default: flag.default,
  }));
  const shortcuts = [...extension.shortcuts.values()].map((shortcut) => ({
    shortcut: shortcut.shortcut,
    description: shortcut.description,
  }));
  const handlers = sortedObject([...extension.handlers].map(([event, list]) => [event, list.length]));
  return {
    path: extension.path,
    resolvedPath: extension.resolvedPath,
    tools,
    commands,
    flags,
    shortcuts,
    messageRenderers: [...extension.messageRenderers.keys()],
    entryRenderers: [...(extension.entryRenderers?.keys() ?? [])],
    toolRenderers: extension.toolRenderers?.length ?? 0,
    markdownTransformer: extension.markdownTransformer !== undefined,
    handlers,
  };
}

function describeResult(result) {
  const runtime = result.runtime;
  const pendingProviders = [
    ...runtime.pendingProviderRegistrations.map((entry) => ({ name: entry.name, extensionPath: entry.extensionPath })),
    ...runtime.pendingNativeProviderRegistrations.map((entry) => ({
      name: entry.provider?.id,
      extensionPath: entry.extensionPath,
    })),
  ];
  return {
    extensions: result.extensions.map(describeExtension),
    errors: result.errors.map((entry) => ({ path: entry.path, error: entry.error })),
    flagValues: sortedObject(runtime.flagValues),
    pendingProviders,
  };
}

// Extensions may print while loading; keep stdout for the report alone.
function divertStdout() {
  const originalWrite = process.stdout.write;
  process.stdout.write = function (...args) {
    return process.stderr.write(...args);
  };
  return () => {
    process.stdout.write = originalWrite;
  };
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const piDir = path.resolve(options.piDir);
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const agentDir = options.agentDir === undefined ? undefined : path.resolve(options.agentDir);
  const loaderPath = path.join(
    piDir,
    "node_modules/@earendil-works/pi-coding-agent/dist/core/extensions/loader.js",
  );
  const { discoverAndLoadExtensions } = await import(pathToFileURL(loaderPath).href);

  const restoreStdout = divertStdout();
  let result;
  try {
    result = await discoverAndLoadExtensions(options.paths, cwd, agentDir);
  } finally {
    restoreStdout();
  }
  const report = `${JSON.stringify(describeResult(result), null, 2)}\n`;
  await new Promise((resolve, reject) => {
    process.stdout.write(report, (error) => (error ? reject(error) : resolve()));
  });
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`inspect-reference: ${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
