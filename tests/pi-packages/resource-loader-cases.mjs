// Cases of pi-coding-agent's DefaultResourceLoader and
// createAgentSessionServices for the pi package case table
// (pi-packages-cases.mjs): loaders whose resources come from explicit paths,
// context files, SYSTEM.md / APPEND_SYSTEM.md, the overrides and the project
// trust callback, in a fresh temp tree (agent dir, project, HOME) with
// nothing for pi's package manager to discover. Paths show as <tmp>.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** Writes `files` (relative path → text) under `root`. */
function writeTree(root, files) {
  for (const [relative, text] of Object.entries(files)) {
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
}

/**
 * Runs `run({ tmp, cwd, agentDir })` in a temp tree: `<tmp>/home` as HOME,
 * `<tmp>/agent` and `<tmp>/work/project` (a git repository, so context files
 * stop being searched above nothing but the tree). Restores HOME after.
 */
async function inTree(files, run) {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pihost-resources-")));
  const previousHome = process.env.HOME;
  process.env.HOME = path.join(tmp, "home");
  try {
    writeTree(tmp, { "home/.keep": "", "agent/.keep": "", "work/project/.git/HEAD": "ref: refs/heads/main\n", ...files });
    const value = await run({ tmp, cwd: path.join(tmp, "work/project"), agentDir: path.join(tmp, "agent") });
    return JSON.parse(JSON.stringify(value ?? null).replaceAll(tmp, "<tmp>"));
  } finally {
    if (previousHome === undefined) delete process.env.HOME;
    else process.env.HOME = previousHome;
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Everything a loader hands out, as plain data (the extension runtime as its kind). */
function describeLoader(loader) {
  const extensions = loader.getExtensions();
  return {
    extensions: {
      keys: Object.keys(extensions).sort(),
      extensions: extensions.extensions,
      errors: extensions.errors,
      warnings: extensions.warnings,
      runtime: typeof extensions.runtime,
      flagValues: [...(extensions.runtime?.flagValues ?? [])],
    },
    skills: loader.getSkills(),
    prompts: loader.getPrompts(),
    themes: loader.getThemes(),
    agentsFiles: loader.getAgentsFiles(),
    systemPrompt: loader.getSystemPrompt(),
    systemPromptSource: loader.getSystemPromptSource(),
    appendSystemPrompt: loader.getAppendSystemPrompt(),
    appendSystemPromptSources: loader.getAppendSystemPromptSources(),
  };
}

const NOTHING = { noExtensions: true, noSkills: true, noPromptTemplates: true, noThemes: true, noContextFiles: true };

const SKILL = (name, description) => `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\nSteps.\n`;

const CONTEXT_FILES = {
  "agent/AGENTS.md": "global agents\n",
  "work/CLAUDE.md": "\ufeffparent claude\n",
  "work/project/AGENTS.md": "project agents\n",
  "work/project/CLAUDE.md": "shadowed by AGENTS.md\n",
};

const PROMPT_FILES = {
  "prompts/review.md": "---\ndescription: Review the change\nargument-hint: <file>\n---\nReview $1 carefully.\n",
  "prompts/long.md": `\n\n${"A first line that is much longer than sixty characters, so it is cut"}\nbody\n`,
  "prompts/notes.txt": "not a template\n",
  "prompts/nested/inner.md": "not loaded: directories are not searched\n",
  "more/review.md": "second review\n",
  "single.md": "---\ndescription: one file\n---\nsingle body\n",
};

/** A model runtime with what createAgentSessionServices calls, recording the calls. */
function recordingModelRuntime(calls) {
  return {
    registerProvider: (name) => calls.push(`registerProvider ${name}`),
    registerNativeProvider: () => calls.push("registerNativeProvider"),
    registerVirtualModel: () => calls.push("registerVirtualModel"),
    refresh: async (options) => {
      calls.push(`refresh ${JSON.stringify(options)}`);
    },
  };
}

export function addResourceLoaderCases(add, agent) {
  const { DefaultResourceLoader, SettingsManager } = agent;

  add("resource loader: before reload", () =>
    inTree({}, ({ cwd, agentDir }) => describeLoader(new DefaultResourceLoader({ cwd, agentDir, settingsManager: SettingsManager.inMemory() }))),
  );
  add("resource loader: everything disabled", () =>
    inTree(CONTEXT_FILES, async ({ cwd, agentDir }) => {
      const loader = new DefaultResourceLoader({ cwd, agentDir, ...NOTHING, systemPrompt: "You are a helper." });
      await loader.reload();
      return describeLoader(loader);
    }),
  );
  add("resource loader: nothing to discover", () =>
    inTree({ "agent/skills/.keep-out": "", "agent/extensions/.hidden": "" }, async ({ cwd, agentDir }) => {
      fs.rmSync(path.join(agentDir, "skills/.keep-out"));
      fs.rmSync(path.join(agentDir, "extensions/.hidden"));
      const loader = new DefaultResourceLoader({ cwd, agentDir });
      await loader.reload();
      return describeLoader(loader);
    }),
  );
  add("resource loader: context files", () =>
    inTree(CONTEXT_FILES, async ({ cwd, agentDir }) => {
      const loader = new DefaultResourceLoader({ cwd, agentDir, noExtensions: true });
      await loader.reload();
      return loader.getAgentsFiles();
    }),
  );
  add("resource loader: SYSTEM.md and APPEND_SYSTEM.md of the agent dir", () =>
    inTree(
      { "agent/SYSTEM.md": "\ufeffglobal system\n", "agent/APPEND_SYSTEM.md": "global append\n", "work/project/.pi/SYSTEM.md": "project system\n" },
      async ({ cwd, agentDir }) => {
        const loader = new DefaultResourceLoader({ cwd, agentDir, ...NOTHING, settingsManager: SettingsManager.create(cwd, agentDir, { projectTrusted: false }) });
        await loader.reload();
        return describeLoader(loader);
      },
    ),
  );
  add("resource loader: project SYSTEM.md when trusted", () =>
    inTree(
      { "agent/SYSTEM.md": "global system\n", "work/project/.pi/SYSTEM.md": "project system\n", "work/project/.pi/APPEND_SYSTEM.md": "project append\n" },
      async ({ cwd, agentDir }) => {
        const loader = new DefaultResourceLoader({ cwd, agentDir, ...NOTHING, settingsManager: SettingsManager.create(cwd, agentDir, { projectTrusted: true }) });
        await loader.reload();
        return describeLoader(loader);
      },
    ),
  );
  add("resource loader: system prompts given as text and files", () =>
    inTree({ "prompt-files/system.md": "system from a file\n", "prompt-files/append.md": "append from a file\n" }, async ({ tmp, cwd, agentDir }) => {
      const loader = new DefaultResourceLoader({
        cwd,
        agentDir,
        ...NOTHING,
        systemPrompt: path.join(tmp, "prompt-files/system.md"),
        appendSystemPrompt: ["inline append", path.join(tmp, "prompt-files/append.md"), ""],
      });
      await loader.reload();
      return describeLoader(loader);
    }),
  );
  add("resource loader: additional skill paths", () =>
    inTree(
      {
        "skills-a/alpha/SKILL.md": SKILL("alpha", "First skill"),
        "skills-a/beta/SKILL.md": SKILL("beta", "Second skill"),
        "skills-b/alpha/SKILL.md": SKILL("alpha", "Duplicate of the first"),
        "loose/gamma.md": SKILL("gamma", "A lone file"),
      },
      async ({ tmp, cwd, agentDir }) => {
        const loader = new DefaultResourceLoader({
          cwd,
          agentDir,
          ...NOTHING,
          additionalSkillPaths: [path.join(tmp, "skills-a"), path.join(tmp, "skills-b"), path.join(tmp, "loose/gamma.md"), "../missing-skills", path.join(tmp, "skills-a")],
        });
        await loader.reload();
        return loader.getSkills();
      },
    ),
  );
  add("resource loader: additional prompt template paths", () =>
    inTree(PROMPT_FILES, async ({ tmp, cwd, agentDir }) => {
      const loader = new DefaultResourceLoader({
        cwd,
        agentDir,
        ...NOTHING,
        additionalPromptTemplatePaths: [path.join(tmp, "prompts"), path.join(tmp, "more"), ` ${path.join(tmp, "single.md")} `, "missing-prompts", path.join(tmp, "prompts/notes.txt")],
      });
      await loader.reload();
      const { prompts, diagnostics } = loader.getPrompts();
      return { prompts: prompts.sort((a, b) => a.name.localeCompare(b.name)), diagnostics };
    }),
  );
  add("resource loader: missing theme paths", () =>
    inTree({}, async ({ cwd, agentDir }) => {
      const loader = new DefaultResourceLoader({ cwd, agentDir, ...NOTHING, additionalThemePaths: ["themes/none.json", "npm:some-theme"] });
      await loader.reload();
      return loader.getThemes();
    }),
  );
  add("resource loader: overrides see the base", () =>
    inTree({ ...CONTEXT_FILES, ...PROMPT_FILES, "skills-a/alpha/SKILL.md": SKILL("alpha", "First skill"), "agent/SYSTEM.md": "base system\n" }, async ({ tmp, cwd, agentDir }) => {
      const seen = {};
      const loader = new DefaultResourceLoader({
        cwd,
        agentDir,
        noExtensions: true,
        noThemes: true,
        additionalSkillPaths: [path.join(tmp, "skills-a")],
        additionalPromptTemplatePaths: [path.join(tmp, "single.md")],
        appendSystemPrompt: ["base append"],
        extensionsOverride: (base) => {
          seen.extensions = { keys: Object.keys(base).sort(), count: base.extensions.length };
          return { ...base, errors: [{ path: "<override>", error: "from the override" }] };
        },
        skillsOverride: (base) => {
          seen.skills = base.skills.map((skill) => skill.name);
          return { skills: [], diagnostics: [{ type: "warning", message: "skills replaced", path: "<override>" }] };
        },
        promptsOverride: (base) => {
          seen.prompts = base.prompts.map((prompt) => prompt.name);
          return { prompts: [{ name: "made", description: "made up", content: "x", filePath: "<inline:made>" }], diagnostics: [] };
        },
        themesOverride: (base) => {
          seen.themes = base;
          return base;
        },
        agentsFilesOverride: (base) => {
          seen.agentsFiles = base.agentsFiles.map((file) => file.path);
          return { agentsFiles: [{ path: "/virtual/AGENTS.md", content: "virtual" }] };
        },
        systemPromptOverride: (base) => {
          seen.systemPrompt = base;
          return `${base}+override`;
        },
        appendSystemPromptOverride: (base) => {
          seen.appendSystemPrompt = base;
          return [...base, "appended by override"];
        },
      });
      await loader.reload();
      return { seen, loader: describeLoader(loader) };
    }),
  );
  add("resource loader: project trust callback", () =>
    inTree({ "work/project/.pi/SYSTEM.md": "project system\n" }, async ({ cwd, agentDir }) => {
      const settingsManager = SettingsManager.create(cwd, agentDir, { projectTrusted: true });
      const loader = new DefaultResourceLoader({ cwd, agentDir, settingsManager, ...NOTHING });
      const calls = [];
      await loader.reload({
        resolveProjectTrust: async ({ extensionsResult }) => {
          calls.push({ keys: Object.keys(extensionsResult).sort(), extensions: extensionsResult.extensions.length, trustedDuringCall: settingsManager.isProjectTrusted() });
          return calls.length === 1 ? false : true;
        },
      });
      const first = { systemPrompt: loader.getSystemPrompt(), trusted: settingsManager.isProjectTrusted() };
      await loader.reload({ resolveProjectTrust: async () => (calls.push("second"), true) });
      return { calls, first, second: { systemPrompt: loader.getSystemPrompt(), trusted: settingsManager.isProjectTrusted() } };
    }),
  );
  add("resource loader: reload reads files again", () =>
    inTree({ "agent/SYSTEM.md": "first\n", "work/project/AGENTS.md": "one\n" }, async ({ cwd, agentDir }) => {
      const loader = new DefaultResourceLoader({ cwd, agentDir, noExtensions: true, noSkills: true, noPromptTemplates: true, noThemes: true });
      await loader.reload();
      const before = [loader.getSystemPrompt(), loader.getAgentsFiles()];
      fs.writeFileSync(path.join(agentDir, "SYSTEM.md"), "second\n");
      fs.rmSync(path.join(cwd, "AGENTS.md"));
      await loader.reload();
      return { before, after: [loader.getSystemPrompt(), loader.getAgentsFiles(), loader.getSystemPromptSource()] };
    }),
  );
  add("resource loader: extendResources with nothing", () =>
    inTree({}, async ({ cwd, agentDir }) => {
      const loader = new DefaultResourceLoader({ cwd, agentDir, ...NOTHING });
      await loader.reload();
      loader.extendResources({});
      loader.extendResources({ skillPaths: [], promptPaths: [], themePaths: [] });
      return describeLoader(loader);
    }),
  );

  const DISCOVERABLE = {
    "agent/skills/user-skill/SKILL.md": SKILL("user-skill", "From the agent dir"),
    "agent/skills/loose.md": SKILL("loose", "A loose file at the root"),
    "agent/skills/group/nested.md": SKILL("nested", "Not a skill: loose files count only at the root"),
    "agent/skills/group/deep/SKILL.md": SKILL("deep", "Found below a plain directory"),
    "agent/skills/.hidden/SKILL.md": SKILL("hidden", "Dot directories are skipped"),
    "agent/skills/node_modules/x/SKILL.md": SKILL("in-modules", "node_modules is skipped"),
    "agent/skills/.gitignore": "ignored-skill/\n",
    "agent/skills/ignored-skill/SKILL.md": SKILL("ignored-skill", "Hidden by .gitignore"),
    "agent/skills/shared/SKILL.md": SKILL("shared", "The user's copy"),
    "agent/prompts/user-prompt.md": "---\ndescription: user prompt\n---\nuser body\n",
    "agent/prompts/sub/skipped.md": "prompts are not searched below the top\n",
    "agent/prompts/.ignore": "ignored-prompt.md\n",
    "agent/prompts/ignored-prompt.md": "ignored\n",
    "agent/prompts/notes.txt": "not markdown\n",
    "home/.agents/skills/home-skill/SKILL.md": SKILL("home-skill", "From ~/.agents"),
    "home/.agents/skills/top.md": SKILL("top", "Not a skill: agents mode counts loose files only below the root"),
    "home/.agents/skills/group/inner.md": SKILL("inner", "A loose file below the root"),
    "work/project/.pi/skills/project-skill/SKILL.md": SKILL("project-skill", "From the project"),
    "work/project/.pi/skills/shared/SKILL.md": SKILL("shared", "The project's copy"),
    "work/project/.pi/prompts/project-prompt.md": "project body\n",
    "work/project/.agents/skills/agents-skill/SKILL.md": SKILL("agents-skill", "From the project's .agents"),
    "work/.agents/skills/above-root/SKILL.md": SKILL("above-root", "Above the git root: not searched"),
  };
  const sortByName = (items) => items.sort((a, b) => a.name.localeCompare(b.name));
  add("resource loader: discovered skills and prompts, project untrusted", () =>
    inTree(DISCOVERABLE, async ({ cwd, agentDir }) => {
      const loader = new DefaultResourceLoader({ cwd, agentDir, noExtensions: true, noThemes: true, settingsManager: SettingsManager.create(cwd, agentDir, { projectTrusted: false }) });
      await loader.reload();
      return { skills: sortByName(loader.getSkills().skills), skillDiagnostics: loader.getSkills().diagnostics, prompts: sortByName(loader.getPrompts().prompts), promptDiagnostics: loader.getPrompts().diagnostics };
    }),
  );
  add("resource loader: discovered skills and prompts, project trusted", () =>
    inTree(DISCOVERABLE, async ({ cwd, agentDir }) => {
      const loader = new DefaultResourceLoader({ cwd, agentDir, noExtensions: true, noThemes: true, settingsManager: SettingsManager.create(cwd, agentDir, { projectTrusted: true }) });
      await loader.reload();
      const { skills, diagnostics } = loader.getSkills();
      return { skills: sortByName(skills), diagnostics: diagnostics.map((d) => ({ ...d, path: d.path })), prompts: sortByName(loader.getPrompts().prompts) };
    }),
  );
  add("resource loader: discovered resources with explicit paths and noSkills", () =>
    inTree({ ...DISCOVERABLE, "extra/extra-skill/SKILL.md": SKILL("extra-skill", "Given explicitly") }, async ({ tmp, cwd, agentDir }) => {
      const loader = new DefaultResourceLoader({
        cwd,
        agentDir,
        noExtensions: true,
        noThemes: true,
        noSkills: true,
        additionalSkillPaths: [path.join(tmp, "extra"), path.join(agentDir, "skills/user-skill")],
        additionalPromptTemplatePaths: [path.join(agentDir, "prompts/user-prompt.md")],
        settingsManager: SettingsManager.create(cwd, agentDir, { projectTrusted: true }),
      });
      await loader.reload();
      return { skills: sortByName(loader.getSkills().skills), prompts: sortByName(loader.getPrompts().prompts) };
    }),
  );

  add("resource loader: extendResources adds extension paths", () =>
    inTree(
      {
        ...PROMPT_FILES,
        "skills-a/alpha/SKILL.md": SKILL("alpha", "First skill"),
        "ext-pkg/skills/ext-skill/SKILL.md": SKILL("ext-skill", "Brought by an extension"),
        "ext-pkg/skills/alpha/SKILL.md": SKILL("alpha", "Loses to the first"),
        "ext-pkg/prompts/ext-prompt.md": "extension prompt\n",
      },
      async ({ tmp, cwd, agentDir }) => {
        const loader = new DefaultResourceLoader({
          cwd,
          agentDir,
          ...NOTHING,
          additionalSkillPaths: [path.join(tmp, "skills-a"), "missing-skill-dir"],
          additionalPromptTemplatePaths: [path.join(tmp, "single.md")],
        });
        await loader.reload();
        const before = { skills: loader.getSkills(), prompts: loader.getPrompts().prompts.map((prompt) => prompt.name) };
        const packageMetadata = { source: "npm:ext-pkg", scope: "user", origin: "package", baseDir: "../../ext-pkg" };
        loader.extendResources({
          skillPaths: [{ path: path.join(tmp, "ext-pkg/skills"), metadata: packageMetadata }],
          promptPaths: [{ path: "../../ext-pkg/prompts/ext-prompt.md", metadata: { source: "local", scope: "temporary", origin: "top-level" } }],
        });
        const after = { skills: loader.getSkills(), prompts: loader.getPrompts() };
        loader.extendResources({ skillPaths: [{ path: path.join(tmp, "ext-pkg/skills"), metadata: packageMetadata }] });
        const again = loader.getSkills().skills.map((skill) => skill.name);
        await loader.reload();
        const reloaded = loader.getSkills().skills.map((skill) => skill.name);
        return { before, after, again, reloaded };
      },
    ),
  );

  add("resource loader: skills and prompts listed in settings", () =>
    inTree(
      {
        ...DISCOVERABLE,
        "agent/settings.json": JSON.stringify({ skills: ["../listed/user-listed", "~/home-listed.md", "missing-listed"], prompts: ["../listed/prompts"] }),
        "work/project/.pi/settings.json": JSON.stringify({ skills: ["../../../listed/project-listed"], prompts: ["../../../listed/one.md"] }),
        "listed/user-listed/SKILL.md": SKILL("user-listed", "Listed in the user's settings"),
        "listed/project-listed/SKILL.md": SKILL("project-listed", "Listed in the project's settings"),
        "listed/project-listed/extra.md": SKILL("extra", "Not a skill: the directory has SKILL.md"),
        "home/home-listed.md": SKILL("home-listed", "A file under ~"),
        "listed/prompts/top.md": "top prompt\n",
        "listed/prompts/deeper/nested.md": "nested prompt: settings directories are searched in depth\n",
        "listed/prompts/.hidden.md": "hidden\n",
        "listed/one.md": "one prompt\n",
      },
      async ({ cwd, agentDir }) => {
        const loader = new DefaultResourceLoader({ cwd, agentDir, noExtensions: true, noThemes: true, settingsManager: SettingsManager.create(cwd, agentDir, { projectTrusted: true }) });
        await loader.reload();
        return { skills: loader.getSkills(), prompts: loader.getPrompts() };
      },
    ),
  );

  add("session services: created over a given model runtime", () =>
    inTree({ "agent/AGENTS.md": "global agents\n" }, async ({ cwd, agentDir }) => {
      const calls = [];
      const services = await agent.createAgentSessionServices({
        cwd,
        agentDir,
        modelRuntime: recordingModelRuntime(calls),
        resourceLoaderOptions: { ...NOTHING, noContextFiles: false, systemPrompt: "services prompt" },
      });
      return {
        keys: Object.keys(services).sort(),
        cwd: services.cwd,
        agentDir: services.agentDir,
        diagnostics: services.diagnostics,
        calls,
        settingsIsManager: services.settingsManager instanceof SettingsManager,
        loaderIsDefault: services.resourceLoader instanceof DefaultResourceLoader,
        loader: describeLoader(services.resourceLoader),
      };
    }),
  );
  add("session services: extension flags nobody registered", () =>
    inTree({}, async ({ cwd, agentDir }) => {
      const services = await agent.createAgentSessionServices({
        cwd,
        agentDir,
        modelRuntime: recordingModelRuntime([]),
        settingsManager: SettingsManager.inMemory(),
        resourceLoaderOptions: NOTHING,
        extensionFlagValues: new Map([["verbose", true], ["mode", "fast"]]),
      });
      return services.diagnostics;
    }),
  );
  add("session services: one unknown flag", () =>
    inTree({}, async ({ cwd, agentDir }) => {
      const services = await agent.createAgentSessionServices({
        cwd,
        agentDir,
        modelRuntime: recordingModelRuntime([]),
        resourceLoaderOptions: NOTHING,
        extensionFlagValues: new Map([["only", "x"]]),
      });
      return { diagnostics: services.diagnostics, flags: [...services.resourceLoader.getExtensions().runtime.flagValues] };
    }),
  );

  add("createAgentSession: a default resource loader when none is given", () =>
    inTree({ ...CONTEXT_FILES, "agent/skills/user-skill/SKILL.md": SKILL("user-skill", "From the agent dir") }, async ({ cwd, agentDir }) => {
      const modelRuntime = {
        hasConfiguredAuth: () => false,
        checkAuth: async () => undefined,
        isUsingOAuth: () => false,
        getModel: () => undefined,
        getPhysicalModel: () => undefined,
        getAvailableSnapshot: () => [],
        getAuth: async () => undefined,
      };
      const { session, extensionsResult, modelFallbackMessage } = await agent.createAgentSession({
        cwd,
        agentDir,
        modelRuntime,
        settingsManager: SettingsManager.inMemory(),
        sessionManager: agent.SessionManager.inMemory(cwd),
      });
      try {
        const loader = session.resourceLoader;
        return {
          loaderIsDefault: loader instanceof DefaultResourceLoader,
          agentsFiles: loader.getAgentsFiles().agentsFiles.map((file) => file.path),
          skills: loader.getSkills().skills.map((skill) => skill.name),
          extensions: { count: extensionsResult.extensions.length, errors: extensionsResult.errors },
          // pi names its installed docs; pihost names where it keeps them.
          modelFallbackMessage: modelFallbackMessage?.replace(/\S*\/pi-coding-agent\/docs/g, "<docs>"),
        };
      } finally {
        session.dispose();
      }
    }),
  );

  // Settings packages and patterns, as pi's package manager resolves them for the loader (no extension
  // files: the Node differentials cannot load them; the compat scenarios and tests/sub_agents.rs do).
  const PACKAGES = {
    // A local package with a manifest naming its skills and prompts.
    "packs/helpers/package.json": JSON.stringify({ name: "helpers", version: "1.0.0", pi: { skills: ["./skills"], prompts: ["./prompts"] } }),
    "packs/helpers/skills/alpha/SKILL.md": SKILL("alpha", "First helper skill"),
    "packs/helpers/skills/beta/SKILL.md": SKILL("beta", "Second helper skill"),
    "packs/helpers/prompts/fix.md": "---\ndescription: Fix it\n---\nFix $1.\n",
    "packs/helpers/prompts/skip.md": "---\ndescription: Not wanted\n---\nskip\n",
    // An npm package installed where pi installs the user's, found by its conventional folders.
    "agent/npm/node_modules/npm-pack/package.json": JSON.stringify({ name: "npm-pack", version: "2.1.0" }),
    "agent/npm/node_modules/npm-pack/skills/gamma/SKILL.md": SKILL("gamma", "From npm"),
    "agent/npm/node_modules/npm-pack/prompts/ship.md": "---\ndescription: Ship it\n---\nShip.\n",
    // The user's own resources, one of them switched off by a pattern.
    "agent/skills/delta/SKILL.md": SKILL("delta", "User skill"),
    "agent/prompts/own.md": "---\ndescription: Own prompt\n---\nOwn.\n",
    "agent/prompts/off.md": "---\ndescription: Switched off\n---\nOff.\n",
  };
  const summary = (loader) => ({
    skills: loader.getSkills().skills.map((skill) => `${skill.name} ${skill.sourceInfo.source}/${skill.sourceInfo.scope}/${skill.sourceInfo.origin}`),
    skillDiagnostics: loader.getSkills().diagnostics,
    prompts: loader.getPrompts().prompts.map((prompt) => `${prompt.name} ${prompt.sourceInfo.source}/${prompt.sourceInfo.scope}/${prompt.sourceInfo.origin}`),
    extensions: loader.getExtensions().extensions.length,
    errors: loader.getExtensions().errors,
    warnings: loader.getExtensions().warnings,
  });
  add("resource loader: settings packages, filters and patterns", () =>
    inTree(PACKAGES, async ({ tmp, cwd, agentDir }) => {
      const settings = {
        packages: [{ source: path.join(tmp, "packs/helpers"), prompts: ["-prompts/skip.md"] }, "npm:npm-pack@^2.0.0"],
        prompts: ["-prompts/off.md"],
      };
      fs.writeFileSync(path.join(agentDir, "settings.json"), JSON.stringify(settings));
      const loader = new DefaultResourceLoader({ cwd, agentDir, noExtensions: true, noThemes: true, noContextFiles: true });
      await loader.reload();
      return summary(loader);
    }),
  );
  add("resource loader: a settings package whose skills are filtered out, and a missing local one", () =>
    inTree(PACKAGES, async ({ tmp, cwd, agentDir }) => {
      const settings = { packages: [{ source: path.join(tmp, "packs/helpers"), skills: [] }, path.join(tmp, "packs/absent")] };
      fs.writeFileSync(path.join(agentDir, "settings.json"), JSON.stringify(settings));
      const loader = new DefaultResourceLoader({ cwd, agentDir, noExtensions: true, noThemes: true, noContextFiles: true });
      await loader.reload();
      return summary(loader);
    }),
  );
}
