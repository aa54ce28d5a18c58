// What loaded, as plain data for the Rust side: the registrations of each
// extension (values that cannot cross, such as handlers and renderers, are
// counted or named), the load errors, and the shared runtime's queues.

function jsonValue(value) {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(JSON.stringify(value));
  } catch (error) {
    return { $unserializable: error instanceof Error ? error.message : String(error) };
  }
}

function withOptional(target, key, value) {
  if (value !== undefined) target[key] = value;
  return target;
}

/** A tool as the host lists it (`ToolReport`). */
export function describeTool({ definition }) {
  const tool = { name: definition.name };
  withOptional(tool, "label", definition.label);
  withOptional(tool, "description", definition.description);
  tool.parameters = jsonValue(definition.parameters);
  if (definition.outputSchema !== undefined) tool.outputSchema = jsonValue(definition.outputSchema);
  withOptional(tool, "exposure", definition.exposure);
  return tool;
}

function describeExtension(extension, loadTimeMs) {
  const handlers = {};
  for (const event of [...extension.handlers.keys()].sort()) handlers[event] = extension.handlers.get(event).length;
  return {
    path: extension.path,
    resolvedPath: extension.resolvedPath,
    loadTimeMs,
    tools: [...extension.tools.values()].map(describeTool),
    commands: [...extension.commands.values()].map((command) =>
      withOptional({ name: command.name }, "description", command.description),
    ),
    flags: [...extension.flags.values()].map((flag) => {
      const described = { name: flag.name, type: flag.type };
      withOptional(described, "description", flag.description);
      return withOptional(described, "default", jsonValue(flag.default));
    }),
    shortcuts: [...extension.shortcuts.values()].map((shortcut) =>
      withOptional({ shortcut: shortcut.shortcut }, "description", shortcut.description),
    ),
    messageRenderers: [...extension.messageRenderers.keys()],
    entryRenderers: [...(extension.entryRenderers?.keys() ?? [])],
    toolRenderers: extension.toolRenderers?.length ?? 0,
    markdownTransformer: extension.markdownTransformer !== undefined,
    handlers,
  };
}

/** The load report the Rust side deserialises (`report::InspectReport`). */
export function describeLoad({ extensions, errors, timings, stages, denials }, runtime) {
  const flagValues = {};
  for (const name of [...runtime.flagValues.keys()].sort()) flagValues[name] = jsonValue(runtime.flagValues.get(name));
  return {
    extensions: extensions.map((extension) => {
      const described = describeExtension(extension, timings.get(extension.path) ?? 0);
      withOptional(described, "timing", stages?.get(extension.path));
      withOptional(described, "denied", denials?.get(extension.path));
      return withOptional(described, "isolated", extension.isolatedBy);
    }),
    errors: errors.map((error) => {
      const described = { path: error.path, error: error.error };
      withOptional(described, "stack", error.stack);
      withOptional(described, "denied", denials?.get(error.path));
      withOptional(described, "timing", stages?.get(error.path));
      return withOptional(described, "loadTimeMs", timings.get(error.path));
    }),
    flagValues,
    pendingProviders: [
      ...runtime.pendingProviderRegistrations.map(({ name, extensionPath }) => ({ name, extensionPath })),
      ...runtime.pendingNativeProviderRegistrations.map(({ provider, extensionPath }) => ({
        name: provider?.id,
        extensionPath,
      })),
    ],
  };
}
