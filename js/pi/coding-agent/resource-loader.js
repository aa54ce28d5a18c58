// pi's DefaultResourceLoader: the skills, prompt templates, themes, context
// files, system prompt and extensions a session starts with. pihost builds
// what needs no other machinery: skills and prompt templates from explicit
// paths, settings entries and the resource directories pi discovers them
// in, context files, SYSTEM.md / APPEND_SYSTEM.md, the overrides, and the
// extensions of inline factories, local extension paths and the resource
// directories, loaded by the runtime's own loader (extension-support.js).
// What needs more of pi's package manager (settings packages' resources,
// selection patterns, remote sources, built-in extensions) or loading themes
// throws pihost's not-implemented error naming it, instead of quietly
// loading less than pi would.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve, sep } from "node:path";
import { hostEnv } from "../host-env.js";
import { createExtensionRuntime } from "../../runtime/extension-runtime.js";
import { extensionSupport } from "./extension-support.js";
import { canonicalizePath, isPathWithin, pathsEqual, resolvePath } from "./paths.js";
import { loadProjectContextFiles } from "./project-context.js";
import { loadPromptTemplates } from "./prompt-template-files.js";
import { ancestorAgentsSkillDirs, collectFilesRecursive, collectSkillEntries, collectTopLevelFiles } from "./resource-discovery.js";
import { SettingsManager } from "./settings-manager.js";
import { loadSkills } from "./skills.js";

const CONFIG_DIR_NAME = ".pi";
const BUILTIN_PATH_PREFIX = "builtin:";
const RESOURCE_TYPES = ["extensions", "skills", "prompts", "themes"];
const REMOTE_SOURCE_PREFIXES = ["npm:", "git:", "github:", "http:", "https:", "ssh:", "builtin:"];

const notImplemented = (what) => new Error(`pihost: DefaultResourceLoader ${what} is not implemented yet`);

const stripBom = (text) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
/** pi's PI_OFFLINE switch. */
function isOfflineMode() {
  const value = hostEnv().PI_OFFLINE;
  return Boolean(value) && (value === "1" || ["true", "yes"].includes(value.toLowerCase()));
}

/** The version in an installed package's package.json, if it can be read. */
function installedPackageVersion(packageRoot) {
  try {
    return JSON.parse(stripBom(readFileSync(join(packageRoot, "package.json"), "utf-8"))).version;
  } catch {
    return undefined;
  }
}

const isLocalPath = (value) => !REMOTE_SOURCE_PREFIXES.some((prefix) => value.trim().startsWith(prefix));
/** Extension paths that name no file: `<inline:name>`, `builtin:name`. */
export const isSyntheticPath = (path) => path.startsWith(BUILTIN_PATH_PREFIX) || path.startsWith("<");
const resourcePathKey = (path) => (isSyntheticPath(path) ? path : resolve(canonicalizePath(path)));

/** A built-in extension (`builtin:<name>` paths take their code from it), as opposed to an inline factory. */
export function isBuiltinExtension(input) {
  return typeof input !== "function" && input.builtin === true;
}

/** The source of a path that names no file: `builtin`, or the prefix of `<kind:name>`. */
function syntheticPathSource(path) {
  if (path.startsWith(BUILTIN_PATH_PREFIX)) return "builtin";
  if (path.startsWith("<") && path.endsWith(">")) return path.slice(1, -1).split(":")[0] || "temporary";
  return undefined;
}

/** A system prompt given as a file's path reads the file; anything else is the text itself. */
function promptText(input, description) {
  if (!input) return undefined;
  if (!existsSync(input)) return input;
  try {
    return stripBom(readFileSync(input, "utf-8"));
  } catch (error) {
    console.error(`Warning: Could not read ${description} file ${input}: ${error}`);
    return input;
  }
}

