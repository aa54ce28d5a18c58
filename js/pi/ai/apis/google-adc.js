// Google application default credentials, as pi's Vertex api gets them
// through Google's auth library: a credentials file (named by the caller or
// GOOGLE_APPLICATION_CREDENTIALS, else gcloud's well-known one) or the
// metadata server of a Google Cloud machine, turned into an access token
// for the cloud-platform scope. Each request gets its own token, as pi makes
// a new client per request.
import { createSign } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { extname, join, resolve } from "node:path";
import { hostEnv } from "../../host-env.js";

const SCOPE = "https://www.googleapis.com/auth/cloud-platform";
// Google's library sends every token request here, whatever the file's token_uri says.
const TOKEN_URL = "https://oauth2.googleapis.com/token";
const AUTH_LIBRARY_VERSION = "10.9.1";
const NO_ADC_FOUND =
  "Could not load the default credentials. Browse to https://cloud.google.com/docs/authentication/getting-started for more information.";
const METADATA_PRIMARY = "http://169.254.169.254";
const METADATA_SECONDARY = "http://metadata.google.internal.";
// What Google's library sends to the metadata server under Node (node-fetch names itself).
const METADATA_HEADERS = { Accept: "*/*", "User-Agent": "node-fetch", "Metadata-Flavor": "Google" };

function base64Url(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
}

/** The RS256 JWT a service account exchanges for a token: its claims in the order Google's library writes them. */
function signedAssertion(clientEmail, privateKey) {
  const iat = Math.floor(Date.now() / 1000);
  const claims = { iss: clientEmail, scope: SCOPE, aud: TOKEN_URL, exp: iat + 3600, iat };
  const unsigned = `${base64Url(JSON.stringify({ alg: "RS256" }))}.${base64Url(JSON.stringify(claims))}`;
  const signer = createSign("RSA-SHA256");
  signer.update(unsigned);
  const signature = signer.sign(privateKey, "base64").replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
  return `${unsigned}.${signature}`;
}

/** The token request's headers; `accept` is JSON for a service account's exchange (its client asks for JSON). */
function authLibraryHeaders(accept) {
  const nodeVersion = String(globalThis.process?.version ?? "").replace(/^v/, "");
  return {
    "Content-Type": "application/x-www-form-urlencoded;charset=UTF-8",
    Accept: accept,
    "x-goog-api-client": `gl-node/${nodeVersion}`,
    "User-Agent": `google-api-nodejs-client/${AUTH_LIBRARY_VERSION}`,
  };
}

/** POSTs a token form; a refusal reads "<error>: <error_description>", as Google's library words it. */
async function exchangeForToken(form, accept) {
  const response = await globalThis.fetch(TOKEN_URL, { method: "POST", headers: authLibraryHeaders(accept), body: new URLSearchParams(form).toString() });
  const text = await response.text();
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    data = text;
  }
  if (!response.ok) {
    if (data && typeof data === "object" && data.error) throw new Error(`${data.error}: ${data.error_description}`);
    throw new Error(`Request failed with status code ${response.status}`);
  }
  return data;
}

function bearer(tokens) {
  return `${tokens.token_type || "Bearer"} ${tokens.access_token}`;
}

function withQuotaProject(headers, quotaProjectId) {
  if (quotaProjectId) headers.push(["x-goog-user-project", quotaProjectId]);
  return headers;
}

/** GOOGLE_CLOUD_QUOTA_PROJECT overrides the credentials' own quota project, on the default search only. */
function withQuotaOverride(headers) {
  const quota = hostEnv().GOOGLE_CLOUD_QUOTA_PROJECT;
  if (!quota) return headers;
  return withQuotaProject(headers.filter(([name]) => name !== "x-goog-user-project"), quota);
}

async function serviceAccountHeaders(clientEmail, privateKey, quotaProjectId) {
  const tokens = await exchangeForToken({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion: signedAssertion(clientEmail, privateKey) }, "application/json");
  return withQuotaProject([["authorization", bearer(tokens)]], quotaProjectId);
}

async function authorizedUserHeaders(json) {
  const tokens = await exchangeForToken({
    refresh_token: json.refresh_token,
    client_id: json.client_id,
    client_secret: json.client_secret,
    grant_type: "refresh_token",
  }, "*/*");
  return withQuotaProject([["authorization", bearer(tokens)]], json.quota_project_id);
}

const UNSUPPORTED_TYPES = new Set(["impersonated_service_account", "external_account", "external_account_authorized_user", "gdch_service_account"]);

/** The client Google's library makes of a credentials object, checked as it checks them. */
function clientFromJson(json) {
  if (UNSUPPORTED_TYPES.has(json.type)) {
    throw new Error(`pihost: Google credentials of type "${json.type}" are not supported; use a service account or gcloud user credentials`);
  }
  if (json.type === "authorized_user") {
    if (!json.client_id) throw new Error("The incoming JSON object does not contain a client_id field");
    if (!json.client_secret) throw new Error("The incoming JSON object does not contain a client_secret field");
    if (!json.refresh_token) throw new Error("The incoming JSON object does not contain a refresh_token field");
    return () => authorizedUserHeaders(json);
  }
  if (!json.client_email) throw new Error("The incoming JSON object does not contain a client_email field");
  if (!json.private_key) throw new Error("The incoming JSON object does not contain a private_key field");
  return () => serviceAccountHeaders(json.client_email, json.private_key, json.quota_project_id);
}

/**
 * A file the caller named: read as credentials JSON; a file that is not
 * usable as such is then taken as a service-account key file by its
 * extension, which is where Google's library reports it.
 */
