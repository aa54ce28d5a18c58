// `store(key, value)` across scripts. A successful script's writes become one
// `codemode-store` custom entry of the session, so a resumed session keeps
// them and each branch sees only the values written on its own path.

/** The custom entry type holding one script's writes: `{ set: { key: value }, delete: [key] }`. */
export const CODEMODE_STORE_ENTRY_TYPE = "codemode-store";

function isWritesRecord(data) {
  if (typeof data !== "object" || data === null) return false;
  const { set, delete: deleted } = data;
  return typeof set === "object" && set !== null && Array.isArray(deleted) && deleted.every((key) => typeof key === "string");
}

/** What `load()` sees: the branch's store entries applied from the root, deletions before writes. */
export function readCodemodeStore(branch) {
  const values = new Map();
  for (const entry of branch) {
    if (entry.type !== "custom" || entry.customType !== CODEMODE_STORE_ENTRY_TYPE || !isWritesRecord(entry.data)) continue;
    for (const key of entry.data.delete) values.delete(key);
    for (const [key, value] of Object.entries(entry.data.set)) values.set(key, value);
  }
  return Object.fromEntries(values);
}
