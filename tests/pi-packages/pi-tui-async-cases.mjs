// pi-tui cases whose results come in promises: CombinedAutocompleteProvider,
// over a directory tree made for the run. Paths that depend on the machine
// (the tree's location, the home directory) are shown as <base> and <home>.
// File names are lowercase ASCII so that localeCompare orders them the same
// with and without ICU. fd is whatever `fd`/`fdfind` the machine has; the
// cases that need it count as skipped without one.
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

async function capture(fn) {
  try {
    const value = await fn();
    return value === undefined ? { undefined: true } : { value };
  } catch (err) {
    return { error: String(err?.message ?? err) };
  }
}

const TREE = {
  "src/main.ts": "",
  "src/mainly.ts": "",
  "src/util.ts": "",
  "src/components/box.ts": "",
  "src/components/list.ts": "",
  "docs/guide.md": "",
  "docs/notes/todo.md": "",
  "readme.md": "",
  "readme-old.txt": "",
  "my file.txt": "",
  "app/[slug]/page.tsx": "",
  ".hidden": "",
  ".git/config": "",
};

function makeTree() {
  const base = mkdtempSync(join(tmpdir(), "pi-tui-autocomplete-"));
  for (const [path, text] of Object.entries(TREE)) {
    mkdirSync(join(base, path, ".."), { recursive: true });
    writeFileSync(join(base, path), text);
  }
  symlinkSync(join(base, "src"), join(base, "linked"));
  symlinkSync(join(base, "missing"), join(base, "dangling"));
  return base;
}

const FD_CANDIDATES = ["/usr/bin/fd", "/usr/local/bin/fd", "/usr/bin/fdfind", "/opt/homebrew/bin/fd"];

const COMMANDS = [
  { name: "help", description: "Show help" },
  { name: "model", description: "Pick a model", argumentHint: "<name>", getArgumentCompletions: (text) => [{ value: `gpt-${text}`, label: "gpt" }] },
  { name: "models", argumentHint: "[filter]" },
  { name: "compact", description: "", getArgumentCompletions: async () => [] },
  { name: "clear", getArgumentCompletions: () => "nope" },
  { name: "skill:review", description: "Review code" },
  { name: "skill:commit", description: "Write a commit" },
  { value: "hotkeys", label: "hotkeys", description: "Keys" },
];

const PREFIX_TEXTS = [
  "", "x", "hello", "see ./s", "(~/Dev", "`src/ma", "app/[slug]/pa", "(group)/pa", "look at @src", "@", "a @",
  "x@y", "say \"my fi", "@\"my fi", "a @\"my fi", "x\"abc", "key=./v", "it's", "日本語。./s", "日本語./s",
  "path/to/", "../up", ".", "~/", "~", "a b ", "a\tb", "[@src", "{./a", "<@x>", "\"closed\" ./a",
];

const FILE_PREFIXES = [
  "", "./", "s", "src/", "src/m", "./src/", "./src/ma", "./sr", "@src/", "@", "\"my", "@\"my f", "SRC/M",
  "nothing/", "docs/n", "docs/notes/", "r", "READ", "app/", "app/[", "linked/", "d", ".", ".h", "src\\m",
  "<base>/", "<base>/s", "<base>/src/u", "@<base>/src/",
];

const APPLY_CASES = [
  [["/he"], 0, 3, { value: "help", label: "help" }, "/he"],
  [["  /mo rest"], 0, 5, { value: "model", label: "model" }, "/mo"],
  [["read @sr"], 0, 8, { value: "@src/", label: "src/" }, "@sr"],
  [["read @ma tail"], 0, 8, { value: "@main.ts", label: "main.ts" }, "@ma"],
  [["read @\"my f\" x"], 0, 10, { value: "@\"my file.txt\"", label: "my file.txt" }, "@\"my f"],
  [["open \"my\""], 0, 8, { value: "\"my dir/\"", label: "my dir/" }, "\"my"],
  [["/model gp"], 0, 9, { value: "gpt-4", label: "gpt-4" }, "gp"],
  [["/cmd ./s"], 0, 8, { value: "./src/", label: "src/" }, "./s"],
  [["see ./s and"], 0, 7, { value: "./src/util.ts", label: "util.ts" }, "./s"],
  [["a", "b ./x"], 1, 5, { value: "./xyz", label: "xyz" }, "./x"],
  [[], 0, 0, { value: "v", label: "v" }, ""],
  [["/a/b"], 0, 4, { value: "/a/bc", label: "bc" }, "/a/b"],
];

