// `ctx.sessionManager`: pi's ReadonlySessionManager over the session the host
// gives (HostState.session: header, entries, leaf). The host owns the
// session; pihost keeps a read-only view of it that extensions query
// synchronously, and adds to it what the extensions themselves append
// (`pi.appendEntry`, `pi.setLabel`, `pi.setSessionName`), so that what an
// extension appended is in `getEntries()` at once, as in pi, before the host
// has sent the session again. Pure JavaScript with no pihost ops: the compat
// driver runs it on Node against the reference too.
import {
  ArrayIsArray,
  ArrayPrototypePop,
  ArrayPrototypeReverse,
  ArrayPrototypeSlice,
  ArrayPrototypeSort,
  SafeMap,
  StringPrototypeReplace,
  StringPrototypeSlice,
  StringPrototypeTrim,
} from "./primordials.js";
import { buildContextEntries, buildSessionProjection } from "../pi/coding-agent/session-context.js";

/** pi's ids: 8 hex characters, unique among the session's. */
function generateId(byId) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const id = StringPrototypeSlice(globalThis.crypto.randomUUID(), 0, 8);
    if (!byId.has(id)) return id;
  }
  return globalThis.crypto.randomUUID();
}

/**
 * A session view. `replace(session)` takes the host's session
 * (`{ header?, entries?, leafId?, sessionFile?, sessionDir?, cwd? }`);
 * `append*` add entries as pi's SessionManager does (child of the leaf,
 * which moves to it) and answer the entry. Only `readonly()` is given to
 * extensions.
 */
export class SessionView {
  #header = null;
  #entries = [];
  #byId = new SafeMap();
  #labels = new SafeMap();
  #labelTimestamps = new SafeMap();
  #leafId = null;
  #sessionFile = undefined;
  #sessionDir = "";
  #cwd = undefined;
  /** The cwd when the host's session names none: the extensions' cwd. */
  #defaultCwd;
  #readonly;

  constructor(defaultCwd = "") {
    this.#defaultCwd = defaultCwd;
  }

  /** The extensions' cwd, which `getCwd` answers when the host's session names none. */
  setDefaultCwd(cwd) {
    this.#defaultCwd = cwd;
  }

  /** Takes the host's session, as pi indexes a loaded session file. */
  replace(session) {
    const given = session ?? {};
    this.#header = given.header ?? null;
    // Entries are the host's JSON: kept as given, only indexed.
    const entries = [];
    if (ArrayIsArray(given.entries)) {
      for (let index = 0; index < given.entries.length; index++) {
        const entry = given.entries[index];
        if (entry?.type !== "session") entries[entries.length] = entry;
      }
    }
    this.#entries = entries;
    this.#byId = new SafeMap();
    this.#labels = new SafeMap();
    this.#labelTimestamps = new SafeMap();
    let leaf = null;
    for (let index = 0; index < entries.length; index++) {
      const entry = entries[index];
      if (typeof entry?.id !== "string") continue;
      this.#byId.set(entry.id, entry);
      leaf = entry.id;
      if (entry.type === "label") this.#applyLabel(entry);
    }
    this.#leafId = typeof given.leafId === "string" ? given.leafId : leaf;
    this.#sessionFile = given.sessionFile ?? undefined;
    this.#sessionDir = given.sessionDir ?? "";
    this.#cwd = given.cwd;
  }

