// pi's DefaultPackageManager: the packages settings name (`npm:` specs, git
// repositories, local folders and files), where they are installed, and
// which extensions, skills, prompt templates and themes they and the
// settings' own resource entries bring, with per-package filters, manifests
// (the `pi` field of package.json) and `+`/`-`/`!` overrides.
//
// npm and git run as child processes: `npm install --prefix <root>` into
// <agentDir>/npm or <cwd>/.pi/npm, `git clone` into <agentDir>/git/<host>/<path>
// or <cwd>/.pi/git/..., on the terminal or captured (the `commandOutput`
// option), as pi runs them.
import { nodeCrypto } from "../lazy-builtins.js";
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { hostEnv } from "../host-env.js";
import { parseGitUrl } from "./git-source.js";
import { isExactVersion, isNewerVersion, newestSatisfying, newestVersion, parseVersionRange, satisfiesRange } from "./npm-version.js";
import { captureOutput, captureOutputSync, markIgnoredByCloudSync, runOnTerminal, runQuietly } from "./package-commands.js";
import {
  RESOURCE_TYPES,
  addResource,
  collectDiscoveredExtensions,
  deltaSelection,
  enabledByOverrides,
  expandUserPath,
  isOverride,
  isPlainObject,
  isSelectionPattern,
  listsResources,
  manifestEntryFiles,
  newAccumulator,
  packageChangelogPath,
  readPiManifest,
  resourceFilesAt,
  resourceFilesIn,
  selectByPatterns,
  stripBom,
  toResolvedPaths,
  userHomeDir,
} from "./package-resources.js";
import { pathsEqual } from "./paths.js";
import { ancestorAgentsSkillDirs, collectSkillEntries, collectTopLevelFiles } from "./resource-discovery.js";

const CONFIG_DIR_NAME = ".pi";
const BUILTIN_PATH_PREFIX = "builtin:";
const REMOTE_SOURCE_PREFIXES = ["npm:", "git:", "github:", "http:", "https:", "ssh:", "builtin:"];

/** Commands asked a question (git rev-parse and ls-remote, npm view) give up after this long. */
const NETWORK_TIMEOUT_MS = 10000;
/** Registries and git hosts are asked a few at a time, not all at once. */
const UPDATE_CHECK_CONCURRENCY = 4;
const GIT_UPDATE_CONCURRENCY = 4;

/** pi's PI_OFFLINE switch: no installs or updates, no network. */
function isOfflineMode() {
  const value = hostEnv().PI_OFFLINE;
  return Boolean(value) && (value === "1" || ["true", "yes"].includes(value.toLowerCase()));
}

/** Whether a settings source names a local path: anything without a remote or built-in prefix (file: URLs included). */
export const isLocalSource = (value) => !REMOTE_SOURCE_PREFIXES.some((prefix) => value.trim().startsWith(prefix));

/** A settings path (trimmed, "~" and file:// read) made absolute against `baseDir`. */
function resolveFrom(input, baseDir) {
  const path = expandUserPath(input.trim());
  return isAbsolute(path) ? resolve(path) : resolve(expandUserPath(baseDir), path);
}

const sourceOf = (pkg) => (typeof pkg === "string" ? pkg : pkg.source);

/** `name[@version]` of an npm spec; a scoped name keeps its leading "@". */
function splitNpmSpec(spec) {
  const match = spec.match(/^(@?[^@]+(?:\/[^@]+)?)(?:@(.+))?$/);
  if (!match) return { name: spec };
  return { name: match[1] ?? spec, version: match[2] };
}

function installedPackageVersion(packageRoot) {
  const packageJsonPath = join(packageRoot, "package.json");
  if (!existsSync(packageJsonPath)) return undefined;
  try {
    return JSON.parse(stripBom(readFileSync(packageJsonPath, "utf-8"))).version;
  } catch {
    return undefined;
  }
}

/** The package manager an npmCommand runs (npm, pnpm, bun), which decides how the global root is found. */
function packageManagerName(command, args) {
  const commandName = (path) => basename(path).replace(/\.(cmd|exe)$/i, "");
  const supported = new Set(["npm", "pnpm", "bun"]);
  const direct = commandName(command);
  const separator = args.lastIndexOf("--");
  if (separator >= 0) {
    const wrapped = args[separator + 1];
    return wrapped ? commandName(wrapped) : direct;
  }
  if (supported.has(direct)) return direct;
  const wrapped = [...new Set(args.map(commandName).filter((name) => supported.has(name)))];
  if (wrapped.length > 1) throw new Error(`Ambiguous npmCommand package managers: ${wrapped.join(", ")}`);
  return wrapped[0] ?? direct;
}

export class DefaultPackageManager {
  #cwd;
  #agentDir;
  #settingsManager;
  #builtinExtensions;
  #commandOutput;
  #progressCallback;
  // `npm root -g` is slow; its answer is kept for as long as npmCommand stays the same.
  #cachedGlobalNpmRoot;
  #cachedGlobalNpmRootKey;

  constructor(options) {
    this.#cwd = resolve(expandUserPath(options.cwd));
    this.#agentDir = resolve(expandUserPath(options.agentDir));
    this.#settingsManager = options.settingsManager;
    this.#builtinExtensions = options.builtinExtensions ?? [];
    this.#commandOutput = options.commandOutput ?? "inherit";
  }

  setProgressCallback(callback) {
    this.#progressCallback = callback;
  }

  // -------------------------------------------------------------------------
  // Settings

