// How the authorization response reaches pi: the loopback callback server
// the browser is redirected to, or the redirect URL the user pastes from
// the browser's address bar (when the browser runs on another machine),
// whichever comes first.
import { OAuthCallbackServer } from "./callback-server.js";
import { loopbackSettings, offersClientMetadataDocument, registeredRedirectUrls, serverSpecificPath } from "./client-identity.js";
import { McpSignInCancelledError } from "./errors.js";
import { cancellable } from "./cancellation.js";

/**
 * Starts the callback server where the settings say (`callbackUrl`,
 * `callbackPort`), else on the port of the stored client's redirect URI (so
 * that client stays valid) or a free one. Close it when the sign-in ends.
 */
export async function listenForLoopbackSignIn(options) {
  const { settings } = options;
  const loopback = loopbackSettings(settings);
  const registered = registeredRedirectUrls((await options.store.load())?.clientInformation)[0];
  const port = loopback.port ?? (registered ? Number(new URL(registered).port) || undefined : undefined);
  const offersDocument = offersClientMetadataDocument(settings, options.clientMetadataDocuments, loopback.url);
  const listenOptions = {
    host: loopback.host,
    redirectHost: loopback.redirectHost,
    path: loopback.path,
    // Also the redirect URI of a server-specific metadata document.
    extraPaths: offersDocument ? [serverSpecificPath(loopback.path, options.serverUrl)] : [],
    renderPage: options.renderPage,
  };
  let callback;
  try {
    callback = await OAuthCallbackServer.listen({ ...listenOptions, port: port ?? 0 });
  } catch (error) {
    // A configured port is required; the stored client's is only preferred.
    if (loopback.port !== undefined || port === undefined) throw error;
    callback = await OAuthCallbackServer.listen(listenOptions);
  }
  return { callback, redirectUrl: loopback.fixedRedirectUrl ?? callback.redirectUrl };
}

/**
 * The authorization response in a URL the user pasted. It must be on the
 * sign-in's redirect URI, carry its `state`, and not report an error.
 */
export function responseFromRedirectUrl(input, authorization) {
  let url;
  try {
    url = new URL(input.trim());
  } catch {
    throw new Error("Expected the full redirect URL from the browser address bar");
  }
  const redirectUrl = new URL(authorization.redirectUrl);
  // A server-specific redirect URI tells authorization servers apart: it must match exactly.
  if (url.origin !== redirectUrl.origin || url.pathname !== redirectUrl.pathname) {
    throw new Error("The redirect URL does not match this sign-in's redirect URI");
  }
  const error = url.searchParams.get("error");
  if (error) throw new Error(url.searchParams.get("error_description") ?? error);
  const state = url.searchParams.get("state");
  if (state !== authorization.state) throw new Error("The redirect URL belongs to a different sign-in");
  const code = url.searchParams.get("code");
  if (!code) throw new Error("The redirect URL does not contain an authorization code");
  const iss = url.searchParams.get("iss");
  return { code, state, ...(iss ? { iss } : {}) };
}

/** Waits for the browser's callback or the user's pasted URL; aborting `signal` cancels. */
export async function waitForLoopbackSignIn({ callback, authorization, promptForRedirectUrl, signal: outer }) {
  const controller = new AbortController();
  const signal = outer ? AbortSignal.any([controller.signal, outer]) : controller.signal;
  const fromBrowser = callback.waitForCallback(authorization.state, new URL(authorization.redirectUrl).pathname);
  const fromUser = promptForRedirectUrl
    ? promptForRedirectUrl(signal).then((input) => {
        if (!input?.trim()) throw new McpSignInCancelledError();
        return responseFromRedirectUrl(input, authorization);
      })
    : new Promise((_, reject) => {
        signal.addEventListener("abort", () => reject(new McpSignInCancelledError()), { once: true });
      });
  try {
    return await cancellable(outer, () => Promise.race([fromBrowser, fromUser]));
  } finally {
    // The losing side fails once the prompt is aborted or the server closes.
    controller.abort();
    fromBrowser.catch(() => undefined);
    fromUser.catch(() => undefined);
  }
}