const SUGGESTION_CASES = [
  [["/"], 0, 1, {}],
  [["/he"], 0, 3, {}],
  [["/mo"], 0, 3, {}],
  [["/re"], 0, 3, {}],
  [["/skill:c"], 0, 8, {}],
  [["/zzz"], 0, 4, {}],
  [["  /co"], 0, 5, {}],
  [["/model 4o"], 0, 9, {}],
  [["/compact x"], 0, 10, {}],
  [["/clear x"], 0, 8, {}],
  [["/help x"], 0, 7, {}],
  [["/nothing x"], 0, 10, {}],
  [["/he"], 0, 3, { force: true }],
  [["see ./s"], 0, 7, {}],
  [["see src/"], 0, 8, {}],
  [["plain"], 0, 5, {}],
  [["plain"], 0, 5, { force: true }],
  [[""], 0, 0, { force: true }],
  [["a "], 0, 2, {}],
  [["x ./zz"], 0, 6, {}],
  [["@src"], 0, 4, {}],
  [["see docs/"], 0, 9, {}],
  [["two", "see ./d"], 1, 7, {}],
];

const FD_QUERIES = ["@", "@ma", "@src/", "@src/comp", "@\"my", "@docs/no", "@zzz", "@lis", "@nothing/x", "@.git"];

function hideMachinePaths(value, base) {
  const text = JSON.stringify(value);
  if (text === undefined) return value;
  return JSON.parse(text.split(base).join("<base>").split(homedir()).join("<home>"));
}

export async function runAsyncCases(tui) {
  const results = {};
  if (tui.CombinedAutocompleteProvider === undefined) {
    for (const id of ["prefixes", "files", "apply", "suggestions", "fuzzy", "misc"]) {
      results[`CombinedAutocompleteProvider/${id}`] = { missing: "CombinedAutocompleteProvider" };
    }
    return results;
  }
  const base = makeTree();
  try {
    const withBase = (text) => text.split("<base>").join(base);
    const provider = new tui.CombinedAutocompleteProvider(COMMANDS, base);
    const put = async (id, fn) => {
      results[`CombinedAutocompleteProvider/${id}`] = hideMachinePaths(await fn(), base);
    };
    await put("prefixes", async () => {
      const out = {};
      for (const text of PREFIX_TEXTS) {
        out[JSON.stringify(text)] = [
          await capture(() => provider.extractAtPrefix(text)),
          await capture(() => provider.extractPathPrefix(text)),
          await capture(() => provider.extractPathPrefix(text, true)),
          await capture(() => provider.shouldTriggerFileCompletion([text], 0, text.length)),
        ];
      }
      return out;
    });
    await put("files", async () => {
      const out = {};
      for (const prefix of FILE_PREFIXES) out[prefix] = await capture(() => provider.getFileSuggestions(withBase(prefix)));
      return out;
    });
    await put("apply", async () =>
      Promise.all(APPLY_CASES.map(([lines, line, col, item, prefix]) => capture(() => provider.applyCompletion(lines, line, col, item, prefix)))),
    );
    await put("suggestions", async () => {
      const out = [];
      const signal = new AbortController().signal;
      for (const [lines, line, col, options] of SUGGESTION_CASES) {
        out.push(await capture(() => provider.getSuggestions(lines, line, col, { ...options, signal })));
      }
      return out;
    });
    await put("misc", async () => ({
      home: [await capture(() => provider.expandHomePath("~")), await capture(() => provider.expandHomePath("~/a/")), await capture(() => provider.expandHomePath("~x"))],
      scores: [
        ["src/main.ts", "main.ts", false],
        ["src/main.ts", "MAIN", false],
        ["src/domain.ts", "main", false],
        ["main/x.ts", "main", false],
        ["src/", "src", true],
        ["a/b", "zzz", true],
        ["a/b", "", false],
      ].map(([path, query, isDirectory]) => provider.scoreEntry(path, query, isDirectory)),
      defaults: [new tui.CombinedAutocompleteProvider().commands, new tui.CombinedAutocompleteProvider().fdPath],
      scoped: [await capture(() => provider.resolveScopedFuzzyQuery("src/ma")), await capture(() => provider.resolveScopedFuzzyQuery("nope/ma")), await capture(() => provider.resolveScopedFuzzyQuery("ma"))],
      display: [provider.scopedPathForDisplay("/", "a\\b"), provider.scopedPathForDisplay("src\\", "x")],
      noFd: await capture(() => provider.getSuggestions(["@ma"], 0, 3, { signal: new AbortController().signal })),
    }));
    const fdPath = FD_CANDIDATES.find((path) => existsSync(path));
    if (!fdPath) {
      results["CombinedAutocompleteProvider/fuzzy"] = { missing: "fd" };
    } else {
      await put("fuzzy", async () => {
        const withFd = new tui.CombinedAutocompleteProvider(COMMANDS, base, fdPath);
        const out = {};
        for (const text of FD_QUERIES) {
          out[text] = await capture(() => withFd.getSuggestions([text], 0, text.length, { signal: new AbortController().signal }));
        }
        const aborted = new AbortController();
        aborted.abort();
        out.aborted = await capture(() => withFd.getSuggestions(["@ma"], 0, 3, { signal: aborted.signal }));
        return out;
      });
    }
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
  return results;
}