async function clientFromKeyFile(keyFilename) {
  const path = resolve(keyFilename);
  const text = await readFile(path, "utf8");
  try {
    return clientFromJson(JSON.parse(text));
  } catch (error) {
    if (String(error?.message).startsWith("pihost:")) throw error;
    return keyFileClient(path);
  }
}

function keyFileClient(path) {
  return async () => {
    const extension = extname(path);
    if (extension === ".json") {
      let body;
      try {
        body = JSON.parse(await readFile(path, "utf8"));
      } catch (error) {
        throw new Error(`Invalid JSON key file: ${error.message}`);
      }
      if (!body.private_key || !body.client_email) throw new Error("private_key and client_email are required.");
      return await serviceAccountHeaders(body.client_email, body.private_key);
    }
    if (extension === ".p12" || extension === ".pfx") {
      throw new Error("*.p12 certificates are not supported after v6.1.2. Consider utilizing *.json format or converting *.p12 to *.pem using the OpenSSL CLI.");
    }
    if (extension === ".der" || extension === ".crt" || extension === ".pem") {
      throw new Error(`pihost: a bare ${extension} key file has no service account email to sign for; use the service account's JSON key file`);
    }
    throw new Error("Unknown certificate type. Type is determined based on file extension. Current supported extensions are *.json, and *.pem.");
  };
}

function wellKnownCredentialsPath() {
  const env = hostEnv();
  let configDir = env.CLOUDSDK_CONFIG;
  if (!configDir) {
    if (globalThis.process?.platform === "win32") {
      if (env.APPDATA) configDir = join(env.APPDATA, "gcloud");
    } else if (env.HOME) {
      configDir = join(env.HOME, ".config", "gcloud");
    }
  }
  return configDir ? join(configDir, "application_default_credentials.json") : undefined;
}

// --- the metadata server -------------------------------------------------------

function metadataBase(host) {
  let base = host ?? (hostEnv().GCE_METADATA_IP || hostEnv().GCE_METADATA_HOST || METADATA_PRIMARY);
  if (!/^https?:\/\//.test(base)) base = `http://${base}`;
  return new URL("/computeMetadata/v1", base).href;
}

async function metadataGet(key, { host, params } = {}) {
  const url = new URL(`${metadataBase(host)}/${key}`);
  for (const [name, value] of Object.entries(params ?? {})) url.searchParams.set(name, value);
  const response = await globalThis.fetch(url.toString(), { headers: METADATA_HEADERS });
  if (!response.ok) {
    const error = new Error(`Request failed with status code ${response.status}`);
    error.status = response.status;
    throw error;
  }
  const flavor = response.headers.get("Metadata-Flavor");
  if (flavor !== "Google") {
    throw new RangeError(`Invalid response from metadata service: incorrect Metadata-Flavor header. Expected 'Google', got ${flavor ? `'${flavor}'` : "no header"}`);
  }
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Whether this looks like a Google Cloud machine without asking the network (serverless variables, the BIOS). */
function onGoogleCloud() {
  const env = hostEnv();
  if (env.CLOUD_RUN_JOB || env.FUNCTION_NAME || env.K_SERVICE) return true;
  if (globalThis.process?.platform !== "linux") return false;
  try {
    statSync("/sys/class/dmi/id/bios_date");
    return /Google/.test(readFileSync("/sys/class/dmi/id/bios_vendor", "utf8"));
  } catch {
    return false;
  }
}

// One probe per process, as Google's library shares its answer between clients.
let metadataProbe;

async function metadataServerAvailable() {
  const detection = hostEnv().METADATA_SERVER_DETECTION?.trim().toLowerCase();
  if (detection) {
    const modes = ["assume-present", "none", "bios-only", "ping-only"];
    if (!modes.includes(detection)) {
      throw new RangeError(`Unknown \`METADATA_SERVER_DETECTION\` env variable. Got \`${detection}\`, but it should be \`${modes.join("`, `")}\`, or unset`);
    }
    if (detection === "assume-present") return true;
    if (detection === "none") return false;
    if (detection === "bios-only") return onGoogleCloud();
  } else if (onGoogleCloud()) {
    return true;
  }
  const overridden = Boolean(hostEnv().GCE_METADATA_IP || hostEnv().GCE_METADATA_HOST);
  metadataProbe ??= overridden ? metadataGet("instance") : Promise.any([metadataGet("instance"), metadataGet("instance", { host: METADATA_SECONDARY })]);
  try {
    await metadataProbe;
    return true;
  } catch {
    return false;
  }
}

async function metadataServerHeaders() {
  let tokens;
  try {
    tokens = await metadataGet("instance/service-accounts/default/token", { params: { scopes: SCOPE } });
  } catch (error) {
    if (error instanceof RangeError) throw error;
    throw new Error(`Could not refresh access token: ${error.message}`);
  }
  return withQuotaProject([["authorization", bearer(tokens)]]);
}

/**
 * The auth headers of application default credentials, as [name, value]
 * pairs: from `keyFilename` when given, else gcloud's well-known file, else
 * the metadata server.
 */
export async function applicationDefaultHeaders({ keyFilename }) {
  if (keyFilename) return await (await clientFromKeyFile(keyFilename))();
  const wellKnown = wellKnownCredentialsPath();
  if (wellKnown && existsSync(wellKnown)) {
    return withQuotaOverride(await clientFromJson(JSON.parse(await readFile(wellKnown, "utf8")))());
  }
  if (await metadataServerAvailable()) return withQuotaOverride(await metadataServerHeaders());
  throw new Error(NO_ADC_FOUND);
}
