// pi's DefaultResourceLoader: the skills, prompt templates, themes, context
// files, system prompt and extensions a session starts with, as pi's package
// manager resolves them (settings packages, installed when missing, their
// manifests and filters, settings entries and patterns, the resource
// directories, the loader's own paths), with context files, SYSTEM.md /
// APPEND_SYSTEM.md and the overrides. Extensions load into the runtime by
// its own loader (extension-support.js). Built-in extensions and loading
// themes throw pihost's not-implemented error naming them, instead of
// quietly loading less than pi would.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { createExtensionRuntime } from "../../runtime/extension-runtime.js";
import { extensionSupport } from "./extension-support.js";
import { DefaultPackageManager, isLocalSource } from "./package-manager.js";
import { canonicalizePath, isPathWithin, resolvePath } from "./paths.js";
import { loadProjectContextFiles } from "./project-context.js";
import { loadPromptTemplates } from "./prompt-template-files.js";
import { SettingsManager } from "./settings-manager.js";
import { loadSkills } from "./skills.js";
import { loadThemeFromPath } from "./ui/theme-files.js";

const CONFIG_DIR_NAME = ".pi";
const BUILTIN_PATH_PREFIX = "builtin:";

const notImplemented = (what) => new Error(`pihost: DefaultResourceLoader ${what} is not implemented yet`);

const stripBom = (text) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

// What pi gives every extension itself: a package that installs its own copy gets a warning.
const HOST_PROVIDED_EXTENSION_PACKAGES = new Set([
  "@earendil-works/pi-agent-core",
  "@earendil-works/pi-ai",
  "@earendil-works/pi-coding-agent",
  "@earendil-works/pi-tui",
  "@mariozechner/pi-agent-core",
  "@mariozechner/pi-ai",
  "@mariozechner/pi-coding-agent",
  "@mariozechner/pi-tui",
  "@sinclair/typebox",
  "typebox",
]);

/** Warnings for extension packages that list a package pi provides among their dependencies. */
function hostDependencyWarnings(extensionPaths, metadataByPath) {
  const warnings = [];
  const packageRoots = new Set(extensionPaths.map((path) => metadataByPath.get(path)?.packageRoot).filter((root) => root !== undefined));
  for (const packageRoot of packageRoots) {
    const packageJsonPath = join(packageRoot, "package.json");
    if (!existsSync(packageJsonPath)) continue;
    const { dependencies } = JSON.parse(stripBom(readFileSync(packageJsonPath, "utf-8")));
    if (typeof dependencies !== "object" || dependencies === null || Array.isArray(dependencies)) continue;
    const provided = Object.keys(dependencies).filter((name) => HOST_PROVIDED_EXTENSION_PACKAGES.has(name)).sort();
    if (provided.length === 0) continue;
    warnings.push({
      path: packageJsonPath,
      warning: `Host-provided extension packages must be declared in peerDependencies with a "*" range, not dependencies: ${provided.join(", ")}. Installed copies can bypass the extension loader and create duplicate runtime modules.`,
    });
  }
  return warnings;
}

/** A startup warning per package that could not be installed, saying how to drop it. */
function installFailureWarnings(...failureLists) {
  return failureLists.flatMap((failures) =>
    (failures ?? []).map((failure) => {
      const hint =
        failure.scope === "temporary"
          ? "Check the source and try again."
          : `Run "pi remove ${failure.source}${failure.scope === "project" ? " --local" : ""}" to remove it from settings.json.`;
      return { path: failure.source, warning: `failed to install (${failure.message}). ${hint}` };
    }),
  );
}

/** The result's warnings with `warnings` added, one per path (a later one replaces an earlier). */
function mergeWarnings(result, warnings) {
  result.warnings = [...new Map([...(result.warnings ?? []), ...warnings].map((warning) => [warning.path, warning])).values()];
}

