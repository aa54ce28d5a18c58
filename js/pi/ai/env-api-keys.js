// API keys found in the environment, by provider: which variables a
// provider reads and, for the providers that authenticate otherwise
// (Vertex's application default credentials, Bedrock's AWS chain), whether
// those credentials are there.
import { providerEnvValue } from "./provider-env.js";

export const ANTHROPIC_AUTH_TOKEN_ENV = "ANTHROPIC_AUTH_TOKEN";
export const ANTHROPIC_OAUTH_TOKEN_ENV = "ANTHROPIC_OAUTH_TOKEN";
export const ANTHROPIC_API_KEY_ENV = "ANTHROPIC_API_KEY";
export const ANTHROPIC_FEDERATION_RULE_ID_ENV = "ANTHROPIC_FEDERATION_RULE_ID";
export const ANTHROPIC_ORGANIZATION_ID_ENV = "ANTHROPIC_ORGANIZATION_ID";
export const ANTHROPIC_SERVICE_ACCOUNT_ID_ENV = "ANTHROPIC_SERVICE_ACCOUNT_ID";
export const ANTHROPIC_IDENTITY_TOKEN_FILE_ENV = "ANTHROPIC_IDENTITY_TOKEN_FILE";
export const ANTHROPIC_WORKSPACE_ID_ENV = "ANTHROPIC_WORKSPACE_ID";

// A plain object on purpose: pi looks providers up the same way, so a name
// such as "constructor" finds an inherited value and fails alike.
const KEY_VARIABLES = {
  "github-copilot": ["COPILOT_GITHUB_TOKEN"],
  // The auth token is found and reported, but getEnvApiKey skips it: it
  // must go out as a bearer token, not as an API key.
  anthropic: [ANTHROPIC_AUTH_TOKEN_ENV, ANTHROPIC_OAUTH_TOKEN_ENV, ANTHROPIC_API_KEY_ENV],
  "ant-ling": "ANT_LING_API_KEY",
  // Each Qwen Token Plan's own variable wins over the region's shared one.
  "qwen-token-plan": ["QWEN_TOKEN_PLAN_TEAM_API_KEY", "QWEN_TOKEN_PLAN_API_KEY"],
  "qwen-token-plan-cn": ["QWEN_TOKEN_PLAN_TEAM_CN_API_KEY", "QWEN_TOKEN_PLAN_CN_API_KEY"],
  "qwen-token-plan-individual": ["QWEN_TOKEN_PLAN_INDIVIDUAL_API_KEY", "QWEN_TOKEN_PLAN_API_KEY"],
  "qwen-token-plan-individual-cn": ["QWEN_TOKEN_PLAN_INDIVIDUAL_CN_API_KEY", "QWEN_TOKEN_PLAN_CN_API_KEY"],
  openai: "OPENAI_API_KEY",
  azure: "AZURE_OPENAI_API_KEY",
  nvidia: "NVIDIA_API_KEY",
  deepseek: "DEEPSEEK_API_KEY",
  google: "GEMINI_API_KEY",
  "google-vertex": "GOOGLE_CLOUD_API_KEY",
  groq: "GROQ_API_KEY",
  cerebras: "CEREBRAS_API_KEY",
  xai: "XAI_API_KEY",
  typesafe: "TYPESAFE_API_KEY",
  radius: "RADIUS_API_KEY",
  openrouter: "OPENROUTER_API_KEY",
  "vercel-ai-gateway": "AI_GATEWAY_API_KEY",
  zai: "ZAI_API_KEY",
  "zai-coding-cn": "ZAI_CODING_CN_API_KEY",
  mistral: "MISTRAL_API_KEY",
  minimax: "MINIMAX_API_KEY",
  "minimax-cn": "MINIMAX_CN_API_KEY",
  moonshotai: "MOONSHOT_API_KEY",
  "moonshotai-cn": "MOONSHOT_API_KEY",
  huggingface: "HF_TOKEN",
  fireworks: "FIREWORKS_API_KEY",
  together: "TOGETHER_API_KEY",
  baseten: "BASETEN_API_KEY",
  opencode: "OPENCODE_API_KEY",
  "opencode-go": "OPENCODE_API_KEY",
  "kimi-coding": "KIMI_API_KEY",
  meta: "META_API_KEY",
  "cloudflare-workers-ai": "CLOUDFLARE_API_KEY",
  "cloudflare-ai-gateway": "CLOUDFLARE_API_KEY",
  xiaomi: "XIAOMI_API_KEY",
  "xiaomi-token-plan-cn": "XIAOMI_TOKEN_PLAN_CN_API_KEY",
  "xiaomi-token-plan-ams": "XIAOMI_TOKEN_PLAN_AMS_API_KEY",
  "xiaomi-token-plan-sgp": "XIAOMI_TOKEN_PLAN_SGP_API_KEY",
};

