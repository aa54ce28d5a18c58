// What OpenAI's Responses api family (OpenAI, Azure, Codex) shares: the
// transcript as Responses input items, tools as Responses tools, and the
// event stream turned into pi's assistant message events.
import { calculateCost } from "../cost.js";
import { appendAssistantMessageDiagnostic } from "../diagnostics.js";
import { ToolCallArgumentsStream } from "../json.js";
import { getSystemMessageText, renderSystemMessageUpdate } from "../system-text.js";
import { resolveTranscript, resolveTranscriptTools } from "../transcript-tools.js";
import {
  appendGrammarToolInputJsonDelta,
  closeGrammarToolInputJson,
  getGrammarToolInput,
  resolveGrammarConstrainedSampling,
} from "./grammar-tools.js";
import { transformMessages } from "./replay-messages.js";
import { getJsonSchemaToolParameters, resolveJsonSchemaStrictSampling } from "./strict-schemas.js";
import { sanitizeSurrogates, shortHash } from "./text-safety.js";

// --- text signatures: the message item a text block came from -------------------

function encodeTextSignature(id, phase) {
  return JSON.stringify(phase ? { v: 1, id, phase } : { v: 1, id });
}

function parseTextSignature(signature) {
  if (!signature) return undefined;
  if (signature.startsWith("{")) {
    try {
      const parsed = JSON.parse(signature);
      if (parsed.v === 1 && typeof parsed.id === "string") {
        return parsed.phase === "commentary" || parsed.phase === "final_answer" ? { id: parsed.id, phase: parsed.phase } : { id: parsed.id };
      }
    } catch {
      // Not JSON after all: an id of the first version, taken as it is.
    }
  }
  return { id: signature };
}

function toolResultOutput(model, content) {
  const text = content.filter((block) => block.type === "text").map((block) => block.text).join("\n");
  const images = content.filter((block) => block.type === "image");
  const hasText = text.trim().length > 0;
  if (images.length === 0 || !model.input.includes("image")) {
    return sanitizeSurrogates(hasText ? text : images.length > 0 ? "(see attached image)" : "(no tool output)");
  }
  const output = hasText ? [{ type: "input_text", text: sanitizeSurrogates(text) }] : [];
  for (const image of images) output.push({ type: "input_image", detail: "auto", image_url: `data:${image.mimeType};base64,${image.data}` });
  return output;
}

// --- the transcript as input items ---------------------------------------------

/**
 * How a transport says tool changes: all in place with additional_tools
 * items (which add and replace, never remove, so removals are announced as
 * text), as synthetic tool searches (additions only), or not at all.
 */
export function getResponsesToolSupport(options) {
  if (options.supportsMidConvoSystemMessages && options.supportsAdditionalTools) return "changes";
  return options.supportsToolSearch ? "additions" : "none";
}

/** Precedes every additional_tools item after the first, so the model does not take it for the whole tool set. */
function incrementalToolsNotice(unavailable) {
  const notice =
    "This is an incremental tools update. Previously declared tools remain available unless explicitly marked unavailable. A tool declared again here is available again, and its latest definition replaces the earlier one.";
  return unavailable.size > 0 ? `${notice}\nStill unavailable: ${[...unavailable].join(", ")}.` : notice;
}

function toolRemovalNotice(names) {
  return `The following tools are no longer available. Do not call them:\n${names.map((name) => `- ${name}`).join("\n")}`;
}

function idPart(part) {
  const sanitized = part.replace(/[^a-zA-Z0-9_-]/g, "_");
  return (sanitized.length > 64 ? sanitized.slice(0, 64) : sanitized).replace(/_+$/, "");
}