/** Whether `dir` holds anything: an empty or missing directory contributes nothing to pi's discovery. */
function hasEntries(dir) {
  try {
    return statSync(dir).isDirectory() && readdirSync(dir).length > 0;
  } catch {
    return false;
  }
}

/** Settings entries that select rather than name: exclusions, forced entries and globs. */
const isPattern = (entry) => entry.startsWith("!") || entry.startsWith("+") || entry.startsWith("-") || entry.includes("*") || entry.includes("?");

/** The files settings entries name: a file as it is, a directory's skills or its .md files at any depth. */
function settingsEntryFiles(paths, type) {
  const files = [];
  for (const path of paths) {
    if (!existsSync(path)) continue;
    try {
      const stats = statSync(path);
      if (stats.isFile()) files.push(path);
      else if (stats.isDirectory()) files.push(...(type === "skills" ? collectSkillEntries(path, "pi") : collectFilesRecursive(path, /\.md$/)));
    } catch {
      // An unreadable entry contributes nothing.
    }
  }
  return files;
}

/** pi's precedence of resources: the project's before the user's, local entries before discovered ones, packages last. */
function precedenceRank(metadata) {
  if (metadata.source === "builtin") return 5;
  if (metadata.origin === "package") return 4;
  return (metadata.scope === "project" ? 0 : 2) + (metadata.source === "local" ? 0 : 1);
}

function sourceInfoOf(path, metadata) {
  return {
    path,
    source: metadata.source,
    scope: metadata.scope,
    origin: metadata.origin,
    baseDir: metadata.baseDir,
    ...(metadata.changelogPath ? { changelogPath: metadata.changelogPath } : {}),
  };
}

export class DefaultResourceLoader {
  /** Whether a reload finished; the next one then loads extension files anew (pi's flag, which sub-agent hosts set). */
  loaded = false;
  #cwd;
  #eventBus;
  #agentDir;
  #settingsManager;
  #options;
  #extensionFactories;
  #builtinExtensions;
  #extensionsResult;
  #skills = [];
  #skillDiagnostics = [];
  #prompts = [];
  #promptDiagnostics = [];
  #themes = [];
  #themeDiagnostics = [];
  #agentsFiles = [];
  #systemPrompt;
  #systemPromptSourcePath;
  #appendSystemPrompt = [];
  #appendSystemPromptSourcePaths = [];
  // What extendResources adds to: the paths last loaded, the package manager's metadata, and the
  // source info extensions gave their paths.
  #lastPaths = { skills: [], prompts: [], themes: [] };
  #metadataByPath = new Map();
  #extensionSourceInfos = { skills: new Map(), prompts: new Map(), themes: new Map() };

