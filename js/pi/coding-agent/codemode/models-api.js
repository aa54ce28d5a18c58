// `models.*` for scripts: the model catalog, classifiers and image models,
// run with the session's credentials. Scripts name a model by provider and id
// only; whatever else they pass (a baseUrl, headers) is never used, so a
// script cannot route the credentials elsewhere. Classifier and image calls
// show up as call rows of the codemode result, naming only the model, and
// their usage is added to the result's.
import { sliceHead } from "../truncate.js";
import { codemodeDocsPath } from "./description.js";

const MODEL_TYPES = ["chat", "image", "classifier"];
// Calls of one script in flight at once; Promise.all over many items queues the rest.
const CONCURRENT_MODEL_CALLS = 4;
const ERROR_PREVIEW_CHARS = 500;

const CLASSIFIER_CONTEXT_SHAPE =
  '{ state: { ... }, images?: [{ type: "image", data: <base64>, mimeType }], questions: { <id>: { type: "choice", instructions, criteria: { <label>: <meaning> } } | { type: "score", instructions, criteria: [<lowest level>, ..., <highest level>] } | { type: "bool", instructions, criteria: { true: <meaning>, false: <meaning> } } } }';

/** At most `max` characters, ending in "..." when cut. */
export function clipText(text, max) {
  return text.length > max ? `${sliceHead(text, max - 3)}...` : text;
}

const isRecord = (value) => typeof value === "object" && value !== null && !Array.isArray(value);

/** `an image`, `a classifier`. */
const withArticle = (word) => `${/^[aeiou]/.test(word) ? "an" : "a"} ${word}`;

/** A script value in a message: `undefined`, `a string`, `an array`, or its keys (`{ prompt }`). */
function describeValue(value) {
  if (value === undefined || value === null) return String(value);
  if (Array.isArray(value)) return value.length === 0 ? "an empty array" : "an array";
  if (typeof value === "object") {
    const keys = Object.keys(value);
    if (keys.length === 0) return "{}";
    return `{ ${keys.slice(0, 6).join(", ")}${keys.length > 6 ? ", ..." : ""} }`;
  }
  return typeof value === "string" ? "a string" : `a ${typeof value}`;
}

function modelType(value) {
  if (typeof value === "string" && MODEL_TYPES.includes(value)) return value;
  throw new Error(`Unknown model type ${JSON.stringify(value)}. Use "chat", "image", or "classifier".`);
}

function providerFilter(value) {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new Error("provider must be a string");
  return value;
}

/** A catalog entry without `headers`, which models.json may fill with credentials. */
function publicModel(model) {
  const { headers: _headers, ...rest } = model;
  return rest;
}

/** Checks a classifier context, so a mistake names the expected shape rather than failing at the provider. */
function checkClassifierContext(context) {
  const invalid = (problem) =>
    new Error(`models.classify() ${problem}. Expected context: ${CLASSIFIER_CONTEXT_SHAPE}. See "Classify" in ${codemodeDocsPath()}.`);
  if (!isRecord(context)) throw invalid(`expects a context object as its second argument, got ${describeValue(context)}`);
  const { state, images, questions } = context;
  if (!isRecord(state)) throw invalid(`context.state must be an object, got ${describeValue(state)}`);
  if (images !== undefined) {
    if (!Array.isArray(images)) throw invalid(`context.images must be an array, got ${describeValue(images)}`);
    images.forEach((block, index) => {
      if (block?.type !== "image" || typeof block.data !== "string" || typeof block.mimeType !== "string") {
        throw invalid(`context.images[${index}] must be an image block, got ${describeValue(block)}`);
      }
    });
  }
  if (!isRecord(questions) || Object.keys(questions).length === 0) {
    throw invalid(`context.questions must map question IDs to questions, got ${describeValue(questions)}`);
  }
  const nonEmptyStrings = (values) => values.length > 0 && values.every((value) => typeof value === "string");
  for (const [id, question] of Object.entries(questions)) {
    const at = `context.questions.${id}`;
    if (!isRecord(question)) throw invalid(`${at} must be a question object, got ${describeValue(question)}`);
    const { type, instructions, criteria } = question;
    if (typeof instructions !== "string") throw invalid(`${at}.instructions must be a string`);
    if (type === "choice") {
      if (!isRecord(criteria) || !nonEmptyStrings(Object.values(criteria))) {
        throw invalid(`${at} is a "choice" question, so criteria must map each label to its meaning`);
      }
    } else if (type === "score") {
      if (!Array.isArray(criteria) || !nonEmptyStrings(criteria)) {
        throw invalid(`${at} is a "score" question, so criteria must list the levels as strings, lowest first`);
      }
    } else if (type === "bool") {
      if (typeof criteria?.true !== "string" || typeof criteria.false !== "string") {
        throw invalid(`${at} is a "bool" question, so criteria must be { true: string, false: string }`);
      }
    } else {
      throw invalid(`${at}.type must be "choice", "score", or "bool", got ${JSON.stringify(type)}`);
    }
  }
  return context;
}

