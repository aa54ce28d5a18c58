// Finding the authorization server of an MCP server: its protected resource
// metadata (at the URL the 401 challenge named, else the well-known path
// under the server's path, else at the root), the authorization server it
// names (else the MCP server's origin), and that server's metadata from the
// OAuth or OpenID well-known paths, whose issuer must be that server.
import { OAuthIssuerMismatchError } from "./errors.js";
import { parseAuthorizationServerMetadata, parseProtectedResourceMetadata } from "./metadata.js";
import { LATEST_PROTOCOL_VERSION } from "../client/protocol.js";

const discard = (response) => void response?.body?.cancel().catch(() => {});
/** 4xx and 502 mean "not here": the next candidate URL is tried. */
const isMiss = (status) => (status >= 400 && status < 500) || status === 502;
const pathSuffix = (pathname) => (pathname.endsWith("/") ? pathname.slice(0, -1) : pathname);

const fetchMetadata = (url, fetch, protocolVersion, signal) =>
  fetch(url, { headers: { Accept: "application/json", "MCP-Protocol-Version": protocolVersion }, signal });

export async function discoverProtectedResourceMetadata(serverUrl, options = {}) {
  const server = new URL(serverUrl);
  const fetch = options.fetch ?? globalThis.fetch;
  const version = options.protocolVersion ?? LATEST_PROTOCOL_VERSION;
  const first = options.resourceMetadataUrl
    ? new URL(options.resourceMetadataUrl)
    : new URL(`/.well-known/oauth-protected-resource${pathSuffix(server.pathname)}`, server.origin);
  let response = await fetchMetadata(first, fetch, version, options.signal);
  if (!options.resourceMetadataUrl && server.pathname !== "/" && isMiss(response.status)) {
    discard(response);
    response = await fetchMetadata(new URL("/.well-known/oauth-protected-resource", server.origin), fetch, version, options.signal);
  }
  if (!response.ok) {
    discard(response);
    throw new Error(`HTTP ${response.status} loading OAuth protected resource metadata`);
  }
  return parseProtectedResourceMetadata(await response.json());
}

/** Where an authorization server's metadata may be, in the order they are tried. */
export function authorizationServerMetadataUrls(authorizationServerUrl) {
  const issuer = new URL(authorizationServerUrl);
  const path = pathSuffix(issuer.pathname);
  const urls = [new URL(`/.well-known/oauth-authorization-server${path}`, issuer.origin), new URL(`/.well-known/openid-configuration${path}`, issuer.origin)];
  if (path) urls.push(new URL(`${path}/.well-known/openid-configuration`, issuer.origin));
  return urls;
}

/** The server's metadata, or undefined when none of the well-known URLs has it. */
export async function discoverAuthorizationServerMetadata(authorizationServerUrl, options = {}) {
  const fetch = options.fetch ?? globalThis.fetch;
  for (const url of authorizationServerMetadataUrls(authorizationServerUrl)) {
    const response = await fetchMetadata(url, fetch, options.protocolVersion ?? LATEST_PROTOCOL_VERSION, options.signal);
    if (!response.ok) {
      discard(response);
      if (isMiss(response.status)) continue;
      throw new Error(`HTTP ${response.status} loading authorization server metadata from ${url}`);
    }
    const metadata = parseAuthorizationServerMetadata(await response.json());
    if (!options.skipIssuerValidation) {
      const expected = String(authorizationServerUrl);
      // URLs of bare origins get a trailing slash: compare without.
      const trim = (value) => (value.endsWith("/") ? value.slice(0, -1) : value);
      if (trim(metadata.issuer) !== trim(expected)) throw new OAuthIssuerMismatchError(expected, metadata.issuer);
    }
    return metadata;
  }
  return undefined;
}

/** `{ authorizationServerUrl, authorizationServerMetadata, resourceMetadata }` of an MCP server. */
export async function discoverOAuthServerInfo(serverUrl, options = {}) {
  let resourceMetadata;
  try {
    resourceMetadata = await discoverProtectedResourceMetadata(serverUrl, {
      resourceMetadataUrl: options.resourceMetadataUrl,
      fetch: options.fetch,
      signal: options.signal,
    });
  } catch (error) {
    // Servers without resource metadata are fine; network failures are not.
    if (error instanceof TypeError) throw error;
  }
  if (options.authorizationServerMetadataUrl) {
    const url = options.authorizationServerMetadataUrl;
    const response = await fetchMetadata(url, options.fetch ?? globalThis.fetch, LATEST_PROTOCOL_VERSION, options.signal);
    if (!response.ok) {
      discard(response);
      throw new Error(`HTTP ${response.status} loading authorization server metadata from ${url}`);
    }
    const metadata = parseAuthorizationServerMetadata(await response.json());
    return { authorizationServerUrl: metadata.issuer, authorizationServerMetadata: metadata, resourceMetadata };
  }
  const authorizationServerUrl = resourceMetadata?.authorization_servers?.[0] ?? String(new URL("/", serverUrl));
  return {
    authorizationServerUrl,
    authorizationServerMetadata: await discoverAuthorizationServerMetadata(authorizationServerUrl, {
      fetch: options.fetch,
      skipIssuerValidation: options.skipIssuerValidation,
      signal: options.signal,
    }),
    resourceMetadata,
  };
}

/**
 * The `resource` to ask tokens for: the metadata's resource, which must be
 * the MCP server's origin and a prefix of its path.
 */
export function selectResource(serverUrl, metadata) {
  if (!metadata) return undefined;
  const requested = new URL(serverUrl);
  requested.hash = "";
  const configured = new URL(metadata.resource);
  const withSlash = (path) => (path.endsWith("/") ? path : `${path}/`);
  if (requested.origin !== configured.origin || !withSlash(requested.pathname).startsWith(withSlash(configured.pathname))) {
    throw new Error(`Protected resource ${metadata.resource} does not match MCP server ${requested}`);
  }
  return metadata.resource;
}
