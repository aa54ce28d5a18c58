// What a model is and which thinking levels it takes, as pi-ai 1.6.0 says
// for any model object (from the catalog or an extension's own).

/** Every thinking level pi knows, lowest first. */
export const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];

/** A model without a `type` is a chat model. */
export function getModelType(model) {
  return model.type ?? "chat";
}

export function isModelType(model, type) {
  return getModelType(model) === type;
}

export function hasApi(model, api) {
  return isModelType(model, "chat") && model.api === api;
}

/**
 * `off` alone without reasoning; otherwise every level its map does not
 * set to `null`, with `xhigh` and `max` only where the map names them.
 */
export function getSupportedThinkingLevels(model) {
  if (!model.reasoning) return ["off"];
  return THINKING_LEVELS.filter((level) => {
    const mapped = model.thinkingLevelMap?.[level];
    if (mapped === null) return false;
    if (level === "xhigh" || level === "max") return mapped !== undefined;
    return true;
  });
}

/** The level itself when supported, else the nearest supported one above it, else below. */
export function clampThinkingLevel(model, level) {
  const supported = getSupportedThinkingLevels(model);
  if (supported.includes(level)) return level;
  const requested = THINKING_LEVELS.indexOf(level);
  if (requested === -1) return supported[0] ?? "off";
  const above = THINKING_LEVELS.slice(requested).find((candidate) => supported.includes(candidate));
  if (above !== undefined) return above;
  const below = THINKING_LEVELS.slice(0, requested)
    .reverse()
    .find((candidate) => supported.includes(candidate));
  return below ?? supported[0] ?? "off";
}

/** Same type, id and provider; `false` when either is missing. */
export function modelsAreEqual(a, b) {
  if (!a || !b) return false;
  return getModelType(a) === getModelType(b) && a.id === b.id && a.provider === b.provider;
}
