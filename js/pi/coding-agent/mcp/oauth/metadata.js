// Checks of what OAuth servers answer: protected resource metadata (RFC
// 9728), authorization server metadata (RFC 8414), token responses and
// client registrations. Servers send `null` or "" for fields they have no
// value for; those count as absent and are dropped. URLs must be http(s):
// the authorization endpoint is opened with the platform's URL handler,
// which would also start local programs for `file:` or custom schemes.

const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
const absent = (value) => value === undefined || value === null || value === "";

function object(value, name) {
  if (!isObject(value)) throw new Error(`Invalid ${name}`);
  return value;
}

/** The value without its undefined fields. */
const withoutUndefined = (value) => Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined));

function requiredString(value, name) {
  if (typeof value !== "string" || value.length === 0) throw new Error(`Invalid ${name}`);
  return value;
}

const optionalString = (value, name) => (absent(value) ? undefined : requiredString(value, name));

function optionalStrings(value, name) {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) throw new Error(`Invalid ${name}`);
  return [...value];
}

export const isHttpUrl = (url) => url.protocol === "http:" || url.protocol === "https:";

function httpUrl(value, name) {
  const text = requiredString(value, name);
  // Not a TypeError (what URL parsing throws): discovery reads TypeErrors as network failures.
  if (!URL.canParse(text) || !isHttpUrl(new URL(text))) throw new Error(`Invalid ${name}`);
  return text;
}

const optionalHttpUrl = (value, name) => (absent(value) ? undefined : httpUrl(value, name));
const optionalBoolean = (value) => (typeof value === "boolean" ? value : undefined);

export function parseProtectedResourceMetadata(value) {
  const input = object(value, "OAuth protected resource metadata");
  return withoutUndefined({
    ...input,
    resource: httpUrl(input.resource, "OAuth protected resource metadata resource"),
    authorization_servers: optionalStrings(input.authorization_servers, "authorization_servers")?.map((url) => httpUrl(url, "authorization server URL")),
    scopes_supported: optionalStrings(input.scopes_supported, "scopes_supported"),
  });
}

export function parseAuthorizationServerMetadata(value) {
  const input = object(value, "authorization server metadata");
  const responseTypes = optionalStrings(input.response_types_supported, "response_types_supported");
  if (!responseTypes) throw new Error("Invalid response_types_supported");
  return withoutUndefined({
    ...input,
    issuer: httpUrl(input.issuer, "authorization server issuer"),
    authorization_endpoint: httpUrl(input.authorization_endpoint, "authorization endpoint"),
    token_endpoint: httpUrl(input.token_endpoint, "token endpoint"),
    registration_endpoint: optionalHttpUrl(input.registration_endpoint, "registration endpoint"),
    scopes_supported: optionalStrings(input.scopes_supported, "scopes_supported"),
    response_types_supported: responseTypes,
    grant_types_supported: optionalStrings(input.grant_types_supported, "grant_types_supported"),
    token_endpoint_auth_methods_supported: optionalStrings(input.token_endpoint_auth_methods_supported, "token_endpoint_auth_methods_supported"),
    code_challenge_methods_supported: optionalStrings(input.code_challenge_methods_supported, "code_challenge_methods_supported"),
    client_id_metadata_document_supported: optionalBoolean(input.client_id_metadata_document_supported),
    authorization_response_iss_parameter_supported: optionalBoolean(input.authorization_response_iss_parameter_supported),
  });
}

export function parseOAuthTokens(value) {
  const input = object(value, "OAuth token response");
  // Number(null) is 0, which would expire the token at once.
  const expiresIn = absent(input.expires_in) ? undefined : Number(input.expires_in);
  if (expiresIn !== undefined && !Number.isFinite(expiresIn)) throw new Error("Invalid expires_in");
  return withoutUndefined({
    access_token: requiredString(input.access_token, "access_token"),
    token_type: requiredString(input.token_type, "token_type"),
    expires_in: expiresIn,
    scope: optionalString(input.scope, "scope"),
    refresh_token: optionalString(input.refresh_token, "refresh_token"),
    id_token: optionalString(input.id_token, "id_token"),
  });
}

export function parseClientInformation(value) {
  const input = object(value, "OAuth client registration response");
  return withoutUndefined({
    ...input,
    client_id: requiredString(input.client_id, "client_id"),
    client_secret: optionalString(input.client_secret, "client_secret"),
    client_id_issued_at: typeof input.client_id_issued_at === "number" ? input.client_id_issued_at : undefined,
    client_secret_expires_at: typeof input.client_secret_expires_at === "number" ? input.client_secret_expires_at : undefined,
    redirect_uris: optionalStrings(input.redirect_uris, "redirect_uris") ?? [],
  });
}
