// Telling the model which tools it may call. The context's tools are what
// the runtime can execute; the transcript's system messages are what the
// model was told. Before a request, the difference between the two goes onto
// a system message as `toolsAdded` / `toolsRemoved`, so replaying the
// transcript always yields exactly the executable set.
import { getCurrentTools } from "../ai/system-messages.js";
import { getToolStateChanges, toToolDeclaration } from "../ai/tool-declarations.js";

const NOTHING_CHANGED = { toolsAdded: [], toolsRemoved: [] };

/** A copy of a system message carrying `changes`; an empty list leaves its field out. */
function withToolChanges(message, { toolsAdded, toolsRemoved }) {
  const { toolsAdded: _added, toolsRemoved: _removed, ...rest } = message;
  return {
    ...rest,
    ...(toolsAdded.length > 0 ? { toolsAdded } : {}),
    ...(toolsRemoved.length > 0 ? { toolsRemoved } : {}),
  };
}

function lastSystemIndex(messages) {
  for (let index = messages.length - 1; index >= 0; index--) {
    if (messages[index].role === "system") return index;
  }
  return -1;
}

/**
 * `pending` (messages about to join `context`) with the tool changes
 * declared. A pending system message's own tool fields are only intent: they
 * are replaced by the actual delta. Without one, a new system message goes
 * before the first pending message that is not a system message. Unchanged
 * input comes back as the same array.
 */
export function declareToolChanges(context, pending) {
  const systemIndex = lastSystemIndex(pending);
  const carrier = pending[systemIndex];
  const baseline = carrier
    ? pending.map((message, index) => (index === systemIndex ? withToolChanges(carrier, NOTHING_CHANGED) : message))
    : pending;
  const changes = getToolStateChanges(
    getCurrentTools([...context.messages, ...baseline]),
    (context.tools ?? []).map(toToolDeclaration),
  );
  const unchanged = changes.toolsAdded.length === 0 && changes.toolsRemoved.length === 0;
  if (carrier) {
    if (unchanged && !carrier.toolsAdded?.length && !carrier.toolsRemoved?.length) return pending;
    return baseline.map((message, index) => (index === systemIndex ? withToolChanges(carrier, changes) : message));
  }
  if (unchanged) return pending;
  const declaration = withToolChanges({ role: "system", content: "", timestamp: Date.now() }, changes);
  const firstOther = pending.findIndex((message) => message.role !== "system");
  const at = firstOther === -1 ? pending.length : firstOther;
  return [...pending.slice(0, at), declaration, ...pending.slice(at)];
}
