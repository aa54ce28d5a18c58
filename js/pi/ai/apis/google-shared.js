// What pi's two Gemini apis (Generative AI and Vertex) share: thinking
// levels and budgets, the transcript as Gemini contents, tools as function
// declarations, finish reasons, and the request as Google's genai SDK puts
// it on the wire (its field order included).
import { clampThinkingLevel } from "../model-kinds.js";
import { collapseSystemMessages } from "../system-messages.js";
import { withoutInitialSystemMessage } from "../transcript.js";
import { retryProviderRequest } from "./http.js";
import { transformMessages } from "./replay-messages.js";
import { getJsonSchemaToolParameters, resolveJsonSchemaStrictSampling } from "./strict-schemas.js";
import { sanitizeSurrogates } from "./text-safety.js";

/** A pi level, or the model's own mapping of it, as a standard Google level. */
export function resolveGoogleThinkingLevel(model, level) {
  const mapped = model.thinkingLevelMap?.[level];
  const resolved = typeof mapped === "string" ? mapped.toLowerCase() : level;
  if (resolved === "minimal" || resolved === "low" || resolved === "medium" || resolved === "high") return resolved;
  throw new Error(`Unsupported Google thinking level mapping for ${model.provider}/${model.id}: ${level} -> ${String(mapped)}`);
}

/** Models that take a discrete thinkingLevel instead of a token budget. */
export function usesGoogleThinkingLevel(model) {
  const id = model.id.toLowerCase();
  return (
    /gemini-3(?:\.\d+)?-(?:pro|flash)/.test(id) ||
    /gemini-(?:[4-9]|[1-9]\d)/.test(id) ||
    id === "gemini-flash-latest" ||
    id === "gemini-flash-lite-latest" ||
    /gemma-?4/.test(id)
  );
}

export function toGoogleThinkingLevel(level) {
  return level.toUpperCase();
}

export function getDisabledGoogleThinkingConfig(model) {
  if (!usesGoogleThinkingLevel(model)) return { thinkingBudget: 0 };
  // Models that cannot turn thinking off think at their lowest level.
  const fallback = clampThinkingLevel(model, "off");
  if (fallback === "off") return { thinkingBudget: 0 };
  return { thinkingLevel: toGoogleThinkingLevel(resolveGoogleThinkingLevel(model, fallback)) };
}

/** `thought: true` marks thinking; a thoughtSignature may sit on any part. */
export function isThinkingPart(part) {
  return part.thought === true;
}

