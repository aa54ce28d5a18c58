// A transcript made fit to replay to one model: images the model cannot see
// become placeholders, thinking and signatures of other models are dropped,
// tool call ids are rewritten to the api's rules, failed turns are skipped,
// and every tool call gets a result (a synthetic error when it had none).

const USER_IMAGE_PLACEHOLDER = "(image omitted: model does not support images)";
const TOOL_IMAGE_PLACEHOLDER = "(tool image omitted: model does not support images)";
const ERROR_IMAGE_PLACEHOLDER = "(image attached after the tool results)";

/** Runs of images as one placeholder text block (one already there counts). */
function collapseImages(content, placeholder) {
  const result = [];
  let afterPlaceholder = false;
  for (const block of content) {
    if (block.type === "image") {
      if (!afterPlaceholder) result.push({ type: "text", text: placeholder });
      afterPlaceholder = true;
      continue;
    }
    result.push(block);
    afterPlaceholder = block.text === placeholder;
  }
  return result;
}

/**
 * For apis that reject images in error tool results: the result's content
 * with placeholders, and the caption and images to send after the turn's
 * results; undefined when the result needs no split.
 */
export function splitErrorToolResultImages(message) {
  if (!message.isError) return undefined;
  const images = message.content.filter((block) => block.type === "image");
  if (images.length === 0) return undefined;
  return {
    content: collapseImages(message.content, ERROR_IMAGE_PLACEHOLDER),
    caption: `Images from the error result of tool call ${message.toolCallId} (${message.toolName}):`,
    images,
  };
}

function withoutUnseenImages(messages, model) {
  if (model.input.includes("image")) return messages;
  return messages.map((message) => {
    if (message.role === "user" && Array.isArray(message.content)) {
      return { ...message, content: collapseImages(message.content, USER_IMAGE_PLACEHOLDER) };
    }
    if (message.role === "toolResult") return { ...message, content: collapseImages(message.content, TOOL_IMAGE_PLACEHOLDER) };
    return message;
  });
}

function replayAssistant(message, model, normalizeToolCallId, renamedIds) {
  const sameModel = message.provider === model.provider && message.api === model.api && message.model === model.id;
  const content = message.content.flatMap((block) => {
    if (block.type === "thinking") {
      // Another model's thinking would read as part of the visible reply.
      if (!sameModel) return [];
      // Signed or redacted blocks are kept even empty: they are needed for replay.
      if (block.redacted || block.thinkingSignature) return block;
      return !block.thinking || block.thinking.trim() === "" ? [] : block;
    }
    if (block.type === "text") return sameModel ? block : { type: "text", text: block.text };
    if (block.type !== "toolCall") return block;
    let call = block;
    if (!sameModel && call.thoughtSignature) {
      call = { ...call };
      delete call.thoughtSignature;
    }
    if (!sameModel && normalizeToolCallId) {
      const id = normalizeToolCallId(call.id, model, message);
      if (id !== call.id) {
        renamedIds.set(call.id, id);
        call = { ...call, id };
      }
    }
    return call;
  });
  return { ...message, content };
}

export function transformMessages(messages, model, normalizeToolCallId) {
  const renamedIds = new Map();
  // Untyped callers (old sessions, hand-built histories) may leave content null.
  const present = messages.map((message) => (message.content == null ? { ...message, content: [] } : message));
  const transformed = withoutUnseenImages(present, model).map((message) => {
    if (message.role === "toolResult") {
      const id = renamedIds.get(message.toolCallId);
      return id && id !== message.toolCallId ? { ...message, toolCallId: id } : message;
    }
    if (message.role === "assistant") return replayAssistant(message, model, normalizeToolCallId, renamedIds);
    return message;
  });

  const result = [];
  let openCalls = [];
  let answered = new Set();
  // A system message between a call and its results moves after them.
  const heldSystem = [];
  const closeOpenCalls = () => {
    for (const call of openCalls) {
      if (answered.has(call.id)) continue;
      result.push({
        role: "toolResult",
        toolCallId: call.id,
        toolName: call.name,
        content: [{ type: "text", text: "No result provided" }],
        isError: true,
        timestamp: Date.now(),
      });
    }
    openCalls = [];
    answered = new Set();
    result.push(...heldSystem);
    heldSystem.length = 0;
  };
  for (const message of transformed) {
    if (message.role === "assistant") {
      closeOpenCalls();
      // A failed or aborted turn is incomplete; the model retries from the last good state.
      if (message.stopReason === "error" || message.stopReason === "aborted") continue;
      const calls = message.content.filter((block) => block.type === "toolCall");
      if (calls.length > 0) {
        openCalls = calls;
        answered = new Set();
      }
      result.push(message);
    } else if (message.role === "toolResult") {
      answered.add(message.toolCallId);
      result.push(message);
    } else if (message.role === "system" && openCalls.length > 0) {
      heldSystem.push(message);
    } else {
      if (message.role === "user") closeOpenCalls();
      result.push(message);
    }
  }
  closeOpenCalls();
  return result;
}
