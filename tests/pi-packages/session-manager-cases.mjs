// Cases of pi-coding-agent's SessionManager for the pi package case table
// (pi-packages-cases.mjs). Each case works in a fresh temp directory, with
// PI_CODING_AGENT_DIR pointed inside it so default session directories never
// touch the real home. Results are reduced to stable data: the temp path is
// <tmp> (<tmp-cwd> where pi encodes it into a directory name), the working
// directory <cwd>, session UUIDs uuid1, uuid2, … and entry ids id1, id2, …
// in order of appearance, and the clock's timestamps <now> (<now-ms> as
// milliseconds). Errors are caught in the case so their paths are reduced too.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const ENTRY_ID = /(?<![0-9A-Za-z])[0-9a-f]{8}(?![0-9A-Za-z])/g;
// Fixed test data is dated 2020; anything later came from the clock.
const NOW_ISO = /20(?:2[5-9]|[3-9]\d)-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g;
const NOW_FILE_TIME = /20(?:2[5-9]|[3-9]\d)-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z/g;
const NOW_MS = /(?<!\d)1[7-9]\d{11}(?!\d)/g;
const isNowMs = (value) => Number.isInteger(value) && value > 1.7e12 && value < 2e12;

/** Rewrites a case's result into stable data (see the file comment). */
export function stabilizer(tmp) {
  const encodedTmp = tmp.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-");
  const uuids = new Map();
  const ids = new Map();
  const named = (map, prefix) => (id) => {
    if (!map.has(id)) map.set(id, `${prefix}${map.size + 1}`);
    return map.get(id);
  };
  const text = (value) =>
    value
      .replaceAll(tmp, "<tmp>")
      .replaceAll(encodedTmp, "<tmp-cwd>")
      .replaceAll(process.cwd(), "<cwd>")
      .replace(UUID, named(uuids, "uuid"))
      .replace(NOW_FILE_TIME, "<now>")
      .replace(NOW_ISO, "<now>")
      .replace(NOW_MS, "<now-ms>")
      .replace(ENTRY_ID, named(ids, "id"));
  const walk = (value) => {
    if (typeof value === "string") return text(value);
    if (typeof value === "number") return isNowMs(value) ? "<now-ms>" : value;
    if (value instanceof Date) return walk(value.toJSON());
    if (value instanceof Error) return { error: text(value.message) };
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === "object") {
      const out = {};
      for (const [key, item] of Object.entries(value)) out[text(key)] = walk(item);
      return out;
    }
    return value;
  };
  return walk;
}

/** The error a call throws (as { error }), or what it returns. */
function attempt(run) {
  try {
    return run();
  } catch (error) {
    return error;
  }
}

async function attemptAsync(run) {
  try {
    return await run();
  } catch (error) {
    return error instanceof Error ? error : { rejected: String(error) };
  }
}

const at = (n) => `2020-01-01T00:00:${String(n).padStart(2, "0")}.000Z`;
const ms = (n) => Date.parse(at(n));
const user = (text, n) => ({ role: "user", content: text, timestamp: ms(n) });
const assistant = (text, n, model = "m1") => ({
  role: "assistant",
  content: [{ type: "text", text }],
  api: "test-api",
  provider: "test",
  model,
  stopReason: "stop",
  timestamp: ms(n),
});
const systemPrompt = (n) => ({
  role: "system",
  content: "You are helpful.",
  sections: { preamble: "You are helpful." },
  toolsAdded: [{ name: "read", description: "Read a file", parameters: {} }],
  timestamp: ms(n),
});
const jsonl = (entries) => entries.map((entry) => `${JSON.stringify(entry)}\n`).join("");

