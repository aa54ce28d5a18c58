// Cases of pi-coding-agent's DefaultPackageManager for the pi package case
// table (pi-packages-cases.mjs): how package sources are read (npm specs and
// version ranges, git URLs and shorthands on the known hosts and others,
// unsafe git paths, local paths) as seen through install paths, settings
// writes and matching; and what resolve() / resolveExtensionSources() bring
// from local packages and already-installed npm and git packages (manifests,
// conventional folders, filters, overrides, autoload deltas, settings
// entries, discovered resources, built-in extensions, precedence); and
// installing, updating and removing with real npm and git, offline (see
// addInstallCases).
//
// Each case builds a fresh temp tree: <tmp>/home is HOME, <tmp>/agent the
// agent dir, <tmp>/work/project (a git repository) the cwd. No case touches
// the network: sources that are not installed meet PI_OFFLINE or an
// onMissing that skips or errors, and `npm root -g` runs a stand-in script
// (settings' npmCommand) that prints a root inside the tree. Paths show as
// <tmp>.

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const ENV_KEYS = ["HOME", "PI_OFFLINE"];

/** Writes `files` (relative path → text, or an object written as JSON) under `root`. */
function writeTree(root, files) {
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  }
}

/** A package.json with a name, a version and, optionally, a `pi` field. */
const packageJson = (name, version, pi) => ({ name, version, ...(pi ? { pi } : {}) });

/**
 * Runs `run(tree)` in a fresh temp tree and returns its result with the
 * tree's path shown as <tmp>. `env` entries (or `env(tmp)`'s) are set for
 * the run (undefined removes one); they, HOME and PI_OFFLINE are restored
 * after.
 */
