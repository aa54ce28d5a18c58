// pi-ai's Radius provider (radiusProvider of pi-ai/providers/all): pi's own
// gateway, speaking pi-messages. Its catalog is per account, so unlike the
// other built-in providers it keeps a dynamic model list: restored from the
// models store, fetched from the gateway's /v1/config, and replacing (not
// overlaying) the shipped list once known, because an organisation may
// have switched models off.
import { piMessagesApi } from "./builtin-apis.js";
import { builtinOAuth } from "./builtin-oauth.js";
import { getBuiltinModels } from "./catalog.js";
import { envApiKeyAuth } from "./provider-auth.js";

const DEFAULT_GATEWAY = "https://radius.pi.dev";
// An error quotes at most this much of a failed response's body.
const ERROR_BODY_LIMIT = 512;

/** `value` with https:// when it names no scheme, without trailing slashes. */
function normalizeGateway(value) {
  const withScheme = /^https?:\/\//i.test(value) ? value : `https://${value}`;
  return withScheme.replace(/\/+$/, "");
}

const isRecord = (value) => typeof value === "object" && value !== null && !Array.isArray(value);

/** The gateway's model entries are trusted only as far as this shape. */
function isGatewayModel(model) {
  return (
    isRecord(model) &&
    typeof model.id === "string" &&
    typeof model.name === "string" &&
    typeof model.reasoning === "boolean" &&
    Array.isArray(model.input) &&
    isRecord(model.cost) &&
    typeof model.contextWindow === "number" &&
    typeof model.maxTokens === "number"
  );
}

/** `{ baseUrl, models }` from a gateway's config, malformed models left out; undefined when the config itself is malformed. */
function readGatewayConfig(config) {
  if (!isRecord(config)) return undefined;
  const { baseUrl, models } = config;
  if (typeof baseUrl !== "string" || !Array.isArray(models)) return undefined;
  return { baseUrl, models: models.filter(isGatewayModel).map((model) => ({ ...model })) };
}

function modelsOfConfig(providerId, config) {
  return config.models.map((model) => ({ ...model, api: "pi-messages", provider: providerId, baseUrl: config.baseUrl }));
}

function quoteBody(body) {
  const trimmed = body.trim();
  return trimmed.length > ERROR_BODY_LIMIT ? `${trimmed.slice(0, ERROR_BODY_LIMIT)}…` : trimmed;
}

async function fetchGatewayConfig(gateway, apiKey, signal) {
  const headers = { accept: "application/json" };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  const response = await fetch(new URL("/v1/config", gateway), { headers, signal });
  if (!response.ok) {
    throw new Error(`Could not load Radius config from ${gateway}: ${response.status}: ${quoteBody(await response.text())}`);
  }
  const config = readGatewayConfig(await response.json());
  if (!config) throw new Error(`Invalid Radius config from ${gateway}`);
  return config;
}

/** A Radius gateway's provider: `options.id` (default "radius"), `options.name` ("Radius") and `options.gateway` (pi's). */
export function radiusProvider(options = {}) {
  const id = options.id ?? "radius";
  const name = options.name ?? "Radius";
  const gateway = normalizeGateway(options.gateway ?? DEFAULT_GATEWAY);
  // The shipped list describes pi's own gateway; another gateway has none until it is asked.
  const shipped = gateway === normalizeGateway(DEFAULT_GATEWAY) ? getBuiltinModels("radius").map((model) => ({ ...model, provider: id })) : [];
  let known;
  const streams = piMessagesApi();
  return {
    id,
    name,
    auth: {
      apiKey: envApiKeyAuth("Radius API key", ["RADIUS_API_KEY"]),
      oauth: builtinOAuth({ flow: `${name} (${gateway})`, name }),
    },
    getModels: () => known ?? shipped,
    refreshModels: async (context) => {
      const { stored, credential, signal } = context;
      if (stored) {
        const restored = stored.models.filter((model) => model.provider === id);
        if (!(await context.publish({ update: () => (known = restored) }))) return;
      }
      // Radius logins from before the models store kept the catalog in the credential; move it over once.
      if (!stored && credential?.type === "oauth") {
        const config = readGatewayConfig(credential.gatewayConfig);
        const legacy = config ? modelsOfConfig(id, config) : [];
        if (legacy.length > 0) {
          const moved = await context.publish({ persist: { models: legacy, checkedAt: Date.now() }, update: () => (known = legacy) });
          if (!moved) return;
        }
      }
      if (!context.allowNetwork || signal.aborted) return;
      const apiKey = credential?.type === "oauth" ? credential.access : credential?.key;
      const config = await fetchGatewayConfig(gateway, apiKey, signal);
      if (signal.aborted) return;
      const fetched = modelsOfConfig(id, config);
      await context.publish({ persist: { models: fetched, checkedAt: Date.now() }, update: () => (known = fetched) });
    },
    stream: (model, context, streamOptions) => streams.stream(model, context, streamOptions),
    streamSimple: (model, context, streamOptions) => streams.streamSimple(model, context, streamOptions),
  };
}
