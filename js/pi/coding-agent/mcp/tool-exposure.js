// How a server's tools reach the model: `exposure` for the whole server,
// `toolExposure` for single tools by exact name or `*` pattern. MCP's
// `codemode` and `deferred` both register tools as pi's "deferred" (left out
// of the model's declarations and the codemode description); they differ
// only in which tool the extension activates to reach them.

export const DEFAULT_EXPOSURE = "codemode";

function patternRegExp(pattern) {
  const escaped = pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${escaped.join(".*")}$`);
}

/** The exposure of one tool: an exact `toolExposure` entry, else the first matching pattern, else the server's. */
export function getMcpToolExposure(config, toolName) {
  const overrides = config.toolExposure ?? {};
  if (overrides[toolName] !== undefined) return overrides[toolName];
  for (const [pattern, exposure] of Object.entries(overrides)) {
    if (pattern.includes("*") && patternRegExp(pattern).test(toolName)) return exposure;
  }
  return config.exposure ?? DEFAULT_EXPOSURE;
}

/** The server's own exposure. */
export const serverExposure = (entry) => entry.config.exposure ?? DEFAULT_EXPOSURE;

/** Every exposure the server's tools can have, known from the config before it connects. */
export function configuredExposures(entry) {
  return new Set([serverExposure(entry), ...Object.values(entry.config.toolExposure ?? {})]);
}

/** pi's tool exposure for an MCP exposure. */
export const toToolExposure = (exposure) => (exposure === "codemode" ? "deferred" : exposure);