async function inTree(files, run, envOrMaker = {}) {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pihost-packages-")));
  const env = typeof envOrMaker === "function" ? envOrMaker(tmp) : envOrMaker;
  const saved = Object.fromEntries([...ENV_KEYS, ...Object.keys(env)].map((key) => [key, process.env[key]]));
  process.env.HOME = path.join(tmp, "home");
  delete process.env.PI_OFFLINE;
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  try {
    writeTree(tmp, { "home/.keep": "", "agent/.keep": "", "work/project/.git/HEAD": "ref: refs/heads/main\n", ...files });
    const tree = { tmp, cwd: path.join(tmp, "work/project"), agentDir: path.join(tmp, "agent") };
    const value = await run(tree);
    return JSON.parse(JSON.stringify(value ?? null).replaceAll(tmp, "<tmp>"));
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** A stand-in for npm that answers `root -g` with `<tmp>/global/node_modules`, written into the tree. */
function fakeNpmCommand(tmp) {
  const script = path.join(tmp, "fake-npm.mjs");
  fs.writeFileSync(script, `process.stdout.write(${JSON.stringify(path.join(tmp, "global", "node_modules"))} + "\\n");\n`);
  return [process.execPath, script];
}

/**
 * A package manager over the tree's settings files: `global` and `project`
 * settings are written first (global gets the stand-in npm unless it names
 * its own npmCommand).
 */
function makeManager(agent, tree, { global = {}, project, trusted = true, builtinExtensions, commandOutput } = {}) {
  const { DefaultPackageManager, SettingsManager } = agent;
  const globalSettings = { npmCommand: fakeNpmCommand(tree.tmp), ...global };
  writeTree(tree.tmp, { "agent/settings.json": globalSettings });
  if (project !== undefined) writeTree(tree.tmp, { "work/project/.pi/settings.json": project });
  const settingsManager = SettingsManager.create(tree.cwd, tree.agentDir, { projectTrusted: trusted });
  const manager = new DefaultPackageManager({ cwd: tree.cwd, agentDir: tree.agentDir, settingsManager, builtinExtensions, commandOutput });
  return { manager, settingsManager };
}

/** A resolved resource list as `path enabled source/scope/origin [baseDir] [packageRoot] [changelog]`. */
function describeResources(resources) {
  return resources.map(({ path: resourcePath, enabled, metadata }) => {
    const extras = [
      metadata.baseDir !== undefined ? `base=${metadata.baseDir}` : undefined,
      metadata.packageRoot !== undefined ? `root=${metadata.packageRoot}` : undefined,
      metadata.changelogPath !== undefined ? `changelog=${metadata.changelogPath}` : undefined,
    ].filter(Boolean);
    return `${resourcePath} ${enabled ? "on" : "off"} ${metadata.source}/${metadata.scope}/${metadata.origin}${extras.length ? ` ${extras.join(" ")}` : ""}`;
  });
}

/** Everything resolve() returns, with each list described and the keys in pi's order. */
function describeResolved(result) {
  return {
    keys: Object.keys(result),
    extensions: describeResources(result.extensions),
    skills: describeResources(result.skills),
    prompts: describeResources(result.prompts),
    themes: describeResources(result.themes),
    installFailures: result.installFailures,
  };
}

/** The result of `run()`, or the message it throws. */
async function outcome(run) {
  try {
    return { value: await run() };
  } catch (error) {
    return { error: error.message };
  }
}

/** Packages of both settings files after the manager's writes are flushed. */
async function savedPackages(settingsManager, tree) {
  await settingsManager.flush();
  const read = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")).packages : "<no file>");
  return { user: read(path.join(tree.agentDir, "settings.json")), project: read(path.join(tree.cwd, ".pi", "settings.json")) };
}

const SKILL = (name) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n# ${name}\n`;

/** A package with every conventional folder. */
const CONVENTIONAL = (root) => ({
  [`${root}/package.json`]: packageJson("conventional", "1.0.0"),
  [`${root}/extensions/alpha.ts`]: "export default () => {};\n",
  [`${root}/extensions/beta.js`]: "export default () => {};\n",
  [`${root}/extensions/gamma/index.ts`]: "export default () => {};\n",
  [`${root}/extensions/notes.md`]: "not an extension\n",
  [`${root}/skills/one/SKILL.md`]: SKILL("one"),
  [`${root}/skills/two/SKILL.md`]: SKILL("two"),
  [`${root}/prompts/review.md`]: "Review.\n",
  [`${root}/prompts/nested/deep.md`]: "Deep.\n",
  [`${root}/themes/dark.json`]: "{}\n",
  [`${root}/CHANGELOG.md`]: "# Changes\n",
});

/** Git sources and the install folders (under the agent's git root) pi reads them as. */
const GIT_FORMS = [
  ["git:github.com/user/repo", "github.com/user/repo"],
  ["git:github.com/user/repo@v1", "github.com/user/repo"],
  ["git:github.com/user/repo.git", "github.com/user/repo"],
  ["github:user/repo", undefined],
  ["git:github:user/repo#abc", "github.com/user/repo"],
  ["git:user/repo", "github.com/user/repo"],
  ["git:user/repo@v2", "github.com/user/repo"],
  ["https://github.com/user/repo", "github.com/user/repo"],
  ["https://github.com/user/repo.git#ref", "github.com/user/repo"],
  ["https://github.com/user/repo@v2", "github.com/user/repo"],
  ["https://www.github.com/user/repo", "github.com/user/repo"],
  ["https://github.com/user/repo/tree/dev", "github.com/user/repo"],
  ["git:git@github.com:user/repo", "github.com/user/repo"],
  ["git:git@github.com:user/repo.git@main", "github.com/user/repo"],
  ["ssh://git@github.com/user/repo", "github.com/user/repo"],
  ["ssh://git@github.com/user/repo.git@dev", "github.com/user/repo"],
  ["git+ssh://git@github.com/user/repo.git", undefined],
  ["git:gitlab.com/group/sub/project", "gitlab.com/group/sub/project"],
  ["https://gitlab.com/group/sub/project.git@v3", "gitlab.com/group/sub/project"],
  ["git:gitlab:group/proj", "gitlab.com/group/proj"],
  ["git:bitbucket.org/team/repo", "bitbucket.org/team/repo"],
  ["git:bitbucket:team/repo#v9", "bitbucket.org/team/repo"],
  ["git:git.sr.ht/~user/repo", "git.sr.ht/~user/repo"],
  ["git:sourcehut:~user/repo", "git.sr.ht/~user/repo"],
  ["git:example.com/owner/repo", "example.com/owner/repo"],
  ["git:example.com/owner/repo@tag", "example.com/owner/repo"],
  ["https://example.com/owner/repo.git", "example.com/owner/repo"],
  ["git:git@example.com:owner/repo.git", "example.com/owner/repo"],
  ["ssh://git@example.com:2222/owner/repo.git", "example.com/owner/repo"],
  ["git://example.com/owner/repo", "example.com/owner/repo"],
  ["http://localhost/a/b", "localhost/a/b"],
  ["git:localhost/a/b", "localhost/a/b"],
  ["git:example.com/group/sub/repo@feature/x", "example.com/group/sub/repo"],
];

/** Git sources pi refuses or does not read as git (they fall back to local paths). */
const GIT_REJECTED = [
  "git:intranet/a/b",
  "git:example.com/owner",
  "git:example.com/../etc/passwd",
  "git:example.com/owner/%2e%2e/x",
  "git:example.com/a/..",
  "git:exa\\mple.com/a/b",
  "git:%zz.com/a/b",
  "git:git@example.com:/abs/repo",
  "git:github.com/user",
  "git:",
  "https://example.com/owner",
  "github.com/user/repo",
];

export function addPackageManagerCases(add, { agent }) {
  add("package manager: exported class and its methods", () => {
    const { DefaultPackageManager } = agent;
    const methods = Object.getOwnPropertyNames(DefaultPackageManager.prototype)
      .filter((name) => name !== "constructor" && typeof DefaultPackageManager.prototype[name] === "function")
      .filter((name) =>
        [
          "setProgressCallback",
          "addSourceToSettings",
          "removeSourceFromSettings",
          "getInstalledPath",
          "resolve",
          "resolveExtensionSources",
          "listConfiguredPackages",
          "install",
          "installAndPersist",
          "remove",
          "removeAndPersist",
          "update",
          "checkForAvailableUpdates",
        ].includes(name),
      )
      .sort();
    return { type: typeof DefaultPackageManager, methods };
  });

  addGitSourceCases(add, agent);
  addNpmSourceCases(add, agent);
  addSettingsCases(add, agent);
  addResolveCases(add, agent);
  addFilterCases(add, agent);
  addDiscoveryCases(add, agent);
  addExtensionSourceCases(add, agent);
  addLifecycleCases(add, agent);
  addInstallCases(add, agent);
}

function addGitSourceCases(add, agent) {
  for (const [source, folder] of GIT_FORMS) {
    add(`package manager git source: ${source}`, () =>
      inTree(folder ? { [`agent/git/${folder}/package.json`]: packageJson("repo", "1.0.0"), [`work/project/.pi/git/${folder}/.keep`]: "" } : {}, (tree) => {
        const { manager } = makeManager(agent, tree);
        return { user: manager.getInstalledPath(source, "user"), project: manager.getInstalledPath(source, "project") };
      }),
    );
  }

  add("package manager git sources pi refuses fall back to local paths", () =>
    inTree(
      {
        "agent/etc/passwd": "not a repository\n",
        "agent/git/example.com/owner/.keep": "",
        "agent/git/github.com/user/.keep": "",
        "agent/github.com/user/repo/.keep": "",
        "agent/git:intranet/a/b/.keep": "",
      },
      (tree) => {
        const { manager } = makeManager(agent, tree);
        return Object.fromEntries(GIT_REJECTED.map((source) => [source, manager.getInstalledPath(source, "user") ?? null]));
      },
    ),
  );

  add("package manager git forms of one repository match one settings entry", () =>
    inTree({}, async (tree) => {
      const { manager, settingsManager } = makeManager(agent, tree);
      const steps = [
        "git:github.com/user/repo",
        "https://github.com/user/repo.git#v2",
        "git:git@github.com:user/repo@v3",
        "ssh://git@github.com/user/repo",
        "git:user/repo",
        "git:github.com/user/other",
        "git:gitlab.com/user/repo",
      ].map((source) => [source, manager.addSourceToSettings(source)]);
      return { steps, saved: await savedPackages(settingsManager, tree) };
    }),
  );

  add("package manager removing a git source by another form", () =>
    inTree({}, async (tree) => {
      const { manager, settingsManager } = makeManager(agent, tree, {
        global: { packages: ["git:github.com/user/repo@v1", { source: "https://gitlab.com/g/p", skills: [] }, "npm:keep"] },
      });
      const steps = [
        ["ssh://git@github.com/user/repo", manager.removeSourceFromSettings("ssh://git@github.com/user/repo")],
        ["git:gitlab:g/p", manager.removeSourceFromSettings("git:gitlab:g/p")],
        ["git:gitlab:g/p again", manager.removeSourceFromSettings("git:gitlab:g/p")],
      ];
      return { steps, saved: await savedPackages(settingsManager, tree) };
    }),
  );

  add("package manager installed git packages resolve from the git root", () =>
    inTree(
      {
        "agent/git/github.com/user/repo/package.json": packageJson("repo", "0.1.0", { extensions: ["./src/main.ts"] }),
        "agent/git/github.com/user/repo/src/main.ts": "export default () => {};\n",
        "agent/git/example.com/owner/tools/extensions/tool.ts": "export default () => {};\n",
        "work/project/.pi/git/gitlab.com/group/sub/project/prompts/fix.md": "Fix.\n",
      },
      async (tree) => {
        const { manager } = makeManager(agent, tree, {
          global: { packages: ["git:github.com/user/repo@v1", "https://example.com/owner/tools.git"] },
          project: { packages: ["git:gitlab.com/group/sub/project"] },
        });
        return describeResolved(await manager.resolve());
      },
    ),
  );
}

function addNpmSourceCases(add, agent) {
  const INSTALLED = {
    "agent/npm/node_modules/plain/package.json": packageJson("plain", "1.2.3"),
    "agent/npm/node_modules/plain/extensions/plain.ts": "export default () => {};\n",
    "agent/npm/node_modules/@scope/tool/package.json": packageJson("@scope/tool", "2.4.0-beta.2"),
    "agent/npm/node_modules/@scope/tool/extensions/tool.ts": "export default () => {};\n",
    "agent/npm/node_modules/noversion/package.json": { name: "noversion" },
    "agent/npm/node_modules/noversion/extensions/x.ts": "export default () => {};\n",
    "agent/npm/node_modules/nopkg/extensions/y.ts": "export default () => {};\n",
  };
  const SPECS = [
    "npm:plain",
    "npm:plain@1.2.3",
    "npm:plain@v1.2.3",
    "npm:plain@1.2.4",
    "npm:plain@^1.0.0",
    "npm:plain@~1.2.0",
    "npm:plain@1.x",
    "npm:plain@2",
    "npm:plain@>=1.2.3 <2",
    "npm:plain@1.0.0 - 1.2.2",
    "npm:plain@^2 || ^1.2",
    "npm:plain@latest",
    "npm:plain@next",
    "npm:plain@*",
    "npm: plain@1.2.3 ",
    "npm:@scope/tool",
    "npm:@scope/tool@2.4.0-beta.2",
    "npm:@scope/tool@^2.4.0-beta.1",
    "npm:@scope/tool@^2.3.0",
    "npm:@scope/tool@2.x",
    "npm:@scope/tool@>=2.4.0-alpha",
    "npm:noversion",
    "npm:noversion@1.0.0",
    "npm:nopkg",
  ];
  for (const spec of SPECS) {
    add(`package manager npm spec against its install: ${spec}`, () =>
      inTree(INSTALLED, async (tree) => {
        const { manager } = makeManager(agent, tree, { global: { packages: [spec] } });
        const asked = [];
        const resolved = await manager.resolve(async (source) => {
          asked.push(source);
          return "skip";
        });
        return { asked, extensions: describeResources(resolved.extensions), installedPath: manager.getInstalledPath(spec, "user") ?? null };
      }),
    );
  }

  add("package manager npm specs name one package whatever their version", () =>
    inTree({}, async (tree) => {
      const { manager, settingsManager } = makeManager(agent, tree);
      const steps = ["npm:foo", "npm:foo@1.0.0", "npm:foo@1.0.0", "npm:@s/foo@^2", "npm:@s/foo", "npm:foo@latest", "npm:bar@"].map((source) => [
        source,
        manager.addSourceToSettings(source),
      ]);
      return { steps, saved: await savedPackages(settingsManager, tree) };
    }),
  );

  add("package manager npm install paths per scope", () =>
    inTree(
      {
        "agent/npm/node_modules/user-only/package.json": packageJson("user-only", "1.0.0"),
        "work/project/.pi/npm/node_modules/project-only/package.json": packageJson("project-only", "1.0.0"),
        "work/project/.pi/npm/node_modules/@scope/both/package.json": packageJson("@scope/both", "1.0.0"),
        "agent/npm/node_modules/@scope/both/package.json": packageJson("@scope/both", "1.0.0"),
      },
      (tree) => {
        const { manager } = makeManager(agent, tree);
        return ["npm:user-only", "npm:project-only@1", "npm:@scope/both@1.0.0", "npm:missing"].map((source) => ({
          source,
          user: manager.getInstalledPath(source, "user") ?? null,
          project: manager.getInstalledPath(source, "project") ?? null,
        }));
      },
    ),
  );

  add("package manager user npm falls back to the legacy global root", () =>
    inTree(
      {
        "global/node_modules/legacy/package.json": packageJson("legacy", "3.0.0"),
        "global/node_modules/legacy/extensions/old.ts": "export default () => {};\n",
        "global/node_modules/both/package.json": packageJson("both", "1.0.0"),
        "agent/npm/node_modules/both/package.json": packageJson("both", "1.0.0"),
        "agent/npm/node_modules/both/extensions/new.ts": "export default () => {};\n",
      },
      async (tree) => {
        const { manager } = makeManager(agent, tree, { global: { packages: ["npm:legacy", "npm:both"] } });
        return {
          installed: ["npm:legacy", "npm:both", "npm:absent"].map((source) => manager.getInstalledPath(source, "user") ?? null),
          listed: manager.listConfiguredPackages(),
          extensions: describeResources((await manager.resolve()).extensions),
        };
      },
    ),
  );

  add("package manager finds legacy global installs of pnpm and bun", () =>
    inTree(
      {
        "pnpm-global/legacy/package.json": packageJson("legacy", "1.0.0"),
        "bun/install/global/node_modules/legacy/package.json": packageJson("legacy", "1.0.0"),
        "npm-root/legacy/package.json": packageJson("legacy", "1.0.0"),
      },
      (tree) => {
        // Stand-ins named like the package managers, run by node so no PATH lookup is involved.
        const script = (name, body) => {
          const file = path.join(tree.tmp, "bin", name);
          writeTree(tree.tmp, { [path.relative(tree.tmp, file)]: body });
          return file;
        };
        const answer = (text) => `process.stdout.write(${JSON.stringify(text)});\n`;
        const pnpm = script(
          "pnpm",
          `const args = process.argv.slice(2).join(" ");\n` +
            `if (args === "list -g --depth 0 --json") ${answer(JSON.stringify([{ dependencies: { other: {} } }, { dependencies: { legacy: { path: path.join(tree.tmp, "pnpm-global/legacy") } } }]))}` +
            `else ${answer(path.join(tree.tmp, "npm-root"))}`,
        );
        const bun = script("bun", answer(`${path.join(tree.tmp, "bun/bin")}\n`));
        const npm = script("npm.cmd", answer(path.join(tree.tmp, "npm-root")));
        const commands = {
          pnpm: [process.execPath, pnpm],
          bunAfterSeparator: [process.execPath, "--", bun],
          npmCmd: [process.execPath, npm],
          ambiguous: [process.execPath, pnpm, "bun"],
          emptyCommand: [""],
        };
        return Object.fromEntries(
          Object.entries(commands).map(([name, npmCommand]) => {
            const { manager } = makeManager(agent, tree, { global: { npmCommand } });
            return [name, manager.getInstalledPath("npm:legacy", "user") ?? null];
          }),
        );
      },
    ),
  );

  add("package manager without a working npm uses the managed path", () =>
    inTree({ "global/node_modules/legacy/package.json": packageJson("legacy", "3.0.0") }, (tree) => {
      const { manager } = makeManager(agent, tree, { global: { npmCommand: [path.join(tree.tmp, "no-such-npm")] } });
      return { installed: manager.getInstalledPath("npm:legacy", "user") ?? null, listed: manager.listConfiguredPackages() };
    }),
  );
}

function addSettingsCases(add, agent) {
  add("package manager adds and updates sources per scope", () =>
    inTree({}, async (tree) => {
      const { manager, settingsManager } = makeManager(agent, tree, { project: {} });
      const steps = [
        ["npm:a", {}],
        ["npm:a", {}],
        ["npm:a@2.0.0", {}],
        ["npm:b", { local: true }],
        ["git:github.com/u/r", { local: true }],
        ["npm:a", { local: true }],
      ].map(([source, options]) => [source, options.local ? "project" : "user", manager.addSourceToSettings(source, options)]);
      return { steps, saved: await savedPackages(settingsManager, tree) };
    }),
  );

  add("package manager stores local sources relative to the scope's settings", () =>
    inTree({ "work/project/pkgs/a/index.ts": "", "home/tools/b/index.ts": "" }, async (tree) => {
      const { manager, settingsManager } = makeManager(agent, tree, { project: {} });
      const steps = [
        ["./pkgs/a", {}],
        ["pkgs/a", {}],
        [path.join(tree.cwd, "pkgs/a"), {}],
        ["./pkgs/a", { local: true }],
        ["~/tools/b", {}],
        ["~/tools/b", { local: true }],
        [".pi", { local: true }],
        ["../../agent", {}],
        [`file://${path.join(tree.cwd, "pkgs/a")}`, { local: true }],
        ["  ./pkgs/a  ", {}],
      ].map(([source, options]) => [source.replaceAll(tree.tmp, "<tmp>"), options.local ? "project" : "user", manager.addSourceToSettings(source, options)]);
      return { steps, saved: await savedPackages(settingsManager, tree) };
    }),
  );

  add("package manager keeps a filtered entry's filters when its source changes", () =>
    inTree({}, async (tree) => {
      const { manager, settingsManager } = makeManager(agent, tree, {
        global: { packages: [{ source: "npm:tool@1.0.0", extensions: ["a.ts"], autoload: true }, "npm:other"] },
      });
      const changed = manager.addSourceToSettings("npm:tool@2.0.0");
      const same = manager.addSourceToSettings("npm:tool@2.0.0");
      return { changed, same, saved: await savedPackages(settingsManager, tree), listed: manager.listConfiguredPackages() };
    }),
  );

  add("package manager removes sources per scope", () =>
    inTree({ "work/project/pkgs/a/index.ts": "" }, async (tree) => {
      const { manager, settingsManager } = makeManager(agent, tree, {
        global: { packages: ["npm:a@1", "../work/project/pkgs/a", "npm:b"] },
        project: { packages: ["npm:a", "../pkgs/a"] },
      });
      const steps = [
        ["npm:a", {}],
        ["./pkgs/a", {}],
        ["./pkgs/a", { local: true }],
        ["npm:zzz", { local: true }],
        ["npm:a", { local: true }],
      ].map(([source, options]) => [source, options.local ? "project" : "user", manager.removeSourceFromSettings(source, options)]);
      return { steps, saved: await savedPackages(settingsManager, tree) };
    }),
  );

  add("package manager refuses project package storage of an untrusted project", () =>
    inTree({ "work/project/.pi/npm/node_modules/x/package.json": packageJson("x", "1.0.0") }, async (tree) => {
      const { manager } = makeManager(agent, tree, { trusted: false, global: { packages: ["npm:x"] } });
      return {
        add: await outcome(() => manager.addSourceToSettings("npm:x", { local: true })),
        addUser: await outcome(() => manager.addSourceToSettings("npm:y")),
        addLocalPath: await outcome(() => manager.addSourceToSettings("./here", { local: true })),
        remove: await outcome(() => manager.removeSourceFromSettings("npm:x", { local: true })),
        npmPath: await outcome(() => manager.getInstalledPath("npm:x", "project")),
        gitPath: await outcome(() => manager.getInstalledPath("git:github.com/u/r", "project")),
        localPath: await outcome(() => manager.getInstalledPath("./x", "project")),
        install: await outcome(() => manager.install("npm:x", { local: true })),
        remove2: await outcome(() => manager.remove("./x", { local: true })),
        listed: manager.listConfiguredPackages(),
      };
    }),
  );

  add("package manager lists configured packages of both scopes", () =>
    inTree(
      {
        "agent/npm/node_modules/a/package.json": packageJson("a", "1.0.0"),
        "agent/git/github.com/u/r/.keep": "",
        "agent/local-ext/index.ts": "",
        "work/project/.pi/npm/node_modules/@s/b/package.json": packageJson("@s/b", "1.0.0"),
        "work/project/.pi/rel/index.ts": "",
      },
      (tree) => {
        const { manager } = makeManager(agent, tree, {
          global: { packages: ["npm:a@9.9.9", "git:github.com/u/r@v1", "./local-ext", { source: "npm:missing", skills: [] }, "git:git@github.com:u/r"] },
          project: { packages: [{ source: "npm:@s/b" }, "./rel", "../rel", "https://gitlab.com/u/r"] },
        });
        return manager.listConfiguredPackages();
      },
    ),
  );

  add("package manager installed paths of local sources per scope", () =>
    inTree({ "agent/ext.ts": "", "work/project/.pi/ext.ts": "", "work/project/ext.ts": "", "home/h.ts": "" }, (tree) => {
      const { manager } = makeManager(agent, tree);
      return ["./ext.ts", "ext.ts", "../ext.ts", "~/h.ts", path.join(tree.tmp, "home/h.ts"), " ./ext.ts ", "missing.ts", `file://${path.join(tree.agentDir, "ext.ts")}`].map((source) => ({
        source: source.replaceAll(tree.tmp, "<tmp>"),
        user: manager.getInstalledPath(source, "user") ?? null,
        project: manager.getInstalledPath(source, "project") ?? null,
      }));
    }),
  );
}

function addResolveCases(add, agent) {
  add("package manager resolves nothing from an empty tree", () =>
    inTree({}, async (tree) => {
      const { manager } = makeManager(agent, tree);
      return describeResolved(await manager.resolve());
    }),
  );

  add("package manager resolves a local package's conventional folders", () =>
    inTree(CONVENTIONAL("pkgs/conv"), async (tree) => {
      const { manager } = makeManager(agent, tree, { global: { packages: ["../pkgs/conv"] } });
      return describeResolved(await manager.resolve());
    }),
  );

  add("package manager resolves a package manifest", () =>
    inTree(
      {
        "pkgs/man/package.json": packageJson("man", "1.0.0", {
          extensions: ["./src/main.ts", "./src/missing.ts", "./lib"],
          skills: ["./docs/skills"],
          prompts: ["./p/*.md", "!./p/skip.md"],
          themes: ["./t/light.json"],
          changelogPath: "HISTORY.md",
        }),
        "pkgs/man/src/main.ts": "",
        "pkgs/man/lib/index.js": "",
        "pkgs/man/lib/other.ts": "",
        "pkgs/man/docs/skills/s1/SKILL.md": SKILL("s1"),
        "pkgs/man/p/a.md": "",
        "pkgs/man/p/skip.md": "",
        "pkgs/man/p/.hidden.md": "",
        "pkgs/man/t/light.json": "{}",
        "pkgs/man/extensions/ignored.ts": "",
        "pkgs/man/HISTORY.md": "",
        "pkgs/man/CHANGELOG.md": "",
      },
      async (tree) => {
        const { manager } = makeManager(agent, tree, { global: { packages: [path.join(tree.tmp, "pkgs/man")] } });
        return describeResolved(await manager.resolve());
      },
    ),
  );

  add("package manager manifest globs and override patterns", () =>
    inTree(
      {
        "pkgs/g/package.json": packageJson("g", "1.0.0", {
          extensions: ["src/**/*.ts", "!src/**/*.test.ts", "+src/keep.test.ts", "-src/drop.ts"],
          skills: ["skills/*"],
          prompts: ["{a,b}.md", "../shared/*.md"],
        }),
        "pkgs/g/src/one.ts": "",
        "pkgs/g/src/drop.ts": "",
        "pkgs/g/src/deep/two.ts": "",
        "pkgs/g/src/deep/two.test.ts": "",
        "pkgs/g/src/keep.test.ts": "",
        "pkgs/g/src/.dot/hidden.ts": "",
        "pkgs/g/skills/x/SKILL.md": SKILL("x"),
        "pkgs/g/skills/y/SKILL.md": SKILL("y"),
        "pkgs/g/a.md": "",
        "pkgs/g/b.md": "",
        "pkgs/g/c.md": "",
        "pkgs/shared/s.md": "",
      },
      async (tree) => {
        const { manager } = makeManager(agent, tree, { global: { packages: ["../pkgs/g"] } });
        return describeResolved(await manager.resolve());
      },
    ),
  );

  add("package manager manifest with only metadata keeps folder discovery", () =>
    inTree(
      {
        "pkgs/meta/package.json": packageJson("meta", "1.0.0", { changelogPath: "../outside.md", image: "x.png" }),
        "pkgs/meta/extensions/e.ts": "",
        "pkgs/outside.md": "",
        "pkgs/meta/CHANGELOG.md": "",
      },
      async (tree) => {
        const { manager } = makeManager(agent, tree, { global: { packages: ["../pkgs/meta"] } });
        return describeResolved(await manager.resolve());
      },
    ),
  );

  add("package manager local sources: file, bare folder, missing path", () =>
    inTree(
      {
        "pkgs/single.ts": "",
        "pkgs/bare/index.ts": "",
        "pkgs/bare/helper.ts": "",
        "pkgs/empty/readme.txt": "",
        "work/project/.pi/proj-ext.ts": "",
      },
      async (tree) => {
        const { manager } = makeManager(agent, tree, {
          global: { packages: ["../pkgs/single.ts", "../pkgs/bare", "../pkgs/empty", "../pkgs/missing", "~/nothing"] },
          project: { packages: ["proj-ext.ts"] },
        });
        return describeResolved(await manager.resolve());
      },
    ),
  );

  add("package manager project entry wins over the user's for one package", () =>
    inTree(
      {
        ...CONVENTIONAL("agent/npm/node_modules/shared"),
        ...CONVENTIONAL("work/project/.pi/npm/node_modules/shared"),
        "pkgs/loc/extensions/l.ts": "",
      },
      async (tree) => {
        const { manager } = makeManager(agent, tree, {
          global: { packages: ["npm:shared", "../pkgs/loc"] },
          project: { packages: ["npm:shared@1.0.0", "../../../pkgs/loc"] },
        });
        return describeResolved(await manager.resolve());
      },
    ),
  );

  add("package manager settings entries for each resource type", () =>
    inTree(
      {
        "agent/my-ext.ts": "",
        "agent/ext-dir/a.ts": "",
        "agent/ext-dir/sub/index.ts": "",
        "agent/skill-dir/s/SKILL.md": SKILL("s"),
        "agent/prompt-dir/p.md": "",
        "agent/prompt-dir/deep/q.md": "",
        "agent/theme.json": "{}",
        "work/project/.pi/pe.ts": "",
        "work/project/.pi/pp/x.md": "",
        "work/project/.pi/pp/y.md": "",
      },
      async (tree) => {
        const { manager } = makeManager(agent, tree, {
          global: { extensions: ["my-ext.ts", "ext-dir", "missing.ts"], skills: ["skill-dir"], prompts: ["prompt-dir", "!**/q.md"], themes: ["theme.json"] },
          project: { extensions: ["pe.ts"], prompts: ["pp", "-pp/y.md"] },
        });
        return describeResolved(await manager.resolve());
      },
    ),
  );

  add("package manager precedence orders project, user, packages, built-ins", () =>
    inTree(
      {
        "agent/extensions/user-auto.ts": "",
        "agent/user-entry.ts": "",
        "work/project/.pi/extensions/project-auto.ts": "",
        "work/project/.pi/project-entry.ts": "",
        "pkgs/p/extensions/pkg.ts": "",
      },
      async (tree) => {
        const { manager } = makeManager(agent, tree, {
          global: { packages: ["../pkgs/p"], extensions: ["user-entry.ts"] },
          project: { extensions: ["project-entry.ts"] },
          builtinExtensions: ["mcp"],
        });
        return describeResolved(await manager.resolve());
      },
    ),
  );

  add("package manager one file brought twice is listed once", () =>
    inTree({ "agent/extensions/same.ts": "", "pkgs/p/extensions/x.ts": "" }, async (tree) => {
      fs.symlinkSync(path.join(tree.tmp, "pkgs/p/extensions/x.ts"), path.join(tree.agentDir, "extensions/link.ts"));
      const { manager } = makeManager(agent, tree, { global: { packages: ["../pkgs/p"], extensions: ["extensions/same.ts", "./extensions/same.ts"] } });
      return describeResolved(await manager.resolve());
    }),
  );

  add("package manager missing sources: onMissing skip and error", () =>
    inTree({}, async (tree) => {
      const { manager } = makeManager(agent, tree, { global: { packages: ["npm:absent", "git:github.com/u/absent"] }, project: { packages: ["npm:proj-absent"] } });
      const asked = [];
      const skipped = await manager.resolve(async (source) => {
        asked.push(source);
        return "skip";
      });
      const errored = await outcome(() => manager.resolve(async () => "error"));
      return { asked, skipped: describeResolved(skipped), errored };
    }),
  );

  add("package manager missing sources offline are skipped silently", () =>
    inTree(
      {},
      async (tree) => {
        const { manager } = makeManager(agent, tree, { global: { packages: ["npm:absent", "git:github.com/u/absent", "npm:x@2"] } });
        const events = [];
        manager.setProgressCallback((event) => events.push(event));
        const asked = [];
        const resolved = await manager.resolve(async (source) => {
          asked.push(source);
          return "install";
        });
        return { asked, events, resolved: describeResolved(resolved) };
      },
      { PI_OFFLINE: "yes" },
    ),
  );

  add("package manager untrusted project hides project resources", () =>
    inTree(
      {
        "work/project/.pi/extensions/p.ts": "",
        "work/project/.pi/skills/ps/SKILL.md": SKILL("ps"),
        "work/project/.agents/skills/as/SKILL.md": SKILL("as"),
        "agent/extensions/u.ts": "",
      },
      async (tree) => {
        const { manager } = makeManager(agent, tree, { trusted: false, project: { packages: ["npm:p"], extensions: ["-extensions/u.ts"] } });
        return describeResolved(await manager.resolve());
      },
    ),
  );
}

function addFilterCases(add, agent) {
  const PKG = CONVENTIONAL("agent/npm/node_modules/conv");
  const filtered = (name, filter, extra = {}) =>
    add(`package manager package filter: ${name}`, () =>
      inTree({ ...PKG, ...extra.files }, async (tree) => {
        const patterns = typeof filter === "function" ? filter(tree) : filter;
        const { manager } = makeManager(agent, tree, { global: { packages: [{ source: "npm:conv", ...patterns }] }, project: extra.project });
        return describeResolved(await manager.resolve());
      }),
    );
  filtered("no resource keys", {});
  filtered("empty arrays turn types off", { extensions: [], skills: [] });
  filtered("plain names and globs", { extensions: ["alpha.ts", "extensions/gamma/*.ts"], prompts: ["**/deep.md"] });
  filtered("exclusions", { extensions: ["!beta.js"], themes: ["!*"] });
  filtered("force include and exclude", { extensions: ["alpha.ts", "+extensions/beta.js", "-extensions/alpha.ts"], skills: ["!*", "+skills/two"] });
  filtered("skill folders by name", { skills: ["one"], prompts: ["review.md", "./prompts/nested/deep.md"] });
  filtered("absolute patterns", (tree) => {
    const root = path.join(tree.agentDir, "npm/node_modules/conv");
    return { extensions: [path.join(root, "extensions/*.ts"), `+${path.join(root, "extensions/beta.js")}`], skills: [`-${path.join(root, "skills/one")}`] };
  });
  filtered("autoload false alone", { autoload: false, extensions: ["alpha.ts", "-extensions/beta.js"] });
  filtered("autoload false with no patterns", { autoload: false });
  filtered("brace and class globs", { extensions: ["{alpha,beta}.*"], prompts: ["[rx]eview.md"] });
  filtered("a comment-like pattern matches nothing", { extensions: ["#alpha.ts"] });

  add("package manager package filter over a manifest with overrides", () =>
    inTree(
      {
        "agent/npm/node_modules/man/package.json": packageJson("man", "1.0.0", { extensions: ["./e", "!./e/off.ts"] }),
        "agent/npm/node_modules/man/e/on.ts": "",
        "agent/npm/node_modules/man/e/off.ts": "",
        "agent/npm/node_modules/man/e/more.ts": "",
        "agent/npm/node_modules/man/skills/s/SKILL.md": SKILL("s"),
      },
      async (tree) => {
        const { manager } = makeManager(agent, tree, {
          global: { packages: [{ source: "npm:man", extensions: ["!more.ts", "+e/off.ts"] }, { source: "../pkgs/none", skills: ["x"] }] },
        });
        return describeResolved(await manager.resolve());
      },
    ),
  );

  add("package manager project autoload false is a delta over the user's entry", () =>
    inTree(PKG, async (tree) => {
      const { manager } = makeManager(agent, tree, {
        global: { packages: [{ source: "npm:conv", extensions: ["!alpha.ts"] }] },
        project: { packages: [{ source: "npm:conv@1.0.0", autoload: false, extensions: ["+extensions/alpha.ts", "!beta.js"], skills: ["-skills/one"] }] },
      });
      return describeResolved(await manager.resolve());
    }),
  );

  add("package manager project autoload false without a user entry", () =>
    inTree(CONVENTIONAL("work/project/.pi/npm/node_modules/conv"), async (tree) => {
      const { manager } = makeManager(agent, tree, { project: { packages: [{ source: "npm:conv", autoload: false, extensions: ["alpha.ts"] }] } });
      return describeResolved(await manager.resolve());
    }),
  );

  add("package manager project replaces a user entry that is not a delta", () =>
    inTree({ ...PKG, ...CONVENTIONAL("work/project/.pi/npm/node_modules/conv") }, async (tree) => {
      const { manager } = makeManager(agent, tree, {
        global: { packages: [{ source: "npm:conv", autoload: false, themes: [] }] },
        project: { packages: [{ source: "npm:conv", skills: ["two"] }, "npm:conv@1"] },
      });
      return describeResolved(await manager.resolve());
    }),
  );
}

function addDiscoveryCases(add, agent) {
  const DISCOVERABLE = {
    "agent/extensions/top.ts": "",
    "agent/extensions/folder/index.js": "",
    "agent/extensions/withpkg/package.json": packageJson("withpkg", "1.0.0", { extensions: ["./a.ts", "./b.ts"] }),
    "agent/extensions/withpkg/a.ts": "",
    "agent/extensions/withpkg/b.ts": "",
    "agent/extensions/empty/readme.md": "",
    "agent/extensions/.hidden.ts": "",
    "agent/extensions/ignored.ts": "",
    "agent/extensions/.gitignore": "ignored.ts\n",
    "agent/skills/root-skill.md": SKILL("root-skill"),
    "agent/skills/nested/SKILL.md": SKILL("nested"),
    "agent/prompts/p1.md": "",
    "agent/prompts/sub/p2.md": "",
    "agent/themes/t.json": "{}",
    "home/.agents/skills/home-skill/SKILL.md": SKILL("home-skill"),
    "home/.agents/skills/loose.md": "",
    "work/.agents/skills/above/SKILL.md": SKILL("above"),
    "work/project/.agents/skills/here/SKILL.md": SKILL("here"),
    "work/project/.pi/extensions/pe/index.ts": "",
    "work/project/.pi/skills/ps/SKILL.md": SKILL("ps"),
    "work/project/.pi/prompts/pp.md": "",
    "work/project/.pi/themes/pt.json": "{}",
  };
  add("package manager discovers user and project resources", () =>
    inTree(DISCOVERABLE, async (tree) => {
      const { manager } = makeManager(agent, tree, { project: {} });
      return describeResolved(await manager.resolve());
    }),
  );

  add("package manager discovery with overrides in settings", () =>
    inTree(DISCOVERABLE, async (tree) => {
      const { manager } = makeManager(agent, tree, {
        global: { extensions: ["!top.ts", "-extensions/withpkg/a.ts"], skills: ["!nested"], prompts: ["!*.md", "+prompts/p1.md"], themes: ["-themes/t.json"] },
        project: { skills: ["!here", "-skills/ps"], extensions: ["!**/index.ts"] },
      });
      return describeResolved(await manager.resolve());
    }),
  );

  add("package manager the project at the home directory", () =>
    inTree({ "home/.agents/skills/h/SKILL.md": SKILL("h"), "home/.git/HEAD": "" }, async (tree) => {
      const { DefaultPackageManager, SettingsManager } = agent;
      const home = path.join(tree.tmp, "home");
      const settingsManager = SettingsManager.create(home, tree.agentDir);
      const manager = new DefaultPackageManager({ cwd: home, agentDir: tree.agentDir, settingsManager });
      return describeResolved(await manager.resolve());
    }),
  );

  add("package manager built-in extensions and their overrides", () =>
    inTree({}, async (tree) => {
      const results = {};
      const variants = {
        none: [{}, {}],
        userOff: [{ extensions: ["-builtin:mcp"] }, {}],
        userExcludeGlob: [{ extensions: ["!builtin:*"] }, {}],
        projectOn: [{ extensions: ["-builtin:mcp"] }, { extensions: ["+builtin:mcp"] }],
        projectOff: [{}, { extensions: ["!builtin:tool*"] }],
        plainEntryIgnored: [{ extensions: ["builtin:mcp"] }, { extensions: ["builtin:mcp"] }],
      };
      for (const [name, [global, project]] of Object.entries(variants)) {
        const { manager } = makeManager(agent, tree, { global, project, builtinExtensions: ["mcp", "tool_search"] });
        results[name] = describeResources((await manager.resolve()).extensions);
      }
      return results;
    }),
  );

  add("package manager changelog metadata of packages", () =>
    inTree(
      {
        "pkgs/a/extensions/a.ts": "",
        "pkgs/a/CHANGELOG.md": "",
        "pkgs/b/extensions/b.ts": "",
        "pkgs/b/package.json": packageJson("b", "1.0.0", { changelogPath: "" }),
        "pkgs/b/CHANGELOG.md": "",
        "pkgs/c/extensions/c.ts": "",
        "pkgs/c/package.json": packageJson("c", "1.0.0", { changelogPath: "docs" }),
        "pkgs/c/docs/x.md": "",
        "pkgs/d.ts": "",
      },
      async (tree) => {
        const { manager } = makeManager(agent, tree, { global: { packages: ["../pkgs/a", "../pkgs/b", "../pkgs/c", "../pkgs/d.ts"] } });
        return describeResolved(await manager.resolve());
      },
    ),
  );
}

function addExtensionSourceCases(add, agent) {
  const FILES = {
    "work/project/ext.ts": "",
    "work/project/pkg/extensions/p.ts": "",
    "work/project/pkg/skills/k/SKILL.md": SKILL("k"),
    "work/project/.pi/rel.ts": "",
    "agent/rel.ts": "",
  };
  add("package manager extension sources per scope", () =>
    inTree(FILES, async (tree) => {
      const { manager } = makeManager(agent, tree);
      const sources = ["builtin:mcp", "./ext.ts", "pkg", "rel.ts", "missing.ts", "builtin:other"];
      return {
        user: describeResolved(await manager.resolveExtensionSources(sources)),
        project: describeResolved(await manager.resolveExtensionSources(sources, { local: true })),
        temporary: describeResolved(await manager.resolveExtensionSources(sources, { temporary: true, local: true })),
      };
    }),
  );

  add("package manager extension sources that are not installed", () =>
    inTree(
      {},
      async (tree) => {
        const { manager } = makeManager(agent, tree);
        return describeResolved(await manager.resolveExtensionSources(["npm:absent", "git:github.com/u/r"], { temporary: true }));
      },
      { PI_OFFLINE: "1" },
    ),
  );

  add("package manager temporary installs live under the agent's tmp folder", () =>
    inTree({}, async (tree) => {
      const hash = (text) => createHash("sha256").update(text).digest("hex").slice(0, 8);
      const base = path.join(tree.agentDir, "tmp", "extensions");
      writeTree(tree.tmp, {
        [path.relative(tree.tmp, path.join(base, "npm", hash("npm-"), "node_modules", "pinned", "package.json"))]: packageJson("pinned", "1.0.0"),
        [path.relative(tree.tmp, path.join(base, "npm", hash("npm-"), "node_modules", "pinned", "extensions", "t.ts"))]: "",
        [path.relative(tree.tmp, path.join(base, "git-github.com", hash("git-github.com-u/r@abc1234"), "u/r", "extensions", "g.ts"))]: "",
      });
      const { manager } = makeManager(agent, tree);
      const resolved = await manager.resolveExtensionSources(["npm:pinned@1.0.0", "git:github.com/u/r@abc1234"], { temporary: true });
      const mode = (fs.statSync(base).mode & 0o777).toString(8);
      return { mode, resolved: describeResolved(resolved) };
    }, { PI_OFFLINE: "1" }),
  );
}

function addLifecycleCases(add, agent) {
  add("package manager local install, persist and remove", () =>
    inTree({ "work/project/pkgs/a/index.ts": "" }, async (tree) => {
      const { manager, settingsManager } = makeManager(agent, tree, { project: {} });
      const events = [];
      manager.setProgressCallback((event) => events.push(event));
      const steps = {
        install: await outcome(() => manager.install("./pkgs/a")),
        installMissing: await outcome(() => manager.install("./pkgs/nope")),
        persistUser: await outcome(() => manager.installAndPersist("./pkgs/a")),
        persistProject: await outcome(() => manager.installAndPersist("./pkgs/a", { local: true })),
        afterPersist: await savedPackages(settingsManager, tree),
        remove: await outcome(() => manager.remove("./pkgs/a")),
        removeAndPersist: await outcome(() => manager.removeAndPersist("./pkgs/a", { local: true })),
        removeAgain: await outcome(() => manager.removeAndPersist("./pkgs/a", { local: true })),
      };
      manager.setProgressCallback(undefined);
      await manager.install("./pkgs/a");
      return { steps, events, saved: await savedPackages(settingsManager, tree), stillThere: fs.existsSync(path.join(tree.cwd, "pkgs/a/index.ts")) };
    }),
  );

  add("package manager update with nothing matching", () =>
    inTree({}, async (tree) => {
      const { manager } = makeManager(agent, tree, {
        global: { packages: ["npm:foo@1.0.0", "git:github.com/u/r@v1", "./local"] },
        project: { packages: ["npm:@s/bar"] },
      });
      return {
        npmName: await outcome(() => manager.update("foo")),
        npmSpec: await outcome(() => manager.update("@s/bar")),
        gitShorthand: await outcome(() => manager.update("github.com/u/r")),
        gitShorthandRef: await outcome(() => manager.update("github.com/u/r@v1")),
        unknown: await outcome(() => manager.update("npm:zzz")),
        pinnedOnly: await outcome(() => manager.update("npm:foo")),
        localOnly: await outcome(() => manager.update("./local")),
      };
    }),
  );

  add("package manager update and update checks offline", () =>
    inTree(
      { "agent/npm/node_modules/foo/package.json": packageJson("foo", "1.0.0") },
      async (tree) => {
        const { manager } = makeManager(agent, tree, { global: { packages: ["npm:foo", "git:github.com/u/r"] } });
        return { update: await outcome(() => manager.update()), one: await outcome(() => manager.update("npm:foo")), checks: await outcome(() => manager.checkForAvailableUpdates()) };
      },
      { PI_OFFLINE: "true" },
    ),
  );

  add("package manager update checks with nothing to ask upstream", () =>
    inTree({}, async (tree) => {
      const { manager } = makeManager(agent, tree, { global: { packages: ["npm:pinned@1.0.0", "./local", "npm:not-installed", "git:github.com/u/not-installed"] } });
      return { checks: await outcome(() => manager.checkForAvailableUpdates()), update: await outcome(() => manager.update("npm:pinned")) };
    }),
  );
}

// ---------------------------------------------------------------------------
// Installing with real npm and git, offline: npm installs a tarball packed
// in the tree (npm_config_offline, a cache in the tree), git clones a
// repository in the tree that `url.<path>.insteadOf` puts behind an https
// address. Commits have fixed authors and dates, so their hashes repeat.

const FIXED_DATE = "2020-01-01T00:00:00Z";

/** npm and git kept inside the tree and off the network. */
function offlineToolsEnv(tmp) {
  return {
    npm_config_cache: path.join(tmp, "npm-cache"),
    npm_config_offline: "true",
    npm_config_update_notifier: "false",
    npm_config_prefix: path.join(tmp, "npm-global"),
    npm_config_userconfig: path.join(tmp, "npmrc"),
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: "Fixture",
    GIT_AUTHOR_EMAIL: "fixture@example.com",
    GIT_COMMITTER_NAME: "Fixture",
    GIT_COMMITTER_EMAIL: "fixture@example.com",
    GIT_AUTHOR_DATE: FIXED_DATE,
    GIT_COMMITTER_DATE: FIXED_DATE,
    GIT_CONFIG_COUNT: "3",
    GIT_CONFIG_KEY_0: `url.${path.join(tmp, "remote/repo.git")}.insteadOf`,
    GIT_CONFIG_VALUE_0: "https://example.com/owner/repo",
    GIT_CONFIG_KEY_1: `url.${path.join(tmp, "remote/missing.git")}.insteadOf`,
    GIT_CONFIG_VALUE_1: "https://example.com/owner/missing",
    GIT_CONFIG_KEY_2: "init.defaultBranch",
    GIT_CONFIG_VALUE_2: "main",
  };
}

function runTool(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")}: ${result.stderr || result.error}`);
  return result.stdout.trim();
}

/** A bare repository at <tmp>/remote/repo.git with one commit (an extension), tagged v1; returns a function that publishes another commit. */
function makeGitRemote(tmp) {
  const work = path.join(tmp, "remote-work");
  writeTree(tmp, { "remote-work/extensions/hello.ts": "export default () => {};\n", "remote-work/README.md": "fixture\n" });
  runTool("git", ["init", "-q"], work);
  runTool("git", ["add", "."], work);
  runTool("git", ["commit", "-q", "-m", "first"], work);
  runTool("git", ["tag", "v1"], work);
  runTool("git", ["clone", "-q", "--bare", work, path.join(tmp, "remote/repo.git")], tmp);
  runTool("git", ["remote", "add", "origin", path.join(tmp, "remote/repo.git")], work);
  return (file) => {
    writeTree(work, { [file]: "export default () => {};\n" });
    runTool("git", ["add", "."], work);
    runTool("git", ["commit", "-q", "-m", `add ${file}`], work);
    runTool("git", ["push", "-q", "origin", "main"], work);
  };
}

/** An npm package tarball packed from the tree: <tmp>/<name>-<version>.tgz. */
function packNpmFixture(tmp, version, name = "pihost-fixture") {
  const folder = `${name}-src-${version}`;
  writeTree(tmp, {
    [`${folder}/package.json`]: { name, version, pi: { extensions: ["./ext.ts"] } },
    [`${folder}/ext.ts`]: "export default () => {};\n",
  });
  runTool("npm", ["pack", path.join(tmp, folder), "--pack-destination", tmp], tmp);
  return path.join(tmp, `${name}-${version}.tgz`);
}

/** Files under `dir` (relative, sorted), without git's own folder. */
function listFiles(dir) {
  if (!fs.existsSync(dir)) return null;
  return fs
    .readdirSync(dir, { recursive: true })
    .map((entry) => entry.split(path.sep).join("/"))
    .filter((entry) => !entry.startsWith(".git/") && entry !== ".git" && fs.statSync(path.join(dir, entry)).isFile())
    .sort();
}

/** Progress events with their text as data. */
function recordEvents(manager) {
  const events = [];
  manager.setProgressCallback((event) => events.push(event));
  return events;
}

function addInstallCases(add, agent) {
  add("package manager installs, updates and removes a git package", () =>
    inTree(
      {},
      async (tree) => {
        const publish = makeGitRemote(tree.tmp);
        const { manager, settingsManager } = makeManager(agent, tree, { commandOutput: "capture" });
        const events = recordEvents(manager);
        const source = "git:example.com/owner/repo";
        const checkout = path.join(tree.agentDir, "git/example.com/owner/repo");
        await manager.installAndPersist(source);
        const installed = { files: listFiles(checkout), gitignore: fs.readFileSync(path.join(tree.agentDir, "git/.gitignore"), "utf8") };
        const beforeUpdate = await manager.checkForAvailableUpdates();
        publish("extensions/second.ts");
        const available = await manager.checkForAvailableUpdates();
        await manager.update();
        const afterUpdate = { files: listFiles(checkout), extensions: describeResources((await manager.resolve()).extensions) };
        await manager.update(source);
        const removed = await manager.removeAndPersist(source);
        return {
          installed,
          beforeUpdate,
          available,
          afterUpdate,
          removed,
          gitRoot: listFiles(path.join(tree.agentDir, "git")),
          events,
          saved: await savedPackages(settingsManager, tree),
        };
      },
      offlineToolsEnv,
    ),
  );

  add("package manager installs a pinned git ref into the project", () =>
    inTree(
      {},
      async (tree) => {
        const publish = makeGitRemote(tree.tmp);
        publish("extensions/later.ts");
        const { manager, settingsManager } = makeManager(agent, tree, { commandOutput: "capture", project: {} });
        const events = recordEvents(manager);
        await manager.installAndPersist("git:example.com/owner/repo@v1", { local: true });
        const checkout = path.join(tree.cwd, ".pi/git/example.com/owner/repo");
        const pinnedFiles = listFiles(checkout);
        await manager.update();
        const checks = await manager.checkForAvailableUpdates();
        return { pinnedFiles, checks, filesAfterUpdate: listFiles(checkout), events, saved: await savedPackages(settingsManager, tree) };
      },
      offlineToolsEnv,
    ),
  );

  add("package manager a git clone that fails leaves nothing behind", () =>
    inTree(
      {},
      async (tree) => {
        const { manager } = makeManager(agent, tree, { commandOutput: "capture", global: { packages: ["git:example.com/owner/missing"] } });
        const events = recordEvents(manager);
        const direct = await outcome(() => manager.install("git:example.com/owner/missing"));
        // On the terminal (pi's default), the failure names only the command; git's own words went to stderr.
        const onTerminal = makeManager(agent, tree, { global: { packages: [] } }).manager;
        const terminal = await outcome(() => onTerminal.install("git:example.com/owner/missing"));
        const resolved = await manager.resolve(async () => "install");
        return { direct, terminal, resolved: describeResolved(resolved), events, gitRoot: listFiles(path.join(tree.agentDir, "git")) };
      },
      offlineToolsEnv,
    ),
  );

  add("package manager installs, updates and removes an npm tarball", () =>
    inTree(
      {},
      async (tree) => {
        const tarball = packNpmFixture(tree.tmp, "1.0.0");
        const { manager, settingsManager } = makeManager(agent, tree, { commandOutput: "capture", global: { npmCommand: ["npm"] } });
        const events = recordEvents(manager);
        const source = `npm:pihost-fixture@file:${tarball}`;
        await manager.installAndPersist(source);
        const root = path.join(tree.agentDir, "npm");
        const installed = {
          rootPackage: JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")),
          gitignore: fs.readFileSync(path.join(root, ".gitignore"), "utf8"),
          files: listFiles(path.join(root, "node_modules/pihost-fixture")),
          resolved: describeResolved(await manager.resolve()),
          listed: manager.listConfiguredPackages(),
        };
        await manager.update();
        const removed = await manager.removeAndPersist(source);
        return { installed, removed, left: fs.existsSync(path.join(root, "node_modules/pihost-fixture")), events, saved: await savedPackages(settingsManager, tree) };
      },
      offlineToolsEnv,
    ),
  );

  add("package manager resolve installs missing npm packages it is allowed to", () =>
    inTree(
      {},
      async (tree) => {
        const tarball = packNpmFixture(tree.tmp, "2.0.0");
        const source = `npm:pihost-fixture@file:${tarball}`;
        const { manager } = makeManager(agent, tree, { commandOutput: "capture", global: { npmCommand: ["npm"] }, project: { packages: [source] } });
        const events = recordEvents(manager);
        const asked = [];
        const resolved = await manager.resolve(async (missing) => {
          asked.push(missing);
          return "install";
        });
        return { asked, events, resolved: describeResolved(resolved), installedPath: manager.getInstalledPath(source, "project") };
      },
      offlineToolsEnv,
    ),
  );

  add("package manager temporary sources are installed and refreshed on load", () =>
    inTree(
      {},
      async (tree) => {
        const publish = makeGitRemote(tree.tmp);
        const tarball = packNpmFixture(tree.tmp, "1.0.0");
        const { manager } = makeManager(agent, tree, { commandOutput: "capture", global: { npmCommand: ["npm"] } });
        const events = recordEvents(manager);
        const sources = ["git:example.com/owner/repo", `npm:pihost-fixture@file:${tarball}`, "git:example.com/owner/repo@v1"];
        const first = describeResolved(await manager.resolveExtensionSources(sources, { temporary: true }));
        publish("extensions/fresh.ts");
        const second = describeResolved(await manager.resolveExtensionSources(sources, { temporary: true }));
        return { first, second, events };
      },
      offlineToolsEnv,
    ),
  );

  add("package manager git checkouts get their dependencies and are cleaned on update", () =>
    inTree(
      {},
      async (tree) => {
        const tarball = packNpmFixture(tree.tmp, "1.0.0");
        // The dependency is a tarball in the tree, so npm installs it offline.
        writeTree(tree.tmp, { "remote-work/package.json": { name: "with-deps", version: "1.0.0", dependencies: { "pihost-fixture": `file:${tarball}` } } });
        const publish = makeGitRemote(tree.tmp);
        const { manager } = makeManager(agent, tree, { commandOutput: "capture", global: { npmCommand: ["npm"] } });
        const events = recordEvents(manager);
        const checkout = path.join(tree.agentDir, "git/example.com/owner/repo");
        const dependency = path.join(checkout, "node_modules/pihost-fixture");
        const state = () => ({
          files: listFiles(checkout).filter((file) => !file.startsWith("node_modules/")),
          dependency: fs.existsSync(dependency),
          junk: fs.existsSync(path.join(checkout, "junk.txt")),
        });
        await manager.installAndPersist("git:example.com/owner/repo");
        const installed = state();
        fs.rmSync(dependency, { recursive: true });
        writeTree(checkout, { "junk.txt": "untracked\n" });
        await manager.update();
        const repaired = state();
        publish("extensions/next.ts");
        await manager.update();
        const updated = state();
        // Commit hashes depend on the tree's path here, so they are masked.
        const shown = events.map((event) => ({ ...event, message: event.message?.replace(/[0-9a-f]{7} -> [0-9a-f]{7}/, "<from> -> <to>") }));
        return { installed, repaired, updated, events: shown };
      },
      offlineToolsEnv,
    ),
  );

  add("package manager updates a scope's npm packages in one run", () =>
    inTree(
      {},
      async (tree) => {
        const sources = [packNpmFixture(tree.tmp, "1.0.0"), packNpmFixture(tree.tmp, "3.1.0", "pihost-other")].map(
          (tarball) => `npm:${path.basename(tarball).replace(/-\d+\.\d+\.\d+\.tgz$/, "")}@file:${tarball}`,
        );
        const { manager } = makeManager(agent, tree, { commandOutput: "capture", global: { npmCommand: ["npm"] }, project: {} });
        for (const source of sources) await manager.installAndPersist(source, { local: true });
        const events = recordEvents(manager);
        await manager.update();
        const versions = ["pihost-fixture", "pihost-other"].map((name) => manager.getInstalledPath(`npm:${name}`, "project"));
        return { sources, events, versions, resolved: describeResolved(await manager.resolve()) };
      },
      offlineToolsEnv,
    ),
  );
}
