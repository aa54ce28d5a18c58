// Cases of pi-coding-agent's smaller helpers for the pi package case table
// (pi-packages-cases.mjs): the CLI argument parser, shells, image type
// sniffing and dimension notes, synthetic source info, wrapping registered
// tools, the extension runtime before binding, AGENTS.md/CLAUDE.md
// discovery and the project trust check. File cases build their tree in a
// fresh temp directory, shown as <tmp>; HOME and PI_CODING_AGENT_DIR point
// inside it while a case runs.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { stabilizer } from "./session-manager-cases.mjs";

const ENV_NAMES = ["HOME", "PI_CODING_AGENT_DIR"];

const threw = (error) => ({ threw: error?.message ?? String(error) });

/**
 * The value of `run()`, or what it threw as `{ threw }`, so file paths in
 * messages get normalized too; a promise when `run` returns one.
 */
function attempt(run) {
  try {
    const value = run();
    return typeof value?.then === "function" ? value.then(undefined, threw) : value;
  } catch (error) {
    return threw(error);
  }
}

/** A parse result as data: the unknown flags are a Map. */
const parsed = (result) => ({ ...result, unknownFlags: [...result.unknownFlags] });

// Byte signatures of the image types pi sniffs, and near misses.
const u32be = (n) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const u32le = (n) => u32be(n).reverse();
const u16le = (n) => [n & 255, (n >>> 8) & 255];
const ascii = (text) => [...text].map((char) => char.charCodeAt(0));
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const pngChunk = (type, length) => [...u32be(length), ...ascii(type), ...new Array(length + 4).fill(0)];
const bmp = ({ fileSize = 70, offset = 54, header = 40, planes = 1, bits = 24 } = {}) => [
  ...ascii("BM"), ...u32le(fileSize), 0, 0, 0, 0, ...u32le(offset), ...u32le(header),
  ...u32le(1), ...u32le(1), ...u16le(planes), ...u16le(bits), ...new Array(16).fill(0),
];
const IMAGE_FILES = {
  "photo.jpg": [0xff, 0xd8, 0xff, 0xe0, 0, 0x10],
  "jpeg-ls.jpg": [0xff, 0xd8, 0xff, 0xf7, 0],
  "image.png": [...PNG_SIGNATURE, ...pngChunk("IHDR", 13), ...pngChunk("IDAT", 2)],
  "animated.png": [...PNG_SIGNATURE, ...pngChunk("IHDR", 13), ...pngChunk("acTL", 8), ...pngChunk("IDAT", 2)],
  "bad-ihdr.png": [...PNG_SIGNATURE, ...pngChunk("IHDX", 13)],
  "short.png": PNG_SIGNATURE,
  "old.gif": ascii("GIF87a\x01\x00"),
  "new.gif": ascii("GIF89a"),
  "image.webp": [...ascii("RIFF"), 0, 0, 0, 0, ...ascii("WEBPVP8 ")],
  "riff.wav": [...ascii("RIFF"), 0, 0, 0, 0, ...ascii("WAVE")],
  "image.bmp": bmp(),
  "core.bmp": [...bmp({ header: 12 }).slice(0, 22), ...u16le(1), ...u16le(8), 0, 0, 0, 0],
  "bad-bits.bmp": bmp({ bits: 3 }),
  "bad-offset.bmp": bmp({ offset: 20 }),
  "tiny.bmp": ascii("BM1234"),
  "text.txt": ascii("hello world"),
  "empty.bin": [],
  "late-signature.bin": [...new Array(5000).fill(0x20), ...PNG_SIGNATURE],
};

