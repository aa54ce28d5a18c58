// Signing in to an OAuth MCP server, in two halves: `startMcpSignIn`
// refreshes the stored tokens when it can, else prepares the browser step
// and returns the authorization URL; `completeMcpSignIn` exchanges the code
// the browser brought back. `signInMcpServer` is pi's whole sign-in: a
// loopback callback, the URL shown to the user (who may instead paste the
// URL the browser was redirected to), then the exchange.
import { authorizeMcp, stepUpScope } from "./authorization-flow.js";
import { listenForLoopbackSignIn, waitForLoopbackSignIn } from "./loopback.js";
import { createOAuthServerState, offersClientMetadataDocument, PI_CLIENT, registeredRedirectUrls, timedFetch } from "./client-identity.js";
import { cancellable, untilAborted } from "./cancellation.js";
import { McpRefreshLockBusyError, McpSignInCancelledError } from "./errors.js";
import { refreshStoredTokens } from "./token-refresh.js";

/** The `authorizeMcp` options of a sign-in, without the scope. */
const flowOptions = (options) => ({
  serverUrl: options.serverUrl,
  fetch: timedFetch(),
  signal: options.signal,
  resourceMetadataUrl: options.challenge?.resourceMetadataUrl,
  authorizationServerMetadataUrl: options.settings.authServerMetadataUrl,
});

/** Each scope of the lists once; undefined when there are none. */
function mergeScopes(...lists) {
  const merged = [...new Set(lists.flatMap((scope) => scope?.split(/\s+/).filter(Boolean) ?? []))];
  return merged.length > 0 ? merged.join(" ") : undefined;
}

/** Refreshes the stored tokens under the refresh lock, unless `cimd` is to replace a registered client. */
async function refreshFirst(options) {
  const { store, settings, challenge, redirectUrl, signal } = options;
  const refreshed = store.withRefreshLock(async () => {
    // The lock may come after the sign-in was cancelled: return at once so it is released.
    if (signal?.aborted) return "REDIRECT";
    const state = await store.load();
    if (!state?.tokens?.refresh_token) return "REDIRECT";
    if (settings.clientRegistration === "cimd" && state.clientInformation && !settings.clientId) return "REDIRECT";
    return refreshStoredTokens(options, state, { challenge, redirectUrl });
  });
  try {
    return await untilAborted(signal, refreshed);
  } catch (error) {
    // Another process is refreshing and took too long: the user signs in instead.
    if (error instanceof McpRefreshLockBusyError) return "REDIRECT";
    throw error;
  }
}

/**
 * The stored state for a browser step: without the last sign-in's `state`,
 * and without a client (and its tokens) that cannot use the redirect URI.
 * `cimd` replaces a registered client, `auto` keeps it; tokens without a
 * stored client belong to a metadata document.
 */
function stateForBrowserStep(stored, options) {
  const { settings, redirectUrl } = options;
  const next = { ...stored };
  delete next.oauthState;
  const keepClient =
    settings.clientId ||
    (stored.clientInformation
      ? settings.clientRegistration !== "cimd" && registeredRedirectUrls(stored.clientInformation).includes(redirectUrl)
      : offersClientMetadataDocument(settings, options.clientMetadataDocuments, redirectUrl));
  if (!keepClient) {
    delete next.clientInformation;
    delete next.tokens;
    delete next.tokensExpireAt;
  }
  return next;
}

async function prepareBrowserStep(options, stepUp) {
  const { store, settings, redirectUrl, challenge } = options;
  const stored = await store.load();
  if (stored) await store.save(stateForBrowserStep(stored, options));
  let authorizationUrl;
  const state = createOAuthServerState(options, redirectUrl, (url) => {
    authorizationUrl = url;
  });
  // More scope is asked for on top of the configured scope and of what was granted so far.
  const scope = mergeScopes(settings.scope, stepUp ? stepUpScope(stored?.tokens?.scope, challenge?.scope) : challenge?.scope);
  await authorizeMcp(state, { ...flowOptions(options), scope, skipRefresh: true });
  if (!authorizationUrl) throw new Error("OAuth flow did not produce an authorization URL");
  const requestedScope = authorizationUrl.searchParams.get("scope");
  return {
    kind: "redirect",
    authorizationUrl: authorizationUrl.href,
    // The flow picks the redirect URI, which may be specific to the MCP server.
    redirectUrl: authorizationUrl.searchParams.get("redirect_uri") ?? redirectUrl,
    state: await state.state(),
    ...(requestedScope ? { scope: requestedScope } : {}),
  };
}