export function convertResponsesMessages(model, context, allowedToolCallProviders, options) {
  const transcript = resolveTranscript(context, options?.supportsMidConvoSystemMessages);
  const items = [];
  // Tool call ids are "<call_id>|<item id>"; item ids of other apis become fc_<hash>.
  const normalizeToolCallId = (id, _target, source) => {
    if (!allowedToolCallProviders.has(model.provider) || !id.includes("|")) return idPart(id);
    const [callId, itemId] = id.split("|");
    const foreign = source.provider !== model.provider || source.api !== model.api;
    let item = foreign ? `fc_${shortHash(itemId)}`.slice(0, 64) : idPart(itemId);
    if (!item.startsWith("fc_")) item = idPart(`fc_${item}`);
    return `${idPart(callId)}|${item}`;
  };
  const messages = transformMessages(transcript.messages, model, normalizeToolCallId);
  const toolSupport = getResponsesToolSupport(options ?? {});
  const transcriptTools = resolveTranscriptTools(transcript.messages, toolSupport);
  const instructionRole = model.reasoning && model.compat?.supportsDeveloperRole !== false ? "developer" : "system";
  let declaredAdditionalTools = false;
  // Tools announced as removed and not declared again since.
  const unavailable = new Set();
  const addTools = (message, seed) => {
    const tools = message.toolsAdded ?? [];
    for (const tool of tools) unavailable.delete(tool.name);
    if (tools.length === 0) return;
    if (toolSupport === "changes") {
      if (declaredAdditionalTools) items.push({ role: instructionRole, content: incrementalToolsNotice(unavailable) });
      declaredAdditionalTools = true;
      items.push({ type: "additional_tools", role: "developer", tools: convertResponsesTools(tools, options?.toolOptions) });
      return;
    }
    if (toolSupport !== "additions") return;
    const names = tools.map((tool) => tool.name);
    const callId = `pi_tool_load_${shortHash(`${seed}:${names.join(",")}`)}`;
    items.push({ type: "tool_search_call", call_id: callId, execution: "client", status: "completed", arguments: { query: names.join(" "), limit: names.length } });
    items.push({
      type: "tool_search_output",
      call_id: callId,
      execution: "client",
      status: "completed",
      tools: convertResponsesTools(tools, { ...options?.toolOptions, toolSearchResult: true }),
    });
  };
  const configurationUpdate = (effort) => items.push({ type: "configuration_update", reasoning: { effort } });
  let messageIndex = 0;
  let sourceIndex = 0;
  let systemIndex = 0;
  for (const message of messages) {
    const leadingSystem = sourceIndex++ === 0 && message.role === "system";
    if (message.role === "system") {
      const anchorsToolChanges = systemIndex++ >= transcriptTools.foldedSystemMessages;
      if (anchorsToolChanges) addTools(message, `system:${messageIndex}`);
      const parts = [leadingSystem ? getSystemMessageText(message) : renderSystemMessageUpdate(message)];
      if (anchorsToolChanges) {
        // A redefinition is a removal and an addition of one name: only true removals are announced.
        const added = new Set((message.toolsAdded ?? []).map((tool) => tool.name));
        const removed = (message.toolsRemoved ?? []).map((tool) => tool.name).filter((name) => !added.has(name));
        if (removed.length > 0) parts.push(toolRemovalNotice(removed));
        for (const name of removed) unavailable.add(name);
      }
      const text = parts.filter((part) => part.length > 0).join("\n\n");
      if (text.length > 0) items.push({ role: instructionRole, content: sanitizeSurrogates(text) });
    } else if (message.role === "user") {
      if (typeof message.content === "string") {
        items.push({ role: "user", content: [{ type: "input_text", text: sanitizeSurrogates(message.content) }] });
      } else {
        const content = message.content.map((block) =>
          block.type === "text"
            ? { type: "input_text", text: sanitizeSurrogates(block.text) }
            : { type: "input_image", detail: "auto", image_url: `data:${block.mimeType};base64,${block.data}` },
        );
        if (content.length === 0) continue;
        items.push({ role: "user", content });
      }
    } else if (message.role === "assistant") {
      const output = assistantItems(model, message, messageIndex, options);
      if (output.length === 0) continue;
      const sameModel = message.provider === model.provider && message.api === model.api && message.model === model.id;
      if (options?.configurationUpdateEffort !== undefined && sameModel && message.providerThinkingLevel !== undefined) {
        configurationUpdate(message.providerThinkingLevel);
      }
      items.push(...output);
    } else if (message.role === "toolResult") {
      const [callId] = message.toolCallId.split("|");
      const type = options?.grammarToolInputProperties?.has(message.toolName) ? "custom_tool_call_output" : "function_call_output";
      items.push({ type, call_id: callId, output: toolResultOutput(model, message.content) });
    }
    if (!leadingSystem) messageIndex++;
  }
  if (options?.configurationUpdateEffort !== undefined) configurationUpdate(options.configurationUpdateEffort);
  return items;
}

