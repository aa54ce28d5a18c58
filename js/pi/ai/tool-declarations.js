// Tools as the transcript declares them to the model: name, description,
// parameters and constrained sampling, nothing executable. Tool state moves
// through system messages (`toolsAdded`, `toolsRemoved`); these helpers
// compare declarations and tell which histories a transport can replay.

const isSystemMessage = (message) => message.role === "system";

/** The declaration of a tool; the parameters pass through JSON, which drops TypeBox's hidden marks and undefined fields. */
export function toToolDeclaration(tool) {
  const declaration = {
    name: tool.name,
    description: tool.description,
    parameters: JSON.parse(JSON.stringify(tool.parameters)),
  };
  if (tool.constrainedSampling !== undefined) declaration.constrainedSampling = tool.constrainedSampling;
  return declaration;
}

/** Whether two tools look the same to the model: their declarations serialize alike (same key order by construction). */
export function declarationsEqual(left, right) {
  return JSON.stringify(toToolDeclaration(left)) === JSON.stringify(toToolDeclaration(right));
}

/**
 * The deltas from one complete tool set to another. A tool whose
 * declaration changed is both removed and added again.
 */
export function getToolStateChanges(previous, current) {
  const before = new Map(previous.map((tool) => [tool.name, tool]));
  const after = new Map(current.map((tool) => [tool.name, tool]));
  const changed = (earlier, later) => earlier === undefined || later === undefined || !declarationsEqual(earlier, later);
  return {
    toolsAdded: current.filter((tool) => changed(before.get(tool.name), tool)).map(toToolDeclaration),
    toolsRemoved: previous.filter((tool) => changed(tool, after.get(tool.name))).map((tool) => ({ name: tool.name })),
  };
}

/** Every tool any system message added, the latest definition of each name, in the order names first appeared. */
export function getDeclaredTools(messages) {
  const byName = new Map();
  for (const message of messages) {
    if (!isSystemMessage(message)) continue;
    for (const tool of message.toolsAdded ?? []) byName.set(tool.name, tool);
  }
  return [...byName.values()];
}

/** Whether some name was added twice with different declarations (removals in between do not matter). */
export function hasToolRedefinitions(messages) {
  const byName = new Map();
  for (const message of messages) {
    if (!isSystemMessage(message)) continue;
    for (const tool of message.toolsAdded ?? []) {
      const earlier = byName.get(tool.name);
      if (earlier !== undefined && !declarationsEqual(earlier, tool)) return true;
      byName.set(tool.name, tool);
    }
  }
  return false;
}

/**
 * Whether the history removes a tool or adds a name again (even unchanged,
 * even after removing it): what a transport that can only add tools cannot
 * replay.
 */
export function hasNonAdditiveToolChanges(messages) {
  return lastNonAdditiveToolChange(messages.filter(isSystemMessage)) >= 0;
}

/**
 * The index, among `systemMessages`, of the last one that removes a tool or
 * adds a name seen before; -1 when there is none.
 */
export function lastNonAdditiveToolChange(systemMessages) {
  // A name stays seen after its removal: adding it back is a redeclaration
  // too (some models ignore a removed tool declared again).
  const seen = new Set();
  let last = -1;
  systemMessages.forEach((message, index) => {
    if ((message.toolsRemoved?.length ?? 0) > 0) last = index;
    for (const tool of message.toolsAdded ?? []) {
      if (seen.has(tool.name)) last = index;
      seen.add(tool.name);
    }
  });
  return last;
}
