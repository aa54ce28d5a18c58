// What `pi.registerMcpServer(name, config)` accepts: one entry of the
// `mcpServers` shape MCP clients share (a stdio server's command, args, env
// and cwd, or a Streamable HTTP server's url, headers and oauth; enabled,
// description and timeout for both), plus pi's own fields (exposure,
// toolExposure, auth). As pi checks it: field by field, answering the
// config with exposure aliases replaced, or the error message.

const SERVER_NAME = /^[A-Za-z0-9_-]+$/;
const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];
const EXPOSURES = ["codemode", "deferred", "direct", "hidden"];
/** Older exposure names, accepted and replaced by their current one. */
const EXPOSURE_ALIASES = { "codemode-deferred": "codemode" };

const isRecord = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
const isStringRecord = (value) => isRecord(value) && Object.values(value).every((entry) => typeof entry === "string");

function baseFieldsError({ enabled, timeout, description }) {
  if (enabled !== undefined && typeof enabled !== "boolean") return "enabled must be a boolean";
  if (description !== undefined && typeof description !== "string") return "description must be a string";
  if (timeout !== undefined && (typeof timeout !== "number" || !(timeout > 0))) return "timeout must be a positive number of seconds";
  return undefined;
}

function stdioFieldsError({ args, env, cwd }) {
  if (args !== undefined && !(Array.isArray(args) && args.every((arg) => typeof arg === "string"))) return "args must be an array of strings";
  if (env !== undefined && !isStringRecord(env)) return "env must map names to strings";
  if (cwd !== undefined && typeof cwd !== "string") return "cwd must be a string";
  return undefined;
}

/** A redirect URI a loopback callback server can serve. */
function isLoopbackRedirectUri(value) {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === "http:" && LOOPBACK_HOSTS.includes(url.hostname) && url.search === "" && url.hash === "";
}

/** pi's Client ID Metadata Documents list `/callback` on localhost and 127.0.0.1, any port. */
function metadataDocumentCallbackError(callbackUrl) {
  if (callbackUrl === undefined) return undefined;
  const url = new URL(callbackUrl);
  if (url.hostname !== "[::1]" && url.pathname === "/callback") return undefined;
  return 'oauth.clientRegistration "cimd" requires oauth.callbackUrl on localhost or 127.0.0.1 with path /callback';
}

function oauthError(oauth) {
  if (oauth === undefined) return undefined;
  if (!isRecord(oauth)) return "oauth must be an object";
  if (oauth.clientId !== undefined && typeof oauth.clientId !== "string") return "oauth.clientId must be a string";
  if (oauth.clientSecret !== undefined && typeof oauth.clientSecret !== "string") return "oauth.clientSecret must be a string";
  const port = oauth.callbackPort;
  if (port !== undefined && (typeof port !== "number" || !Number.isInteger(port) || port < 1 || port > 65535)) {
    return "oauth.callbackPort must be a port number";
  }
  if (oauth.callbackUrl !== undefined) {
    if (typeof oauth.callbackUrl !== "string" || !isLoopbackRedirectUri(oauth.callbackUrl)) {
      return "oauth.callbackUrl must be an http URI on localhost, 127.0.0.1, or [::1] without query or fragment";
    }
    const urlPort = new URL(oauth.callbackUrl).port;
    if (urlPort && port !== undefined && Number(urlPort) !== port) return "oauth.callbackUrl and oauth.callbackPort name different ports";
  }
  if (oauth.scope !== undefined && typeof oauth.scope !== "string") return "oauth.scope must be a string";
  if (oauth.clientName !== undefined && (typeof oauth.clientName !== "string" || !oauth.clientName.trim())) {
    return "oauth.clientName must be a non-empty string";
  }
  const registration = oauth.clientRegistration;
  if (registration !== undefined && registration !== "auto" && registration !== "dcr") {
    if (registration !== "cimd") return 'oauth.clientRegistration must be "auto", "dcr", or "cimd"';
    if (oauth.clientId !== undefined || oauth.clientName !== undefined) {
      return 'oauth.clientRegistration "cimd" cannot be combined with oauth.clientId or oauth.clientName';
    }
    const callbackError = metadataDocumentCallbackError(typeof oauth.callbackUrl === "string" ? oauth.callbackUrl : undefined);
    if (callbackError) return callbackError;
  }
  const metadataUrl = oauth.authServerMetadataUrl;
  if (metadataUrl !== undefined) {
    const url = typeof metadataUrl === "string" && URL.canParse(metadataUrl) ? new URL(metadataUrl) : undefined;
    if (!url || !(url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTS.includes(url.hostname)))) {
      return "oauth.authServerMetadataUrl must be an https URL, or http on localhost, 127.0.0.1, or [::1]";
    }
  }
  return undefined;
}

