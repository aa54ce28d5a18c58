// OAuth for remote MCP servers: what connections and the /mcp command use.
// Connections never open a browser: they send stored tokens and refresh
// them; when the user has to sign in they fail with
// McpOAuthAuthorizationRequiredError, and /mcp runs the sign-in.
import { createMcpAuthProvider as createAuthProvider } from "./auth-provider.js";
import { PI_CLIENT } from "./client-identity.js";

export { McpOAuthCredentialStore } from "./credential-store.js";
export { McpOAuthAuthorizationRequiredError, McpRefreshLockBusyError, McpSignInCancelledError } from "./errors.js";
export { signInMcpServer } from "./sign-in.js";

/** The auth provider of a connection, identifying as pi. */
export const createMcpAuthProvider = (options) => createAuthProvider({ ...options, ...PI_CLIENT });
