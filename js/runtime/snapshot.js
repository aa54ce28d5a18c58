// What loaded, as plain data for the Rust side: the registrations of each
// extension (values that cannot cross, such as handlers and renderers, are
// counted or named), the load errors, and the shared runtime's queues.
import {
  ArrayFromKeys,
  ArrayFromValues,
  ArrayPrototypeMap,
  ArrayPrototypeSort,
  JSONParse,
  JSONStringify,
} from "pihost:runtime/primordials.js";

function jsonValue(value) {
  if (value === undefined) return undefined;
  try {
    return JSONParse(JSONStringify(value));
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
  const events = ArrayPrototypeSort(ArrayFromKeys(extension.handlers));
  for (let index = 0; index < events.length; index++) handlers[events[index]] = extension.handlers.get(events[index]).length;
  return {
    path: extension.path,
    resolvedPath: extension.resolvedPath,
    loadTimeMs,
    tools: ArrayPrototypeMap(ArrayFromValues(extension.tools), (tool) => describeTool(tool)),
    commands: ArrayPrototypeMap(ArrayFromValues(extension.commands), (command) =>
      withOptional({ name: command.name }, "description", command.description),
    ),
    flags: ArrayPrototypeMap(ArrayFromValues(extension.flags), (flag) => {
      const described = { name: flag.name, type: flag.type };
      withOptional(described, "description", flag.description);
      return withOptional(described, "default", jsonValue(flag.default));
    }),
    shortcuts: ArrayPrototypeMap(ArrayFromValues(extension.shortcuts), (shortcut) =>
      withOptional({ shortcut: shortcut.shortcut }, "description", shortcut.description),
    ),
    messageRenderers: ArrayFromKeys(extension.messageRenderers),
    entryRenderers: extension.entryRenderers ? ArrayFromKeys(extension.entryRenderers) : [],
    toolRenderers: extension.toolRenderers?.length ?? 0,
    markdownTransformer: extension.markdownTransformer !== undefined,
    handlers,
  };
}

/** The load report the Rust side deserialises (`report::InspectReport`). */
export function describeLoad({ extensions, errors, timings, stages, denials }, runtime) {
  const flagValues = {};
  const names = ArrayPrototypeSort(ArrayFromKeys(runtime.flagValues));
  for (let index = 0; index < names.length; index++) flagValues[names[index]] = jsonValue(runtime.flagValues.get(names[index]));
  const pendingProviders = [];
  const named = runtime.pendingProviderRegistrations;
  for (let index = 0; index < named.length; index++) {
    pendingProviders[pendingProviders.length] = { name: named[index].name, extensionPath: named[index].extensionPath };
  }
  const native = runtime.pendingNativeProviderRegistrations;
  for (let index = 0; index < native.length; index++) {
    pendingProviders[pendingProviders.length] = { name: native[index].provider?.id, extensionPath: native[index].extensionPath };
  }
  return {
    extensions: ArrayPrototypeMap(extensions, (extension) => {
      const described = describeExtension(extension, timings.get(extension.path) ?? 0);
      withOptional(described, "timing", stages?.get(extension.path));
      withOptional(described, "denied", denials?.get(extension.path));
      return withOptional(described, "isolated", extension.isolatedBy);
    }),
    errors: ArrayPrototypeMap(errors, (error) => {
      const described = { path: error.path, error: error.error };
      withOptional(described, "stack", error.stack);
      withOptional(described, "denied", denials?.get(error.path));
      withOptional(described, "timing", stages?.get(error.path));
      return withOptional(described, "loadTimeMs", timings.get(error.path));
    }),
    flagValues,
    pendingProviders,
  };
}