  #applyLabel(entry) {
    if (entry.label) {
      this.#labels.set(entry.targetId, entry.label);
      this.#labelTimestamps.set(entry.targetId, entry.timestamp);
    } else {
      this.#labels.delete(entry.targetId);
      this.#labelTimestamps.delete(entry.targetId);
    }
  }

  #append(fields) {
    const entry = { ...fields, id: generateId(this.#byId), parentId: this.#leafId, timestamp: new Date().toISOString() };
    this.#entries[this.#entries.length] = entry;
    this.#byId.set(entry.id, entry);
    this.#leafId = entry.id;
    return entry;
  }

  /** `pi.appendEntry(customType, data)`: pi's appendCustomEntry. */
  appendCustom(customType, data) {
    return this.#append({ type: "custom", customType, data });
  }

  /** `pi.setSessionName(name)`: pi's appendSessionInfo. */
  appendSessionInfo(name) {
    return this.#append({ type: "session_info", name: StringPrototypeTrim(StringPrototypeReplace(String(name), /[\r\n]+/g, " ")) });
  }

  /**
   * `pi.setLabel(entryId, label)`: pi's appendLabelChange. pi throws for an
   * unknown entry; here the host's session may hold entries pihost was not
   * sent, so an unknown target only goes to the host (undefined).
   */
  appendLabel(targetId, label) {
    if (!this.#byId.has(targetId)) return undefined;
    const entry = this.#append({ type: "label", targetId, label });
    this.#applyLabel(entry);
    return entry;
  }

  #latestSessionInfo() {
    for (let index = this.#entries.length - 1; index >= 0; index--) {
      if (this.#entries[index].type === "session_info") return this.#entries[index];
    }
    return undefined;
  }

  /** The name of the session's latest `session_info` entry, as pi's getSessionName answers; undefined without one. */
  sessionName() {
    const entry = this.#latestSessionInfo();
    if (entry === undefined) return undefined;
    return (typeof entry.name === "string" ? StringPrototypeTrim(entry.name) : entry.name?.trim()) || undefined;
  }

  /** Whether the session has a `session_info` entry (a name, or a cleared one). */
  hasSessionInfo() {
    return this.#latestSessionInfo() !== undefined;
  }

  /** What `ctx.sessionManager` is: the read-only names, answered as pi answers them. */
  readonly() {
    if (this.#readonly) return this.#readonly;
    const view = this;
    const manager = {
      getCwd: () => view.#cwd ?? view.#header?.cwd ?? view.#defaultCwd,
      getSessionDir: () => view.#sessionDir,
      getSessionId: () => view.#header?.id,
      getSessionFile: () => view.#sessionFile,
      getLeafId: () => view.#leafId,
      getLeafEntry: () => (view.#leafId ? view.#byId.get(view.#leafId) : undefined),
      getEntry: (id) => view.#byId.get(id),
      getLabel: (id) => view.#labels.get(id),
      getHeader: () => view.#header,
      getEntries: () => ArrayPrototypeSlice(view.#entries),
      getBranch(fromId) {
        const path = [];
        const startId = fromId ?? view.#leafId;
        let current = startId ? view.#byId.get(startId) : undefined;
        while (current) {
          path[path.length] = current;
          current = current.parentId ? view.#byId.get(current.parentId) : undefined;
        }
        return ArrayPrototypeReverse(path);
      },
      getTree() {
        const entries = view.#entries;
        const nodes = new SafeMap();
        const roots = [];
        for (let index = 0; index < entries.length; index++) {
          const entry = entries[index];
          nodes.set(entry.id, { entry, children: [], label: view.#labels.get(entry.id), labelTimestamp: view.#labelTimestamps.get(entry.id) });
        }
        for (let index = 0; index < entries.length; index++) {
          const entry = entries[index];
          const node = nodes.get(entry.id);
          const parent = entry.parentId === null || entry.parentId === entry.id ? undefined : nodes.get(entry.parentId);
          // An orphan (a parent the session lacks) is a root, as in pi.
          if (parent) parent.children[parent.children.length] = node;
          else roots[roots.length] = node;
        }
        const stack = ArrayPrototypeSlice(roots);
        while (stack.length > 0) {
          const node = ArrayPrototypePop(stack);
          ArrayPrototypeSort(node.children, (a, b) => new Date(a.entry.timestamp).getTime() - new Date(b.entry.timestamp).getTime());
          for (let index = 0; index < node.children.length; index++) stack[stack.length] = node.children[index];
        }
        return roots;
      },
      getSessionName: () => view.sessionName(),
      // What a model sees of the session, as pi's SessionManager builds it
      // (pi-coding-agent's own code, checked against pi in its differential).
      buildContextEntries: () => buildContextEntries(view.#entries, view.#leafId, view.#byId),
      buildSessionProjection: () => buildSessionProjection(view.#entries, view.#leafId, view.#byId),
    };
    this.#readonly = manager;
    return manager;
  }
}
