// The texts pi shows when no model or no credentials are set up, naming
// where pi's provider and model docs live.
import { piPackageDir } from "./system-prompt.js";

function providerLoginHelp() {
  const docs = `${piPackageDir()}/docs`;
  return ["Use /login to log into a provider via OAuth or API key. See:", `  ${docs}/providers.md`, `  ${docs}/models.md`].join("\n");
}

export function formatNoModelsAvailableMessage() {
  return `No models available. ${providerLoginHelp()}`;
}

export function formatNoModelSelectedMessage() {
  return `No model selected.\n\n${providerLoginHelp()}\n\nThen use /model to select a model.`;
}

export function formatNoApiKeyFoundMessage(provider) {
  return `No API key found for ${provider === "unknown" ? "the selected model" : provider}.\n\n${providerLoginHelp()}`;
}
