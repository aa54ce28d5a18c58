// The auth provider of a connection to an OAuth server: it sends the stored
// access token, refreshes it shortly before it expires or after a 401, and
// never opens a browser. When the user has to sign in (no refresh token, a
// refused refresh, a request for more scope) requests fail with
// McpOAuthAuthorizationRequiredError, and the user signs in with /mcp.
//
// Many servers rotate refresh tokens, so two refreshes with one token lose
// the grant: requests of this process share one refresh, other processes
// are kept out by the store's refresh lock, and tokens that changed
// meanwhile are used as they are.
import { parseWwwAuthenticate } from "./challenge.js";
import { McpOAuthAuthorizationRequiredError } from "./errors.js";
import { refreshStoredTokens } from "./token-refresh.js";

/** Tokens this close to expiring are refreshed before they are sent. */
const REFRESH_MARGIN_MS = 30_000;

/**
 * `serverUrl`, `store` (from the credential store's forServer), `settings()`
 * (the config's oauth settings, read only when refreshing), `onChallenge`,
 * and the client identity (`clientName`, `clientMetadataDocuments`).
 */
export function createMcpAuthProvider(options) {
  const { store } = options;
  let refreshing;
  /** Replaces `staleToken`, the token that expired or was refused. */
  const refresh = (staleToken, fetch = globalThis.fetch, challenge) => {
    refreshing ??= store
      .withRefreshLock(async () => {
        const state = await store.load();
        if (state?.tokens?.access_token !== staleToken) return;
        if (!state?.tokens?.refresh_token) throw new McpOAuthAuthorizationRequiredError();
        const outcome = await refreshStoredTokens({ ...options, settings: options.settings() }, state, { fetch, challenge, redirectUrl: options.redirectUrl });
        if (outcome === "REDIRECT") throw new McpOAuthAuthorizationRequiredError();
      })
      .finally(() => {
        refreshing = undefined;
      });
    return refreshing;
  };
  return {
    async token() {
      await refreshing?.catch(() => undefined);
      const state = await store.load();
      const token = state?.tokens?.access_token;
      const expired = state?.tokensExpireAt !== undefined && state.tokensExpireAt - REFRESH_MARGIN_MS <= Date.now();
      if (!expired || !state?.tokens?.refresh_token) return token;
      // A failed refresh sends the old token; the server's answer decides.
      await refresh(token).catch(() => undefined);
      return (await store.load())?.tokens?.access_token;
    },
    async onUnauthorized(context) {
      const challenge = parseWwwAuthenticate(context.response.headers.get("www-authenticate"));
      options.onChallenge?.(challenge);
      // A refresh keeps the granted scope: more scope takes a new sign-in.
      if (challenge.error === "insufficient_scope") throw new McpOAuthAuthorizationRequiredError();
      await refresh(context.token, context.fetch, challenge);
    },
    async settled() {
      await refreshing?.catch(() => undefined);
    },
  };
}
