// The OAuth authorization code flow with PKCE against the authorization
// server of an MCP server (the MCP authorization spec): discovery, client
// registration when needed, the authorization URL, the code exchange and
// refreshes. One call of `authorizeMcp` does what the state allows: exchange
// a code it was given, refresh stored tokens, or prepare the browser step
// ("REDIRECT"). Rejected clients and grants are forgotten and tried again.
import { Buffer } from "node:buffer";
import { createHash, randomBytes } from "node:crypto";
import { discoverAuthorizationServerMetadata, discoverOAuthServerInfo, selectResource } from "./discovery.js";
import { OAuthError, OAuthInsecureEndpointError, OAuthIssuerMismatchError, OAuthRegistrationError } from "./errors.js";
import { isHttpUrl, parseClientInformation, parseOAuthTokens } from "./metadata.js";

const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
const isLoopback = (hostname) => hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]" || hostname === "::1";

/**
 * The OpenID Connect `application_type` of the redirect URIs (MCP SEP-837):
 * loopback and custom schemes are native apps (RFC 8252); servers assume
 * `web` otherwise, which refuses http loopback URIs.
 */
function applicationType(redirectUris) {
  const native = redirectUris.some((uri) => {
    if (!URL.canParse(uri)) return false;
    const url = new URL(uri);
    return (url.protocol !== "http:" && url.protocol !== "https:") || isLoopback(url.hostname);
  });
  return native ? "native" : "web";
}

function secureEndpoint(value) {
  const url = new URL(value);
  if (url.protocol !== "https:" && !isLoopback(url.hostname)) throw new OAuthInsecureEndpointError(url.href);
  return url;
}

/** How the client authenticates at the token endpoint: what it registered with, else what the server supports. */
function clientAuthMethod(client, supported) {
  const registered = "token_endpoint_auth_method" in client ? client.token_endpoint_auth_method : undefined;
  if (registered && ["client_secret_basic", "client_secret_post", "none"].includes(registered) && (supported.length === 0 || supported.includes(registered))) {
    return registered;
  }
  if (supported.length === 0) return client.client_secret ? "client_secret_basic" : "none";
  if (client.client_secret && supported.includes("client_secret_basic")) return "client_secret_basic";
  if (client.client_secret && supported.includes("client_secret_post")) return "client_secret_post";
  if (supported.includes("none")) return "none";
  return client.client_secret ? "client_secret_post" : "none";
}

function authenticateClient(method, client, headers, params) {
  if (method === "client_secret_basic") {
    if (!client.client_secret) throw new Error("client_secret_basic requires a client secret");
    headers.set("Authorization", `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString("base64")}`);
    return;
  }
  params.set("client_id", client.client_id);
  if (method === "client_secret_post" && client.client_secret) params.set("client_secret", client.client_secret);
}

/** A PKCE verifier and its S256 challenge. */
function pkcePair() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export async function startAuthorization(authorizationServerUrl, { metadata, clientInformation, redirectUrl, scope, state, resource }) {
  if (metadata && !metadata.response_types_supported.includes("code")) throw new Error("Authorization server does not support authorization codes");
  if (metadata?.code_challenge_methods_supported && !metadata.code_challenge_methods_supported.includes("S256")) {
    throw new Error("Authorization server does not support PKCE S256");
  }
  const url = new URL(metadata?.authorization_endpoint ?? new URL("/authorize", authorizationServerUrl));
  // The URL is opened with the platform's URL handler, which also starts files and custom schemes.
  if (!isHttpUrl(url)) throw new Error(`Invalid authorization endpoint ${url.href}`);
  const { verifier, challenge } = pkcePair();
  const params = url.searchParams;
  params.set("response_type", "code");
  params.set("client_id", clientInformation.client_id);
  params.set("code_challenge", challenge);
  params.set("code_challenge_method", "S256");
  params.set("redirect_uri", String(redirectUrl));
  if (state) params.set("state", state);
  if (scope) params.set("scope", scope);
  if (scope?.split(/\s+/).includes("offline_access")) params.set("prompt", "consent");
  if (resource) params.set("resource", resource);
  return { authorizationUrl: url, codeVerifier: verifier };
}

