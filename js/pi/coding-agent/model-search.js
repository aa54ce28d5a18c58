// How the model picker searches and labels models.

/** The words of a model id or name, lowercased, split at everything but letters and digits. */
function labelWords(value) {
  return value.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/**
 * The model's name when it says something its id does not (a renamed
 * override), else undefined: a name that only restates the id in other
 * casing or separators adds nothing next to it.
 */
export function getDistinctModelName({ id, name }) {
  const trimmed = name?.trim();
  if (!trimmed) return undefined;
  const idWords = labelWords(id);
  const idWordSet = new Set(idWords);
  const joinedId = idWords.join("");
  // A one-character word must be a whole id word: "4" is not in "small-2603".
  const saidById = (word) => idWordSet.has(word) || (word.length > 1 && joinedId.includes(word));
  return labelWords(trimmed).every(saidById) ? undefined : trimmed;
}

/** The text the picker's fuzzy search matches; the bare id is not first, so "openai/gpt" ranks openai's own models above proxies'. */
export function getModelSelectorSearchText({ id, provider, name }) {
  return `${provider} ${provider}/${id} ${provider} ${id}${name ? ` ${name}` : ""}`;
}