function assistantItems(model, message, messageIndex, options) {
  const output = [];
  const sameProviderAndApi = message.provider === model.provider && message.api === model.api;
  const sameModel = sameProviderAndApi && message.model === model.id;
  const otherModel = sameProviderAndApi && message.model !== model.id;
  let textIndex = 0;
  for (const block of message.content) {
    if (block.type === "thinking") {
      // The signature is the reasoning item itself.
      if (block.thinkingSignature) output.push(JSON.parse(block.thinkingSignature));
    } else if (block.type === "text") {
      const signature = parseTextSignature(block.textSignature);
      const fallbackId = textIndex === 0 ? `msg_pi_${messageIndex}` : `msg_pi_${messageIndex}_${textIndex}`;
      textIndex++;
      // Message ids are at most 64 characters.
      let id = signature?.id;
      if (!id) id = fallbackId;
      else if (id.length > 64) id = `msg_${shortHash(id)}`;
      output.push({
        type: "message",
        role: "assistant",
        content: [{ type: "output_text", text: sanitizeSurrogates(block.text), annotations: [] }],
        status: "completed",
        id,
        phase: signature?.phase,
      });
    } else if (block.type === "toolCall") {
      const [callId, rawItemId] = block.id.split("|");
      const inputProperty = options?.grammarToolInputProperties?.get(block.name);
      // Another model's item ids were paired with its reasoning items; ids of the wrong item type are refused.
      const prefix = inputProperty === undefined ? "fc_" : "ctc_";
      const itemId = otherModel || !rawItemId?.startsWith(prefix) ? undefined : rawItemId;
      const namespace = sameModel && block.namespace !== undefined ? { namespace: block.namespace } : {};
      if (inputProperty !== undefined) {
        output.push({
          type: "custom_tool_call",
          id: itemId,
          call_id: callId,
          name: block.name,
          input: sanitizeSurrogates(getGrammarToolInput(block.name, block.arguments, inputProperty)),
          ...namespace,
        });
      } else {
        output.push({ type: "function_call", id: itemId, call_id: callId, name: block.name, arguments: JSON.stringify(block.arguments), ...namespace });
      }
    }
  }
  return output;
}

export function convertResponsesTools(tools, options) {
  const defaultStrict = options?.strict === undefined ? false : options.strict;
  const supportsStrictMode = options?.supportsStrictMode ?? true;
  const supportsGrammarTools = options?.supportsOpenAIGrammarTools ?? false;
  const deferred = options?.toolSearchResult ? { defer_loading: true } : {};
  return tools.map((tool) => {
    const grammar = resolveGrammarConstrainedSampling(tool, supportsGrammarTools);
    if (grammar) {
      return {
        type: "custom",
        name: tool.name,
        description: tool.description,
        format: { type: "grammar", syntax: grammar.format, definition: grammar.definition },
        ...deferred,
      };
    }
    const strict = resolveJsonSchemaStrictSampling(tool, supportsStrictMode) ?? defaultStrict;
    const converted = {
      type: "function",
      name: tool.name,
      description: tool.description,
      parameters: getJsonSchemaToolParameters(tool, strict === true),
      ...deferred,
    };
    if (supportsStrictMode) converted.strict = strict;
    return converted;
  });
}

// --- the event stream -------------------------------------------------------------