const ARGV = {
  empty: [],
  messages: ["hello", "world"],
  files: ["@a.ts", "@", "explain", "@b.md"],
  doubleDash: ["-p", "--", "--model", "@x", "-v", "text"],
  switches: ["-h", "-v", "-c", "-r", "--no-session", "-nt", "-nbt", "-ne", "--no-mcp", "-ns", "-np", "--no-themes", "-nc", "--verbose", "--offline"],
  longSwitches: ["--help", "--version", "--continue", "--resume", "--no-tools", "--no-builtin-tools", "--no-extensions", "--no-skills", "--no-prompt-templates", "--no-context-files"],
  values: [
    "--provider", "anthropic", "--model", "claude:high", "--api-key", "k", "--system-prompt", "be brief",
    "--session", "abc", "--session-id", "id1", "--fork", "f.jsonl", "--session-dir", "~/s", "--export", "out.html",
  ],
  valuesMissing: ["--provider"],
  valuesMissingThenFlag: ["--model", "--verbose"],
  repeated: [
    "--append-system-prompt", "a", "--append-system-prompt", "b", "-e", "x.ts", "--extension", "builtin:mcp",
    "--skill", "s", "--prompt-template", "p", "--theme", "t1", "--theme", "t2",
  ],
  repeatedMissing: ["-e"],
  name: ["-n", "  my session "],
  nameMissing: ["--name"],
  models: ["--models", " a/*, ,*sonnet*,b "],
  tools: ["--tools", "read, bash,,mcp__*"],
  toolModifiers: ["-t", "+grep,-bash"],
  toolsMixed: ["--tools", "read,+grep"],
  toolsPattern: ["-t", "+gr*p"],
  toolsEmpty: ["--tools", " , "],
  excludeTools: ["-xt", "bash, mcp__*"],
  thinking: ["--thinking", "xhigh"],
  thinkingBad: ["--thinking", "HIGH"],
  thinkingLast: ["--thinking"],
  mode: ["--mode", "json"],
  modeBad: ["--mode", "yaml", "next"],
  modeMissing: ["--mode"],
  modeFlag: ["--mode", "-p"],
  print: ["-p", "do it"],
  printFile: ["--print", "@f.txt"],
  printFlag: ["-p", "-c"],
  printDashes: ["-p", "---frontmatter"],
  printLast: ["--print"],
  useTheme: ["--use-theme", "light"],
  useThemeMissing: ["--use-theme", "--verbose"],
  listModels: ["--list-models"],
  listModelsPattern: ["--list-models", "sonnet"],
  listModelsFile: ["--list-models", "@x"],
  tuiMode: ["--tui-mode", "fullscreen"],
  tuiModeBad: ["--tui-mode", "tiny", "msg"],
  tuiModeMissing: ["--tui-mode", "-v"],
  approve: ["-a"],
  noApprove: ["--no-approve"],
  approveBoth: ["--approve", "-na"],
  unknownFlags: ["--plan", "--level=3", "--mode-x", "value", "--empty=", "--next", "@file", "--last"],
  unknownShort: ["-x", "-"],
  repeatedUnknown: ["--flag", "a", "--flag=b"],
  overwrite: ["--model", "a", "--model", "b", "--mode", "text", "--mode", "rpc"],
};

