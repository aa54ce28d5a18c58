// Where a resource (tool, command, skill, extension) came from, as pi shows
// it. A synthetic source names no file on disk: an SDK-made tool, an inline
// extension; it is temporary and top-level unless told otherwise.

/** The source info of a resource that was not loaded from a file. */
export function createSyntheticSourceInfo(path, options) {
  return {
    path,
    source: options.source,
    scope: options.scope ?? "temporary",
    origin: options.origin ?? "top-level",
    baseDir: options.baseDir,
    ...(options.changelogPath ? { changelogPath: options.changelogPath } : {}),
  };
}
