// Reading a session file: one JSON entry per line, upgraded in place to the
// current format. Version 1 files were a flat list; version 2 gave every
// entry an id and a parentId so sessions could branch; version 3 renamed
// the `hookMessage` role to `custom`.

export const CURRENT_SESSION_VERSION = 3;

/** The JSON values of a session file's lines; blank and unparsable lines are dropped. */
export function parseSessionEntries(content) {
  const entries = [];
  for (const line of content.trim().split("\n")) {
    if (line.trim() === "") continue;
    try {
      entries.push(JSON.parse(line));
    } catch {
      // A torn last line (a crash mid-write) must not lose the rest of the session.
    }
  }
  return entries;
}

// pi checks new ids against a set it never fills, so its collision check
// cannot fire; an 8-hex-digit id is all it ever hands out.
const shortId = () => globalThis.crypto.randomUUID().slice(0, 8);

function addTreeLinks(entries) {
  let previousId = null;
  for (const entry of entries) {
    if (entry.type === "session") {
      entry.version = 2;
      continue;
    }
    entry.id = shortId();
    entry.parentId = previousId;
    previousId = entry.id;
    // A non-numeric index is left as it is.
    if (entry.type === "compaction" && typeof entry.firstKeptEntryIndex === "number") {
      // Only entries before this one have their new id yet: a later target
      // lends whatever id it had (usually none).
      const target = entries[entry.firstKeptEntryIndex];
      if (target && target.type !== "session") entry.firstKeptEntryId = target.id;
      delete entry.firstKeptEntryIndex;
    }
  }
}

function renameHookMessages(entries) {
  for (const entry of entries) {
    if (entry.type === "session") {
      entry.version = 3;
    } else if (entry.type === "message" && entry.message && entry.message.role === "hookMessage") {
      entry.message.role = "custom";
    }
  }
}

/** Upgrades parsed entries to the current session version, in place; whether anything was upgraded. */
export function upgradeSessionEntries(entries) {
  const header = entries.find((entry) => entry.type === "session");
  const version = header?.version ?? 1;
  if (version >= CURRENT_SESSION_VERSION) return false;
  if (version < 2) addTreeLinks(entries);
  if (version < 3) renameHookMessages(entries);
  return true;
}

/** Upgrades parsed entries to the current session version, in place. */
export function migrateSessionEntries(entries) {
  upgradeSessionEntries(entries);
}