export function addSessionManagerCases(add, agent) {
  const { SessionManager } = agent;

  /** Runs `run(tmp)` in a fresh temp directory whose agent/ is pi's agent directory. */
  const inTemp = (run) => async () => {
    const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pihost-session-")));
    const savedAgentDir = process.env.PI_CODING_AGENT_DIR;
    process.env.PI_CODING_AGENT_DIR = path.join(tmp, "agent");
    try {
      return stabilizer(tmp)(await run(tmp));
    } finally {
      if (savedAgentDir === undefined) delete process.env.PI_CODING_AGENT_DIR;
      else process.env.PI_CODING_AGENT_DIR = savedAgentDir;
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  };
  const read = (file) => (file && fs.existsSync(file) ? fs.readFileSync(file, "utf8") : null);
  const write = (file, text) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    return file;
  };
  const listDir = (dir) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : null);
  /** What a manager shows through its getters. */
  const snapshot = (sm) => ({
    sessionId: sm.getSessionId(),
    sessionFile: sm.getSessionFile(),
    sessionDir: sm.getSessionDir(),
    cwd: sm.getCwd(),
    persisted: sm.isPersisted(),
    header: sm.getHeader(),
    leafId: sm.getLeafId(),
    leafEntry: sm.getLeafEntry(),
    entryCount: sm.getEntryCount(),
    entries: sm.getEntries(),
    name: sm.getSessionName(),
    context: sm.buildSessionContext(),
  });
  const treeShape = (nodes) => nodes.map((node) => ({ id: node.entry.id, type: node.entry.type, label: node.label, labelTimestamp: node.labelTimestamp, children: treeShape(node.children) }));
  /** A session file of `cwd` with a user message at second `n` (and an optional name). */
  const sessionFile = (dir, id, cwd, n, { name, extra = [] } = {}) =>
    write(
      path.join(dir, `2020-01-01T00-00-${String(n).padStart(2, "0")}-000Z_${id}.jsonl`),
      jsonl([
        { type: "session", version: 3, id, timestamp: at(n), cwd },
        { type: "message", id: `${id}-u`, parentId: null, timestamp: at(n), message: user(`hello from ${id}`, n) },
        { type: "message", id: `${id}-a`, parentId: `${id}-u`, timestamp: at(n + 1), message: assistant(`answer for ${id}`, n + 1) },
        ...(name === undefined ? [] : [{ type: "session_info", id: `${id}-n`, parentId: `${id}-a`, timestamp: at(n + 2), name }]),
        ...extra,
      ]),
    );
  const setMtime = (file, n) => fs.utimesSync(file, new Date(ms(n)), new Date(ms(n)));

  // --- Creating and appending ----------------------------------------------------------

  add("SessionManager create writes on the first conversation message", inTemp((tmp) => {
    const sm = SessionManager.create(path.join(tmp, "project"), path.join(tmp, "sessions"));
    const file = sm.getSessionFile();
    const steps = { created: { dir: listDir(path.join(tmp, "sessions")), usesDefaultDir: sm.usesDefaultSessionDir() } };
    sm.appendModelChange("test", "m0");
    sm.appendThinkingLevelChange("high");
    sm.appendMessage(systemPrompt(1));
    steps.beforeUser = read(file);
    const userId = sm.appendMessage(user("Hi there", 2));
    steps.afterUser = read(file);
    sm.appendMessage(assistant("Hello!", 3));
    sm.appendSessionInfo("  First\r\n\nchat  ");
    return { userId, steps, ...snapshot(sm), file: read(file) };
  }));
  add("SessionManager create in the default directory", inTemp((tmp) => {
    const sm = SessionManager.create(path.join(tmp, "project"));
    const second = sm.newSession({ parentSession: "/elsewhere/old.jsonl" });
    return {
      dir: sm.getSessionDir(),
      usesDefaultDir: sm.usesDefaultSessionDir(),
      sessions: listDir(path.join(tmp, "agent/sessions")),
      newSession: second,
      header: sm.getHeader(),
      sessionFile: sm.getSessionFile(),
    };
  }));
  add("SessionManager create with ids", inTemp((tmp) => {
    const dir = path.join(tmp, "sessions");
    return {
      given: attempt(() => SessionManager.create(tmp, dir, { id: "my-session.1" }).getSessionFile()),
      bad: ["", "-x", "x-", "a b", "a/b", "é"].map((id) => attempt(() => SessionManager.create(tmp, dir, { id }))),
      relativeCwd: attempt(() => SessionManager.create("project", dir).getCwd()),
      urlDir: attempt(() => SessionManager.create(tmp, `file://${tmp}/url%20dir`).getSessionFile()),
    };
  }));
  add("SessionManager assistant first and custom roles", inTemp((tmp) => {
    const sm = SessionManager.create(tmp, path.join(tmp, "s"));
    sm.appendMessage({ role: "custom", customType: "x", content: "c", display: true, timestamp: ms(1) });
    sm.appendMessage({ role: "toolResult", toolCallId: "t", toolName: "read", content: [], isError: false, timestamp: ms(2) });
    const beforeAssistant = read(sm.getSessionFile());
    sm.appendMessage(assistant("first", 3));
    return { beforeAssistant, file: read(sm.getSessionFile()) };
  }));

  add("SessionManager compactions carry the system prompt", inTemp((tmp) => {
    const sm = SessionManager.create(tmp, path.join(tmp, "s"));
    sm.appendMessage(systemPrompt(1));
    const u1 = sm.appendMessage(user("one", 2));
    sm.appendMessage(assistant("two", 3));
    const u2 = sm.appendMessage(user("three", 4));
    sm.appendMessage(assistant("four", 5, "m2"));
    const c1 = sm.appendCompaction("Summary one", u2, 1234, { readFiles: ["a"] }, false, { input: 1 });
    const afterFirst = { context: sm.buildSessionContext(), contextEntries: sm.buildContextEntries().map((entry) => entry.id) };
    sm.appendMessage({ role: "system", content: "", sections: { extra: "More." }, timestamp: ms(6) });
    sm.appendMessage(user("five", 7));
    const c2 = sm.appendCompaction("Summary two");
    const projection = sm.buildSessionProjection();
    return {
      ids: { u1, u2, c1, c2 },
      afterFirst,
      projection: { entries: projection.entries.map((entry) => [entry.sourceEntry.id, entry.messages.length]), messages: projection.messages, thinkingLevel: projection.thinkingLevel, model: projection.model },
      entries: sm.getEntries(),
      file: read(sm.getSessionFile()),
    };
  }));
  // The same file is ctx.sessionManager's session in tests/session.rs, which
  // checks pihost's session view against what pi answers here.
  add("SessionManager projection of a branched, compacted, edited session", inTemp((tmp) => {
    const file = write(path.join(tmp, "s", "view.jsonl"), fs.readFileSync(new URL("../fixtures/session-view.jsonl", import.meta.url), "utf8"));
    const views = {};
    for (const leaf of ["u3", "u4", "a1", "cmp"]) {
      const sm = SessionManager.open(file, path.join(tmp, "s"));
      sm.branch(leaf);
      const projection = sm.buildSessionProjection();
      views[leaf] = {
        contextEntries: sm.buildContextEntries().map((entry) => entry.id),
        projection: { entries: projection.entries.map((entry) => [entry.sourceEntry.id, entry.messages]), messages: projection.messages, thinkingLevel: projection.thinkingLevel, model: projection.model },
        name: sm.getSessionName(),
      };
    }
    const last = SessionManager.open(file, path.join(tmp, "s"));
    views.last = { leaf: last.getLeafId(), contextEntries: last.buildContextEntries().map((entry) => entry.id) };
    return views;
  }));
  add("SessionManager compaction without a system prompt", inTemp(() => {
    const sm = SessionManager.inMemory("/p");
    sm.appendMessage(user("one", 1));
    sm.appendCompaction("S", undefined, 10);
    return { entries: sm.getEntries(), context: sm.buildSessionContext() };
  }));

  add("SessionManager custom entries, usage and context edits", inTemp((tmp) => {
    const sm = SessionManager.create(tmp, path.join(tmp, "s"));
    const u = sm.appendMessage(user("question", 1));
    const a = sm.appendMessage(assistant("answer", 2));
    const custom = sm.appendCustomEntry("my-ext", { count: 1 });
    sm.appendCustomEntry("my-ext");
    const cm = sm.appendCustomMessageEntry("my-ext", "injected", true, { d: 1 });
    sm.appendCustomMessageEntry("my-ext", [{ type: "text", text: "hidden" }], false);
    const usage = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
    const usageEntries = [sm.appendUsage("cache_warm", "test", "m1", usage, "warm"), sm.appendUsage("other", "test", "m1", usage, "")];
    const roleCustom = sm.appendMessage({ role: "custom", customType: "x", content: "c", display: true, timestamp: ms(3) });
    const edits = {
      hideUser: attempt(() => sm.appendContextEdit(u, null)),
      assistantString: attempt(() => sm.appendContextEdit(a, { content: "edited" })),
      customMessageString: attempt(() => sm.appendContextEdit(cm, { content: "edited custom" })),
      userArray: attempt(() => sm.appendContextEdit(u, { content: [{ type: "text", text: "again" }] })),
      badReplacement: [undefined, "x", {}, { content: 1 }, { content: null }].map((replacement) => attempt(() => sm.appendContextEdit(u, replacement))),
      missing: attempt(() => sm.appendContextEdit("nope", null)),
      notEditable: attempt(() => sm.appendContextEdit(custom, null)),
      customRoleMessage: attempt(() => sm.appendContextEdit(roleCustom, null)),
    };
    sm.branch(u);
    const offBranch = attempt(() => sm.appendContextEdit(a, null));
    return { usageEntries, edits, offBranch, context: sm.buildSessionContext(), file: read(sm.getSessionFile()) };
  }));

  // --- Labels, the tree and branches -------------------------------------------------------

  add("SessionManager labels", inTemp(() => {
    const sm = SessionManager.inMemory("/p");
    const u = sm.appendMessage(user("one", 1));
    const a = sm.appendMessage(assistant("two", 2));
    const steps = [];
    steps.push(sm.appendLabelChange(u, "start"));
    steps.push(sm.appendLabelChange(a, "answer"));
    steps.push(sm.getLabel(u), sm.getLabel(a), sm.getLabel("nope"));
    steps.push(sm.appendLabelChange(u, undefined));
    steps.push(sm.getLabel(u));
    steps.push(sm.appendLabelChange(u, "again"));
    steps.push(sm.appendLabelChange(a, ""));
    steps.push(sm.getLabel(u), sm.getLabel(a));
    steps.push(attempt(() => sm.appendLabelChange("nope", "x")));
    return { steps, tree: treeShape(sm.getTree()), entries: sm.getEntries() };
  }));

  add("SessionManager branches and the tree", inTemp(() => {
    const sm = SessionManager.inMemory("/p");
    const u1 = sm.appendMessage(user("one", 1));
    const a1 = sm.appendMessage(assistant("two", 2));
    const u2 = sm.appendMessage(user("three", 3));
    sm.branch(u1);
    const a1b = sm.appendMessage(assistant("two again", 4));
    const afterBranch = { leaf: sm.getLeafId(), branch: sm.getBranch().map((entry) => entry.id), children: sm.getChildren(u1).map((entry) => entry.id) };
    const fromOld = sm.getBranch(u2).map((entry) => entry.id);
    const missingBranch = attempt(() => sm.branch("nope"));
    const summaryId = sm.branchWithSummary(a1, "Tried two again", { readFiles: [] }, true, { input: 5 });
    const afterSummary = { leaf: sm.getLeafId(), context: sm.buildSessionContext() };
    const missingSummary = attempt(() => sm.branchWithSummary("nope", "x"));
    sm.resetLeaf();
    const resetLeaf = sm.getLeafId();
    const root2 = sm.appendMessage(user("new root", 5));
    const rootSummary = sm.branchWithSummary(null, "From the top");
    return {
      ids: { u1, a1, u2, a1b, summaryId, root2, rootSummary },
      afterBranch,
      fromOld,
      missingBranch,
      afterSummary,
      missingSummary,
      resetLeaf,
      tree: treeShape(sm.getTree()),
      rootChildren: sm.getChildren(null).map((entry) => entry.id),
      summaryEntries: sm.getEntries().filter((entry) => entry.type === "branch_summary"),
      missingEntry: sm.getEntry("nope"),
      emptyBranch: sm.getBranch("nope"),
    };
  }));
  add("SessionManager branchWithSummary in an empty session", inTemp(() => {
    const sm = SessionManager.inMemory("/p");
    const id = sm.branchWithSummary(null, "Nothing yet");
    return { entry: sm.getEntry(id), undefinedFrom: attempt(() => sm.branchWithSummary(undefined, "x")), context: sm.buildSessionContext() };
  }));
  add("SessionManager tree orders children by time and adopts orphans", inTemp(() => {
    const sm = SessionManager.inMemory("/p", undefined, [
      { type: "session", version: 3, id: "s", timestamp: at(0), cwd: "/p" },
      { type: "message", id: "r", parentId: null, timestamp: at(1), message: user("root", 1) },
      { type: "message", id: "late", parentId: "r", timestamp: at(9), message: assistant("late", 9) },
      { type: "message", id: "early", parentId: "r", timestamp: at(2), message: assistant("early", 2) },
      { type: "message", id: "orphan", parentId: "gone", timestamp: at(3), message: user("orphan", 3) },
      { type: "message", id: "self", parentId: "self", timestamp: at(4), message: user("self", 4) },
      // The leaf's path avoids "self": walking up from it would never end (in pi too).
      { type: "label", id: "l1", parentId: "late", timestamp: at(5), targetId: "early", label: "kept" },
    ]);
    return { tree: treeShape(sm.getTree()), leaf: sm.getLeafId(), branch: sm.getBranch().map((entry) => entry.id), context: sm.buildSessionContext() };
  }));

  add("SessionManager createBranchedSession on disk", inTemp((tmp) => {
    const sm = SessionManager.create(tmp, path.join(tmp, "s"));
    const oldFile = sm.getSessionFile();
    const u1 = sm.appendMessage(user("one", 1));
    sm.appendLabelChange(u1, "first");
    const a1 = sm.appendMessage(assistant("two", 2));
    const l2 = sm.appendLabelChange(a1, "second");
    const u2 = sm.appendMessage(user("three", 3));
    const c = sm.appendCompaction("Summary", l2, 50);
    const a2 = sm.appendMessage(assistant("four", 4));
    sm.branch(u1);
    const offPath = sm.appendMessage(assistant("other", 5));
    sm.appendLabelChange(offPath, "off path");
    const oldText = read(oldFile);
    const newFile = sm.createBranchedSession(a2);
    return {
      ids: { u1, a1, l2, u2, c, a2, offPath },
      newFile,
      oldFileUnchanged: read(oldFile) === oldText,
      ...snapshot(sm),
      tree: treeShape(sm.getTree()),
      labels: [sm.getLabel(u1), sm.getLabel(a1), sm.getLabel(offPath)],
      file: read(newFile),
      missing: attempt(() => sm.createBranchedSession("nope")),
    };
  }));
  add("SessionManager createBranchedSession without a conversation", inTemp((tmp) => {
    const sm = SessionManager.create(tmp, path.join(tmp, "s"));
    const m = sm.appendModelChange("test", "m1");
    sm.appendMessage(user("one", 1));
    const newFile = sm.createBranchedSession(m);
    const before = read(newFile);
    sm.appendMessage(user("two", 2));
    return { before, after: read(newFile), header: sm.getHeader(), dir: listDir(path.join(tmp, "s")) };
  }));
  add("SessionManager createBranchedSession in memory", inTemp(() => {
    const sm = SessionManager.inMemory("/p");
    const u1 = sm.appendMessage(user("one", 1));
    sm.appendLabelChange(u1, "first");
    const a1 = sm.appendMessage(assistant("two", 2));
    sm.appendMessage(user("three", 3));
    const oldId = sm.getSessionId();
    const result = sm.createBranchedSession(a1);
    return { result, newId: sm.getSessionId() !== oldId, ...snapshot(sm), labels: sm.getLabel(u1), emptyLeaf: attempt(() => sm.createBranchedSession()) };
  }));

  // --- Opening files -----------------------------------------------------------------------

  add("SessionManager open reloads a session", inTemp((tmp) => {
    const sm = SessionManager.create(path.join(tmp, "project"), path.join(tmp, "s"));
    const u = sm.appendMessage(user("one", 1));
    sm.appendMessage(assistant("two", 2));
    sm.appendLabelChange(u, "start");
    sm.appendSessionInfo("Named");
    sm.branch(u);
    const file = sm.getSessionFile();
    const reopened = SessionManager.open(file);
    const same = JSON.stringify(reopened.getEntries()) === JSON.stringify(sm.getEntries());
    reopened.appendMessage(user("three", 3));
    const elsewhere = SessionManager.open(file, path.join(tmp, "other"), path.join(tmp, "override"));
    return {
      same,
      reopened: snapshot(reopened),
      label: reopened.getLabel(u),
      elsewhere: { dir: elsewhere.getSessionDir(), cwd: elsewhere.getCwd(), dirMade: fs.existsSync(path.join(tmp, "other")) },
      file: read(file),
    };
  }));
  add("SessionManager open repairs a missing final newline", inTemp((tmp) => {
    const file = sessionFile(path.join(tmp, "s"), "torn", "/p", 1);
    fs.appendFileSync(file, '{"type":"message","id":"x","parentId":"torn-a","timestamp":"2020-01-01T00:00:05.000Z","message":{"role":"user","content":"tail","timestamp":5}}');
    const sm = SessionManager.open(file);
    sm.appendMessage(user("after", 6));
    return { leaf: sm.getLeafId(), file: read(file) };
  }));
  add("SessionManager open skips torn and blank lines", inTemp((tmp) => {
    const file = write(
      path.join(tmp, "s/x.jsonl"),
      `\n  \nnot json\n0\n${JSON.stringify({ type: "session", version: 3, id: "s1", timestamp: at(0), cwd: "/p" })}\n{"broken\n${JSON.stringify({ type: "message", id: "e1", parentId: null, timestamp: at(1), message: user("kept", 1) })}\r\n`,
    );
    const sm = SessionManager.open(file);
    return { ...snapshot(sm), file: read(file) };
  }));
  add("SessionManager open a missing file", inTemp((tmp) => {
    const file = path.join(tmp, "s/new-session.jsonl");
    const sm = SessionManager.open(file);
    const before = { exists: fs.existsSync(file), ...snapshot(sm) };
    sm.appendMessage(user("first", 1));
    return { before, file: read(file) };
  }));
  add("SessionManager open an empty file", inTemp((tmp) => {
    const file = write(path.join(tmp, "s/empty.jsonl"), "");
    const sm = SessionManager.open(file, undefined, "/override");
    const written = read(file);
    sm.appendModelChange("test", "m1");
    return { written, afterModelChange: read(file), ...snapshot(sm) };
  }));
  add("SessionManager open files that are not sessions", inTemp((tmp) => {
    const files = {
      notSession: write(path.join(tmp, "s/a.jsonl"), `${JSON.stringify({ type: "message", id: "e1", parentId: null, timestamp: at(1), message: user("x", 1) })}\n`),
      numericId: write(path.join(tmp, "s/b.jsonl"), `${JSON.stringify({ type: "session", version: 3, id: 7, timestamp: at(0), cwd: "/p" })}\n`),
      garbage: write(path.join(tmp, "s/c.jsonl"), "hello\nworld\n"),
      whitespace: write(path.join(tmp, "s/d.jsonl"), "\n\n  \n"),
      bom: write(path.join(tmp, "s/e.jsonl"), `\uFEFF${JSON.stringify({ type: "session", version: 3, id: "s", timestamp: at(0), cwd: "/p" })}\n`),
    };
    const results = {};
    for (const [name, file] of Object.entries(files)) {
      results[name] = attempt(() => snapshot(SessionManager.open(file)));
      results[`${name} file`] = read(file);
    }
    results.directory = attempt(() => SessionManager.open(path.join(tmp, "s")));
    return results;
  }));
  add("SessionManager open migrates old versions", inTemp((tmp) => {
    const v1 = write(
      path.join(tmp, "s/v1.jsonl"),
      jsonl([
        { type: "session", id: "old", timestamp: at(0), cwd: "/old" },
        { type: "message", timestamp: at(1), message: user("one", 1) },
        { type: "message", timestamp: at(2), message: assistant("two", 2) },
        { type: "compaction", timestamp: at(3), summary: "S", firstKeptEntryIndex: 2, tokensBefore: 9 },
        { type: "message", timestamp: at(4), message: { role: "hookMessage", customType: "h", content: "hooked", display: true, timestamp: ms(4) } },
      ]),
    );
    const v2 = write(
      path.join(tmp, "s/v2.jsonl"),
      jsonl([
        { type: "session", version: 2, id: "two", timestamp: at(0), cwd: "/v2" },
        { type: "message", id: "e1", parentId: null, timestamp: at(1), message: { role: "hookMessage", customType: "h", content: "x", display: false, timestamp: ms(1) } },
      ]),
    );
    const a = SessionManager.open(v1);
    const b = SessionManager.open(v2);
    const ids = a.getEntries().map((entry) => entry.id);
    return {
      v1: { header: a.getHeader(), entries: a.getEntries(), context: a.buildSessionContext(), chained: a.getEntries().every((entry, i) => entry.parentId === (i === 0 ? null : ids[i - 1])), file: read(v1) },
      v2: { entries: b.getEntries(), file: read(v2) },
    };
  }));
  add("SessionManager open takes the cwd from the header", inTemp((tmp) => {
    const withCwd = sessionFile(path.join(tmp, "s"), "a", path.join(tmp, "project"), 1);
    const noCwd = write(path.join(tmp, "s/n.jsonl"), jsonl([{ type: "session", version: 3, id: "n", timestamp: at(0), cwd: 5 }]));
    const emptyCwd = write(path.join(tmp, "s/e.jsonl"), jsonl([{ type: "session", version: 3, id: "e", timestamp: at(0), cwd: "" }]));
    return [withCwd, noCwd, emptyCwd].map((file) => SessionManager.open(file).getCwd());
  }));
  add("SessionManager open a huge header", inTemp((tmp) => {
    const big = "x".repeat(1024 * 1024);
    const file = write(path.join(tmp, "s/big.jsonl"), jsonl([{ type: "session", version: 3, id: "big", timestamp: at(0), cwd: path.join(tmp, "p"), meta: big }, { type: "message", id: "e1", parentId: null, timestamp: at(1), message: user("hi", 1) }]));
    const sm = SessionManager.open(file);
    return { cwd: sm.getCwd(), id: sm.getSessionId(), entries: sm.getEntryCount(), found: SessionManager.findById(tmp, "big", path.join(tmp, "s")) };
  }));
  add("SessionManager setSessionFile switches sessions", inTemp((tmp) => {
    const other = sessionFile(path.join(tmp, "s"), "other", "/p", 1);
    const sm = SessionManager.create("/p", path.join(tmp, "s"));
    sm.appendMessage(user("mine", 5));
    sm.setSessionFile(other);
    sm.appendMessage(user("appended", 6));
    return { ...snapshot(sm), file: read(other) };
  }));
  add("SessionManager append fails when the file appeared meanwhile", inTemp((tmp) => {
    const sm = SessionManager.create("/p", path.join(tmp, "s"));
    sm.appendModelChange("test", "m1");
    write(sm.getSessionFile(), "taken\n");
    const failed = attempt(() => sm.appendMessage(user("one", 1)));
    return { failed: failed instanceof Error ? failed.message.split(":")[0] : failed, leaf: sm.getEntry(sm.getLeafId())?.type, count: sm.getEntryCount(), entries: sm.getEntries().map((entry) => entry.type), file: read(sm.getSessionFile()) };
  }));

  // --- Finding sessions ---------------------------------------------------------------------

  add("SessionManager continueRecent picks the newest session", inTemp((tmp) => {
    const dir = path.join(tmp, "s");
    const files = [sessionFile(dir, "old", tmp, 1), sessionFile(dir, "new", tmp, 10), sessionFile(dir, "mid", tmp, 5)];
    const notSession = write(path.join(dir, "z.jsonl"), "nope\n");
    write(path.join(dir, "newest.txt"), "not jsonl");
    files.forEach((file, i) => setMtime(file, [1, 30, 20][i]));
    setMtime(notSession, 50);
    const sm = SessionManager.continueRecent(tmp, dir);
    return { ...snapshot(sm), empty: snapshot(SessionManager.continueRecent(tmp, path.join(tmp, "none"))) };
  }));
  add("SessionManager continueRecent filters a shared directory by cwd", inTemp((tmp) => {
    const dir = path.join(tmp, "s");
    const mine = sessionFile(dir, "mine", path.join(tmp, "me"), 1);
    const theirs = sessionFile(dir, "theirs", path.join(tmp, "them"), 2);
    setMtime(mine, 10);
    setMtime(theirs, 20);
    const defaultDir = path.join(tmp, "agent/sessions", `--${path.join(tmp, "me").slice(1).replace(/\//g, "-")}--`);
    const inDefault = sessionFile(defaultDir, "default-theirs", path.join(tmp, "them"), 3);
    setMtime(inDefault, 30);
    return {
      custom: SessionManager.continueRecent(path.join(tmp, "me"), dir).getSessionId(),
      customOther: SessionManager.continueRecent(path.join(tmp, "them"), dir).getSessionId(),
      defaultDir: SessionManager.continueRecent(path.join(tmp, "me")).getSessionId(),
      explicitDefault: SessionManager.continueRecent(path.join(tmp, "me"), defaultDir).getSessionId(),
    };
  }));
  add("SessionManager findById", inTemp((tmp) => {
    const dir = path.join(tmp, "s");
    sessionFile(dir, "one", path.join(tmp, "me"), 1);
    sessionFile(dir, "two", path.join(tmp, "them"), 2);
    return {
      found: SessionManager.findById(path.join(tmp, "me"), "one", dir),
      otherCwd: SessionManager.findById(path.join(tmp, "me"), "two", dir),
      missing: SessionManager.findById(tmp, "three", dir),
      missingDir: SessionManager.findById(tmp, "one", path.join(tmp, "none")),
      defaultDir: SessionManager.findById(tmp, "one"),
      agentSessions: listDir(path.join(tmp, "agent/sessions")),
    };
  }));

  const listFixture = (tmp) => {
    const dir = path.join(tmp, "s");
    sessionFile(dir, "alpha", path.join(tmp, "me"), 1, { name: "  Alpha  " });
    sessionFile(dir, "beta", path.join(tmp, "me"), 20, { extra: [{ type: "session_info", id: "bn", parentId: "beta-a", timestamp: at(30), name: "  " }] });
    sessionFile(dir, "gamma", path.join(tmp, "them"), 10);
    write(
      path.join(dir, "delta.jsonl"),
      jsonl([
        { type: "session", version: 3, id: "delta", timestamp: at(5), cwd: path.join(tmp, "me"), parentSession: "/x/parent.jsonl" },
        { type: "message", id: "d1", parentId: null, timestamp: at(40), message: { role: "user", content: [{ type: "image", data: "", mimeType: "image/png" }, { type: "text", text: "look" }, { type: "text", text: "here" }] } },
        { type: "message", id: "d2", parentId: "d1", timestamp: at(41), message: { role: "toolResult", toolCallId: "t", toolName: "x", content: [{ type: "text", text: "tool" }], timestamp: ms(50) } },
        { type: "message", id: "d3", parentId: "d2", timestamp: "not a time", message: { role: "assistant", content: [], timestamp: "x" } },
      ]),
    );
    write(path.join(dir, "empty-messages.jsonl"), jsonl([{ type: "session", version: 3, id: "quiet", timestamp: at(2), cwd: path.join(tmp, "me") }]));
    write(path.join(dir, "no-time.jsonl"), jsonl([{ type: "session", version: 3, id: "timeless", cwd: path.join(tmp, "me") }]));
    write(path.join(dir, "broken.jsonl"), jsonl([{ type: "session", version: 3, id: "broken", timestamp: at(3), cwd: path.join(tmp, "me") }, { type: "message", id: "b1", parentId: null, timestamp: at(4), message: null }]));
    write(path.join(dir, "not-session.jsonl"), jsonl([{ type: "message", id: "n1" }]));
    write(path.join(dir, "crlf.jsonl"), `\r\n${JSON.stringify({ type: "session", version: 3, id: "crlf", timestamp: at(6), cwd: path.join(tmp, "me") })}\r${JSON.stringify({ type: "message", id: "c1", parentId: null, timestamp: at(7), message: user("carriage", 7) })}\r\n`);
    write(path.join(dir, "ignored.txt"), "x");
    fs.utimesSync(path.join(dir, "no-time.jsonl"), new Date(ms(8)), new Date(ms(8)));
    return dir;
  };
  const summaries = (sessions) => sessions.map((session) => ({ ...session }));
  add("SessionManager list a directory", inTemp(async (tmp) => {
    const dir = listFixture(tmp);
    return {
      me: summaries(await SessionManager.list(path.join(tmp, "me"), dir)),
      them: (await SessionManager.list(path.join(tmp, "them"), dir)).map((session) => session.id),
      missing: await SessionManager.list(tmp, path.join(tmp, "none")),
    };
  }));
  add("SessionManager list the default directory", inTemp(async (tmp) => {
    const sm = SessionManager.create(path.join(tmp, "me"));
    sm.appendMessage(user("in default", 1));
    sessionFile(sm.getSessionDir(), "other-cwd", path.join(tmp, "them"), 2);
    return (await SessionManager.list(path.join(tmp, "me"))).map((session) => [session.id, session.cwd, session.firstMessage]);
  }));
  add("SessionManager list reports progress", inTemp(async (tmp) => {
    const dir = path.join(tmp, "s");
    for (let i = 0; i < 12; i++) sessionFile(dir, `s${i}`, i % 2 ? path.join(tmp, "odd") : tmp, i);
    const calls = [];
    const sessions = await SessionManager.list(path.join(tmp, "odd"), dir, (loaded, total, soFar) => calls.push([loaded, total, soFar?.map((session) => session.id).sort()]));
    return { calls: calls.map(([loaded, total, soFar]) => [loaded, total, soFar === undefined ? "none" : loaded === total ? soFar : "some"]), sessions: sessions.map((session) => session.id) };
  }));
  add("SessionManager list with an aborted signal", inTemp(async (tmp) => {
    const controller = new AbortController();
    controller.abort();
    const thrown = await attemptAsync(() => SessionManager.list(tmp, path.join(tmp, "none"), undefined, controller.signal));
    const all = await attemptAsync(() => SessionManager.listAll(undefined, controller.signal));
    const signalFirst = await attemptAsync(() => SessionManager.listAll(controller.signal));
    const inDir = await attemptAsync(() => SessionManager.listAll(tmp, undefined, controller.signal));
    return [thrown, all, signalFirst, inDir].map((result) => result?.name ?? result);
  }));
  add("SessionManager listAll", inTemp(async (tmp) => {
    const a = SessionManager.create(path.join(tmp, "a"));
    a.appendMessage(user("in a", 3));
    const b = SessionManager.create(path.join(tmp, "b"));
    b.appendMessage(user("in b", 9));
    b.appendMessage(assistant("reply in b", 10));
    write(path.join(tmp, "agent/sessions/loose.jsonl"), "ignored: not in a cwd directory\n");
    write(path.join(tmp, "agent/sessions/--c--/bad.jsonl"), "nope\n");
    const calls = [];
    const all = await SessionManager.listAll((loaded, total, soFar) => calls.push([loaded, total, soFar?.length]));
    const custom = await SessionManager.listAll(listFixture(tmp));
    return {
      all: all.map((session) => [session.id, session.cwd, session.firstMessage, session.messageCount, session.modified]),
      finalCall: calls[calls.length - 1],
      callCount: calls.length,
      custom: custom.map((session) => session.id),
    };
  }));
  add("SessionManager listAll without sessions", inTemp(async () => [await SessionManager.listAll(), await SessionManager.listAll(undefined, undefined, undefined)]));

  // --- In memory and forks -----------------------------------------------------------------

  add("SessionManager inMemory", inTemp(() => {
    const sm = SessionManager.inMemory();
    sm.appendMessage(user("one", 1));
    return {
      ...snapshot(sm),
      usesDefaultDir: sm.usesDefaultSessionDir(),
      newSession: sm.newSession({ id: "fresh", parentSession: "p" }),
      afterNew: snapshot(sm),
      withId: SessionManager.inMemory("/p", { id: "given" }).getSessionId(),
      badId: attempt(() => SessionManager.inMemory("/p", { id: "bad id" })),
    };
  }));
  add("SessionManager inMemory from entries", inTemp(() => {
    const entries = [
      { type: "session", version: 3, id: "loaded", timestamp: at(0), cwd: "/elsewhere" },
      { type: "message", id: "e1", parentId: null, timestamp: at(1), message: user("one", 1) },
      { type: "label", id: "l1", parentId: "e1", timestamp: at(2), targetId: "e1", label: "mark" },
    ];
    const withHeader = SessionManager.inMemory("/p", undefined, entries);
    withHeader.appendMessage(user("two", 3));
    const headless = SessionManager.inMemory("/p", { id: "headless" }, entries.slice(1).map((entry) => ({ ...entry })));
    const v1 = SessionManager.inMemory("/p", undefined, [{ type: "session", id: "v1", timestamp: at(0), cwd: "/" }, { type: "message", timestamp: at(1), message: user("old", 1) }]);
    return {
      withHeader: { ...snapshot(withHeader), label: withHeader.getLabel("e1"), sharedArray: entries.length },
      headless: snapshot(headless),
      v1: v1.getEntries().map((entry) => [entry.type, entry.parentId]),
      emptyEntries: SessionManager.inMemory("/p", undefined, []).getEntryCount(),
    };
  }));
  add("SessionManager forkFrom", inTemp((tmp) => {
    const source = sessionFile(path.join(tmp, "s"), "source", "/elsewhere", 1, { name: "Source" });
    const forked = SessionManager.forkFrom(source, path.join(tmp, "project"), path.join(tmp, "forks"));
    forked.appendMessage(user("continued", 9));
    const withId = SessionManager.forkFrom(source, path.join(tmp, "project"), undefined, { id: "fork-2" });
    return {
      forked: { ...snapshot(forked), file: read(forked.getSessionFile()) },
      withId: { file: withId.getSessionFile(), dir: withId.getSessionDir() },
      badId: attempt(() => SessionManager.forkFrom(source, tmp, path.join(tmp, "forks"), { id: "-bad" })),
      empty: attempt(() => SessionManager.forkFrom(write(path.join(tmp, "empty.jsonl"), ""), tmp)),
      missing: attempt(() => SessionManager.forkFrom(path.join(tmp, "missing.jsonl"), tmp)),
      invalid: attempt(() => SessionManager.forkFrom(write(path.join(tmp, "bad.jsonl"), "x\n"), tmp)),
      forksDir: listDir(path.join(tmp, "forks")),
    };
  }));
}
