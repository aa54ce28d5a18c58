// pi-ai's registry of image-generation api providers, keyed by api, and the
// global generateImages that dispatches on `model.api` through it. pi
// registers an OpenRouter provider in it; pihost has none of its own, so
// only what extensions register is there.
const providers = new Map();

/** Registers (or replaces) the provider of `provider.api`; its generateImages refuses models of another api. */
export function registerImagesApiProvider(provider, sourceId) {
  const { api, generateImages: generate } = provider;
  const generateImages = (model, context, options) => {
    if (model.api !== api) throw new Error(`Mismatched api: ${model.api} expected ${api}`);
    return generate(model, context, options);
  };
  providers.set(api, { provider: { api, generateImages }, sourceId });
}

export function getImagesApiProvider(api) {
  return providers.get(api)?.provider;
}

/** Images from the provider registered for the model's api; auth comes only from `options.apiKey`. */
export async function generateImages(model, context, options) {
  const provider = getImagesApiProvider(model.api);
  if (!provider) throw new Error(`No API provider registered for api: ${model.api}`);
  return provider.generateImages(model, context, options);
}