function mapStopReason(status, incompleteReason) {
  if (!status) return { stopReason: "stop" };
  switch (status) {
    case "completed":
    case "in_progress":
    case "queued":
      return { stopReason: "stop" };
    case "incomplete":
      if (incompleteReason === "max_output_tokens") return { stopReason: "length" };
      return {
        stopReason: "error",
        errorMessage: incompleteReason ? `Response incomplete: ${incompleteReason}` : "Response incomplete without a provider reason",
      };
    case "failed":
    case "cancelled":
      return { stopReason: "error" };
    default:
      throw new Error(`Unhandled stop reason: ${status}`);
  }
}

/**
 * Reasoning the api withheld from the model (after an edit of earlier
 * input, or made under another org, user or model). `turn_boundary`
 * removals are normal for models that keep only the current turn's
 * reasoning and are left out, or sessions would grow quadratically.
 */
function appendReasoningRemovals(output, transformations) {
  if (!Array.isArray(transformations)) return;
  const removals = transformations.filter(
    (transformation) => transformation?.type === "reasoning" && transformation.action === "removed" && transformation.reason !== "turn_boundary",
  );
  if (removals.length === 0) return;
  appendAssistantMessageDiagnostic(output, {
    type: "openai_input_transformations",
    timestamp: Date.now(),
    details: { transformations: removals.map(({ type, id, action, reason }) => ({ type, id, action, reason })) },
  });
}

function customInput(property, initialInput) {
  const buffer = { input: "", started: false, closed: false };
  return { kind: "custom", property, buffer, unsent: appendGrammarToolInputJsonDelta(buffer, property, initialInput) ?? "" };
}

/** The JSON text to emit for a custom input change, with what the item's own initial input left unsent. */
function sendCustomInput(block, input, jsonDelta) {
  block.arguments = { [input.property]: input.buffer.input };
  if (input.unsent === "") return jsonDelta;
  const sent = input.unsent + (jsonDelta ?? "");
  input.unsent = "";
  return sent;
}