/** Some backends send a block's signature on its first delta only. */
export function retainThoughtSignature(existing, incoming) {
  return typeof incoming === "string" && incoming.length > 0 ? incoming : existing;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Signatures replay only to the model that made them, and only when they are base64. */
function replaySignature(sameModel, signature) {
  return sameModel && signature && signature.length % 4 === 0 && BASE64.test(signature) ? signature : undefined;
}

function geminiMajorVersion(modelId) {
  const match = modelId.toLowerCase().match(/^gemini(?:-live)?-(\d+)/);
  return match ? Number.parseInt(match[1], 10) : undefined;
}

/** Models behind Google's apis that need tool call ids on calls and responses. */
export function requiresToolCallId(modelId) {
  const major = geminiMajorVersion(modelId);
  return modelId.startsWith("claude-") || modelId.startsWith("gpt-oss-") || (major !== undefined && major >= 3);
}

function takesImagesInFunctionResponses(modelId) {
  const major = geminiMajorVersion(modelId);
  return major === undefined || major >= 3;
}

// The genai SDK writes a part's fields in this order.
const PART_FIELDS = ["functionCall", "functionResponse", "inlineData", "text", "thought", "thoughtSignature"];

/** Copies `fields` of `object` that are set, in that order. */
function pick(object, fields) {
  const out = {};
  for (const field of fields) if (object[field] !== undefined && object[field] !== null) out[field] = object[field];
  return out;
}

function wirePart(part) {
  const out = pick(part, PART_FIELDS);
  if (out.functionCall) {
    const { args, id, name } = out.functionCall;
    out.functionCall = { ...(args !== undefined ? { args } : {}), ...(id !== undefined ? { id } : {}), ...(name !== undefined ? { name } : {}) };
  }
  return out;
}

function assistantParts(model, message) {
  const parts = [];
  const sameModel = message.provider === model.provider && message.model === model.id;
  for (const block of message.content) {
    if (block.type === "text") {
      const thoughtSignature = replaySignature(sameModel, block.textSignature);
      if ((!block.text || block.text.trim() === "") && !thoughtSignature) continue;
      parts.push({ text: sanitizeSurrogates(block.text), ...(thoughtSignature && { thoughtSignature }) });
    } else if (block.type === "thinking") {
      if (sameModel) {
        const thoughtSignature = replaySignature(sameModel, block.thinkingSignature);
        if ((!block.thinking || block.thinking.trim() === "") && !thoughtSignature) continue;
        parts.push({ thought: true, text: sanitizeSurrogates(block.thinking), ...(thoughtSignature && { thoughtSignature }) });
      } else if (block.thinking && block.thinking.trim() !== "") {
        // Another model's thinking goes as plain text.
        parts.push({ text: sanitizeSurrogates(block.thinking) });
      }
    } else if (block.type === "toolCall") {
      const thoughtSignature = replaySignature(sameModel, block.thoughtSignature);
      parts.push({
        functionCall: { name: block.name, args: block.arguments ?? {}, ...(requiresToolCallId(model.id) ? { id: block.id } : {}) },
        ...(thoughtSignature && { thoughtSignature }),
      });
    }
  }
  return parts;
}

/** The conversation (without the leading system message) as Gemini contents. */
export function convertMessages(model, context) {
  const conversation = withoutInitialSystemMessage(collapseSystemMessages(context).messages);
  const contents = [];
  const normalizeToolCallId = (id) => (requiresToolCallId(model.id) ? id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64) : id);
  for (const message of transformMessages(conversation, model, normalizeToolCallId)) {
    if (message.role === "user") {
      const parts =
        typeof message.content === "string"
          ? [{ text: sanitizeSurrogates(message.content) }]
          : message.content.map((block) =>
              block.type === "text" ? { text: sanitizeSurrogates(block.text) } : { inlineData: { mimeType: block.mimeType, data: block.data } },
            );
      if (parts.length > 0) contents.push({ role: "user", parts });
    } else if (message.role === "assistant") {
      const parts = assistantParts(model, message);
      if (parts.length > 0) contents.push({ role: "model", parts });
    } else if (message.role === "toolResult") {
      const text = message.content.filter((block) => block.type === "text").map((block) => block.text).join("\n");
      const images = model.input.includes("image") ? message.content.filter((block) => block.type === "image") : [];
      const hasText = text.trim().length > 0;
      const value = hasText ? sanitizeSurrogates(text) : images.length > 0 ? "(see attached image)" : "";
      const imageParts = images.map((image) => ({ inlineData: { mimeType: image.mimeType, data: image.data } }));
      const inResponse = takesImagesInFunctionResponses(model.id);
      const part = {
        functionResponse: {
          name: message.toolName,
          response: message.isError ? { error: value } : { output: value },
          ...(images.length > 0 && inResponse && { parts: imageParts }),
          ...(requiresToolCallId(model.id) ? { id: message.toolCallId } : {}),
        },
      };
      // The responses of one turn share a user content.
      const last = contents[contents.length - 1];
      if (last?.role === "user" && last.parts?.some((existing) => existing.functionResponse)) last.parts.push(part);
      else contents.push({ role: "user", parts: [part] });
      if (images.length > 0 && !inResponse) contents.push({ role: "user", parts: [{ text: "Tool result image:" }, ...imageParts] });
    }
  }
  return contents;
}

const META_DECLARATIONS = new Set(["$schema", "$id", "$anchor", "$dynamicAnchor", "$vocabulary", "$comment", "$defs", "definitions"]);

function sanitizeForOpenApi(schema) {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return schema;
  const result = {};
  for (const [key, value] of Object.entries(schema)) if (!META_DECLARATIONS.has(key)) result[key] = sanitizeForOpenApi(value);
  return result;
}

