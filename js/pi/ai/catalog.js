// pi-ai's built-in model catalog, read as pi 1.6.0 reads its generated one:
// chat, image and classifier models by provider and id. The data is
// recorded from the reference (reference-data/model-catalog.json) and parsed
// on first use, once per runtime, so every read returns the same objects.
import { ops } from "../../runtime/ops.js";

let catalog;

function data() {
  catalog ??= JSON.parse(ops.op_pihost_reference_data("model-catalog"));
  return catalog;
}

export function getBuiltinModel(provider, modelId) {
  return data().models[provider]?.[modelId];
}

export function getBuiltinImageModel(provider, modelId) {
  return data().imageModels[provider]?.[modelId];
}

export function getBuiltinClassifierModel(provider, modelId) {
  return data().classifierModels[provider]?.[modelId];
}

/** Each built-in provider's `{ id, name, baseUrl, headers }`, in pi's order of its built-in providers. */
export function getBuiltinProviderDescriptions() {
  return Object.entries(data().providers).map(([id, description]) => ({ id, ...description }));
}

export function getBuiltinProviders() {
  return Object.keys(data().models);
}

export function getBuiltinModelDataGeneratedAt() {
  const generatedAt = Date.parse(data().generatedAt);
  return Number.isNaN(generatedAt) ? undefined : generatedAt;
}

export function getBuiltinModels(provider) {
  return Object.values(data().models[provider] ?? {});
}

export function getBuiltinImageModels(provider) {
  return Object.values(data().imageModels[provider] ?? {});
}

export function getBuiltinClassifierModels(provider) {
  return Object.values(data().classifierModels[provider] ?? {});
}

export function getAllBuiltinModels(provider) {
  return [...getBuiltinModels(provider), ...getBuiltinImageModels(provider), ...getBuiltinClassifierModels(provider)];
}

// The root's deprecated image readers index each provider's image models by
// the model's own id and list only providers that have any.
let imageModelsByProvider;

function imageIndex() {
  if (!imageModelsByProvider) {
    imageModelsByProvider = new Map();
    for (const [provider, models] of Object.entries(data().imageModels)) {
      const byId = new Map();
      for (const model of Object.values(models)) byId.set(model.id, model);
      if (byId.size > 0) imageModelsByProvider.set(provider, byId);
    }
  }
  return imageModelsByProvider;
}

export function getImageModel(provider, modelId) {
  return imageIndex().get(provider)?.get(modelId);
}

export function getImageProviders() {
  return Array.from(imageIndex().keys());
}

export function getImageModels(provider) {
  const models = imageIndex().get(provider);
  return models ? Array.from(models.values()) : [];
}