/** Checks an image context, so `{ prompt }` and the like fail with the expected shape. */
function checkImagesContext(context) {
  const invalid = (problem) =>
    new Error(
      `models.generateImages() ${problem}. Expected context: { input: [{ type: "text", text: <prompt> }, ...optional { type: "image", data: <base64>, mimeType } references] }. See "Generate images" in ${codemodeDocsPath()}.`,
    );
  if (!isRecord(context)) throw invalid(`expects a context object as its second argument, got ${describeValue(context)}`);
  const { input } = context;
  if (!Array.isArray(input) || input.length === 0) {
    throw invalid(`context.input must be a non-empty array of blocks, got ${describeValue(input)}`);
  }
  input.forEach((block, index) => {
    const text = block?.type === "text" && typeof block.text === "string";
    const image = block?.type === "image" && typeof block.data === "string" && typeof block.mimeType === "string";
    if (!text && !image) throw invalid(`context.input[${index}] must be a text or image block, got ${describeValue(block)}`);
  });
  return context;
}

/** Runs at most `max` tasks at once, starting the rest in call order. */
function concurrencyLimit(max) {
  let running = 0;
  const queue = [];
  return async (task) => {
    if (running >= max) await new Promise((resolve) => queue.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      queue.shift()?.();
    }
  };
}

/**
 * The `models.*` globals over `registry` (the session's model registry).
 * `rows` is the codemode result's call list and `changed()` republishes it;
 * `addUsage` and `countGeneratedImages` collect what the result reports.
 */
export function createModelGlobals(registry, { toolCallId, rows, changed, addUsage, countGeneratedImages }) {
  const limited = concurrencyLimit(CONCURRENT_MODEL_CALLS);
  let calls = 0;

  // Finds the script's model by provider and id, checks the context, and runs the call as a row.
  const runModelCall = async (name, type, [model, context], checkContext, run) => {
    const listHint = `List the ${type} models you can use with models.getAvailableOfType("${type}").`;
    if (typeof model?.provider !== "string" || typeof model.id !== "string") {
      // Spread arguments cross as a JSON array, so undefined arrives as null.
      const undefinedHint =
        model === undefined || model === null ? " models.getModelOfType() returns undefined for an unknown provider or id." : "";
      throw new Error(
        `${name}() expects ${withArticle(type)} model as its first argument, got ${describeValue(model)}.${undefinedHint} ${listHint}`,
      );
    }
    const { provider, id } = model;
    const resolved = registry.getModelOfType(type, provider, id);
    if (!resolved) {
      const otherType = MODEL_TYPES.find((other) => other !== type && registry.getModelOfType(other, provider, id) !== undefined);
      const ref = `${provider}/${id}`;
      throw new Error(
        otherType
          ? `"${ref}" is ${withArticle(otherType)} model, not ${withArticle(type)} model. ${listHint}`
          : `Unknown ${type} model "${ref}". ${listHint}`,
      );
    }
    const checked = checkContext(context);
    calls++;
    const row = { id: `${toolCallId}/${name}/${calls}`, name, args: `${resolved.provider}/${resolved.id}`, status: "running" };
    rows.push(row);
    changed();
    const startedAt = performance.now();
    const result = await limited(() => run(resolved, checked));
    row.durationMs = performance.now() - startedAt;
    row.status = result.stopReason === "stop" ? "ok" : result.stopReason === "aborted" ? "cancelled" : "error";
    if (result.errorMessage) row.error = clipText(result.errorMessage, ERROR_PREVIEW_CHARS);
    if (result.usage) {
      row.cost = result.usage.cost.total;
      addUsage(result.usage);
    }
    changed();
    return result;
  };

  const api = {
    "models.getModelsOfType": ([type, provider]) =>
      registry.getModelsOfType(modelType(type), providerFilter(provider)).map(publicModel),
    "models.getAvailableOfType": async ([type, provider], { signal }) =>
      (await registry.getAvailableOfType(modelType(type), providerFilter(provider), { signal })).map(publicModel),
    "models.getModelOfType": (args) => {
      const [type, provider, id] = args;
      if (typeof provider !== "string" || typeof id !== "string") {
        throw new Error(
          `models.getModelOfType(type, provider, id) expects three strings, got (${args.map(describeValue).join(", ")}). The provider and the id are separate arguments, for example models.getModelOfType("classifier", "typesafe", "jev-latest").`,
        );
      }
      const model = registry.getModelOfType(modelType(type), provider, id);
      return model === undefined ? undefined : publicModel(model);
    },
    "models.classify": (args, { signal }) =>
      runModelCall("models.classify", "classifier", args, checkClassifierContext, (model, context) =>
        registry.classify(model, context, { signal }),
      ),
    "models.generateImages": (args, { signal }) =>
      runModelCall("models.generateImages", "image", args, checkImagesContext, async (model, context) => {
        const result = await registry.generateImages(model, context, { signal });
        countGeneratedImages(result.output.filter((block) => block.type === "image").length);
        return result;
      }),
  };
  return Object.entries(api).map(([name, execute]) => ({ name, spread: true, execute }));
}