// Any one of these is enough for Bedrock to find AWS credentials.
const BEDROCK_CREDENTIAL_SOURCES = [
  ["AWS_PROFILE"],
  ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"],
  ["AWS_BEARER_TOKEN_BEDROCK"],
  ["AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"],
  ["AWS_CONTAINER_CREDENTIALS_FULL_URI"],
  ["AWS_WEB_IDENTITY_TOKEN_FILE"],
];

const AUTHENTICATED = "<authenticated>";

function keyVariablesOf(provider) {
  const variables = KEY_VARIABLES[provider];
  return typeof variables === "string" ? [variables] : variables;
}

/** The provider's key variables that are set, in the provider's order; undefined when none is or the provider has none. */
export function findEnvKeys(provider, env) {
  const variables = keyVariablesOf(provider);
  if (!variables) return undefined;
  const set = variables.filter((name) => !!providerEnvValue(name, env));
  return set.length > 0 ? set : undefined;
}

/**
 * The provider's API key from the environment; "<authenticated>" when
 * Vertex or Bedrock can authenticate without one; else undefined.
 */
export function getEnvApiKey(provider, env) {
  const found = findEnvKeys(provider, env);
  if (found?.[0]) {
    const chosen = provider === "anthropic" ? found.find((name) => name !== ANTHROPIC_AUTH_TOKEN_ENV) : found[0];
    if (chosen) return providerEnvValue(chosen, env);
  }
  if (provider === "google-vertex") {
    // The credentials are looked for first, even when project or location is missing.
    const credentials = hasVertexCredentials(env);
    const project = providerEnvValue("GOOGLE_CLOUD_PROJECT", env) || providerEnvValue("GCLOUD_PROJECT", env);
    const location = providerEnvValue("GOOGLE_CLOUD_LOCATION", env);
    if (credentials && project && location) return AUTHENTICATED;
  }
  if (provider === "amazon-bedrock") {
    const hasSource = BEDROCK_CREDENTIAL_SOURCES.some((names) => names.every((name) => providerEnvValue(name, env)));
    if (hasSource) return AUTHENTICATED;
  }
  return undefined;
}

// --- Vertex application default credentials ---------------------------------

// Whether the host's credentials file exists is looked up once: the answer
// is kept for the life of the process, as pi keeps it.
let hostCredentialsExist;

/** Node's built-in module `name` when the host has one to give synchronously. */
function builtinModule(name) {
  try {
    return globalThis.process?.getBuiltinModule?.(name);
  } catch {
    return undefined;
  }
}

function hasVertexCredentials(env) {
  const files = builtinModule("node:fs");
  // Credentials named by the caller's own env are checked every time.
  const named = env?.GOOGLE_APPLICATION_CREDENTIALS;
  if (named) return files ? files.existsSync(named) : false;
  if (hostCredentialsExist !== undefined) return hostCredentialsExist;
  const os = builtinModule("node:os");
  const paths = builtinModule("node:path");
  if (!files || !os || !paths) {
    // Without a file system (a browser) the answer never changes.
    if (!globalThis.process?.versions?.node) hostCredentialsExist = false;
    return false;
  }
  const path =
    providerEnvValue("GOOGLE_APPLICATION_CREDENTIALS", env) ||
    paths.join(os.homedir(), ".config", "gcloud", "application_default_credentials.json");
  hostCredentialsExist = files.existsSync(path);
  return hostCredentialsExist;
}