  constructor(options) {
    this.#cwd = resolvePath(options.cwd);
    this.#agentDir = resolvePath(options.agentDir);
    this.#settingsManager = options.settingsManager ?? SettingsManager.create(this.#cwd, this.#agentDir);
    this.#eventBus = options.eventBus;
    const factories = options.extensionFactories ?? [];
    this.#extensionFactories = factories.filter((input) => !isBuiltinExtension(input));
    this.#builtinExtensions = factories.filter(isBuiltinExtension);
    this.#options = {
      additionalExtensionPaths: options.additionalExtensionPaths ?? [],
      additionalSkillPaths: options.additionalSkillPaths ?? [],
      additionalPromptTemplatePaths: options.additionalPromptTemplatePaths ?? [],
      additionalThemePaths: options.additionalThemePaths ?? [],
      noExtensions: options.noExtensions ?? false,
      noSkills: options.noSkills ?? false,
      noPromptTemplates: options.noPromptTemplates ?? false,
      noThemes: options.noThemes ?? false,
      noContextFiles: options.noContextFiles ?? false,
      systemPrompt: options.systemPrompt,
      appendSystemPrompt: options.appendSystemPrompt,
      extensionsOverride: options.extensionsOverride,
      skillsOverride: options.skillsOverride,
      promptsOverride: options.promptsOverride,
      themesOverride: options.themesOverride,
      agentsFilesOverride: options.agentsFilesOverride,
      systemPromptOverride: options.systemPromptOverride,
      appendSystemPromptOverride: options.appendSystemPromptOverride,
    };
    this.#extensionsResult = { extensions: [], errors: [], runtime: createExtensionRuntime() };
  }

  getExtensions() {
    return this.#extensionsResult;
  }

  getSkills() {
    return { skills: this.#skills, diagnostics: this.#skillDiagnostics };
  }

  getPrompts() {
    return { prompts: this.#prompts, diagnostics: this.#promptDiagnostics };
  }

  getThemes() {
    return { themes: this.#themes, diagnostics: this.#themeDiagnostics };
  }

  getAgentsFiles() {
    return { agentsFiles: this.#agentsFiles };
  }

  getSystemPrompt() {
    return this.#systemPrompt;
  }

  getSystemPromptSource() {
    return this.#systemPromptSourcePath ? { path: this.#systemPromptSourcePath } : undefined;
  }

  getAppendSystemPrompt() {
    return this.#appendSystemPrompt;
  }

  getAppendSystemPromptSources() {
    return this.#appendSystemPromptSourcePaths.map((path) => ({ path }));
  }

  /** Adds the skill, prompt and theme paths extensions bring (with their metadata) and reloads those kinds. */
  extendResources(paths) {
    const given = { skills: paths.skillPaths ?? [], prompts: paths.promptPaths ?? [], themes: paths.themePaths ?? [] };
    const update = { skills: () => this.#updateSkills(), prompts: () => this.#updatePrompts(), themes: () => this.#updateThemes() };
    for (const type of ["skills", "prompts", "themes"]) {
      const entries = given[type].map((entry) => ({
        path: this.#resolveResourcePath(entry.path),
        metadata: entry.metadata.baseDir ? { ...entry.metadata, baseDir: this.#resolveResourcePath(entry.metadata.baseDir) } : entry.metadata,
      }));
      for (const entry of entries) this.#extensionSourceInfos[type].set(entry.path, sourceInfoOf(entry.path, entry.metadata));
      given[type] = entries;
    }
    for (const type of ["skills", "prompts", "themes"]) {
      if (given[type].length === 0) continue;
      this.#lastPaths[type] = this.#mergePaths([...this.#lastPaths[type], ...given[type].map((entry) => entry.path)]);
      update[type]();
    }
  }

  async loadProjectTrustExtensions() {
    this.#settingsManager.setProjectTrusted(false);
    await this.#settingsManager.reload();
    this.#assertNoExtensionsToLoad();
    return this.#emptyExtensionSet();
  }

  async reload(options) {
    let preTrust;
    if (options?.resolveProjectTrust) {
      preTrust = await this.loadProjectTrustExtensions();
      this.#settingsManager.setProjectTrusted(await options.resolveProjectTrust({ extensionsResult: preTrust }));
    }
    const clearCache = this.loaded;
    await this.#settingsManager.reload();
    const discovered = this.#discover();
    const options_ = this.#options;

    const { extensionFolders } = discovered;
    if (preTrust && (extensionFolders.project || extensionFolders.agent)) throw notImplemented("loading the extension folders' files after a project trust decision");
    const extensionsResult = preTrust ? { ...this.#emptyExtensionSet(), runtime: preTrust.runtime } : await this.#loadExtensionSet(clearCache, extensionFolders);
    this.#extensionsResult = options_.extensionsOverride ? options_.extensionsOverride(extensionsResult) : extensionsResult;
    this.#applyExtensionSourceInfo(this.#extensionsResult.extensions, extensionFolders, discovered.metadataByPath);

    this.#metadataByPath = discovered.metadataByPath;
    this.#extensionSourceInfos = { skills: new Map(), prompts: new Map(), themes: new Map() };
    const { noSkills, noPromptTemplates, additionalSkillPaths, additionalPromptTemplatePaths, additionalThemePaths } = options_;
    this.#lastPaths.skills = this.#mergePaths([...(noSkills ? [] : discovered.skills), ...additionalSkillPaths]);
    this.#updateSkills();
    this.#reportMissing(additionalSkillPaths, this.#skillDiagnostics, "Skill path does not exist");
    this.#lastPaths.prompts = this.#mergePaths([...(noPromptTemplates ? [] : discovered.prompts), ...additionalPromptTemplatePaths]);
    this.#updatePrompts();
    this.#reportMissing(additionalPromptTemplatePaths, this.#promptDiagnostics, "Prompt template path does not exist");
    this.#lastPaths.themes = this.#mergePaths(additionalThemePaths);
    this.#updateThemes();
    this.#reportMissing(additionalThemePaths, this.#themeDiagnostics, "Theme path does not exist", { localOnly: false });

    const agentsFiles = { agentsFiles: options_.noContextFiles ? [] : loadProjectContextFiles({ cwd: this.#cwd, agentDir: this.#agentDir }) };
    this.#agentsFiles = (options_.agentsFilesOverride ? options_.agentsFilesOverride(agentsFiles) : agentsFiles).agentsFiles;

    const systemPromptSource = options_.systemPrompt ?? this.#discoverPromptFile("SYSTEM.md");
    const systemPrompt = promptText(systemPromptSource, "system prompt");
    this.#systemPrompt = options_.systemPromptOverride ? options_.systemPromptOverride(systemPrompt) : systemPrompt;
    this.#systemPromptSourcePath = systemPromptSource && existsSync(systemPromptSource) ? resolvePath(systemPromptSource) : undefined;

    let appendSources = options_.appendSystemPrompt;
    if (!appendSources) {
      const discovered = this.#discoverPromptFile("APPEND_SYSTEM.md");
      appendSources = discovered ? [discovered] : [];
    }
    const append = appendSources.map((source) => promptText(source, "append system prompt")).filter((text) => text !== undefined);
    this.#appendSystemPrompt = options_.appendSystemPromptOverride ? options_.appendSystemPromptOverride(append) : append;
    this.#appendSystemPromptSourcePaths = appendSources.filter((source) => existsSync(source)).map((source) => resolvePath(source));
    this.loaded = true;
  }

  // pi's loader hands out an empty set with no warnings when nothing loads.
  #emptyExtensionSet() {
    return { extensions: [], errors: [], warnings: [], runtime: createExtensionRuntime() };
  }

  #assertNoExtensionsToLoad() {
    const { additionalExtensionPaths } = this.#options;
    const inline = [...this.#extensionFactories, ...this.#builtinExtensions];
    if (inline.length > 0) throw notImplemented("loading extension factories before the project is trusted");
    if (additionalExtensionPaths.length > 0) {
      throw notImplemented(`loading extension paths (${additionalExtensionPaths.join(", ")}) before the project is trusted`);
    }
  }

  /**
   * The extension files of additionalExtensionPaths, those the resource
   * folders `folders` names hold, then the inline factories, loaded into a
   * fresh extension runtime; a path that does not exist is an error of the
   * set, as in pi.
   */
  async #loadExtensionSet(clearCache, folders) {
    const { additionalExtensionPaths, noExtensions } = this.#options;
    if (this.#builtinExtensions.length > 0 && !noExtensions) throw notImplemented("loading built-in extensions");
    const nothing = this.#extensionFactories.length === 0 && additionalExtensionPaths.length === 0 && !folders.project && !folders.agent;
    if (nothing) return this.#emptyExtensionSet();
    const remote = additionalExtensionPaths.filter((path) => !isLocalPath(path));
    if (remote.length > 0) throw notImplemented(`loading extensions from package sources (${remote.join(", ")}) (pi's package manager)`);
    const support = extensionSupport();
    if (!support) throw notImplemented("loading extensions outside pihost's engine");
    this.#eventBus ??= support.createEventBus();
    const missing = [];
    const paths = [];
    for (const path of additionalExtensionPaths) {
      const resolved = this.#resolveResourcePath(path);
      if (existsSync(resolved)) paths.push(resolved);
      else missing.push({ path: resolved, error: `Extension path does not exist: ${resolved}` });
    }
    const result = await support.loadResourceLoaderExtensions({
      cwd: this.#cwd,
      agentDir: this.#agentDir,
      paths,
      scan: folders,
      factories: this.#extensionFactories,
      eventBus: this.#eventBus,
      clearCache,
    });
    result.errors.push(...missing);
    return result;
  }

  /**
   * Settings packages (`pi install`'s). pi resolves them on every reload and
   * installs the missing ones first. A loader that loads none of the kinds
   * packages bring (a sub-agent's child, typically) uses nothing of theirs,
   * so it needs only that none is missing: each npm package installed where
   * pi installs it, at the exact version when one is given (local sources
   * install nothing). Loading packages' resources, installing, version
   * ranges and git sources are pi's package manager's, not built.
   */
  #checkSettingsPackages(globalSettings, projectSettings) {
    const scoped = [
      ...(projectSettings.packages ?? []).map((pkg) => ({ pkg, root: join(this.#cwd, CONFIG_DIR_NAME, "npm") })),
      ...(globalSettings.packages ?? []).map((pkg) => ({ pkg, root: join(this.#agentDir, "npm") })),
    ];
    if (scoped.length === 0) return;
    const { noExtensions, noSkills, noPromptTemplates, noThemes } = this.#options;
    if (!(noExtensions && noSkills && noPromptTemplates && noThemes)) throw notImplemented("resolving settings packages (pi's package manager)");
    // Offline, pi installs nothing and skips what is missing.
    if (isOfflineMode()) return;
    for (const { pkg, root } of scoped) {
      const source = (typeof pkg === "string" ? pkg : pkg.source).trim();
      if (/^git:|^(https?|ssh|git):\/\//i.test(source)) throw notImplemented(`checking the git package ${source} of settings (pi's package manager)`);
      if (!source.startsWith("npm:")) continue;
      const spec = source.slice("npm:".length).trim();
      const [, name = spec, version] = spec.match(/^(@?[^@]+(?:\/[^@]+)?)(?:@(.+))?$/) ?? [];
      const exact = version?.match(/^v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$/)?.[1];
      if (version !== undefined && exact === undefined) throw notImplemented(`checking the version range of the settings package ${source} (pi's package manager)`);
      const installed = installedPackageVersion(join(root, "node_modules", name));
      if (installed === undefined || (exact !== undefined && installed !== exact)) {
        throw notImplemented(`installing the settings package ${source}, which is not installed in ${root} (pi's package manager)`);
      }
    }
  }

  /**
   * What pi's package manager finds without packages: skills and prompt
   * templates from the resource directories, in pi's precedence (the
   * project's before the user's), with the metadata their source info is
   * made from, and which extension directories hold extension files.
   * Settings packages, settings resource entries (paths and override
   * patterns) and non-empty theme directories need machinery pihost does not
   * have; a kind that is disabled (noThemes, …) is not looked for.
   */
  #discover() {
    const globalSettings = this.#settingsManager.getGlobalSettings();
    const projectSettings = this.#settingsManager.getProjectSettings();
    this.#checkSettingsPackages(globalSettings, projectSettings);
    const { noExtensions, noSkills, noPromptTemplates, noThemes } = this.#options;
    const wanted = { extensions: !noExtensions, skills: !noSkills, prompts: !noPromptTemplates, themes: !noThemes };
    const trusted = this.#settingsManager.isProjectTrusted();
    const projectBase = join(this.#cwd, CONFIG_DIR_NAME);
    let extensionFolders = { project: false, agent: false };
    for (const type of RESOURCE_TYPES) {
      const entries = [...(globalSettings[type] ?? []), ...(projectSettings[type] ?? [])];
      if (!wanted[type]) continue;
      // Patterns only enable and disable entries; a kind not loaded keeps its metadata either way.
      if (entries.some(isPattern)) throw notImplemented(`selecting ${type} by the patterns of settings (${entries.filter(isPattern).join(", ")})`);
      if (type !== "extensions" && type !== "themes") continue;
      if (entries.length > 0) throw notImplemented(`loading the ${type} of settings (${entries.join(", ")})`);
      if (type === "extensions") {
        // The extension files there load with the others (#loadExtensionSet); the project's only when it is trusted.
        extensionFolders = { project: trusted && hasEntries(join(projectBase, type)), agent: hasEntries(join(this.#agentDir, type)) };
        continue;
      }
      const found = [join(this.#agentDir, type), ...(trusted ? [join(projectBase, type)] : [])].find(hasEntries);
      if (found) throw notImplemented(`loading ${type} discovered in ${found}`);
    }

    const projectMetadata = { source: "auto", scope: "project", origin: "top-level", baseDir: projectBase };
    const userMetadata = { source: "auto", scope: "user", origin: "top-level", baseDir: this.#agentDir };
    const userAgentsSkills = join(hostEnv().HOME || homedir(), ".agents", "skills");
    const found = { skills: new Map(), prompts: new Map() };
    const add = (type, paths, metadata) => {
      for (const path of paths) if (!found[type].has(path)) found[type].set(path, metadata);
    };
    // Paths listed in settings come first: the project's, then the user's.
    for (const type of ["skills", "prompts"]) {
      const scopes = [
        [projectSettings, "project", projectBase],
        [globalSettings, "user", this.#agentDir],
      ];
      for (const [settings, scope, baseDir] of scopes) {
        const paths = (settings[type] ?? []).map((entry) => resolvePath(entry.trim(), baseDir));
        add(type, settingsEntryFiles(paths, type), { source: "local", scope, origin: "top-level" });
      }
    }
    if (trusted) add("skills", collectSkillEntries(join(projectBase, "skills"), "pi"), projectMetadata);
    if (trusted) {
      for (const dir of ancestorAgentsSkillDirs(this.#cwd).filter((dir) => !pathsEqual(dir, userAgentsSkills))) {
        add("skills", collectSkillEntries(dir, "agents"), { ...projectMetadata, baseDir: dirname(dir) });
      }
      add("prompts", collectTopLevelFiles(join(projectBase, "prompts"), ".md"), projectMetadata);
    }
    add("skills", collectSkillEntries(join(this.#agentDir, "skills"), "pi"), userMetadata);
    add("skills", collectSkillEntries(userAgentsSkills, "agents"), { ...userMetadata, baseDir: dirname(userAgentsSkills) });
    add("prompts", collectTopLevelFiles(join(this.#agentDir, "prompts"), ".md"), userMetadata);

    const metadataByPath = new Map();
    const resolved = {};
    for (const type of ["skills", "prompts"]) {
      const seen = new Set();
      resolved[type] = [...found[type]]
        .sort(([, a], [, b]) => precedenceRank(a) - precedenceRank(b))
        .filter(([path]) => {
          const key = resourcePathKey(path);
          if (seen.has(key)) return false;
          seen.add(key);
          return true;
        })
        .map(([path, metadata]) => {
          if (!metadataByPath.has(path)) metadataByPath.set(path, metadata);
          return path;
        });
    }
    return { skills: resolved.skills, prompts: resolved.prompts, metadataByPath, extensionFolders };
  }

  /**
   * The source info pi gives a resource: from the paths extensions brought
   * (an enclosing one), else from the package manager's metadata (its own
   * path's, else an enclosing path's).
   */
  #findSourceInfo(resourcePath, type) {
    if (!resourcePath) return undefined;
    if (isSyntheticPath(resourcePath)) return this.#defaultSourceInfo(resourcePath);
    const normalized = resolve(resourcePath);
    for (const [sourcePath, sourceInfo] of this.#extensionSourceInfos[type]) {
      if (isPathWithin(sourcePath, normalized)) return { ...sourceInfo, path: resourcePath };
    }
    return this.#sourceInfoFromMetadata(resourcePath, this.#metadataByPath);
  }

  /** The source info of `metadataByPath`'s entry for the path, else for an enclosing path. */
  #sourceInfoFromMetadata(resourcePath, metadataByPath) {
    if (isSyntheticPath(resourcePath)) return this.#defaultSourceInfo(resourcePath);
    const normalized = resolve(resourcePath);
    const exact = metadataByPath.get(normalized) ?? metadataByPath.get(resourcePath);
    if (exact) return sourceInfoOf(resourcePath, exact);
    for (const [sourcePath, metadata] of metadataByPath) {
      if (isPathWithin(sourcePath, normalized)) return sourceInfoOf(resourcePath, metadata);
    }
    return undefined;
  }

  /**
   * Each extension, and what it registered, gets the source info of where
   * it came from: the resource folders (`auto`), a path given to the loader
   * (`cli`, temporary), an inline factory.
   */
  #applyExtensionSourceInfo(extensions, folders, discoveredMetadata) {
    const metadataByPath = new Map();
    const auto = (scope, baseDir) => ({ source: "auto", scope, origin: "top-level", baseDir });
    if (folders.project) metadataByPath.set(join(this.#cwd, CONFIG_DIR_NAME, "extensions"), auto("project", join(this.#cwd, CONFIG_DIR_NAME)));
    if (folders.agent) metadataByPath.set(join(this.#agentDir, "extensions"), auto("user", this.#agentDir));
    for (const path of this.#options.additionalExtensionPaths) {
      const resolved = this.#resolveResourcePath(path);
      if (!metadataByPath.has(resolved)) metadataByPath.set(resolved, { source: "cli", scope: "temporary", origin: "top-level" });
    }
    for (const [path, metadata] of discoveredMetadata) if (!metadataByPath.has(path)) metadataByPath.set(path, metadata);
    for (const extension of extensions) {
      extension.sourceInfo = this.#sourceInfoFromMetadata(extension.path, metadataByPath) ?? this.#defaultSourceInfo(extension.path);
      for (const command of extension.commands.values()) command.sourceInfo = extension.sourceInfo;
      for (const tool of extension.tools.values()) tool.sourceInfo = extension.sourceInfo;
    }
  }

  #discoverPromptFile(name) {
    const projectPath = join(this.#cwd, CONFIG_DIR_NAME, name);
    if (this.#settingsManager.isProjectTrusted() && existsSync(projectPath)) return projectPath;
    const globalPath = join(this.#agentDir, name);
    return existsSync(globalPath) ? globalPath : undefined;
  }

  #resolveResourcePath(path) {
    return isSyntheticPath(path) ? path : resolvePath(path.trim(), this.#cwd);
  }

  /** Paths as pi merges them: resolved against cwd, the first of each real path kept. */
  #mergePaths(paths) {
    const merged = [];
    const seen = new Set();
    for (const path of paths) {
      const resolved = this.#resolveResourcePath(path);
      const key = resourcePathKey(resolved);
      if (seen.has(key)) continue;
      seen.add(key);
      merged.push(resolved);
    }
    return merged;
  }

  /** Missing local paths among `given`, reported once each, unless a diagnostic already names them. */
  #reportMissing(given, diagnostics, message, { localOnly = true } = {}) {
    for (const path of given) {
      if (localOnly && !isLocalPath(path)) continue;
      const resolved = this.#resolveResourcePath(path);
      if (!existsSync(resolved) && !diagnostics.some((diagnostic) => diagnostic.path === resolved)) {
        diagnostics.push({ type: "error", message, path: resolved });
      }
    }
  }

  #updateSkills() {
    const { noSkills, skillsOverride } = this.#options;
    const paths = this.#lastPaths.skills;
    const loaded = noSkills && paths.length === 0 ? { skills: [], diagnostics: [] } : loadSkills({ cwd: this.#cwd, agentDir: this.#agentDir, skillPaths: paths, includeDefaults: false });
    const result = skillsOverride ? skillsOverride(loaded) : loaded;
    this.#skills = result.skills.map((skill) => ({ ...skill, sourceInfo: this.#findSourceInfo(skill.filePath, "skills") ?? skill.sourceInfo ?? this.#defaultSourceInfo(skill.filePath) }));
    this.#skillDiagnostics = result.diagnostics;
  }

  #updatePrompts() {
    const { noPromptTemplates, promptsOverride } = this.#options;
    const paths = this.#lastPaths.prompts;
    let loaded = { prompts: [], diagnostics: [] };
    if (!(noPromptTemplates && paths.length === 0)) {
      const { templates, diagnostics } = loadPromptTemplates({ cwd: this.#cwd, agentDir: this.#agentDir, promptPaths: paths, includeDefaults: false });
      const byName = new Map();
      const collisions = [];
      for (const prompt of templates) {
        const winner = byName.get(prompt.name);
        if (!winner) {
          byName.set(prompt.name, prompt);
          continue;
        }
        collisions.push({
          type: "collision",
          message: `name "/${prompt.name}" collision`,
          path: prompt.filePath,
          collision: { resourceType: "prompt", name: prompt.name, winnerPath: winner.filePath, loserPath: prompt.filePath },
        });
      }
      loaded = { prompts: [...byName.values()], diagnostics: [...diagnostics, ...collisions] };
    }
    const result = promptsOverride ? promptsOverride(loaded) : loaded;
    this.#prompts = result.prompts.map((prompt) => ({ ...prompt, sourceInfo: this.#findSourceInfo(prompt.filePath, "prompts") ?? prompt.sourceInfo ?? this.#defaultSourceInfo(prompt.filePath) }));
    this.#promptDiagnostics = result.diagnostics;
  }

  #updateThemes() {
    const { noThemes, themesOverride } = this.#options;
    const paths = this.#lastPaths.themes;
    const diagnostics = [];
    for (const path of paths) {
      if (!existsSync(path)) {
        diagnostics.push({ type: "warning", message: "theme path does not exist", path });
        continue;
      }
      throw notImplemented(`loading themes (${path})`);
    }
    const loaded = { themes: [], diagnostics: noThemes && paths.length === 0 ? [] : diagnostics };
    const result = themesOverride ? themesOverride(loaded) : loaded;
    this.#themes = result.themes;
    this.#themeDiagnostics = result.diagnostics;
  }

  /** Where a resource found outside any package came from: the user's or the project's directories, else a temporary path. */
  #defaultSourceInfo(filePath) {
    const synthetic = syntheticPathSource(filePath);
    if (synthetic) return { path: filePath, source: synthetic, scope: "temporary", origin: "top-level" };
    const path = resolve(filePath);
    for (const [base, scope] of [
      [this.#agentDir, "user"],
      [join(this.#cwd, CONFIG_DIR_NAME), "project"],
    ]) {
      for (const type of ["skills", "prompts", "themes", "extensions"]) {
        const root = join(base, type);
        if (path === root || path.startsWith(`${root}${sep}`)) return { path: filePath, source: "local", scope, origin: "top-level", baseDir: root };
      }
    }
    return { path: filePath, source: "local", scope: "temporary", origin: "top-level", baseDir: statSync(path).isDirectory() ? path : resolve(path, "..") };
  }
}