export function addCodingAgentHelperCases(add, agent) {
  /** Runs `run(tmp)` in a fresh temp directory, with HOME and the agent directory inside it. */
  const isolated = (run) => async () => {
    const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pihost-helpers-")));
    const saved = Object.fromEntries(ENV_NAMES.map((name) => [name, process.env[name]]));
    process.env.HOME = path.join(tmp, "home");
    process.env.PI_CODING_AGENT_DIR = path.join(tmp, "agent");
    try {
      return stabilizer(tmp)(await attempt(() => run(tmp)));
    } finally {
      for (const name of ENV_NAMES) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  };
  const write = (file, content = "") => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    return file;
  };

  // --- parseArgs ---------------------------------------------------------------
  for (const [name, argv] of Object.entries(ARGV)) add(`parseArgs ${name}`, () => parsed(agent.parseArgs(argv)));

  // --- formatDimensionNote -------------------------------------------------------
  const dimensionResults = {
    notResized: { wasResized: false, originalWidth: 4000, originalHeight: 3000, width: 2000, height: 1500 },
    halved: { wasResized: true, originalWidth: 4000, originalHeight: 3000, width: 2000, height: 1500 },
    thirds: { wasResized: true, originalWidth: 1000, originalHeight: 10, width: 300, height: 3 },
    enlarged: { wasResized: true, originalWidth: 10, originalHeight: 10, width: 40, height: 40 },
    missing: { wasResized: true },
  };
  for (const [name, result] of Object.entries(dimensionResults)) {
    add(`formatDimensionNote ${name}`, () => agent.formatDimensionNote(result));
  }

  // --- detectSupportedImageMimeTypeFromFile ------------------------------------------
  add(
    "detectSupportedImageMimeTypeFromFile signatures",
    isolated(async (tmp) => {
      const types = {};
      for (const [name, bytes] of Object.entries(IMAGE_FILES)) {
        types[name] = await attempt(() => agent.detectSupportedImageMimeTypeFromFile(write(path.join(tmp, name), Buffer.from(bytes))));
      }
      return types;
    }),
  );
  add(
    "detectSupportedImageMimeTypeFromFile missing file",
    isolated((tmp) => agent.detectSupportedImageMimeTypeFromFile(path.join(tmp, "missing.png"))),
  );

  // --- Shells --------------------------------------------------------------------
  add(
    "getShellConfig",
    isolated((tmp) => ({
      // /bin/bash exists wherever the goldens are recorded and compared.
      default: attempt(() => agent.getShellConfig()),
      empty: attempt(() => agent.getShellConfig("")),
      custom: attempt(() => agent.getShellConfig(write(path.join(tmp, "my shell")))),
      customDirectory: attempt(() => agent.getShellConfig(tmp)),
      missing: attempt(() => agent.getShellConfig(path.join(tmp, "nope"))),
      relativeMissing: attempt(() => agent.getShellConfig("no/such/shell")),
    })),
  );
  add("getPowerShellConfig off Windows", () => agent.getPowerShellConfig());

  // --- createSyntheticSourceInfo ---------------------------------------------------
  const sourceOptions = {
    minimal: { source: "sdk" },
    everything: { source: "inline", scope: "project", origin: "package", baseDir: "/base", changelogPath: "/base/CHANGELOG.md" },
    emptyChangelog: { source: "x", changelogPath: "", scope: undefined },
    extraFields: { source: "x", extra: 1 },
    empty: {},
  };
  for (const [name, options] of Object.entries(sourceOptions)) {
    add(`createSyntheticSourceInfo ${name}`, () => agent.createSyntheticSourceInfo(`<inline:${name}>`, options));
  }

  // --- wrapRegisteredTool(s) ---------------------------------------------------------
  const registeredTool = (name, calls) => ({
    definition: {
      name,
      label: `${name} label`,
      description: `${name} description`,
      parameters: { type: "object" },
      prepareArguments: undefined,
      renderCall: () => "not copied",
      promptSnippet: "not copied",
      executionMode: "sequential",
      execute: async (toolCallId, params, signal, onUpdate, ctx) => {
        calls.push({ toolCallId, params, signal: signal?.constructor?.name ?? signal, onUpdate: typeof onUpdate, ctx });
        return { content: [{ type: "text", text: `${name} ran` }] };
      },
    },
    sourceInfo: { path: "ext.ts" },
  });
  const runner = (contexts) => ({
    createToolContext: (toolCallId, signal) => {
      contexts.push([toolCallId, signal?.constructor?.name ?? signal]);
      return { made: toolCallId };
    },
  });
  add("wrapRegisteredTool", async () => {
    const calls = [];
    const contexts = [];
    const tool = agent.wrapRegisteredTool(registeredTool("one", calls), runner(contexts));
    const results = [
      await tool.execute("call-1", { a: 1 }, new AbortController().signal, () => {}),
      await tool.execute("call-2", { b: 2 }, undefined, undefined, { given: true }),
    ];
    return { keys: Object.keys(tool), tool, results, calls, contexts };
  });
  add("wrapRegisteredTools", async () => {
    const calls = [];
    const contexts = [];
    const tools = agent.wrapRegisteredTools([registeredTool("a", calls), registeredTool("b", calls)], runner(contexts));
    for (const tool of tools) await tool.execute(`id-${tool.name}`, {});
    return { names: tools.map((tool) => tool.name), calls, contexts, empty: agent.wrapRegisteredTools([], runner(contexts)) };
  });
  // --- createExtensionRuntime ------------------------------------------------------
  add("createExtensionRuntime shape", () => {
    const runtime = agent.createExtensionRuntime();
    return {
      keys: Object.keys(runtime),
      types: Object.fromEntries(Object.entries(runtime).map(([key, value]) => [key, value?.constructor?.name ?? typeof value])),
      mcpServerKeys: Object.keys(runtime.mcpServers),
    };
  });
  add("createExtensionRuntime actions before binding", async () => {
    const runtime = agent.createExtensionRuntime();
    const names = ["sendMessage", "sendUserMessage", "appendEntry", "setSessionName", "getSessionName", "setLabel", "getActiveTools", "getAllTools", "getSettings", "setActiveTools", "getCommands", "getThinkingLevel", "setThinkingLevel", "createContext"];
    return {
      actions: Object.fromEntries(names.map((name) => [name, attempt(() => runtime[name]("x"))])),
      setModel: await attempt(() => runtime.setModel({ id: "m" })),
      refreshTools: runtime.refreshTools(),
      reportError: runtime.reportError(new Error("nobody listens")),
      assertActive: attempt(() => runtime.assertActive()),
    };
  });
  add("createExtensionRuntime queues providers and virtual models", () => {
    const runtime = agent.createExtensionRuntime();
    runtime.registerProvider("p1", { baseUrl: "u" });
    runtime.registerProvider("p2", {}, "ext.ts");
    runtime.registerNativeProvider({ id: "p1", name: "native" });
    runtime.registerNativeProvider({ id: "n2" }, "ext.ts");
    runtime.registerVirtualModel({ provider: "v", id: "a" });
    runtime.registerVirtualModel({ provider: "v", id: "b" }, "ext.ts");
    runtime.registerVirtualModel({ provider: "w", id: "a" });
    const queued = {
      providers: runtime.pendingProviderRegistrations,
      native: runtime.pendingNativeProviderRegistrations,
      virtual: runtime.pendingVirtualModelRegistrations,
    };
    const before = JSON.parse(JSON.stringify(queued));
    runtime.unregisterProvider("p1");
    runtime.unregisterVirtualModel("v", "a");
    runtime.unregisterVirtualModel("w", "b");
    return {
      before,
      after: {
        providers: runtime.pendingProviderRegistrations,
        native: runtime.pendingNativeProviderRegistrations,
        virtual: runtime.pendingVirtualModelRegistrations,
      },
      replacedArrays: runtime.pendingProviderRegistrations !== queued.providers,
    };
  });
  add("createExtensionRuntime invalidate", () => {
    const log = [];
    const runtime = agent.createExtensionRuntime();
    const first = runtime.trackEventBusSubscription(() => log.push("first unsubscribed"));
    runtime.trackEventBusSubscription(() => log.push("second unsubscribed"));
    first();
    first();
    runtime.invalidate();
    const stale = attempt(() => runtime.assertActive());
    runtime.invalidate("ignored: already stale");
    const late = runtime.trackEventBusSubscription(() => log.push("late unsubscribed"));
    late();
    const custom = agent.createExtensionRuntime();
    custom.invalidate("custom stale message");
    return { log, stale, afterSecond: attempt(() => runtime.assertActive()), custom: attempt(() => custom.assertActive()) };
  });
  add("createExtensionRuntime MCP server registry", () => {
    const { mcpServers } = agent.createExtensionRuntime();
    const changes = [];
    mcpServers.register({ name: "a", config: { command: "x", args: ["1"] }, extensionPath: "one.ts" });
    mcpServers.setChangeListener(() => changes.push(mcpServers.list().map((server) => server.name)));
    mcpServers.register({ name: "b", config: { url: "http://b" }, extensionPath: "two.ts" });
    mcpServers.register({ name: "a", config: { command: "y" }, extensionPath: "one.ts" });
    const listed = mcpServers.list();
    listed[0].config.command = "changed";
    mcpServers.unregister("a", "two.ts");
    mcpServers.unregister("missing", "one.ts");
    const kept = mcpServers.get("a");
    mcpServers.unregister("a", "one.ts");
    return { changes, listed, kept, afterUnregister: mcpServers.list(), missing: mcpServers.get("a") ?? null };
  });

  // --- loadProjectContextFiles -------------------------------------------------------
  const contextFiles = (tmp, cwd, agentDir = path.join(tmp, "agent")) => agent.loadProjectContextFiles({ cwd, agentDir });
  add(
    "loadProjectContextFiles none",
    isolated((tmp) => {
      fs.mkdirSync(path.join(tmp, "project"));
      return contextFiles(tmp, path.join(tmp, "project"));
    }),
  );
  add(
    "loadProjectContextFiles agent dir and ancestors",
    isolated((tmp) => {
      write(path.join(tmp, "agent", "AGENTS.md"), "\uFEFFglobal rules\n");
      write(path.join(tmp, "AGENTS.md"), "root");
      write(path.join(tmp, "a", "CLAUDE.md"), "claude a");
      write(path.join(tmp, "a", "b", "c", "AGENTS.MD"), "upper");
      fs.mkdirSync(path.join(tmp, "a", "b", "c", "d"), { recursive: true });
      return contextFiles(tmp, path.join(tmp, "a", "b", "c", "d"));
    }),
  );
  add(
    "loadProjectContextFiles preference order",
    isolated((tmp) => {
      const dir = path.join(tmp, "prefs");
      for (const name of ["CLAUDE.MD", "CLAUDE.md", "AGENTS.MD", "AGENTS.md", "AGENTS.override.md"]) write(path.join(dir, name), name);
      const found = [contextFiles(tmp, dir)];
      for (const name of ["AGENTS.override.md", "AGENTS.md", "AGENTS.MD", "CLAUDE.md"]) {
        fs.rmSync(path.join(dir, name));
        found.push(contextFiles(tmp, dir));
      }
      return found;
    }),
  );
  add(
    "loadProjectContextFiles skips directories named like context files",
    isolated((tmp) => {
      fs.mkdirSync(path.join(tmp, "p", "AGENTS.md"), { recursive: true });
      write(path.join(tmp, "p", "CLAUDE.md"), "claude");
      return contextFiles(tmp, path.join(tmp, "p"));
    }),
  );
  add(
    "loadProjectContextFiles agent dir inside the project",
    isolated((tmp) => {
      write(path.join(tmp, "p", "AGENTS.md"), "both");
      return contextFiles(tmp, path.join(tmp, "p"), path.join(tmp, "p"));
    }),
  );
  add(
    "loadProjectContextFiles agent dir as ~",
    isolated((tmp) => {
      write(path.join(tmp, "home", "AGENTS.md"), "home rules");
      write(path.join(tmp, "p", "AGENTS.md"), "project");
      return contextFiles(tmp, path.join(tmp, "p"), "~");
    }),
  );
  add(
    "loadProjectContextFiles symlinked file",
    isolated((tmp) => {
      write(path.join(tmp, "shared.md"), "shared");
      fs.mkdirSync(path.join(tmp, "p"));
      fs.symlinkSync(path.join(tmp, "shared.md"), path.join(tmp, "p", "AGENTS.md"));
      fs.symlinkSync(path.join(tmp, "missing.md"), path.join(tmp, "p", "AGENTS.override.md"));
      return contextFiles(tmp, path.join(tmp, "p"));
    }),
  );

  /** A main repository at <tmp>/repo with a linked worktree at `worktree`, as `git worktree add` leaves them. */
  const repoWithWorktree = (tmp, worktree) => {
    const repo = path.join(tmp, "repo");
    write(path.join(repo, ".git", "HEAD"), "ref: refs/heads/main\n");
    const gitDir = path.join(repo, ".git", "worktrees", "wt");
    write(path.join(gitDir, "HEAD"), "ref: refs/heads/wt\n");
    write(path.join(gitDir, "commondir"), "../..\n");
    write(path.join(worktree, ".git"), `gitdir: ${gitDir}\n`);
    return repo;
  };
  add(
    "loadProjectContextFiles nested worktree shadows the main repository's file",
    isolated((tmp) => {
      const worktree = path.join(tmp, "repo", ".worktrees", "wt");
      const repo = repoWithWorktree(tmp, worktree);
      write(path.join(repo, "AGENTS.md"), "main");
      write(path.join(worktree, "AGENTS.md"), "worktree");
      return { fromWorktree: contextFiles(tmp, path.join(worktree, "src")), fromRepo: contextFiles(tmp, repo) };
    }),
  );
  add(
    "loadProjectContextFiles nested worktree shadows by name only",
    isolated((tmp) => {
      const worktree = path.join(tmp, "repo", "wt");
      const repo = repoWithWorktree(tmp, worktree);
      write(path.join(repo, "AGENTS.md"), "main agents");
      write(path.join(worktree, "CLAUDE.md"), "worktree claude");
      const differentNames = contextFiles(tmp, worktree);
      write(path.join(repo, "CLAUDE.md"), "main claude");
      return { differentNames, withMainClaude: contextFiles(tmp, worktree) };
    }),
  );
  add(
    "loadProjectContextFiles nested worktree without its own file",
    isolated((tmp) => {
      const worktree = path.join(tmp, "repo", "wt");
      const repo = repoWithWorktree(tmp, worktree);
      write(path.join(repo, "AGENTS.md"), "main");
      return contextFiles(tmp, worktree);
    }),
  );
  add(
    "loadProjectContextFiles sibling worktree keeps ancestors",
    isolated((tmp) => {
      const worktree = path.join(tmp, "wt");
      repoWithWorktree(tmp, worktree);
      write(path.join(tmp, "AGENTS.md"), "parent");
      write(path.join(worktree, "AGENTS.md"), "worktree");
      return contextFiles(tmp, worktree);
    }),
  );
  add(
    "loadProjectContextFiles broken git pointers",
    isolated((tmp) => {
      write(path.join(tmp, "AGENTS.md"), "top");
      write(path.join(tmp, "r1", ".git"), "gitdir: nowhere\n");
      write(path.join(tmp, "r1", "AGENTS.md"), "r1");
      write(path.join(tmp, "r2", ".git"), "not a pointer\n");
      fs.mkdirSync(path.join(tmp, "r3", ".git"), { recursive: true });
      return { r1: contextFiles(tmp, path.join(tmp, "r1")), r2: contextFiles(tmp, path.join(tmp, "r2")), r3: contextFiles(tmp, path.join(tmp, "r3")) };
    }),
  );

  // --- hasTrustRequiringProjectResources ---------------------------------------------
  const CONFIG_ENTRIES = ["settings.json", "mcp.json", "extensions", "skills", "prompts", "themes", "SYSTEM.md", "APPEND_SYSTEM.md"];
  add(
    "hasTrustRequiringProjectResources config entries",
    isolated((tmp) => {
      const results = { empty: agent.hasTrustRequiringProjectResources(path.join(tmp, "empty")) };
      for (const entry of [...CONFIG_ENTRIES, "auth.json", "AGENTS.md", "sessions"]) {
        const dir = path.join(tmp, entry.replace(/\W/g, "_"));
        write(path.join(dir, ".pi", entry));
        results[entry] = agent.hasTrustRequiringProjectResources(dir);
      }
      return results;
    }),
  );
  add(
    "hasTrustRequiringProjectResources config only in cwd",
    isolated((tmp) => {
      write(path.join(tmp, "p", ".pi", "settings.json"), "{}");
      fs.mkdirSync(path.join(tmp, "p", "sub"), { recursive: true });
      return { cwd: agent.hasTrustRequiringProjectResources(path.join(tmp, "p")), child: agent.hasTrustRequiringProjectResources(path.join(tmp, "p", "sub")) };
    }),
  );
  add(
    "hasTrustRequiringProjectResources .agents/skills up the tree",
    isolated((tmp) => {
      fs.mkdirSync(path.join(tmp, "p", ".agents", "skills"), { recursive: true });
      fs.mkdirSync(path.join(tmp, "p", "a", "b"), { recursive: true });
      fs.mkdirSync(path.join(tmp, "q", ".agents"), { recursive: true });
      return {
        project: agent.hasTrustRequiringProjectResources(path.join(tmp, "p")),
        nested: agent.hasTrustRequiringProjectResources(path.join(tmp, "p", "a", "b")),
        agentsWithoutSkills: agent.hasTrustRequiringProjectResources(path.join(tmp, "q")),
        missingCwd: agent.hasTrustRequiringProjectResources(path.join(tmp, "p", "not", "there")),
      };
    }),
  );
  add(
    "hasTrustRequiringProjectResources ignores the user's own skills",
    isolated((tmp) => {
      const home = path.join(tmp, "home");
      fs.mkdirSync(path.join(home, ".agents", "skills"), { recursive: true });
      fs.mkdirSync(path.join(home, "code", "p"), { recursive: true });
      fs.symlinkSync(home, path.join(tmp, "home-link"));
      const results = {
        home: agent.hasTrustRequiringProjectResources(home),
        below: agent.hasTrustRequiringProjectResources(path.join(home, "code", "p")),
        throughSymlink: agent.hasTrustRequiringProjectResources(path.join(tmp, "home-link", "code")),
        tilde: agent.hasTrustRequiringProjectResources("~/code"),
      };
      process.env.HOME = path.join(tmp, "home-link");
      results.symlinkedHome = agent.hasTrustRequiringProjectResources(path.join(home, "code"));
      process.env.HOME = path.join(tmp, "elsewhere");
      results.otherHome = agent.hasTrustRequiringProjectResources(path.join(home, "code"));
      return results;
    }),
  );
}
