// Cases for pi-ai's google-vertex api (streamGoogleVertex, …) against the
// provider cases' local recording server: with an API key, and with
// application default credentials (a service-account file whose signed
// JWT is exchanged for a token, and the metadata server). Google's token
// endpoint is a fixed https address in pi's auth library, so the cases
// send requests for it to the local server instead: node:https requests
// (what pi's library uses under Node) and fetch (what pihost uses).
import {
  abortMidway,
  exchange,
  GOOGLE_USAGE,
  googleChunk,
  googleReply,
  historyContext,
  maskGeneratedIds,
  SIMPLE,
  TOOLS,
} from "./pi-ai-provider-cases.mjs";

const TOKEN_HOST = "oauth2.googleapis.com";

// A throwaway RSA key, made for these cases only.
const TEST_PRIVATE_KEY =
  "-----BEGIN PRIVATE KEY-----\nMIICeAIBADANBgkqhkiG9w0BAQEFAASCAmIwggJeAgEAAoGBAO+GjsFfmRmeKvgI\n1dKbuoaoqwexOgnQKk9a629CY7YykAE4JDUFzkvs/mTcaIaQU76r/1cgf914Gn9M\nIP8sXw/OogAHDFJHBF1zxuGGfBLGjnudxLksMu85Sv7XIocn/ruky4qRdFGvp+5B\n11K7lh5QqrlztafQUWs9pG6C1mW7AgMBAAECgYEAvflAAjkbSck8FUuUo5zl/OWL\n+ObkvGHBHP1km/LQ+PHzazQm63L2YxvNzRtPP+L6uNDcDTN2lqYqhepQhXKg1XTN\nFbCekx6sFg+fpRt4Hd9cu6B0U6EOD8ILoOfmCVakLqJIfJMwf69JC7ifG3rwRMhj\ngn7YUxl8OE26cwaMv+ECQQD9JPQD4QKXzQx0VMH56acysBlBiRYvgDaFgoY47dkI\nu7Clg5ARYNSdi9OpwVvD489WxvVeV1+Drn+mY33SE7ORAkEA8jpGf74UWxrTgjKp\nAJDljeqN2kVChJjU0umbdI9JEjpD395WKElVvX+cIT/uQoOxsiKOYjwT/wBC27um\nQMaGiwJBAM3G7j0A+fSgEFG4XH5kuy9vCvjFES3H0YoyEh3Q6q44tF23VrNpvSvc\ncFD8BzZzxyXJUchAyjnm7Yk6MxtEPKECQQC4HG07aSmlubUsD/9+y6N/g9mAHwaZ\nLGUPTrp3FPWwYhL3FNKd2mfOGjF84E/jxJ+Ky1M3/XwhZXxr8axDLeJTAkBucW8Z\ndi4kJ3oLci2NCgISZA1y937GAMaR0lgEocbJNtb1MfrtlVwUV0t7X1n5Gwz6YzM0\ni5vhAz8PQJqGygA9\n-----END PRIVATE KEY-----\n";

const JSON_HEADERS = { "content-type": "application/json" };

/** Sends requests for Google's token endpoint to `url` (the local server); returns what undoes that. */
async function redirectTokenEndpointTo(url) {
  const target = new URL(url);
  const redirect = (address) => {
    const parsed = new URL(String(address));
    if (parsed.hostname !== TOKEN_HOST) return undefined;
    return `${target.origin}${parsed.pathname}${parsed.search}`;
  };
  const originalFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const address = typeof input === "string" || input instanceof URL ? input : input.url;
    const moved = redirect(address);
    return originalFetch(moved ?? input, init);
  };
  let https;
  let http;
  let originalRequest;
  try {
    https = (await import("node:https")).default;
    http = (await import("node:http")).default;
    originalRequest = https.request;
    https.request = (address, options, callback) => {
      const moved = typeof address === "string" || address instanceof URL ? redirect(address) : undefined;
      if (moved === undefined) return originalRequest.call(https, address, options, callback);
      const { agent: _agent, ...rest } = options ?? {};
      return http.request(moved, rest, callback);
    };
  } catch {
    // An engine without node:https sends nothing through it.
  }
  return () => {
    globalThis.fetch = originalFetch;
    if (https && originalRequest) https.request = originalRequest;
  };
}