  #scopeOf(options) {
    return options?.local ? "project" : "user";
  }

  #packagesOf(scope) {
    const settings = scope === "project" ? this.#settingsManager.getProjectSettings() : this.#settingsManager.getGlobalSettings();
    return settings.packages ?? [];
  }

  #savePackages(scope, packages) {
    if (scope === "project") this.#settingsManager.setProjectPackages(packages);
    else this.#settingsManager.setPackages(packages);
  }

  /** Adds `source` to the scope's packages, or updates the entry naming the same package; false when nothing changes. */
  addSourceToSettings(source, options) {
    const scope = this.#scopeOf(options);
    const packages = this.#packagesOf(scope);
    const stored = this.#sourceForSettings(source, scope);
    const index = packages.findIndex((existing) => this.#sameSource(existing, source, scope));
    if (index === -1) {
      this.#savePackages(scope, [...packages, stored]);
      return true;
    }
    const existing = packages[index];
    if (sourceOf(existing) === stored) return false;
    const next = [...packages];
    // A filtered entry keeps its filters; only its source changes.
    next[index] = typeof existing === "string" ? stored : { ...existing, source: stored };
    this.#savePackages(scope, next);
    return true;
  }

  removeSourceFromSettings(source, options) {
    const scope = this.#scopeOf(options);
    const packages = this.#packagesOf(scope);
    const remaining = packages.filter((existing) => !this.#sameSource(existing, source, scope));
    if (remaining.length === packages.length) return false;
    this.#savePackages(scope, remaining);
    return true;
  }

  /** A local source is stored relative to the scope's settings directory; others as given. */
  #sourceForSettings(source, scope) {
    const parsed = this.#parseSource(source);
    if (parsed.type !== "local") return source;
    return relative(this.#baseDirForScope(scope), resolveFrom(parsed.path, this.#cwd)) || ".";
  }

  /** Whether a settings entry and a source typed by the user (relative to cwd) name the same package. */
  #sameSource(existing, input, scope) {
    return this.#packageIdentity(sourceOf(existing), scope) === this.#packageIdentity(input);
  }

  /**
   * The package a source names, versions and refs aside: npm by name, git by
   * host/path (so ssh and https forms agree), local by absolute path — from
   * the scope's settings directory, or from cwd for what the user typed.
   */
  #packageIdentity(source, scope) {
    const parsed = this.#parseSource(source);
    if (parsed.type === "npm") return `npm:${parsed.name}`;
    if (parsed.type === "git") return `git:${parsed.host}/${parsed.path}`;
    const baseDir = scope ? this.#baseDirForScope(scope) : this.#cwd;
    return `local:${resolveFrom(parsed.path, baseDir)}`;
  }

  #parseSource(source) {
    if (source.startsWith("npm:")) {
      const spec = source.slice("npm:".length).trim();
      const { name, version } = splitNpmSpec(spec);
      return {
        type: "npm",
        spec,
        name,
        version,
        range: version ? (parseVersionRange(version) ?? undefined) : undefined,
        pinned: isExactVersion(version),
      };
    }
    if (isLocalSource(source)) return { type: "local", path: source };
    return parseGitUrl(source) ?? { type: "local", path: source };
  }

  // -------------------------------------------------------------------------
  // Install locations

  #assertProjectTrusted(scope) {
    if (scope === "project" && !this.#settingsManager.isProjectTrusted()) {
      throw new Error("Project is not trusted; refusing to access project package storage");
    }
  }

  #baseDirForScope(scope) {
    if (scope === "project") {
      this.#assertProjectTrusted(scope);
      return join(this.#cwd, CONFIG_DIR_NAME);
    }
    return scope === "user" ? this.#agentDir : this.#cwd;
  }

  getInstalledPath(source, scope) {
    const parsed = this.#parseSource(source);
    let path;
    if (parsed.type === "npm") path = this.#npmInstallPath(parsed, scope);
    else if (parsed.type === "git") path = this.#gitInstallPath(parsed, scope);
    else path = resolveFrom(parsed.path, this.#baseDirForScope(scope));
    return existsSync(path) ? path : undefined;
  }

  #managedNpmInstallPath(parsed, scope) {
    if (scope === "temporary") return join(this.#temporaryDir("npm"), "node_modules", parsed.name);
    if (scope === "project") {
      this.#assertProjectTrusted(scope);
      return join(this.#cwd, CONFIG_DIR_NAME, "npm", "node_modules", parsed.name);
    }
    return join(this.#agentDir, "npm", "node_modules", parsed.name);
  }

  /** The managed install; for the user scope, a package installed globally by older pi versions when there is no managed one. */
  #npmInstallPath(parsed, scope) {
    const managed = this.#managedNpmInstallPath(parsed, scope);
    if (scope !== "user" || existsSync(managed)) return managed;
    const legacy = this.#legacyGlobalNpmInstallPath(parsed);
    return legacy && existsSync(legacy) ? legacy : managed;
  }

  #legacyGlobalNpmInstallPath(parsed) {
    try {
      return this.#pnpmGlobalPackagePath(parsed.name) ?? join(this.#globalNpmRoot(), parsed.name);
    } catch {
      // No npm to ask: there is no legacy install to find.
      return undefined;
    }
  }

  #npmCommand() {
    const configured = this.#settingsManager.getNpmCommand();
    if (!configured || configured.length === 0) return { command: "npm", args: [] };
    const [command, ...args] = configured;
    if (!command) throw new Error("Invalid npmCommand: first array entry must be a non-empty command");
    return { command, args };
  }

  #globalNpmRoot() {
    const { command, args } = this.#npmCommand();
    const key = [command, ...args].join("\0");
    if (this.#cachedGlobalNpmRoot && this.#cachedGlobalNpmRootKey === key) return this.#cachedGlobalNpmRoot;
    if (packageManagerName(command, args) === "bun") {
      const binDir = this.#runNpmSync(["pm", "bin", "-g"]).trim();
      this.#cachedGlobalNpmRoot = join(dirname(binDir), "install", "global", "node_modules");
    } else {
      this.#cachedGlobalNpmRoot = this.#runNpmSync(["root", "-g"]).trim();
    }
    this.#cachedGlobalNpmRootKey = key;
    return this.#cachedGlobalNpmRoot;
  }

  /** pnpm keeps global packages where only `pnpm list -g` can say. */
  #pnpmGlobalPackagePath(name) {
    const { command, args } = this.#npmCommand();
    if (packageManagerName(command, args) !== "pnpm") return undefined;
    for (const entry of JSON.parse(this.#runNpmSync(["list", "-g", "--depth", "0", "--json"]))) {
      const path = entry.dependencies?.[name]?.path;
      if (path) return path;
    }
    return undefined;
  }

  #runNpmSync(extraArgs) {
    const { command, args } = this.#npmCommand();
    return captureOutputSync(command, [...args, ...extraArgs]);
  }

  #gitInstallPath(parsed, scope) {
    // Each pinned ref of a temporary source gets its own checkout.
    if (scope === "temporary") return this.#temporaryDir(`git-${parsed.host}`, parsed.path, parsed.ref);
    let root;
    if (scope === "project") {
      this.#assertProjectTrusted(scope);
      root = join(this.#cwd, CONFIG_DIR_NAME, "git");
    } else {
      root = join(this.#agentDir, "git");
    }
    return this.#insideRoot(root, parsed.host, parsed.path);
  }

  /** Where `-e` sources live: `<agentDir>/tmp/extensions/<prefix>/<hash>/<suffix>`, the hash telling refs apart. */
  #temporaryDir(prefix, suffix, ref) {
    const tempFolder = join(this.#agentDir, "tmp", "extensions");
    mkdirSync(tempFolder, { recursive: true, mode: 0o700 });
    chmodSync(tempFolder, 0o700);
    const root = this.#insideRoot(tempFolder, prefix);
    const hash = nodeCrypto().createHash("sha256")
      .update(`${prefix}-${suffix ?? ""}${ref ? `@${ref}` : ""}`)
      .digest("hex")
      .slice(0, 8);
    return this.#insideRoot(root, hash, suffix ?? "");
  }

  /** `root` joined with `parts`, refused when the result would leave `root`. */
  #insideRoot(root, ...parts) {
    const resolvedRoot = resolve(root);
    const path = resolve(resolvedRoot, ...parts);
    if (path !== resolvedRoot && !path.startsWith(`${resolvedRoot}${sep}`)) {
      throw new Error(`Refusing to use path outside package install root: ${path}`);
    }
    return path;
  }

  listConfiguredPackages() {
    const describe = (pkg, scope) => {
      const source = sourceOf(pkg);
      return { source, scope, filtered: typeof pkg === "object", installedPath: this.getInstalledPath(source, scope) };
    };
    return [
      ...(this.#settingsManager.getGlobalSettings().packages ?? []).map((pkg) => describe(pkg, "user")),
      ...(this.#settingsManager.getProjectSettings().packages ?? []).map((pkg) => describe(pkg, "project")),
    ];
  }

  // -------------------------------------------------------------------------
  // Resolving resources

  async resolve(onMissing) {
    const accumulator = newAccumulator();
    const globalSettings = this.#settingsManager.getGlobalSettings();
    const projectSettings = this.#settingsManager.getProjectSettings();
    // Project packages first, so the project's copy of a package wins.
    const configured = [
      ...(projectSettings.packages ?? []).map((pkg) => ({ pkg, scope: "project" })),
      ...(globalSettings.packages ?? []).map((pkg) => ({ pkg, scope: "user" })),
    ];
    const installFailures = await this.#resolvePackageSources(this.#dedupePackages(configured), accumulator, onMissing);
    const userBaseDir = this.#agentDir;
    const projectBaseDir = join(this.#cwd, CONFIG_DIR_NAME);
    for (const type of RESOURCE_TYPES) {
      const target = accumulator[type];
      this.#addSettingsEntries(projectSettings[type] ?? [], type, target, { source: "local", scope: "project", origin: "top-level" }, projectBaseDir);
      this.#addSettingsEntries(globalSettings[type] ?? [], type, target, { source: "local", scope: "user", origin: "top-level" }, userBaseDir);
    }
    this.#addDiscoveredResources(accumulator, globalSettings, projectSettings, userBaseDir, projectBaseDir);
    this.#addBuiltinExtensions(accumulator, globalSettings, projectSettings, userBaseDir, projectBaseDir);
    return { ...toResolvedPaths(accumulator), installFailures };
  }

  /**
   * Built-in extensions are on unless the user's `extensions` setting turns
   * them off (`-builtin:mcp`); an override in the project's setting decides
   * instead, and makes the resource the project's.
   */
  #addBuiltinExtensions(accumulator, globalSettings, projectSettings, userBaseDir, projectBaseDir) {
    const projectOverrides = (projectSettings.extensions ?? []).filter(isOverride);
    for (const name of this.#builtinExtensions) {
      const path = `${BUILTIN_PATH_PREFIX}${name}`;
      const projectChoice = deltaSelection([path], projectOverrides, projectBaseDir).get(path);
      const enabled = projectChoice ?? enabledByOverrides(path, globalSettings.extensions ?? [], userBaseDir);
      addResource(accumulator.extensions, path, { source: "builtin", scope: projectChoice === undefined ? "user" : "project", origin: "top-level" }, enabled);
    }
  }

  async resolveExtensionSources(sources, options) {
    const accumulator = newAccumulator();
    const scope = options?.temporary ? "temporary" : options?.local ? "project" : "user";
    // `-e builtin:<name>` asks for a built-in extension; unknown names are the resource loader's to report.
    for (const source of sources.filter((source) => source.startsWith(BUILTIN_PATH_PREFIX))) {
      addResource(accumulator.extensions, source, { source: "builtin", scope, origin: "top-level" }, true);
    }
    const packageSources = sources.filter((source) => !source.startsWith(BUILTIN_PATH_PREFIX)).map((source) => ({ pkg: source, scope }));
    const installFailures = await this.#resolvePackageSources(packageSources, accumulator);
    return { ...toResolvedPaths(accumulator), installFailures };
  }

  /**
   * One entry per package identity: the project's entry replaces the user's,
   * except that a project entry with `autoload: false` is a delta over the
   * user's, so both stay (the delta first).
   */
  #dedupePackages(entries) {
    const kept = [];
    const indexByIdentity = new Map();
    for (const entry of entries) {
      const identity = this.#packageIdentity(sourceOf(entry.pkg), entry.scope);
      const index = indexByIdentity.get(identity);
      if (index === undefined) {
        indexByIdentity.set(identity, kept.length);
        kept.push(entry);
        continue;
      }
      const existing = kept[index];
      if (existing?.scope === "project" && entry.scope === "user") {
        if (typeof existing.pkg === "object" && existing.pkg.autoload === false) kept.push(entry);
      } else if (entry.scope === "project") {
        kept[index] = entry;
      }
    }
    return kept;
  }

  /** For a project `autoload: false` entry: the user's entry for the same package, whose install it reads. */
  #autoloadDeltaBase(pkg, scope, entries) {
    if (scope !== "project" || typeof pkg !== "object" || pkg.autoload !== false) return undefined;
    const identity = this.#packageIdentity(pkg.source, scope);
    const userEntry = entries.find((entry) => entry.scope === "user" && this.#packageIdentity(sourceOf(entry.pkg), "user") === identity);
    return userEntry ? { source: sourceOf(userEntry.pkg), scope: "user" } : undefined;
  }

  async #resolvePackageSources(entries, accumulator, onMissing) {
    const installFailures = [];
    for (const { pkg, scope } of entries) {
      const source = sourceOf(pkg);
      const filter = typeof pkg === "object" ? pkg : undefined;
      const deltaBase = this.#autoloadDeltaBase(pkg, scope, entries);
      const resolvedSource = deltaBase?.source ?? source;
      const resolvedScope = deltaBase?.scope ?? scope;
      const parsed = this.#parseSource(resolvedSource);
      const metadata = { source, scope, origin: "package" };
      if (parsed.type === "local") {
        this.#addLocalSource(parsed, accumulator, filter, metadata, this.#baseDirForScope(resolvedScope));
        continue;
      }
      let installedPath;
      if (parsed.type === "npm") {
        installedPath = this.#npmInstallPath(parsed, resolvedScope);
        const usable = existsSync(installedPath) && this.#installedVersionFits(parsed, installedPath);
        if (usable && resolvedScope === "temporary" && !parsed.pinned && (await this.#npmHasAvailableUpdate(parsed, installedPath))) {
          await this.#refreshTemporaryNpmSource(parsed, resolvedScope);
        }
        if (!usable) {
          if (!(await this.#installMissing(parsed, resolvedSource, resolvedScope, onMissing, installFailures))) continue;
          installedPath = this.#npmInstallPath(parsed, resolvedScope);
        }
      } else {
        installedPath = this.#gitInstallPath(parsed, resolvedScope);
        if (!existsSync(installedPath)) {
          if (!(await this.#installMissing(parsed, resolvedSource, resolvedScope, onMissing, installFailures))) continue;
        } else if (resolvedScope === "temporary" && !isOfflineMode()) {
          await this.#refreshTemporaryGitSource(parsed, resolvedSource, installedPath);
        }
      }
      metadata.baseDir = installedPath;
      metadata.packageRoot = installedPath;
      this.#collectPackageResources(installedPath, accumulator, filter, metadata);
    }
    return installFailures;
  }

  /** An installed npm package fits its spec when it has a version and that version is in the spec's range (any, without one). */
  #installedVersionFits(parsed, installedPath) {
    const version = installedPackageVersion(installedPath);
    if (!version) return false;
    return parsed.range ? satisfiesRange(version, parsed.range) : true;
  }

  /**
   * A configured package that is not installed: skipped offline or when
   * `onMissing` says so, an error when it says so, otherwise installed — and
   * when installing fails, skipped and reported rather than failing startup.
   */
  async #installMissing(parsed, source, scope, onMissing, installFailures) {
    if (isOfflineMode()) return false;
    if (onMissing) {
      const action = await onMissing(source);
      if (action === "skip") return false;
      if (action === "error") throw new Error(`Missing source: ${source}`);
    }
    try {
      await this.#withProgress("install", source, `Installing ${source}...`, () => this.#installParsed(parsed, scope));
      return true;
    } catch (error) {
      installFailures.push({ source, scope, message: error instanceof Error ? error.message : String(error) });
      return false;
    }
  }

  async #installParsed(parsed, scope) {
    if (parsed.type === "npm") await this.#installNpm(parsed, scope, scope === "temporary");
    else if (parsed.type === "git") await this.#installGit(parsed, scope);
  }

  /**
   * Temporary (`-e`) sources have no `pi update`, so unpinned ones are
   * refreshed when loaded. An unversioned spec installs `name@latest`: a bare
   * `npm install name` would keep the range already saved in package.json.
   */
  async #refreshTemporaryNpmSource(parsed, scope) {
    const spec = parsed.version ? parsed.spec : `${parsed.name}@latest`;
    try {
      await this.#installNpm({ ...parsed, spec }, scope, true);
    } catch {
      // The cached install stays when the refresh fails.
    }
  }

  async #withProgress(action, source, message, operation) {
    this.#progressCallback?.({ type: "start", action, source, message });
    try {
      await operation();
      this.#progressCallback?.({ type: "complete", action, source });
    } catch (error) {
      this.#progressCallback?.({ type: "error", action, source, message: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }

  /** A local source: a file is one extension; a directory is a package (or, bringing nothing, an extension itself). */
  #addLocalSource(parsed, accumulator, filter, metadata, baseDir) {
    const path = resolveFrom(parsed.path, baseDir);
    if (!existsSync(path)) return;
    try {
      const stats = statSync(path);
      if (stats.isFile()) {
        metadata.baseDir = dirname(path);
        addResource(accumulator.extensions, path, metadata, true);
      } else if (stats.isDirectory()) {
        metadata.baseDir = path;
        metadata.packageRoot = path;
        if (!this.#collectPackageResources(path, accumulator, filter, metadata)) addResource(accumulator.extensions, path, metadata, true);
      }
    } catch {
      // A source that cannot be read brings nothing.
    }
  }

  /**
   * A package's resources: with a settings filter, per type (delta, patterns
   * or defaults); else its manifest's lists; else its conventional folders.
   * False when the package brought no resource folder at all.
   */
  #collectPackageResources(packageRoot, accumulator, filter, metadata) {
    const manifest = readPiManifest(join(packageRoot, "package.json"));
    const changelogPath = packageChangelogPath(packageRoot, manifest);
    if (changelogPath) metadata.changelogPath = changelogPath;
    else delete metadata.changelogPath;
    if (filter) {
      for (const type of RESOURCE_TYPES) {
        const patterns = filter[type];
        const target = accumulator[type];
        if (filter.autoload === false) this.#applyDeltaFilter(packageRoot, patterns ?? [], type, target, metadata);
        else if (patterns !== undefined) this.#applyFilter(packageRoot, patterns, type, target, metadata);
        else this.#addDefaultResources(packageRoot, type, target, metadata);
      }
      return true;
    }
    if (manifest && listsResources(manifest)) {
      for (const type of RESOURCE_TYPES) this.#addManifestEntries(manifest[type], packageRoot, type, accumulator[type], metadata);
      return true;
    }
    let foundFolder = false;
    for (const type of RESOURCE_TYPES) {
      const dir = join(packageRoot, type);
      if (!existsSync(dir)) continue;
      for (const file of resourceFilesIn(dir, type)) addResource(accumulator[type], file, metadata, true);
      foundFolder = true;
    }
    return foundFolder;
  }

  #addDefaultResources(packageRoot, type, target, metadata) {
    const entries = readPiManifest(join(packageRoot, "package.json"))?.[type];
    if (entries) {
      this.#addManifestEntries(entries, packageRoot, type, target, metadata);
      return;
    }
    const dir = join(packageRoot, type);
    if (!existsSync(dir)) return;
    for (const file of resourceFilesIn(dir, type)) addResource(target, file, metadata, true);
  }

  /** A settings filter's patterns choose among the package's resources; an empty list turns the type off. */
  #applyFilter(packageRoot, patterns, type, target, metadata) {
    const available = this.#packageResourceFiles(packageRoot, type);
    const selected = patterns.length === 0 ? new Set() : selectByPatterns(available, patterns, packageRoot);
    for (const file of available) addResource(target, file, metadata, selected.has(file));
  }

  #applyDeltaFilter(packageRoot, patterns, type, target, metadata) {
    if (patterns.length === 0) return;
    const decided = deltaSelection(this.#packageResourceFiles(packageRoot, type), patterns, packageRoot);
    for (const [file, enabled] of decided) addResource(target, file, metadata, enabled);
  }

  /** The resources of a type the package offers: its manifest's (after the manifest's own overrides), else its folder's. */
  #packageResourceFiles(packageRoot, type) {
    const entries = readPiManifest(join(packageRoot, "package.json"))?.[type];
    if (entries && entries.length > 0) {
      const files = manifestEntryFiles(entries, packageRoot, type);
      const overrides = entries.filter(isOverride);
      return overrides.length > 0 ? [...selectByPatterns(files, overrides, packageRoot)] : files;
    }
    const dir = join(packageRoot, type);
    return existsSync(dir) ? resourceFilesIn(dir, type) : [];
  }

  #addManifestEntries(entries, root, type, target, metadata) {
    if (!entries) return;
    const files = manifestEntryFiles(entries, root, type);
    const enabled = selectByPatterns(files, entries.filter(isOverride), root);
    for (const file of files) if (enabled.has(file)) addResource(target, file, metadata, true);
  }

  /** Files a manifest's entries name: paths, or globs under the package root. */
  /** Settings' own `extensions`/`skills`/... entries: paths bring files, patterns choose among them. */
  #addSettingsEntries(entries, type, target, metadata, baseDir) {
    if (entries.length === 0) return;
    const paths = entries.filter((entry) => !isSelectionPattern(entry)).map((entry) => resolveFrom(entry, baseDir));
    const patterns = entries.filter(isSelectionPattern);
    const files = resourceFilesAt(paths, type);
    const enabled = selectByPatterns(files, patterns, baseDir);
    for (const file of files) addResource(target, file, metadata, enabled.has(file));
  }

  /**
   * The resources pi finds without being told: the project's .pi folders and
   * `.agents/skills` up to the git root (when the project is trusted), then
   * the user's agent-dir folders and ~/.agents/skills. Settings overrides can
   * turn each off.
   */
  #addDiscoveredResources(accumulator, globalSettings, projectSettings, userBaseDir, projectBaseDir) {
    const userMetadata = { source: "auto", scope: "user", origin: "top-level", baseDir: userBaseDir };
    const projectMetadata = { source: "auto", scope: "project", origin: "top-level", baseDir: projectBaseDir };
    const add = (type, paths, metadata, overrides, baseDir) => {
      for (const path of paths) addResource(accumulator[type], path, metadata, enabledByOverrides(path, overrides, baseDir));
    };
    const userOverrides = (type) => globalSettings[type] ?? [];
    const projectOverrides = (type) => projectSettings[type] ?? [];
    const userAgentsSkillsDir = join(userHomeDir(), ".agents", "skills");
    const trusted = this.#settingsManager.isProjectTrusted();
    if (trusted) {
      add("extensions", collectDiscoveredExtensions(join(projectBaseDir, "extensions")), projectMetadata, projectOverrides("extensions"), projectBaseDir);
      add("skills", collectSkillEntries(join(projectBaseDir, "skills"), "pi"), projectMetadata, projectOverrides("skills"), projectBaseDir);
      const projectAgentsDirs = ancestorAgentsSkillDirs(this.#cwd).filter((dir) => !pathsEqual(dir, userAgentsSkillsDir));
      for (const skillsDir of projectAgentsDirs) {
        const agentsDir = dirname(skillsDir);
        add("skills", collectSkillEntries(skillsDir, "agents"), { ...projectMetadata, baseDir: agentsDir }, projectOverrides("skills"), agentsDir);
      }
      add("prompts", collectTopLevelFiles(join(projectBaseDir, "prompts"), ".md"), projectMetadata, projectOverrides("prompts"), projectBaseDir);
      add("themes", collectTopLevelFiles(join(projectBaseDir, "themes"), ".json"), projectMetadata, projectOverrides("themes"), projectBaseDir);
    }
    add("extensions", collectDiscoveredExtensions(join(userBaseDir, "extensions")), userMetadata, userOverrides("extensions"), userBaseDir);
    add("skills", collectSkillEntries(join(userBaseDir, "skills"), "pi"), userMetadata, userOverrides("skills"), userBaseDir);
    const userAgentsDir = dirname(userAgentsSkillsDir);
    add("skills", collectSkillEntries(userAgentsSkillsDir, "agents"), { ...userMetadata, baseDir: userAgentsDir }, userOverrides("skills"), userAgentsDir);
    add("prompts", collectTopLevelFiles(join(userBaseDir, "prompts"), ".md"), userMetadata, userOverrides("prompts"), userBaseDir);
    add("themes", collectTopLevelFiles(join(userBaseDir, "themes"), ".json"), userMetadata, userOverrides("themes"), userBaseDir);
  }

  // -------------------------------------------------------------------------
  // Installing, removing and updating

  async install(source, options) {
    const parsed = this.#parseSource(source);
    const scope = this.#scopeOf(options);
    this.#assertProjectTrusted(scope);
    await this.#withProgress("install", source, `Installing ${source}...`, async () => {
      if (parsed.type === "npm") return this.#installNpm(parsed, scope, false);
      if (parsed.type === "git") return this.#installGit(parsed, scope);
      // A local source is used where it is; it only has to exist.
      const path = resolveFrom(parsed.path, this.#cwd);
      if (!existsSync(path)) throw new Error(`Path does not exist: ${path}`);
    });
  }

  async installAndPersist(source, options) {
    await this.install(source, options);
    this.addSourceToSettings(source, options);
  }

  async remove(source, options) {
    const parsed = this.#parseSource(source);
    const scope = this.#scopeOf(options);
    this.#assertProjectTrusted(scope);
    await this.#withProgress("remove", source, `Removing ${source}...`, async () => {
      if (parsed.type === "npm") await this.#uninstallNpm(parsed, scope);
      else if (parsed.type === "git") this.#removeGit(parsed, scope);
      // Removing a local source leaves its files alone.
    });
  }

  async removeAndPersist(source, options) {
    await this.remove(source, options);
    return this.removeSourceFromSettings(source, options);
  }

  /** Updates every configured package, or those naming the same package as `source`. */
  async update(source) {
    const configured = [
      ...this.#packagesOf("user").map((pkg) => ({ pkg, scope: "user" })),
      ...this.#packagesOf("project").map((pkg) => ({ pkg, scope: "project" })),
    ];
    const identity = source ? this.#packageIdentity(source) : undefined;
    const selected = configured.filter(({ pkg, scope }) => !identity || this.#packageIdentity(sourceOf(pkg), scope) === identity);
    if (source && selected.length === 0) throw new Error(this.#noMatchingPackageMessage(source, configured.map(({ pkg }) => pkg)));
    await this.#updateSources(selected.map(({ pkg, scope }) => ({ source: sourceOf(pkg), scope })));
  }

  #noMatchingPackageMessage(source, configuredPackages) {
    const suggestion = this.#suggestConfiguredSource(source, configuredPackages);
    return suggestion ? `No matching package found for ${source}. Did you mean ${suggestion}?` : `No matching package found for ${source}`;
  }

  /** A configured source the user probably meant: an npm name or spec typed without `npm:`, a git `host/path[@ref]` without `git:`. */
  #suggestConfiguredSource(source, configuredPackages) {
    const typed = source.trim();
    for (const pkg of configuredPackages) {
      const configured = sourceOf(pkg);
      const parsed = this.#parseSource(configured);
      if (parsed.type === "npm" && (typed === parsed.name || typed === parsed.spec)) return configured;
      if (parsed.type === "git") {
        const shorthand = `${parsed.host}/${parsed.path}`;
        if (typed === shorthand || (parsed.ref && typed === `${shorthand}@${parsed.ref}`)) return configured;
      }
    }
    return undefined;
  }

  /**
   * Brings configured npm and git packages up to date: unpinned npm packages
   * with a newer version (one npm run per scope), every git package
   * (a pinned ref is still reconciled with its checkout). Each changed
   * package is reported as a `result` progress event.
   */
  async #updateSources(sources) {
    if (isOfflineMode() || sources.length === 0) return;
    const npmCandidates = [];
    const gitCandidates = [];
    for (const entry of sources) {
      const parsed = this.#parseSource(entry.source);
      if (parsed.type === "npm" && !parsed.pinned) npmCandidates.push({ ...entry, parsed });
      else if (parsed.type === "git") gitCandidates.push({ ...entry, parsed });
    }
    const checks = await this.#runWithConcurrency(
      npmCandidates.map((entry) => async () => ({ ...entry, ...(await this.#npmUpdateCheck(entry.parsed, entry.scope)) })),
      UPDATE_CHECK_CONCURRENCY,
    );
    const npmUpdates = checks.filter((check) => check.shouldUpdate);
    const tasks = ["user", "project"]
      .map((scope) => npmUpdates.filter((entry) => entry.scope === scope))
      .filter((batch) => batch.length > 0)
      .map((batch) => this.#updateNpmBatch(batch, batch[0].scope));
    const gitChanges = [];
    const gitTasks = gitCandidates.map((entry) => () =>
      this.#withProgress("update", entry.source, `Updating ${entry.source}...`, async () => {
        const targetDir = this.#gitInstallPath(entry.parsed, entry.scope);
        const from = await this.#gitHead(targetDir);
        await this.#updateGit(entry.parsed, entry.scope);
        const to = await this.#gitHead(targetDir);
        if (from !== to) gitChanges.push({ source: entry.source, type: "git", scope: entry.scope, from, to });
      }),
    );
    if (gitTasks.length > 0) tasks.push(this.#runWithConcurrency(gitTasks, GIT_UPDATE_CONCURRENCY));
    await Promise.all(tasks);
    const changed = [];
    for (const entry of npmUpdates) {
      const installedPath = this.#managedNpmInstallPath(entry.parsed, entry.scope);
      const to = existsSync(installedPath) ? installedPackageVersion(installedPath) : undefined;
      if (to !== entry.installedVersion) changed.push({ source: entry.source, type: "npm", scope: entry.scope, from: entry.installedVersion, to });
    }
    // Git results in configured order, whatever order the updates finished in.
    for (const entry of gitCandidates) {
      const change = gitChanges.find((candidate) => candidate.source === entry.source && candidate.scope === entry.scope);
      if (change) changed.push(change);
    }
    for (const change of changed) {
      const show = (value) => (value === undefined ? "(none)" : change.type === "git" ? value.slice(0, 7) : value);
      const scopeNote = change.scope === "project" ? " (project)" : "";
      this.#progressCallback?.({
        type: "result",
        action: "update",
        source: change.source,
        message: `${change.source}${scopeNote} ${show(change.from)} -> ${show(change.to)}`,
      });
    }
  }

  /** Whether an npm package needs updating: not installed, newer upstream, or unknown (the lookup failed). */
  async #npmUpdateCheck(parsed, scope) {
    const installedPath = this.#managedNpmInstallPath(parsed, scope);
    const installedVersion = existsSync(installedPath) ? installedPackageVersion(installedPath) : undefined;
    if (!installedVersion) return { shouldUpdate: true };
    try {
      const targetVersion = await this.#latestNpmVersion(parsed.version ? parsed.spec : parsed.name, parsed.range);
      return { shouldUpdate: isNewerVersion(targetVersion, installedVersion), installedVersion, targetVersion };
    } catch {
      return { shouldUpdate: true, installedVersion };
    }
  }

  async #updateNpmBatch(entries, scope) {
    const single = entries.length === 1;
    const label = single ? entries[0].source : `${scope} npm packages`;
    const message = single ? `Updating ${entries[0].source}...` : `Updating ${scope} npm packages...`;
    // `name@latest` for unversioned specs: a bare name would keep the range saved in package.json.
    const specs = entries.map((entry) => (entry.parsed.version ? entry.parsed.spec : `${entry.parsed.name}@latest`));
    await this.#withProgress("update", label, message, async () => {
      const installRoot = this.#npmInstallRoot(scope, false);
      this.#ensureNpmProject(installRoot);
      await this.#runNpm(this.#npmInstallArgs(specs, installRoot));
    });
    this.#reportUnchangedNpmUpdates(entries, scope);
  }

  /** npm can install the old version from stale registry metadata right after a publish; say so instead of staying silent. */
  #reportUnchangedNpmUpdates(entries, scope) {
    for (const entry of entries) {
      if (!entry.installedVersion || !entry.targetVersion) continue;
      const versionAfter = installedPackageVersion(this.#managedNpmInstallPath(entry.parsed, scope));
      if (versionAfter !== entry.installedVersion) continue;
      this.#progressCallback?.({
        type: "progress",
        action: "update",
        source: entry.source,
        message: `${entry.source} is still ${versionAfter} (registry reports ${entry.targetVersion}); npm registry metadata may be stale, try again in a few minutes`,
      });
    }
  }

  /** Configured packages with a newer version or commit upstream (never local or pinned ones, nor ones not installed). */
  async checkForAvailableUpdates() {
    if (isOfflineMode()) return [];
    const configured = [
      ...this.#packagesOf("project").map((pkg) => ({ pkg, scope: "project" })),
      ...this.#packagesOf("user").map((pkg) => ({ pkg, scope: "user" })),
    ];
    const checks = this.#dedupePackages(configured).map(({ pkg, scope }) => async () => {
      const source = sourceOf(pkg);
      const parsed = this.#parseSource(source);
      if (parsed.type === "local" || parsed.pinned) return undefined;
      if (parsed.type === "npm") {
        const installedPath = this.#npmInstallPath(parsed, scope);
        if (!existsSync(installedPath) || !(await this.#npmHasAvailableUpdate(parsed, installedPath))) return undefined;
        return { source, displayName: parsed.name, type: "npm", scope };
      }
      const installedPath = this.#gitInstallPath(parsed, scope);
      if (!existsSync(installedPath) || !(await this.#gitHasAvailableUpdate(installedPath))) return undefined;
      return { source, displayName: `${parsed.host}/${parsed.path}`, type: "git", scope };
    });
    return (await this.#runWithConcurrency(checks, UPDATE_CHECK_CONCURRENCY)).filter((result) => result !== undefined);
  }

  /** Runs `tasks` (functions returning promises) at most `limit` at a time; results in task order. */
  async #runWithConcurrency(tasks, limit) {
    const results = new Array(tasks.length);
    let next = 0;
    const worker = async () => {
      while (next < tasks.length) {
        const index = next++;
        results[index] = await tasks[index]();
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, tasks.length)) }, worker));
    return results;
  }

  // -------------------------------------------------------------------------
  // npm

  #packageManagerName() {
    const { command, args } = this.#npmCommand();
    return packageManagerName(command, args);
  }

  #runCommand(command, args, options) {
    return this.#commandOutput === "capture" ? runQuietly(command, args, options) : runOnTerminal(command, args, options);
  }

  async #runNpm(extraArgs, options) {
    const { command, args } = this.#npmCommand();
    await this.#runCommand(command, [...args, ...extraArgs], options);
  }

  #npmInstallRoot(scope, temporary) {
    if (temporary) return this.#temporaryDir("npm");
    if (scope === "project") {
      this.#assertProjectTrusted(scope);
      return join(this.#cwd, CONFIG_DIR_NAME, "npm");
    }
    return join(this.#agentDir, "npm");
  }

  /**
   * Install arguments per package manager. Peer dependencies are left alone:
   * extensions get pi's packages from the host, and auto-installed pi peers
   * could block later updates.
   */
  #npmInstallArgs(specs, root) {
    // npm writes broken nested package-lock.json paths when --prefix goes through a symlink.
    const installRoot = existsSync(root) ? realpathSync(root) : root;
    switch (this.#packageManagerName()) {
      case "bun":
        return ["install", ...specs, "--cwd", installRoot, "--omit=peer"];
      case "pnpm":
        return ["install", ...specs, "--prefix", installRoot, "--config.auto-install-peers=false", "--config.strict-peer-dependencies=false", "--config.strict-dep-builds=false"];
      default:
        // No audit: `npm audit fix` would run without --legacy-peer-deps and install pi's peers.
        return ["install", ...specs, "--prefix", installRoot, "--legacy-peer-deps", "--no-audit", "--no-fund"];
    }
  }

  /** Installing a cloned repository's own dependencies (production only). */
  #gitDependencyInstallArgs() {
    switch (this.#packageManagerName()) {
      case "bun":
        return ["install", "--omit=dev", "--omit=peer"];
      case "pnpm":
        return ["install", "--prod", "--config.auto-install-peers=false", "--config.strict-peer-dependencies=false", "--config.strict-dep-builds=false"];
      case "npm":
        return ["install", "--omit=dev", "--legacy-peer-deps", "--no-audit", "--no-fund"];
      default:
        return ["install"];
    }
  }

  /** An install root is a private npm project, kept out of git and cloud sync. */
  #ensureNpmProject(installRoot) {
    if (!existsSync(installRoot)) mkdirSync(installRoot, { recursive: true });
    markIgnoredByCloudSync(installRoot);
    this.#ensureGitIgnore(installRoot);
    const packageJsonPath = join(installRoot, "package.json");
    if (!existsSync(packageJsonPath)) writeFileSync(packageJsonPath, JSON.stringify({ name: "pi-extensions", private: true }, null, 2), "utf-8");
  }

  #ensureGitIgnore(dir) {
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
    const ignorePath = join(dir, ".gitignore");
    if (!existsSync(ignorePath)) writeFileSync(ignorePath, "*\n!.gitignore\n", "utf-8");
  }

  async #installNpm(parsed, scope, temporary) {
    const installRoot = this.#npmInstallRoot(scope, temporary);
    this.#ensureNpmProject(installRoot);
    await this.#runNpm(this.#npmInstallArgs([parsed.spec], installRoot));
  }

  async #uninstallNpm(parsed, scope) {
    const root = this.#npmInstallRoot(scope, false);
    if (!existsSync(root)) return;
    const installRoot = realpathSync(root);
    const manager = this.#packageManagerName();
    if (manager === "bun") {
      await this.#runNpm(["uninstall", parsed.name, "--cwd", installRoot]);
      return;
    }
    const args = ["uninstall", parsed.name, "--prefix", installRoot];
    if (manager !== "pnpm") args.push("--legacy-peer-deps", "--no-audit", "--no-fund");
    await this.#runNpm(args);
  }

  async #npmHasAvailableUpdate(parsed, installedPath) {
    if (isOfflineMode()) return false;
    const installedVersion = installedPackageVersion(installedPath);
    if (!installedVersion) return false;
    try {
      const targetVersion = await this.#latestNpmVersion(parsed.version ? parsed.spec : parsed.name, parsed.range);
      return isNewerVersion(targetVersion, installedVersion);
    } catch {
      return false;
    }
  }

  /** The version `npm view` names for a spec: one version, or the newest of a list (within the range, if any). */
  async #latestNpmVersion(packageSpec, range) {
    const { command, args } = this.#npmCommand();
    const raw = (await captureOutput(command, [...args, "view", packageSpec, "version", "--json"], { cwd: this.#cwd, timeoutMs: NETWORK_TIMEOUT_MS })).trim();
    if (!raw) throw new Error("Empty response from npm view");
    const answer = JSON.parse(raw);
    if (typeof answer === "string") return answer;
    if (Array.isArray(answer)) {
      const versions = answer.filter((value) => typeof value === "string" && value.length > 0);
      const latest = range ? newestSatisfying(versions, range) : newestVersion(versions);
      if (latest) return latest;
    }
    throw new Error("Unexpected response from npm view");
  }

  // -------------------------------------------------------------------------
  // git

  #gitInstallRoot(scope) {
    if (scope === "temporary") return undefined;
    if (scope === "project") {
      this.#assertProjectTrusted(scope);
      return join(this.#cwd, CONFIG_DIR_NAME, "git");
    }
    return join(this.#agentDir, "git");
  }

  /** A file beside a checkout that says an update stopped halfway (its clean and dependency install are still owed). */
  #gitUpdateMarkerPath(targetDir) {
    return join(dirname(targetDir), `.${basename(targetDir)}.pi-update-incomplete`);
  }

  #git(args, cwd) {
    return this.#runCommand("git", args, { cwd });
  }

  #gitCapture(args, cwd, env) {
    return captureOutput("git", args, { cwd, timeoutMs: NETWORK_TIMEOUT_MS, env });
  }

  async #gitHead(targetDir) {
    if (!existsSync(targetDir)) return undefined;
    try {
      return (await this.#gitCapture(["rev-parse", "HEAD"], targetDir)).trim() || undefined;
    } catch {
      return undefined;
    }
  }

  /** Clones (and checks out the ref, and installs dependencies); an existing checkout is brought to its target instead. */
  async #installGit(parsed, scope) {
    const targetDir = this.#gitInstallPath(parsed, scope);
    if (existsSync(targetDir)) {
      await this.#syncGitCheckout(parsed, targetDir);
      return;
    }
    const gitRoot = this.#gitInstallRoot(scope);
    if (gitRoot) this.#ensureGitIgnore(gitRoot);
    mkdirSync(dirname(targetDir), { recursive: true });
    rmSync(this.#gitUpdateMarkerPath(targetDir), { force: true });
    try {
      await this.#git(["clone", parsed.repo, targetDir]);
      if (parsed.ref) await this.#git(["checkout", parsed.ref], targetDir);
      if (existsSync(join(targetDir, "package.json"))) await this.#runNpm(this.#gitDependencyInstallArgs(), { cwd: targetDir });
    } catch (error) {
      // A half-made clone would pass for an install next time.
      rmSync(targetDir, { recursive: true, force: true });
      this.#pruneEmptyGitParents(targetDir, gitRoot);
      throw error;
    }
  }

  async #updateGit(parsed, scope) {
    const targetDir = this.#gitInstallPath(parsed, scope);
    if (!existsSync(targetDir)) {
      await this.#installGit(parsed, scope);
      return;
    }
    await this.#syncGitCheckout(parsed, targetDir);
  }

  /** A pinned ref is fetched and checked out; otherwise the checkout follows its upstream branch (or origin's HEAD). */
  async #syncGitCheckout(parsed, targetDir) {
    if (parsed.ref) {
      await this.#ensureGitRef(targetDir, ["fetch", "origin", parsed.ref], "FETCH_HEAD");
      return;
    }
    const target = await this.#gitUpdateTarget(targetDir);
    await this.#ensureGitRef(targetDir, target.fetchArgs, target.ref);
  }

  /** What an unpinned checkout updates to, and the fetch (of that branch only) that brings it. */
  async #gitUpdateTarget(targetDir) {
    const fetchBranch = (branch) => ["fetch", "--prune", "--no-tags", "origin", `+refs/heads/${branch}:refs/remotes/origin/${branch}`];
    try {
      const upstream = (await this.#gitCapture(["rev-parse", "--abbrev-ref", "@{upstream}"], targetDir)).trim();
      if (!upstream.startsWith("origin/")) throw new Error(`Unsupported upstream remote: ${upstream}`);
      const branch = upstream.slice("origin/".length);
      if (!branch) throw new Error("Missing upstream branch name");
      await this.#gitCapture(["rev-parse", "@{upstream}"], targetDir);
      return { ref: "@{upstream}", fetchArgs: fetchBranch(branch) };
    } catch {
      await this.#git(["remote", "set-head", "origin", "-a"], targetDir).catch(() => {});
      await this.#gitCapture(["rev-parse", "origin/HEAD"], targetDir);
      const originHead = await this.#gitCapture(["symbolic-ref", "refs/remotes/origin/HEAD"], targetDir).catch(() => "");
      const branch = originHead.trim().replace(/^refs\/remotes\/origin\//, "");
      return { ref: "origin/HEAD", fetchArgs: branch ? fetchBranch(branch) : ["fetch", "--prune", "--no-tags", "origin", "+HEAD:refs/remotes/origin/HEAD"] };
    }
  }

  /**
   * Fetches, then resets the checkout to `ref` when it is elsewhere, cleans it
   * and installs its dependencies. A marker file covers the time between the
   * reset and the end, so an interrupted update is finished next time.
   */
  async #ensureGitRef(targetDir, fetchArgs, ref) {
    await this.#git(fetchArgs, targetDir);
    const localHead = await this.#gitCapture(["rev-parse", "HEAD"], targetDir);
    const commitRef = `${ref}^{commit}`;
    const targetHead = await this.#gitCapture(["rev-parse", commitRef], targetDir);
    const markerPath = this.#gitUpdateMarkerPath(targetDir);
    if (localHead.trim() === targetHead.trim()) {
      if (existsSync(markerPath)) await this.#cleanAndInstallGitDependencies(targetDir, markerPath);
      else await this.#repairMissingGitDependencies(targetDir);
      return;
    }
    writeFileSync(markerPath, "", "utf-8");
    await this.#git(["reset", "--hard", commitRef], targetDir);
    await this.#cleanAndInstallGitDependencies(targetDir, markerPath);
  }

  /** Removes untracked files (an extension's checkout stays pristine) and installs dependencies; the marker stays if cleaning failed. */
  async #cleanAndInstallGitDependencies(targetDir, markerPath) {
    let cleaned = true;
    try {
      await this.#git(["clean", "-fdx"], targetDir);
    } catch (error) {
      // Files another pi session has loaded cannot always be deleted (Windows); the next update retries.
      cleaned = false;
      const reason = error instanceof Error ? error.message : String(error);
      this.#progressCallback?.({
        type: "progress",
        action: "update",
        source: targetDir,
        message: `Could not remove all untracked files in ${targetDir} (${reason}). Files may be in use by another pi session; close it and run the update again.`,
      });
    }
    if (existsSync(join(targetDir, "package.json"))) await this.#runNpm(this.#gitDependencyInstallArgs(), { cwd: targetDir });
    if (cleaned) rmSync(markerPath, { force: true });
  }

  /** Whether a dependency the checkout's package.json names is missing from its node_modules. */
  #hasMissingGitDependencies(targetDir) {
    const packageJsonPath = join(targetDir, "package.json");
    if (!existsSync(packageJsonPath)) return false;
    try {
      const { dependencies } = JSON.parse(stripBom(readFileSync(packageJsonPath, "utf-8")));
      if (!isPlainObject(dependencies)) return false;
      const nodeModules = resolve(targetDir, "node_modules");
      return Object.keys(dependencies).some((name) => {
        const path = resolve(nodeModules, name);
        return path.startsWith(`${nodeModules}${sep}`) && !existsSync(path);
      });
    } catch {
      return false;
    }
  }

  async #repairMissingGitDependencies(targetDir) {
    if (this.#hasMissingGitDependencies(targetDir)) await this.#runNpm(this.#gitDependencyInstallArgs(), { cwd: targetDir });
  }

  /** A temporary checkout follows its source when loaded; a commit ref already checked out needs no fetch. */
  async #refreshTemporaryGitSource(parsed, source, installedPath) {
    if (isOfflineMode()) return;
    try {
      if (parsed.ref && /^[0-9a-f]{7,64}$/i.test(parsed.ref)) {
        const head = await this.#gitCapture(["rev-parse", "HEAD"], installedPath);
        if (head.trim().toLowerCase().startsWith(parsed.ref.toLowerCase())) return;
      }
      await this.#withProgress("pull", source, `Refreshing ${source}...`, () => this.#updateGit(parsed, "temporary"));
    } catch {
      // The cached checkout stays when the refresh fails.
    }
  }

  async #gitHasAvailableUpdate(installedPath) {
    if (isOfflineMode()) return false;
    try {
      const localHead = await this.#gitCapture(["rev-parse", "HEAD"], installedPath);
      const remoteHead = await this.#remoteGitHead(installedPath);
      return localHead.trim() !== remoteHead.trim();
    } catch {
      return false;
    }
  }

  /** The commit the checkout's upstream branch (or else origin's HEAD) points at on the remote. */
  async #remoteGitHead(installedPath) {
    const lsRemote = (ref) => this.#gitCapture(["ls-remote", "origin", ref], installedPath, { GIT_TERMINAL_PROMPT: "0" });
    const upstreamRef = await this.#gitUpstreamRef(installedPath);
    if (upstreamRef) {
      const match = (await lsRemote(upstreamRef)).match(/^([0-9a-f]{40})\s+/m);
      if (match?.[1]) return match[1];
    }
    const match = (await lsRemote("HEAD")).match(/^([0-9a-f]{40})\s+HEAD$/m);
    if (!match?.[1]) throw new Error("Failed to determine remote HEAD");
    return match[1];
  }

  async #gitUpstreamRef(installedPath) {
    try {
      const upstream = (await this.#gitCapture(["rev-parse", "--abbrev-ref", "@{upstream}"], installedPath)).trim();
      if (!upstream.startsWith("origin/")) return undefined;
      const branch = upstream.slice("origin/".length);
      return branch ? `refs/heads/${branch}` : undefined;
    } catch {
      return undefined;
    }
  }

  #removeGit(parsed, scope) {
    const targetDir = this.#gitInstallPath(parsed, scope);
    rmSync(targetDir, { recursive: true, force: true });
    rmSync(this.#gitUpdateMarkerPath(targetDir), { force: true });
    this.#pruneEmptyGitParents(targetDir, this.#gitInstallRoot(scope));
  }

  /** Removes the host and owner folders a removed checkout leaves empty, up to the git root. */
  #pruneEmptyGitParents(targetDir, installRoot) {
    if (!installRoot) return;
    const root = resolve(installRoot);
    for (let current = dirname(targetDir); current.startsWith(root) && current !== root; current = dirname(current)) {
      if (!existsSync(current)) continue;
      if (readdirSync(current).length > 0) return;
      try {
        rmSync(current, { recursive: true, force: true });
      } catch {
        return;
      }
    }
  }
}