// Keywords whose values map names to subschemas, and keywords holding subschemas.
const NAME_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"]);
const SUBSCHEMAS = new Set([
  "additionalProperties",
  "unevaluatedProperties",
  "propertyNames",
  "items",
  "prefixItems",
  "additionalItems",
  "unevaluatedItems",
  "contains",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "contentSchema",
]);

/** Gemini ignores `const` in parametersJsonSchema but honors a one-value `enum`. */
function constAsEnum(schema, isNameMap = false) {
  if (Array.isArray(schema)) return schema.map((item) => constAsEnum(item));
  if (typeof schema !== "object" || schema === null) return schema;
  const result = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => {
      if (isNameMap || SUBSCHEMAS.has(key)) return [key, constAsEnum(value)];
      if (NAME_MAPS.has(key)) return [key, constAsEnum(value, true)];
      return [key, value];
    }),
  );
  if (!isNameMap && "const" in result && result.enum === undefined && (typeof result.const === "string" || typeof result.const === "number")) {
    const value = result.const;
    delete result.const;
    result.enum = [value];
  }
  return result;
}

/**
 * Tools as function declarations: full JSON Schema in parametersJsonSchema,
 * or (`useParameters`, for Claude behind Cloud Code Assist) the OpenAPI
 * subset in `parameters`.
 */
export function convertTools(tools, useParameters = false, supportsStrictMode = true) {
  if (tools.length === 0) return undefined;
  return [
    {
      functionDeclarations: tools.map((tool) => {
        const parameters = getJsonSchemaToolParameters(tool, resolveJsonSchemaStrictSampling(tool, supportsStrictMode));
        return {
          name: tool.name,
          description: tool.description,
          ...(useParameters ? { parameters: sanitizeForOpenApi(parameters) } : { parametersJsonSchema: constAsEnum(parameters) }),
        };
      }),
    },
  ];
}

/** Gemini 3 and later enforce required parameters in validated tool calling. */
export function supportsGoogleStrictToolSampling(modelId) {
  const major = geminiMajorVersion(modelId);
  return major !== undefined && major >= 3;
}

function toolChoiceMode(choice) {
  if (choice === "none") return "NONE";
  if (choice === "any") return "ANY";
  return "AUTO";
}

export function resolveGoogleFunctionCallingMode(tools, toolChoice, supportsStrictMode) {
  if (toolChoice === "none" || toolChoice === "any") return toolChoiceMode(toolChoice);
  if (tools.some((tool) => resolveJsonSchemaStrictSampling(tool, supportsStrictMode) === true)) return "VALIDATED";
  return toolChoice ? toolChoiceMode(toolChoice) : undefined;
}

const ERROR_FINISHES = new Set([
  "BLOCKLIST",
  "PROHIBITED_CONTENT",
  "SPII",
  "SAFETY",
  "IMAGE_SAFETY",
  "IMAGE_PROHIBITED_CONTENT",
  "IMAGE_RECITATION",
  "IMAGE_OTHER",
  "RECITATION",
  "FINISH_REASON_UNSPECIFIED",
  "OTHER",
  "LANGUAGE",
  "MALFORMED_FUNCTION_CALL",
  "UNEXPECTED_TOOL_CALL",
  "TOO_MANY_TOOL_CALLS",
  "NO_IMAGE",
]);

export function mapStopReason(reason) {
  if (reason === "STOP") return "stop";
  if (reason === "MAX_TOKENS" || reason === "CONTINUATION") return "length";
  if (ERROR_FINISHES.has(reason)) return "error";
  throw new Error(`Unhandled stop reason: ${reason}`);
}

/** Google's errors carry a status but no headers; pi's retry policy applies to them all the same. */
export function retryGoogleRequest(request, options) {
  return retryProviderRequest(request, { maxRetries: options?.maxRetries, maxRetryDelayMs: options?.maxRetryDelayMs, signal: options?.signal });
}

// --- the wire, as the genai SDK writes and reads it --------------------------------

const SDK_VERSION = "2.32.0";

export function googleClientHeader() {
  const version = globalThis.process?.version ?? "unknown";
  return `google-genai-sdk/${SDK_VERSION} gl-node/${version}`;
}