function base64UrlBytes(part) {
  const binary = atob(part.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

function base64UrlJson(part) {
  return JSON.parse(new TextDecoder().decode(base64UrlBytes(part)));
}

/** A token request's form body as data: the JWT's header and claims, its times as a lifetime, its signature checked. */
async function reduceTokenRequests(result) {
  const { createPublicKey, createVerify } = await import("node:crypto");
  for (const request of result.requests) {
    // Google's auth library names the engine's version.
    const client = request.headers["x-goog-api-client"];
    if (client?.startsWith("gl-node/")) request.headers["x-goog-api-client"] = "gl-node/<version>";
    if (typeof request.body !== "string" || !request.body.includes("assertion=")) continue;
    const form = Object.fromEntries(new URLSearchParams(request.body));
    const [header, payload, signature] = form.assertion.split(".");
    const claims = base64UrlJson(payload);
    const { iat, exp, ...rest } = claims;
    const verifier = createVerify("RSA-SHA256");
    verifier.update(`${header}.${payload}`);
    const publicKey = createPublicKey(TEST_PRIVATE_KEY);
    const signatureBytes = base64UrlBytes(signature);
    request.body = {
      fields: Object.keys(form),
      grant_type: form.grant_type,
      header: base64UrlJson(header),
      claims: { ...rest, claimOrder: Object.keys(claims), lifetime: exp - iat, iatIsNow: Math.abs(iat * 1000 - Date.now()) < 600_000 },
      signatureValid: verifier.verify(publicKey, signatureBytes),
    };
  }
  return result;
}

/** A scratch directory with `files` (name to JSON value) in it; its path masked in results. */
async function scratchDirectory(files) {
  const fs = await import("node:fs");
  const os = await import("node:os");
  const path = await import("node:path");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pihost-vertex-"));
  for (const [name, value] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), JSON.stringify(value));
  return { dir, join: (name) => path.join(dir, name), remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

function maskPath(result, dir) {
  return JSON.parse(JSON.stringify(result).split(dir).join("<dir>"));
}

const SERVICE_ACCOUNT = {
  type: "service_account",
  project_id: "sa-project",
  private_key_id: "key-1",
  private_key: TEST_PRIVATE_KEY,
  client_email: "robot@sa-project.iam.gserviceaccount.com",
  client_id: "1234",
  token_uri: "https://oauth2.googleapis.com/token",
};

const OK_REPLY = () => googleReply([googleChunk([{ text: "ok" }], { candidates: [{ content: { role: "model", parts: [{ text: "ok" }] }, finishReason: "STOP" }], usageMetadata: GOOGLE_USAGE })]);

/** Sets `values` in the process environment for `run`, putting the old values back after. */
async function withProcessEnv(values, run) {
  const env = globalThis.process?.env ?? {};
  const saved = {};
  for (const [name, value] of Object.entries(values)) {
    saved[name] = env[name];
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  try {
    return await run();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete env[name];
      else env[name] = value;
    }
  }
}

/** Adds the Vertex cases; `ai` is the pi-ai module under test. */
export function addVertexCases(add, ai) {
  const model = (url, id = "gemini-2.5-flash", extra = {}) => ({ ...ai.getModel("google-vertex", id), baseUrl: url, ...extra });
  const key = { apiKey: "v-key" };
  // Nothing from the machine running the cases decides where Vertex goes.
  const cleanEnv = {
    GOOGLE_VERTEX_BASE_URL: undefined,
    GOOGLE_APPLICATION_CREDENTIALS: undefined,
    GOOGLE_CLOUD_QUOTA_PROJECT: undefined,
    GOOGLE_API_KEY: undefined,
    GEMINI_API_KEY: undefined,
    METADATA_SERVER_DETECTION: undefined,
    GCE_METADATA_HOST: undefined,
    GCE_METADATA_IP: undefined,
    CLOUD_RUN_JOB: undefined,
    FUNCTION_NAME: undefined,
    K_SERVICE: undefined,
  };

  add("providers.vertex.apiKeyTextThinkingAndCalls", () =>
    withProcessEnv(cleanEnv, async () =>
      maskGeneratedIds(
        await exchange(
          [
            googleReply([
              googleChunk([{ text: "Pondering", thought: true, thoughtSignature: "c2lnMQ==" }]),
              googleChunk([{ text: "Hello" }]),
              googleChunk([{ functionCall: { name: "read", args: { path: "a.txt" } }, thoughtSignature: "Y2FsbA==" }]),
              googleChunk([], { candidates: [{ content: { role: "model", parts: [] }, finishReason: "STOP", index: 0 }], usageMetadata: GOOGLE_USAGE }),
            ]),
          ],
          (url) => ai.streamSimpleGoogleVertex(model(url), ai.normalizeContext({ ...SIMPLE, tools: TOOLS }), { ...key, reasoning: "medium", temperature: 0.4, headers: { "X-Custom": "v" } }),
        ),
      ),
    ),
  );
  add("providers.vertex.levelsAndBaseUrls", () =>
    withProcessEnv(cleanEnv, async () => {
      const results = [];
      for (const [id, reasoning, toolChoice, suffix] of [
        ["gemini-2.5-flash", undefined, "any", ""],
        ["gemini-2.5-flash-lite", "minimal", undefined, "/v1"],
        ["gemini-3.1-pro-preview", "high", undefined, "/v1beta1/"],
        ["gemini-2.5-pro", "minimal", "auto", "/custom"],
        ["gemini-3-flash-preview", undefined, "none", ""],
        ["gemini-4-hydrogen", "xhigh", undefined, ""],
      ]) {
        const result = await exchange([OK_REPLY()], (url) => {
          const vertex = model(`${url}${suffix}`, id);
          return ai.streamSimpleGoogleVertex(vertex, ai.normalizeContext(historyContext(vertex)), { ...key, reasoning, toolChoice, maxTokens: 1000 });
        });
        results.push({ id, reasoning, suffix, requests: result.requests, stop: result.message.stopReason, error: result.message.errorMessage, usage: result.message.usage });
      }
      return results;
    }),
  );
  add("providers.vertex.stopsAndErrors", () =>
    withProcessEnv(cleanEnv, async () => {
      const one = (reply, options = key, id) => exchange(reply ? [reply] : [], (url) => ai.streamGoogleVertex(model(url, id), ai.normalizeContext(SIMPLE), options));
      return [
        await one(googleReply([googleChunk([{ text: "cut" }], { candidates: [{ content: { role: "model", parts: [{ text: "cut" }] }, finishReason: "MAX_TOKENS" }] })])),
        await one(googleReply([googleChunk([{ text: "bad" }], { candidates: [{ content: { role: "model", parts: [{ text: "bad" }] }, finishReason: "SAFETY" }] })])),
        await one(googleReply([googleChunk([{ text: "no finish" }])])),
        await one({ status: 403, headers: JSON_HEADERS, body: JSON.stringify({ error: { code: 403, message: "Permission denied.", status: "PERMISSION_DENIED" } }) }),
        await one({ status: 503, headers: { "content-type": "text/plain" }, body: "overloaded" }),
        await one(OK_REPLY(), { apiKey: "  v-key  " }),
        // Without a usable key: project and location are needed, the key placeholders do not count.
        await one(undefined, { apiKey: "gcp-vertex-credentials" }),
        await one(undefined, { apiKey: "<authenticated>", project: "p" }),
        await one(undefined, { env: { GOOGLE_CLOUD_PROJECT: "p" } }),
        await one(OK_REPLY(), { ...key, thinking: { enabled: true, level: "LOW" } }, "gemini-3-flash-preview"),
        await one(OK_REPLY(), { ...key, thinking: { enabled: true, budgetTokens: 99 } }),
      ];
    }),
  );
  add("providers.vertex.serviceAccount", async () => {
    const scratch = await scratchDirectory({ "sa.json": SERVICE_ACCOUNT, "quota.json": { ...SERVICE_ACCOUNT, quota_project_id: "billing-project" }, "bad.json": { type: "service_account", client_email: "x@y" } });
    try {
      const tokenReply = { status: 200, headers: JSON_HEADERS, body: JSON.stringify({ access_token: "ya29.token", expires_in: 3599, token_type: "Bearer" }) };
      const run = async (replies, options, id) => {
        let restore;
        try {
          const result = await exchange(replies, async (url) => {
            restore = await redirectTokenEndpointTo(url);
            return ai.streamGoogleVertex(model(`${url}/v1`, id), ai.normalizeContext(SIMPLE), options);
          });
          return await reduceTokenRequests(result);
        } finally {
          restore?.();
        }
      };
      const results = await withProcessEnv(cleanEnv, async () => [
        await run([tokenReply, OK_REPLY()], { project: "my-project", location: "us-central1", env: { GOOGLE_APPLICATION_CREDENTIALS: scratch.join("sa.json") } }),
        await run([tokenReply, OK_REPLY()], { env: { GOOGLE_CLOUD_PROJECT: "env-project", GOOGLE_CLOUD_LOCATION: "europe-west4", GOOGLE_APPLICATION_CREDENTIALS: scratch.join("quota.json") } }),
        await run(
          [{ status: 400, headers: JSON_HEADERS, body: JSON.stringify({ error: "invalid_grant", error_description: "Invalid JWT Signature." }) }],
          { project: "p", location: "global", env: { GOOGLE_APPLICATION_CREDENTIALS: scratch.join("sa.json") } },
        ),
        await run([], { project: "p", location: "us", env: { GOOGLE_APPLICATION_CREDENTIALS: scratch.join("bad.json") } }),
        await run([], { project: "p", location: "us", env: { GOOGLE_APPLICATION_CREDENTIALS: scratch.join("missing.json") } }),
      ]);
      return maskPath(results, scratch.dir);
    } finally {
      scratch.remove();
    }
  });
  add("providers.vertex.defaultCredentials", async () => {
    const gcloud = await scratchDirectory({
      "application_default_credentials.json": { type: "authorized_user", client_id: "cid", client_secret: "csecret", refresh_token: "rtoken", quota_project_id: "file-quota" },
    });
    const empty = await scratchDirectory({});
    const flavor = { ...JSON_HEADERS, "Metadata-Flavor": "Google" };
    try {
      // Google's library looks the project up when it finds default credentials; from the environment, not gcloud.
      const env = { ...cleanEnv, GOOGLE_CLOUD_PROJECT: "env-project", GOOGLE_CLOUD_LOCATION: "us-east5" };
      const run = (replies, processEnv) =>
        withProcessEnv({ ...env, ...processEnv }, async () => {
          let restore;
          try {
            const result = await exchange(replies, async (url) => {
              restore = await redirectTokenEndpointTo(url);
              if (processEnv.GCE_METADATA_HOST === "<server>") globalThis.process.env.GCE_METADATA_HOST = new URL(url).host;
              return ai.streamGoogleVertex(model(`${url}/v1`), ai.normalizeContext(SIMPLE), {});
            });
            return await reduceTokenRequests(result);
          } finally {
            restore?.();
          }
        });
      const results = [
        await run([{ status: 200, headers: JSON_HEADERS, body: JSON.stringify({ access_token: "user-token", expires_in: 3599, token_type: "Bearer", scope: "x" }) }, OK_REPLY()], {
          CLOUDSDK_CONFIG: gcloud.dir,
          GOOGLE_CLOUD_QUOTA_PROJECT: "env-quota",
        }),
        await run([{ status: 200, headers: flavor, body: "{}" }, { status: 200, headers: flavor, body: JSON.stringify({ access_token: "vm-token", expires_in: 3599, token_type: "Bearer" }) }, OK_REPLY()], {
          CLOUDSDK_CONFIG: empty.dir,
          GCE_METADATA_HOST: "<server>",
        }),
        await run([], { CLOUDSDK_CONFIG: empty.dir, METADATA_SERVER_DETECTION: "none" }),
      ];
      return maskPath(maskPath(results, gcloud.dir), empty.dir);
    } finally {
      gcloud.remove();
      empty.remove();
    }
  });
  add("providers.vertex.payloadAndAbort", () =>
    withProcessEnv(cleanEnv, async () => {
      const seen = [];
      const replaced = await exchange([OK_REPLY()], (url) =>
        ai.streamGoogleVertex(model(url), ai.normalizeContext(SIMPLE), {
          ...key,
          onPayload: (params, payloadModel) => {
            seen.push({ model: payloadModel.id, keys: Object.keys(params), config: Object.keys(params.config) });
            return { ...params, model: "publishers/acme/models/other", config: { ...params.config, labels: { team: "a" }, temperature: 0.1 } };
          },
        }),
      );
      const aborted = await abortMidway(googleReply([googleChunk([{ text: "first" }])]), (url, signal) =>
        ai.streamGoogleVertex(model(url), ai.normalizeContext(SIMPLE), { ...key, signal }),
      );
      return { seen, replaced: replaced.requests, aborted };
    }),
  );
}