/**
 * First half: `{ kind: "authorized" }` when a refresh did it, else
 * `{ kind: "redirect", authorizationUrl, redirectUrl, state, scope? }`.
 * A server asking for more scope (`insufficient_scope`) always gets the
 * browser step, since a refresh keeps the granted scope.
 */
export async function startMcpSignIn(options) {
  if (options.signal?.aborted) throw new McpSignInCancelledError();
  const stepUp = options.challenge?.error === "insufficient_scope";
  if (!stepUp && (await refreshFirst(options)) === "AUTHORIZED") return { kind: "authorized" };
  return cancellable(options.signal, () => prepareBrowserStep(options, stepUp));
}

/**
 * Second half: exchanges `response.code` and saves the tokens. Fails for
 * another sign-in's response, when another sign-in started since (its
 * verifier replaced ours), or when the redirect URI would differ.
 */
export async function completeMcpSignIn(options) {
  await cancellable(options.signal, async () => {
    const { authorization, response } = options;
    if (response.state !== authorization.state) throw new Error("The authorization response belongs to a different sign-in");
    if ((await options.store.load())?.oauthState !== authorization.state) throw new Error("Another sign-in to this MCP server started since; sign in again");
    await authorizeMcp(createOAuthServerState(options, options.redirectUrl), {
      ...flowOptions(options),
      // Saved with tokens whose response names no scope, so it must be the one asked for.
      scope: authorization.scope,
      authorizationRedirectUrl: authorization.redirectUrl,
      authorizationCode: response.code,
      iss: response.iss,
    });
  });
}

const escapeHtml = (text) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");

/** The page the browser shows after the redirect. */
function callbackPage(page) {
  const title = page.ok ? "Authentication successful" : "Authentication failed";
  const message = page.ok ? "Signed in to the MCP server. You may now close this page." : page.message;
  const details = !page.ok && page.details ? `<pre>${escapeHtml(page.details)}</pre>` : "";
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" /><title>${title}</title></head>
<body style="font-family: system-ui, sans-serif; text-align: center; padding: 48px;">
<h1>${title}</h1>
<p>${escapeHtml(message)}</p>
${details}
</body>
</html>`;
}

/**
 * Signs in to the server at `serverUrl`, keeping what it gets in `store`:
 * with the stored refresh token when that works, else through the browser
 * (`prompt.showAuthorizationUrl(url)`, `prompt.promptForRedirectUrl(signal)`).
 * Aborting `signal` stops it at any step with McpSignInCancelledError.
 */
export async function signInMcpServer({ serverUrl, store, settings, challenge, prompt, signal }) {
  const { callback, redirectUrl } = await listenForLoopbackSignIn({
    serverUrl,
    store,
    settings,
    clientMetadataDocuments: PI_CLIENT.clientMetadataDocuments,
    renderPage: callbackPage,
  });
  try {
    const signIn = { serverUrl, store, settings, redirectUrl, challenge, signal, ...PI_CLIENT };
    const authorization = await startMcpSignIn(signIn);
    if (authorization.kind === "authorized") return;
    prompt.showAuthorizationUrl(new URL(authorization.authorizationUrl));
    const response = await waitForLoopbackSignIn({
      callback,
      authorization,
      promptForRedirectUrl: (promptSignal) => prompt.promptForRedirectUrl(promptSignal),
      signal,
    });
    await completeMcpSignIn({ ...signIn, authorization, response });
  } finally {
    await callback.close();
  }
}