/** A skill the package manager found as a folder stands for its SKILL.md, which inherits the folder's metadata. */
function skillFileOf(resource, metadataByPath) {
  if (resource.metadata.source !== "auto" && resource.metadata.origin !== "package") return resource.path;
  try {
    if (!statSync(resource.path).isDirectory()) return resource.path;
  } catch {
    return resource.path;
  }
  const skillFile = join(resource.path, "SKILL.md");
  if (!existsSync(skillFile)) return resource.path;
  if (!metadataByPath.has(skillFile)) metadataByPath.set(skillFile, resource.metadata);
  return skillFile;
}

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
  #packageManager;
  #disabledBuiltinExtensions;
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
    this.#packageManager = new DefaultPackageManager({
      cwd: this.#cwd,
      agentDir: this.#agentDir,
      settingsManager: this.#settingsManager,
      builtinExtensions: this.#builtinExtensions.map((extension) => extension.name),
      commandOutput: options.packageCommandOutput,
    });
    this.#packageManager.setProgressCallback(options.onPackageProgress);
    this.#disabledBuiltinExtensions = new Set(options.disabledBuiltinExtensions);
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

  /**
   * The extensions to load before the project is trusted (pi's bootstrap
   * pass): the user's and the loader's own extension paths with the
   * project's settings left out, and the inline factories. Built-in
   * extensions wait for the final pass, where project settings can turn
   * them off (a loaded extension cannot be unloaded).
   */
  async loadProjectTrustExtensions() {
    return this.#loadPreTrustExtensions(false);
  }

  async #loadPreTrustExtensions(clearCache) {
    // The project's settings are left out until the decision.
    this.#settingsManager.setProjectTrusted(false);
    await this.#settingsManager.reload();
    const resolved = await this.#packageManager.resolve();
    const given = await this.#packageManager.resolveExtensionSources(this.#options.additionalExtensionPaths, { temporary: true });
    const enabledPaths = (resources) => resources.filter((resource) => resource.enabled).map((resource) => resource.path);
    const givenPaths = enabledPaths(given.extensions);
    const paths = (this.#options.noExtensions ? givenPaths : this.#mergePaths([...givenPaths, ...enabledPaths(resolved.extensions)])).filter(
      (path) => !path.startsWith(BUILTIN_PATH_PREFIX),
    );
    const metadataByPath = new Map([...resolved.extensions, ...given.extensions].map((resource) => [resource.path, resource.metadata]));
    const result = await this.#loadExtensionSet(clearCache, paths);
    mergeWarnings(result, [...installFailureWarnings(resolved.installFailures, given.installFailures), ...hostDependencyWarnings(paths, metadataByPath)]);
    return result;
  }

  async reload(options) {
    const clearCache = this.loaded;
    let preTrust;
    if (options?.resolveProjectTrust) {
      preTrust = await this.#loadPreTrustExtensions(clearCache);
      this.#settingsManager.setProjectTrusted(await options.resolveProjectTrust({ extensionsResult: preTrust }));
    }
    await this.#settingsManager.reload();
    const options_ = this.#options;
    const { noExtensions, noSkills, noPromptTemplates, noThemes } = options_;
    const { additionalExtensionPaths, additionalSkillPaths, additionalPromptTemplatePaths, additionalThemePaths } = options_;
    // What settings bring (packages first installed when missing), and what the loader's own extension paths name.
    const resolved = await this.#packageManager.resolve();
    const given = await this.#packageManager.resolveExtensionSources(additionalExtensionPaths, { temporary: true });
    const installWarnings = installFailureWarnings(resolved.installFailures, given.installFailures);
    const metadataByPath = new Map();
    const enabled = (resources) => {
      for (const resource of resources) if (!metadataByPath.has(resource.path)) metadataByPath.set(resource.path, resource.metadata);
      return resources.filter((resource) => resource.enabled);
    };
    const enabledPaths = (resources) => enabled(resources).map((resource) => resource.path);
    const settingsExtensions = enabledPaths(resolved.extensions);
    const settingsSkills = enabled(resolved.skills).map((resource) => skillFileOf(resource, metadataByPath));
    const settingsPrompts = enabledPaths(resolved.prompts);
    const settingsThemes = enabledPaths(resolved.themes);
    const fromTheLoader = { source: "cli", scope: "temporary", origin: "top-level" };
    for (const resource of [...given.extensions, ...given.skills]) if (!metadataByPath.has(resource.path)) metadataByPath.set(resource.path, fromTheLoader);
    const givenExtensions = enabledPaths(given.extensions);
    const extensionPaths = (noExtensions ? givenExtensions : this.#mergePaths([...givenExtensions, ...settingsExtensions])).filter(
      (path) => !path.startsWith(BUILTIN_PATH_PREFIX) || !this.#disabledBuiltinExtensions.has(path.slice(BUILTIN_PATH_PREFIX.length)),
    );
    const extensionsResult = await this.#loadExtensionSet(clearCache && !preTrust, extensionPaths, preTrust);
    mergeWarnings(extensionsResult, [...installWarnings, ...hostDependencyWarnings(extensionPaths, metadataByPath)]);
    this.#reportMissingExtensionPaths(extensionsResult);
    this.#extensionsResult = options_.extensionsOverride ? options_.extensionsOverride(extensionsResult) : extensionsResult;
    this.#applyExtensionSourceInfo(this.#extensionsResult.extensions, metadataByPath);

    this.#metadataByPath = metadataByPath;
    this.#extensionSourceInfos = { skills: new Map(), prompts: new Map(), themes: new Map() };
    const givenKinds = { skills: enabledPaths(given.skills), prompts: enabledPaths(given.prompts), themes: enabledPaths(given.themes) };
    this.#lastPaths.skills = this.#mergePaths([...givenKinds.skills, ...(noSkills ? [] : settingsSkills), ...additionalSkillPaths]);
    this.#updateSkills();
    this.#reportMissing(additionalSkillPaths, this.#skillDiagnostics, "Skill path does not exist");
    this.#lastPaths.prompts = this.#mergePaths([...givenKinds.prompts, ...(noPromptTemplates ? [] : settingsPrompts), ...additionalPromptTemplatePaths]);
    this.#updatePrompts();
    this.#reportMissing(additionalPromptTemplatePaths, this.#promptDiagnostics, "Prompt template path does not exist");
    this.#lastPaths.themes = this.#mergePaths([...givenKinds.themes, ...(noThemes ? [] : settingsThemes), ...additionalThemePaths]);
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

  /**
   * The extension files at `paths` (the package manager's resolution of the
   * loader's paths and of settings), then the inline factories, loaded into
   * a fresh extension runtime.
   */
  async #loadExtensionSet(clearCache, paths, preloaded) {
    if (this.#extensionFactories.length === 0 && paths.length === 0) return preloaded ?? this.#emptyExtensionSet();
    const support = extensionSupport();
    if (!support) throw notImplemented("loading extensions outside pihost's engine");
    this.#eventBus ??= support.createEventBus();
    return support.loadResourceLoaderExtensions({
      cwd: this.#cwd,
      agentDir: this.#agentDir,
      paths,
      scan: { project: false, agent: false },
      factories: this.#extensionFactories,
      builtins: new Map(this.#builtinExtensions.map((builtin) => [builtin.name, builtin])),
      preloaded,
      eventBus: this.#eventBus,
      clearCache,
    });
  }

  /** A local path given to the loader that does not exist is an error of the set, as in pi. */
  #reportMissingExtensionPaths(result) {
    for (const path of this.#options.additionalExtensionPaths) {
      if (!isLocalSource(path)) continue;
      const resolved = this.#resolveResourcePath(path);
      if (!existsSync(resolved)) result.errors.push({ path: resolved, error: `Extension path does not exist: ${resolved}` });
    }
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

  /** Each extension, and what it registered, gets the source info of where it came from. */
  #applyExtensionSourceInfo(extensions, metadataByPath) {
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
      if (localOnly && !isLocalSource(path)) continue;
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
    let loaded = { themes: [], diagnostics: [] };
    if (!(noThemes && paths.length === 0)) {
      const { themes, diagnostics } = this.#loadThemes(paths);
      const byName = new Map();
      const kept = [];
      for (const theme of themes) {
        const name = theme.name ?? "unnamed";
        const winner = byName.get(name);
        if (!winner) {
          byName.set(name, theme);
          kept.push(theme);
          continue;
        }
        diagnostics.push({
          type: "collision",
          message: `name "${name}" collision`,
          path: theme.sourcePath,
          collision: { resourceType: "theme", name, winnerPath: winner.sourcePath, loserPath: theme.sourcePath },
        });
      }
      loaded = { themes: kept, diagnostics };
    }
    const result = themesOverride ? themesOverride(loaded) : loaded;
    this.#themes = result.themes.map((theme) => {
      if (theme.sourcePath) theme.sourceInfo = this.#findSourceInfo(theme.sourcePath, "themes") ?? theme.sourceInfo ?? this.#defaultSourceInfo(theme.sourcePath);
      return theme;
    });
    this.#themeDiagnostics = result.diagnostics;
  }

  /** The themes in `paths` (theme files, and the .json files of folders), with a warning for each that does not load. */
  #loadThemes(paths) {
    const themes = [];
    const diagnostics = [];
    const load = (file) => {
      try {
        themes.push(loadThemeFromPath(file));
      } catch (error) {
        diagnostics.push({ type: "warning", message: error instanceof Error ? error.message : "failed to load theme", path: file });
      }
    };
    const loadFolder = (folder) => {
      try {
        for (const entry of readdirSync(folder, { withFileTypes: true })) {
          let isFile = entry.isFile();
          if (entry.isSymbolicLink()) {
            try {
              isFile = statSync(join(folder, entry.name)).isFile();
            } catch {
              continue;
            }
          }
          if (isFile && entry.name.endsWith(".json")) load(join(folder, entry.name));
        }
      } catch (error) {
        diagnostics.push({ type: "warning", message: error instanceof Error ? error.message : "failed to read theme directory", path: folder });
      }
    };
    for (const path of paths) {
      const resolved = this.#resolveResourcePath(path);
      if (!existsSync(resolved)) {
        diagnostics.push({ type: "warning", message: "theme path does not exist", path: resolved });
        continue;
      }
      try {
        const stats = statSync(resolved);
        if (stats.isDirectory()) loadFolder(resolved);
        else if (stats.isFile() && resolved.endsWith(".json")) load(resolved);
        else diagnostics.push({ type: "warning", message: "theme path is not a json file", path: resolved });
      } catch (error) {
        diagnostics.push({ type: "warning", message: error instanceof Error ? error.message : "failed to read theme path", path: resolved });
      }
    }
    return { themes, diagnostics };
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