/** Reads a Responses event stream into `output`, pushing pi's events on `stream`. */
export async function processResponsesStream(events, output, stream, model, options) {
  let sawTerminal = false;
  const slots = new Map();
  // Tool calls whose output_item.done has not arrived.
  const unfinishedCalls = new Set();
  const reasoningById = new Map();
  const push = (fields) => stream.push({ ...fields, partial: output });
  const finalAnswerStops = (item) => {
    if (item.type === "message" && item.phase === "final_answer") output.stopReason = "stop";
  };
  const slotOf = (index, type) => {
    const slot = slots.get(index);
    return slot?.type === type ? slot : undefined;
  };
  const pushCallDelta = (slot, delta) => {
    if (delta !== undefined) push({ type: "toolcall_delta", contentIndex: slot.contentIndex, delta });
  };
  const addSlot = (index, block, fields, startType) => {
    output.content.push(block);
    const slot = { ...fields, block, contentIndex: output.content.length - 1 };
    slots.set(index, slot);
    push({ type: startType, contentIndex: slot.contentIndex });
    return slot;
  };
  const createSlot = (index, item) => {
    if (item.type === "reasoning") return addSlot(index, { type: "thinking", thinking: "" }, { type: "thinking" }, "thinking_start");
    if (item.type === "message") {
      finalAnswerStops(item);
      return addSlot(index, { type: "text", text: "" }, { type: "text" }, "text_start");
    }
    const namespace = item.namespace !== undefined ? { namespace: item.namespace } : {};
    if (item.type === "function_call") {
      const args = new ToolCallArgumentsStream();
      const block = { type: "toolCall", id: `${item.call_id}|${item.id}`, name: item.name, arguments: item.arguments ? args.append(item.arguments) : {}, ...namespace };
      unfinishedCalls.add(block);
      return addSlot(index, block, { type: "toolCall", input: { kind: "json", arguments: args } }, "toolcall_start");
    }
    if (item.type === "custom_tool_call") {
      const property = options?.grammarToolInputProperties?.get(item.name) ?? "input";
      const initial = item.input || "";
      const block = { type: "toolCall", id: `${item.call_id}|${item.id}`, name: item.name, arguments: { [property]: initial }, ...namespace };
      unfinishedCalls.add(block);
      return addSlot(index, block, { type: "toolCall", input: customInput(property, initial) }, "toolcall_start");
    }
    return undefined;
  };
  // Azure may send encrypted reasoning only in the completed response; replay needs it.
  const backfillReasoning = (items) => {
    for (const item of items) {
      if (item.type !== "reasoning" || !item.encrypted_content) continue;
      const block = reasoningById.get(item.id);
      if (!block?.thinkingSignature) continue;
      const stored = JSON.parse(block.thinkingSignature);
      if (stored.encrypted_content) continue;
      block.thinkingSignature = JSON.stringify({ ...stored, encrypted_content: item.encrypted_content });
    }
  };
  const finalize = (response) => {
    sawTerminal = true;
    backfillReasoning(response.output ?? []);
    appendReasoningRemovals(output, response.input_transformations);
    if (response?.id) output.responseId = response.id;
    if (response?.usage) {
      const details = response.usage.input_tokens_details;
      const cached = details?.cached_tokens || 0;
      const written = details?.cache_write_tokens || 0;
      output.usage = {
        // input_tokens includes cached and cache-write tokens.
        input: Math.max(0, (response.usage.input_tokens || 0) - cached - written),
        output: response.usage.output_tokens || 0,
        cacheRead: cached,
        cacheWrite: written,
        reasoning: response.usage.output_tokens_details?.reasoning_tokens || 0,
        totalTokens: response.usage.total_tokens || 0,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      };
    }
    calculateCost(model, output.usage);
    if (options?.applyServiceTierPricing) {
      const tier = options.resolveServiceTier
        ? options.resolveServiceTier(response?.service_tier, options.serviceTier)
        : (response?.service_tier ?? options.serviceTier);
      options.applyServiceTierPricing(output.usage, tier);
    }
    // Incomplete answers keep their reason, so truncation and filtering stay apart.
    const status = response?.status;
    const reason = typeof response?.incomplete_details?.reason === "string" ? response.incomplete_details.reason : undefined;
    output.rawStopReason = reason ? `${status}.${reason}` : status;
    const mapped = mapStopReason(status, reason);
    output.stopReason = mapped.stopReason;
    if (mapped.errorMessage === undefined) delete output.errorMessage;
    else output.errorMessage = mapped.errorMessage;
    if (output.content.some((block) => block.type === "toolCall") && output.stopReason === "stop") output.stopReason = "toolUse";
  };
  for await (const event of events) {
    await options?.onProviderStreamEvent?.(event, model);
    const type = event.type;
    if (type === "response.created") {
      output.responseId = event.response.id;
    } else if (type === "response.output_item.added") {
      createSlot(event.output_index, event.item);
    } else if (type === "response.reasoning_summary_text.delta" || type === "response.reasoning_text.delta" || type === "response.reasoning_summary_part.done") {
      const slot = slotOf(event.output_index, "thinking");
      if (!slot) continue;
      // Summary parts are separated by a blank line.
      const delta = type === "response.reasoning_summary_part.done" ? "\n\n" : event.delta;
      slot.block.thinking += delta;
      push({ type: "thinking_delta", contentIndex: slot.contentIndex, delta });
    } else if (type === "response.output_text.delta" || type === "response.refusal.delta") {
      const slot = slotOf(event.output_index, "text");
      if (!slot) continue;
      slot.block.text += event.delta;
      push({ type: "text_delta", contentIndex: slot.contentIndex, delta: event.delta });
    } else if (type === "response.function_call_arguments.delta") {
      const slot = slotOf(event.output_index, "toolCall");
      if (slot?.input.kind !== "json") continue;
      slot.block.arguments = slot.input.arguments.append(event.delta);
      pushCallDelta(slot, event.delta);
    } else if (type === "response.function_call_arguments.done") {
      const slot = slotOf(event.output_index, "toolCall");
      if (slot?.input.kind !== "json") continue;
      const replaced = slot.input.arguments.replace(event.arguments);
      slot.block.arguments = replaced.arguments;
      if (replaced.delta) pushCallDelta(slot, replaced.delta);
    } else if (type === "response.custom_tool_call_input.delta") {
      const slot = slotOf(event.output_index, "toolCall");
      if (slot?.input.kind !== "custom") continue;
      pushCallDelta(slot, sendCustomInput(slot.block, slot.input, appendGrammarToolInputJsonDelta(slot.input.buffer, slot.input.property, event.delta)));
    } else if (type === "response.custom_tool_call_input.done") {
      const slot = slotOf(event.output_index, "toolCall");
      if (slot?.input.kind !== "custom") continue;
      pushCallDelta(slot, sendCustomInput(slot.block, slot.input, closeGrammarToolInputJson(slot.input.buffer, slot.input.property, event.input)));
    } else if (type === "response.output_item.done") {
      const item = event.item;
      finalAnswerStops(item);
      const slot = slots.get(event.output_index) ?? createSlot(event.output_index, item);
      if (item.type === "reasoning" && slot?.type === "thinking") {
        const summary = item.summary?.map((part) => part.text).join("\n\n") || "";
        const content = item.content?.map((part) => part.text).join("\n\n") || "";
        slot.block.thinking = summary || content || slot.block.thinking;
        slot.block.thinkingSignature = JSON.stringify(item);
        reasoningById.set(item.id, slot.block);
        push({ type: "thinking_end", contentIndex: slot.contentIndex, content: slot.block.thinking });
        slots.delete(event.output_index);
      } else if (item.type === "message" && slot?.type === "text") {
        slot.block.text = item.content?.map((part) => (part.type === "output_text" ? part.text : part.refusal)).join("") || "";
        slot.block.textSignature = encodeTextSignature(item.id, item.phase ?? undefined);
        push({ type: "text_end", contentIndex: slot.contentIndex, content: slot.block.text });
        slots.delete(event.output_index);
      } else if (item.type === "function_call" && slot?.type === "toolCall" && slot.input.kind === "json") {
        if (item.arguments) slot.input.arguments.replace(item.arguments);
        Object.assign(slot.block, slot.input.arguments.finish());
        if (item.namespace !== undefined) slot.block.namespace = item.namespace;
        unfinishedCalls.delete(slot.block);
        push({ type: "toolcall_end", contentIndex: slot.contentIndex, toolCall: slot.block });
        slots.delete(event.output_index);
      } else if (item.type === "custom_tool_call" && slot?.type === "toolCall" && slot.input.kind === "custom") {
        pushCallDelta(slot, sendCustomInput(slot.block, slot.input, closeGrammarToolInputJson(slot.input.buffer, slot.input.property, item.input)));
        if (item.namespace !== undefined) slot.block.namespace = item.namespace;
        unfinishedCalls.delete(slot.block);
        push({ type: "toolcall_end", contentIndex: slot.contentIndex, toolCall: slot.block });
        slots.delete(event.output_index);
      }
    } else if (type === "response.completed" || type === "response.incomplete") {
      finalize(event.response);
    } else if (type === "error") {
      throw new Error(`Error Code ${event.code}: ${event.message}`);
    } else if (type === "response.failed") {
      sawTerminal = true;
      output.rawStopReason = event.response?.status;
      const error = event.response?.error;
      const details = event.response?.incomplete_details;
      throw new Error(
        error
          ? `${error.code || "unknown"}: ${error.message || "no message"}`
          : details?.reason
            ? `incomplete: ${details.reason}`
            : "Unknown error (no error details in response)",
      );
    }
  }
  if (!sawTerminal) throw new Error("OpenAI Responses stream ended before a terminal response event");
  // The agent runs every call of the final message: a call cut off before its end is refused.
  if (output.stopReason === "toolUse") {
    for (const call of unfinishedCalls) {
      throw new Error(`OpenAI Responses stream completed with an unfinished tool call: ${call.name} (${call.id})`);
    }
  }
}
