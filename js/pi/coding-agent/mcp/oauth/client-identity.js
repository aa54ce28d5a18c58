// How pi identifies itself to an authorization server for one MCP server:
// a client pre-registered in the config, a Client ID Metadata Document
// (pi's, on pi.dev), or dynamic client registration; and where the browser
// is sent back to (a loopback callback).
import { createHash } from "node:crypto";
import { APP_NAME } from "../pi-identity.js";
import { OAuthServerState } from "./server-state.js";

const CALLBACK_HOST = "127.0.0.1";
const CALLBACK_PATH = "/callback";
/** The redirect URI when the settings name none and no client is stored. */
export const DEFAULT_REDIRECT_URL = `http://${CALLBACK_HOST}${CALLBACK_PATH}`;
/** Each request to an authorization server is bounded, so a hanging one cannot hold a lock or a shutdown. */
const OAUTH_REQUEST_TIMEOUT_MS = 15_000;

/**
 * Whether pi's Client ID Metadata Documents list a loopback redirect URI:
 * they list `/callback` on localhost and 127.0.0.1, any port. Without a
 * configured callback URL pi uses such a URI.
 */
export function isClientMetadataDocumentCallback(callbackUrl) {
  if (callbackUrl === undefined) return true;
  const url = new URL(callbackUrl);
  return url.hostname !== "[::1]" && url.pathname === "/callback";
}

/** pi's client identity for sign-ins and refreshes. */
export const PI_CLIENT = {
  clientName: APP_NAME,
  clientMetadataDocuments: { baseUrl: "https://pi.dev/oauth", listsRedirectUrl: isClientMetadataDocumentCallback },
};

/**
 * Whether the client may use a Client ID Metadata Document rather than
 * register. `auto` registers when the config names a client or a client
 * name, or when the documents do not list the redirect URI.
 */
export function offersClientMetadataDocument(settings, documents, redirectUrl) {
  const registration = settings.clientRegistration ?? "auto";
  if (registration !== "auto") return registration === "cimd";
  return !settings.clientId && !settings.clientName && documents?.listsRedirectUrl(redirectUrl) === true;
}

/** 12 characters naming an MCP server URL in callback paths (as Codex computes them). */
function callbackId(serverUrl) {
  const url = new URL(serverUrl);
  url.hash = "";
  return createHash("sha256").update(url.href).digest().subarray(0, 9).toString("base64url");
}

/** The path of a server-specific document's redirect URI: `<path>/<callback id>`. */
export function serverSpecificPath(path, serverUrl) {
  return `${path.replace(/\/$/, "")}/${callbackId(serverUrl)}`;
}

/**
 * The document to use, or undefined when the authorization server takes no
 * documents from public clients. Without the `iss` parameter (RFC 9207) the
 * document and redirect URI are specific to the MCP server, so responses of
 * two authorization servers cannot be mixed up (RFC 9700 4.4.2.2).
 */
function clientMetadataDocument(serverUrl, redirectUrl, metadata, baseUrl) {
  if (!metadata?.client_id_metadata_document_supported || !metadata.token_endpoint_auth_methods_supported?.includes("none")) return undefined;
  if (metadata.authorization_response_iss_parameter_supported) return { url: `${baseUrl}/client.json`, redirectUrl };
  const redirect = new URL(redirectUrl);
  redirect.pathname = serverSpecificPath(redirect.pathname, serverUrl);
  return { url: `${baseUrl}/${callbackId(serverUrl)}/client.json`, redirectUrl: redirect.href };
}

/** The redirect URIs a stored client was registered with. */
export const registeredRedirectUrls = (client) => (client && "redirect_uris" in client ? client.redirect_uris : []);

/** `fetch` bounded per request, on top of the request's own signal. */
export function timedFetch(fetch = globalThis.fetch) {
  return (input, init) => {
    const timeout = AbortSignal.timeout(OAUTH_REQUEST_TIMEOUT_MS);
    return fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout });
  };
}

/** The server's OAuth state for a client redirecting to `redirectUrl` (or its document's variant of it). */
export function createOAuthServerState(options, redirectUrl, onRedirect = () => {}) {
  const { serverUrl, settings, clientMetadataDocuments: documents } = options;
  const usesDocument = offersClientMetadataDocument(settings, documents, redirectUrl);
  return new OAuthServerState({
    serverUrl,
    redirectUrl,
    clientMetadata: { client_name: settings.clientName ?? options.clientName },
    clientMetadataDocument: usesDocument
      ? (metadata) => {
          if (!documents?.listsRedirectUrl(redirectUrl)) {
            throw new Error(`oauth.clientRegistration "cimd" needs Client ID Metadata Documents that list the redirect URI ${redirectUrl}`);
          }
          const document = clientMetadataDocument(serverUrl, redirectUrl, metadata, documents.baseUrl);
          if (!document && settings.clientRegistration === "cimd") {
            throw new Error('The authorization server does not support Client ID Metadata Documents for public clients; remove oauth.clientRegistration "cimd"');
          }
          return document;
        }
      : undefined,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    store: options.store,
    onRedirect,
  });
}

/** Where the loopback callback listens, and the redirect URI when the settings fix it. */
export function loopbackSettings(settings) {
  const configured = settings.callbackUrl ?? DEFAULT_REDIRECT_URL;
  const url = new URL(configured);
  const address = url.hostname.replace(/^\[|\]$/g, "");
  const port = url.port ? Number(url.port) : settings.callbackPort;
  let fixedRedirectUrl;
  // A configured URI with a port is sent as written: servers compare it as a string.
  if (url.port) fixedRedirectUrl = settings.callbackUrl;
  else if (port !== undefined) {
    url.port = String(port);
    fixedRedirectUrl = url.href;
  }
  return {
    url: configured,
    // `localhost` is served on 127.0.0.1; browsers fall back to it when ::1 refuses.
    host: address === "localhost" ? CALLBACK_HOST : address,
    redirectHost: address,
    port,
    path: url.pathname,
    fixedRedirectUrl,
  };
}
