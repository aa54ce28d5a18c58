// The isolate has no `process`; the host installs `__pihostCwd` so that
// path/url resolution sees the same working directory as the extension's
// view of the filesystem. Until then everything resolves against "/".

/**
 * Current working directory as reported by the host.
 * @returns {string}
 */
export function cwd() {
  return globalThis.__pihostCwd?.() ?? "/";
}