/** A part as the SDK writes it for Vertex: calls as given, responses (and their parts) in Vertex's field order. */
function vertexWirePart(part) {
  const out = pick(part, PART_FIELDS);
  if (out.functionResponse) {
    const response = pick(out.functionResponse, ["id", "name", "parts", "response", "scheduling"]);
    if (Array.isArray(response.parts)) response.parts = response.parts.map((item) => pick(item, ["fileData", "inlineData"]));
    out.functionResponse = response;
  }
  return out;
}

/** GenerateContent parameters as the request body: config split into top-level fields and generationConfig. */
export function generateContentBody(params, { vertex = false } = {}) {
  const { contents, config = {} } = params;
  const toWire = vertex ? vertexWirePart : wirePart;
  const body = { contents: contents.map((content) => ({ parts: content.parts?.map(toWire), role: content.role })) };
  if (config.systemInstruction !== undefined) {
    const instruction = typeof config.systemInstruction === "string" ? { parts: [{ text: config.systemInstruction }], role: "user" } : config.systemInstruction;
    body.systemInstruction = instruction;
  }
  if (config.tools !== undefined) body.tools = config.tools;
  if (config.toolConfig !== undefined) body.toolConfig = config.toolConfig;
  if (vertex && config.labels !== undefined) body.labels = config.labels;
  const generationConfig = {};
  for (const field of ["temperature", "topP", "topK", "candidateCount", "maxOutputTokens", "stopSequences", "presencePenalty", "frequencyPenalty", "seed"]) {
    if (config[field] !== undefined && config[field] !== null) generationConfig[field] = config[field];
  }
  if (config.thinkingConfig !== undefined && config.thinkingConfig !== null) generationConfig.thinkingConfig = config.thinkingConfig;
  body.generationConfig = generationConfig;
  return body;
}

/** The SDK's error for a failed response: the JSON body, or one it makes from the text and status. */
export async function googleStatusError(response, ProviderError) {
  let errorBody;
  if (response.headers.get("content-type")?.includes("application/json")) {
    errorBody = await response.json();
  } else {
    errorBody = { error: { message: await response.text(), code: response.status, status: response.statusText } };
  }
  const message = JSON.stringify(errorBody);
  if (response.status >= 400 && response.status < 600) return new ProviderError(message, { status: response.status, headers: undefined });
  return new Error(message);
}

function throwIfErrorChunk(text, ProviderError) {
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    return;
  }
  if (json === null || typeof json !== "object" || json.error === null || typeof json.error !== "object") return;
  const { status, code } = json.error;
  if (typeof code === "number" && code >= 400 && code < 600) {
    throw new ProviderError(`got status: ${status}. ${JSON.stringify(json)}`, { status: code, headers: undefined });
  }
}

/** The response chunks of a streamGenerateContent SSE body, read the way the SDK reads them. */
export async function* googleStreamChunks(response, ProviderError) {
  const reader = response.body?.getReader();
  if (!reader) throw new Error("Response body is empty");
  const decoder = new TextDecoder("utf-8");
  const delimiters = ["\n\n", "\r\r", "\r\n\r\n"];
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        if (buffer.trim().length > 0) throw new Error("Incomplete JSON segment at the end");
        break;
      }
      const text = decoder.decode(value, { stream: true });
      throwIfErrorChunk(text, ProviderError);
      buffer += text;
      for (;;) {
        let at = -1;
        let length = 0;
        for (const delimiter of delimiters) {
          const index = buffer.indexOf(delimiter);
          if (index !== -1 && (at === -1 || index < at)) {
            at = index;
            length = delimiter.length;
          }
        }
        if (at === -1) break;
        const event = buffer.substring(0, at).trim();
        buffer = buffer.substring(at + length);
        if (!event.startsWith("data:")) continue;
        const data = event.substring("data:".length).trim();
        throwIfErrorChunk(data, ProviderError);
        let chunk;
        try {
          chunk = JSON.parse(data);
        } catch (error) {
          throw new Error(`exception parsing stream chunk ${data}. ${error}`);
        }
        yield chunk;
      }
    }
  } finally {
    reader.releaseLock();
  }
}