function httpFieldsError(entry, url) {
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) return "url must be an http or https URL";
  if (entry.headers !== undefined && !isStringRecord(entry.headers)) return "headers must map names to strings";
  return oauthError(entry.oauth);
}

const resolveAlias = (value) => (typeof value === "string" ? (EXPOSURE_ALIASES[value] ?? value) : value);

/** A copy of the entry with exposure aliases replaced by their current names. */
function withExposureAliasesResolved(entry) {
  const resolved = { ...entry };
  if (entry.exposure !== undefined) resolved.exposure = resolveAlias(entry.exposure);
  if (isRecord(entry.toolExposure)) {
    resolved.toolExposure = Object.fromEntries(Object.entries(entry.toolExposure).map(([tool, value]) => [tool, resolveAlias(value)]));
  }
  return resolved;
}

function exposureError({ exposure, toolExposure }) {
  const isExposure = (value) => typeof value === "string" && EXPOSURES.includes(value);
  const listed = EXPOSURES.map((value) => `"${value}"`).join(", ");
  if (exposure !== undefined && !isExposure(exposure)) return `exposure must be one of ${listed}`;
  if (toolExposure !== undefined) {
    if (!isRecord(toolExposure)) return "toolExposure must map tool names to exposures";
    for (const [tool, value] of Object.entries(toolExposure)) if (!isExposure(value)) return `toolExposure "${tool}" must be one of ${listed}`;
  }
  return undefined;
}

/** `auth` sends a provider's credential to the server: https, or http on a loopback host. */
function authError(auth, url) {
  if (auth === undefined) return undefined;
  if (!isRecord(auth) || typeof auth.provider !== "string" || !auth.provider) return "auth.provider must be a provider name";
  const parsed = new URL(url);
  if (parsed.protocol !== "https:" && !LOOPBACK_HOSTS.includes(parsed.hostname)) {
    return "auth requires an https URL, or http on localhost, 127.0.0.1, or [::1]";
  }
  return undefined;
}

/** The config to keep (exposure aliases resolved), or why `raw` is not a server pi accepts under `name`. */
export function validateMcpServerConfig(name, raw) {
  if (!SERVER_NAME.test(name)) return `invalid server name "${name}" (use letters, digits, "_" and "-")`;
  if (!isRecord(raw)) return `server "${name}" must be an object`;
  const entry = withExposureAliasesResolved(raw);
  const fieldsError = baseFieldsError(entry);
  if (fieldsError) return `server "${name}": ${fieldsError}`;
  const { type, url, command } = entry;
  if (type === "sse") return `server "${name}": legacy SSE transport is not supported; use the streamable HTTP URL`;
  let kind;
  if (typeof url === "string" && (type === undefined || type === "http" || type === "streamable-http")) {
    const error = httpFieldsError(entry, url);
    if (error) return `server "${name}": ${error}`;
    kind = "http";
  } else if (typeof command === "string" && (type === undefined || type === "stdio")) {
    const error = stdioFieldsError(entry);
    if (error) return `server "${name}": ${error}`;
    kind = "stdio";
  } else {
    return `server "${name}" needs either "command" (stdio) or "url" (streamable HTTP)`;
  }
  const error = exposureError(entry) ?? (kind === "http" ? authError(entry.auth, entry.url) : undefined);
  if (error) return `server "${name}": ${error}`;
  return entry;
}
