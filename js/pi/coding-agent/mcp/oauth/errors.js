// The OAuth conditions the MCP integration acts on: the user has to sign
// in, a sign-in was cancelled, another process holds the refresh lock.

/** Connections never open a browser: when the stored tokens do not do, they fail with this. */
export class McpOAuthAuthorizationRequiredError extends Error {
  constructor() {
    super("MCP OAuth authorization requires user interaction");
    this.name = "McpOAuthAuthorizationRequiredError";
  }
}

/** The user or the application gave up on a sign-in. */
export class McpSignInCancelledError extends Error {
  constructor() {
    super("Sign-in cancelled");
    this.name = "McpSignInCancelledError";
  }
}

/** Another process kept the refresh lock for the whole wait. */
export class McpRefreshLockBusyError extends Error {
  constructor() {
    super("Another process is refreshing the MCP server's tokens");
    this.name = "McpRefreshLockBusyError";
  }
}

/** An error response of an authorization server (`error`, `error_description`, `error_uri`). */
export class OAuthError extends Error {
  constructor(code, message, errorUri) {
    super(message || code);
    this.name = "OAuthError";
    this.code = code;
    this.errorUri = errorUri;
  }
}

/** An authorization server that is not the one it claims (RFC 8414, RFC 9207). */
export class OAuthIssuerMismatchError extends Error {
  constructor(expected, received) {
    const show = (issuer) => (issuer === undefined ? "none" : JSON.stringify(issuer));
    super(`OAuth issuer mismatch: expected ${show(expected)}, received ${show(received)}`);
    this.name = "OAuthIssuerMismatchError";
    this.expected = expected;
    this.received = received;
  }
}

/** Credentials are only sent over https, or http to a loopback host. */
export class OAuthInsecureEndpointError extends Error {
  constructor(endpoint) {
    super(`Refusing to send OAuth credentials to non-HTTPS endpoint ${endpoint}`);
    this.name = "OAuthInsecureEndpointError";
    this.endpoint = endpoint;
  }
}

export class OAuthRegistrationError extends Error {
  constructor(status, body) {
    super(`OAuth dynamic client registration failed with status ${status}: ${body}`);
    this.name = "OAuthRegistrationError";
    this.status = status;
    this.body = body;
  }
}
