// Transcript helpers: the system messages of a transcript replayed into the
// current prompt and tool set. A module of its own because pihost's runner
// needs them at start-up, and importing them must not evaluate all of pi-ai.
import { contentText, getSystemMessageText } from "./system-text.js";
// pihost's runner builds every context event's system message with these:
// they use the built-ins captured before any extension ran, so one that
// patches arrays or maps cannot change what the host is sent.
import { ArrayFromValues, ArrayIsArray, ArrayPrototypeJoin, ObjectDefineProperty, ObjectKeys, SafeMap } from "../../runtime/primordials.js";

export function isSystemMessage(message) {
  return message.role === "system";
}

/**
 * The messages as a list: pi iterates whatever it is given, so another
 * iterable is read once into a list, and what is not iterable throws pi's
 * TypeError ("messages is not iterable").
 */
function messageList(messages) {
  if (ArrayIsArray(messages)) return messages;
  const list = [];
  for (const message of messages) list[list.length] = message;
  return list;
}

/** The tools in effect after every system message's deltas, in order. */
export function getCurrentTools(messages) {
  messages = messageList(messages);
  const tools = new SafeMap();
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index];
    if (!isSystemMessage(message)) continue;
    const removed = message.toolsRemoved ?? [];
    for (let at = 0; at < removed.length; at++) tools.delete(removed[at].name);
    const added = message.toolsAdded ?? [];
    for (let at = 0; at < added.length; at++) tools.set(added[at].name, added[at]);
  }
  return ArrayFromValues(tools);
}

/** Every system message replayed into one: prompt text, sections and tools. */
export function getCurrentSystemMessage(messages) {
  messages = messageList(messages);
  const content = [];
  const sections = new SafeMap();
  let timestamp;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index];
    if (!isSystemMessage(message)) continue;
    timestamp ??= message.timestamp;
    const text = contentText(message.content);
    if (text.length > 0) content[content.length] = text;
    const given = message.sections ?? {};
    const names = ObjectKeys(given);
    for (let at = 0; at < names.length; at++) {
      if (given[names[at]] === null) sections.delete(names[at]);
      else sections.set(names[at], given[names[at]]);
    }
  }
  const tools = getCurrentTools(messages);
  if (timestamp === undefined && tools.length === 0) return undefined;
  return {
    role: "system",
    content: ArrayPrototypeJoin(content, "\n\n"),
    ...(sections.size > 0 ? { sections: fieldsOf(sections) } : {}),
    ...(tools.length > 0 ? { toolsAdded: tools } : {}),
    timestamp: timestamp ?? 0,
  };
}

/** A map's entries as own fields (as Object.fromEntries). */
function fieldsOf(map) {
  const fields = {};
  map.forEach((value, key) => {
    ObjectDefineProperty(fields, key, { value, writable: true, enumerable: true, configurable: true });
  });
  return fields;
}

/** The current system prompt text after replaying every system message. */
export function getCurrentSystemPrompt(messages) {
  const message = getCurrentSystemMessage(messages);
  return message ? getSystemMessageText(message) : "";
}

/** The replayed system message first, every other system message dropped. */
export function collapseSystemMessages(context) {
  const head = getCurrentSystemMessage(context.messages);
  const messages = context.messages.filter((message) => !isSystemMessage(message));
  return { messages: head ? [head, ...messages] : messages };
}