async function tokenRequest(authorizationServerUrl, options, params) {
  const url = secureEndpoint(options.metadata?.token_endpoint ?? new URL("/token", authorizationServerUrl));
  const headers = new Headers({ Accept: "application/json", "content-type": "application/x-www-form-urlencoded" });
  if (options.resource) params.set("resource", options.resource);
  const supported = options.metadata?.token_endpoint_auth_methods_supported ?? [];
  authenticateClient(clientAuthMethod(options.clientInformation, supported), options.clientInformation, headers, params);
  const response = await (options.fetch ?? globalThis.fetch)(url, { method: "POST", headers, body: params, signal: options.signal });
  const text = await response.text();
  let value;
  try {
    value = JSON.parse(text);
  } catch {}
  // OAuth errors may come with any status: the body decides first.
  if (isObject(value) && typeof value.error === "string") {
    throw new OAuthError(
      value.error,
      typeof value.error_description === "string" ? value.error_description : value.error,
      typeof value.error_uri === "string" ? value.error_uri : undefined,
    );
  }
  if (!response.ok) throw new OAuthError("server_error", `HTTP ${response.status}: ${text}`);
  return parseOAuthTokens(value);
}

export async function registerClient(authorizationServerUrl, { metadata, clientMetadata, scope, fetch, signal }) {
  const endpoint = metadata?.registration_endpoint;
  if (metadata && !endpoint) throw new Error("Authorization server does not support dynamic client registration");
  const body = {
    ...clientMetadata,
    application_type: clientMetadata.application_type ?? applicationType(clientMetadata.redirect_uris),
    ...(scope ? { scope } : {}),
  };
  const response = await (fetch ?? globalThis.fetch)(new URL(endpoint ?? new URL("/register", authorizationServerUrl)), {
    method: "POST",
    headers: { Accept: "application/json", "content-type": "application/json" },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok) throw new OAuthRegistrationError(response.status, await response.text());
  return parseClientInformation(await response.json());
}

/** A token response without `scope` grants the scope asked for (RFC 6749 5.1, 6): it is recorded. */
const withScope = (tokens, scope) => (tokens.scope === undefined && scope ? { ...tokens, scope } : tokens);

/**
 * The scopes of a step-up sign-in: the challenged ones plus those granted
 * so far, since a challenge may list only the missing ones (SEP-2350).
 */
export function stepUpScope(granted, challenged) {
  if (!challenged) return undefined;
  const scopes = [granted, challenged].flatMap((scope) => scope?.split(/\s+/).filter(Boolean) ?? []);
  return [...new Set(scopes)].join(" ");
}

async function discover(state, options) {
  const metadataUrl = options.authorizationServerMetadataUrl && secureEndpoint(options.authorizationServerMetadataUrl);
  // A configured metadata URL is not cached, so changing it applies at once.
  const cached = metadataUrl ? undefined : await state.discoveryState();
  if (cached?.authorizationServerUrl) {
    return {
      metadataUrl,
      discovered: {
        authorizationServerUrl: cached.authorizationServerUrl,
        authorizationServerMetadata:
          cached.authorizationServerMetadata ??
          (await discoverAuthorizationServerMetadata(cached.authorizationServerUrl, {
            fetch: options.fetch,
            skipIssuerValidation: options.skipIssuerValidation,
            signal: options.signal,
          })),
        resourceMetadata: cached.resourceMetadata,
      },
    };
  }
  const discovered = await discoverOAuthServerInfo(options.serverUrl, {
    resourceMetadataUrl: options.resourceMetadataUrl,
    authorizationServerMetadataUrl: metadataUrl,
    fetch: options.fetch,
    skipIssuerValidation: options.skipIssuerValidation,
    signal: options.signal,
  });
  return { metadataUrl, discovered };
}

async function runFlow(state, options, seen = {}) {
  const { metadataUrl, discovered } = await discover(state, options);
  if (!metadataUrl) {
    await state.saveDiscoveryState({ ...discovered, ...(options.resourceMetadataUrl ? { resourceMetadataUrl: options.resourceMetadataUrl.href } : {}) });
  }
  const metadata = discovered.authorizationServerMetadata;
  const resource = selectResource(options.serverUrl, discovered.resourceMetadata);
  // `||`: an empty scope (`scopes_supported: []`) falls through to the next source.
  const scope = options.scope || discovered.resourceMetadata?.scopes_supported?.join(" ") || state.clientMetadata.scope;
  const stored = await state.clientInformation();
  seen.storedClientId = stored?.client_id;
  const document = stored ? undefined : state.clientMetadataDocument?.(metadata);
  if (document) {
    const url = new URL(document.url);
    if (url.protocol !== "https:" || url.pathname === "/") throw new Error("Invalid OAuth client metadata URL");
  }
  // A document's redirect URI may differ from the state's (a server-specific path).
  const redirectUrl = document?.redirectUrl ?? String(state.redirectUrl);
  // Checked first: a changed redirect URI also explains a client missing for the exchange.
  if (options.authorizationCode && options.authorizationRedirectUrl !== undefined && redirectUrl !== options.authorizationRedirectUrl) {
    throw new Error(`The code exchange would use the redirect URI ${redirectUrl}, but the authorization request used ${options.authorizationRedirectUrl}`);
  }
  let client = stored ?? (document && { client_id: document.url });
  if (!client) {
    if (options.refreshOnly) return "REDIRECT";
    if (options.authorizationCode) {
      throw new Error("OAuth client information is missing during code exchange: the authorization request's client was removed, or the client settings changed");
    }
    client = await registerClient(discovered.authorizationServerUrl, {
      metadata,
      clientMetadata: state.clientMetadata,
      scope,
      fetch: options.fetch,
      signal: options.signal,
    });
    await state.saveClientInformation(client);
  }
  const tokenOptions = { metadata, clientInformation: client, resource, fetch: options.fetch, signal: options.signal };
  if (options.authorizationCode) {
    // RFC 9207: a code of another authorization server is never sent here. Without metadata any `iss` is refused.
    const { iss } = options;
    if ((iss !== undefined || metadata?.authorization_response_iss_parameter_supported) && iss !== metadata?.issuer) {
      throw new OAuthIssuerMismatchError(metadata?.issuer, iss);
    }
    const params = new URLSearchParams({
      grant_type: "authorization_code",
      code: options.authorizationCode,
      code_verifier: await state.codeVerifier(),
      redirect_uri: String(redirectUrl),
    });
    const tokens = await tokenRequest(discovered.authorizationServerUrl, tokenOptions, params);
    // The options are the authorization request's, so `scope` is what was asked for.
    await state.saveTokens(withScope(tokens, scope));
    return "AUTHORIZED";
  }
  const existing = options.skipRefresh ? undefined : await state.tokens();
  if (existing?.refresh_token) {
    try {
      const params = new URLSearchParams({ grant_type: "refresh_token", refresh_token: existing.refresh_token });
      const tokens = { refresh_token: existing.refresh_token, ...(await tokenRequest(discovered.authorizationServerUrl, tokenOptions, params)) };
      await state.saveTokens(withScope(tokens, existing.scope));
      return "AUTHORIZED";
    } catch (error) {
      if (options.signal?.aborted || error instanceof OAuthInsecureEndpointError) throw error;
      if (error instanceof OAuthError && error.code !== "server_error") throw error;
    }
  }
  if (options.refreshOnly) return "REDIRECT";
  const authorization = await startAuthorization(discovered.authorizationServerUrl, {
    metadata,
    clientInformation: client,
    redirectUrl,
    scope,
    state: await state.state(),
    resource,
  });
  await state.saveCodeVerifier(authorization.codeVerifier);
  await state.redirectToAuthorization(authorization.authorizationUrl);
  return "REDIRECT";
}

/**
 * Runs the flow for `state` (an OAuthServerState): "AUTHORIZED" when tokens
 * were saved, "REDIRECT" when the user has to approve in the browser (the
 * state's onRedirect got the URL, unless `refreshOnly`).
 */
export async function authorizeMcp(state, options) {
  const seen = {};
  try {
    return await runFlow(state, options, seen);
  } catch (error) {
    if (error instanceof OAuthError && ["invalid_client", "unauthorized_client"].includes(error.code)) {
      // A refresh keeps a pending sign-in's state and verifier, and a client stored since by a sign-in
      // that completed is not the one the server refused.
      if (options.refreshOnly) {
        if ((await state.clientInformation())?.client_id === seen.storedClientId) {
          for (const kind of ["client", "tokens", "discovery"]) await state.invalidateCredentials(kind);
        }
      } else await state.invalidateCredentials("all");
      return runFlow(state, options);
    }
    if (error instanceof OAuthError && error.code === "invalid_grant") {
      await state.invalidateCredentials("tokens");
      return runFlow(state, options);
    }
    throw error;
  }
}
