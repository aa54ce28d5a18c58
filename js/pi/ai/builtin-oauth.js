// The OAuth side of pi-ai's built-in providers. pi's login and refresh
// flows open a browser or run a device-code exchange behind a local
// callback server; pihost has none of them yet, so those two fail when
// called. Turning a stored token that is still valid into request auth
// needs no flow at all, so it works as in pi and a credential pi stored
// keeps serving requests until it expires.
import { lazyOAuth } from "./provider-auth.js";

const COPILOT_DEFAULT_BASE_URL = "https://api.individual.githubcopilot.com";

function notBuilt(flow, step) {
  return async () => {
    throw new Error(`pihost: the ${flow} OAuth ${step} is not implemented yet`);
  };
}

/** Most vendors take the access token where an API key goes. */
const accessAsApiKey = (credential) => ({ apiKey: credential.access });

/**
 * A provider's OAuth method: pi's name, subscription flag and login label
 * (`input`), with `toAuth` deriving request auth from a stored credential.
 * Built through lazyOAuth so the method has exactly pi's shape.
 */
export function builtinOAuth({ flow, toAuth = accessAsApiKey, ...input }) {
  const standIn = {
    login: notBuilt(flow, "login"),
    refresh: notBuilt(flow, "refresh"),
    toAuth: async (credential) => toAuth(credential),
  };
  return lazyOAuth({ ...input, load: async () => standIn });
}

/** Kimi Code wants its token as a bearer header, not as an API key. */
export const kimiBearerAuth = (credential) => ({ headers: { Authorization: `Bearer ${credential.access}` } });

function hostnameOf(value) {
  const trimmed = value.trim();
  if (!trimmed) return undefined;
  try {
    return new URL(trimmed.includes("://") ? trimmed : `https://${trimmed}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * Copilot's token names the proxy that serves the account
 * (`…;proxy-ep=proxy.<host>;…`), whose API lives on `api.<host>`; without
 * one, an enterprise login's domain, else the individual endpoint.
 */
export function copilotAuth(credential) {
  const token = credential.access;
  const proxy = token ? /proxy-ep=([^;]+)/.exec(token)?.[1] : undefined;
  let baseUrl;
  if (proxy) {
    baseUrl = `https://${proxy.replace(/^proxy\./, "api.")}`;
  } else {
    const enterprise = typeof credential.enterpriseUrl === "string" && credential.enterpriseUrl ? hostnameOf(credential.enterpriseUrl) : undefined;
    baseUrl = enterprise ? `https://copilot-api.${enterprise}` : COPILOT_DEFAULT_BASE_URL;
  }
  return { apiKey: token, baseUrl };
}
