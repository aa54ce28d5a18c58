// Refreshing stored tokens outside a sign-in, as connections do when the
// access token expired or was refused. Never registers a client nor
// prepares a browser step, so a pending sign-in stays usable. Called with
// the store's refresh lock held, and not cancellable: an answered refresh
// may have rotated the refresh token, so its answer must be saved.
import { authorizeMcp } from "./authorization-flow.js";
import { createOAuthServerState, DEFAULT_REDIRECT_URL, loopbackSettings, registeredRedirectUrls, timedFetch } from "./client-identity.js";

/** "AUTHORIZED" when refreshed tokens were saved, "REDIRECT" when the user has to sign in. */
export async function refreshStoredTokens(client, storedState, options = {}) {
  // No browser is involved: the redirect URI only decides whether tokens of a metadata document can be
  // refreshed with that document, so any URI the documents list does.
  const candidates = [options.redirectUrl, loopbackSettings(client.settings).fixedRedirectUrl, registeredRedirectUrls(storedState.clientInformation)[0]].filter(
    (url) => url !== undefined,
  );
  const redirectUrl = candidates.find((url) => client.clientMetadataDocuments?.listsRedirectUrl(url)) ?? DEFAULT_REDIRECT_URL;
  return authorizeMcp(createOAuthServerState(client, redirectUrl), {
    serverUrl: client.serverUrl,
    resourceMetadataUrl: options.challenge?.resourceMetadataUrl,
    authorizationServerMetadataUrl: client.settings.authServerMetadataUrl,
    fetch: timedFetch(options.fetch),
    refreshOnly: true,
  });
}
